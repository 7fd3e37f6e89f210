import type { Element } from '@xmldom/xmldom'
import { describe, expect, it } from 'vitest'
import { escapeAttr, escapeText, formatJUnit } from '../../src/report/junit.js'
import type { Finding } from '../../src/report/model.js'
import { EMPTY, report, SMALL } from './fixtures.js'
import { parseXml } from './schemas.js'

const warn: Finding = {
  level: 'warn',
  type: 'deprecated',
  message: 'policy/v1beta1 is deprecated',
  rule: 'api/deprecated',
}

const TINY = report(
  [
    {
      source: { file: 'app.yaml', line: 1, column: 1 },
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'default',
      name: 'web',
      operation: 'CREATE',
      findings: [
        {
          level: 'deny',
          type: 'policy',
          message: 'ValidatingAdmissionPolicy \'p\' denied request: <no> & "bad"',
          rule: 'vap/p',
        },
        warn,
      ],
    },
    {
      source: { file: 'app.yaml', line: 30, column: 1 },
      apiVersion: 'v1',
      kind: 'Service',
      namespace: 'default',
      name: 'web',
      operation: 'UPDATE',
      findings: [],
    },
  ],
  [
    {
      level: 'error',
      type: 'parse',
      message: 'bad indentation',
      source: { file: 'x.yaml', line: 2, column: 3 },
      rule: 'input/yaml',
    },
  ],
)

