import { compareStrings } from '../../cel/values/strings.js'
import { goJSON, MarshaledJSON } from '../../kube/field.js'
import type { CustomResourceDefinitionVersion, JSONSchemaProps, SelectableField, ValidationRule } from './types.js'

// Bad values that are internal apiextensions structs render as Go's json.Marshal of them (field.Error
// ErrorBody): the internal types have no JSON tags, so every field appears under its Go name, in
// declaration order, zero values included (nil as null).

type Field = readonly [name: string, json: string]

function struct(fields: readonly Field[]): string {
  return `{${fields.map(([k, v]) => `${goJSON(k)}:${v}`).join(',')}}`
}

const str = (s: string | undefined) => goJSON(s ?? '')
const bool = (b: boolean | undefined) => String(b === true)
const ptr = (v: unknown) => (v === undefined ? 'null' : goJSON(v))
const list = <T>(a: readonly T[] | undefined, f: (x: T) => string) =>
  a === undefined ? 'null' : `[${a.map(f).join(',')}]`
const map = <T>(m: Readonly<Record<string, T>> | undefined, f: (x: T) => string) =>
  m === undefined
    ? 'null'
    : // json.Marshal sorts a map's keys by their bytes (Go's string order)
      `{${Object.keys(m)
        .sort(compareStrings)
        .map((k) => `${goJSON(k)}:${f(m[k] as T)}`)
        .join(',')}}`

/** A *string bad value: json.Marshal writes the string as JSON (not Go-quoted). */
export function marshaledString(s: string | undefined): MarshaledJSON {
  return new MarshaledJSON(ptr(s))
}

/** apiextensions.JSONSchemaProps. */
export function schemaJSON(s: JSONSchemaProps): string {
  const orBool = (v: JSONSchemaProps | boolean | undefined) =>
    v === undefined
      ? 'null'
      : typeof v === 'boolean'
        ? struct([
            ['Allows', String(v)],
            ['Schema', 'null'],
          ])
        : struct([
            ['Allows', 'true'],
            ['Schema', schemaJSON(v)],
          ])
  return struct([
    ['ID', str(s.id)],
    ['Schema', str(s.$schema)],
    ['Ref', ptr(s.$ref)],
    ['Description', str(s.description)],
    ['Type', str(s.type)],
    ['Nullable', bool(s.nullable)],
    ['Format', str(s.format)],
    ['Title', str(s.title)],
    ['Default', ptr(s.default)],
    ['Maximum', ptr(s.maximum)],
    ['ExclusiveMaximum', bool(s.exclusiveMaximum)],
    ['Minimum', ptr(s.minimum)],
    ['ExclusiveMinimum', bool(s.exclusiveMinimum)],
    ['MaxLength', ptr(s.maxLength)],
    ['MinLength', ptr(s.minLength)],
    ['Pattern', str(s.pattern)],
    ['MaxItems', ptr(s.maxItems)],
    ['MinItems', ptr(s.minItems)],
    ['UniqueItems', bool(s.uniqueItems)],
    ['MultipleOf', ptr(s.multipleOf)],
    ['Enum', list(s.enum, goJSON)],
    ['MaxProperties', ptr(s.maxProperties)],
    ['MinProperties', ptr(s.minProperties)],
    ['Required', list(s.required, goJSON)],
    ['Items', itemsJSON(s.items)],
    ['AllOf', list(s.allOf, schemaJSON)],
    ['OneOf', list(s.oneOf, schemaJSON)],
    ['AnyOf', list(s.anyOf, schemaJSON)],
    ['Not', s.not === undefined ? 'null' : schemaJSON(s.not)],
    ['Properties', map(s.properties, schemaJSON)],
    ['AdditionalProperties', orBool(s.additionalProperties)],
    ['PatternProperties', map(s.patternProperties, schemaJSON)],
    [
      'Dependencies',
      map(s.dependencies, (d) =>
        Array.isArray(d)
          ? struct([
              ['Schema', 'null'],
              ['Property', list(d as readonly string[], goJSON)],
            ])
          : struct([
              ['Schema', schemaJSON(d as JSONSchemaProps)],
              ['Property', 'null'],
            ]),
      ),
    ],
    ['AdditionalItems', orBool(s.additionalItems)],
    ['Definitions', map(s.definitions, schemaJSON)],
    [
      'ExternalDocs',
      s.externalDocs === undefined
        ? 'null'
        : struct([
            ['Description', str(s.externalDocs.description)],
            ['URL', str(s.externalDocs.url)],
          ]),
    ],
    ['Example', ptr(s.example)],
    ['XPreserveUnknownFields', ptr(s['x-kubernetes-preserve-unknown-fields'])],
    ['XEmbeddedResource', bool(s['x-kubernetes-embedded-resource'])],
    ['XIntOrString', bool(s['x-kubernetes-int-or-string'])],
    ['XListMapKeys', list(s['x-kubernetes-list-map-keys'], goJSON)],
    ['XListType', ptr(s['x-kubernetes-list-type'])],
    ['XMapType', ptr(s['x-kubernetes-map-type'])],
    ['XValidations', list(s['x-kubernetes-validations'], validationRuleJSON)],
  ])
}

