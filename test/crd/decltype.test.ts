import { describe, expect, it } from 'vitest'
import { BoolType, StringType, type Type } from '../../src/cel/types/types.js'
import { type DeclType, MaxRequestSizeBytes, schemaDeclType } from '../../src/kube/schema/decltype.js'
import { SchemaTypeProvider } from '../../src/kube/schema/provider.js'
import { type JSONSchemaProps, withTypeAndObjectMeta } from '../../src/kube/schema/structural.js'

// Transcriptions of apiextensions-apiserver pkg/apiserver/schema/cel/model/schemas_test.go
// (TestSchemaDeclType, TestSchemaDeclTypes, TestWithTypeAndObjectMetaNameLength,
// TestWithTypeAndObjectMetaIdempotent, TestWithTypeAndObjectMetaDoesNotMutateInput,
// TestEstimateMaxLengthJSON) and model/types_test.go (TestTypes_RuleTypesFieldMapping), against
// schemaDeclType and SchemaTypeProvider. The schemas are the Go structural schemas written as the
// apiextensions.k8s.io/v1 JSON they come from. The metadata-name tests are master's (Kubernetes
// 1.37) behaviour, which kelp applies with `capMetadataNames` (1.37 and later).

type S = JSONSchemaProps

/** DNS1123SubdomainMaxLength: master's cap on metadata.name (generateName: one less). */
const nameMax = 253

/** model/schemas_test.go testSchema(). */
function testSchema(): S {
  return {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 256 },
      value: { type: 'integer', default: 1, format: 'int64', enum: [1, 2, 3] },
      nested: {
        type: 'object',
        properties: {
          subname: { type: 'string' },
          flags: { type: 'object', additionalProperties: { type: 'boolean' } },
          dates: { type: 'array', items: { type: 'string', format: 'date-time' } },
        },
      },
      metadata: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          value: { type: 'array', items: { type: 'string' } },
        },
      },
      intOrString: {
        'x-kubernetes-int-or-string': true,
        maxLength: 20,
        anyOf: [{ type: 'integer' }, { type: 'string' }],
      },
    },
  }
}

function field(t: DeclType | undefined, name: string): DeclType {
  if (t?.kind !== 'object') throw new Error(`not an object type: ${t?.kind}`)
  const f = t.fields.get(name)
  if (f === undefined) throw new Error(`field ${name} missing`)
  return f.type
}

describe('model/schemas_test.go TestSchemaDeclType', () => {
  it('object type with the schema fields, 4 × maxLength bytes for strings', () => {
    const ts = testSchema()
    const cust = schemaDeclType(ts, false)
    if (cust?.kind !== 'object') throw new Error('incorrect type name, wanted object')
    expect(cust.fields.size, 'incorrect number of fields').toBe(5)
    for (const f of cust.fields.values()) {
      const prop = ts.properties?.[f.name]
      expect(prop, `type field not found in schema, field: ${f.name}`).toBeDefined()
      // Go also compares the fields' default and enum values with the schema's: kelp's DeclField
      // carries neither (nothing in kelp reads them), so those two checks have no counterpart.
      if (prop?.maxLength !== undefined) {
        // When converting maxLength to maxElements, it's based on the number of bytes.
        // Worst case is that one rune is 4 bytes, so maxElements should be 4x maxLength.
        expect(f.type.maxElements, `field maxElements does not match property 4x maxLength. field: ${f.name}`).toBe(
          4 * prop.maxLength,
        )
      }
    }
    // ts has no `required`, so the Go test's required-field loop checks nothing
    for (const name of ts.required ?? []) expect(cust.fields.get(name)?.required).toBe(true)
  })
})

/**
 * FieldTypeMap(path, t) restricted to object types, as the checker sees them: the struct type names
 * SchemaTypeProvider gives object nodes (MaybeAssignTypeName: `<parent>.<field>`, `.@idx`, `.@elem`).
 */
function objectTypeNames(provider: SchemaTypeProvider, t: Type, out: Set<string>): Set<string> {
  if (t.typeKind === 'struct') {
    if (out.has(t.name)) return out
    out.add(t.name)
    for (const f of provider.fieldNames(t)) {
      const ft = provider.findFieldType(t, f)
      if (ft) objectTypeNames(provider, ft, out)
    }
  } else if (t.typeKind === 'list' || t.typeKind === 'map') {
    for (const p of t.params) objectTypeNames(provider, p, out)
  }
  return out
}

