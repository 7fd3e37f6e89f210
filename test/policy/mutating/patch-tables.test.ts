import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../../src/engine/policy-set.js'

// kubernetes v1.37.2 staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch/
// json_patch_test.go TestJSONPatch and smd_test.go TestApplyConfiguration, every row (named as in Go;
// the Go table has "jsonPatch with false test operation" and "jsonPatch add map entry by key and value"
// twice, kept with a #2). The Go tests run the patcher alone on typed objects: here one policy and
// binding through PolicySet with `builtins: false` (no decoding, defaulting or native validation of the
// Deployment, which the rows' partial objects would not pass), compared with cmpopts.EquateEmpty-like
// dropping of empty maps and lists (the typed objects' zero values). Errors: the Go test checks
// strings.Contains on the patcher's error; kelp's Status message wraps it as
// `policy '<p>' with binding '<b>' denied request: <error>`.

type J = Record<string, unknown>

function dropEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropEmpty)
  if (v !== null && typeof v === 'object') {
    const out: J = {}
    for (const [k, x] of Object.entries(v as J)) {
      const y = dropEmpty(x)
      if (y === null || (typeof y === 'object' && Object.keys(y as J).length === 0)) continue
      out[k] = y
    }
    return out
  }
  return v
}

function admit(patch: J, object: J, oldObject?: J, trusted = false) {
  const set = PolicySet.build(
    [
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'p' },
        spec: {
          matchConstraints: {
            resourceRules: [
              {
                apiGroups: ['apps'],
                apiVersions: ['v1'],
                operations: ['CREATE', 'UPDATE'],
                resources: ['deployments'],
              },
            ],
          },
          reinvocationPolicy: 'Never',
          mutations: [patch],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicyBinding',
        metadata: { name: 'b' },
        spec: { policyName: 'p' },
      },
    ],
    { builtins: false, ...(trusted ? { trusted: true } : {}) },
  )
  expect(set.problems).toEqual([])
  const full = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' }, ...object }
  const r = set.validate(full, oldObject ? { oldObject: { ...full, ...oldObject }, operation: 'UPDATE' } : {})
  return { r, full }
}

interface Row {
  readonly name: string
  readonly expression: string
  readonly object: J
  readonly oldObject?: J
  readonly expected?: J
  readonly expectedErr?: string
  /**
   * The expression's type is refused when the policy is created (validation); the Go row runs the
   * patcher on it anyway: here a trusted set (not validated, as if stored) reaches the same runtime error.
   */
  readonly unvalidated?: boolean
}

function check(type: 'JSONPatch' | 'ApplyConfiguration', row: Row): void {
  const patch =
    type === 'JSONPatch'
      ? { patchType: 'JSONPatch', jsonPatch: { expression: row.expression } }
      : { patchType: 'ApplyConfiguration', applyConfiguration: { expression: row.expression } }
  const { r, full } = admit(patch, row.object, row.oldObject, row.unvalidated === true)
  if (row.expectedErr !== undefined) {
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toContain(row.expectedErr)
    return
  }
  expect(r.status?.message).toBeUndefined()
  const got = (r.mutatedObject ?? full) as J
  const want = { ...full, metadata: { ...(full.metadata as J) }, spec: {}, ...row.expected } as J
  if (row.expected?.metadata !== undefined) want.metadata = { ...(full.metadata as J), ...(row.expected.metadata as J) }
  expect(dropEmpty(got)).toEqual(dropEmpty(want))
}

const containers = (...names: (string | J)[]): J => ({
  template: { spec: { containers: names.map((n) => (typeof n === 'string' ? { name: n } : n)) } },
})
const labels = (l: Record<string, string>): J => ({ metadata: { labels: l } })

