import { describe, expect, it } from 'vitest'
import { kubectlLine, summaryLine } from '../../src/report/common.js'
import type { Finding, ObjectResult } from '../../src/report/model.js'
import { formatText } from '../../src/report/text.js'
import { EMPTY, report, SMALL } from './fixtures.js'

const ESC = '\x1b'

describe('text', () => {
  it('prints diagnostics, the objects with findings in kubectl words, and the summary', () => {
    expect(formatText(SMALL)).toBe(
      [
        `policies.yaml:3:1: error: ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: spec.validations[0].expression: Invalid value: "object.spec.replicas >": compilation failed: ERROR: <input>:1:23: Syntax error: mismatched input '<EOF>'`,
        '   | object.spec.replicas >',
        '   | ......................^',
        'policies.yaml:40:7: warning: spec.validations[0].expression: the estimated cost 2000000 is close to the limit',
        '-:4:2: error: Implicit map keys need to be followed by map values',
        '',
        'deploy.yaml:1:1 Deployment default/web (created)',
        "  Error from server (Forbidden): error when creating \"deploy.yaml\": ValidatingAdmissionPolicy 'require-team' with binding 'require-team-binding' denied request: label team is required",
        // a finding placed elsewhere than its object's first line says where
        "  deploy.yaml:9:3: Warning: Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas': replicas should be at least 2",
        '',
        'crs.yaml:1:1 Widget default/w1 (updated)',
        '  The Widget "w1" is invalid: spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0',
        '',
        'crs.yaml:12:1 Deployment team-a/api (updated)',
        "  Warning: Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas': replicas should be at least 2",
        '',
        'crs.yaml:30:1 ConfigMap default/settings (created)',
        '  Audit: owner-audit/owner=nobody',
        '',
        'old.yaml:1:1 PodSecurityPolicy restricted (created)',
        '  error: resource mapping not found for name: "restricted" namespace: "" from "old.yaml": no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"',
        '  ensure CRDs are installed first',
        '',
        '6 objects (4 created, 2 updated): 1 allowed, 2 denied, 1 warned, 1 audited, 1 not served; 2 errors',
      ].join('\n'),
    )
  })

  it('lists every object with verbose', () => {
    const out = formatText(SMALL, { verbose: true })
    expect(out).toContain('\n\ndeploy.yaml:20:1 Service default/web (created)\n\ncrs.yaml:1:1')
  })

  it('is only the summary line for an empty report', () => {
    expect(formatText(EMPTY)).toBe('0 objects: 0 allowed, 0 denied, 0 warned; 0 errors')
  })

  it('colours with plain ANSI codes only when asked', () => {
    const r = report(
      [
        {
          source: { file: 'a.yaml', line: 2, column: 1 },
          apiVersion: 'v1',
          kind: 'Pod',
          namespace: 'ns',
          name: 'p',
          operation: 'CREATE',
          findings: [
            { level: 'deny', type: 'policy', message: 'no', rule: 'vap/x' },
            { level: 'warn', type: 'deprecated', message: 'old', rule: 'api/deprecated' },
          ],
        },
      ],
      [
        {
          level: 'error',
          type: 'parse',
          message: 'bad\nyaml',
          source: { file: 'b.yaml', line: 1 },
          rule: 'input/yaml',
        },
      ],
    )
    expect(formatText(r, { color: false })).not.toContain(ESC)
    expect(formatText(r, { color: true })).toBe(
      [
        `${ESC}[1mb.yaml:1:${ESC}[0m ${ESC}[1;31merror:${ESC}[0m bad`,
        '  yaml',
        '',
        `${ESC}[2ma.yaml:2:1${ESC}[0m ${ESC}[1mPod ns/p${ESC}[0m ${ESC}[2m(created)${ESC}[0m`,
        `  ${ESC}[31mError from server (Forbidden): error when creating "a.yaml": no${ESC}[0m`,
        `  ${ESC}[33mWarning: old${ESC}[0m`,
        '',
        `${ESC}[1m1 object${ESC}[0m: 0 allowed, ${ESC}[1;31m1 denied${ESC}[0m, 0 warned; ${ESC}[1;31m1 error${ESC}[0m`,
      ].join('\n'),
    )
  })

  it('never sends control characters from the input to the terminal', () => {
    const r = report([
      {
        source: { file: 'x\x1b[2J.yaml', line: 1, column: 1 },
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'p\n',
        operation: 'CREATE',
        findings: [{ level: 'warn', type: 'policy', message: 'a\x1b]0;pwned\x07b\r\nc', rule: 'vap/x' }],
      },
    ])
    for (const color of [false, true]) {
      const out = formatText(r, { color })
      // the only ESC bytes are the formatter's own SGR sequences
      expect(out.replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/)
    }
    expect(formatText(r)).toBe(
      [
        'x\\x1b[2J.yaml:1:1 Pod p\\x0a (created)',
        '  Warning: a\\x1b]0;pwned\\x07b',
        '  c',
        '',
        '1 object: 0 allowed, 0 denied, 1 warned; 0 errors',
      ].join('\n'),
    )
  })
})

