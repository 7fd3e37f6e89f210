import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parse as parseYAML, stringify as stringifyYAML } from 'yaml'
import { decodeBuiltin } from '../../../src/builtin/index.js'
import { check } from '../../../src/check/index.js'
import { PolicySet } from '../../../src/engine/policy-set.js'
import { jsonDiff } from '../../../src/policy/mutating/diff.js'
import { applyPatch, celToJSON, type JSONValue } from '../../../src/policy/mutating/jsonpatch.js'
import { formatStoredYAML } from '../../../src/report/yaml.js'
import { createAdmissionHandler } from '../../../src/webhook/handler.js'

// Keys named like Object.prototype members are data like any other: a ConfigMap's data, labels,
// annotations and free-form fields may hold `__proto__`, `constructor`, `toString`, … and kube-apiserver
// stores each as given (a Go map), and a policy that adds one key leaves the others as they were. Every
// path of kelp that copies input (decode, default, the mutating policies' merge and JSON patch, CEL
// values both ways, the /mutate answer, the stored YAML) is checked to keep every such key and its value.
// The expected objects are built here from the input (what the apiserver stores), never from kelp.

type J = Record<string, unknown>

const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
]
/** ConfigMap data keys: `[-._a-zA-Z0-9]+`, so every member's name is one. */
const KEYS = [...PROTO_KEYS, 'a', 'x-y_z.w', 'added0']
/** Label and annotation keys must be qualified names: the members that start with `_` are not. */
const LABEL_KEYS = [...KEYS.filter((k) => /^[A-Za-z0-9]/.test(k)), 'app.kubernetes.io/name']

/** An object of the entries, every key an own data property (`__proto__` too), as JSON.parse makes it. */
const fromEntries = (entries: readonly (readonly [string, unknown])[]): J => Object.fromEntries(entries)

const mapArb = (keys: readonly string[], minLength = 0) =>
  fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), fc.constantFrom('v', '1', 'toString', '', 'constructor')), {
    selector: (e) => e[0],
    minLength,
    maxLength: keys.length,
  })

/** Own entries all the way down, keys sorted: what JSON holds, whatever the prototypes are. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain)
  if (typeof v === 'object' && v !== null) {
    expect(typeof v).not.toBe('function')
    return Object.keys(v)
      .sort()
      .map((k) => [k, plain((v as J)[k])])
  }
  expect(typeof v).not.toBe('function')
  return v
}
const expectSameJSON = (got: unknown, want: unknown) => expect(plain(got)).toEqual(plain(want))

/** RFC 6902 add / remove / replace on a copy, written here so the check does not rest on kelp's applier. */
function applyOps(doc: J, ops: readonly { op: string; path: string; value?: unknown }[]): J {
  const root = JSON.parse(JSON.stringify(doc)) as J
  for (const o of ops) {
    const parts = o.path
      .split('/')
      .slice(1)
      .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    const last = parts.pop() as string
    let c: J = root
    for (const p of parts) c = Object.hasOwn(c, p) ? (c[p] as J) : (undefined as never)
    if (o.op === 'remove') {
      expect(Object.hasOwn(c, last)).toBe(true)
      delete c[last]
    } else {
      expect(o).toHaveProperty('value')
      if (o.op === 'replace') expect(Object.hasOwn(c, last)).toBe(true)
      Object.defineProperty(c, last, { value: o.value, enumerable: true, writable: true, configurable: true })
    }
  }
  return root
}

const policy = (name: string, resources: J, mutations: J[]): J[] => [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: { resourceRules: [{ operations: ['CREATE', 'UPDATE'], ...resources }] },
      reinvocationPolicy: 'Never',
      mutations,
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: name },
  },
]
const ac = (expression: string): J => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } })
const jp = (expression: string): J => ({ patchType: 'JSONPatch', jsonPatch: { expression } })
const configMaps = { apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }
const widgets = { apiGroups: ['proto.example.com'], apiVersions: ['v1'], resources: ['widgets'] }

const nonEmpty = (k: string, m: J): J => (Object.keys(m).length > 0 ? fromEntries([[k, m]]) : {})

/** A ConfigMap as the apiserver stores it: empty maps are left out (omitempty). */
function configMap(data: J, labels: J, annotations: J): J {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'cm',
      namespace: 'default',
      ...nonEmpty('labels', labels),
      ...nonEmpty('annotations', annotations),
    },
    ...nonEmpty('data', data),
  }
}

/** A CRD whose schema names properties like Object.prototype members, beside free-form maps. */
const WIDGET_CRD: J = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.proto.example.com' },
  spec: {
    group: 'proto.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: fromEntries([
                  ['extra', { type: 'object', additionalProperties: { type: 'string' } }],
                  ['free', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
                  ['__proto__', { type: 'string', default: 'p' }],
                  ['constructor', { type: 'string' }],
                  ['toString', { type: 'integer' }],
                ]),
              },
            },
          },
        },
      },
    ],
  },
}
const widget = (spec: J, stored = false): J => ({
  apiVersion: 'proto.example.com/v1',
  kind: 'Widget',
  // the custom resource strategy's PrepareForCreate starts generation at 1
  metadata: { name: 'w', namespace: 'default', ...(stored ? { generation: 1 } : {}) },
  spec,
})

