import { describe, expect, it } from 'vitest'
import { type CompilationResult, compileRules } from '../../src/crd/compilation.js'
import { Validator } from '../../src/crd/validator.js'
import { RuntimeCELCostBudget } from '../../src/kube/environment.js'
import { errorString, FieldPath } from '../../src/kube/field.js'
import { schemaDeclType } from '../../src/kube/schema/decltype.js'
import type { JSONSchemaProps } from '../../src/kube/schema/structural.js'

// Transcription of apiextensions-apiserver pkg/apiserver/schema/cel/celcoststability_test.go:
//
// - TestCelCostStability: each rule set as the only x-kubernetes-validations rule of the schema root,
//   NewValidator(&s, isResourceRoot=true, PerCallLimit).Validate(root, obj, nil, RuntimeCELCostBudget)
//   must report no error, and RuntimeCELCostBudget − remaining budget is the exact runtime cost.
//   Here: Validator.create(s, true) (StoredExpressions environment) and validate(...).
// - TestCelEstimatedCostStability: schemaChecker of compilation_test.go, i.e. Compile(&s,
//   SchemaDeclType(&s, false), PerCallLimit, MustBaseEnvSet(DefaultCompatibilityVersion()),
//   NewExpressionsEnvLoader()) with no compile error and MaxCost equal to the figure. Here:
//   compileRules(s, schemaDeclType(s, false), { expressions: 'new' }).
//
// The Kubernetes version is kelp's default (1.36); none of these figures depends on what master
// (1.37) adds (no rule reads a resource root's metadata.name against an unbounded value).

type S = JSONSchemaProps
type Case = readonly [expr: string, cost: number | bigint]

// ----- helpers of validation_test.go -----

const primitiveType = (type: string, format = ''): S => (format ? { type, format } : { type })
const integerType = primitiveType('integer')
const int32Type = primitiveType('integer', 'int32')
const int64Type = primitiveType('integer', 'int64')
const numberType = primitiveType('number')
const floatType = primitiveType('number', 'float')
const doubleType = primitiveType('number', 'double')
const stringType = primitiveType('string')
const byteType = primitiveType('string', 'byte')
const booleanType = primitiveType('boolean')
const durationFormat = primitiveType('string', 'duration')
const dateFormat = primitiveType('string', 'date')
const dateTimeFormat = primitiveType('string', 'date-time')

const arrayType = (listType: string, keys: string[] | undefined, items: S): S => ({
  type: 'array',
  'x-kubernetes-list-type': listType,
  ...(keys?.length && listType === 'map' ? { 'x-kubernetes-list-map-keys': keys } : {}),
  items,
})
const listType = (items: S): S => arrayType('atomic', undefined, items)
const listSetType = (items: S): S => arrayType('set', undefined, items)
const listMapType = (keys: string[], items: S): S => arrayType('map', keys, items)
const objectType = (props: Record<string, S>): S => ({ type: 'object', properties: props })
const mapType = (valSchema: S): S => ({ type: 'object', additionalProperties: valSchema })
const intOrStringType = (): S => ({ 'x-kubernetes-int-or-string': true })
const withRule = (s: S, rule: string): S => ({ ...s, 'x-kubernetes-validations': [{ rule }] })
const withMaxItems = (s: S, maxItems: number): S => ({ ...s, maxItems })
const withMaxProperties = (s: S, maxProperties: number): S => ({ ...s, maxProperties })
const withDefault = (dflt: unknown, s: S): S => ({ ...s, default: dflt })
const withNullable = (nullable: boolean, s: S): S => ({ ...s, nullable })
const preserveUnknown = (s: S = {}): S => ({ ...s, 'x-kubernetes-preserve-unknown-fields': true })

/** schemas(...): an object with properties val1, val2, ... */
const schemas = (...vals: S[]): S => objectType(Object.fromEntries(vals.map((v, i) => [`val${i + 1}`, v])))
/** objs(...): an object with fields val1, val2, ... */
const objs = (...vals: unknown[]): Record<string, unknown> => Object.fromEntries(vals.map((v, i) => [`val${i + 1}`, v]))

const ValsEqualThemselvesAndDataLiteral = (val1: string, val2: string, dataLiteral: string): string =>
  `${val1} == ${dataLiteral} && ${dataLiteral} == ${val1} && ${val1} == ${val2}`

const buildLargeArray = (size: number): number[] => Array.from({ length: size }, (_, i) => i)

// Go values that are not plain JS numbers
const MaxInt64 = 9223372036854775807n
const MaxInt32 = 2147483647
const MaxFloat64 = Number.MAX_VALUE
const MaxFloat32 = 3.4028234663852886e38
/** fmt.Sprintf("%d", int64(math.MaxInt64)) */
const maxInt64Literal = '9223372036854775807'
/** fmt.Sprintf("%f", math.MaxFloat64): the exact decimal expansion, six fraction digits. */
const maxFloat64Literal = `${BigInt(MaxFloat64).toString()}.000000`

function runtimeCost(schema: S, obj: unknown, rule: string): number {
  const s = withRule(schema, rule)
  const celValidator = Validator.create(s, true)
  if (celValidator === undefined) throw new Error('expected non nil validator')
  const { errors, remainingBudget } = celValidator.validate(FieldPath.of('root'), obj, undefined, RuntimeCELCostBudget)
  expect(errors.map(errorString), 'unexpected error').toEqual([])
  return RuntimeCELCostBudget - remainingBudget
}

function estimatedCost(schema: S, rule: string): bigint {
  const s = withRule(schema, rule)
  const results = compileRules(s, schemaDeclType(s, false), { expressions: 'new' })
  if (!Array.isArray(results)) throw new Error(`Expected no error, got: ${results.detail}`)
  expect(results.length, 'Expected one rule').toBe(1)
  const result = results[0] as CompilationResult
  expect(result.error, 'Expected no compile-time error').toBeUndefined()
  return result.maxCost
}

// ---------------------------------------------------------------------------------------------
// Schemas shared by both tests
// ---------------------------------------------------------------------------------------------

const enumsSchema = objectType({
  enumStr: { type: 'string', enum: ['Pending', 'Available', 'Bound', 'Released', 'Failed'] },
})
const listMapsSchema = objectType({
  objs: listType(listMapType(['k'], objectType({ k: stringType, v: stringType }))),
})
const objectsSchema = objectType({ objs: listType(objectType({ f1: stringType, f2: stringType })) })
const objectAccessSchema = objectType({
  a: objectType({ b: integerType, c: integerType, d: withNullable(true, integerType) }),
  a1: objectType({ b1: objectType({ c1: integerType }), d2: objectType({ e2: integerType }) }),
})
const mapAccessSchema = objectType({ val: mapType(integerType) })
const listMapAccessSchema = objectType({
  listMap: listMapType(['k'], objectType({ k: stringType, v: stringType, v2: stringType })),
})
const listAccessSchema = objectType({ array: listType(integerType) })
const listSetAccessSchema = objectType({ set: listType(integerType) })
const typeMetaSpecifiedSchema = objectType({
  kind: stringType,
  apiVersion: stringType,
  metadata: objectType({ name: stringType, generateName: stringType }),
})
const typeMetaNotSpecifiedSchema = objectType({ spec: objectType({ field1: stringType }) })
const embeddedSchema = objectType({ embedded: { type: 'object', 'x-kubernetes-embedded-resource': true } })
const embeddedWithPropertiesSchema = objectType({
  embedded: {
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    properties: {
      kind: stringType,
      apiVersion: stringType,
      metadata: objectType({ name: stringType, generateName: stringType }),
      spec: objectType({ field1: stringType }),
    },
  },
})
const embeddedPreserveUnknownSchema = objectType({
  embedded: {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-embedded-resource': true,
  },
})
const intOrStringSchema = objectType({ something: intOrStringType() })
const nullIntOrStringSchema = objectType({ something: withNullable(true, intOrStringType()) })
const percentSchema = objectType({ min: intOrStringType(), current: integerType, available: integerType })
const preserveUnknownSchema = objectType({
  withUnknown: preserveUnknown({ type: 'object' }),
  withUnknownList: listType(preserveUnknown({ type: 'object' })),
  withUnknownFieldList: listType({ type: 'object', properties: { fieldOfUnknownType: preserveUnknown() } }),
  anyvalList: listType(preserveUnknown()),
  anyvalMap: mapType(preserveUnknown()),
  anyvalField1: preserveUnknown(),
  anyvalField2: preserveUnknown(),
})
const knownAndUnknownSchema: S = {
  type: 'object',
  properties: {
    withUnknown: preserveUnknown({ type: 'object', properties: { known: integerType } }),
    withUnknownList: listType(preserveUnknown({ type: 'object', properties: { known: integerType } })),
  },
}
const fieldNullabilitySchema = objectType({
  unsetPlainStr: stringType,
  unsetDefaultedStr: withDefault('default value', stringType),
  unsetNullableStr: withNullable(true, stringType),
  setPlainStr: stringType,
  setDefaultedStr: withDefault('default value', stringType),
  setNullableStr: withNullable(true, stringType),
  setToNullNullableStr: withNullable(true, stringType),
})
const nullInContainersSchema = objectType({
  m: mapType(withNullable(true, stringType)),
  l: listType(withNullable(true, stringType)),
  s: listSetType(withNullable(true, stringType)),
})
const objectTypesSchema = objectType({
  nestedInMap: mapType(objectType({ inMapField: integerType })),
  nestedInList: listType(objectType({ inListField: integerType })),
})
const unsupportedIdentitySchema = objectType({
  objs: listType(listMapType(['k!', 'k.'], objectType({ 'k!': stringType, 'k.': stringType }))),
})
const optionalsSchema = objectType({
  obj: objectType({ field: stringType, absentField: stringType }),
  m: mapType(stringType),
  l: listType(stringType),
})

