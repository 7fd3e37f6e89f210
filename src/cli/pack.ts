import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { KubeVersion } from '../kube/environment.js'
import type { Finding } from '../report/model.js'
import { expandPaths, type JSONObject, type LoadedObject, loadManifests } from './load.js'

// The bundled policy pack (policies/, policies/README.md) for a target release.
//
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
// `instantiatePack` applies both to any policy material (suites, `-p` files); objects without those
// annotations are returned as they are.

export const RELEASE_VARIABLE_ANNOTATION = 'kelp.dev/release-variable'
export const ENFORCED_WITH_ANNOTATION = 'kelp.dev/enforced-with'
export const ENFORCED_WITH_VARIABLE_ANNOTATION = 'kelp.dev/enforced-with-variable'

/** The bundled policy pack (policies/ at the package root). */
export function bundledPoliciesDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../policies')
}

const record = (v: unknown): JSONObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JSONObject) : undefined

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

/** The material for `target`: the pack's annotated variables set (see above); other objects unchanged. */
export function instantiatePack(objects: readonly LoadedObject[], target: KubeVersion | string): LoadedObject[] {
  const all = objects.map((o) => o.object)
  const minor = String(minorOf(target))
  return objects.map((o) => {
    if (!isKind(o.object, 'ValidatingAdmissionPolicy')) return o
    const annotations = record(record(o.object.metadata)?.annotations) ?? {}
    const values = new Map<string, string>()
    const release = annotations[RELEASE_VARIABLE_ANNOTATION]
    if (typeof release === 'string') values.set(release, minor)
    const withPolicy = annotations[ENFORCED_WITH_ANNOTATION]
    const withVariable = annotations[ENFORCED_WITH_VARIABLE_ANNOTATION]
    if (typeof withPolicy === 'string' && typeof withVariable === 'string')
      values.set(withVariable, String(deniedWith(all, withPolicy)))
    const object = withVariables(o.object, values)
    return object === o.object ? o : { ...o, object }
  })
}

/**
 * The bundled pack for a target release (`'1.30'` … `'1.37'`): every object of policies/*.yaml
 * (policies/tests/ left out), instantiated for `target`; `errors` are the files' parse errors.
 */
export function bundledPack(target: KubeVersion | string): { objects: LoadedObject[]; errors: Finding[] } {
  const dir = bundledPoliciesDir()
  const tests = `${join(dir, 'tests')}${sep}`
  const found = expandPaths([dir])
  const loaded = loadManifests(found.files.filter((f) => !resolve(f).startsWith(tests)))
  return { objects: instantiatePack(loaded.objects, target), errors: [...found.errors, ...loaded.errors] }
}
