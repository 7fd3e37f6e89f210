import { describe, expect, it } from 'vitest'
import { formatJSON, toJSON } from '../../src/report/json.js'
import type { Report } from '../../src/report/model.js'
import { EMPTY, report, SMALL } from './fixtures.js'
import { reportValidator } from './schemas.js'

const TINY = report(
  [
    {
      source: { file: 'a.yaml', line: 1, column: 1, document: 0 },
      apiVersion: 'v1',
      kind: 'Namespace',
      name: 'team-a',
      operation: 'CREATE',
      findings: [
        {
          level: 'warn',
          type: 'policy',
          message: 'ns should have an owner',
          policy: 'owner',
          binding: 'owner-b',
          rule: 'vap/owner',
        },
      ],
    },
  ],
  [{ level: 'error', type: 'parse', message: 'bad', source: { file: 'b.yaml', line: 2 }, rule: 'input/yaml' }],
)

describe('json', () => {
  it('prints the Report with 2-space indent in the model order', () => {
    expect(formatJSON(TINY)).toBe(`{
  "schemaVersion": 1,
  "kelpVersion": "0.1.0",
  "kubeVersion": "1.33",
  "objects": [
    {
      "source": {
        "file": "a.yaml",
        "line": 1,
        "column": 1,
        "document": 0
      },
      "apiVersion": "v1",
      "kind": "Namespace",
      "name": "team-a",
      "operation": "CREATE",
      "outcome": "warned",
      "findings": [
        {
          "level": "warn",
          "type": "policy",
          "message": "ns should have an owner",
          "policy": "owner",
          "binding": "owner-b",
          "rule": "vap/owner"
        }
      ]
    }
  ],
  "diagnostics": [
    {
      "level": "error",
      "type": "parse",
      "message": "bad",
      "source": {
        "file": "b.yaml",
        "line": 2
      },
      "rule": "input/yaml"
    }
  ],
  "summary": {
    "objects": 1,
    "created": 1,
    "updated": 0,
    "allowed": 0,
    "denied": 0,
    "warned": 1,
    "audited": 0,
    "notServed": 0,
    "skipped": 0,
    "unchanged": 0,
    "errors": 1
  }
}`)
  })

  it('is the same whatever order the keys were built in; undeclared and undefined fields are left out', () => {
    const reverse = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T
    const shuffled: Report = reverse({
      ...SMALL,
      objects: SMALL.objects.map((o) => ({
        ...reverse(o),
        source: reverse(o.source),
        findings: o.findings.map((f) => ({
          ...reverse(f),
          extra: 1,
          ...(f.field === undefined ? { field: undefined } : {}),
        })),
      })),
      summary: reverse(SMALL.summary),
    })
    expect(formatJSON(shuffled)).toBe(formatJSON(SMALL))
    expect(formatJSON(shuffled)).not.toContain('extra')
  })

  it('round-trips: the output parses back to the Report', () => {
    expect(JSON.parse(formatJSON(SMALL))).toEqual(SMALL)
    expect(toJSON(SMALL)).toEqual(SMALL)
  })

  it('validates against docs/kelp-report.schema.json', () => {
    const validate = reportValidator()
    for (const r of [SMALL, EMPTY, TINY]) expect(validate(JSON.parse(formatJSON(r)))).toEqual([])
    const full = report([
      {
        source: { file: 'c.yaml', line: 3, column: 1, document: 1 },
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        namespace: 'ns',
        name: 'w',
        operation: 'UPDATE',
        findings: [
          {
            level: 'deny',
            type: 'invalid',
            message: 'm',
            source: { file: 'c.yaml', line: 7, column: 5, document: 1 },
            field: 'spec.size',
            rule: 'crd/Widget',
            reason: 'BadRequest',
          },
          { level: 'audit', type: 'policy', message: 'v', policy: 'p', binding: 'b', rule: 'vap/p', annotation: 'p/k' },
          { level: 'info', type: 'not-served', message: 'no CRD', rule: 'kind/unknown' },
        ],
      },
    ])
    expect(validate(JSON.parse(formatJSON(full)))).toEqual([])
  })

  it('the schema rejects what the model does not allow', () => {
    const validate = reportValidator()
    const ok = JSON.parse(formatJSON(TINY))
    const bad = (f: (r: any) => void) => {
      const r = structuredClone(ok)
      f(r)
      return validate(r).length
    }
    expect(bad((r) => (r.schemaVersion = 2))).toBeGreaterThan(0)
    expect(bad((r) => (r.objects[0].outcome = 'fine'))).toBeGreaterThan(0)
    expect(bad((r) => (r.objects[0].findings[0].level = 'fatal'))).toBeGreaterThan(0)
    expect(bad((r) => delete r.objects[0].findings[0].rule)).toBeGreaterThan(0)
    expect(bad((r) => (r.diagnostics[0].source.line = 0))).toBeGreaterThan(0)
    expect(bad((r) => (r.summary.extra = 1))).toBeGreaterThan(0)
    expect(bad((r) => (r.objects[0].namespace = null))).toBeGreaterThan(0)
  })
})
