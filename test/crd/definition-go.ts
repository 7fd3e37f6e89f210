import type {
  CustomResourceDefinition,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
  CustomResourceValidation,
  JSONSchemaProps,
} from '../../src/crd/definition/types.js'
import { ErrorType, errorString, type FieldError } from '../../src/kube/field.js'

// Reading the Go test tables (definition-go-tables.ts) of k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation_test.go: the internal Go types written with their Go
// field names become kelp's internal types; validationMatch is ported with its matching rule (same
// type, same path, error text containing the given string).

export interface Match {
  readonly type: ErrorType
  readonly field: string
  readonly containsString: string
  contains(s: string): Match
}

function match(type: ErrorType, field: string, containsString = ''): Match {
  return { type, field, containsString, contains: (s: string) => match(type, field, s) }
}

/** field.NewPath(path[0], path[1:]...).String(): the names joined by dots. */
const p = (path: string[]) => path.join('.')
export const required = (...path: string[]) => match(ErrorType.Required, p(path))
export const invalid = (...path: string[]) => match(ErrorType.Invalid, p(path))
export const invalidIndex = (i: number, ...path: string[]) => match(ErrorType.Invalid, `${p(path)}[${i}]`)
export const unsupported = (...path: string[]) => match(ErrorType.NotSupported, p(path))
export const invalidtypecode = (...path: string[]) => match(ErrorType.TypeInvalid, p(path))
export const forbidden = (...path: string[]) => match(ErrorType.Forbidden, p(path))
export const duplicate = (...path: string[]) => match(ErrorType.Duplicate, p(path))
export const tooMany = (...path: string[]) => match(ErrorType.TooMany, p(path))

export function matches(m: Match, e: FieldError): boolean {
  return e.type === m.type && e.field === m.field && errorString(e).includes(m.containsString)
}

/**
 * The Go tests' comparison: every expected match consumes a distinct error, and no error is left.
 * Returns the unmatched expectations and the unexpected errors (both empty on success).
 */
export function compare(
  expected: readonly Match[],
  got: readonly FieldError[],
): { missing: string[]; unexpected: string[] } {
  const seen = got.map(() => false)
  const missing: string[] = []
  for (const m of expected) {
    const i = got.findIndex((e, j) => !seen[j] && matches(m, e))
    if (i < 0)
      missing.push(
        `${m.type} at ${m.field}${m.containsString ? ` containing ${JSON.stringify(m.containsString)}` : ''}`,
      )
    else seen[i] = true
  }
  const unexpected = got.filter((_, j) => !seen[j]).map(errorString)
  return { missing, unexpected }
}

// ---- values the Go tables reference

type Go = Record<string, any>

export const singleVersionList: Go[] = [{ Name: 'version', Served: true, Storage: true }]
export const example = '"This is an example"'
export const exampleCert =
  '-----BEGIN CERTIFICATE-----\n(exampleCert, not checked on create)\n-----END CERTIFICATE-----'
export const apiextensions_ConditionTrue = 'True'
export const apiextensions_Established = 'Established'
export const version_MajorMinor = (major: number, minor: number) => `${major}.${minor}`
export const environment_MustBaseEnvSet = (v: string) => ({ compatibilityVersion: v })

export const validValidationSchema: Go = {
  Description: 'This is a description',
  Type: 'object',
  Format: 'date-time',
  Title: 'This is a title',
  Maximum: 10,
  ExclusiveMaximum: true,
  Minimum: 5,
  ExclusiveMinimum: true,
  MaxLength: 10,
  MinLength: 5,
  Pattern: '^[a-z]$',
  MaxItems: 10,
  MinItems: 5,
  MultipleOf: 3,
  Required: ['spec', 'status'],
  Properties: {
    spec: { Type: 'object', Items: { Schema: { Description: 'This is a schema nested under Items', Type: 'string' } } },
    status: { Type: 'object' },
  },
  ExternalDocs: { Description: 'This is an external documentation description' },
  Example: example,
}

export const validUnstructuralValidationSchema: Go = {
  Description: 'This is a description',
  Type: 'object',
  Format: 'date-time',
  Title: 'This is a title',
  Maximum: 10,
  ExclusiveMaximum: true,
  Minimum: 5,
  ExclusiveMinimum: true,
  MaxLength: 10,
  MinLength: 5,
  Pattern: '^[a-z]$',
  MaxItems: 10,
  MinItems: 5,
  MultipleOf: 3,
  Required: ['spec', 'status'],
  Items: { Schema: { Description: 'This is a schema nested under Items' } },
  Properties: { spec: {}, status: {} },
  ExternalDocs: { Description: 'This is an external documentation description' },
  Example: example,
}

export interface GoCase {
  readonly name: string
  readonly resource: Go
  readonly errors?: readonly Match[]
}

export interface GoValidationCase {
  readonly name: string
  readonly input: Go
  readonly statusEnabled?: boolean
  readonly opts?: Go
  readonly expectedErrors?: readonly Match[]
}

// ---- Go field names → kelp's internal types (zero values dropped, as kelp's decoding does)

