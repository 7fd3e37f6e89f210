import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { CorrelatedObject, MapList } from '../../src/kube/schema/correlation.js'
import { deepEqualJSON } from '../../src/kube/schema/deep-equal.js'
import type { JSONSchemaProps } from '../../src/kube/schema/structural.js'

// Transcriptions of
// - apiserver pkg/cel/common/equality_test.go TestCorrelation (CorrelatedObject.Key / Index /
//   CachedDeepEqual), and
// - the MapList tests: apiserver pkg/cel/openapi/maplist_test.go TestMapList, whose cases are the
//   same as apiextensions-apiserver pkg/apiserver/schema/cel/maplist_test.go TestMapList (the former
//   builds spec.Schema, the latter schema.Structural; both reach common.MakeMapList). apiserver
//   pkg/cel/common has no maplist_test.go of its own.
//
// Go decodes the YAML documents with apimachinery's YAMLOrJSONDecoder; here `yaml.parse` yields
// the same JSON values (all the values in these cases are strings, maps and lists).

/** mustUnstructured / mustSchema */
const y = (source: string): unknown => parse(source)
const schema = (source: string): JSONSchemaProps => parse(source) as JSONSchemaProps

interface TestCase {
  Name: string
  /** Expected old value after traversal; undefined (Go nil) means the traversal should fail. */
  OldValue?: unknown
  /** Expected value after traversal; undefined (Go nil) means the traversal should fail. */
  NewValue?: unknown
  /** Whether OldValue and NewValue are considered equal although not DeepEqual (map-list reordering). */
  ExpectEqual?: boolean
  Schema: JSONSchemaProps
  KeyPath: (string | number)[]
  RootObject: unknown
  RootOldObject: unknown
}

/** TestCase.Run */
function run(c: TestCase): void {
  let correlated: CorrelatedObject | undefined = new CorrelatedObject(c.RootObject, c.RootOldObject, c.Schema)
  for (const key of c.KeyPath) {
    if (correlated === undefined) break
    correlated = typeof key === 'string' ? correlated.key(key) : correlated.index(key)
  }
  if (correlated === undefined) {
    expect(c.OldValue === undefined && c.NewValue === undefined, 'expected non-nil value, got nil').toBe(true)
    return
  }
  expect(correlated.value).toStrictEqual(c.NewValue)
  expect(correlated.oldValue).toStrictEqual(c.OldValue)
  // (c.ExpectEqual || reflect.DeepEqual(Value, OldValue)) == CachedDeepEqual()
  const expectEqual = c.ExpectEqual === true || deepEqualJSON(correlated.value, correlated.oldValue)
  expect(correlated.cachedDeepEqual(), 'expected equal, got not equal').toBe(expectEqual)
}

