import { describe, expect, it } from 'vitest'
import { decodeBuiltin } from '../../../src/builtin/index.js'
import { decodeCustomResource } from '../../../src/crd/structural/decode.js'
import { PolicySet } from '../../../src/engine/policy-set.js'
import { deepCopy } from '../../../src/kube/values/json.js'
import { JSONPatchType, MutationTypes } from '../../../src/policy/cel/mutation-types.js'
import { applyPatch, celToJSON, type JSONValue } from '../../../src/policy/mutating/jsonpatch.js'
import { applyConfiguration } from '../../../src/policy/mutating/smd.js'
import { createAdmissionHandler } from '../../../src/webhook/handler.js'

// One regression per place that read an inherited Object.prototype member or wrote through the
// `__proto__` setter (issue 25), and the int64s past 2^53 a mutation rounded. Expected values are
// kube-apiserver's: every key stored as given; cel-go's JSON conversion writes a JSONPatch value's int64
// past ±(2^53−1) as a decimal string (common/types/int.go ConvertToNative, jsonValueType), the
// ApplyConfiguration patcher keeps it an int64 (dynamic/objects.go convertField: Value()).

type J = Record<string, unknown>

/** JSON.parse keeps `__proto__` as an own key, as the apiserver's decoder keeps any key. */
const json = (text: string): J => JSON.parse(text)
const ownKeys = (o: unknown) => Object.keys(o as object).sort()
/** The own `__proto__` key's value (never the prototype). */
const protoKey = (o: unknown) => Object.getOwnPropertyDescriptor(o as object, '__proto__')?.value

const policy = (resources: J, mutation: J): J[] => [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec: {
      matchConstraints: { resourceRules: [{ operations: ['CREATE'], ...resources }] },
      reinvocationPolicy: 'Never',
      mutations: [mutation],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name: 'p' },
    spec: { policyName: 'p' },
  },
]
const configMaps = { apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }

const CONFIGMAP_SCHEMA = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object', properties: { name: { type: 'string' } } },
    data: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const

describe('smd.ts (ApplyConfiguration merge)', () => {
  it('merges into a map holding __proto__ and constructor without losing or replacing them', () => {
    const live = json('{"apiVersion":"v1","kind":"ConfigMap","data":{"__proto__":"a","constructor":"b","x":"y"}}')
    const out = applyConfiguration(live as never, json('{"data":{"added":"1"}}') as never, CONFIGMAP_SCHEMA as never)
    const data = out.data as J
    expect(ownKeys(data)).toEqual(['__proto__', 'added', 'constructor', 'x'])
    expect([protoKey(data), data.constructor, data.x, data.added]).toEqual(['a', 'b', 'y', '1'])
  })
  it('a field named constructor is not declared by a schema that does not declare it', () => {
    const set = PolicySet.build(
      policy(configMaps, {
        patchType: 'ApplyConfiguration',
        applyConfiguration: { expression: 'Object{metadata: Object.metadata{constructor: "x"}}' },
      }),
    )
    const r = set.validate({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } })
    expect(r.status?.message).toBe(
      "policy 'p' with binding 'p' denied request: error applying patch: failed to convert patch object to typed object: .metadata.constructor: field not declared in schema",
    )
  })
  it('an Object field named __proto__ is a field (planner.ts), not declared in the schema', () => {
    const set = PolicySet.build(
      policy(configMaps, {
        patchType: 'ApplyConfiguration',
        applyConfiguration: { expression: 'Object{__proto__: "x"}' },
      }),
    )
    const r = set.validate({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } })
    expect(r.status?.message).toContain(
      'failed to convert patch object to typed object: .__proto__: field not declared',
    )
  })
  it('an int64 past 2^53 set by ApplyConfiguration stays exact (smd.ts numeric check, mutator.ts conversion)', () => {
    const crd = json(
      '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gizmos.ex.com"},"spec":{"group":"ex.com","scope":"Namespaced","names":{"plural":"gizmos","singular":"gizmo","kind":"Gizmo","listKind":"GizmoList"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"n":{"type":"integer"},"l":{"type":"array","items":{"type":"integer"},"x-kubernetes-list-type":"set"}}}}}}}]}}',
    )
    const set = PolicySet.build([
      crd,
      ...policy(
        { apiGroups: ['ex.com'], apiVersions: ['v1'], resources: ['gizmos'] },
        {
          patchType: 'ApplyConfiguration',
          applyConfiguration: { expression: 'Object{spec: Object.spec{n: 9007199254740993, l: [9007199254740993]}}' },
        },
      ),
    ])
    const r = set.validate({ apiVersion: 'ex.com/v1', kind: 'Gizmo', metadata: { name: 'g', namespace: 'default' } })
    expect(r.status?.message).toBeUndefined()
    expect((r.customResource?.object as J | undefined)?.spec).toEqual({ n: 9007199254740993n, l: [9007199254740993n] })
  })
})