// ---------------------------------------------------------------------------------------------
// TestCelCostStability
// ---------------------------------------------------------------------------------------------

interface RuntimeCase {
  name: string
  schema: S
  obj: Record<string, unknown>
  expectCost: Case[]
}

const runtimeCases: RuntimeCase[] = [
  {
    name: 'integers',
    // 1st obj and schema args are for "self.val1" field, 2nd for "self.val2" and so on.
    obj: objs(MaxInt64, MaxInt64, MaxInt32, MaxInt32, MaxInt64, MaxInt64),
    schema: schemas(integerType, integerType, int32Type, int32Type, int64Type, int64Type),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', maxInt64Literal), 11],
      ['self.val1 == self.val6', 5], // integer with no format is the same as int64
      ['type(self.val1) == int', 4],
      [`self.val3 + 1 == ${MaxInt32} + 1`, 5], // CEL integers are 64 bit
    ],
  },
  {
    name: 'numbers',
    obj: objs(MaxFloat64, MaxFloat64, MaxFloat32, MaxFloat32, MaxFloat64, MaxFloat64, 1),
    schema: schemas(numberType, numberType, floatType, floatType, doubleType, doubleType, doubleType),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', maxFloat64Literal), 11],
      ['self.val1 == self.val6', 5], // number with no format is the same as float64
      ['type(self.val1) == double', 4],
      // Use a int64 value with a number openAPI schema type since float representations of whole numbers
      // (e.g. 1.0, 0.0) can convert to int representations (e.g. 1, 0) in yaml to json translation, and
      // then get parsed as int64s.
      ['type(self.val7) == double', 4],
      ['self.val7 == 1.0', 3],
    ],
  },
  {
    name: 'numeric comparisons',
    obj: objs(5, 10.0, 10.0, 10.0, 10, 10, 10),
    schema: schemas(integerType, numberType, floatType, doubleType, numberType, floatType, doubleType),
    expectCost: [
      // xref: https://github.com/google/cel-spec/wiki/proposal-210
      // compare integers with all float types
      ['double(self.val1) < self.val4', 6],
      ['self.val1 < int(self.val4)', 6],
      ['double(self.val1) < self.val5', 6],
      ['self.val1 < int(self.val5)', 6],
      ['double(self.val1) < self.val6', 6],
      ['self.val1 < int(self.val6)', 6],
      // compare literal integers and floats
      ['double(5) < 10.0', 1],
      ['5 < int(10.0)', 1],
      // compare integers with literal floats
      ['double(self.val1) < 10.0', 4],
    ],
  },
  {
    name: 'unicode strings',
    obj: objs('Rook takes 👑', 'Rook takes 👑'),
    schema: schemas(stringType, stringType),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "'Rook takes 👑'"), 14],
      ["self.val1.startsWith('Rook')", 3],
      ["!self.val1.startsWith('knight')", 4],
      ["self.val1.matches('^[^0-9]*$')", 8],
      ["!self.val1.matches('^[0-9]*$')", 7],
      ['type(self.val1) == string', 4],
      ['size(self.val1) == 12', 4],
      // string functions (https://github.com/google/cel-go/blob/v0.9.0/ext/strings.go)
      ["self.val1.charAt(3) == 'k'", 4],
      ["self.val1.indexOf('o') == 1", 4],
      ["self.val1.indexOf('o', 2) == 2", 4],
      ["self.val1.replace(' ', 'x') == 'Rookxtakesx👑'", 7],
      ["self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'", 7],
      ["self.val1.split(' ') == ['Rook', 'takes', '👑']", 6],
      ["self.val1.split(' ', 2) == ['Rook', 'takes 👑']", 6],
      ["self.val1.substring(5) == 'takes 👑'", 5],
      ["self.val1.substring(0, 4) == 'Rook'", 5],
      ["self.val1.substring(4, 10).trim() == 'takes'", 6],
      ["self.val1.upperAscii() == 'ROOK TAKES 👑'", 6],
      ["self.val1.lowerAscii() == 'rook takes 👑'", 6],
      ['self.val1.lowerAscii() == self.val1.lowerAscii()', 10],
      // strings version 2
      [
        "'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 1.000000 60s 2000-01-01T00:00:00Z'",
        6,
      ],
      ["'%e'.format([3.14]) == '3.140000×10⁰⁰'", 3],
      ["'%o %o %o'.format([7, 8, 9]) == '7 10 11'", 2],
      ["'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'", 3],
    ],
  },
  {
    name: 'escaped strings',
    obj: objs('l1\nl2', 'l1\nl2'),
    schema: schemas(stringType, stringType),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "'l1\\nl2'"), 11],
      ["self.val1 == '''l1\nl2'''", 3],
    ],
  },
  {
    name: 'bytes',
    obj: objs('QUI=', 'QUI='),
    schema: schemas(byteType, byteType),
    expectCost: [
      ['self.val1 == self.val2', 5],
      ["self.val1 == b'AB'", 3],
      ['type(self.val1) == bytes', 4],
      ['size(self.val1) == 2', 4],
    ],
  },
  {
    name: 'booleans',
    obj: objs(true, true, false, false),
    schema: schemas(booleanType, booleanType, booleanType, booleanType),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', 'true'), 11],
      ['self.val1 != self.val4', 5],
      ['type(self.val1) == bool', 4],
    ],
  },
  {
    name: 'duration format',
    obj: objs('1h2m3s4ms', '1h2m3s4ms'),
    schema: schemas(durationFormat, durationFormat),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "duration('1h2m3s4ms')"), 11],
      ["self.val1 == duration('1h2m') + duration('3s4ms')", 4],
      ['self.val1.getHours() == 1', 4],
      ['type(self.val1) == google.protobuf.Duration', 4],
    ],
  },
  {
    name: 'date format',
    obj: objs('1997-07-16', '1997-07-16'),
    schema: schemas(dateFormat, dateFormat),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "timestamp('1997-07-16T00:00:00.000Z')"), 11],
      ['self.val1.getDate() == 16', 4],
      ['type(self.val1) == google.protobuf.Timestamp', 4],
    ],
  },
  {
    name: 'date-time format',
    obj: objs('2011-08-18T19:03:37.010000000+01:00', '2011-08-18T19:03:37.010000000+01:00'),
    schema: schemas(dateTimeFormat, dateTimeFormat),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "timestamp('2011-08-18T19:03:37.010+01:00')"), 11],
      ["self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')", 4],
      ["self.val1.getDate('01:00') == 18", 4],
      ['type(self.val1) == google.protobuf.Timestamp', 4],
    ],
  },
  {
    name: 'enums',
    obj: { enumStr: 'Pending' },
    schema: enumsSchema,
    expectCost: [
      ["self.enumStr == 'Pending'", 3],
      ["self.enumStr in ['Pending', 'Available']", 2],
    ],
  },
  {
    name: 'conversions',
    obj: objs(
      10,
      10.0,
      10.49,
      10.5,
      true,
      '10',
      'MTA=',
      '3723.004s',
      '1h2m3s4ms',
      '2011-08-18T19:03:37.01+01:00',
      '2011-08-18T19:03:37.01+01:00',
      '2011-08-18T00:00:00Z',
      '2011-08-18',
    ),
    schema: schemas(
      integerType,
      numberType,
      numberType,
      numberType,
      booleanType,
      stringType,
      byteType,
      stringType,
      durationFormat,
      stringType,
      dateTimeFormat,
      stringType,
      dateFormat,
    ),
    expectCost: [
      ['int(self.val2) == self.val1', 6],
      ['double(self.val1) == self.val2', 6],
      ['bytes(self.val6) == self.val7', 6],
      ['string(self.val1) == self.val6', 6],
      ["string(self.val4) == '10.5'", 4],
      ['string(self.val7) == self.val6', 6],
      ['duration(self.val8) == self.val9', 6],
      ['timestamp(self.val10) == self.val11', 6],
      ['string(self.val11) == self.val10', 8],
      ['timestamp(self.val12) == self.val13', 6],
      ['string(self.val13) == self.val12', 7],
    ],
  },
  {
    name: 'lists',
    obj: objs([1, 2, 3], [1, 2, 3]),
    schema: schemas(listType(integerType), listType(integerType)),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', '[1, 2, 3]'), 11],
      ['1 in self.val1', 5],
      ['self.val2[0] in self.val1', 8],
      ['!(0 in self.val1)', 6],
      ['self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]', 6],
      ['self.val1 + [4, 5] == [1, 2, 3, 4, 5]', 4],
      ['has(self.val1)', 1],
      ['has(self.val1) && has(self.val2)', 2],
    ],
  },
  {
    name: 'listSets',
    obj: objs(['a', 'b', 'c'], ['a', 'c', 'b'], buildLargeArray(1000)),
    schema: schemas(listSetType(stringType), listSetType(stringType), listSetType(integerType)),
    expectCost: [
      // equal even though order is different
      ["self.val1 == ['c', 'b', 'a']", 3],
      ['self.val1 == self.val2', 5],
      ["'a' in self.val1", 5],
      ['self.val2[0] in self.val1', 8],
      ["!('x' in self.val1)", 6],
      ["self.val1 + self.val2 == ['a', 'b', 'c']", 6],
      ["self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']", 4],
      ["sets.contains(self.val1, ['a'])", 6],
      ["sets.equivalent(self.val1, ['a', 'b', 'c'])", 21],
      ["sets.intersects(self.val1, ['a'])", 6],
      ['sets.contains(self.val3, [1])', 1003],
      ['!sets.equivalent(self.val3, [1, 2, 3])', 6004],
      ['sets.intersects(self.val3, [1])', 1003],
    ],
  },
  {
    name: 'listMaps',
    obj: {
      objs: [
        [
          { k: 'a', v: '1' },
          { k: 'b', v: '2' },
        ],
        [
          { k: 'b', v: '2' },
          { k: 'a', v: '1' },
        ],
        [
          { k: 'b', v: '3' },
          { k: 'a', v: '1' },
        ],
        [{ k: 'c', v: '4' }],
      ],
    },
    schema: listMapsSchema,
    expectCost: [
      ['self.objs[0] == self.objs[1]', 7], // equal even though order is different
      ['self.objs[0] + self.objs[2] == self.objs[2]', 11], // rhs overwrites lhs values
      ['self.objs[2] + self.objs[0] == self.objs[0]', 11],
      ['self.objs[0] == [self.objs[0][0], self.objs[0][1]]', 22], // equal against a declared list
      ['self.objs[0] == [self.objs[0][1], self.objs[0][0]]', 22],
      ['self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]', 26], // concat against a declared list
      ['size(self.objs[0] + [self.objs[3][0]]) == 3', 20],
    ],
  },
  {
    name: 'maps',
    obj: objs({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    schema: schemas(mapType(stringType), mapType(stringType)),
    expectCost: [
      ['self.val1 == self.val2', 5], // equal even though order is different
      ["'k1' in self.val1", 3],
      ["!('k3' in self.val1)", 4],
      ["self.val1 == {'k1': 'a', 'k2': 'b'}", 3],
    ],
  },
  {
    name: 'objects',
    obj: {
      objs: [
        { f1: 'a', f2: 'b' },
        { f1: 'a', f2: 'b' },
      ],
    },
    schema: objectsSchema,
    expectCost: [['self.objs[0] == self.objs[1]', 7]],
  },
  {
    name: 'object access',
    obj: { a: { b: 1, d: null }, a1: { b1: { c1: 4 } }, a3: {} },
    schema: objectAccessSchema,
    // https://github.com/google/cel-spec/blob/master/doc/langdef.md#field-selection
    expectCost: [
      ['has(self.a.b)', 2],
      ['has(self.a1.b1.c1)', 3],
      ['!(has(self.a1.d2) && has(self.a1.d2.e2))', 3], // must check intermediate optional fields (see below no such key error for d2)
      ['!has(self.a1.d2)', 3],
    ],
  },
  {
    name: 'map access',
    obj: { val: { b: 1, d: 2 } },
    schema: mapAccessSchema,
    expectCost: [
      // idiomatic map access
      ["!('a' in self.val)", 4],
      ["'b' in self.val", 3],
      ["!('c' in self.val)", 4],
      ["'d' in self.val", 3],
      // field selection also possible if map key is a valid CEL identifier
      ['!has(self.val.a)', 3],
      ['has(self.val.b)', 2],
      ['!has(self.val.c)', 3],
      ['has(self.val.d)', 2],
      ['self.val.all(k, self.val[k] > 0)', 17],
      // It is important that the condition does not match in this exists test
      // since the map iteration order is non-deterministic, and exists short circuits when it matches.
      ['!self.val.exists(k, self.val[k] == 3)', 20],
      ['self.val.exists_one(k, self.val[k] == 2)', 14],
      ['!self.val.exists_one(k, self.val[k] > 0)', 17],
      ['size(self.val) == 2', 4],
      ['size(self.val.filter(k, self.val[k] > 1)) == 1', 26],
      // two variable comprehensions
      ['self.val.all(k, v, v > 0)', 13],
      // It is important that the condition does not match in this exists test
      // since the map iteration order is non-deterministic, and exists short circuits when it matches.
      ['!self.val.exists(k, v, v == 3)', 16],
      ['self.val.existsOne(k, v, v == 2)', 10],
      ['self.val.transformMap(k, v, v > 1, v + 1).size() == 1', 14],
      ['self.val.transformMap(k, v, v + 1).size() == 2', 15],
      ["self.val.transformMapEntry(k, v, v > 1, {k + '2': v + 1}).size() == 1", 45],
      ["self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2", 77],
    ],
  },
  {
    name: 'listMap access',
    obj: {
      listMap: [
        { k: 'a1', v: 'b1' },
        { k: 'a2', v: 'b2' },
        { k: 'a3', v: 'b3', v2: 'z' },
      ],
    },
    schema: listMapAccessSchema,
    expectCost: [
      ['has(self.listMap[0].v)', 3],
      ["self.listMap.all(m, m.k.startsWith('a'))", 21],
      ["self.listMap.all(m, !has(m.v2) || m.v2 == 'z')", 21],
      ["self.listMap.exists(m, m.k.endsWith('1'))", 13],
      ["self.listMap.exists_one(m, m.k == 'a3')", 15],
      ["!self.listMap.all(m, m.k.endsWith('1'))", 18],
      ["!self.listMap.exists(m, m.v == 'x')", 25],
      ["!self.listMap.exists_one(m, m.k.startsWith('a'))", 20],
      ["size(self.listMap.filter(m, m.k == 'a1')) == 1", 27],
      ["self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')", 16],
      ["self.listMap.map(m, m.v).exists(v, v == 'b1')", 55],
      // test comprehensions where the field used in predicates is unset on all but one of the elements:
      // - with has checks:
      ["self.listMap.exists(m, has(m.v2) && m.v2 == 'z')", 21],
      ["!self.listMap.all(m, has(m.v2) && m.v2 != 'z')", 10],
      ["self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')", 12],
      ["self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1", 24],
      // undocumented overload of map that takes a filter argument. This is the same as .filter().map()
      ["self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1", 25],
      ["self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1", 39],
      // - without has checks:
      // all() and exists() macros ignore errors from predicates so long as the condition holds for at least one element
      ["self.listMap.exists(m, m.v2 == 'z')", 24],
      ["!self.listMap.all(m, m.v2 != 'z')", 22],
      // two variable comprehensions
      ["!self.listMap.all(i, m, has(m.v2) && m.v2 != 'z')", 10],
      ["self.listMap.exists(i, m, has(m.v2) && m.v2 == 'z')", 21],
      ["self.listMap.existsOne(i, m, has(m.v2) && m.v2 == 'z')", 12],
      ["self.listMap.transformList(i, m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1", 25],
      ['self.listMap.transformList(i, m, m.v).size() == 3', 47],
    ],
  },
  {
    name: 'list access',
    obj: { array: [1, 1, 2, 2, 3, 3, 4, 5] },
    schema: listAccessSchema,
    expectCost: [
      ['2 in self.array', 10],
      ['self.array.all(e, e > 0)', 43],
      ['self.array.exists(e, e > 2)', 36],
      ['self.array.exists_one(e, e > 4)', 22],
      ['!self.array.all(e, e < 2)', 21],
      ['!self.array.exists(e, e < 0)', 52],
      ['!self.array.exists_one(e, e == 2)', 25],
      ['self.array.all(e, e < 100)', 43],
      ['size(self.array.filter(e, e%2 == 0)) == 3', 68],
      ['self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)', 194],
      ['size(self.array) == 8', 4],
      // two variable comprehensions
      ['self.array.all(i, e, e > 0)', 43],
      ['self.array.exists(i, e, e > 2)', 36],
      ['self.array.existsOne(i, e, e > 4)', 22],
      ['self.array.transformList(i, e, e > 2, e * 2).size() > 0', 77],
      ['self.array.transformList(i, e, e * 2).size() > 0', 117],
    ],
  },
  {
    name: 'listSet access',
    obj: { set: [1, 2, 3, 4, 5] },
    schema: listSetAccessSchema,
    expectCost: [
      ['3 in self.set', 7],
      ['self.set.all(e, e > 0)', 28],
      ['self.set.exists(e, e > 3)', 30],
      ['self.set.exists_one(e, e == 3)', 16],
      ['!self.set.all(e, e < 3)', 21],
      ['!self.set.exists(e, e < 0)', 34],
      ['!self.set.exists_one(e, e > 3)', 19],
      ['self.set.all(e, e < 10)', 28],
      ['size(self.set.filter(e, e%2 == 0)) == 2', 46],
      ['self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)', 133],
      ['size(self.set) == 5', 4],
    ],
  },
  {
    name: 'typemeta and objectmeta access specified',
    obj: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
    },
    schema: typeMetaSpecifiedSchema,
    expectCost: [
      ["self.kind == 'Pod'", 3],
      ["self.apiVersion == 'v1'", 3],
      ["self.metadata.name == 'foo'", 4],
      ["self.metadata.generateName == 'pickItForMe'", 5],
    ],
  },
  {
    name: 'typemeta and objectmeta access not specified',
    obj: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
      spec: { field1: 'a' },
    },
    schema: typeMetaNotSpecifiedSchema,
    expectCost: [
      ["self.kind == 'Pod'", 3],
      ["self.apiVersion == 'v1'", 3],
      ["self.metadata.name == 'foo'", 4],
      ["self.metadata.generateName == 'pickItForMe'", 5],
      ["self.spec.field1 == 'a'", 4],
    ],
  },
  // Kubernetes special types
  {
    name: 'embedded object',
    obj: {
      embedded: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
        spec: { field1: 'a' },
      },
    },
    schema: embeddedSchema,
    expectCost: [
      // 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are always accessible
      // even if not specified in the schema.
      ["self.embedded.kind == 'Pod'", 4],
      ["self.embedded.apiVersion == 'v1'", 4],
      ["self.embedded.metadata.name == 'foo'", 5],
      ["self.embedded.metadata.generateName == 'pickItForMe'", 6],
    ],
  },
  {
    name: 'embedded object with properties',
    obj: {
      embedded: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
        spec: { field1: 'a' },
      },
    },
    schema: embeddedWithPropertiesSchema,
    expectCost: [
      // in this case 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are specified in the
      // schema, but they would be accessible even if they were not
      ["self.embedded.kind == 'Pod'", 4],
      ["self.embedded.apiVersion == 'v1'", 4],
      ["self.embedded.metadata.name == 'foo'", 5],
      ["self.embedded.metadata.generateName == 'pickItForMe'", 6],
      // the specified embedded fields are accessible
      ["self.embedded.spec.field1 == 'a'", 5],
    ],
  },
  {
    name: 'embedded object with preserve unknown',
    obj: {
      embedded: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
        spec: { field1: 'a' },
      },
    },
    schema: embeddedPreserveUnknownSchema,
    expectCost: [
      // 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are always accessible
      // even if not specified in the schema, regardless of if x-kubernetes-preserve-unknown-fields is set.
      ["self.embedded.kind == 'Pod'", 4],
      ["self.embedded.apiVersion == 'v1'", 4],
      ["self.embedded.metadata.name == 'foo'", 5],
      ["self.embedded.metadata.generateName == 'pickItForMe'", 6],
      // the object exists
      ['has(self.embedded)', 1],
    ],
  },
  {
    name: 'string in intOrString',
    obj: { something: '25%' },
    schema: intOrStringSchema,
    expectCost: [
      // typical int-or-string usage would be to check both types
      ["type(self.something) == int ? self.something == 1 : self.something == '25%'", 7],
      // to require the value be a particular type, guard it with a runtime type check
      ["type(self.something) == string && self.something == '25%'", 7],
      // In Kubernetes 1.24 and later, the CEL type returns false for an int-or-string comparison against the
      // other type, making it safe to write validation rules like:
      ["self.something == '25%'", 3],
      ['self.something != 1', 3],
      ["self.something == 1 || self.something == '25%'", 6],
      ["self.something == '25%' || self.something == 1", 3],
      // Because the type is dynamic it receives no type checking, and evaluates to false when compared to
      // other types at runtime.
      ["self.something != ['anything']", 3],
    ],
  },
  {
    name: 'int in intOrString',
    obj: { something: 1 },
    schema: intOrStringSchema,
    expectCost: [
      // typical int-or-string usage would be to check both types
      ["type(self.something) == int ? self.something == 1 : self.something == '25%'", 7],
      // to require the value be a particular type, guard it with a runtime type check
      ['type(self.something) == int && self.something == 1', 7],
      // In Kubernetes 1.24 and later, the CEL type returns false for an int-or-string comparison against the
      // other type, making it safe to write validation rules like:
      ['self.something == 1', 3],
      ["self.something != 'some string'", 3],
      ["self.something == 1 || self.something == '25%'", 3],
      ["self.something == '25%' || self.something == 1", 6],
      // Because the type is dynamic it receives no type checking, and evaluates to false when compared to
      // other types at runtime.
      ["self.something != ['anything']", 3],
    ],
  },
  {
    name: 'null in intOrString',
    obj: { something: null },
    schema: nullIntOrStringSchema,
    expectCost: [['!has(self.something)', 2]],
  },
  {
    name: 'percent comparison using intOrString',
    obj: { min: '50%', current: 5, available: 10 },
    schema: percentSchema,
    expectCost: [
      // validate that if 'min' is a string that it is a percentage
      ["type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')", 10],
      // validate that 'min' can be either a exact value minimum, or a minimum as a percentage of 'available'
      [
        "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
        17,
      ],
    ],
  },
  {
    name: 'preserve unknown fields',
    obj: {
      withUnknown: { field1: 'a', field2: 'b' },
      withUnknownList: [
        { field1: 'a', field2: 'b' },
        { field1: 'x', field2: 'y' },
        { field1: 'x', field2: 'y' },
        {},
        {},
      ],
      withUnknownFieldList: [{ fieldOfUnknownType: 'a' }, { fieldOfUnknownType: 1 }, { fieldOfUnknownType: 1 }],
      anyvalList: ['a', 2],
      anyvalMap: { k: '1' },
      anyvalField1: 1,
      anyvalField2: 'a',
    },
    schema: preserveUnknownSchema,
    expectCost: [
      ['has(self.withUnknown)', 1],
      ['self.withUnknownList.size() == 5', 4],
      // fields that are unknown because they were not specified on the object schema are included in equality checks
      ['self.withUnknownList[0] != self.withUnknownList[1]', 7],
      ['self.withUnknownList[1] == self.withUnknownList[2]', 7],
      ['self.withUnknownList[3] == self.withUnknownList[4]', 6],
      // fields specified on the object schema that are unknown because the field's schema is unknown are also included equality checks
      ['self.withUnknownFieldList[0] != self.withUnknownFieldList[1]', 7],
      ['self.withUnknownFieldList[1] == self.withUnknownFieldList[2]', 7],
    ],
  },
  {
    name: 'known and unknown fields',
    obj: {
      withUnknown: { known: 1, unknown: 'a' },
      withUnknownList: [
        { known: 1, unknown: 'a' },
        { known: 1, unknown: 'b' },
        { known: 1, unknown: 'b' },
        { known: 1 },
        { known: 1 },
        { known: 2 },
      ],
    },
    schema: knownAndUnknownSchema,
    expectCost: [
      ['self.withUnknown.known == 1', 4],
      // if the unknown fields are the same, they are equal
      ['self.withUnknownList[1] == self.withUnknownList[2]', 7],
      // if unknown fields are different, they are not equal
      ['self.withUnknownList[0] != self.withUnknownList[1]', 7],
      ['self.withUnknownList[0] != self.withUnknownList[3]', 7],
      ['self.withUnknownList[0] != self.withUnknownList[5]', 7],
      // if all fields are known, equality works as usual
      ['self.withUnknownList[3] == self.withUnknownList[4]', 7],
      ['self.withUnknownList[4] != self.withUnknownList[5]', 7],
    ],
  },
  {
    name: 'field nullability',
    obj: {
      setPlainStr: 'v1',
      setDefaultedStr: 'v2',
      setNullableStr: 'v3',
      setToNullNullableStr: null,
      // we don't run the defaulter in this test suite (depending on it would introduce a cycle)
      // so we fake it :(
      unsetDefaultedStr: 'default value',
    },
    schema: fieldNullabilitySchema,
    expectCost: [
      ['!has(self.unsetPlainStr)', 2],
      ["has(self.unsetDefaultedStr) && self.unsetDefaultedStr == 'default value'", 5],
      ['!has(self.unsetNullableStr)', 2],
      ["has(self.setPlainStr) && self.setPlainStr == 'v1'", 4],
      ["has(self.setDefaultedStr) && self.setDefaultedStr == 'v2'", 4],
      ["has(self.setNullableStr) && self.setNullableStr == 'v3'", 4],
      // We treat null fields as absent fields, not as null valued fields.
      // Note that this is different than how we treat nullable list items or map values.
      ['type(self.setNullableStr) != null_type', 4],
      // a field that is set to null is treated the same as an absent field in validation rules
      ['!has(self.setToNullNullableStr)', 2],
    ],
  },
  {
    name: 'null values in container types',
    obj: { m: { a: null, b: 'not-nil' }, l: [null, 'not-nil'], s: [null, 'not-nil'] },
    schema: nullInContainersSchema,
    expectCost: [
      ['self.m.size() == 2', 4],
      ["'a' in self.m", 3],
      ["type(self.m['a']) == null_type", 5], // null check using runtime type checking
    ],
  },
  {
    name: 'object types are not accessible',
    obj: {
      nestedInMap: { k1: { inMapField: 1 }, k2: { inMapField: 2 } },
      nestedInList: [{ inListField: 1 }, { inListField: 2 }],
    },
    schema: objectTypesSchema,
    expectCost: [
      // we do not expose a stable type for the self variable, even when it is an object that CEL
      // considers a named type. The only operation developers should be able to perform on the type is
      // equality checking.
      ['type(self) == type(self)', 5],
      ["type(self.nestedInMap['k1']) == type(self.nestedInMap['k2'])", 9],
    ],
  },
  {
    name: 'listMaps with unsupported identity characters in property names',
    obj: {
      objs: [
        [
          { 'k!': 'a', 'k.': '1' },
          { 'k!': 'b', 'k.': '2' },
        ],
        [
          { 'k!': 'b', 'k.': '2' },
          { 'k!': 'a', 'k.': '1' },
        ],
        [
          { 'k!': 'b', 'k.': '2' },
          { 'k!': 'c', 'k.': '1' },
        ],
        [
          { 'k!': 'b', 'k.': '2' },
          { 'k!': 'a', 'k.': '3' },
        ],
      ],
    },
    schema: unsupportedIdentitySchema,
    expectCost: [
      ['self.objs[0] == self.objs[1]', 7], // equal even though order is different
      ["self.objs[0][0].k__dot__ == '1'", 6], // '.' is a supported character in identifiers, but it is escaped
    ],
  },
  {
    name: 'container type composition',
    obj: {
      obj: { field: 'a' },
      mapOfMap: { x: { y: 'b' } },
      mapOfObj: { k: { field2: 'c' } },
      mapOfListMap: { o: [{ k: '1', v: 'd' }] },
      mapOfList: { l: ['e'] },
      listMapOfObj: [{ k2: '2', v2: 'f' }],
      listOfMap: [{ z: 'g' }],
      listOfObj: [{ field3: 'h' }],
      listOfListMap: [[{ k3: '3', v3: 'i' }]],
    },
    schema: objectType({
      obj: objectType({ field: stringType }),
      mapOfMap: mapType(mapType(stringType)),
      mapOfObj: mapType(objectType({ field2: stringType })),
      mapOfListMap: mapType(listMapType(['k'], objectType({ k: stringType, v: stringType }))),
      mapOfList: mapType(listType(stringType)),
      listMapOfObj: listMapType(['k2'], objectType({ k2: stringType, v2: stringType })),
      listOfMap: listType(mapType(stringType)),
      listOfObj: listType(objectType({ field3: stringType })),
      listOfListMap: listType(listMapType(['k3'], objectType({ k3: stringType, v3: stringType }))),
    }),
    expectCost: [
      ["self.obj.field == 'a'", 4],
      ["self.mapOfMap['x']['y'] == 'b'", 5],
      ["self.mapOfObj['k'].field2 == 'c'", 5],
      ["self.mapOfListMap['o'].exists(e, e.k == '1' && e.v == 'd')", 14],
      ["self.mapOfList['l'][0] == 'e'", 5],
      ["self.listMapOfObj.exists(e, e.k2 == '2' && e.v2 == 'f')", 13],
      ["self.listOfMap[0]['z'] == 'g'", 5],
      ["self.listOfObj[0].field3 == 'h'", 5],
      ["self.listOfListMap[0].exists(e, e.k3 == '3' && e.v3 == 'i')", 14],
      // chained comprehensions
      ['self.mapOfMap.map(k, k).map(k, k).size() == 1', 32],
      ['self.mapOfListMap.map(k, k).map(k, k).size() == 1', 32],
      ['self.mapOfList.map(k, k).map(k, k).size() == 1', 32],
      ['self.listOfMap.map(e, e).map(e, e).size() == 1', 32],
      ['self.listOfListMap.map(e, e).map(e, e).size() == 1', 32],
      // nested comprehensions
      ['self.mapOfMap.map(k, self.mapOfMap[k].map(m, m)).size() == 1', 34],
      ['self.mapOfListMap.map(k, self.mapOfListMap[k].map(m, m)).size() == 1', 34],
      ['self.mapOfList.map(k, self.mapOfList[k].map(l, l)).size() == 1', 34],
      ['self.listOfMap.map(e, e.map(m, m)).size() == 1', 32],
      ['self.listOfListMap.map(e, e.map(e, e)).size() == 1', 32],
    ],
  },
  {
    name: 'optionals',
    obj: { obj: { field: 'a' }, m: { k: 'v' }, l: ['a'] },
    schema: optionalsSchema,
    expectCost: [
      ["optional.of('a') != optional.of('b')", 3],
      ["optional.of('a') != optional.none()", 3],
      ["optional.of('a').hasValue()", 2],
      ["optional.of('a').or(optional.of('a')).hasValue()", 2], // or() is short-circuited
      ["optional.none().or(optional.of('a')).hasValue()", 3],
      ["optional.of('a').optMap(v, v == 'value').hasValue()", 8],
      ["self.obj.?field == optional.of('a')", 5],
      ['self.obj.?absentField == optional.none()', 4],
      ["self.obj.?field.orValue('v') == 'a'", 4],
      ["self.m[?'k'] == optional.of('v')", 5],
      ["self.l[?0] == optional.of('a')", 5],
      ['optional.ofNonZeroValue(1).hasValue()', 2],
    ],
  },
  {
    name: 'quantity',
    obj: objs('20', '200M'),
    schema: schemas(stringType, stringType),
    expectCost: [
      ['isQuantity(self.val1)', 3],
      ['isQuantity(self.val2)', 3],
      ['isQuantity("200M")', 1],
      ['isQuantity("20Mi")', 1],
      ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', 6],
      [
        'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
        9,
      ],
      ['quantity(self.val1).isLessThan(quantity(self.val2))', 7],
      ['quantity("50M").isLessThan(quantity("100M"))', 3],
      ['quantity("50Mi").isGreaterThan(quantity("50M"))', 3],
      ['quantity("200M").compareTo(quantity("0.2G")) == 0', 4],
      ['quantity("50k").add(quantity("20")) == quantity("50.02k")', 5],
      ['quantity("50k").sub(20) == quantity("49980")', 4],
      ['quantity("50").isInteger()', 2],
      ['quantity(self.val1).isInteger()', 4],
    ],
  },
  {
    name: 'ext lists version 3',
    obj: objs([1, 2, 3], [1, 2, 3]),
    schema: schemas(listType(integerType), listType(integerType)),
    expectCost: [
      ['lists.range(4) == [0,1,2,3]', 16],
      ['lists.range(0) == []', 11],
      ['[5,1,2,3].reverse() == [3,2,1,5]', 16],
      ['[].reverse() == []', 11],
      ['[1].reverse() == [1]', 13],
      [
        "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
        19,
      ],
      ['[false, true, true].reverse().reverse() == [false, true, true]', 29],
      ['[1,2,3,4].slice(0, 4) == [1,2,3,4]', 16],
      ['[1,2,3,4].slice(0, 0) == []', 11],
      ['[1,2,3,4].slice(1, 1) == []', 11],
      ['[1,2,3,4].slice(4, 4) == []', 11],
      ['[1,2,3,4].slice(1, 3) == [2, 3]', 14],
      ['dyn([]).flatten() == []', 11],
      ['dyn([1,2,3,4]).flatten() == [1,2,3,4]', 16],
      ['[].sort() == []', 11],
      ['[1].sort() == [1]', 14],
      ['[4, 3, 2, 1].sort() == [1, 2, 3, 4]', 44],
      ['["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]', 45],
      ['[].sortBy(e, e) == []', 14],
      ['["a"].sortBy(e, e) == ["a"]', 30],
      ['[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]', 145],
      ['[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]', 216],
      ['lists.range(3).sortBy(e, -e) == [2, 1, 0]', 89],
      ['["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]', 104],
      [
        "[{'name': 'foo'}, {'name': 'bar'}, {'name': 'baz'}].sortBy(e, e.name) == [{'name': 'bar'}, {'name': 'baz'}, {'name': 'foo'}]",
        75,
      ],
      ['[].distinct() == []', 11],
      ['[1].distinct() == [1]', 14],
      ['[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]', 140],
      ["['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']", 146],
      ['[[1], [1], [2]].distinct() == [[1], [2]]', 30],
      ["[{'name': 'a'}, {'name': 'b'}, {'name': 'a'}].distinct() == [{'name': 'a'}, {'name': 'b'}]", 30],
    ],
  },
]

