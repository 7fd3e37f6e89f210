import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { AdmitEvent } from './handler.js'

// The server's Prometheus metrics (prom-client, one registry per server so several can run in one
// process). Label values are bounded: paths are the served routes or `other`; policies are the
// loaded ones.

export type ReloadTarget = 'policies' | 'certificate'

export interface WebhookMetrics {
  readonly registry: Registry
  observeRequest(path: string, code: number, seconds: number): void
  observeAdmit(event: AdmitEvent): void
  observeReload(target: ReloadTarget, ok: boolean): void
  setPoliciesLoaded(n: number): void
}

export const ROUTES = ['/validate', '/healthz', '/readyz', '/metrics'] as const

export function createMetrics(options: { processMetrics?: boolean } = {}): WebhookMetrics {
  const registry = new Registry()
  const registers = [registry]
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'kelp_' })
  const requests = new Counter({
    name: 'kelp_http_requests_total',
    help: 'HTTP requests by route and status code.',
    labelNames: ['path', 'code'] as const,
    registers,
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
  })
  const decisions = new Counter({
    name: 'kelp_admission_decisions_total',
    help:
      'Failed validations per policy and action (Deny, Warn, Audit) as the bindings applied them; result is ' +
      '"failed" for a false validation, "error" for an evaluation or configuration error. Custom resources ' +
      'refused by their CRD count with source="CustomResourceDefinition" and the CRD name as policy.',
    labelNames: ['source', 'policy', 'action', 'result'] as const,
    registers,
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
  for (const path of [...ROUTES, 'other']) latency.zero({ path })
  for (const target of ['policies', 'certificate'] as const)
    for (const result of ['success', 'failure']) reloads.inc({ target, result }, 0)

  // Pre-bound label children, one per label set, kept in maps: the label objects are built and
  // checked once per label set instead of once per call.
  type CounterChild = ReturnType<typeof requests.labels>
  type HistogramChild = ReturnType<typeof latency.labels>
  const routes = new Map<string, { latency: HistogramChild; codes: Map<number, CounterChild> }>()
  for (const path of [...ROUTES, 'other']) routes.set(path, { latency: latency.labels(path), codes: new Map() })
  const other = routes.get('other') as { latency: HistogramChild; codes: Map<number, CounterChild> }
  const reviewChildren = new Map<string, CounterChild>()
  const decisionChildren = new Map<string, CounterChild>()
  const decision = (source: string, policy: string, action: string, result: string): CounterChild => {
    const key = `${source}\0${policy}\0${action}\0${result}`
    let child = decisionChildren.get(key)
    if (child === undefined) {
      child = decisions.labels({ source, policy, action, result })
      decisionChildren.set(key, child)
    }
    return child
  }

  return {
    registry,
    observeRequest(path, code, seconds) {
      const route = routes.get(path) ?? other
      let child = route.codes.get(code)
      if (child === undefined) {
        child = requests.labels({ path: route === other ? 'other' : path, code: String(code) })
        route.codes.set(code, child)
      }
      child.inc()
      route.latency.observe(seconds)
    },
    observeAdmit({ attributes, result }) {
      const key = result.allowed ? `t${attributes.operation}` : `f${attributes.operation}`
      let child = reviewChildren.get(key)
      if (child === undefined) {
        child = reviews.labels({ allowed: String(result.allowed), operation: attributes.operation })
        reviewChildren.set(key, child)
      }
      child.inc()
      for (const v of result.violations) {
        const r = v.evaluation === 'Error' ? 'error' : 'failed'
        for (const action of v.actions) decision('ValidatingAdmissionPolicy', v.policy, action, r).inc()
      }
      if (result.customResource !== undefined && !result.customResource.allowed) {
        const { group, resource } = attributes.resource
        decision('CustomResourceDefinition', `${resource}.${group}`, 'Deny', 'failed').inc()
      }
    },
    observeReload(target, ok) {
      reloads.inc({ target, result: ok ? 'success' : 'failure' })
      if (ok) lastSuccess.set({ target }, Date.now() / 1000)
    },
    setPoliciesLoaded(n) {
      policies.set(n)
    },
  }
}