const NAMESPACE: J = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }

/** A CEL string literal. */
const lit = (s: string) => JSON.stringify(s)
/** A CEL map literal of string entries. */
const celMap = (entries: readonly (readonly [string, string])[]) =>
  `{${entries.map(([k, v]) => `${lit(k)}: ${lit(v)}`).join(', ')}}`

const RUNS = { numRuns: 60 }

describe('keys named like Object.prototype members survive every path that copies input', () => {
  it('decode and default: a ConfigMap keeps every data key, label and annotation', () => {
    fc.assert(
      fc.property(mapArb(KEYS), mapArb(LABEL_KEYS), mapArb(LABEL_KEYS), (d, l, a) => {
        const cm = configMap(fromEntries(d), fromEntries(l), fromEntries(a))
        const r = decodeBuiltin(cm)
        expect(r?.allowed).toBe(true)
        const o = r?.object as J
        expectSameJSON(o, cm)
      }),
      RUNS,
    )
  })

  it('ApplyConfiguration adding one data key leaves the others; /mutate answers a patch that does the same', () => {
    const set = PolicySet.build([...policy('add', configMaps, [ac('Object{data: {"added": "1"}}')]), NAMESPACE])
    const handler = createAdmissionHandler(() => set, { mode: 'mutate' })
    fc.assert(
      fc.property(mapArb(KEYS), mapArb(LABEL_KEYS), (d, l) => {
        const cm = configMap(fromEntries(d), fromEntries(l), {})
        const want = configMap(fromEntries([...d.filter(([k]) => k !== 'added'), ['added', '1']]), fromEntries(l), {})
        const r = set.validate(cm)
        expect(r.allowed).toBe(true)
        expectSameJSON(r.mutatedObject, want)
        expectSameJSON(applyOps(cm, r.patch ?? []), want)
        expectSameJSON(applyOps(cm, mutatePatch(handler, cm)), want)
      }),
      RUNS,
    )
  })

  it('a policy that only adds a label leaves every data key and value', () => {
    const set = PolicySet.build([
      ...policy('label', configMaps, [ac('Object{metadata: Object.metadata{labels: {"team": "blue"}}}')]),
      NAMESPACE,
    ])
    const handler = createAdmissionHandler(() => set, { mode: 'mutate' })
    fc.assert(
      fc.property(mapArb(KEYS), mapArb(LABEL_KEYS), mapArb(LABEL_KEYS), (d, l, a) => {
        const cm = configMap(fromEntries(d), fromEntries(l), fromEntries(a))
        const labels = fromEntries([...l.filter(([k]) => k !== 'team'), ['team', 'blue']])
        const want = configMap(fromEntries(d), labels, fromEntries(a))
        expectSameJSON(set.validate(cm).mutatedObject, want)
        const ops = mutatePatch(handler, cm)
        // only the labels are written
        for (const o of ops) expect(o.path).toMatch(/^\/metadata\/labels(\/|$)/)
        expectSameJSON(applyOps(cm, ops), want)
      }),
      RUNS,
    )
  })

  it('JSONPatch adding one data key leaves the others', () => {
    const set = PolicySet.build([
      ...policy('jp', configMaps, [jp('[JSONPatch{op: "add", path: "/data/added", value: "1"}]')]),
      NAMESPACE,
    ])
    fc.assert(
      fc.property(mapArb(KEYS, 1), (d) => {
        const cm = configMap(fromEntries(d), {}, {})
        const want = configMap(fromEntries([...d.filter(([k]) => k !== 'added'), ['added', '1']]), {}, {})
        expectSameJSON(set.validate(cm).mutatedObject, want)
      }),
      RUNS,
    )
  })

  it('CEL values both ways: a map literal written by either patch type, the object read back unchanged', () => {
    fc.assert(
      fc.property(mapArb(KEYS, 1), mapArb(KEYS), fc.boolean(), (d, m, useJSONPatch) => {
        const literal = celMap(m)
        const mutation = useJSONPatch
          ? jp(`[JSONPatch{op: "add", path: "/data", value: ${literal}}]`)
          : ac(`Object{data: ${literal}}`)
        const set = PolicySet.build([...policy('lit', configMaps, [mutation]), NAMESPACE])
        const cm = configMap(fromEntries(d), {}, {})
        // JSON Patch `add` replaces the map; the apply configuration merges into it
        const data = useJSONPatch
          ? fromEntries(m)
          : fromEntries([...d.filter(([k]) => !m.some(([x]) => x === k)), ...m])
        const r = set.validate(cm)
        expect(r.allowed).toBe(true)
        const got = (r.mutatedObject ?? r.builtin?.object) as J
        expectSameJSON(got.data ?? {}, data)
        // the request's data read through CEL and written back: nothing changes
        const same = PolicySet.build([
          ...policy('same', configMaps, [
            jp('[JSONPatch{op: "replace", path: "/data", value: object.data}]'),
            ac('Object{data: object.data}'),
          ]),
          NAMESPACE,
        ]).validate(cm)
        expect(same.allowed).toBe(true)
        expect(same.mutations ?? []).toEqual([])
        // celToJSON of the map as CEL holds it (a null-prototype object)
        const celMapValue = Object.assign(Object.create(null), fromEntries(m))
        expectSameJSON(celToJSON(celMapValue), fromEntries(m))
      }),
      { numRuns: 25 },
    )
  })

  it('JSON patch from one object to another (the /mutate answer) applies back to the target', () => {
    fc.assert(
      fc.property(mapArb(KEYS), mapArb(KEYS), (a, b) => {
        const from = { data: fromEntries(a), nested: fromEntries([['constructor', fromEntries(a)]]) }
        const to = { data: fromEntries(b), nested: fromEntries([['constructor', fromEntries(b)]]) }
        const ops = jsonDiff(from, to)
        expectSameJSON(applyOps(from, ops), to)
        expectSameJSON(applyPatch(from as JSONValue, ops), to)
      }),
      RUNS,
    )
  })

  it('custom resources: pruning, defaulting and the merge keep keys and declared properties of those names', () => {
    const set = PolicySet.build([
      WIDGET_CRD,
      ...policy('w', widgets, [ac('Object{spec: Object.spec{extra: {"added": "1"}, free: {"added": "1"}}}')]),
      NAMESPACE,
    ])
    fc.assert(
      fc.property(mapArb(KEYS), mapArb(KEYS), fc.boolean(), (e, f, withProto) => {
        const declared: [string, unknown][] = withProto
          ? [
              ['__proto__', 'q'],
              ['constructor', 'c'],
              ['toString', 3],
            ]
          : []
        const w = widget(fromEntries([['extra', fromEntries(e)], ['free', fromEntries(f)], ...declared]))
        const r = set.validate(w)
        expect(r.status?.message).toBeUndefined()
        expect(r.allowed).toBe(true)
        const add = (m: [string, string][]) => fromEntries([...m.filter(([k]) => k !== 'added'), ['added', '1']])
        // the `__proto__` property's default applies when it is not given
        const props: [string, unknown][] = withProto ? declared : [['__proto__', 'p']]
        const want = widget(fromEntries([['extra', add(e)], ['free', add(f)], ...props]), true)
        expectSameJSON(r.customResource?.object, want)
      }),
      { numRuns: 30 },
    )
  })

  it('kelp check -o yaml prints every key the stored object holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-proto-'))
    fc.assert(
      fc.property(mapArb(KEYS), mapArb(LABEL_KEYS), fc.boolean(), (d, l, asYAML) => {
        const cm = configMap(fromEntries(d), fromEntries(l), {})
        // both readers: JSON, and YAML (block style, every key plain)
        const file = join(dir, asYAML ? 'cm.yaml' : 'cm.json')
        writeFileSync(file, asYAML ? stringifyYAML(cm) : JSON.stringify(cm))
        const pfile = join(dir, 'policy.json')
        writeFileSync(
          pfile,
          JSON.stringify({
            apiVersion: 'v1',
            kind: 'List',
            items: policy('add', configMaps, [ac('Object{data: {"added": "1"}}')]),
          }),
        )
        const report = check({ paths: [file], policies: [pfile], kubeVersion: '1.37' as never, pack: 'off' }, 'stored')
        const docs = formatStoredYAML(report)
        const stored = parseYAML(docs) as J
        const want = fromEntries([...d.filter(([k]) => k !== 'added'), ['added', '1']])
        expectSameJSON(stored.data, want)
        expectSameJSON((stored.metadata as J).labels ?? {}, fromEntries(l))
      }),
      { numRuns: 16 },
    )
  })
})

/** The RFC 6902 operations POST /mutate answers for a CREATE of `object`. */
function mutatePatch(
  handler: ReturnType<typeof createAdmissionHandler>,
  object: J,
): { op: string; path: string; value?: unknown }[] {
  const review = {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u',
      kind: { group: '', version: 'v1', kind: String(object.kind) },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'cm',
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'alice' },
      object,
      oldObject: null,
    },
  }
  const r = handler.handle(JSON.stringify(review)) as { status: number; body: { response: J } }
  expect(r.status).toBe(200)
  expect(r.body.response.allowed).toBe(true)
  const patch = r.body.response.patch
  return patch === undefined ? [] : JSON.parse(Buffer.from(String(patch), 'base64').toString())
}
