import { parseGroupVersion } from '../kube/api-version.js'
import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { type FieldError, type InvalidStatus, newInvalid } from '../kube/field.js'
import { CRD, type CustomResourceDefinitionObject } from './crd.js'
import { type CustomResourceResult, type ValidateOptions, validateCustomResource } from './custom-resource.js'
import { validateCustomResourceDefinition } from './definition/index.js'
import { crdCelRuleValidator } from './definition-cel.js'

// A set of CustomResourceDefinitions as one apiserver would hold them: each CRD is validated as its
// create would be (a CRD the apiserver would reject is reported, not served), then custom resources
// are validated against the CRD of their group and kind.

export interface CRDProblem {
  /** metadata.name of the rejected CRD (or `<unnamed>`). */
  readonly name: string
  /** Index of the object in the input. */
  readonly index: number
  readonly errors: readonly FieldError[]
  /** The apiserver's Status for the rejected create (`CustomResourceDefinition.apiextensions.k8s.io "x" is invalid: ...`). */
  readonly status: InvalidStatus
}

export interface LoadOptions {
  /** Kubernetes version (default: the newest stable release, 1.37): rule environment and message texts. */
  readonly version?: string
  /** Skip validating the CRDs themselves (trust them as already accepted by a cluster). */
  readonly trusted?: boolean
}

/** Immutable once loaded; safe to share between concurrent validations. */
export class CustomResourceDefinitions {
  private readonly byGroupKind: ReadonlyMap<string, CRD>
  /** Group/kinds of rejected CRDs: their objects get the no-match error, as in a cluster that refused the CRD. */
  private readonly rejectedKinds: ReadonlySet<string>

  private constructor(
    crds: readonly CRD[],
    readonly problems: readonly CRDProblem[],
    rejected: readonly CustomResourceDefinitionObject[],
  ) {
    this.byGroupKind = new Map(crds.map((c) => [`${c.kind}.${c.group}`, c]))
    this.rejectedKinds = new Set(rejected.map((c) => `${c?.spec?.names?.kind}.${c?.spec?.group}`))
  }

  /** Loads CRD objects (apiextensions.k8s.io/v1); rejected ones are in `problems`. */
  static load(objects: readonly unknown[], options: LoadOptions = {}): CustomResourceDefinitions {
    const version = options.version ?? DEFAULT_KUBE_VERSION
    const celRules = crdCelRuleValidator({ version })
    const crds: CRD[] = []
    const problems: CRDProblem[] = []
    const rejected: CustomResourceDefinitionObject[] = []
    objects.forEach((input, index) => {
      // a snapshot, as the apiserver stores its own copy: compiled schemas are cached by schema object,
      // so a caller changing its CRD object and loading it again must not get the old schema's validators
      const o = structuredClone(input)
      const obj = o as CustomResourceDefinitionObject
      const name = obj?.metadata?.name ?? '<unnamed>'
      const errors = options.trusted ? [] : validateCustomResourceDefinition(o, { celRules })
      if (errors.length > 0) {
        problems.push({
          name,
          index,
          errors,
          status: newInvalid('apiextensions.k8s.io', 'CustomResourceDefinition', name, errors),
        })
        rejected.push(obj)
        return
      }
      crds.push(new CRD(obj, { version }))
    })
    return new CustomResourceDefinitions(crds, problems, rejected)
  }

  get size(): number {
    return this.byGroupKind.size
  }

  [Symbol.iterator](): IterableIterator<CRD> {
    return this.byGroupKind.values()
  }

  get(group: string, kind: string): CRD | undefined {
    return this.byGroupKind.get(`${kind}.${group}`)
  }

  /** An object whose CRD was rejected: what the cluster would answer (the kind is not served). */
  private rejectedKindError(object: unknown): CustomResourceResult | undefined {
    const o = object as { apiVersion?: unknown; kind?: unknown } | null
    if (typeof o?.apiVersion !== 'string' || typeof o.kind !== 'string') return undefined
    if (!this.rejectedKinds.has(`${o.kind}.${parseGroupVersion(o.apiVersion).group}`)) return undefined
    const message = `no matches for kind "${o.kind}" in version "${o.apiVersion}"`
    return { allowed: false, errors: [], warnings: [], status: { code: 404, reason: 'NotFound', message }, message }
  }

  /** The CRD an object's apiVersion group and kind name, if loaded. */
  forObject(object: unknown): CRD | undefined {
    const o = object as { apiVersion?: unknown; kind?: unknown } | null
    if (typeof o?.apiVersion !== 'string' || typeof o.kind !== 'string') return undefined
    const group = parseGroupVersion(o.apiVersion).group
    const crd = this.get(group, o.kind)
    if (crd !== undefined || o.kind !== o.kind.toLowerCase()) return crd
    // kubectl's discovery mapper knows each kind in lower case too and sends the object; the CRD handler then
    // refuses its kind (`kind: Invalid value: "lower": must be Lower`)
    for (const c of this.byGroupKind.values()) if (c.group === group && c.kind.toLowerCase() === o.kind) return c
    return undefined
  }

  /**
   * Validates a custom resource (create, or update with `oldObject`); undefined when no loaded CRD
   * defines its kind.
   */
  validate(object: unknown, options: ValidateOptions = {}): CustomResourceResult | undefined {
    const crd = this.forObject(object)
    if (crd === undefined) return this.rejectedKindError(object)
    return validateCustomResource(crd, object, options)
  }
}
