import { describe, expect, it } from 'vitest'
import {
  customResourceDefinitionInvalidStatus,
  validateCustomResourceDefinition,
} from '../../src/crd/definition/index.js'
import { errorString, kubectlInvalidText } from '../../src/kube/field.js'
import { widgetCrd } from '../fixtures/widget-crd.js'

// Exact texts of create errors for v1 CRDs given as JSON, as kubectl apply shows them. Each expected
// text is built from the message in pkg/apis/apiextensions/validation/validation.go (or the file
// named), the path from the v1 → internal conversion (v1/conversion.go) and field.Error's
// rendering; docs: shared/spec/kubernetes-cel-semantics.md §E.2.

type Json = Record<string, unknown>

function crd(schema: Json, spec: Json = {}, metadata: Json = { name: 'widgets.example.com' }): Json {
  return widgetCrd({ schema, metadata, spec })
}

const texts = (obj: unknown) => validateCustomResourceDefinition(obj).map(errorString)
const S = 'spec.validation.openAPIV3Schema'
const OK_SCHEMA = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } }

describe('a valid CRD', () => {
  it('has no errors', () => {
    expect(texts(crd(OK_SCHEMA))).toEqual([])
  })
})

describe('x-kubernetes-validations rule checks without CEL (validation.go; spec §E.2 table)', () => {
  const rules = [
    { rule: '   ' },
    { rule: 'self.a == "x"', message: '  ' },
    { rule: 'self.a == "x"', message: 'a\nb' },
    { rule: 'self.a == "x" ||\nself.a == "y"' },
    { rule: 'self.a == "x"', messageExpression: ' ' },
    { rule: 'self.a == "x"', reason: 'Bad' },
    { rule: 'self.a == "x"', fieldPath: ' ' },
    { rule: 'self.a == "x"', fieldPath: '.a\n' },
    { rule: 'self.a == "x"', fieldPath: '.nope' },
    { rule: 'self.a == "x"', fieldPath: '.a', reason: 'FieldValueForbidden', message: 'fine' },
  ]
  const schema = { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': rules }
  const R = `${S}.x-kubernetes-validations`
  it('reports each at its rule, in rule order', () => {
    expect(texts(crd(schema))).toEqual([
      `${R}[0].rule: Required value: rule is not specified`,
      `${R}[1].message: Invalid value: "  ": must be non-empty if specified`,
      `${R}[2].message: Invalid value: "a\\nb": must not contain line breaks`,
      `${R}[3].message: Required value: message must be specified if rule contains line breaks`,
      `${R}[4].messageExpression: Required value: messageExpression must be non-empty if specified`,
      `${R}[5].reason: Unsupported value: "Bad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${R}[6].fieldPath: Invalid value: " ": must be non-empty if specified`,
      `${R}[6].fieldPath: Invalid value: " ": must be a valid path`,
      `${R}[7].fieldPath: Invalid value: ".a\\n": must not contain line breaks`,
      `${R}[7].fieldPath: Invalid value: ".a\\n": must be a valid path`,
      `${R}[8].fieldPath: Invalid value: ".nope": must be a valid path`,
    ])
  })
})

describe('paths follow the v1 → internal conversion (v1/conversion.go)', () => {
  const bad = { type: 'object', properties: { spec: { description: 'no type' } } }
  it('one version: its schema moves to spec.validation', () => {
    expect(texts(crd(bad))).toEqual([
      `${S}.properties[spec].type: Required value: must not be empty for specified object fields`,
    ])
  })
  it('identical schemas in all versions: spec.validation', () => {
    const versions = [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: bad } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: bad } },
    ]
    expect(texts(crd(bad, { versions }))).toEqual([
      `${S}.properties[spec].type: Required value: must not be empty for specified object fields`,
    ])
  })
  it('distinct schemas: spec.versions[i].schema.openAPIV3Schema', () => {
    const versions = [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: OK_SCHEMA } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: bad } },
    ]
    expect(texts(crd(bad, { versions }))).toEqual([
      'spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ])
  })
  it('a version without schema: required (requireOpenAPISchema)', () => {
    const versions = [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: OK_SCHEMA } },
      { name: 'v2', served: false, storage: false },
    ]
    expect(texts(crd(OK_SCHEMA, { versions }))).toEqual(['spec.versions[1].schema.openAPIV3Schema: Required value'])
  })
  it('printer columns of the only version are top-level', () => {
    const versions = [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: OK_SCHEMA },
        additionalPrinterColumns: [{ name: 'A', type: 'int', jsonPath: 'spec.a' }],
      },
    ]
    expect(texts(crd(OK_SCHEMA, { versions }))).toEqual([
      'spec.additionalPrinterColumns[0].type: Invalid value: "int": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.a": must be a simple json path starting with .',
    ])
  })
})

