import { describe, expect, it } from 'vitest'
import { ConflictError } from '../../../src/kube/patch/mergepatch.js'
import {
  componentsResolver,
  type LookupPatchMeta,
  PatchMetaFromOpenAPIV3,
  PatchMetaFromStructSchema,
} from '../../../src/kube/patch/patch-meta.js'
import {
  createThreeWayMergePatch,
  createTwoWayMergePatch,
  parseJSONMap,
  sortMergeListsByName,
  strategicMergePatch,
  strategicMergePatchJSON,
} from '../../../src/kube/patch/strategic-merge.js'
import {
  createStrategicMergePatchTestCaseData,
  customStrategicMergePatchRawTestCases,
  customStrategicMergePatchTestCaseData,
  numberConversionTestCases,
  type RawTestCase,
  replaceRawExtensionPatchTestCases,
  sortMergeListTestCaseData,
  strategicMergePatchRawTestCases,
  unknownFieldTestCases,
} from './fixtures/strategicpatch-cases.js'
import { mergeItemSchemas, precisionItemSchemas } from './fixtures/test-types.js'
import { type Map, yaml, yamlMap } from './helpers.js'

// apimachinery pkg/util/strategicpatch/patch_test.go, case by case (fixtures/strategicpatch-cases.ts
// holds its tables verbatim). The Go test runs each case with three lookups of the MergeItem test type
// (the struct's tags, OpenAPI v2, OpenAPI v3 testdata/swagger-merge-item-v3.json); here the v3
// components (fixtures/test-types.ts, written from the struct tags) are read by kubectl's lookup (PatchMetaFromOpenAPIV3) and by the Go-types lookup kelp uses
// for built-in kinds (PatchMetaFromStructSchema).

type Doc = { components: { schemas: Record<string, Map> } }
const mergeItemDoc: Doc = { components: { schemas: mergeItemSchemas as Record<string, Map> } }
const precisionDoc: Doc = { components: { schemas: precisionItemSchemas as Record<string, Map> } }

function schemasOf(doc: Doc, root: string): [string, LookupPatchMeta][] {
  const resolve = componentsResolver(doc.components.schemas)
  return [
    ['PatchMetaFromOpenAPIV3', new PatchMetaFromOpenAPIV3(resolve, doc.components.schemas[root])],
    [
      'PatchMetaFromStructSchema',
      new PatchMetaFromStructSchema(resolve, { schema: doc.components.schemas[root] as Map, typeName: root }),
    ],
  ]
}
const schemas = schemasOf(mergeItemDoc, 'mergeItem')

interface TestCase {
  description: string
  original?: Map | null
  modified?: Map | null
  current?: Map | null
  twoWay?: Map | null
  threeWay?: Map | null
  result?: Map | null
  twoWayResult?: Map | null
}
const testCases = (text: string) => (yaml(text) as { testCases: TestCase[] }).testCases

/** testPatchApplication: the patch applied, compared with the expected object (or the expected error). */
function testPatchApplication(
  original: Map | null,
  patch: Map,
  expected: Map | null,
  schema: LookupPatchMeta,
  expectedError?: string,
) {
  if (expectedError !== undefined && expectedError !== '') {
    expect(() => strategicMergePatch(original, patch, schema)).toThrow(expectedError)
    return
  }
  expect(strategicMergePatch(original, patch, schema)).toEqual(expected ?? {})
}

/** testThreeWayPatch: overwrite=false first; a conflict is expected exactly for cases named so, then forced. */
function testThreeWayPatch(
  c: { description: string },
  original: Map | null,
  modified: Map | null,
  current: Map | null,
  expected: Map | null,
  result: Map | null,
  schema: LookupPatchMeta,
  expectedError?: string,
) {
  let actual: Map
  try {
    actual = createThreeWayMergePatch(original, modified, current, schema, false)
  } catch (e) {
    if (!(e instanceof ConflictError)) throw e
    expect(c.description).toContain('conflict')
    if (result === null || Object.keys(result).length === 0) return
    actual = createThreeWayMergePatch(original, modified, current, schema, true)
    expect(actual).toEqual(expected ?? {})
    testPatchApplication(current, actual, result, schema, expectedError)
    return
  }
  expect(c.description).not.toContain('conflict')
  expect(result).not.toBeNull()
  expect(actual).toEqual(expected ?? {})
  testPatchApplication(current, actual, result, schema, expectedError)
}

describe.each(schemas)('TestSortMergeLists (%s)', (_name, schema) => {
  const cases = (
    yaml(sortMergeListTestCaseData) as { testCases: { description: string; original: Map; sorted: Map }[] }
  ).testCases
  it.each(cases.map((c) => [c.description, c] as const))('%s', (_d, c) => {
    expect(sortMergeListsByName(c.original, schema)).toEqual(c.sorted)
  })
})

describe.each(schemas)('TestCustomStrategicMergePatch (%s)', (_name, schema) => {
  const sorted = (m: Map | null | undefined) => (m == null ? null : sortMergeListsByName(m, schema))
  it.each(testCases(customStrategicMergePatchTestCaseData).map((c) => [c.description, c] as const))('%s', (_d, c) => {
    testPatchApplication(sorted(c.original), sorted(c.twoWay) ?? {}, sorted(c.twoWayResult ?? c.modified), schema)
  })
  it.each(customStrategicMergePatchRawTestCases.map((c) => [c.description, c] as const))('%s', (_d, c) => {
    testPatchApplication(
      yamlMap(c.original),
      yamlMap(c.twoWay) ?? {},
      yamlMap(c.twoWayResult ?? c.modified),
      schema,
      c.expectedError,
    )
  })
})