describe('model/schemas_test.go TestSchemaDeclTypes', () => {
  it('CustomObject, CustomObject.nested and CustomObject.metadata are the object types', () => {
    const ts = testSchema()
    const provider = new SchemaTypeProvider(true)
    const cust = provider.celType(schemaDeclType(ts, true) as DeclType, 'CustomObject')
    const names = objectTypeNames(provider, cust, new Set())
    expect([...names].sort()).toEqual(['CustomObject', 'CustomObject.metadata', 'CustomObject.nested'])
    // the types are those of the fields they name
    expect(provider.findFieldType(cust, 'nested')?.name).toBe('CustomObject.nested')
    expect(provider.findFieldType(cust, 'metadata')?.name).toBe('CustomObject.metadata')
    // as a resource root, metadata is replaced by WithTypeAndObjectMeta: name and generateName only
    const metadata = provider.findFieldType(cust, 'metadata') as Type
    expect(provider.fieldNames(metadata).sort()).toEqual(['generateName', 'name'])
  })
})

describe('model/types_test.go TestTypes_RuleTypesFieldMapping', () => {
  it('field types by struct type name', () => {
    const provider = new SchemaTypeProvider(true)
    const root = provider.celType(schemaDeclType(testSchema(), true) as DeclType, 'CustomObject')
    expect(provider.findStructType('CustomObject')).toBeDefined()
    const nestedFieldType = provider.findFieldType(root, 'nested')
    expect(nestedFieldType, "got field not found for 'CustomObject.nested', wanted found").toBeDefined()
    expect(nestedFieldType?.name).toBe('CustomObject.nested')
    const nested = provider.findStructType('CustomObject.nested') as Type
    const subnameFieldType = provider.findFieldType(nested, 'subname')
    expect(subnameFieldType?.name).toBe('string')
    const flagsFieldType = provider.findFieldType(nested, 'flags')
    expect(flagsFieldType?.typeKind).toBe('map')
    // Go: FindStructFieldType("CustomObject.nested.flags", "my_flag") is bool, because Go's
    // DeclTypeProvider also registers map types by path and answers any field of one with the map's
    // element type. Kelp's provider registers object types only (a map-typed selection is checked as
    // a map access and never asks the provider), so the same fact is read from the map type itself:
    expect(flagsFieldType?.params).toEqual([StringType, BoolType])
    expect(provider.findStructType('CustomObject.nested.flags')).toBeUndefined()
    // The rest of the Go test builds apiserver DynValue / MapValue instances and a cel-go type
    // adapter ("hello" → types.String), an API kelp does not have.
  })
})

describe('model/schemas_test.go TestWithTypeAndObjectMetaNameLength (Kubernetes 1.37)', () => {
  const maxLengthOf = (s: S, f: string): number | undefined => s.properties?.metadata?.properties?.[f]?.maxLength
  const defaultMax = nameMax
  const defaultGenerateNameMax = nameMax - 1 // generated suffix is at least 1 byte
  const cases: { name: string; input: S; wantName: number; wantGenerateName: number }[] = [
    {
      name: 'metadata absent, defaults applied to both fields',
      input: { type: 'object' },
      wantName: defaultMax,
      wantGenerateName: defaultGenerateNameMax,
    },
    {
      name: 'author maxLength on name preserved, generateName defaulted',
      input: {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } },
      },
      wantName: 10,
      wantGenerateName: defaultGenerateNameMax,
    },
    {
      name: 'author maxLength on generateName smaller than default is preserved',
      input: {
        type: 'object',
        properties: {
          metadata: { type: 'object', properties: { generateName: { type: 'string', maxLength: 100 } } },
        },
      },
      wantName: defaultMax,
      wantGenerateName: 100,
    },
    {
      name: 'author maxLength larger than default is capped to the default',
      input: {
        type: 'object',
        properties: {
          metadata: {
            type: 'object',
            properties: {
              name: { type: 'string', maxLength: 1000 },
              generateName: { type: 'string', maxLength: 1000 },
            },
          },
        },
      },
      wantName: defaultMax,
      wantGenerateName: defaultGenerateNameMax,
    },
  ]
  for (const tc of cases) {
    it(tc.name, () => {
      const got = withTypeAndObjectMeta(tc.input, true)
      expect(maxLengthOf(got, 'name'), 'metadata.name maxLength').toBe(tc.wantName)
      expect(maxLengthOf(got, 'generateName'), 'metadata.generateName maxLength').toBe(tc.wantGenerateName)

      // The bound must flow into CEL cost estimation: the declType's MaxElements for name and
      // generateName reflect the bounded length (4 bytes per rune), not the request size.
      const root = schemaDeclType(tc.input, true, { capMetadataNames: true })
      const meta = field(root, 'metadata')
      for (const f of [
        { field: 'name', want: tc.wantName },
        { field: 'generateName', want: tc.wantGenerateName },
      ]) {
        const t = field(meta, f.field)
        expect(t.maxElements, `metadata.${f.field} declType MaxElements`).toBe(f.want * 4)
        expect(t.maxElements < MaxRequestSizeBytes - 2).toBe(true)
      }
    })
  }
  it('Kubernetes 1.36 (no cap): unbounded names', () => {
    const root = schemaDeclType({ type: 'object' }, true)
    expect(field(field(root, 'metadata'), 'name').maxElements).toBe(MaxRequestSizeBytes - 2)
    expect(field(field(root, 'metadata'), 'generateName').maxElements).toBe(MaxRequestSizeBytes - 2)
  })
})

