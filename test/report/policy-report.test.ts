import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { PolicySet } from '../../src/engine/policy-set.js'
import type { Report } from '../../src/report/model.js'
import { policyReports } from '../../src/report/policy-report.js'

// wgpolicyk8s.io/v1alpha2 PolicyReport / ClusterPolicyReport (kubernetes-sigs/wg-policy-prototypes
// policy-report/api/v1alpha2: results with policy, rule, result pass|fail|warn|error|skip, severity, scored,
// timestamp {seconds, nanos}, resources as object references, properties a string map; summary counts).

const report: Report = {
  schemaVersion: 1,
  kelpVersion: '0',
  kubeVersion: '1.37',
  diagnostics: [],
  summary: {
    objects: 3,
    created: 3,
    updated: 0,
    allowed: 1,
    denied: 1,
    warned: 1,
    audited: 0,
    notServed: 0,
    skipped: 0,
    unchanged: 0,
    errors: 0,
  },
  objects: [
    {
      source: { file: 'a' },
      apiVersion: 'v1',
      kind: 'Secret',
      namespace: 'team',
      name: 's',
      operation: 'CREATE',
      outcome: 'denied',
      findings: [
        { level: 'deny', type: 'policy', rule: 'vap/p', policy: 'p', binding: 'b', message: 'no', reason: 'Invalid' },
      ],
    },
    {
      source: { file: 'a' },
      apiVersion: 'v1',
      kind: 'Secret',
      namespace: '__proto__',
      name: 't',
      operation: 'CREATE',
      outcome: 'warned',
      findings: [
        { level: 'warn', type: 'policy', rule: 'vap/p', policy: 'p', binding: 'b', message: 'careful' },
        { level: 'info', type: 'invalid', rule: 'builtin/not-covered', message: 'note' },
      ],
    },
    {
      source: { file: 'a' },
      apiVersion: 'v1',
      kind: 'Node',
      name: 'n',
      operation: 'CREATE',
      outcome: 'allowed',
      findings: [],
    },
  ],
}

describe('policyReports', () => {
  const out = policyReports(report, { now: new Date(1_700_000_000_500) })
  it('a ClusterPolicyReport for the cluster-scoped objects, a PolicyReport per namespace (any name)', () => {
    expect(out.map((r) => [r.kind, r.metadata.namespace])).toEqual([
      ['ClusterPolicyReport', undefined],
      ['PolicyReport', '__proto__'],
      ['PolicyReport', 'team'],
    ])
  })
  it('deny → fail (high), warn → warn (medium); info findings left out; a clean object passes', () => {
    const team = out.find((r) => r.metadata.namespace === 'team')
    expect(team?.summary).toEqual({ pass: 0, fail: 1, warn: 0, error: 0, skip: 0 })
    expect(team?.results[0]).toEqual({
      source: 'kelp',
      policy: 'p',
      rule: 'b',
      result: 'fail',
      severity: 'high',
      scored: true,
      message: 'no',
      timestamp: { seconds: 1_700_000_000, nanos: 0 },
      resources: [{ apiVersion: 'v1', kind: 'Secret', name: 's', namespace: 'team' }],
      properties: { action: 'Deny', binding: 'b', reason: 'Invalid', kelpRule: 'vap/p' },
    })
    const odd = out.find((r) => r.metadata.namespace === '__proto__')
    expect(odd?.results.map((r) => r.result)).toEqual(['warn'])
    const cluster = out.find((r) => r.kind === 'ClusterPolicyReport')
    expect(cluster?.results.map((r) => [r.policy, r.rule, r.result])).toEqual([['kelp', 'admission', 'pass']])
  })
  it('labels that let a later run find and replace the reports', () => {
    expect(out[0]?.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'kelp', 'kelp.dev/report': 'kelp' })
  })
})

describe('the reports against the published CRDs (test/fixtures/policyreport, wg-policy-prototypes v1alpha2)', () => {
  it('every report is a valid PolicyReport / ClusterPolicyReport', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/policyreport')
    const crds = ['wgpolicyk8s.io_policyreports.yaml', 'wgpolicyk8s.io_clusterpolicyreports.yaml'].map(
      (f) => parse(readFileSync(join(dir, f), 'utf8')) as object,
    )
    const set = PolicySet.build(crds)
    expect(set.problems).toEqual([])
    // (a namespace that can exist: the `__proto__` one above is for the map's sake)
    const real = { ...report, objects: report.objects.filter((o) => o.namespace !== '__proto__') }
    for (const r of policyReports(real)) {
      const answer = set.validate(r as unknown as Record<string, unknown>)
      expect(answer.status?.message, r.kind).toBeUndefined()
      expect(answer.customResource?.allowed, r.kind).toBe(true)
      // pruning keeps every field kelp writes (a field the schema lacks would be dropped)
      const stored = answer.customResource?.object as { metadata: Record<string, unknown> }
      const { generation: _g, ...meta } = stored.metadata // the store's
      expect({ ...stored, metadata: meta }).toEqual(JSON.parse(JSON.stringify(r)))
    }
  })
})