describe('junit', () => {
  it('prints one testsuite per file and one testcase per object and diagnostic', () => {
    expect(formatJUnit(TINY)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="kelp check" tests="3" failures="1" errors="1" skipped="0" time="0">',
        '  <testsuite name="x.yaml" tests="1" failures="0" errors="1" skipped="0" time="0">',
        '    <testcase name="input/yaml at x.yaml:2:3" classname="x.yaml" file="x.yaml" line="2" time="0">',
        '      <error message="bad indentation" type="input/yaml">bad indentation</error>',
        '    </testcase>',
        '  </testsuite>',
        '  <testsuite name="app.yaml" tests="2" failures="1" errors="0" skipped="0" time="0">',
        '    <testcase name="Deployment default/web" classname="app.yaml" file="app.yaml" line="1" time="0">',
        '      <failure message="Error from server (Forbidden): error when creating &quot;app.yaml&quot;: ValidatingAdmissionPolicy &apos;p&apos; denied request: &lt;no&gt; &amp; &quot;bad&quot;" type="vap/p">Error from server (Forbidden): error when creating "app.yaml": ValidatingAdmissionPolicy \'p\' denied request: &lt;no&gt; &amp; "bad"</failure>',
        '      <system-out>Warning: policy/v1beta1 is deprecated</system-out>',
        '    </testcase>',
        '    <testcase name="Service default/web" classname="app.yaml" file="app.yaml" line="30" time="0"/>',
        '  </testsuite>',
        '</testsuites>',
      ].join('\n'),
    )
  })

  it('fails on the findings at or above failOn', () => {
    const out = formatJUnit(TINY, { failOn: 'warn' })
    expect(out).toContain(
      '<failure message="Error from server (Forbidden): error when creating &quot;app.yaml&quot;: ValidatingAdmissionPolicy &apos;p&apos; denied request: &lt;no&gt; &amp; &quot;bad&quot;" type="vap/p">Error from server (Forbidden): error when creating "app.yaml": ValidatingAdmissionPolicy \'p\' denied request: &lt;no&gt; &amp; "bad"\nWarning: policy/v1beta1 is deprecated</failure>',
    )
    expect(out).not.toContain('system-out')
    // none: only errors fail
    const none = parseXml(formatJUnit(SMALL, { failOn: 'none' }))
    expect(none.getElementsByTagName('failure').length).toBe(0)
    expect(none.getElementsByTagName('error').length).toBe(2)
    const audit = parseXml(formatJUnit(SMALL, { failOn: 'audit' }))
    expect(audit.getElementsByTagName('failure').length).toBe(6)
  })

  it('is well-formed and its counts add up', () => {
    for (const r of [SMALL, EMPTY, TINY]) {
      const doc = parseXml(formatJUnit(r))
      const root = doc.documentElement!
      expect(root.tagName).toBe('testsuites')
      const suites = Array.from(root.getElementsByTagName('testsuite')) as Element[]
      let tests = 0
      for (const s of suites) {
        const cases = Array.from(s.getElementsByTagName('testcase')) as Element[]
        expect(Number(s.getAttribute('tests'))).toBe(cases.length)
        expect(Number(s.getAttribute('failures'))).toBe(s.getElementsByTagName('failure').length)
        expect(Number(s.getAttribute('errors'))).toBe(s.getElementsByTagName('error').length)
        tests += cases.length
      }
      expect(Number(root.getAttribute('tests'))).toBe(tests)
      expect(tests).toBe(r.objects.length + r.diagnostics.length)
    }
    const small = parseXml(formatJUnit(SMALL)).documentElement!
    expect(
      (Array.from(small.getElementsByTagName('testsuite')) as Element[]).map((s) => s.getAttribute('name')),
    ).toEqual(['policies.yaml', '-', 'deploy.yaml', 'crs.yaml', 'old.yaml'])
  })

  it('escapes markup, quotes, newlines and characters XML cannot carry', () => {
    const nasty = 'a<b>&c"d\'e]]>f\tg\nh\r\x00i\x1bj\ud800k\ufffe\u{1F600}'
    const r = report([
      {
        source: { file: 'we"ird&<>.yaml', line: 1 },
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'n',
        name: nasty,
        operation: 'CREATE',
        findings: [{ level: 'deny', type: 'policy', message: nasty, rule: nasty }],
      },
    ])
    const xml = formatJUnit(r)
    expect(xml).not.toContain(']]>')
    expect(xml).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/)
    const doc = parseXml(xml)
    const failure = doc.getElementsByTagName('failure')[0]!
    const shown = 'a<b>&c"d\'e]]>f\tg\nh\r\\x00i\\x1bj\\ud800k\\ufffe\u{1F600}'
    // attribute values keep tabs and line breaks (as references); text keeps everything but the unencodable
    expect(failure.getAttribute('type')).toBe(shown)
    expect(failure.getAttribute('message')).toBe(
      `Error from server (Forbidden): error when creating "we\\"ird&<>.yaml": ${shown.split('\n')[0]}`,
    )
    expect(failure.textContent).toBe(`Error from server (Forbidden): error when creating "we\\"ird&<>.yaml": ${shown}`)
    const testcase = doc.getElementsByTagName('testcase')[0]!
    expect(testcase.getAttribute('name')).toBe(`ConfigMap n/${shown}`)
    expect(testcase.getAttribute('classname')).toBe('we"ird&<>.yaml')
  })

  it('escape helpers', () => {
    expect(escapeText('a<b>&c"\'\r\n')).toBe('a&lt;b&gt;&amp;c"\'&#13;\n')
    expect(escapeAttr('a<b>&c"\'\t\n\r')).toBe('a&lt;b&gt;&amp;c&quot;&apos;&#9;&#10;&#13;')
  })

  it('formats 150,000 objects of one file without overflowing the stack (issue 25)', () => {
    // the test cases of a suite were spread into push(): past ~120,000 arguments V8 throws RangeError, which the
    // CLI turned into exit 1, which CI reads as findings
    const objects = Array.from({ length: 150_000 }, (_, i) => ({
      source: { file: 'big.yaml', line: 1 + 4 * i, column: 1 },
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: `c${i}`,
      operation: 'CREATE' as const,
      findings: [],
    }))
    const xml = formatJUnit(report(objects))
    expect(xml.split('\n').filter((l) => l.startsWith('    <testcase ')).length).toBe(150_000)
    expect(xml).toContain('<testsuite name="big.yaml" tests="150000" failures="0" errors="0"')
  })
})