describe('kubectlLine', () => {
  const pod: ObjectResult = {
    source: { file: 'a.yaml' },
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    namespace: 'ns',
    name: 'w',
    operation: 'CREATE',
    outcome: 'denied',
    findings: [],
  }
  const f = (x: Partial<Finding>): Finding => ({ level: 'deny', type: 'policy', message: 'm', rule: 'r', ...x })
  it.each<[Partial<Finding>, string]>([
    [{}, 'Error from server (Forbidden): error when creating "a.yaml": m'],
    [{ reason: 'Unauthorized' }, 'Error from server (Unauthorized): error when creating "a.yaml": m'],
    [{ reason: 'RequestEntityTooLarge' }, 'Error from server (RequestEntityTooLarge): error when creating "a.yaml": m'],
    [{ type: 'invalid', reason: 'BadRequest' }, 'Error from server (BadRequest): error when creating "a.yaml": m'],
    [{ type: 'invalid', message: 'spec.a: Required value' }, 'The Widget "w" is invalid: spec.a: Required value'],
    // the apiserver's Status message: kubectl names the kind and lists the causes
    [
      {
        type: 'invalid',
        message: 'Widget.example.com "w" is invalid: [spec.a: Required value, spec.b: Invalid value: 1]',
      },
      'The Widget "w" is invalid: [spec.a: Required value, spec.b: Invalid value: 1]',
    ],
    [{ type: 'invalid', message: 'The Widget "w" is invalid: x' }, 'The Widget "w" is invalid: x'],
    [{ message: 'Error from server (NotFound): x' }, 'Error from server (NotFound): x'],
    [{ type: 'not-served', message: 'no matches for kind' }, 'error: no matches for kind'],
    [{ level: 'error', type: 'parse', message: 'bad' }, 'error: bad'],
    [{ level: 'warn', message: 'w' }, 'Warning: w'],
    [{ level: 'warn', message: 'Warning: w' }, 'Warning: w'],
    [{ level: 'audit', message: 'validation failed' }, 'Audit: validation failed'],
    [{ level: 'audit', message: 'Audit: x' }, 'Audit: x'],
    [{ level: 'audit', annotation: 'p/k', message: 'v' }, 'Audit: p/k=v'],
    [{ level: 'info', annotation: 'p/k', message: 'v' }, 'Audit: p/k=v'],
    [{ level: 'info', message: 'not validated' }, 'Info: not validated'],
  ])('%j → %s', (x, line) => {
    expect(kubectlLine(f(x), pod)).toBe(line)
  })
})

describe('summaryLine', () => {
  it('counts in the singular and shows the rarer outcomes only when present', () => {
    const base = EMPTY.summary
    const r = (s: Partial<typeof base>) => ({ ...EMPTY, summary: { ...base, ...s } })
    expect(summaryLine(r({ objects: 1, created: 1, allowed: 1 }))).toBe(
      '1 object: 1 allowed, 0 denied, 0 warned; 0 errors',
    )
    expect(summaryLine(r({ objects: 12, created: 12, allowed: 10, denied: 1, warned: 1, errors: 0 }))).toBe(
      '12 objects: 10 allowed, 1 denied, 1 warned; 0 errors',
    )
    expect(
      summaryLine(r({ objects: 4, created: 3, updated: 1, skipped: 2, audited: 1, notServed: 1, errors: 3 })),
    ).toBe(
      '4 objects (3 created, 1 updated): 0 allowed, 0 denied, 0 warned, 1 audited, 1 not served, 2 skipped; 3 errors',
    )
    // objects whose outcome is error have no counter of their own: the rest of the total
    expect(summaryLine(r({ objects: 3, created: 3, allowed: 1, errors: 2 }))).toBe(
      '3 objects: 1 allowed, 0 denied, 0 warned, 2 with errors; 2 errors',
    )
  })
})
