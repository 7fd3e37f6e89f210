// What a policy set is built from (the material: ValidatingAdmissionPolicies, MutatingAdmissionPolicies,
// their bindings, CRDs) and what it reads besides (Namespaces, param candidates): which inputs are
// material, which the target release serves, which are the last write of their object, sorted by kind.

import type {
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../kube/admissionregistration/types.js'
import type { FieldError } from '../kube/field.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import type { GroupVersionKind } from '../policy/attributes.js'
import { apiLifecycle } from './lifecycle.js'
import { namespaceAsStored } from './namespaces.js'
import { gvkOf, metaOf } from './objects.js'

/** An input object the apiserver would refuse (a policy, binding or CRD), reported, not thrown. */
export interface Problem {
  /** Index of the object in the input. */
  readonly index: number
  readonly kind: string
  readonly name: string
  readonly errors: readonly FieldError[]
  /** As kubectl would print the refusal. */
  readonly message: string
}

/** The versions kelp reads policy material in (whether the target serves them: materialNotServed). */
const isAdmissionRegistration = (g: GroupVersionKind) =>
  g.group === 'admissionregistration.k8s.io' &&
  (g.version === 'v1' || g.version === 'v1beta1' || g.version === 'v1alpha1')

/** What a set is built from and never admits: policies, bindings, CRDs (the faces classify with this too). */
export type MaterialKind =
  | 'ValidatingAdmissionPolicy'
  | 'ValidatingAdmissionPolicyBinding'
  | 'MutatingAdmissionPolicy'
  | 'MutatingAdmissionPolicyBinding'
  | 'CustomResourceDefinition'

/**
 * Why a default kube-apiserver of `release` does not serve this policy material's apiVersion
 * (undefined: it does), from the API lifecycle table: ValidatingAdmissionPolicy v1alpha1 (1.26-1.31,
 * off by default), v1beta1 (1.28-1.33, off by default), v1 (1.30); MutatingAdmissionPolicy v1alpha1
 * (1.32, off by default), v1beta1 (1.34, off by default), v1 (1.36); CustomResourceDefinition v1beta1
 * (removed in 1.22). A cluster that does not serve the kind refuses the object (`no matches for kind …`):
 * it is no material, and no policy of it runs. The text is apiLifecycle's (lifecycle.ts).
 */
export function materialNotServed(o: JSONObject, release: string): string | undefined {
  const lifecycle = apiLifecycle(o, release)
  return lifecycle === undefined || lifecycle.status === 'deprecated' ? undefined : lifecycle.message
}

/**
 * Which inputs are the last write of their object: a cluster holds one object per group, kind,
 * namespace and name (the version is only how it is written: a v1 and a v1beta1 copy of a policy are
 * one policy), so `kubectl apply` of both leaves the later one. `false` at an index another input
 * replaces; objects without a name (generateName) are each their own.
 */
export function latestWrites(objects: readonly unknown[]): (number | true)[] {
  const last = new Map<string, number>()
  const out: (number | true)[] = new Array(objects.length).fill(true)
  objects.forEach((o, index) => {
    if (!isObject(o)) return
    const name = metaOf(o).name
    if (typeof name !== 'string' || name === '') return
    const g = gvkOf(o)
    const ns = metaOf(o).namespace
    const key = `${g.group}\u0000${g.kind}\u0000${typeof ns === 'string' ? ns : ''}\u0000${name}`
    const before = last.get(key)
    if (before !== undefined) out[before] = index
    last.set(key, index)
  })
  return out
}

/** The admissionregistration.k8s.io kinds of policy material. */
const POLICY_KINDS: ReadonlySet<string> = new Set<MaterialKind>([
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
])

/** The kinds of policy material (materialKind). */
export const MATERIAL_KINDS: readonly string[] = [...POLICY_KINDS, 'CustomResourceDefinition']

export function materialKind(o: unknown): MaterialKind | undefined {
  if (!isObject(o)) return undefined
  const g = gvkOf(o)
  if (isAdmissionRegistration(g) && POLICY_KINDS.has(g.kind)) return g.kind as MaterialKind
  if (g.group === 'apiextensions.k8s.io' && g.kind === 'CustomResourceDefinition') return g.kind
  return undefined
}

/** An input with its index among the inputs (problems and diagnostics point at it). */
export interface Indexed<T> {
  readonly index: number
  readonly obj: T
}

/** The inputs of a set, sorted: material by kind, Namespaces, and every other object (param candidates). */
export interface Material {
  /** Material of a version the target release does not serve (refused as a cluster refuses it). */
  readonly problems: Problem[]
  readonly policies: Indexed<ValidatingAdmissionPolicy>[]
  readonly bindings: Indexed<ValidatingAdmissionPolicyBinding>[]
  readonly mutatingPolicies: Indexed<MutatingAdmissionPolicy>[]
  readonly mutatingBindings: Indexed<MutatingAdmissionPolicyBinding>[]
  readonly crds: Indexed<JSONObject>[]
  /** The Namespaces given, by name (also among `others`). */
  readonly namespaces: Map<string, JSONObject>
  readonly others: JSONObject[]
  /** latestWrites of the inputs: the earlier writes of one object are no input of the set. */
  readonly latest: (number | true)[]
}

/**
 * The inputs sorted as a cluster would hold them: the last write of each object, material of a version
 * `release` does not serve refused (unless `materialVersions` is `any`), the rest by kind.
 */
export function classifyMaterial(
  objects: readonly unknown[],
  release: string,
  materialVersions: 'release' | 'any' = 'release',
): Material {
  const m: Material = {
    problems: [],
    policies: [],
    bindings: [],
    mutatingPolicies: [],
    mutatingBindings: [],
    crds: [],
    namespaces: new Map(),
    others: [],
    latest: latestWrites(objects),
  }
  objects.forEach((o, index) => {
    if (!isObject(o) || m.latest[index] !== true) return
    const material = materialKind(o)
    if (material !== undefined && materialVersions !== 'any') {
      const notServed = materialNotServed(o, release)
      if (notServed !== undefined) {
        m.problems.push({ index, kind: material, name: String(metaOf(o).name ?? ''), errors: [], message: notServed })
        return
      }
    }
    switch (material) {
      case 'ValidatingAdmissionPolicy':
        m.policies.push({ index, obj: o })
        return
      case 'ValidatingAdmissionPolicyBinding':
        m.bindings.push({ index, obj: o })
        return
      case 'CustomResourceDefinition':
        m.crds.push({ index, obj: o })
        return
      case 'MutatingAdmissionPolicy':
        m.mutatingPolicies.push({ index, obj: o })
        return
      case 'MutatingAdmissionPolicyBinding':
        m.mutatingBindings.push({ index, obj: o })
        return
    }
    const g = gvkOf(o)
    if (g.group === '' && g.version === 'v1' && g.kind === 'Namespace') {
      const name = metaOf(o).name
      if (typeof name === 'string') m.namespaces.set(name, namespaceAsStored(o, name))
    }
    m.others.push(o)
  })
  return m
}
