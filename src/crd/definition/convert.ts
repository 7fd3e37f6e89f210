import type { V1CustomResourceDefinition, V1CustomResourceDefinitionSpec } from './decode.js'
import { deepEqual } from './equality.js'
import type {
  CustomResourceConversion,
  CustomResourceDefinition,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
} from './types.js'

// What happens to a v1 CustomResourceDefinition between decoding and ValidateCustomResourceDefinition:
// the v1 defaults (v1/defaults.go, zz_generated.defaults.go), the conversion to the internal type
// (v1/conversion.go) and the registry's PrepareForCreate (registry/customresourcedefinition/strategy.go).

/** SetObjectDefaults_CustomResourceDefinition: singular, listKind, conversion strategy, service port. */
export function setV1Defaults(crd: V1CustomResourceDefinition): V1CustomResourceDefinition {
  const spec = crd.spec
  const names = { ...spec.names }
  if (!names.singular && names.kind) names.singular = names.kind.toLowerCase()
  if (!names.listKind && names.kind) names.listKind = `${names.kind}List`
  let conversion = spec.conversion ?? { strategy: 'None' }
  const service = conversion.webhook?.clientConfig?.service
  if (service !== undefined && service.port === undefined) {
    const webhook = conversion.webhook ?? {}
    conversion = {
      ...conversion,
      webhook: { ...webhook, clientConfig: { ...webhook.clientConfig, service: { ...service, port: 443 } } },
    }
  }
  return { ...crd, spec: { ...spec, names, conversion } }
}

/**
 * Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec: `version` is
 * the first version's name, and each of schema, subresources, additionalPrinterColumns and
 * selectableFields moves to the top level when all versions carry the same value (nil included).
 */
export function convertV1Spec(spec: V1CustomResourceDefinitionSpec): CustomResourceDefinitionSpec {
  const out: {
    -readonly [K in keyof CustomResourceDefinitionSpec]: CustomResourceDefinitionSpec[K]
  } = {
    group: spec.group,
    names: spec.names,
    scope: spec.scope,
    versions: spec.versions,
    conversion: spec.conversion && convertConversion(spec.conversion),
    // Convert_bool_To_Pointer_bool: always a non-nil pointer
    preserveUnknownFields: spec.preserveUnknownFields === true,
  }
  const versions = spec.versions
  if (versions === undefined || versions.length === 0) return out
  const first = versions[0] as CustomResourceDefinitionVersion
  out.version = first.name
  const same = (key: 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields') =>
    versions.every((v) => deepEqual(v[key], first[key]))
  const schemaSame = same('schema')
  const subresourcesSame = same('subresources')
  const columnsSame = same('additionalPrinterColumns')
  const selectableSame = same('selectableFields')
  if (schemaSame) out.validation = first.schema
  if (subresourcesSame) out.subresources = first.subresources
  if (columnsSame) out.additionalPrinterColumns = first.additionalPrinterColumns
  if (selectableSame) out.selectableFields = first.selectableFields
  out.versions = versions.map((v) => {
    const c = { ...v }
    if (schemaSame) delete c.schema
    if (subresourcesSame) delete c.subresources
    if (columnsSame) delete c.additionalPrinterColumns
    if (selectableSame) delete c.selectableFields
    return c
  })
  return out
}

/** Convert_v1_CustomResourceConversion_To_apiextensions_CustomResourceConversion: `webhook` flattened. */
function convertConversion(c: NonNullable<V1CustomResourceDefinitionSpec['conversion']>): CustomResourceConversion {
  const out: { -readonly [K in keyof CustomResourceConversion]: CustomResourceConversion[K] } = {}
  if (c.strategy !== undefined) out.strategy = c.strategy
  if (c.webhook !== undefined) {
    if (c.webhook.conversionReviewVersions !== undefined)
      out.conversionReviewVersions = c.webhook.conversionReviewVersions
    if (c.webhook.clientConfig !== undefined) out.webhookClientConfig = c.webhook.clientConfig
  }
  return out
}

/**
 * The internal object the create validation sees: v1 defaults, conversion, the namespace cleared
 * (cluster-scoped) and PrepareForCreate's status (stored versions: the first version marked storage).
 */
export function toInternalForCreate(crd: V1CustomResourceDefinition): CustomResourceDefinition {
  const defaulted = setV1Defaults(crd)
  const spec = convertV1Spec(defaulted.spec)
  const storage = spec.versions?.find((v) => v.storage)
  const status = storage === undefined ? {} : { storedVersions: [storage.name ?? ''] }
  // rest.BeforeCreate clears the namespace of a cluster-scoped object
  const { namespace: _, ...metadata } = defaulted.metadata
  return { metadata, spec, status }
}