const jsonPatchRows: Row[] = [
  {
    name: 'jsonPatch with false test operation',
    expression:
      '[JSONPatch{op: "test", path: "/spec/replicas", value: 100}, JSONPatch{op: "replace", path: "/spec/replicas", value: 3}]',
    object: { spec: { replicas: 1 } },
    expected: { spec: { replicas: 1 } },
  },
  {
    name: 'jsonPatch with false test operation #2',
    expression:
      '[JSONPatch{op: "test", path: "/spec/replicas", value: 100}, JSONPatch{op: "replace", path: "/spec/replicas", value: 3}]',
    object: { spec: { replicas: 1 } },
    expected: { spec: { replicas: 1 } },
  },
  {
    name: 'jsonPatch with true test operation',
    expression:
      '[JSONPatch{op: "test", path: "/spec/replicas", value: 1}, JSONPatch{op: "replace", path: "/spec/replicas", value: 3}]',
    object: { spec: { replicas: 1 } },
    expected: { spec: { replicas: 3 } },
  },
  {
    name: 'jsonPatch remove to unset field',
    expression: '[JSONPatch{op: "remove", path: "/spec/replicas"}]',
    object: { spec: { replicas: 1 } },
    expected: { spec: {} },
  },
  {
    name: 'jsonPatch remove map entry by key',
    expression: '[JSONPatch{op: "remove", path: "/metadata/labels/y"}]',
    object: labels({ x: '1', y: '1' }),
    expected: labels({ x: '1' }),
  },
  {
    name: 'jsonPatch remove element in list',
    expression: '[JSONPatch{op: "remove", path: "/spec/template/spec/containers/1"}]',
    object: { spec: containers('a', 'b', 'c') },
    expected: { spec: containers('a', 'c') },
  },
  {
    name: 'jsonPatch copy map entry by key',
    expression: '[JSONPatch{op: "copy", from: "/metadata/labels/x", path: "/metadata/labels/y"}]',
    object: labels({ x: '1' }),
    expected: labels({ x: '1', y: '1' }),
  },
  {
    name: 'jsonPatch copy first element to end of list',
    expression:
      '[JSONPatch{op: "copy", from: "/spec/template/spec/containers/0", path: "/spec/template/spec/containers/-"}]',
    object: { spec: containers('a', 'b', 'c') },
    expected: { spec: containers('a', 'b', 'c', 'a') },
  },
  {
    name: 'jsonPatch move map entry by key',
    expression: '[JSONPatch{op: "move", from: "/metadata/labels/x", path: "/metadata/labels/y"}]',
    object: labels({ x: '1' }),
    expected: labels({ y: '1' }),
  },
  {
    name: 'jsonPatch move first element to end of list',
    expression:
      '[JSONPatch{op: "move", from: "/spec/template/spec/containers/0", path: "/spec/template/spec/containers/-"}]',
    object: { spec: containers('a', 'b', 'c') },
    expected: { spec: containers('b', 'c', 'a') },
  },
  {
    name: 'jsonPatch add map entry by key and value',
    expression: '[JSONPatch{op: "add", path: "/metadata/labels/x", value: "2"}]',
    object: labels({ y: '1' }),
    expected: labels({ y: '1', x: '2' }),
  },
  {
    name: 'jsonPatch add map value to field',
    expression: '[JSONPatch{op: "add", path: "/metadata/labels", value: {"y": "2"}}]',
    object: {},
    expected: labels({ y: '2' }),
  },
  {
    name: 'jsonPatch add map to existing map',
    expression: '[JSONPatch{op: "add", path: "/metadata/labels", value: {"y": "2"}}]',
    object: labels({ x: '1' }),
    expected: labels({ y: '2' }),
  },
  {
    name: 'jsonPatch add to start of list',
    expression: '[JSONPatch{op: "add", path: "/spec/template/spec/containers/0", value: {"name": "x"}}]',
    object: { spec: containers('a') },
    expected: { spec: containers('x', 'a') },
  },
  {
    name: 'jsonPatch add to end of list',
    expression: '[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: {"name": "x"}}]',
    object: { spec: containers('a') },
    expected: { spec: containers('a', 'x') },
  },
  {
    name: 'jsonPatch replace key in map',
    expression: '[JSONPatch{op: "replace", path: "/metadata/labels/x", value: "2"}]',
    object: labels({ y: '1' }),
    expected: labels({ y: '1', x: '2' }),
  },
  {
    name: 'jsonPatch replace map value of unset field',
    expression: '[JSONPatch{op: "replace", path: "/metadata/labels", value: {"y": "2"}}]',
    object: {},
    expected: labels({ y: '2' }),
  },
  {
    name: 'jsonPatch replace map value of set field',
    expression: '[JSONPatch{op: "replace", path: "/metadata/labels", value: {"y": "2"}}]',
    object: labels({ x: '1' }),
    expected: labels({ y: '2' }),
  },
  {
    name: 'jsonPatch replace first element in list',
    expression: '[JSONPatch{op: "replace", path: "/spec/template/spec/containers/0", value: {"name": "x"}}]',
    object: { spec: containers('a') },
    expected: { spec: containers('x') },
  },
  {
    name: 'jsonPatch add map entry by key and value #2',
    expression:
      '[JSONPatch{op: "add", path: "/spec", value: Object.spec{selector: Object.spec.selector{}, replicas: 10}}]',
    object: {},
    // Selector: &metav1.LabelSelector{} (EquateEmpty: an empty selector is no selector)
    expected: { spec: { replicas: 10 } },
  },
  {
    name: 'JSONPatch patch type has field access',
    expression: `[JSONPatch{op: "add", path: "/metadata/labels", value: {
      "op": JSONPatch{op: "opValue"}.op,
      "path": JSONPatch{path: "pathValue"}.path,
      "from": JSONPatch{from: "fromValue"}.from,
      "value": string(JSONPatch{value: "valueValue"}.value),
    }}]`,
    object: labels({}),
    expected: labels({ op: 'opValue', path: 'pathValue', from: 'fromValue', value: 'valueValue' }),
  },
  {
    name: 'JSONPatch patch type has field testing',
    expression: `[JSONPatch{op: "add", path: "/metadata/labels", value: {
      "op": string(has(JSONPatch{op: "opValue"}.op)),
      "path": string(has(JSONPatch{path: "pathValue"}.path)),
      "from": string(has(JSONPatch{from: "fromValue"}.from)),
      "value": string(has(JSONPatch{value: "valueValue"}.value)),
      "op-unset": string(has(JSONPatch{}.op)),
      "path-unset": string(has(JSONPatch{}.path)),
      "from-unset": string(has(JSONPatch{}.from)),
      "value-unset": string(has(JSONPatch{}.value)),
    }}]`,
    object: labels({}),
    expected: labels({
      op: 'true',
      path: 'true',
      from: 'true',
      value: 'true',
      'op-unset': 'false',
      'path-unset': 'false',
      'from-unset': 'false',
      'value-unset': 'false',
    }),
  },
  {
    name: 'JSONPatch patch type equality',
    expression: `[JSONPatch{op: "add", path: "/metadata/labels", value: {
      "empty": string(JSONPatch{} == JSONPatch{}),
      "partial": string(JSONPatch{op: "add"} == JSONPatch{op: "add"}),
      "same-all": string(JSONPatch{op: "add", path: "path", from: "from", value: 1} == JSONPatch{op: "add", path: "path", from: "from", value: 1}),
      "different-op": string(JSONPatch{op: "add"} == JSONPatch{op: "remove"}),
      "different-path": string(JSONPatch{op: "add", path: "x", from: "from", value: 1} == JSONPatch{op: "add", path: "path", from: "from", value: 1}),
      "different-from": string(JSONPatch{op: "add", path: "path", from: "x", value: 1} == JSONPatch{op: "add", path: "path", from: "from", value: 1}),
      "different-value": string(JSONPatch{op: "add", path: "path", from: "from", value: "1"} == JSONPatch{op: "add", path: "path", from: "from", value: 1}),
    }}]`,
    object: labels({}),
    expected: labels({
      empty: 'true',
      partial: 'true',
      'same-all': 'true',
      'different-op': 'false',
      'different-path': 'false',
      'different-from': 'false',
      'different-value': 'false',
    }),
  },
  {
    name: 'JSONPatch key escaping',
    expression: `[JSONPatch{op: "add", path: "/metadata/labels", value: {}},
      JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("k8s.io/x~y"), value: "true"}]`,
    object: labels({}),
    expected: labels({ 'k8s.io/x~y': 'true' }),
  },
  {
    name: 'jsonPatch with CEL initializer',
    expression: `[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: Object.spec.template.spec.containers{
      name: "x",
      ports: [Object.spec.template.spec.containers.ports{containerPort: 8080}],
    }}]`,
    object: { spec: containers('a') },
    expected: { spec: containers('a', { name: 'x', ports: [{ containerPort: 8080 }] }) },
  },
  {
    name: 'jsonPatch invalid CEL initializer type',
    expression: `[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: Object.spec.template.spec.containers{
      name: "x",
      ports: [Object.spec.template.spec.containers.portsZ{containerPort: 8080}]
    }}]`,
    object: { spec: containers('a') },
    expectedErr:
      ' mismatch: unexpected type name "Object.spec.template.spec.containers.portsZ", expected "Object.spec.template.spec.containers.ports", which matches field name path from root Object type',
  },
  {
    name: 'jsonPatch replace end of list with - not allowed',
    expression: '[JSONPatch{op: "replace", path: "/spec/template/spec/containers/-", value: {"name": "x"}}]',
    object: { spec: containers('a') },
    expectedErr:
      'JSON Patch: replace operation does not apply: doc is missing key: /spec/template/spec/containers/-: missing value',
  },
]