describe('jsonpatch.ts (JSONPatch application, CEL values as JSON)', () => {
  it('applying a patch keeps a __proto__ key (clone) and adds one as a key (add, replace)', () => {
    const doc = json('{"data":{"__proto__":"a","constructor":"b"}}')
    const out = applyPatch(doc as JSONValue, [
      { op: 'add', path: '/data/toString', value: 'c' },
      { op: 'replace', path: '/data/constructor', value: 'B' },
      { op: 'add', path: '/labels', value: json('{"__proto__":"x"}') as JSONValue },
    ]) as J
    expect(ownKeys(out.data)).toEqual(['__proto__', 'constructor', 'toString'])
    expect(protoKey(out.data)).toBe('a')
    expect((out.data as J).constructor).toBe('B')
    expect(ownKeys(out.labels)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(out.labels)).toBe(Object.prototype)
  })
  it('celToJSON keeps a CEL map key __proto__', () => {
    const m = Object.assign(Object.create(null), json('{"__proto__":"a","valueOf":"b"}'))
    const out = celToJSON(m) as J
    expect(ownKeys(out)).toEqual(['__proto__', 'valueOf'])
    expect(out.valueOf).toBe('b')
  })
  it("an int past ±(2^53−1) is cel-go's decimal string; inside an Object…{} a float64", () => {
    expect(celToJSON(9007199254740993n)).toBe('9007199254740993')
    expect(celToJSON(-9007199254740995n)).toBe('-9007199254740995')
    expect(celToJSON([9007199254740993n, 1])).toEqual(['9007199254740993', 1])
    const object = new MutationTypes().newValue('Object.spec', { n: 9007199254740993n })
    expect(celToJSON(object)).toEqual({ n: 9007199254740992 })
  })
  it('JSONPatch has no field constructor (mutation-types.ts)', () => {
    expect(new MutationTypes().findFieldType(JSONPatchType, 'constructor')).toBeUndefined()
    expect(new MutationTypes().findFieldType(JSONPatchType, 'toString')).toBeUndefined()
  })
})

describe('decode.ts, defaults.ts, index.ts (built-in decoding)', () => {
  it('a ConfigMap keeps its data key __proto__', () => {
    const r = decodeBuiltin(
      json('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"__proto__":"a","b":"c"}}'),
    )
    expect(ownKeys(r?.object?.data)).toEqual(['__proto__', 'b'])
    expect(protoKey(r?.object?.data)).toBe('a')
  })
  it('a Secret keeps its stringData key __proto__ (merged into data)', () => {
    const r = decodeBuiltin(
      json('{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"stringData":{"__proto__":"a"}}'),
    )
    expect(protoKey(r?.object?.data)).toBe('YQ==')
  })
  it('a Namespace label __proto__ is kept by defaulting (and refused by validation, as the apiserver does)', () => {
    const set = PolicySet.build([])
    const r = set.validate(
      json('{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n","labels":{"__proto__":"x"}}}'),
    )
    expect(r.allowed).toBe(false)
    expect(r.builtin?.message).toContain('metadata.labels: Invalid value: "__proto__"')
  })
  it('a LimitRange default named __proto__ is copied to defaultRequest', () => {
    const r = decodeBuiltin(
      json(
        '{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"l"},"spec":{"limits":[{"type":"Container","max":{"__proto__":"1"}}]}}',
      ),
    )
    const spec = r?.object?.spec as { limits: J[] }
    const item = spec.limits[0] as J
    expect(ownKeys(item.default)).toEqual(['__proto__'])
    expect(ownKeys(item.defaultRequest)).toEqual(['__proto__'])
  })
})

