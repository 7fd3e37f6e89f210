import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { AdmitEvent } from './handler.js'

// The server's Prometheus metrics (prom-client, one registry per server so several can run in one
// process). Label values are bounded, never taken from request text: paths are the served routes or
// `other`, codes the ones kelp answers, operations the four admission operations, policies and CRDs
// the loaded ones (a custom resource of no loaded CRD counts as `unknown`), refusals a fixed list.

export type ReloadTarget = 'policies' | 'certificate'

/** Why a request or connection was refused before an AdmissionReview was answered. */
export const REFUSAL_REASONS = [
  'bad_request', // 400: HTTP that node's parser refuses
  'request_timeout', // 408
  'body_too_large', // 413
  'header_too_large', // 431
  'body_budget', // 503: the bodies in memory at the server's budget
  'connection_limit', // closed at accept: maxConnections
  'tls_handshake', // a TLS handshake that failed or timed out (client certificates included)
  'connection_reset', // the client reset the connection mid-request
] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]

/** The names a reload loaded: the per-policy series of any other name are dropped (retainLoaded). */
export interface LoadedNames {
  /** ValidatingAdmissionPolicies of /validate's set. */
  readonly policies: Iterable<string>
  /** CustomResourceDefinitions (of either set). */
  readonly crds: Iterable<string>
  /** MutatingAdmissionPolicies of /mutate's set. */
  readonly mutatingPolicies: Iterable<string>
  /** MutatingAdmissionPolicyBindings of /mutate's set. */
  readonly mutatingBindings: Iterable<string>
}

export interface WebhookMetrics {
  readonly registry: Registry
  observeRequest(path: string, code: number, seconds: number): void
  observeAdmit(event: AdmitEvent): void
  observeReload(target: ReloadTarget, ok: boolean): void
  observeRefusal(reason: RefusalReason): void
  setPoliciesLoaded(n: number): void
  setMutatingPoliciesLoaded(n: number): void
  /** A kept-alive idle connection closed to admit a new one at the connection cap. */
  observeIdleClosed(): void
  /**
   * After a reload: drops the series labelled with a policy, CRD or binding the new sets do not hold
   * (kept, they would be exported unchanged for as long as the process lives, and grow with each
   * renaming).
   */
  retainLoaded(names: LoadedNames): void
}

export const ROUTES = ['/validate', '/mutate', '/healthz', '/readyz', '/metrics'] as const