/** apiextensions.JSONSchemaPropsOrArray. */
export function itemsJSON(items: JSONSchemaProps | readonly JSONSchemaProps[] | undefined): string {
  if (items === undefined) return 'null'
  if (Array.isArray(items))
    return struct([
      ['Schema', 'null'],
      ['JSONSchemas', list(items as readonly JSONSchemaProps[], schemaJSON)],
    ])
  return struct([
    ['Schema', schemaJSON(items as JSONSchemaProps)],
    ['JSONSchemas', 'null'],
  ])
}

/** apiextensions.ValidationRule (the bad value of the CEL errors of a rule). */
export function validationRuleJSON(r: ValidationRule): string {
  return struct([
    ['Rule', str(r.rule)],
    ['Message', str(r.message)],
    ['MessageExpression', str(r.messageExpression)],
    ['Reason', ptr(r.reason)],
    ['FieldPath', str(r.fieldPath)],
    ['OptionalOldSelf', ptr(r.optionalOldSelf)],
  ])
}

/** []apiextensions.CustomResourceDefinitionVersion (the bad value of errors at spec.versions). */
export function versionsJSON(versions: readonly CustomResourceDefinitionVersion[] | undefined): string {
  return list(versions, (v) =>
    struct([
      ['Name', str(v.name)],
      ['Served', bool(v.served)],
      ['Storage', bool(v.storage)],
      ['Deprecated', bool(v.deprecated)],
      ['DeprecationWarning', ptr(v.deprecationWarning)],
      [
        'Schema',
        v.schema === undefined
          ? 'null'
          : struct([
              [
                'OpenAPIV3Schema',
                v.schema.openAPIV3Schema === undefined ? 'null' : schemaJSON(v.schema.openAPIV3Schema),
              ],
            ]),
      ],
      [
        'Subresources',
        v.subresources === undefined
          ? 'null'
          : struct([
              ['Status', v.subresources.status === undefined ? 'null' : '{}'],
              [
                'Scale',
                v.subresources.scale === undefined
                  ? 'null'
                  : struct([
                      ['SpecReplicasPath', str(v.subresources.scale.specReplicasPath)],
                      ['StatusReplicasPath', str(v.subresources.scale.statusReplicasPath)],
                      ['LabelSelectorPath', ptr(v.subresources.scale.labelSelectorPath)],
                    ]),
              ],
            ]),
      ],
      [
        'AdditionalPrinterColumns',
        list(v.additionalPrinterColumns, (c) =>
          struct([
            ['Name', str(c.name)],
            ['Type', str(c.type)],
            ['Format', str(c.format)],
            ['Description', str(c.description)],
            ['Priority', String(c.priority ?? 0)],
            ['JSONPath', str(c.jsonPath)],
          ]),
        ),
      ],
      ['SelectableFields', list(v.selectableFields, (f: SelectableField) => struct([['JSONPath', str(f.jsonPath)]]))],
    ]),
  )
}

/** A bad value that prints as Go's json.Marshal of the internal struct(s). */
export function marshaled(json: string): MarshaledJSON {
  return new MarshaledJSON(json)
}