describe('custom resources (kube/values/json.ts deepCopy, crd/structural/defaulting.ts)', () => {
  const schema = json(
    '{"type":"object","properties":{"spec":{"type":"object","properties":{"__proto__":{"type":"string","default":"d"},"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}',
  )
  it('the copy keeps a __proto__ key; a property named __proto__ is defaulted', () => {
    expect(ownKeys(deepCopy(json('{"__proto__":{"a":1}}')))).toEqual(['__proto__'])
    const d = decodeCustomResource(
      json('{"apiVersion":"x/v1","kind":"X","metadata":{"name":"x"},"spec":{"free":{"__proto__":"kept"}}}'),
      schema as never,
    )
    const spec = d.object?.spec as J
    expect(ownKeys(spec)).toEqual(['__proto__', 'free'])
    expect(protoKey(spec)).toBe('d')
    expect(protoKey(spec.free)).toBe('kept')
  })
})

describe('POST /mutate', () => {
  const review = (object: string) =>
    `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"1","kind":{"group":"","version":"v1","kind":"ConfigMap"},"resource":{"group":"","version":"v1","resource":"configmaps"},"name":"cm","namespace":"default","operation":"CREATE","userInfo":{"username":"a"},"object":${object},"oldObject":null}}`
  const patchOf = (set: PolicySet, object: string) => {
    const r = createAdmissionHandler(() => set, { mode: 'mutate' }).handle(review(object)) as { body: { response: J } }
    expect(r.body.response.allowed).toBe(true)
    return Buffer.from(String(r.body.response.patch), 'base64').toString()
  }
  const cm =
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default","annotations":{"a":"b"}},"data":{"__proto__":"a","constructor":"b","toString":"c","valueOf":"d","hasOwnProperty":"e"}}'
  it('a policy that only adds a label answers only that label (no remove, no replace without a value)', () => {
    const set = PolicySet.build([
      ...policy(configMaps, {
        patchType: 'ApplyConfiguration',
        applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"team": "blue"}}}' },
      }),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
    ])
    const labelled = cm.replace('"annotations":{"a":"b"}', '"labels":{"constructor":"c","valueOf":"v"}')
    expect(patchOf(set, labelled)).toBe('[{"op":"add","path":"/metadata/labels/team","value":"blue"}]')
  })
  it('an ApplyConfiguration adding one data key answers only that key', () => {
    const set = PolicySet.build([
      ...policy(configMaps, {
        patchType: 'ApplyConfiguration',
        applyConfiguration: { expression: 'Object{data: {"added": "1"}}' },
      }),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
    ])
    expect(patchOf(set, cm)).toBe('[{"op":"add","path":"/data/added","value":"1"}]')
  })
  it('a JSONPatch int64 past 2^53 is answered as the string cel-go writes, digits exact', () => {
    const set = PolicySet.build([
      ...policy(configMaps, {
        patchType: 'JSONPatch',
        jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/annotations/n", value: 9007199254740993}]' },
      }),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
    ])
    expect(patchOf(set, cm)).toBe('[{"op":"add","path":"/metadata/annotations/n","value":"9007199254740993"}]')
  })
})
