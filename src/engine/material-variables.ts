// The pack's policies are static YAML that a cluster accepts as they are; two things in them depend
// on where they are installed, and a policy cannot see either (CEL has no view of the server's
// version or of other policies). Each is one variable, named by an annotation on the policy:
//
// - `kelp.dev/release-variable: <name>`: the variable holds the Kubernetes minor (`37`), so the
//   checks follow PodSecurity of that release (its check_*.go MinimumVersions). The file says the
//   newest release; for a target release the variable is set to the target's minor.
// - `kelp.dev/enforced-with: <policy>` and `kelp.dev/enforced-with-variable: <name>`: the variable
//   is `true` when <policy> is installed too with a Deny binding. The restricted policy checks the
//   whole restricted level (baseline included) on its own; next to the baseline Deny it stays silent
//   on a request baseline denies, as PodSecurity admission adds no warning to a request its enforce
//   level rejects (admission.go EvaluatePod), so a baseline violation is reported once.
//
// `instantiateMaterial` applies both to any policy material (suites, `-p` files); objects without those
// annotations are returned as they are.

import { isObject, type JSONObject } from '../kube/values/json.js'

export const RELEASE_VARIABLE_ANNOTATION = 'kelp.dev/release-variable'
export const ENFORCED_WITH_ANNOTATION = 'kelp.dev/enforced-with'
export const ENFORCED_WITH_VARIABLE_ANNOTATION = 'kelp.dev/enforced-with-variable'

/** The material for `target`: the annotated variables set (see above); other objects unchanged (same references). */
export function instantiateMaterial(objects: readonly JSONObject[], target: string): JSONObject[] {
  const minor = String(minorOf(target))
  return objects.map((o) => {
    if (!isKind(o, 'ValidatingAdmissionPolicy')) return o
    const annotations = record(record(o.metadata)?.annotations) ?? {}
    const values = new Map<string, string>()
    const release = annotations[RELEASE_VARIABLE_ANNOTATION]
    if (typeof release === 'string') values.set(release, minor)
    const withPolicy = annotations[ENFORCED_WITH_ANNOTATION]
    const withVariable = annotations[ENFORCED_WITH_VARIABLE_ANNOTATION]
    if (typeof withPolicy === 'string' && typeof withVariable === 'string')
      values.set(withVariable, String(deniedWith(objects, withPolicy)))
    return withVariables(o, values)
  })
}

const record = (v: unknown): JSONObject | undefined => (isObject(v) ? v : undefined)

const isKind = (o: JSONObject, kind: string): boolean =>
  o.kind === kind && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('admissionregistration.k8s.io/')

const nameOf = (o: JSONObject): unknown => record(o.metadata)?.name

/** Whether `policy` is among the objects with a binding whose validationActions include Deny. */
function deniedWith(objects: readonly JSONObject[], policy: string): boolean {
  const installed = objects.some((o) => isKind(o, 'ValidatingAdmissionPolicy') && nameOf(o) === policy)
  return (
    installed &&
    objects.some((o) => {
      const spec = record(o.spec)
      return (
        isKind(o, 'ValidatingAdmissionPolicyBinding') &&
        spec?.policyName === policy &&
        Array.isArray(spec.validationActions) &&
        spec.validationActions.includes('Deny')
      )
    })
  )
}

/** The minor of a `1.<minor>` release. */
function minorOf(target: string): number {
  const m = /^1\.(\d+)$/.exec(target)
  if (!m) throw new Error(`unsupported Kubernetes version '${target}'`)
  return Number(m[1])
}

/** A copy of `policy` with the named variables' expressions replaced (the policy if none is named). */
function withVariables(policy: JSONObject, values: ReadonlyMap<string, string>): JSONObject {
  const spec = record(policy.spec)
  if (values.size === 0 || spec === undefined || !Array.isArray(spec.variables)) return policy
  const variables = spec.variables.map((v) => {
    const variable = record(v)
    const name = variable?.name
    return typeof name === 'string' && values.has(name) ? { ...variable, expression: values.get(name) } : v
  })
  return { ...policy, spec: { ...spec, variables } }
}