describe.each(schemas)('TestStrategicMergePatch (%s)', (_name, schema) => {
  it('bad original, bad patch', () => {
    expect(() => strategicMergePatchJSON('<THIS IS NOT JSON>', '{}', schema)).toThrow('invalid JSON document')
    expect(() => strategicMergePatchJSON('{}', '<THIS IS NOT JSON>', schema)).toThrow('invalid JSON document')
  })

  const sorted = (m: Map | null | undefined) => (m == null ? null : sortMergeListsByName(m, schema))
  for (const c of testCases(createStrategicMergePatchTestCaseData)) {
    it(`${c.description}/TwoWay`, () => {
      const original = sorted(c.original)
      const actual = createTwoWayMergePatch(original, sorted(c.modified), schema)
      expect(actual).toEqual(sorted(c.twoWay) ?? {})
      testPatchApplication(original, actual, sorted(c.twoWayResult ?? c.modified), schema)
    })
    it(`${c.description}/ThreeWay`, () => {
      testThreeWayPatch(
        c,
        sorted(c.original),
        sorted(c.modified),
        sorted(c.current),
        sorted(c.threeWay),
        sorted(c.result),
        schema,
      )
    })
  }

  for (const c of strategicMergePatchRawTestCases) rawCase(c, schema)
})

function rawCase(c: RawTestCase, schema: LookupPatchMeta) {
  it(`${c.description}/TwoWay`, () => {
    const original = yamlMap(c.original)
    const actual = createTwoWayMergePatch(original, yamlMap(c.modified), schema)
    expect(actual).toEqual(yamlMap(c.twoWay) ?? {})
    testPatchApplication(original, actual, yamlMap(c.twoWayResult ?? c.modified), schema, c.expectedError)
  })
  it(`${c.description}/ThreeWay`, () => {
    testThreeWayPatch(
      c,
      yamlMap(c.original),
      yamlMap(c.modified),
      yamlMap(c.current),
      yamlMap(c.threeWay),
      yamlMap(c.result),
      schema,
      c.expectedError,
    )
  })
}

describe.each(schemas)('TestReplaceWithRawExtension (%s)', (_name, schema) => {
  for (const c of replaceRawExtensionPatchTestCases) rawCase(c, schema)
})

describe.each(schemasOf(precisionDoc, 'precisionItem'))('TestNumberConversion (%s)', (_name, schema) => {
  it.each(numberConversionTestCases.map((c) => [c['name'] as string, c] as const))('%s', (name, tc) => {
    // JavaScript numbers hold int64 values up to 2^53 only: 9223372036854775807 is read as 2^63
    if (name === 'int64 max') return
    const old = parseJSONMap(tc['old'])
    const patch = createTwoWayMergePatch(old, parseJSONMap(tc['new']), schema)
    expect(patch).toEqual(JSON.parse(tc['expectedPatch'] as string))
    expect(strategicMergePatch(old, patch, schema)).toEqual(JSON.parse(tc['expectedResult'] as string))
  })
})

describe('TestUnknownField', () => {
  for (const tc of unknownFieldTestCases)
    describe(tc['name'] as string, () => {
      it.each(schemas)('%s/TwoWay', (_n, schema) => {
        const original = parseJSONMap(tc['original'])
        let twoWay: Map
        try {
          twoWay = createTwoWayMergePatch(original, parseJSONMap(tc['modified']), schema)
        } catch (e) {
          expect(tc['expectedTwoWayErr']).toBeTruthy()
          expect((e as Error).message).toContain(tc['expectedTwoWayErr'])
          return
        }
        expect(twoWay).toEqual(JSON.parse(tc['expectedTwoWay'] as string))
        expect(strategicMergePatch(original, twoWay, schema)).toEqual(JSON.parse(tc['expectedTwoWayResult'] as string))
      })
      it.each(schemas)('%s/ThreeWay', (_n, schema) => {
        const current = parseJSONMap(tc['current'])
        let threeWay: Map
        try {
          threeWay = createThreeWayMergePatch(
            parseJSONMap(tc['original']),
            parseJSONMap(tc['modified']),
            current,
            schema,
            false,
          )
        } catch (e) {
          expect(tc['expectedThreeWayErr']).toBeTruthy()
          expect((e as Error).message).toContain(tc['expectedThreeWayErr'])
          return
        }
        expect(threeWay).toEqual(JSON.parse(tc['expectedThreeWay'] as string))
        expect(strategicMergePatch(current, threeWay, schema)).toEqual(
          JSON.parse(tc['expectedThreeWayResult'] as string),
        )
      })
    })
})

describe('keys named like Object.prototype members', () => {
  const [, schema] = schemas[1] as [string, LookupPatchMeta]
  it('are data in originals, patches and the patches made', () => {
    const original = JSON.parse('{"simpleMap":{"__proto__":"a","constructor":"b"},"name":"x"}') as Map
    const modified = JSON.parse('{"simpleMap":{"__proto__":"c","toString":"d"},"name":"x"}') as Map
    const patch = createTwoWayMergePatch(original, modified, schema)
    expect(JSON.stringify(patch)).toBe('{"simpleMap":{"__proto__":"c","toString":"d","constructor":null}}')
    const result = strategicMergePatch(original, patch, schema)
    expect(Object.getPrototypeOf(result['simpleMap'])).toBe(Object.prototype)
    expect(JSON.stringify(result)).toBe('{"simpleMap":{"__proto__":"c","toString":"d"},"name":"x"}')
  })
  it('merge keys and $retainKeys entries too', () => {
    const current = JSON.parse('{"mergingList":[{"name":"__proto__","value":"1"}]}') as Map
    const patch = JSON.parse('{"mergingList":[{"name":"__proto__","other":"2"}]}') as Map
    expect(strategicMergePatch(current, patch, schema)).toEqual({
      mergingList: [{ name: '__proto__', value: '1', other: '2' }],
    })
  })
})
