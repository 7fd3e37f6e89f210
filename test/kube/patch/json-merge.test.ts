import { describe, expect, it } from 'vitest'
import {
  createMergePatch,
  createThreeWayJSONMergePatch,
  keepOrDeleteNullInObj,
  mergePatch,
} from '../../../src/kube/patch/json-merge.js'
import {
  PreconditionFailedError,
  requireKeyUnchanged,
  requireMetadataKeyUnchanged,
} from '../../../src/kube/patch/mergepatch.js'
import { createJSONMergePatchTestCaseData, filterNullTestCaseData } from './fixtures/jsonmergepatch-cases.js'
import { type Map, yaml } from './helpers.js'

// apimachinery pkg/util/jsonmergepatch/patch_test.go (fixtures/jsonmergepatch-cases.ts holds its
// tables verbatim); applying with json-patch v4 MergePatch as the Go test does.

describe('TestKeepOrDeleteNullInObj', () => {
  type C = { description: string; originalObj: Map; expectedWithNull: Map; expectedWithoutNull: Map }
  const cases = (yaml(filterNullTestCaseData) as { testCases: C[] }).testCases
  it.each(cases.map((c) => [c.description, c] as const))('%s', (_d, c) => {
    expect(keepOrDeleteNullInObj(c.originalObj ?? {}, true)).toEqual(c.expectedWithNull ?? {})
    expect(keepOrDeleteNullInObj(c.originalObj ?? {}, false)).toEqual(c.expectedWithoutNull ?? {})
  })
})

describe('TestCreateThreeWayJSONMergePatch', () => {
  type C = { description: string; original?: Map; modified?: Map; current?: Map; threeWay?: Map; result?: Map }
  const cases = (yaml(createJSONMergePatchTestCaseData) as { testCases: C[] }).testCases
  it.each(cases.map((c) => [c.description, c] as const))('%s', (_d, c) => {
    const actual = createThreeWayJSONMergePatch(c.original ?? null, c.modified ?? null, c.current ?? null)
    expect(actual).toEqual(c.threeWay ?? {})
    expect(mergePatch(c.current ?? {}, actual)).toEqual(c.result ?? {})
  })
})

// kubectl apply's preconditions for a custom resource (patcher.go buildMergePatch)
describe('preconditions', () => {
  const pre = [requireKeyUnchanged('apiVersion'), requireKeyUnchanged('kind'), requireMetadataKeyUnchanged('name')]
  it('a renamed object fails them', () => {
    const o = { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x' } }
    const m = { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'y' } }
    expect(() => createThreeWayJSONMergePatch(o, m, o, ...pre)).toThrow(PreconditionFailedError)
    expect(() => createThreeWayJSONMergePatch(o, m, o, ...pre)).toThrow(
      'precondition failed for: map[metadata:map[name:y]]',
    )
  })
})

// RFC 7386 appendix A, the examples as json-patch v4 applies them
describe('RFC 7386 examples', () => {
  const cases: [Map, Map, Map][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ]
  it.each(cases)('%j + %j', (doc, patch, expected) => {
    expect(mergePatch(doc, patch)).toEqual(expected)
  })
  it('keeps keys named like Object.prototype members', () => {
    const doc = JSON.parse('{"__proto__":{"a":1},"constructor":"x"}') as Map
    const patch = JSON.parse('{"__proto__":{"b":2},"toString":null}') as Map
    const out = mergePatch(doc, patch)
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(JSON.stringify(out)).toBe('{"__proto__":{"a":1,"b":2},"constructor":"x"}')
    expect(JSON.stringify(createMergePatch(doc, out))).toBe('{"__proto__":{"b":2}}')
  })
})
