import { compareKubeAwareVersionStrings } from '../kube/api-version.js'
import { DEFAULT_KUBE_VERSION, type KubeVersion } from '../kube/environment.js'
import type { JSONSchemaProps } from '../kube/schema/structural.js'
import { isObject } from '../kube/values/json.js'
import type { CompileRulesOptions } from './compilation.js'
import { Validator } from './validator.js'

// A CustomResourceDefinition as the apiserver serves it (apiextensions.k8s.io/v1): its names and
// scope, and per version whether it is served, its deprecation warning and its schema, with the
// compiled x-kubernetes-validations of that schema (built on first use, then reused).

export interface CRDVersionSpec {
  readonly name: string
  readonly served?: boolean
  readonly storage?: boolean
  readonly deprecated?: boolean
  readonly deprecationWarning?: string
  readonly schema?: { readonly openAPIV3Schema?: JSONSchemaProps }
  readonly subresources?: {
    readonly status?: object
    readonly scale?: {
      readonly specReplicasPath: string
      readonly statusReplicasPath: string
      readonly labelSelectorPath?: string
    }
  }
}

export interface CustomResourceDefinitionObject {
  readonly apiVersion?: string
  readonly kind?: string
  readonly metadata?: { readonly name?: string }
  readonly spec: {
    readonly group: string
    readonly names: {
      readonly kind: string
      readonly plural: string
      readonly singular?: string
      readonly listKind?: string
    }
    readonly scope: 'Namespaced' | 'Cluster'
    readonly versions: readonly CRDVersionSpec[]
    readonly preserveUnknownFields?: boolean
  }
}

/** One version of a CRD. */
export class CRDVersion {
  private validator: Validator | null | undefined

  constructor(
    readonly crd: CRD,
    readonly spec: CRDVersionSpec,
    private readonly compileOptions: CompileRulesOptions,
  ) {}

  get name(): string {
    return this.spec.name
  }
  get served(): boolean {
    return this.spec.served === true
  }
  get schema(): JSONSchemaProps | undefined {
    return this.spec.schema?.openAPIV3Schema
  }

  /** The warning a request for this version gets (customresource_handler.go), or undefined when not deprecated. */
  get deprecationWarning(): string | undefined {
    if (this.spec.deprecated !== true) return undefined
    return this.spec.deprecationWarning ?? defaultDeprecationWarning(this.name, this.crd)
  }

  /** The compiled rules of this version's schema (undefined when it has none). */
  celValidator(): Validator | undefined {
    if (this.validator === undefined) {
      const s = this.schema
      this.validator = (s && Validator.create(s, true, this.compileOptions)) ?? null
    }
    return this.validator ?? undefined
  }
}

/** A loaded CustomResourceDefinition. */
export class CRD {
  readonly versions: ReadonlyMap<string, CRDVersion>

  /** The apiserver version this CRD is served by (rule environment, format and metadata rules). */
  readonly kubeVersion: KubeVersion

  constructor(
    readonly object: CustomResourceDefinitionObject,
    compileOptions: CompileRulesOptions = {},
  ) {
    this.kubeVersion = (compileOptions.version ?? DEFAULT_KUBE_VERSION) as KubeVersion
    const opts = { ...compileOptions, expressions: 'stored' as const }
    this.versions = new Map(object.spec.versions.map((v) => [v.name, new CRDVersion(this, v, opts)]))
  }

  get name(): string {
    return this.object.metadata?.name ?? `${this.plural}.${this.group}`
  }
  get group(): string {
    return this.object.spec.group
  }
  get kind(): string {
    return this.object.spec.names.kind
  }
  get plural(): string {
    return this.object.spec.names.plural
  }
  get namespaced(): boolean {
    return this.object.spec.scope === 'Namespaced'
  }
  /** The storage version's name. */
  get storageVersion(): string | undefined {
    return this.object.spec.versions.find((v) => v.storage === true)?.name
  }
  /**
   * The conversion webhook an object of `version` goes through to be stored (`spec.conversion.strategy:
   * Webhook` and a version other than the storage one: the apiserver calls it on every write, a dry run
   * included), as the URL it posts to; undefined when none is called.
   */
  conversionWebhookFor(version: string): string | undefined {
    const conversion = (this.object.spec as { conversion?: unknown }).conversion
    if (!isObject(conversion) || conversion.strategy !== 'Webhook' || version === this.storageVersion) return undefined
    const cc =
      isObject(conversion.webhook) && isObject(conversion.webhook.clientConfig) ? conversion.webhook.clientConfig : {}
    if (typeof cc.url === 'string') return cc.url
    // the URL the apiserver posts to (apiserver pkg/util/webhook: https://<name>.<namespace>.svc:<port, 443><path>)
    const svc = isObject(cc.service) ? cc.service : {}
    const port = typeof svc.port === 'number' ? svc.port : 443
    const path = typeof svc.path === 'string' ? svc.path : ''
    return `https://${String(svc.name ?? '')}.${String(svc.namespace ?? '')}.svc:${port}${path}`
  }
}

/**
 * defaultDeprecationWarning: `<group>/<version> <Kind> is deprecated`, and `; use <group>/<v> <Kind>`
 * naming the most stable served, non-deprecated version newer than the deprecated one, if any.
 */
export function defaultDeprecationWarning(deprecatedVersion: string, crd: CRD): string {
  const { group } = crd
  const msg = `${group}/${deprecatedVersion} ${crd.kind} is deprecated`
  const candidates = crd.object.spec.versions
    .filter(
      (v) =>
        v.served === true && v.deprecated !== true && compareKubeAwareVersionStrings(deprecatedVersion, v.name) < 0,
    )
    .map((v) => v.name)
    .sort((a, b) => compareKubeAwareVersionStrings(b, a))
  return candidates.length === 0 ? msg : `${msg}; use ${group}/${candidates[0]} ${crd.kind}`
}