// ----- Known differences: kept as it.fails, each with its cause in cel-go and the kelp code responsible -----

/**
 * TestCelCostStability cases kelp does not match yet (it.fails), with the cause: none. (startsWith /
 * endsWith, charged by the prefix / suffix in cel-go v0.29.2 that this test's 1.37 environment runs,
 * were the last: src/cel/cost/runtime.ts standardRuntimeCostsV029.)
 */
const runtimeKnownFailures: ReadonlyMap<string, string> = new Map()

describe('celcoststability_test.go TestCelCostStability', () => {
  for (const tt of runtimeCases) {
    describe(tt.name, () => {
      for (const [rule, expectedCost] of tt.expectCost) {
        const reason = runtimeKnownFailures.get(`${tt.name}/${rule}`)
        // it.fails: kelp's figure differs from Go's; the test name says what kelp gives and names the
        // cause, which `causes` explains (the cel-go code responsible and the kelp code to change)
        const test = reason === undefined ? it : it.fails
        test(reason === undefined ? rule : `${rule} [expected to fail: ${reason}]`, () => {
          expect(runtimeCost(tt.schema, tt.obj, rule), 'runtime cost').toBe(Number(expectedCost))
        })
      }
    })
  }
})

// ---------------------------------------------------------------------------------------------
// TestCelEstimatedCostStability
// ---------------------------------------------------------------------------------------------

