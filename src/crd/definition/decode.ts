import { isObject } from '../../kube/values/json.js'
import { decodeSchema, mapValues } from './decode-schema.js'
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  ObjectMeta,
  SelectableField,
  WebhookClientConfig,
} from './types.js'

// Decoding an apiextensions.k8s.io/v1 CustomResourceDefinition from JSON (as read from YAML) into the
// v1 Go types: unknown keys dropped, `null` as absent, zero-valued scalars left out (see types.ts).
// The API server's status on create is its own (PrepareForCreate), so `status` is not read.

/** v1 WebhookConversion. */
export interface V1WebhookConversion {
  readonly clientConfig?: WebhookClientConfig
  readonly conversionReviewVersions?: readonly string[]
}

/** v1 CustomResourceConversion. */
export interface V1CustomResourceConversion {
  readonly strategy?: string
  readonly webhook?: V1WebhookConversion
}

/** v1 CustomResourceDefinitionSpec. */
export interface V1CustomResourceDefinitionSpec {
  readonly group?: string
  readonly names?: CustomResourceDefinitionNames
  readonly scope?: string
  readonly versions?: readonly CustomResourceDefinitionVersion[]
  readonly conversion?: V1CustomResourceConversion
  readonly preserveUnknownFields?: boolean
}

/** v1 CustomResourceDefinition (the parts validation reads). */
export interface V1CustomResourceDefinition {
  readonly metadata: ObjectMeta
  readonly spec: V1CustomResourceDefinitionSpec
}

export function decodeV1CustomResourceDefinition(raw: unknown): V1CustomResourceDefinition {
  const obj = isObject(raw) ? raw : {}
  return { metadata: decodeObjectMeta(obj.metadata), spec: decodeSpec(obj.spec) }
}

function decodeObjectMeta(raw: unknown): ObjectMeta {
  if (!isObject(raw)) return {}
  const out: Record<string, unknown> = {}
  copyStrings(raw, out, ['name', 'generateName', 'namespace'])
  if (typeof raw.generation === 'number' && raw.generation !== 0) out.generation = raw.generation
  for (const k of ['labels', 'annotations'] as const)
    if (isObject(raw[k])) out[k] = mapValues(raw[k], (v) => (typeof v === 'string' ? v : ''))
  if (Array.isArray(raw.finalizers)) out.finalizers = strings(raw.finalizers)
  return out
}

function decodeSpec(spec: unknown): V1CustomResourceDefinitionSpec {
  const raw = isObject(spec) ? spec : {}
  const out: Record<string, unknown> = {}
  copyStrings(raw, out, ['group', 'scope'])
  out.names = decodeNames(raw.names)
  if (Array.isArray(raw.versions)) out.versions = raw.versions.map(decodeVersion)
  if (isObject(raw.conversion)) {
    const c = raw.conversion
    const conv: Record<string, unknown> = {}
    copyStrings(c, conv, ['strategy'])
    if (isObject(c.webhook)) {
      const w: Record<string, unknown> = {}
      if (isObject(c.webhook.clientConfig)) w.clientConfig = decodeClientConfig(c.webhook.clientConfig)
      if (Array.isArray(c.webhook.conversionReviewVersions))
        w.conversionReviewVersions = strings(c.webhook.conversionReviewVersions)
      conv.webhook = w
    }
    out.conversion = conv
  }
  if (raw.preserveUnknownFields === true) out.preserveUnknownFields = true
  return out
}

function decodeNames(raw: unknown): CustomResourceDefinitionNames {
  if (!isObject(raw)) return {}
  const out: Record<string, unknown> = {}
  copyStrings(raw, out, ['plural', 'singular', 'kind', 'listKind'])
  for (const k of ['shortNames', 'categories'] as const) if (Array.isArray(raw[k])) out[k] = strings(raw[k])
  return out
}

function decodeVersion(raw: unknown): CustomResourceDefinitionVersion {
  if (!isObject(raw)) return {}
  const out: Record<string, unknown> = {}
  copyStrings(raw, out, ['name'])
  for (const k of ['served', 'storage', 'deprecated'] as const) if (raw[k] === true) out[k] = true
  if (typeof raw.deprecationWarning === 'string') out.deprecationWarning = raw.deprecationWarning
  if (isObject(raw.schema)) {
    const schema = decodeSchema(raw.schema.openAPIV3Schema)
    out.schema = schema === undefined ? {} : { openAPIV3Schema: schema }
  }
  if (isObject(raw.subresources)) out.subresources = decodeSubresources(raw.subresources)
  if (Array.isArray(raw.additionalPrinterColumns))
    out.additionalPrinterColumns = raw.additionalPrinterColumns.map(decodeColumn)
  if (Array.isArray(raw.selectableFields)) out.selectableFields = raw.selectableFields.map(decodeSelectableField)
  return out
}

function decodeSubresources(raw: Record<string, unknown>): CustomResourceSubresources {
  const out: Record<string, unknown> = {}
  if (isObject(raw.status)) out.status = {}
  if (isObject(raw.scale)) {
    const s: Record<string, unknown> = {}
    copyStrings(raw.scale, s, ['specReplicasPath', 'statusReplicasPath'])
    if (typeof raw.scale.labelSelectorPath === 'string') s.labelSelectorPath = raw.scale.labelSelectorPath
    out.scale = s
  }
  return out
}

function decodeColumn(raw: unknown): CustomResourceColumnDefinition {
  if (!isObject(raw)) return {}
  const out: Record<string, unknown> = {}
  copyStrings(raw, out, ['name', 'type', 'format', 'description', 'jsonPath'])
  if (typeof raw.priority === 'number' && raw.priority !== 0) out.priority = raw.priority
  return out
}

function decodeSelectableField(raw: unknown): SelectableField {
  if (!isObject(raw)) return {}
  const out: Record<string, unknown> = {}
  copyStrings(raw, out, ['jsonPath'])
  return out
}

function decodeClientConfig(raw: Record<string, unknown>): WebhookClientConfig {
  const out: Record<string, unknown> = {}
  if (typeof raw.url === 'string') out.url = raw.url
  if (isObject(raw.service)) {
    const s: Record<string, unknown> = {}
    copyStrings(raw.service, s, ['namespace', 'name'])
    if (typeof raw.service.path === 'string') s.path = raw.service.path
    if (typeof raw.service.port === 'number') s.port = raw.service.port
    out.service = s
  }
  if (typeof raw.caBundle === 'string' && raw.caBundle !== '') out.caBundle = raw.caBundle
  return out
}

function copyStrings(from: Record<string, unknown>, to: Record<string, unknown>, keys: readonly string[]): void {
  for (const k of keys) if (typeof from[k] === 'string' && from[k] !== '') to[k] = from[k]
}

function strings(a: unknown[]): string[] {
  return a.map((s) => (typeof s === 'string' ? s : ''))
}