describe('patch/json_patch_test.go TestJSONPatch', () => {
  it.each(jsonPatchRows.map((r) => [r.name, r] as const))('%s', (_, row) => check('JSONPatch', row))
})

// "jsonPatch invalid CEL initializer field" (strict decoding error: unknown field
// "spec.template.spec.containers[1].ports[0].containerPortZ") is the typed decoding of the patched
// object, which kelp does with the built-ins on: here through the whole pipeline.
describe('patch/json_patch_test.go TestJSONPatch (decoding)', () => {
  it('jsonPatch invalid CEL initializer field', () => {
    const set = PolicySet.build([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'p' },
        spec: {
          matchConstraints: {
            resourceRules: [
              { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
            ],
          },
          reinvocationPolicy: 'Never',
          mutations: [
            {
              patchType: 'JSONPatch',
              jsonPatch: {
                expression: `[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: Object.spec.template.spec.containers{
                  name: "x", ports: [Object.spec.template.spec.containers.ports{containerPortZ: 8080}]}}]`,
              },
            },
          ],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicyBinding',
        metadata: { name: 'b' },
        spec: { policyName: 'p' },
      },
    ])
    const r = set.validate({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'default' },
      spec: {
        selector: { matchLabels: { a: 'a' } },
        template: { metadata: { labels: { a: 'a' } }, spec: { containers: [{ name: 'a', image: 'i' }] } },
      },
    })
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toContain(
      'strict decoding error: unknown field "spec.template.spec.containers[1].ports[0].containerPortZ"',
    )
  })
})