interface EstimatedCase {
  name: string
  schema: S
  expectCost: Case[]
}

const estimatedCases: EstimatedCase[] = [
  {
    name: 'integers',
    // 1st obj and schema args are for "self.val1" field, 2nd for "self.val2" and so on.
    schema: schemas(integerType, integerType, int32Type, int32Type, int64Type, int64Type),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', maxInt64Literal), 8],
      ['self.val1 == self.val6', 4], // integer with no format is the same as int64
      ['type(self.val1) == int', 4],
      [`self.val3 + 1 == ${MaxInt32} + 1`, 5], // CEL integers are 64 bit
    ],
  },
  {
    name: 'numbers',
    schema: schemas(numberType, numberType, floatType, floatType, doubleType, doubleType, doubleType),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', maxFloat64Literal), 8],
      ['self.val1 == self.val6', 4], // number with no format is the same as float64
      ['type(self.val1) == double', 4],
      // Use a int64 value with a number openAPI schema type since float representations of whole numbers
      // (e.g. 1.0, 0.0) can convert to int representations (e.g. 1, 0) in yaml to json translation, and
      // then get parsed as int64s.
      ['type(self.val7) == double', 4],
      ['self.val7 == 1.0', 2],
    ],
  },
  {
    name: 'numeric comparisons',
    schema: schemas(integerType, numberType, floatType, doubleType, numberType, floatType, doubleType),
    expectCost: [
      // xref: https://github.com/google/cel-spec/wiki/proposal-210
      // compare integers with all float types
      ['double(self.val1) < self.val4', 6],
      ['self.val1 < int(self.val4)', 6],
      ['double(self.val1) < self.val5', 6],
      ['self.val1 < int(self.val5)', 6],
      ['double(self.val1) < self.val6', 6],
      ['self.val1 < int(self.val6)', 6],
      // compare literal integers and floats
      ['double(5) < 10.0', 2],
      ['5 < int(10.0)', 2],
      // compare integers with literal floats
      ['double(self.val1) < 10.0', 4],
    ],
  },
  {
    name: 'unicode strings',
    schema: schemas(stringType, stringType),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "'Rook takes 👑'"), 314585],
      ["self.val1.startsWith('Rook')", 3],
      ["!self.val1.startsWith('knight')", 4],
      ["self.val1.matches('^[^0-9]*$')", 943721],
      ["!self.val1.matches('^[0-9]*$')", 629149],
      ['type(self.val1) == string', 4],
      ['size(self.val1) == 12', 4],
      // string functions (https://github.com/google/cel-go/blob/v0.9.0/ext/strings.go)
      ["self.val1.charAt(3) == 'k'", 4],
      ["self.val1.indexOf('o') == 1", 314576],
      ["self.val1.indexOf('o', 2) == 2", 314576],
      ["self.val1.replace(' ', 'x') == 'Rookxtakesx👑'", 629150],
      ["self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'", 629150],
      ["self.val1.split(' ') == ['Rook', 'takes', '👑']", 629159],
      ["self.val1.split(' ', 2) == ['Rook', 'takes 👑']", 629159],
      ["self.val1.substring(5) == 'takes 👑'", 314576],
      ["self.val1.substring(0, 4) == 'Rook'", 314576],
      ["self.val1.substring(4, 10).trim() == 'takes'", 629149],
      ["self.val1.upperAscii() == 'ROOK TAKES 👑'", 314577],
      ["self.val1.lowerAscii() == 'rook takes 👑'", 314577],
      ['self.val1.lowerAscii() == self.val1.lowerAscii()', 943723],
    ],
  },
  {
    name: 'escaped strings',
    schema: schemas(stringType, stringType),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "'l1\\nl2'"), 314583],
      ["self.val1 == '''l1\nl2'''", 3],
    ],
  },
  {
    name: 'bytes',
    schema: schemas(byteType, byteType),
    expectCost: [
      ['self.val1 == self.val2', 314577],
      ["self.val1 == b'AB'", 3],
      ['type(self.val1) == bytes', 4],
      ['size(self.val1) == 2', 4],
    ],
  },
  {
    name: 'booleans',
    schema: schemas(booleanType, booleanType, booleanType, booleanType),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', 'true'), 8],
      ['self.val1 != self.val4', 4],
      ['type(self.val1) == bool', 4],
    ],
  },
  {
    name: 'duration format',
    schema: schemas(durationFormat, durationFormat),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "duration('1h2m3s4ms')"), 16],
      ["self.val1 == duration('1h2m') + duration('3s4ms')", 6],
      ['self.val1.getHours() == 1', 4],
      ['type(self.val1) == google.protobuf.Duration', 4],
    ],
  },
  {
    name: 'date format',
    schema: schemas(dateFormat, dateFormat),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "timestamp('1997-07-16T00:00:00.000Z')"), 14],
      ['self.val1.getDate() == 16', 4],
      ['type(self.val1) == google.protobuf.Timestamp', 4],
    ],
  },
  {
    name: 'date-time format',
    schema: schemas(dateTimeFormat, dateTimeFormat),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "timestamp('2011-08-18T19:03:37.010+01:00')"), 16],
      ["self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')", 6],
      ["self.val1.getDate('01:00') == 18", 4],
      ['type(self.val1) == google.protobuf.Timestamp', 4],
    ],
  },
  {
    name: 'enums',
    schema: enumsSchema,
    expectCost: [
      ["self.enumStr == 'Pending'", 3],
      ["self.enumStr in ['Pending', 'Available']", 14],
    ],
  },
  {
    name: 'conversions',
    schema: schemas(
      integerType,
      numberType,
      numberType,
      numberType,
      booleanType,
      stringType,
      byteType,
      stringType,
      durationFormat,
      stringType,
      dateTimeFormat,
      stringType,
      dateFormat,
    ),
    expectCost: [
      ['int(self.val2) == self.val1', 5],
      ['double(self.val1) == self.val2', 5],
      ['bytes(self.val6) == self.val7', 629150],
      ['string(self.val1) == self.val6', 314578],
      ["string(self.val4) == '10.5'", 4],
      ['string(self.val7) == self.val6', 629150],
      ['duration(self.val8) == self.val9', 6],
      ['timestamp(self.val10) == self.val11', 6],
      ['string(self.val11) == self.val10', 314578],
      ['timestamp(self.val12) == self.val13', 6],
      ['string(self.val13) == self.val12', 314578],
    ],
  },
  {
    name: 'lists',
    schema: schemas(listType(integerType), listType(integerType)),
    expectCost: [
      [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', '[1, 2, 3]'), 157317],
      ['1 in self.val1', 1572865],
      ['self.val2[0] in self.val1', 1572868],
      ['!(0 in self.val1)', 1572866],
      ['self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]', 16],
      ['self.val1 + [4, 5] == [1, 2, 3, 4, 5]', 24],
      ['has(self.val1)', 1],
      ['has(self.val1) && has(self.val2)', 2],
      ['!has(self.val1)', 2],
      ['self.val1.all(k, size(self.val1) > 0)', 11010044],
      ['self.val1.exists_one(k, self.val1 == [2])', 23592949],
      ['!self.val1.exists_one(k, size(self.val1) > 0)', 9437183],
      ['size(self.val1) == 2', 4],
      ['size(self.val1.filter(k, size(self.val1) > 1)) == 1', 26738686],
    ],
  },
  {
    name: 'listSets',
    schema: schemas(listSetType(stringType), listSetType(stringType)),
    expectCost: [
      // equal even though order is different
      ["self.val1 == ['c', 'b', 'a']", 13],
      ['self.val1 == self.val2', 104862],
      ["'a' in self.val1", 1048577],
      ['self.val2[0] in self.val1', 1048580],
      ["!('x' in self.val1)", 1048578],
      ["self.val1 + self.val2 == ['a', 'b', 'c']", 16],
      ["self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']", 24],
      ['has(self.val1)', 1],
      ['has(self.val1) && has(self.val2)', 2],
      ['!has(self.val1)', 2],
      ['self.val1.all(k, size(self.val1) > 0)', 7340028],
      ["self.val1.exists_one(k, self.val1 == ['a'])", 15728629],
      ['!self.val1.exists_one(k, size(self.val1) > 0)', 6291455],
      ['size(self.val1) == 2', 4],
      ['size(self.val1.filter(k, size(self.val1) > 1)) == 1', 17825790],
    ],
  },
  {
    name: 'listMaps',
    schema: listMapsSchema,
    expectCost: [
      ['self.objs[0] == self.objs[1]', 104864], // equal even though order is different
      ['self.objs[0] + self.objs[2] == self.objs[2]', 104868], // rhs overwrites lhs values
      ['self.objs[2] + self.objs[0] == self.objs[0]', 104868],
      ['self.objs[0] == [self.objs[0][0], self.objs[0][1]]', 22], // equal against a declared list
      ['self.objs[0] == [self.objs[0][1], self.objs[0][0]]', 22],
      ['self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]', 104883], // concat against a declared list
      ['size(self.objs[0] + [self.objs[3][0]]) == 3', 20],
      ['has(self.objs)', 1],
      ['has(self.objs) && has(self.objs)', 2],
      ['!has(self.objs)', 2],
      ['self.objs[0].all(k, size(self.objs[0]) > 0)', 8388604],
      ['self.objs[0].exists_one(k, size(self.objs[0]) > 0)', 7340030],
      ['!self.objs[0].exists_one(k, size(self.objs[0]) > 0)', 7340031],
      ['size(self.objs[0]) == 2', 5],
      ['size(self.objs[0].filter(k, size(self.objs[0]) > 1)) == 1', 18874366],
    ],
  },
  {
    name: 'maps',
    schema: schemas(mapType(stringType), mapType(stringType)),
    expectCost: [
      ['self.val1 == self.val2', 39326], // equal even though order is different
      ["'k1' in self.val1", 3],
      ["!('k3' in self.val1)", 4],
      ["self.val1 == {'k1': 'a', 'k2': 'b'}", 33],
      ['has(self.val1)', 1],
      ['has(self.val1) && has(self.val2)', 2],
      ['!has(self.val1)', 2],
      ['self.val1.all(k, size(self.val1) > 0)', 2752508],
      ['self.val1.exists_one(k, size(self.val1) > 0)', 2359294],
      ['!self.val1.exists_one(k, size(self.val1) > 0)', 2359295],
      ['size(self.val1) == 2', 4],
      ['size(self.val1.filter(k, size(self.val1) > 1)) == 1', 6684670],
    ],
  },
  {
    name: 'objects',
    schema: objectsSchema,
    expectCost: [['self.objs[0] == self.objs[1]', 6]],
  },
  {
    name: 'object access',
    schema: objectAccessSchema,
    // https://github.com/google/cel-spec/blob/master/doc/langdef.md#field-selection
    expectCost: [
      ['has(self.a.b)', 2],
      ['has(self.a1.b1.c1)', 3],
      ['!(has(self.a1.d2) && has(self.a1.d2.e2))', 6], // must check intermediate optional fields (see below no such key error for d2)
      ['!has(self.a1.d2)', 3],
      ['has(self.a)', 1],
      ['has(self.a) && has(self.a1)', 2],
      ['!has(self.a)', 2],
    ],
  },
  {
    name: 'map access',
    schema: mapAccessSchema,
    expectCost: [
      // idiomatic map access
      ["!('a' in self.val)", 4],
      ["'b' in self.val", 3],
      ["!('c' in self.val)", 4],
      ["'d' in self.val", 3],
      // field selection also possible if map key is a valid CEL identifier
      ['!has(self.val.a)', 3],
      ['has(self.val.b)', 2],
      ['!has(self.val.c)', 3],
      ['has(self.val.d)', 2],
      ['self.val.all(k, self.val[k] > 0)', 3595115],
      ['self.val.exists_one(k, self.val[k] == 2)', 2696338],
      ['!self.val.exists_one(k, self.val[k] > 0)', 3145728],
      ['size(self.val) == 2', 4],
      ['size(self.val.filter(k, self.val[k] > 1)) == 1', 8089017],
    ],
  },
  {
    name: 'listMap access',
    schema: listMapAccessSchema,
    expectCost: [
      ['has(self.listMap[0].v)', 3],
      ["self.listMap.all(m, m.k.startsWith('a'))", 6291453],
      ["self.listMap.all(m, !has(m.v2) || m.v2 == 'z')", 8388603],
      ["self.listMap.exists(m, m.k.endsWith('1'))", 7340028],
      ["self.listMap.exists_one(m, m.k == 'a3')", 5242879],
      ["!self.listMap.all(m, m.k.endsWith('1'))", 6291454],
      ["!self.listMap.exists(m, m.v == 'x')", 7340029],
      ["!self.listMap.exists_one(m, m.k.startsWith('a'))", 5242880],
      ["size(self.listMap.filter(m, m.k == 'a1')) == 1", 16777215],
      ["self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')", 10485753],
      ["self.listMap.map(m, m.v).exists(v, v == 'b1')", 19922939],
      // test comprehensions where the field used in predicates is unset on all but one of the elements:
      // - with has checks:
      ["self.listMap.exists(m, has(m.v2) && m.v2 == 'z')", 8388603],
      ["!self.listMap.all(m, has(m.v2) && m.v2 != 'z')", 7340029],
      ["self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')", 6291454],
      ["self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1", 17825790],
      // undocumented overload of map that takes a filter argument. This is the same as .filter().map()
      ["self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1", 18874365],
      ["self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1", 32505851],
      // - without has checks:
      // all() and exists() macros ignore errors from predicates so long as the condition holds for at least one element
      ["self.listMap.exists(m, m.v2 == 'z')", 7340028],
      ["!self.listMap.all(m, m.v2 != 'z')", 6291454],
    ],
  },
  {
    name: 'list access',
    schema: listAccessSchema,
    expectCost: [
      ['2 in self.array', 1572865],
      ['self.array.all(e, e > 0)', 7864318],
      ['self.array.exists(e, e > 2)', 9437181],
      ['self.array.exists_one(e, e > 4)', 6291456],
      ['!self.array.all(e, e < 2)', 7864319],
      ['!self.array.exists(e, e < 0)', 9437182],
      ['!self.array.exists_one(e, e == 2)', 4718594],
      ['self.array.all(e, e < 100)', 7864318],
      ['size(self.array.filter(e, e%2 == 0)) == 3', 25165823],
      ['self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)', 53477367],
      ['size(self.array) == 8', 4],
    ],
  },
  {
    name: 'listSet access',
    schema: listSetAccessSchema,
    expectCost: [
      ['3 in self.set', 1572865],
      ['self.set.all(e, e > 0)', 7864318],
      ['self.set.exists(e, e > 3)', 9437181],
      ['self.set.exists_one(e, e == 3)', 4718593],
      ['!self.set.all(e, e < 3)', 7864319],
      ['!self.set.exists(e, e < 0)', 9437182],
      ['!self.set.exists_one(e, e > 3)', 6291457],
      ['self.set.all(e, e < 10)', 7864318],
      ['size(self.set.filter(e, e%2 == 0)) == 2', 25165823],
      ['self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)', 50331642],
      ['size(self.set) == 5', 4],
    ],
  },
  {
    name: 'typemeta and objectmeta access specified',
    schema: typeMetaSpecifiedSchema,
    expectCost: [
      ["self.kind == 'Pod'", 3],
      ["self.apiVersion == 'v1'", 3],
      ["self.metadata.name == 'foo'", 4],
      ["self.metadata.generateName == 'pickItForMe'", 5],
    ],
  },
  // Kubernetes special types
  {
    name: 'embedded object',
    schema: embeddedSchema,
    expectCost: [
      // 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are always accessible
      // even if not specified in the schema.
      ["self.embedded.kind == 'Pod'", 4],
      ["self.embedded.apiVersion == 'v1'", 4],
      ["self.embedded.metadata.name == 'foo'", 5],
      ["self.embedded.metadata.generateName == 'pickItForMe'", 6],
    ],
  },
  {
    name: 'embedded object with properties',
    schema: embeddedWithPropertiesSchema,
    expectCost: [
      // in this case 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are specified in the
      // schema, but they would be accessible even if they were not
      ["self.embedded.kind == 'Pod'", 4],
      ["self.embedded.apiVersion == 'v1'", 4],
      ["self.embedded.metadata.name == 'foo'", 5],
      ["self.embedded.metadata.generateName == 'pickItForMe'", 6],
      // the specified embedded fields are accessible
      ["self.embedded.spec.field1 == 'a'", 5],
    ],
  },
  {
    name: 'embedded object with preserve unknown',
    schema: embeddedPreserveUnknownSchema,
    expectCost: [
      // 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are always accessible
      // even if not specified in the schema, regardless of if x-kubernetes-preserve-unknown-fields is set.
      ["self.embedded.kind == 'Pod'", 4],
      ["self.embedded.apiVersion == 'v1'", 4],
      ["self.embedded.metadata.name == 'foo'", 5],
      ["self.embedded.metadata.generateName == 'pickItForMe'", 6],
      // the object exists
      ['has(self.embedded)', 1],
    ],
  },
  {
    name: 'string in intOrString',
    schema: intOrStringSchema,
    expectCost: [
      // typical int-or-string usage would be to check both types
      ["type(self.something) == int ? self.something == 1 : self.something == '25%'", 7],
      // to require the value be a particular type, guard it with a runtime type check
      ["type(self.something) == string && self.something == '25%'", 7],
      // In Kubernetes 1.24 and later, the CEL type returns false for an int-or-string comparison against the
      // other type, making it safe to write validation rules like:
      ["self.something == '25%'", 3],
      ['self.something != 1', 3],
      ["self.something == 1 || self.something == '25%'", 6],
      ["self.something == '25%' || self.something == 1", 6],
      // Because the type is dynamic it receives no type checking, and evaluates to false when compared to
      // other types at runtime.
      ["self.something != ['anything']", 13],
    ],
  },
  {
    name: 'int in intOrString',
    schema: intOrStringSchema,
    expectCost: [
      // typical int-or-string usage would be to check both types
      ["type(self.something) == int ? self.something == 1 : self.something == '25%'", 7],
      // to require the value be a particular type, guard it with a runtime type check
      ['type(self.something) == int && self.something == 1', 7],
      // In Kubernetes 1.24 and later, the CEL type returns false for an int-or-string comparison against the
      // other type, making it safe to write validation rules like:
      ['self.something == 1', 3],
      ["self.something != 'some string'", 4],
      ["self.something == 1 || self.something == '25%'", 6],
      ["self.something == '25%' || self.something == 1", 6],
      // Because the type is dynamic it receives no type checking, and evaluates to false when compared to
      // other types at runtime.
      ["self.something != ['anything']", 13],
    ],
  },
  {
    name: 'null in intOrString',
    schema: nullIntOrStringSchema,
    expectCost: [['!has(self.something)', 2]],
  },
  {
    name: 'percent comparison using intOrString',
    schema: percentSchema,
    expectCost: [
      // validate that if 'min' is a string that it is a percentage
      ["type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')", 1258298],
      // validate that 'min' can be either a exact value minimum, or a minimum as a percentage of 'available'
      [
        "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
        629162,
      ],
    ],
  },
  {
    name: 'preserve unknown fields',
    schema: preserveUnknownSchema,
    expectCost: [
      ['has(self.withUnknown)', 1],
      ['self.withUnknownList.size() == 5', 4],
      // fields that are unknown because they were not specified on the object schema are included in equality checks
      ['self.withUnknownList[0] != self.withUnknownList[1]', 6],
      ['self.withUnknownList[1] == self.withUnknownList[2]', 6],
      ['self.withUnknownList[3] == self.withUnknownList[4]', 6],
      // fields specified on the object schema that are unknown because the field's schema is unknown are also included equality checks
      ['self.withUnknownFieldList[0] != self.withUnknownFieldList[1]', 6],
      ['self.withUnknownFieldList[1] == self.withUnknownFieldList[2]', 6],
    ],
  },
  {
    name: 'known and unknown fields',
    schema: knownAndUnknownSchema,
    expectCost: [
      ['self.withUnknown.known == 1', 3],
      // if the unknown fields are the same, they are equal
      ['self.withUnknownList[1] == self.withUnknownList[2]', 6],
      // if unknown fields are different, they are not equal
      ['self.withUnknownList[0] != self.withUnknownList[1]', 6],
      ['self.withUnknownList[0] != self.withUnknownList[3]', 6],
      ['self.withUnknownList[0] != self.withUnknownList[5]', 6],
      // if all fields are known, equality works as usual
      ['self.withUnknownList[3] == self.withUnknownList[4]', 6],
      ['self.withUnknownList[4] != self.withUnknownList[5]', 6],
    ],
  },
  {
    name: 'field nullability',
    schema: fieldNullabilitySchema,
    expectCost: [
      ['!has(self.unsetPlainStr)', 2],
      ["has(self.unsetDefaultedStr) && self.unsetDefaultedStr == 'default value'", 5],
      ['!has(self.unsetNullableStr)', 2],
      ["has(self.setPlainStr) && self.setPlainStr == 'v1'", 4],
      ["has(self.setDefaultedStr) && self.setDefaultedStr == 'v2'", 4],
      ["has(self.setNullableStr) && self.setNullableStr == 'v3'", 4],
      // We treat null fields as absent fields, not as null valued fields.
      // Note that this is different than how we treat nullable list items or map values.
      ['type(self.setNullableStr) != null_type', 4],
      // a field that is set to null is treated the same as an absent field in validation rules
      ['!has(self.setToNullNullableStr)', 2],
    ],
  },
  {
    name: 'null values in container types',
    schema: nullInContainersSchema,
    expectCost: [
      ['self.m.size() == 2', 4],
      ["'a' in self.m", 3],
      ["type(self.m['a']) == null_type", 5], // null check using runtime type checking
    ],
  },
  {
    name: 'object types are not accessible',
    schema: objectTypesSchema,
    expectCost: [
      // we do not expose a stable type for the self variable, even when it is an object that CEL
      // considers a named type. The only operation developers should be able to perform on the type is
      // equality checking.
      ['type(self) == type(self)', 1844674407370955268n],
      ["type(self.nestedInMap['k1']) == type(self.nestedInMap['k2'])", 1844674407370955272n],
    ],
  },
  {
    name: 'listMaps with unsupported identity characters in property names',
    schema: unsupportedIdentitySchema,
    expectCost: [
      ['self.objs[0] == self.objs[1]', 104864], // equal even though order is different
      ["self.objs[0][0].k__dot__ == '1'", 6], // '.' is a supported character in identifiers, but it is escaped
    ],
  },
  {
    name: 'container type composition',
    schema: objectType({
      obj: objectType({ field: stringType }),
      mapOfMap: withMaxProperties(mapType(withMaxProperties(mapType(stringType), 10)), 10),
      mapOfObj: mapType(objectType({ field2: stringType })),
      mapOfListMap: withMaxProperties(
        mapType(withMaxItems(listMapType(['k'], objectType({ k: stringType, v: stringType })), 10)),
        10,
      ),
      mapOfList: withMaxProperties(mapType(withMaxItems(listType(stringType), 10)), 10),
      listMapOfObj: withMaxItems(listMapType(['k2'], objectType({ k2: stringType, v2: stringType })), 10),
      listOfMap: withMaxItems(listType(withMaxProperties(mapType(stringType), 10)), 10),
      listOfObj: listType(objectType({ field3: stringType })),
      listOfListMap: withMaxItems(
        listType(withMaxItems(listMapType(['k'], objectType({ k3: stringType, v3: stringType })), 10)),
        10,
      ),
    }),
    expectCost: [
      ["self.obj.field == 'a'", 4],
      ["self.mapOfMap['x']['y'] == 'b'", 5],
      ["self.mapOfObj['k'].field2 == 'c'", 5],
      ["self.mapOfListMap['o'].exists(e, e.k == '1' && e.v == 'd')", 104],
      ["self.mapOfList['l'][0] == 'e'", 5],
      ["self.listMapOfObj.exists(e, e.k2 == '2' && e.v2 == 'f')", 103],
      ["self.listOfMap[0]['z'] == 'g'", 5],
      ["self.listOfObj[0].field3 == 'h'", 5],
      ["self.listOfListMap[0].exists(e, e.k3 == '3' && e.v3 == 'i')", 104],
      // chained comprehensions
      ['self.mapOfMap.map(k, k).map(k, k).size() == 1', 286],
      ['self.mapOfListMap.map(k, k).map(k, k).size() == 1', 286],
      ['self.mapOfList.map(k, k).map(k, k).size() == 1', 286],
      ['self.listOfMap.map(e, e).map(e, e).size() == 1', 286],
      ['self.listOfListMap.map(e, e).map(e, e).size() == 1', 286],
      // nested comprehensions
      ['self.mapOfMap.map(k, self.mapOfMap[k].map(m, m)).size() == 1', 1585],
      ['self.mapOfListMap.map(k, self.mapOfListMap[k].map(m, m)).size() == 1', 1585],
      ['self.mapOfList.map(k, self.mapOfList[k].map(l, l)).size() == 1', 1585],
      ['self.listOfMap.map(e, e.map(m, m)).size() == 1', 1555],
      ['self.listOfListMap.map(e, e.map(e, e)).size() == 1', 1555],
    ],
  },
  {
    name: 'optionals',
    schema: optionalsSchema,
    expectCost: [
      ["optional.of('a') != optional.of('b')", 1844674407370955266n],
      ["optional.of('a') != optional.none()", 1844674407370955266n],
      ["optional.of('a').hasValue()", 2],
      ["optional.of('a').or(optional.of('a')).hasValue()", 4], // or() is short-circuited
      ["optional.none().or(optional.of('a')).hasValue()", 4],
      ["optional.of('a').optMap(v, v == 'value').hasValue()", 18],
      ["self.obj.?field == optional.of('a')", 1844674407370955268n],
      ['self.obj.?absentField == optional.none()', 1844674407370955268n],
      ["self.obj.?field.orValue('v') == 'a'", 5],
      ["self.m[?'k'] == optional.of('v')", 1844674407370955268n],
      ["self.l[?0] == optional.of('a')", 1844674407370955268n],
      ['optional.ofNonZeroValue(1).hasValue()', 2],
      ['optional.of([1, 2, 3, 4, 5]).optMap(v, v.size()).hasValue()', 38],
      ["optional.of('abcdefgabcdefg').optMap(v, v.size()).hasValue()", 18],
      ["self.l[?0].optMap(v, v == 'a').hasValue()", 22],
    ],
  },
  {
    name: 'quantity',
    schema: schemas(stringType, stringType),
    expectCost: [
      ['isQuantity(self.val1)', 314575],
      ['isQuantity(self.val2)', 314575],
      ['isQuantity("200M")', 1],
      ['isQuantity("20Mi")', 1],
      ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', 6],
      [
        'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
        9,
      ],
      ['quantity(self.val1).isLessThan(quantity(self.val2))', 629151],
      ['quantity("50M").isLessThan(quantity("100M"))', 3],
      ['quantity("50Mi").isGreaterThan(quantity("50M"))', 3],
      ['quantity("200M").compareTo(quantity("0.2G")) == 0', 4],
      ['quantity("50k").add(quantity("20")) == quantity("50.02k")', 5],
      ['quantity("50k").sub(20) == quantity("49980")', 4],
      ['quantity("50").isInteger()', 2],
      ['quantity(self.val1).isInteger()', 314576],
    ],
  },
]

/** TestCelEstimatedCostStability cases kelp does not match yet (it.fails): none. */
const estimatedKnownFailures: ReadonlyMap<string, string> = new Map()

describe('celcoststability_test.go TestCelEstimatedCostStability', () => {
  for (const tt of estimatedCases) {
    describe(tt.name, () => {
      for (const [rule, expectedCost] of tt.expectCost) {
        const reason = estimatedKnownFailures.get(`${tt.name}/${rule}`)
        const test = reason === undefined ? it : it.fails
        test(reason === undefined ? rule : `${rule} [expected to fail: ${reason}]`, () => {
          expect(estimatedCost(tt.schema, rule), 'estimated cost').toBe(BigInt(expectedCost))
        })
      }
    })
  }
})
