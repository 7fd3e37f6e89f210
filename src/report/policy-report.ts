import { createRequire } from 'node:module'
import type { Finding, Level, ObjectResult, Report } from './model.js'

// `-o policyreport`: a report as the Policy Working Group's PolicyReport and ClusterPolicyReport
// (wgpolicyk8s.io/v1alpha2, kubernetes-sigs/wg-policy-prototypes policy-report/crd/v1alpha2): one PolicyReport per
// namespace for its namespaced objects, one ClusterPolicyReport for the cluster-scoped ones, each result naming the
// policy, the rule, the result and the resource, for tools such as Policy Reporter. What kelp chose where the
// format leaves it open: a finding's level gives the result (deny → fail, warn and audit → warn with the action in
// `properties`, error → error); an object without findings is one `pass` result of policy `kelp`, rule
// `admission`; `info` findings (kelp's own notes) are left out; an excepted finding is a `skip` result (its
// exception's reason in `properties.exception`); reports carry the labels `app.kubernetes.io/
// managed-by: kelp` and `kelp.dev/report: <name>`, so a later run's reports replace an earlier one's.

export const POLICY_REPORT_API_VERSION = 'wgpolicyk8s.io/v1alpha2'

export interface PolicyReportOptions {
  /** The reports' name (default `kelp`); a run's reports are found again by it. */
  readonly name?: string
  /** When the results were made (default now). */
  readonly now?: Date
}

type Result = 'pass' | 'fail' | 'warn' | 'error' | 'skip'

interface PolicyReportResult {
  source: 'kelp'
  policy: string
  rule: string
  result: Result
  severity?: 'high' | 'medium' | 'low'
  scored: true
  message: string
  timestamp: { seconds: number; nanos: 0 }
  resources: { apiVersion: string; kind: string; name: string; namespace?: string }[]
  properties?: Record<string, string>
}

export interface PolicyReportObject {
  apiVersion: typeof POLICY_REPORT_API_VERSION
  kind: 'PolicyReport' | 'ClusterPolicyReport'
  metadata: { name: string; namespace?: string; labels: Record<string, string> }
  summary: Record<Result, number>
  results: PolicyReportResult[]
}

const RESULT: Readonly<Record<Level, Result | undefined>> = {
  error: 'error',
  deny: 'fail',
  warn: 'warn',
  audit: 'warn',
  info: undefined,
}
const SEVERITY: Readonly<Record<Level, 'high' | 'medium' | 'low' | undefined>> = {
  error: 'high',
  deny: 'high',
  warn: 'medium',
  audit: 'low',
  info: undefined,
}

/** The PolicyReports and ClusterPolicyReport of a report's objects (the namespaced ones by namespace, sorted). */
export function policyReports(report: Report, options: PolicyReportOptions = {}): PolicyReportObject[] {
  const name = options.name ?? 'kelp'
  const seconds = Math.floor((options.now ?? new Date()).getTime() / 1000)
  // any namespace name is a key here (a Map, not an object: `__proto__` included)
  const byNamespace = new Map<string, PolicyReportResult[]>()
  for (const o of report.objects) {
    const ns = o.namespace ?? ''
    let results = byNamespace.get(ns)
    if (results === undefined) byNamespace.set(ns, (results = []))
    results.push(...resultsOf(o, seconds))
  }
  const labels = { 'app.kubernetes.io/managed-by': 'kelp', 'kelp.dev/report': name }
  return [...byNamespace.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((ns) => {
      const results = byNamespace.get(ns) ?? []
      const summary: Record<Result, number> = { pass: 0, fail: 0, warn: 0, error: 0, skip: 0 }
      for (const r of results) summary[r.result]++
      return ns === ''
        ? {
            apiVersion: POLICY_REPORT_API_VERSION,
            kind: 'ClusterPolicyReport',
            metadata: { name, labels: { ...labels } },
            summary,
            results,
          }
        : {
            apiVersion: POLICY_REPORT_API_VERSION,
            kind: 'PolicyReport',
            metadata: { name, namespace: ns, labels: { ...labels } },
            summary,
            results,
          }
    })
}

function resultsOf(o: ObjectResult, seconds: number): PolicyReportResult[] {
  const resources = [
    {
      apiVersion: o.apiVersion,
      kind: o.kind,
      name: o.name,
      ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
    },
  ]
  const out: PolicyReportResult[] = []
  for (const f of o.findings) {
    const result = RESULT[f.level]
    if (result === undefined) continue
    const severity = SEVERITY[f.level]
    out.push({
      source: 'kelp',
      policy: f.policy ?? f.rule,
      rule: ruleOf(f),
      result,
      ...(severity !== undefined ? { severity } : {}),
      scored: true,
      message: f.message,
      timestamp: { seconds, nanos: 0 },
      resources,
      ...propertiesOf(f),
    })
  }
  // an excepted finding: `skip`, the exception's reason in its properties
  for (const f of o.excepted ?? []) {
    const e = f.exception
    out.push({
      source: 'kelp',
      policy: f.policy ?? f.rule,
      rule: ruleOf(f),
      result: 'skip',
      scored: true,
      message: f.message,
      timestamp: { seconds, nanos: 0 },
      resources,
      properties: {
        ...propertiesOf(f).properties,
        ...(e !== undefined ? { exception: e.reason, exceptionBy: e.by } : {}),
      },
    })
  }
  if (out.length === 0 && (o.outcome === 'allowed' || o.outcome === 'unchanged'))
    out.push({
      source: 'kelp',
      policy: 'kelp',
      rule: 'admission',
      result: 'pass',
      scored: true,
      message: 'admitted',
      timestamp: { seconds, nanos: 0 },
      resources,
    })
  return out
}

/** A policy finding's rule is its binding (the policy is the report's `policy`); else kelp's rule id. */
const ruleOf = (f: Finding): string => (f.policy !== undefined ? (f.binding ?? f.policy) : f.rule)

function propertiesOf(f: Finding): { properties?: Record<string, string> } {
  const p: Record<string, string> = {}
  if (f.policy !== undefined) p.action = f.level === 'deny' ? 'Deny' : f.level === 'warn' ? 'Warn' : 'Audit'
  if (f.binding !== undefined) p.binding = f.binding
  if (f.field !== undefined) p.field = f.field
  if (f.reason !== undefined) p.reason = f.reason
  if (f.annotation !== undefined) p.annotation = f.annotation
  p.kelpRule = f.rule
  return { properties: p }
}

type YAMLModule = typeof import('yaml')
let yamlModule: YAMLModule | undefined

/** The reports as YAML documents (`kubectl apply -f` reads them; the CRDs must be installed). */
export function formatPolicyReport(report: Report, options: PolicyReportOptions = {}): string {
  yamlModule ??= createRequire(import.meta.url)('yaml') as YAMLModule
  const y = yamlModule
  return policyReports(report, options)
    .map((r) => y.stringify(r, { lineWidth: 0, indentSeq: false }))
    .join('---\n')
    .replace(/\n$/, '')
}