describe('spec and metadata (validation.go, apimachinery validation.go)', () => {
  it('no storage version: spec.versions rendered as the internal structs (json.Marshal)', () => {
    const versions = [{ name: 'v1', served: true, schema: { openAPIV3Schema: OK_SCHEMA } }]
    expect(texts(crd(OK_SCHEMA, { versions }))).toEqual([
      'spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: null: must have at least one stored version',
    ])
  })
  it('version names are DNS-1035 labels (RegexError wording)', () => {
    const versions = [{ name: 'V1', served: true, storage: true, schema: { openAPIV3Schema: OK_SCHEMA } }]
    expect(texts(crd(OK_SCHEMA, { versions }))).toEqual([
      "spec.versions[0].name: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.version: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ])
  })
  it('metadata.name must be <plural>.<group>', () => {
    expect(texts(crd(OK_SCHEMA, {}, { name: 'gadgets.example.com' }))).toEqual([
      'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
    ])
  })
  it('group needs a dot', () => {
    expect(texts(crd(OK_SCHEMA, { group: 'example' }, { name: 'widgets.example' }))).toEqual([
      'spec.group: Invalid value: "example": should be a domain with at least one dot',
    ])
  })
  it('protected groups need the approval annotation (validateAPIApproval)', () => {
    expect(texts(crd(OK_SCHEMA, { group: 'x.k8s.io' }, { name: 'widgets.x.k8s.io' }))).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ])
    const approved = {
      name: 'widgets.x.k8s.io',
      annotations: { 'api-approved.kubernetes.io': 'https://github.com/x/y/pull/1' },
    }
    expect(texts(crd(OK_SCHEMA, { group: 'x.k8s.io' }, approved))).toEqual([])
  })
  it('preserveUnknownFields: true is refused on create (validatePreserveUnknownFields)', () => {
    expect(texts(crd(OK_SCHEMA, { preserveUnknownFields: true }))).toEqual([
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ])
  })
  it('a Webhook conversion needs conversionReviewVersions', () => {
    const conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://example.com/convert' } } }
    expect(texts(crd(OK_SCHEMA, { conversion }))).toEqual(['spec.conversion.conversionReviewVersions: Required value'])
  })
  it('a webhook URL must be https (apiserver util/webhook/validation.go)', () => {
    const conversion = {
      strategy: 'Webhook',
      webhook: { clientConfig: { url: 'http://example.com/convert' }, conversionReviewVersions: ['v1'] },
    }
    expect(texts(crd(OK_SCHEMA, { conversion }))).toEqual([
      `spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    ])
  })
  it('the status subresource restricts the root type', () => {
    const versions = [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'string' } },
        subresources: { status: {} },
      },
    ]
    expect(texts(crd({}, { versions }))).toEqual([
      `${S}.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
      `${S}.type: Invalid value: "string": must be object at the root`,
    ])
  })
})

describe('structural schema checks (pkg/apiserver/schema/validation.go, validation.go)', () => {
  it('root metadata may only restrict name and generateName', () => {
    const schema = {
      type: 'object',
      properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
    }
    expect(texts(crd(schema))).toEqual([
      `${S}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ])
  })
  it('a pattern must compile as a Go regexp', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }
    expect(texts(crd(schema))).toEqual([
      `${S}.properties[a].pattern: Invalid value: "(": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(\``,
    ])
  })
  it('types under allOf are not structural', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', allOf: [{ type: 'string' }] } } }
    expect(texts(crd(schema))).toEqual([`${S}.properties[a].allOf[0].type: Forbidden: must be empty to be structural`])
  })
  it('int-or-string: the anyOf pattern is allowed', () => {
    const schema = {
      type: 'object',
      properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } },
    }
    expect(texts(crd(schema))).toEqual([])
  })
  it('list-map keys must be required or defaulted (validateMapListKeysMapSet)', () => {
    const schema = {
      type: 'object',
      properties: {
        l: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', properties: { k: { type: 'string' } } },
        },
      },
    }
    expect(texts(crd(schema))).toEqual([
      `${S}.properties[l].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ])
  })
  it('x-kubernetes-list-type: map needs keys', () => {
    const schema = {
      type: 'object',
      properties: { l: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' } } },
    }
    expect(texts(crd(schema))).toEqual([
      `${S}.properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    ])
  })
  it('defaults must be pruned (defaulting/validation.go)', () => {
    const schema = {
      type: 'object',
      properties: { o: { type: 'object', properties: { x: { type: 'string' } }, default: { y: 1 } } },
    }
    expect(texts(crd(schema))).toEqual([
      `${S}.properties[o].default: Invalid value: {"y":1}: must not have unknown fields`,
    ])
  })
  it('$schema is reported by NewStructural when nothing else is wrong (convert.go)', () => {
    const schema = { type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' }
    expect(texts(crd(schema))).toEqual([`${S}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`])
  })
})

describe('the Status and what kubectl prints (apimachinery errors.go, kubectl helpers.go)', () => {
  it('one cause', () => {
    const errs = validateCustomResourceDefinition(crd(OK_SCHEMA, {}, { name: 'gadgets.example.com' }))
    const status = customResourceDefinitionInvalidStatus('gadgets.example.com', errs)
    expect(status.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "gadgets.example.com" is invalid: metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
    )
    expect(kubectlInvalidText(status)).toBe(
      'The CustomResourceDefinition "gadgets.example.com" is invalid: metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group\n',
    )
  })
  it('several causes', () => {
    const errs = validateCustomResourceDefinition(crd(OK_SCHEMA, { group: 'example' }, { name: 'widgets.example.com' }))
    const status = customResourceDefinitionInvalidStatus('widgets.example.com', errs)
    expect(status.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: [metadata.name: Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group, spec.group: Invalid value: "example": should be a domain with at least one dot]',
    )
  })
})