/** Copies the set fields, renamed; Go zero values of non-pointer fields are left out. */
function pick(go: Go, names: Record<string, string>, pointers: ReadonlySet<string> = new Set()): Go {
  const out: Go = {}
  for (const [goName, name] of Object.entries(names)) {
    const v = go[goName]
    if (v === undefined || v === null) continue
    if (!pointers.has(goName) && (v === '' || v === false || v === 0)) continue
    out[name] = v
  }
  return out
}

const SCHEMA_NAMES: Record<string, string> = {
  ID: 'id',
  Schema: '$schema',
  Ref: '$ref',
  Description: 'description',
  Type: 'type',
  Nullable: 'nullable',
  Format: 'format',
  Title: 'title',
  Default: 'default',
  Maximum: 'maximum',
  ExclusiveMaximum: 'exclusiveMaximum',
  Minimum: 'minimum',
  ExclusiveMinimum: 'exclusiveMinimum',
  MaxLength: 'maxLength',
  MinLength: 'minLength',
  Pattern: 'pattern',
  MaxItems: 'maxItems',
  MinItems: 'minItems',
  UniqueItems: 'uniqueItems',
  MultipleOf: 'multipleOf',
  Enum: 'enum',
  MaxProperties: 'maxProperties',
  MinProperties: 'minProperties',
  Required: 'required',
  ExternalDocs: 'externalDocs',
  Example: 'example',
  XPreserveUnknownFields: 'x-kubernetes-preserve-unknown-fields',
  XEmbeddedResource: 'x-kubernetes-embedded-resource',
  XIntOrString: 'x-kubernetes-int-or-string',
  XListMapKeys: 'x-kubernetes-list-map-keys',
  XListType: 'x-kubernetes-list-type',
  XMapType: 'x-kubernetes-map-type',
}
const SCHEMA_POINTERS = new Set([
  'Ref',
  'Default',
  'Maximum',
  'Minimum',
  'MaxLength',
  'MinLength',
  'MaxItems',
  'MinItems',
  'MultipleOf',
  'MaxProperties',
  'MinProperties',
  'Example',
  'XPreserveUnknownFields',
  'XListType',
  'XMapType',
  'Enum',
  'Required',
  'XListMapKeys',
])

const mapOf = (m: Go | undefined, f: (x: Go) => unknown) =>
  m === undefined || m === null ? undefined : Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)]))

export function schemaFromGo(go: Go | undefined): JSONSchemaProps | undefined {
  if (go === undefined || go === null) return undefined
  const out = pick(go, SCHEMA_NAMES, SCHEMA_POINTERS)
  if (out.externalDocs !== undefined)
    out.externalDocs = pick(out.externalDocs, { Description: 'description', URL: 'url' })
  if (go.Items) {
    if (go.Items.JSONSchemas !== undefined && go.Items.JSONSchemas !== null)
      out.items = go.Items.JSONSchemas.map(schemaFromGo)
    else if (go.Items.Schema) out.items = schemaFromGo(go.Items.Schema)
  }
  for (const [g, k] of [
    ['AllOf', 'allOf'],
    ['OneOf', 'oneOf'],
    ['AnyOf', 'anyOf'],
  ] as const)
    if (Array.isArray(go[g])) out[k] = go[g].map(schemaFromGo)
  if (go.Not) out.not = schemaFromGo(go.Not)
  for (const [g, k] of [
    ['Properties', 'properties'],
    ['PatternProperties', 'patternProperties'],
    ['Definitions', 'definitions'],
  ] as const)
    if (go[g]) out[k] = mapOf(go[g], schemaFromGo)
  for (const [g, k] of [
    ['AdditionalProperties', 'additionalProperties'],
    ['AdditionalItems', 'additionalItems'],
  ] as const)
    if (go[g]) out[k] = go[g].Schema ? schemaFromGo(go[g].Schema) : go[g].Allows === true
  if (go.Dependencies)
    out.dependencies = mapOf(go.Dependencies, (d) => (d.Property ? d.Property : d.Schema ? schemaFromGo(d.Schema) : {}))
  if (Array.isArray(go.XValidations))
    out['x-kubernetes-validations'] = go.XValidations.map((r: Go) =>
      pick(
        r,
        {
          Rule: 'rule',
          Message: 'message',
          MessageExpression: 'messageExpression',
          Reason: 'reason',
          FieldPath: 'fieldPath',
          OptionalOldSelf: 'optionalOldSelf',
        },
        new Set(['Reason', 'OptionalOldSelf']),
      ),
    )
  return out as JSONSchemaProps
}

export function validationFromGo(go: Go | undefined): CustomResourceValidation | undefined {
  if (go === undefined || go === null) return undefined
  const s = schemaFromGo(go.OpenAPIV3Schema)
  return s === undefined ? {} : { openAPIV3Schema: s }
}

function subresourcesFromGo(go: Go | undefined) {
  if (go === undefined || go === null) return undefined
  const out: Go = {}
  if (go.Status) out.status = {}
  if (go.Scale)
    out.scale = pick(
      go.Scale,
      {
        SpecReplicasPath: 'specReplicasPath',
        StatusReplicasPath: 'statusReplicasPath',
        LabelSelectorPath: 'labelSelectorPath',
      },
      new Set(['LabelSelectorPath']),
    )
  return out
}