describe('model/schemas_test.go TestWithTypeAndObjectMetaIdempotent', () => {
  it('re-applying WithTypeAndObjectMeta keeps the bounds stable', () => {
    const once = withTypeAndObjectMeta({ type: 'object' }, true)
    const twice = withTypeAndObjectMeta(once, true)
    expect(twice, 'expected the already-bounded schema to be returned unchanged').toBe(once)
    expect(twice.properties?.metadata?.properties?.name?.maxLength).toBe(nameMax)
    expect(twice.properties?.metadata?.properties?.generateName?.maxLength).toBe(nameMax - 1)
    // and through schemaDeclType (the already-bounded schema as a resource root)
    const decl = schemaDeclType(once, true, { capMetadataNames: true })
    expect(field(field(decl, 'metadata'), 'name').maxElements).toBe(nameMax * 4)
    expect(field(field(decl, 'metadata'), 'generateName').maxElements).toBe((nameMax - 1) * 4)
  })
})

describe('model/schemas_test.go TestWithTypeAndObjectMetaDoesNotMutateInput', () => {
  it("the caller's schema gains no maxLength", () => {
    const input: S = {
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', format: 'k8s-short-name' } } },
      },
    }
    const before = JSON.stringify(input)
    const result = withTypeAndObjectMeta(input, true)
    // The author's metadata.name in the input is untouched: no maxLength was added and its format is preserved.
    expect(JSON.stringify(input)).toBe(before)
    const inName = input.properties?.metadata?.properties?.name
    expect(inName?.maxLength).toBeUndefined()
    expect(inName?.format).toBe('k8s-short-name')
    // The returned schema, used only for CEL cost/type modeling, carries the bound.
    expect(result.properties?.metadata?.properties?.name?.maxLength).toBe(nameMax)
    // schemaDeclType, which applies it, leaves the input alone too
    field(field(schemaDeclType(input, true, { capMetadataNames: true }), 'metadata'), 'name')
    expect(JSON.stringify(input)).toBe(before)
  })
})

