import type { RESTMapper, ResourceInfo } from '../kube/resources.js'
import { isObject, type JSONObject } from '../kube/values/json.js'

// Which resources `kelp audit` lists: those the policies' matchConstraints.resourceRules name for CREATE
// (apiGroups, apiVersions, resources with their `*` wildcards; subresources are never listed), each group and
// resource once, in the first version a rule matches (the objects are the same in every version).

interface Rule {
  readonly apiGroups: readonly string[]
  readonly apiVersions: readonly string[]
  readonly resources: readonly string[]
  readonly operations: readonly string[]
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

/** The resourceRules of policies' matchConstraints (ValidatingAdmissionPolicy and MutatingAdmissionPolicy). */
export function rulesOf(policies: readonly JSONObject[]): Rule[] {
  const out: Rule[] = []
  for (const p of policies) {
    const spec = isObject(p.spec) ? p.spec : {}
    const mc = isObject(spec.matchConstraints) ? spec.matchConstraints : {}
    for (const r of Array.isArray(mc.resourceRules) ? mc.resourceRules : []) {
      if (!isObject(r)) continue
      out.push({
        apiGroups: strings(r.apiGroups),
        apiVersions: strings(r.apiVersions),
        resources: strings(r.resources),
        operations: strings(r.operations),
      })
    }
  }
  return out
}

const has = (list: readonly string[], v: string) => list.includes('*') || list.includes(v)

/** The served resources the rules match for CREATE, one version per group and resource. */
export function auditTargets(rules: readonly Rule[], mapper: RESTMapper): ResourceInfo[] {
  const chosen = new Map<string, ResourceInfo>()
  for (const r of mapper.resources()) {
    const key = `${r.resource}.${r.group}`
    if (chosen.has(key)) continue
    const matched = rules.some(
      (rule) =>
        has(rule.operations, 'CREATE') &&
        has(rule.apiGroups, r.group) &&
        has(rule.apiVersions, r.version) &&
        (rule.resources.includes('*') || rule.resources.includes(r.resource)),
    )
    if (matched) chosen.set(key, r)
  }
  return [...chosen.values()]
}

/** The path of a resource's LIST, in one namespace or all. */
export function listPath(
  r: Pick<ResourceInfo, 'group' | 'version' | 'resource' | 'namespaced'>,
  namespace?: string,
): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`
  const ns = r.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : ''
  return `${base}${ns}/${r.resource}`
}