export function createMetrics(options: { processMetrics?: boolean } = {}): WebhookMetrics {
  const registry = new Registry()
  const registers = [registry]
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'kelp_' })
  // The request path counts in plain numbers, one cell per label set, and the counters take the
  // differences at each scrape (prom-client calls `collect` before it reads a metric): a prom-client
  // label child hashes and checks its labels on every call, which cost the request path ~2 µs.
  type Cell = { n: number; reported: number; readonly labels: Record<string, string> }
  const cells = new Map<Counter<string>, Cell[]>()
  const cell = (counter: Counter<string>, labels: Record<string, string>): Cell => {
    const c: Cell = { n: 0, reported: 0, labels }
    let list = cells.get(counter)
    if (list === undefined) {
      list = []
      cells.set(counter, list)
    }
    list.push(c)
    return c
  }
  /** prom-client's `collect` (run at each scrape, before the metric is read): the cells' news. */
  function collectCells(this: Counter<string>) {
    for (const c of cells.get(this) ?? []) {
      const delta = c.n - c.reported
      if (delta > 0) this.inc(c.labels, delta)
      c.reported = c.n
    }
  }
  const requests = new Counter({
    name: 'kelp_http_requests_total',
    help: 'HTTP requests by route and status code.',
    labelNames: ['path', 'code'] as const,
    registers,
    collect: collectCells,
  })
  const latency = new Histogram({
    name: 'kelp_http_request_duration_seconds',
    help: 'HTTP request latency (first byte of the request to the end of the response) by route.',
    labelNames: ['path'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  })
  const reviews = new Counter({
    name: 'kelp_admission_reviews_total',
    help: 'AdmissionReviews answered, by outcome (allowed true/false) and operation.',
    labelNames: ['allowed', 'operation'] as const,
    registers,
    collect: collectCells,
  })
  const decisions = new Counter({
    name: 'kelp_admission_decisions_total',
    help:
      'Failed validations per policy and action (Deny, Warn, Audit) as the bindings applied them; result is ' +
      '"failed" for a false validation, "error" for an evaluation or configuration error. Custom resources ' +
      'refused by their CRD count with source="CustomResourceDefinition" and the CRD name as policy.',
    labelNames: ['source', 'policy', 'action', 'result'] as const,
    registers,
    collect: collectCells,
  })
  const mutationReviews = new Counter({
    name: 'kelp_mutation_reviews_total',
    help:
      'AdmissionReviews answered on /mutate, by outcome (allowed true/false), operation and whether the answer ' +
      'carried a patch (patched true/false).',
    labelNames: ['allowed', 'operation', 'patched'] as const,
    registers,
    collect: collectCells,
  })
  const mutations = new Counter({
    name: 'kelp_mutations_total',
    help:
      'MutatingAdmissionPolicy invocations on /mutate by policy and binding (the loaded names): result is ' +
      '"applied" for an invocation that changed the object (a reinvocation counts again), "error" for an ' +
      'error under failurePolicy Fail (binding "" for a policy-level configuration error).',
    labelNames: ['policy', 'binding', 'result'] as const,
    registers,
    collect: collectCells,
  })
  const reloads = new Counter({
    name: 'kelp_reloads_total',
    help: 'Reloads of the policy set and of the serving certificate, by result (success, failure).',
    labelNames: ['target', 'result'] as const,
    registers,
  })
  const lastSuccess = new Gauge({
    name: 'kelp_reload_last_success_timestamp_seconds',
    help: 'Unix time of the last successful load of the policy set / certificate.',
    labelNames: ['target'] as const,
    registers,
  })
  const policies = new Gauge({
    name: 'kelp_policies_loaded',
    help: 'ValidatingAdmissionPolicies with at least one binding in the serving policy set.',
    registers,
  })
  const mutatingPolicies = new Gauge({
    name: 'kelp_mutating_policies_loaded',
    help: 'MutatingAdmissionPolicies with at least one binding in the serving policy set (/mutate).',
    registers,
  })
  const refusals = new Counter({
    name: 'kelp_http_refusals_total',
    help:
      'Requests and connections refused before an AdmissionReview was answered, by reason (HTTP 400, 408, ' +
      '413, 431, 503 body budget, connection limit, TLS handshake failures, resets).',
    labelNames: ['reason'] as const,
    registers,
    collect: collectCells,
  })
  const idleClosed = new Counter({
    name: 'kelp_http_idle_connections_closed_total',
    help: 'Kept-alive connections closed while idle to admit a new connection at the connection cap.',
    registers,
  })
  const refusalCells = new Map<RefusalReason, Cell>()
  for (const reason of REFUSAL_REASONS) {
    refusalCells.set(reason, cell(refusals, { reason }))
    refusals.inc({ reason }, 0) // every reason exported from the start, at 0
  }
  for (const path of [...ROUTES, 'other']) latency.zero({ path })
  for (const target of ['policies', 'certificate'] as const)
    for (const result of ['success', 'failure']) reloads.inc({ target, result }, 0)

  type HistogramChild = ReturnType<typeof latency.labels>
  const routes = new Map<string, { latency: HistogramChild; codes: Map<number, Cell> }>()
  for (const path of [...ROUTES, 'other']) routes.set(path, { latency: latency.labels(path), codes: new Map() })
  const other = routes.get('other') as { latency: HistogramChild; codes: Map<number, Cell> }
  const reviewCells = new Map<string, Cell>()
  const decisionCells = new Map<string, Cell>()
  const decision = (source: string, policy: string, action: string, result: string): Cell => {
    const key = `${source}\0${policy}\0${action}\0${result}`
    let c = decisionCells.get(key)
    if (c === undefined) {
      c = cell(decisions, { source, policy, action, result })
      decisionCells.set(key, c)
    }
    return c
  }

  const mutationReviewCells = new Map<string, Cell>()
  const mutationCells = new Map<string, Cell>()
  const mutation = (policy: string, binding: string, result: string): Cell => {
    const key = `${policy}\0${binding}\0${result}`
    let c = mutationCells.get(key)
    if (c === undefined) {
      c = cell(mutations, { policy, binding, result })
      mutationCells.set(key, c)
    }
    return c
  }
  /** A /mutate answer: its review and each invocation's outcome (names from the loaded policies). */
  const observeMutate = ({ attributes, result, response }: AdmitEvent) => {
    const patched = response.patch !== undefined
    // the answer's (a mutation over the apiserver's size limit is denied though the policies allowed it)
    const allowed = response.allowed
    const key = `${allowed ? 't' : 'f'}${patched ? 't' : 'f'}${attributes.operation}`
    let c = mutationReviewCells.get(key)
    if (c === undefined) {
      c = cell(mutationReviews, {
        allowed: String(allowed),
        operation: attributes.operation,
        patched: String(patched),
      })
      mutationReviewCells.set(key, c)
    }
    c.n++
    for (const m of result.mutations ?? []) mutation(m.policy, m.binding, 'applied').n++
    for (const e of result.mutationErrors ?? []) mutation(e.policy, e.binding ?? '', 'error').n++
  }

  return {
    registry,
    observeRequest(path, code, seconds) {
      const route = routes.get(path) ?? other
      let c = route.codes.get(code)
      if (c === undefined) {
        c = cell(requests, { path: route === other ? 'other' : path, code: String(code) })
        route.codes.set(code, c)
      }
      c.n++
      route.latency.observe(seconds)
    },
    observeAdmit(event) {
      const { attributes, result, policySet } = event
      if (event.mode === 'mutate') observeMutate(event)
      else {
        const key = result.allowed ? `t${attributes.operation}` : `f${attributes.operation}`
        let c = reviewCells.get(key)
        if (c === undefined) {
          c = cell(reviews, { allowed: String(result.allowed), operation: attributes.operation })
          reviewCells.set(key, c)
        }
        c.n++
      }
      for (const v of result.violations) {
        const r = v.evaluation === 'Error' ? 'error' : 'failed'
        for (const action of v.actions) decision('ValidatingAdmissionPolicy', v.policy, action, r).n++
      }
      if (result.customResource !== undefined && !result.customResource.allowed) {
        // the loaded CRD the object is of (its name), never the request's resource name
        const crd = policySet?.crds.forObject(attributes.object)?.name ?? 'unknown'
        decision('CustomResourceDefinition', crd, 'Deny', 'failed').n++
      }
    },
    observeReload(target, ok) {
      reloads.inc({ target, result: ok ? 'success' : 'failure' })
      if (ok) lastSuccess.set({ target }, Date.now() / 1000)
    },
    observeRefusal(reason) {
      const c = refusalCells.get(reason)
      if (c !== undefined) c.n++
    },
    setPoliciesLoaded(n) {
      policies.set(n)
    },
    setMutatingPoliciesLoaded(n) {
      mutatingPolicies.set(n)
    },
    observeIdleClosed() {
      idleClosed.inc()
    },
    retainLoaded(names) {
      const policies = new Set(names.policies)
      const crds = new Set(names.crds)
      const mutatingPolicies = new Set(names.mutatingPolicies)
      const mutatingBindings = new Set(names.mutatingBindings)
      const drop = (
        counter: Counter<string>,
        lookup: Map<string, Cell>,
        keep: (labels: Record<string, string>) => boolean,
      ) => {
        for (const [key, c] of lookup) {
          if (keep(c.labels)) continue
          lookup.delete(key)
          const list = cells.get(counter) ?? []
          const at = list.indexOf(c)
          if (at >= 0) list.splice(at, 1)
          counter.remove(c.labels)
        }
      }
      drop(decisions, decisionCells, (l) =>
        l.source === 'ValidatingAdmissionPolicy'
          ? policies.has(l.policy as string)
          : l.policy === 'unknown' || crds.has(l.policy as string),
      )
      drop(
        mutations,
        mutationCells,
        (l) =>
          mutatingPolicies.has(l.policy as string) && (l.binding === '' || mutatingBindings.has(l.binding as string)),
      )
    },
  }
}