const smdRows: Row[] = [
  {
    name: 'apply configuration add to listType=map',
    expression: `Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
      volumes: [Object.spec.template.spec.volumes{name: "y"}]}}}}`,
    object: { spec: { template: { spec: { volumes: [{ name: 'x' }] } } } },
    expected: { spec: { template: { spec: { volumes: [{ name: 'x' }, { name: 'y' }] } } } },
  },
  {
    name: 'apply configuration update listType=map entry',
    expression: `Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
      volumes: [Object.spec.template.spec.volumes{name: "y", hostPath: Object.spec.template.spec.volumes.hostPath{path: "a"}}]}}}}`,
    object: { spec: { template: { spec: { volumes: [{ name: 'x' }, { name: 'y' }] } } } },
    expected: { spec: { template: { spec: { volumes: [{ name: 'x' }, { name: 'y', hostPath: { path: 'a' } }] } } } },
  },
  {
    name: 'apply configuration with conditionals',
    expression:
      'Object{spec: Object.spec{replicas: object.spec.replicas % 2 == 0?object.spec.replicas + 1:object.spec.replicas}}',
    object: { spec: { replicas: 2 } },
    expected: { spec: { replicas: 3 } },
  },
  {
    name: 'apply configuration with old object',
    expression:
      'Object{spec: Object.spec{replicas: oldObject.spec.replicas % 2 == 0?oldObject.spec.replicas + 1:oldObject.spec.replicas}}',
    object: { spec: { replicas: 1 } },
    oldObject: { spec: { replicas: 2 } },
    expected: { spec: { replicas: 3 } },
  },
  {
    name: 'complex apply configuration initialization',
    expression: `Object{spec: Object.spec{
      replicas: 1,
      template: Object.spec.template{
        metadata: Object.spec.template.metadata{labels: {"app": "nginx"}},
        spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{
          name: "nginx",
          image: "nginx:1.14.2",
          ports: [Object.spec.template.spec.containers.ports{containerPort: 80}],
          resources: Object.spec.template.spec.containers.resources{limits: {"cpu": "128M"}},
        }]}
      }
    }}`,
    object: {},
    expected: {
      spec: {
        replicas: 1,
        template: {
          metadata: { labels: { app: 'nginx' } },
          spec: {
            containers: [
              {
                name: 'nginx',
                image: 'nginx:1.14.2',
                ports: [{ containerPort: 80 }],
                resources: { limits: { cpu: '128M' } },
              },
            ],
          },
        },
      },
    },
  },
  {
    name: 'apply configuration with change to atomic',
    expression: 'Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"l": "v"}}}}',
    object: { spec: { replicas: 1 } },
    expectedErr: 'invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.selector',
  },
  {
    name: 'apply configuration with invalid type name',
    expression: 'Object{spec: Object.specx{replicas: 1}}',
    object: { spec: { replicas: 1 } },
    expectedErr:
      'type mismatch: unexpected type name "Object.specx", expected "Object.spec", which matches field name path from root Object type',
  },
  {
    name: 'apply configuration with invalid field name',
    expression: 'Object{spec: Object.spec{replicasx: 1}}',
    object: { spec: { replicas: 1 } },
    expectedErr: 'failed to convert patch object to typed object: .spec.replicasx: field not declared in schema',
  },
  {
    name: 'apply configuration with invalid return type',
    expression: `"I'm a teapot!"`,
    object: { spec: { replicas: 1 } },
    expectedErr: 'must evaluate to Object but got string',
    unvalidated: true,
  },
  {
    name: 'apply configuration with invalid initializer return type',
    expression: 'Object.spec.metadata{}',
    object: { spec: { replicas: 1 } },
    expectedErr: 'must evaluate to Object but got Object.spec.metadata',
    unvalidated: true,
  },
  {
    name: 'apply configuration with duplicate env vars in original object',
    expression: 'Object{spec: Object.spec{replicas: 3}}',
    object: {
      spec: {
        replicas: 1,
        template: {
          spec: {
            containers: [
              {
                name: 'nginx',
                env: [
                  { name: 'test', value: 'a' },
                  { name: 'test', value: 'b' },
                ],
              },
            ],
          },
        },
      },
    },
    expected: {
      spec: {
        replicas: 3,
        template: {
          spec: {
            containers: [
              {
                name: 'nginx',
                env: [
                  { name: 'test', value: 'a' },
                  { name: 'test', value: 'b' },
                ],
              },
            ],
          },
        },
      },
    },
  },
  {
    name: 'apply configuration modify existing env variable',
    expression: `Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
      containers: [Object.spec.template.spec.containers{name: "nginx",
        env: [Object.spec.template.spec.containers.env{name: "test", value: "c"}]}]}}}}`,
    object: {
      spec: {
        replicas: 1,
        template: {
          spec: {
            containers: [
              {
                name: 'nginx',
                env: [
                  { name: 'test', value: 'a' },
                  { name: 'test', value: 'b' },
                  { name: 'foo', value: 'bar' },
                ],
              },
            ],
          },
        },
      },
    },
    expected: {
      spec: {
        replicas: 1,
        template: {
          spec: {
            containers: [
              {
                name: 'nginx',
                env: [
                  { name: 'test', value: 'c' },
                  { name: 'foo', value: 'bar' },
                ],
              },
            ],
          },
        },
      },
    },
  },
]

describe('patch/smd_test.go TestApplyConfiguration', () => {
  it.each(smdRows.map((r) => [r.name, r] as const))('%s', (_, row) => check('ApplyConfiguration', row))
})