const cases: TestCase[] = [
  {
    Name: 'Basic Key',
    RootObject: y('a: b'),
    RootOldObject: y('a: b'),
    Schema: schema(`
      properties:
        a: { type: string }
    `),
    KeyPath: ['a'],
    NewValue: 'b',
    OldValue: 'b',
  },
  {
    Name: 'Atomic Array not correlatable',
    RootObject: y('[a, b]'),
    RootOldObject: y('[a, b]'),
    Schema: schema(`
      items:
        type: string
    `),
    KeyPath: [1],
  },
  {
    Name: 'Added Key Not In Old Object',
    RootObject: y(`
      a: b
      c: d
    `),
    RootOldObject: y(`
      a: b
    `),
    Schema: schema(`
      properties:
        a: { type: string }
        c: { type: string }
    `),
    KeyPath: ['c'],
  },
  {
    Name: 'Added Index Not In Old Object',
    RootObject: y(`
      - a
      - b
      - c
    `),
    RootOldObject: y(`
      - a
      - b
    `),
    Schema: schema(`
      items:
          type: string
    `),
    KeyPath: [2],
  },
  {
    Name: 'Changed Index In Old Object not correlatable',
    RootObject: ['a', 'b'],
    RootOldObject: ['a', 'oldB'],
    Schema: schema(`
      items:
          type: string
    `),
    KeyPath: [1],
  },
  {
    Name: 'Changed Index In Nested Old Object',
    RootObject: ['a', 'b'],
    RootOldObject: ['a', 'oldB'],
    Schema: schema(`
      items:
          type: string
    `),
    KeyPath: [],
    NewValue: ['a', 'b'],
    OldValue: ['a', 'oldB'],
  },
  {
    Name: 'Changed Key In Old Object',
    RootObject: { a: 'b' },
    RootOldObject: { a: 'oldB' },
    Schema: schema(`
      properties:
        a: { type: string }
    `),
    KeyPath: ['a'],
    NewValue: 'b',
    OldValue: 'oldB',
  },
  {
    Name: 'Replaced Key In Old Object',
    RootObject: { a: 'b' },
    RootOldObject: { b: 'a' },
    Schema: schema(`
      properties:
        a: { type: string }
    `),
    KeyPath: [],
    NewValue: { a: 'b' },
    OldValue: { b: 'a' },
  },
  {
    Name: 'Added Key In Old Object',
    RootObject: { a: 'b' },
    RootOldObject: {},
    Schema: schema(`
      properties:
        a: { type: string }
    `),
    KeyPath: [],
    NewValue: { a: 'b' },
    OldValue: {},
  },
  {
    Name: 'Changed list to map',
    RootObject: { a: 'b' },
    RootOldObject: ['a', 'b'],
    Schema: schema(`
      properties:
        a: { type: string }
    `),
    KeyPath: [],
    NewValue: { a: 'b' },
    OldValue: ['a', 'b'],
  },
  {
    Name: 'Changed string to map',
    RootObject: { a: 'b' },
    RootOldObject: 'a string',
    Schema: schema(`
      properties:
        a: { type: string }
    `),
    KeyPath: [],
    NewValue: { a: 'b' },
    OldValue: 'a string',
  },
  {
    Name: 'Map list type',
    RootObject: y(`
      foo:
      - bar: baz
        val: newBazValue
    `),
    RootOldObject: y(`
      foo:
      - bar: fizz
        val: fizzValue
      - bar: baz
        val: bazValue
    `),
    Schema: schema(`
      properties:
        foo:
          type: array
          items:
            type: object
            properties:
              bar:
                type: string
              val:
                type: string
          x-kubernetes-list-type: map
          x-kubernetes-list-map-keys:
            - bar
    `),
    KeyPath: ['foo', 0, 'val'],
    NewValue: 'newBazValue',
    OldValue: 'bazValue',
  },
  {
    Name: 'Atomic list item should not correlate',
    RootObject: y(`
      foo:
      - bar: baz
        val: newValue
    `),
    RootOldObject: y(`
      foo:
      - bar: fizz
        val: fizzValue
      - bar: baz
        val: barValue
    `),
    Schema: schema(`
      properties:
        foo:
          type: array
          items:
            type: object
            properties:
              bar:
                type: string
              val:
                type: string
          x-kubernetes-list-type: atomic
    `),
    KeyPath: ['foo', 0, 'val'],
  },
  {
    Name: 'Map used inside of map list type should correlate',
    RootObject: y(`
      foo:
      - key: keyValue
        bar:
          baz: newValue
    `),
    RootOldObject: y(`
      foo:
      - key: otherKeyValue
        bar:
          baz: otherOldValue
      - key: altKeyValue
        bar:
          baz: altOldValue
      - key: keyValue
        bar:
          baz: oldValue
    `),
    Schema: schema(`
      properties:
        foo:
          type: array
          items:
            type: object
            properties:
              key:
                type: string
              bar:
                type: object
                properties:
                  baz:
                    type: string
          x-kubernetes-list-type: map
          x-kubernetes-list-map-keys:
            - key
    `),
    KeyPath: ['foo', 0, 'bar', 'baz'],
    NewValue: 'newValue',
    OldValue: 'oldValue',
  },
  {
    Name: 'Map used inside another map should correlate',
    RootObject: y(`
      foo:
          key: keyValue
          bar:
              baz: newValue
    `),
    RootOldObject: y(`
      foo:
          key: otherKeyValue
          bar:
              baz: otherOldValue
      altFoo:
          key: altKeyValue
          bar:
              baz: altOldValue
      otherFoo:
          key: keyValue
          bar:
              baz: oldValue
    `),
    Schema: schema(`
      properties:
        foo:
          type: object
          properties:
            key:
              type: string
            bar:
              type: object
              properties:
                baz:
                  type: string
    `),
    KeyPath: ['foo', 'bar'],
    NewValue: { baz: 'newValue' },
    OldValue: { baz: 'otherOldValue' },
  },
  {
    Name: 'Nested map equal to old',
    RootObject: y(`
      foo:
          key: newKeyValue
          bar:
              baz: value
    `),
    RootOldObject: y(`
      foo:
          key: keyValue
          bar:
              baz: value
    `),
    Schema: schema(`
      properties:
        foo:
          type: object
          properties:
            key:
              type: string
            bar:
              type: object
              properties:
                baz:
                  type: string
    `),
    KeyPath: ['foo', 'bar'],
    NewValue: { baz: 'value' },
    OldValue: { baz: 'value' },
  },
  {
    Name: 'Re-ordered list considered equal to old value due to map keys',
    RootObject: y(`
      foo:
      - key: keyValue
        bar:
          baz: value
      - key: altKeyValue
        bar:
          baz: altValue
    `),
    RootOldObject: y(`
      foo:
      - key: altKeyValue
        bar:
          baz: altValue
      - key: keyValue
        bar:
          baz: value
    `),
    Schema: schema(`
      properties:
        foo:
          type: array
          items:
            type: object
            properties:
              key:
                type: string
              bar:
                type: object
                properties:
                  baz:
                    type: string
          x-kubernetes-list-type: map
          x-kubernetes-list-map-keys:
            - key
    `),
    KeyPath: ['foo'],
    NewValue: y(`
      - key: keyValue
        bar:
          baz: value
      - key: altKeyValue
        bar:
          baz: altValue
    `),
    OldValue: y(`
      - key: altKeyValue
        bar:
          baz: altValue
      - key: keyValue
        bar:
          baz: value
    `),
    ExpectEqual: true,
  },
  {
    Name: 'Correlate unknown string key via additional properties',
    RootObject: y(`
      foo:
          key: keyValue
          bar:
              baz: newValue
    `),
    RootOldObject: y(`
      foo:
          key: otherKeyValue
          bar:
              baz: otherOldValue
    `),
    Schema: schema(`
      properties:
          foo:
              type: object
              additionalProperties:
                  properties:
                      baz:
                          type: string
    `),
    KeyPath: ['foo', 'bar', 'baz'],
    NewValue: 'newValue',
    OldValue: 'otherOldValue',
  },
  {
    Name: 'Changed map value',
    RootObject: y(`
      foo:
          key: keyValue
          bar:
              baz: newValue
    `),
    RootOldObject: y(`
      foo:
          key: keyValue
          bar:
              baz: oldValue
    `),
    Schema: schema(`
      properties:
          foo:
              type: object
              properties:
                  key:
                      type: string
                  bar:
                      type: object
                      properties:
                          baz:
                              type: string
    `),
    KeyPath: ['foo', 'bar'],
    NewValue: y(`
      baz: newValue
    `),
    OldValue: y(`
      baz: oldValue
    `),
  },
  {
    Name: 'Changed nested map value',
    RootObject: y(`
      foo:
          key: keyValue
          bar:
              baz: newValue
    `),
    RootOldObject: y(`
      foo:
          key: keyValue
          bar:
              baz: oldValue
    `),
    Schema: schema(`
      properties:
          foo:
              type: object
              properties:
                  key:
                      type: string
                  bar:
                      type: object
                      properties:
                          baz:
                              type: string
    `),
    KeyPath: ['foo'],
    NewValue: y(`
      key: keyValue
      bar:
        baz: newValue
    `),
    OldValue: y(`
      key: keyValue
      bar:
        baz: oldValue
    `),
  },
  {
    Name: 'unchanged list type set with atomic map values',
    Schema: schema(`
      properties:
          foo:
              type: array
              items:
                  type: object
                  x-kubernetes-map-type: atomic
                  properties:
                      key:
                          type: string
                      bar:
                          type: string
              x-kubernetes-list-type: set
    `),
    RootObject: y(`
      foo:
      - key: key1
        bar: value1
      - key: key2
        bar: value2
    `),
    RootOldObject: y(`
      foo:
      - key: key1
        bar: value1
      - key: key2
        bar: value2
    `),
    KeyPath: ['foo'],
    NewValue: y(`
      - key: key1
        bar: value1
      - key: key2
        bar: value2
    `),
    OldValue: y(`
      - key: key1
        bar: value1
      - key: key2
        bar: value2
    `),
  },
  {
    Name: 'changed list type set with atomic map values',
    Schema: schema(`
      properties:
          foo:
              type: array
              items:
                  type: object
                  x-kubernetes-map-type: atomic
                  properties:
                      key:
                          type: string
                      bar:
                          type: string
              x-kubernetes-list-type: set
    `),
    RootObject: y(`
      foo:
      - key: key1
        bar: value1
      - key: key2
        bar: newValue2
    `),
    RootOldObject: y(`
      foo:
      - key: key1
        bar: value1
      - key: key2
        bar: value2
    `),
    KeyPath: ['foo'],
    NewValue: y(`
      - key: key1
        bar: value1
      - key: key2
        bar: newValue2
    `),
    OldValue: y(`
      - key: key1
        bar: value1
      - key: key2
        bar: value2
    `),
  },
  {
    Name: 'elements of list type set with atomic map values are not correlated',
    Schema: schema(`
      properties:
          foo:
              type: array
              items:
                  type: object
                  x-kubernetes-map-type: atomic
                  properties:
                      key:
                          type: string
                      bar:
                          type: string
              x-kubernetes-list-type: set
    `),
    RootObject: y(`
      foo:
      - key: key1
        bar: value1
      - key: key2
        bar: newValue2
    `),
    RootOldObject: y(`
      foo:
      - key: key1
        bar: value1
      - key: key2
        bar: value2
    `),
    KeyPath: ['foo', 0, 'key'],
    NewValue: undefined,
  },
]