const columnsFromGo = (cols: Go[] | undefined) =>
  cols?.map((c) =>
    pick(c, {
      Name: 'name',
      Type: 'type',
      Format: 'format',
      Description: 'description',
      Priority: 'priority',
      JSONPath: 'jsonPath',
    }),
  )
const selectableFromGo = (fs: Go[] | undefined) => fs?.map((f) => pick(f, { JSONPath: 'jsonPath' }))
const namesFromGo = (n: Go | undefined) =>
  pick(n ?? {}, {
    Plural: 'plural',
    Singular: 'singular',
    ShortNames: 'shortNames',
    Kind: 'kind',
    ListKind: 'listKind',
    Categories: 'categories',
  })

function versionFromGo(go: Go): CustomResourceDefinitionVersion {
  const out = pick(
    go,
    {
      Name: 'name',
      Served: 'served',
      Storage: 'storage',
      Deprecated: 'deprecated',
      DeprecationWarning: 'deprecationWarning',
    },
    new Set(['DeprecationWarning']),
  )
  if (go.Schema) out.schema = validationFromGo(go.Schema)
  if (go.Subresources) out.subresources = subresourcesFromGo(go.Subresources)
  if (go.AdditionalPrinterColumns) out.additionalPrinterColumns = columnsFromGo(go.AdditionalPrinterColumns)
  if (go.SelectableFields) out.selectableFields = selectableFromGo(go.SelectableFields)
  return out
}

function specFromGo(go: Go | undefined): CustomResourceDefinitionSpec {
  if (go === undefined || go === null) return {}
  const out = pick(go, { Group: 'group', Version: 'version', Scope: 'scope' })
  out.names = namesFromGo(go.Names)
  if (go.Validation) out.validation = validationFromGo(go.Validation)
  if (go.Subresources) out.subresources = subresourcesFromGo(go.Subresources)
  if (go.Versions) out.versions = go.Versions.map(versionFromGo)
  if (go.AdditionalPrinterColumns) out.additionalPrinterColumns = columnsFromGo(go.AdditionalPrinterColumns)
  if (go.SelectableFields) out.selectableFields = selectableFromGo(go.SelectableFields)
  if (go.Conversion) {
    const c = go.Conversion
    const conv = pick(c, { Strategy: 'strategy', ConversionReviewVersions: 'conversionReviewVersions' })
    if (c.WebhookClientConfig) {
      const w = c.WebhookClientConfig
      const cc = pick(w, { URL: 'url', CABundle: 'caBundle' }, new Set(['URL']))
      if (w.Service)
        cc.service = pick(
          w.Service,
          { Namespace: 'namespace', Name: 'name', Path: 'path', Port: 'port' },
          new Set(['Path', 'Port']),
        )
      conv.webhookClientConfig = cc
    }
    out.conversion = conv
  }
  if (go.PreserveUnknownFields !== undefined && go.PreserveUnknownFields !== null)
    out.preserveUnknownFields = go.PreserveUnknownFields
  return out
}

export function crdFromGo(go: Go): CustomResourceDefinition {
  const meta = pick(go.ObjectMeta ?? {}, {
    Name: 'name',
    GenerateName: 'generateName',
    Namespace: 'namespace',
    Labels: 'labels',
    Annotations: 'annotations',
    Finalizers: 'finalizers',
  })
  const status: Go = {}
  if (go.Status?.AcceptedNames) status.acceptedNames = namesFromGo(go.Status.AcceptedNames)
  if (go.Status?.StoredVersions) status.storedVersions = go.Status.StoredVersions
  return { metadata: meta, spec: specFromGo(go.Spec), status }
}

/** The Go tests' "duplicate defaulting behaviour": a Webhook conversion gets conversionReviewVersions [v1beta1]. */
export function withWebhookDefaults(go: Go): Go {
  const c = go.Spec?.Conversion
  if (c?.Strategy === 'Webhook' && (c.ConversionReviewVersions?.length ?? 0) === 0)
    return { ...go, Spec: { ...go.Spec, Conversion: { ...c, ConversionReviewVersions: ['v1beta1'] } } }
  return go
}

export interface GoConversionCase {
  readonly Name: string
  readonly In: Go
  readonly ExpectOut: Go
}

const V1_NAMES: Record<string, string> = {
  URL: 'url',
  JSONPath: 'jsonPath',
  OpenAPIV3Schema: 'openAPIV3Schema',
  CABundle: 'caBundle',
  ObjectMeta: 'metadata',
}

/** A v1 Go literal as the JSON it marshals to: json names are the Go names in lowerCamel case. */
export function v1JSONFromGo(go: unknown): unknown {
  if (Array.isArray(go)) return go.map(v1JSONFromGo)
  if (typeof go !== 'object' || go === null) return go
  return Object.fromEntries(
    Object.entries(go).map(([k, v]) => [V1_NAMES[k] ?? k.charAt(0).toLowerCase() + k.slice(1), v1JSONFromGo(v)]),
  )
}