describe('model/schemas_test.go TestEstimateMaxLengthJSON', () => {
  const arraySchema = (arrayType: string, format: string, maxItems?: number): S => ({
    type: 'array',
    items: format ? { type: arrayType, format } : { type: arrayType },
    ...(maxItems === undefined ? {} : { maxItems }),
  })
  const tests: { name: string; input: S; expectedMaxElements: number; expectNilType?: boolean }[] = [
    // expected JSON is [true,true,...], so our length should be (maxRequestSizeBytes - 2) / 5
    { name: 'booleanArray', input: arraySchema('boolean', ''), expectedMaxElements: 629145 },
    // expected JSON is ["0","0",...] so our length should be (maxRequestSizeBytes - 2) / 4
    { name: 'durationArray', input: arraySchema('string', 'duration'), expectedMaxElements: 786431 },
    // expected JSON is ["2000-01-01T01:01:01","2000-01-01T01:01:01",...] so our length should be (maxRequestSizeBytes - 2) / 22
    { name: 'datetimeArray', input: arraySchema('string', 'date-time'), expectedMaxElements: 142987 },
    // expected JSON is ["2000-01-01","2000-01-02",...] so our length should be (maxRequestSizeBytes - 2) / 13
    { name: 'dateArray', input: arraySchema('string', 'date'), expectedMaxElements: 241978 },
    // expected JSON is [0,0,...] so our length should be (maxRequestSizeBytes - 2) / 2
    { name: 'numberArray', input: arraySchema('integer', ''), expectedMaxElements: 1572863 },
    // expected JSON is ["","",...] so our length should be (maxRequestSizeBytes - 2) / 3
    { name: 'stringArray', input: arraySchema('string', ''), expectedMaxElements: 1048575 },
    // expected JSON is {"":"","":"",...} so our length should be (3000000 - 2) / 6
    {
      name: 'stringMap',
      input: { type: 'object', additionalProperties: { type: 'string' } },
      expectedMaxElements: 393215,
    },
    {
      name: 'objectOptionalPropertyArray',
      input: {
        type: 'array',
        items: {
          type: 'object',
          properties: { required: { type: 'string' }, optional: { type: 'string' } },
          required: ['required'],
        },
      },
      // expected JSON is [{"required":"",},{"required":"",},...] so our length should be (maxRequestSizeBytes - 2) / 17
      expectedMaxElements: 185042,
    },
    // manually set by MaxItems
    { name: 'arrayWithLength', input: arraySchema('integer', 'int64', 10), expectedMaxElements: 10 },
    // manually set by MaxLength, but we expect a 4x multiplier compared to the original input
    // since OpenAPIv3 maxLength uses code points, but DeclType works with bytes
    { name: 'stringWithLength', input: { type: 'string', maxLength: 20 }, expectedMaxElements: 80 },
    {
      name: 'mapWithLength',
      input: { type: 'object', additionalProperties: { type: 'string' }, format: 'string', maxProperties: 15 },
      // manually set by MaxProperties
      expectedMaxElements: 15,
    },
    // should be exactly equal to maxDurationSizeJSON
    { name: 'durationMaxSize', input: { type: 'string', format: 'duration' }, expectedMaxElements: 32 },
    // should be exactly equal to dateSizeJSON
    { name: 'dateSize', input: { type: 'string', format: 'date' }, expectedMaxElements: 12 },
    // should be exactly equal to maxDatetimeSizeJSON
    { name: 'maxdatetimeSize', input: { type: 'string', format: 'date-time' }, expectedMaxElements: 32 },
    // should be exactly equal to maxRequestSizeBytes - 2 (to allow for quotes in the case of a string)
    { name: 'maxintOrStringSize', input: { 'x-kubernetes-int-or-string': true }, expectedMaxElements: 3145728 - 2 },
    {
      name: 'objectDefaultFieldArray',
      input: {
        type: 'array',
        items: {
          type: 'object',
          properties: { field: { type: 'string', default: 'default' } },
          required: ['field'],
        },
      },
      // expected JSON is [{},{},...] so our length should be (maxRequestSizeBytes - 2) / 3
      expectedMaxElements: 1048575,
    },
    // expected JSON is "" so our length should be (maxRequestSizeBytes - 2)
    { name: 'byteStringSize', input: { type: 'string', format: 'byte' }, expectedMaxElements: 3145726 },
    {
      name: 'byteStringSetMaxLength',
      input: { type: 'string', format: 'byte', maxLength: 20 },
      // note that unlike regular strings we don't have to take unicode into account,
      // so we expect the max length to be exactly equal to the user-supplied one
      expectedMaxElements: 20,
    },
    {
      name: 'Property under array',
      input: { type: 'array', properties: { field: { type: 'string', default: 'default' } } },
      // Got nil for delType
      expectedMaxElements: 0,
      expectNilType: true,
    },
    {
      name: 'Items under object',
      input: {
        type: 'object',
        items: {
          type: 'array',
          properties: { field: { type: 'string', default: 'default' } },
          required: ['field'],
        },
      },
      // Skip items under object for schema conversion.
      expectedMaxElements: 0,
    },
  ]
  for (const tc of tests) {
    it(tc.name, () => {
      const decl = schemaDeclType(tc.input, false)
      if (decl !== undefined) expect(decl.maxElements, 'wrong maxElements').toBe(tc.expectedMaxElements)
      if (tc.expectNilType) expect(decl, 'expected nil type').toBeUndefined()
    })
  }
})

describe('model/schemas_test.go min serialized sizes (the figures TestEstimateMaxLengthJSON divides by)', () => {
  // Each expected maxElements above is (MaxRequestSizeBytes - 2) / (element MinSerializedSize + 1)
  // for lists and / (+ 6) for maps; the element sizes the Go comments spell out:
  const elementSize = (s: S): number => {
    const d = schemaDeclType(s, false)
    if (d?.kind !== 'list' && d?.kind !== 'map') throw new Error('not a container')
    return d.elem.minSerializedSize
  }
  it.each([
    ['boolean', arraySchemaOf({ type: 'boolean' }), 4],
    ['duration', arraySchemaOf({ type: 'string', format: 'duration' }), 3],
    ['date-time', arraySchemaOf({ type: 'string', format: 'date-time' }), 21],
    ['date', arraySchemaOf({ type: 'string', format: 'date' }), 12],
    ['integer', arraySchemaOf({ type: 'integer' }), 1],
    ['string', arraySchemaOf({ type: 'string' }), 2],
    [
      'object with one required string',
      arraySchemaOf({
        type: 'object',
        properties: { required: { type: 'string' }, optional: { type: 'string' } },
        required: ['required'],
      }),
      16,
    ],
    [
      'object whose required field has a default',
      arraySchemaOf({ type: 'object', properties: { field: { type: 'string', default: 'd' } }, required: ['field'] }),
      2,
    ],
  ] as const)('%s', (_name, s, size) => expect(elementSize(s)).toBe(size))
})

function arraySchemaOf(items: S): S {
  return { type: 'array', items }
}
