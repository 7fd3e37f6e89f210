import { describe, expect, it } from 'vitest'
import { type LabelSelector, labelSelectorAsSelector } from '../../../src/kube/labels.js'
import type { AdmissionAttributes } from '../../../src/policy/attributes.js'
import { matchObjectSelector, objectLabels } from '../../../src/policy/matching/object.js'
import { attrs, gvk, gvr } from './helpers.js'

// Transcribed from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/webhook/predicates/object/matcher_test.go (TestObjectSelector).

const nodeLevel1 = { apiVersion: 'v1', kind: 'Node', metadata: { labels: { runlevel: '1' } } }
const nodeLevel2 = { apiVersion: 'v1', kind: 'Node', metadata: { labels: { runlevel: '2' } } }
// corev1.NodeProxyOptions has no ObjectMeta: its JSON has no metadata
const nodeProxyOptions = { apiVersion: 'v1', kind: 'NodeProxyOptions' }
const runLevel1Excluder: LabelSelector = { matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['1'] }] }
const e = gvk('', '', '')
const r = gvr('', '', '')

const testcases: { name: string; objectSelector: LabelSelector; attrs: AdmissionAttributes; expectCall: boolean }[] = [
  {
    name: 'empty object selector matches everything',
    objectSelector: {},
    attrs: attrs(null, null, e, '', 'name', r, '', 'CREATE'),
    expectCall: true,
  },
  {
    name: 'matches new object',
    objectSelector: runLevel1Excluder,
    attrs: attrs(nodeLevel2, null, e, '', 'name', r, '', 'CREATE'),
    expectCall: true,
  },
  {
    name: 'matches old object',
    objectSelector: runLevel1Excluder,
    attrs: attrs(null, nodeLevel2, e, '', 'name', r, '', 'DELETE'),
    expectCall: true,
  },
  {
    name: 'does not match new object',
    objectSelector: runLevel1Excluder,
    attrs: attrs(nodeLevel1, null, e, '', 'name', r, '', 'CREATE'),
    expectCall: false,
  },
  {
    name: 'does not match old object',
    objectSelector: runLevel1Excluder,
    attrs: attrs(null, nodeLevel1, e, '', 'name', r, '', 'CREATE'),
    expectCall: false,
  },
  {
    name: 'does not match object that does not implement Object interface',
    objectSelector: runLevel1Excluder,
    attrs: attrs(nodeProxyOptions, null, e, '', 'name', r, '', 'CREATE'),
    expectCall: false,
  },
  {
    name: 'empty selector matches everything, including object that does not implement Object interface',
    objectSelector: {},
    attrs: attrs(nodeProxyOptions, null, e, '', 'name', r, '', 'CREATE'),
    expectCall: true,
  },
]

describe('TestObjectSelector', () => {
  for (const tc of testcases) {
    it(tc.name, () => {
      const [match, err] = matchObjectSelector(
        { getParsedObjectSelector: () => labelSelectorAsSelector(tc.objectSelector) },
        tc.attrs,
      )
      expect(err).toBeUndefined()
      expect(match).toBe(tc.expectCall)
    })
  }
})

describe('objectLabels (meta.Accessor(obj).GetLabels())', () => {
  it('reads metadata.labels; no metadata is no Object', () => {
    expect(objectLabels({ metadata: { labels: { a: 'b' } } })).toEqual({ a: 'b' })
    expect(objectLabels({ metadata: {} })).toEqual({})
    expect(objectLabels({ metadata: { labels: { a: 1 } } })).toEqual({})
    expect(objectLabels({ kind: 'PodExecOptions' })).toBeUndefined()
    expect(objectLabels(null)).toBeUndefined()
  })
  it('a selector error is an internal error', () => {
    const [m, err] = matchObjectSelector(
      { getParsedObjectSelector: () => labelSelectorAsSelector({ matchLabels: { 'a b': 'c' } }) },
      attrs(null, null, e, '', 'name', r, '', 'CREATE'),
    )
    expect(m).toBe(false)
    expect(err?.message).toMatch(/^Internal error occurred: key: Invalid value: "a b": name part must consist of/)
  })
})
