import { describe, expect, it } from 'vitest'
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
