import {
  exceptedPrefix,
  type FormatOptions,
  fails,
  findingText,
  location,
  objectLabel,
  placedAt,
  pushAll,
} from './common.js'
import type { FailOn, Finding, ObjectResult, Report } from './model.js'

// `kelp check -o junit`: JUnit XML for CI test reports (Jenkins, GitLab, Azure DevOps, the JUnit actions).
//
// One <testsuite> per input file (named by the file, in order of first appearance), one <testcase> per object
// (`Deployment default/web`, classname the file) and per diagnostic (`<rule> at <file:line:col>`). A test case
// fails (<failure>) when it has findings at or above `failOn` (default `deny`), and is in error (<error>) when it
// has error-level findings (parse errors, refused policy material); the element's message is the first such
// finding, its text every such finding in kubectl's words. Findings below the threshold go to <system-out>, as do
// excepted findings (`Excepted (<exception>: <reason>): …`); a case only excepted findings would fail is
// <skipped> (and counted in `skipped`).
// Diagnostics without a file go to a testsuite named `kelp`. `time` is always 0: the output depends only on
// the Report.

/** Characters XML 1.0 cannot carry at all (not even as references), shown as `\xNN` / `\uNNNN`. */
function xmlChars(s: string): string {
  return s.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => {
      const code = c.charCodeAt(0)
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
    },
  )
}

/** Text content: `&`, `<`, `>` escaped (`>` too, so that `]]>` never appears), CR as a reference (a parser
 * would turn a literal one into LF). */
export function escapeText(s: string): string {
  return xmlChars(s).replace(/[&<>\r]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;',
  )
}

/** An attribute value (in double quotes): also `"`, `'`, and tab / newline / CR as references, which attribute
 * value normalisation would otherwise turn into spaces. */
export function escapeAttr(s: string): string {
  return xmlChars(s).replace(/[&<>"'\t\n\r]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;'
      case '<':
        return '&lt;'
      case '>':
        return '&gt;'
      case '"':
        return '&quot;'
      case "'":
        return '&apos;'
      case '\t':
        return '&#9;'
      case '\n':
        return '&#10;'
      default:
        return '&#13;'
    }
  })
}

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('')
}

interface Case {
  readonly name: string
  readonly classname: string
  readonly file?: string
  readonly line?: number
  readonly findings: readonly Finding[]
  readonly object?: ObjectResult
}

interface Rendered {
  readonly xml: string
  readonly failure: boolean
  readonly error: boolean
  /** Only excepted findings would have failed it (an accepted exception: `<skipped>`). */
  readonly skipped?: boolean
}

function testcase(c: Case, failOn: FailOn): Rendered {
  const bad = c.findings.filter((f) => fails(f.level, failOn))
  const errors = bad.filter((f) => f.level === 'error')
  const rest = c.findings.filter((f) => !fails(f.level, failOn))
  // an object's finding at its field's line says where (the test case's line is the object's)
  const text = (f: Finding) => {
    const at = c.object !== undefined ? placedAt(f, c.object) : undefined
    return at === undefined ? findingText(f, c.object) : `${at}: ${findingText(f, c.object)}`
  }
  const lines = (fs: readonly Finding[]) => fs.map(text).join('\n')
  const open = `    <testcase${attrs({ name: c.name, classname: c.classname, file: c.file, line: c.line, time: 0 })}`
  // kubectl apply's `<kind>/<name> unchanged`: an empty patch, nothing sent (a passing test that says so)
  const unchanged =
    c.object?.outcome === 'unchanged' ? ['unchanged: kubectl apply sends no patch, no admission runs'] : []
  // excepted findings: listed in system-out; when only they would fail the case, it is skipped (and counted so)
  const excepted = c.object?.excepted ?? []
  const exceptedLines = excepted.map((f) => exceptedPrefix(f) + text(f))
  const skip = bad.length === 0 ? excepted.find((f) => fails(f.level, failOn)) : undefined
  if (bad.length === 0 && rest.length === 0 && unchanged.length === 0 && excepted.length === 0)
    return { xml: `${open}/>`, failure: false, error: false }
  const body: string[] = []
  if (skip !== undefined) body.push(`      <skipped${attrs({ message: exceptedPrefix(skip).replace(/: $/, '') })}/>`)
  if (bad.length > 0) {
    const tag = errors.length > 0 ? 'error' : 'failure'
    const first = errors[0] ?? bad[0]!
    const message = findingText(first, c.object).split('\n')[0]
    body.push(`      <${tag}${attrs({ message, type: first.rule })}>${escapeText(lines(bad))}</${tag}>`)
  }
  if (rest.length > 0 || unchanged.length > 0 || excepted.length > 0)
    body.push(
      `      <system-out>${escapeText([...unchanged, ...(rest.length > 0 ? [lines(rest)] : []), ...exceptedLines].join('\n'))}</system-out>`,
    )
  return {
    xml: [`${open}>`, ...body, '    </testcase>'].join('\n'),
    failure: bad.length > 0 && errors.length === 0,
    error: errors.length > 0,
    ...(skip !== undefined ? { skipped: true } : {}),
  }
}