describe('equality_test.go TestCorrelation', () => {
  for (const c of cases) it(c.Name, () => run(c))
})

describe('maplist_test.go TestMapList', () => {
  interface MapListCase {
    name: string
    sts: JSONSchemaProps
    items?: unknown[]
    warmUpQueries?: unknown[]
    query: unknown
    /** Go nil: undefined */
    expected: unknown
  }
  const cases: MapListCase[] = [
    { name: 'default list type', sts: { type: 'array' }, query: {}, expected: undefined },
    { name: 'non list type', sts: { type: 'map' }, query: {}, expected: undefined },
    {
      name: 'non-map list type',
      sts: { type: 'array', 'x-kubernetes-list-type': 'set' },
      query: {},
      expected: undefined,
    },
    // apiextensions' "no keys" sets XListType map without keys; apiserver/openapi's sets no list type
    { name: 'no keys', sts: { type: 'array', 'x-kubernetes-list-type': 'map' }, query: {}, expected: undefined },
    { name: 'no keys (pkg/cel/openapi variant)', sts: { type: 'array' }, query: {}, expected: undefined },
    {
      name: 'single key',
      sts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
      items: [
        { k: 'a', v1: 'a' },
        { k: 'b', v1: 'b' },
      ],
      query: { k: 'b', v1: 'B' },
      expected: { k: 'b', v1: 'b' },
    },
    {
      name: 'single key ignoring non-map query',
      sts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
      items: [{ k: 'a', v1: 'a' }],
      query: 42,
      expected: undefined,
    },
    {
      name: 'single key ignoring unkeyable query',
      sts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
      items: [{ k: 'a', v1: 'a' }],
      query: { k: { keys: 'must', be: 'scalars' }, v1: 'A' },
      expected: undefined,
    },
    {
      name: 'ignores item of invalid type',
      sts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
      items: [{ k: 'a', v1: 'a' }, 5],
      query: { k: 'a', v1: 'A' },
      expected: { k: 'a', v1: 'a' },
    },
    {
      name: 'keep first entry when duplicated keys are encountered',
      sts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
      items: [
        { k: 'a', v1: 'a' },
        { k: 'a', v1: 'b' },
      ],
      query: { k: 'a', v1: 'A' },
      expected: { k: 'a', v1: 'a' },
    },
    {
      name: 'keep first entry when duplicated multi-keys are encountered',
      sts: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k1', 'k2'] },
      items: [
        { k1: 'a', k2: 'b', v1: 'a' },
        { k1: 'a', k2: 'b', v1: 'b' },
        { k1: 'x', k2: 'y', v1: 'z' },
      ],
      warmUpQueries: [{ k1: 'x', k2: 'y' }],
      query: { k1: 'a', k2: 'b' },
      expected: { k1: 'a', k2: 'b', v1: 'a' },
    },
    {
      // Go's float64(2.0) is the JS number 2, which kelp reads as an int: both the items and the
      // query carry the same value, so the key tuples still match exactly as in Go.
      name: 'multiple keys with defaults ignores item with nil value for key',
      sts: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['kb', 'kf', 'ki', 'ks'],
        properties: {
          kb: { default: true },
          kf: { default: 2.0 },
          ki: { default: 42 },
          ks: { default: 'hello' },
        },
      },
      items: [
        { kb: null, kf: 2.0, ki: 42, ks: 'hello', v1: 'a' },
        { kb: false, kf: 2.0, ki: 42, ks: 'hello', v1: 'b' },
      ],
      query: { kb: false, kf: 2.0, ki: 42, ks: 'hello', v1: 'B' },
      expected: { kb: false, kf: 2.0, ki: 42, ks: 'hello', v1: 'b' },
    },
  ]

  for (const tc of cases) {
    it(tc.name, () => {
      // MakeMapList returns emptyMapList (Get → nil) where kelp's MapList.make returns undefined
      const mapList = MapList.make(tc.sts, tc.items ?? [])
      for (const warmUp of tc.warmUpQueries ?? []) mapList?.get(warmUp)
      const actual = mapList?.get(tc.query)
      expect(actual).toStrictEqual(tc.expected)
    })
  }
})

