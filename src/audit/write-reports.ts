import { isObject } from '../kube/values/json.js'
import type { Report } from '../report/model.js'
import { POLICY_REPORT_API_VERSION, type PolicyReportOptions, policyReports } from '../report/policy-report.js'
import type { Cluster } from './cluster.js'

// `kelp audit --write-reports`: the run's PolicyReports written to the cluster (created, or replaced over the one of
// the same name), and the reports an earlier run of the same name left in namespaces this run found nothing in
// deleted, found by their label `kelp.dev/report`. Needs create, update, list and delete on policyreports and
// clusterpolicyreports (docs/audit.md).

export interface Written {
  readonly created: number
  readonly replaced: number
  readonly deleted: number
}

const base = `/apis/${POLICY_REPORT_API_VERSION}`

export async function writeReports(
  cluster: Cluster,
  report: Report,
  options: PolicyReportOptions & { readonly namespace?: string } = {},
): Promise<Written> {
  const name = options.name ?? 'kelp'
  const counts = { created: 0, replaced: 0, deleted: 0 }
  const written = new Set<string>()
  for (const r of policyReports(report, options)) {
    const ns = r.metadata.namespace
    const collection =
      ns === undefined ? `${base}/clusterpolicyreports` : `${base}/namespaces/${encodeURIComponent(ns)}/policyreports`
    counts[await cluster.createOrReplace(collection, r as unknown as Record<string, unknown>)]++
    written.add(ns ?? '')
  }
  // the earlier runs' reports where this run wrote none (within -n's namespace when given)
  const selector = new URLSearchParams({ labelSelector: `kelp.dev/report=${name}` })
  const stale =
    options.namespace !== undefined
      ? `${base}/namespaces/${encodeURIComponent(options.namespace)}/policyreports?${selector}`
      : `${base}/policyreports?${selector}`
  for await (const page of cluster.list(stale, POLICY_REPORT_API_VERSION, 'PolicyReport')) {
    for (const r of page) {
      const meta = isObject(r.metadata) ? r.metadata : {}
      const ns = String(meta.namespace ?? '')
      if (written.has(ns)) continue
      await cluster.remove(
        `${base}/namespaces/${encodeURIComponent(ns)}/policyreports/${encodeURIComponent(String(meta.name ?? ''))}`,
      )
      counts.deleted++
    }
  }
  return counts
}