/** `kelp check -o junit`. */
export function formatJUnit(report: Report, options: FormatOptions = {}): string {
  const failOn = options.failOn ?? 'deny'
  const suites = new Map<string, Case[]>()
  const suite = (name: string): Case[] => {
    let cases = suites.get(name)
    if (cases === undefined) suites.set(name, (cases = []))
    return cases
  }
  for (const d of report.diagnostics) {
    const file = d.source?.file
    const at = location(d.source)
    suite(file ?? 'kelp').push({
      name: at === '' ? d.rule : `${d.rule} at ${at}`,
      classname: file ?? 'kelp',
      ...(file !== undefined && file !== '-' ? { file } : {}),
      ...(d.source?.line !== undefined ? { line: d.source.line } : {}),
      findings: [d],
    })
  }
  for (const o of report.objects) {
    suite(o.source.file).push({
      name: objectLabel(o),
      classname: o.source.file,
      ...(o.source.file !== '-' ? { file: o.source.file } : {}),
      ...(o.source.line !== undefined ? { line: o.source.line } : {}),
      findings: o.findings,
      object: o,
    })
  }
  const out: string[] = []
  let tests = 0
  let failures = 0
  let errors = 0
  let skipped = 0
  for (const [name, cases] of suites) {
    const rendered = cases.map((c) => testcase(c, failOn))
    const f = rendered.filter((r) => r.failure).length
    const e = rendered.filter((r) => r.error).length
    const s = rendered.filter((r) => r.skipped === true).length
    tests += cases.length
    failures += f
    errors += e
    skipped += s
    // not a spread into push: a suite of 150,000 objects would overflow the stack
    out.push(`  <testsuite${attrs({ name, tests: cases.length, failures: f, errors: e, skipped: s, time: 0 })}>`)
    pushAll(
      out,
      rendered.map((r) => r.xml),
    )
    out.push('  </testsuite>')
  }
  const root = attrs({ name: 'kelp check', tests, failures, errors, skipped, time: 0 })
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${root}>`, ...out, '</testsuites>'].join('\n')
}

/** One `kelp test` suite run, as the JUnit of `kelp test -o junit` needs it. */
export interface TestRun {
  readonly file: string
  readonly name: string
  readonly error?: string
  readonly results: readonly {
    readonly name: string
    readonly passed: boolean
    readonly failure?: string
    readonly durationMs: number
  }[]
}

/** `kelp test -o junit`: a testsuite per suite file, a testcase per test, failures with their reason. */
export function formatTestRunsJUnit(runs: readonly TestRun[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="kelp test">']
  for (const run of runs) {
    const failures = run.results.filter((r) => !r.passed).length
    const time = (run.results.reduce((t, r) => t + r.durationMs, 0) / 1000).toFixed(3)
    lines.push(
      `  <testsuite name="${escapeAttr(run.name)}" file="${escapeAttr(run.file)}" tests="${run.results.length}" failures="${failures}" errors="${run.error ? 1 : 0}" time="${time}">`,
    )
    if (run.error) lines.push(`    <error message="${escapeAttr(run.error)}"/>`)
    for (const r of run.results) {
      const open = `    <testcase classname="${escapeAttr(run.name)}" name="${escapeAttr(r.name)}" time="${(r.durationMs / 1000).toFixed(3)}"`
      if (r.passed) lines.push(`${open}/>`)
      else lines.push(`${open}>`, `      <failure message="${escapeAttr(r.failure ?? '')}"/>`, '    </testcase>')
    }
    lines.push('  </testsuite>')
  }
  lines.push('</testsuites>')
  return lines.join('\n')
}