describe('maplist.go key strategies (derived from the code, not from a Go test case)', () => {
  const multi: JSONSchemaProps = {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['k1', 'k2'],
  }
  const single: JSONSchemaProps = {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['k'],
  }

  it('multiKeyStrategy quotes strings (%q): a NUL inside a key value cannot forge another tuple', () => {
    const list = MapList.make(multi, [{ k1: 'a\u0000sb', k2: 'c', v: 1 }])
    expect(list?.get({ k1: 'a', k2: 'b\u0000sc' })).toBeUndefined()
    expect(list?.get({ k1: 'a\u0000sb', k2: 'c' })).toStrictEqual({ k1: 'a\u0000sb', k2: 'c', v: 1 })
  })

  it('multiKeyStrategy prints floats with %f: values equal to six decimals share a key', () => {
    // fmt.Sprintf("%f", 1e-7) == fmt.Sprintf("%f", 2e-7) == "0.000000"
    const list = MapList.make(multi, [{ k1: 1e-7, k2: 'x', v: 1 }])
    expect(list?.get({ k1: 2e-7, k2: 'x' })).toStrictEqual({ k1: 1e-7, k2: 'x', v: 1 })
    // 0.0078125 is exactly halfway: %f rounds half to even, "0.007812", the text of 0.007812
    const tie = MapList.make(multi, [{ k1: 0.0078125, k2: 'x', v: 2 }])
    expect(tie?.get({ k1: 0.007812, k2: 'x' })).toStrictEqual({ k1: 0.0078125, k2: 'x', v: 2 })
    expect(tie?.get({ k1: 0.007813, k2: 'x' })).toBeUndefined()
    // the sign is kept: "-0.000000" is not "0.000000"
    expect(MapList.make(multi, [{ k1: -1e-7, k2: 'x' }])?.get({ k1: 1e-7, k2: 'x' })).toBeUndefined()
  })

  it('singleKeyStrategy uses the value itself as the map key: floats must be equal', () => {
    const list = MapList.make(single, [{ k: 1e-7, v: 1 }])
    expect(list?.get({ k: 2e-7 })).toBeUndefined()
    expect(list?.get({ k: 1e-7 })).toStrictEqual({ k: 1e-7, v: 1 })
  })

  it('a key is a bool, number or string of the same Go type: "1" is not 1, "true" is not true', () => {
    const list = MapList.make(multi, [{ k1: 1, k2: true, v: 1 }])
    expect(list?.get({ k1: '1', k2: true })).toBeUndefined()
    expect(list?.get({ k1: 1, k2: 'true' })).toBeUndefined()
    expect(list?.get({ k1: 1, k2: true })).toStrictEqual({ k1: 1, k2: true, v: 1 })
  })
})
