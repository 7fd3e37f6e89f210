import { describe, expect, test } from 'vitest'
import { goBase64Decode } from '../../src/builtin/decode.js'
import { decodeBuiltin } from '../../src/builtin/index.js'

type O = Record<string, any>
const obj = (r: ReturnType<typeof decodeBuiltin>): O => (r?.object ?? {}) as O
const deployment = (spec: O, metadata: O = { name: 'd' }) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata,
  spec,
})
const message = (o: O, fieldValidation?: 'Strict' | 'Warn' | 'Ignore') =>
  decodeBuiltin(o, fieldValidation ? { fieldValidation } : {})?.message

describe('strict field validation (kubernetes test/integration/apiserver/field_validation_test.go)', () => {
  // invalidBodyJSON of testFieldValidationPost without its duplicate keys (a JS object cannot hold
  // them; the apiserver adds `duplicate field "metadata.name"` etc. in the same places)
  const invalidBody = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'n', labels: { app: 'nginx' }, unknownMeta: 'metaVal' },
    spec: {
      unknown1: 'val1',
      unknownDupe: 'valDupe2',
      paused: false,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: {
          containers: [{ name: 'nginx', image: 'nginx:latest', unknownNested: 'val1', imagePullPolicy: 'Never' }],
        },
      },
    },
  }
  const unknown = [
    'unknown field "metadata.unknownMeta"',
    'unknown field "spec.unknown1"',
    'unknown field "spec.unknownDupe"',
    'unknown field "spec.template.spec.containers[0].unknownNested"',
  ]
  test('post-strict-validation', () => {
    const r = decodeBuiltin(invalidBody)
    expect(r?.allowed).toBe(false)
    expect(r?.status?.code).toBe(400)
    expect(r?.status?.reason).toBe('BadRequest')
    expect(r?.message).toBe(
      `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ${unknown.join(', ')}`,
    )
  })
  test('post-warn-validation', () => {
    const r = decodeBuiltin(invalidBody, { fieldValidation: 'Warn' })
    expect(r?.allowed).toBe(true)
    expect(r?.warnings).toEqual(unknown)
    expect(obj(r).spec.template.spec.containers[0]).not.toHaveProperty('unknownNested')
  })
  test('post-ignore-validation', () => {
    const r = decodeBuiltin(invalidBody, { fieldValidation: 'Ignore' })
    expect(r?.allowed).toBe(true)
    expect(r?.warnings).toEqual([])
  })
  test('the issue example: spec.replica', () => {
    expect(message(deployment({ replica: 2 }))).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"',
    )
  })
  test('keys are case-sensitive; map keys are part of the path', () => {
    expect(
      message(
        deployment({
          Replicas: 1,
          template: {
            spec: { containers: [{ name: 'c', resources: { limits: {} }, env: [{ name: 'a', valueFrom: { x: 1 } }] }] },
          },
        }),
      ),
    ).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.Replicas", unknown field "spec.template.spec.containers[0].env[0].valueFrom.x"',
    )
  })
})

describe('type errors: encoding/json UnmarshalTypeError through sigs.k8s.io/json', () => {
  const pre = 'Deployment in version "v1" cannot be handled as a Deployment: '
  test.each([
    [
      { replicas: 'three' },
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      { replicas: 1.5 },
      'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      { replicas: 3000000000 },
      'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [{ replicas: true }, 'json: cannot unmarshal bool into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ paused: 'yes' }, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool'],
    [
      { template: 'x' },
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.template of type v1.PodTemplateSpec',
    ],
    [
      { template: { spec: { containers: {} } } },
      'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
    ],
    // indexes are not in the error context's path
    [
      { template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] } } },
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
    ],
    [
      { template: { spec: { containers: [{ name: 'c', args: [1] }] } } },
      'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.args of type string',
    ],
    [
      { strategy: { type: 1 } },
      'json: cannot unmarshal number into Go struct field DeploymentStrategy.spec.strategy.type of type v1.DeploymentStrategyType',
    ],
    // nor are map keys
    [
      { selector: { matchLabels: { a: 1 } } },
      'json: cannot unmarshal number into Go struct field LabelSelector.spec.selector.matchLabels of type string',
    ],
    // an embedded struct's Go field name is (EphemeralContainer embeds EphemeralContainerCommon)
    [
      { template: { spec: { ephemeralContainers: [{ name: 'e', image: 5 }] } } },
      'json: cannot unmarshal number into Go struct field EphemeralContainer.spec.template.spec.ephemeralContainers.EphemeralContainerCommon.image of type string',
    ],
    // the first saved error wins, first in the order the apiserver reads what kubectl sends: written from a map,
    // every object's keys sorted (`paused` before `replicas`, whatever the manifest's order; the real apiserver
    // answers so: test/e2e/differential/cases/yaml-flow.yaml)
    [
      { replicas: 'a', paused: 'b' },
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool',
    ],
    [
      { paused: 'b', replicas: 'a' },
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool',
    ],
    // a later key's error inside an earlier key's object: the paths compare key by key, indexes as numbers
    [
      { template: { spec: { containers: [{ name: 'c', image: 1 }], activeDeadlineSeconds: 'x' } }, paused: 'b' },
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool',
    ],
    [
      {
        template: {
          spec: {
            containers: [
              { name: 'c', image: 'i' },
              { name: 'd', image: 1 },
            ],
            activeDeadlineSeconds: 'x',
          },
        },
      },
      'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.activeDeadlineSeconds of type int64',
    ],
  ])('%j', (spec, error) => expect(message(deployment(spec))).toBe(pre + error))

  test('a map: its keys in byte order (ConfigMap data, as the real apiserver answers: cases/yaml-flow.yaml)', () => {
    expect(
      message({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { enabled: true, count: 10 } }),
    ).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    )
  })
  test('metadata', () => {
    expect(message(deployment({}, { name: 'd', labels: { a: 1 } }))).toBe(
      `${pre}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`,
    )
  })
  test('a type error hides the unknown fields', () => {
    expect(message(deployment({ replica: 1, replicas: 'x' }))).toBe(
      `${pre}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`,
    )
  })
  test('null leaves values as they are and nils pointers', () => {
    const r = decodeBuiltin(deployment({ replicas: null, paused: null, strategy: null }))
    expect(obj(r).spec).toMatchObject({ replicas: 1, strategy: { type: 'RollingUpdate' } })
    expect(obj(r).spec).not.toHaveProperty('paused')
  })
})

describe('types with their own UnmarshalJSON', () => {
  const pre = 'Deployment in version "v1" cannot be handled as a Deployment: '
  const container = (c: O) => deployment({ template: { spec: { containers: [{ name: 'c', ...c }] } } })
  test('quantities (resource.Quantity UnmarshalJSON, ParseQuantity errors)', () => {
    expect(message(container({ resources: { limits: { cpu: 'lots' } } }))).toBe(
      `${pre}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    )
    const ok = decodeBuiltin(
      container({ resources: { limits: { cpu: 0.5, memory: '0.5Gi' }, requests: { cpu: '1000m' } } }),
    )
    // stored canonically
    expect(obj(ok).spec.template.spec.containers[0].resources).toEqual({
      limits: { cpu: '500m', memory: '512Mi' },
      requests: { cpu: '1' },
    })
  })
  test('an UnmarshalJSON error is returned over an earlier saved error', () => {
    expect(
      message(
        deployment({
          replicas: 'x',
          template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: 'x' } } }] } },
        }),
      ),
    ).toBe(`${pre}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`)
  })
  // kube-apiserver 1.37.2 (test/e2e/differential/cases/decode-order.yaml): of two such errors, the first in the keys
  // kubectl sends sorted, not the manifest's first
  test('of two UnmarshalJSON errors, the first in the sorted keys', () => {
    expect(message(deployment({ strategy: { rollingUpdate: { maxUnavailable: true, maxSurge: 1.5 } } }))).toBe(
      `${pre}json: cannot unmarshal number 1.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32`,
    )
    expect(message(deployment({}, { name: 'd', deletionTimestamp: 'later', creationTimestamp: 'yesterday' }))).toBe(
      `${pre}parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`,
    )
    // a quantity under spec written before a time under metadata
    const mixed = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      spec: { template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: 'lots' } } }] } } },
      metadata: { name: 'd', creationTimestamp: 'soon' },
    }
    expect(message(mixed)).toBe(
      `${pre}parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"`,
    )
    // a type error saved first (paused) and a quantity's error after it: the quantity's
    expect(
      message(
        deployment({
          template: { spec: { containers: [{ name: 'c', resources: { requests: { memory: 'many' } } }] } },
          paused: 'maybe',
        }),
      ),
    ).toBe(`${pre}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`)
  })
  test('int-or-string (intstr.IntOrString UnmarshalJSON: json.Unmarshal into int32, with the outer context)', () => {
    expect(message(deployment({ strategy: { rollingUpdate: { maxSurge: 1.5 } } }))).toBe(
      `${pre}json: cannot unmarshal number 1.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32`,
    )
    expect(message(deployment({ strategy: { rollingUpdate: { maxSurge: true } } }))).toBe(
      `${pre}json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32`,
    )
    expect(
      obj(decodeBuiltin(deployment({ strategy: { rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } } }))).spec
        .strategy.rollingUpdate,
    ).toEqual({ maxUnavailable: 0, maxSurge: '50%' })
  })
  test('times (metav1.Time: RFC3339, written in UTC whole seconds)', () => {
    expect(message(deployment({}, { name: 'd', creationTimestamp: 'yesterday' }))).toBe(
      `${pre}parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`,
    )
    expect(message(deployment({}, { name: 'd', creationTimestamp: 5 }))).toBe(
      `${pre}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string`,
    )
    expect(
      obj(decodeBuiltin(deployment({}, { name: 'd', creationTimestamp: '2024-01-01T02:00:00.5+02:00' }))).metadata
        .creationTimestamp,
    ).toBe('2024-01-01T00:00:00Z')
  })
  test('bytes (base64.StdEncoding: illegal base64 data at input byte N)', () => {
    const secret = (data: O) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data })
    const pre = 'Secret in version "v1" cannot be handled as a Secret: '
    expect(message(secret({ a: 'not base64!' }))).toBe(`${pre}illegal base64 data at input byte 3`)
    expect(message(secret({ a: 'YWJj=' }))).toBe(`${pre}illegal base64 data at input byte 4`)
    expect(message(secret({ a: 5 }))).toBe(
      `${pre}json: cannot unmarshal number into Go struct field Secret.data of type []uint8`,
    )
    expect(obj(decodeBuiltin(secret({ a: 'YWJj', b: 'YQ==' }))).data).toEqual({ a: 'YWJj', b: 'YQ==' })
  })
  test('Go base64 offsets (encoding/base64 decode_test.go CorruptInputError cases)', () => {
    // Go's encoding/base64 base64_test.go TestDecodeCorrupt (StdEncoding), the corrupt inputs
    const cases: [string, number][] = [
      ['!!!!', 0],
      ['====', 0],
      ['x===', 1],
      ['=AAA', 0],
      ['A=AA', 1],
      ['AA=A', 2],
      ['AA==A', 4],
      ['AAA=AAAA', 4],
      ['AAAAA', 4],
      ['AAAAAA', 4],
      ['A=', 1],
      ['A==', 1],
      ['AA=', 3],
      ['AAAAAA=', 7],
      ['YWJjZA=====', 8],
      ['A!\n', 1],
      ['A=\n', 1],
    ]
    for (const [input, offset] of cases) expect([input, goBase64Decode(input)]).toEqual([input, offset])
    for (const ok of ['', '\n', 'AAA=\n', 'AAAA\n', 'AA==', 'AAA=', 'AAAA'])
      expect(goBase64Decode(ok)).toBeInstanceOf(Uint8Array)
    expect(goBase64Decode('AA==')).toEqual(Uint8Array.from([0]))
    expect(goBase64Decode('YW\nJj')).toEqual(Uint8Array.from([0x61, 0x62, 0x63]))
  })
  test('embedded raw objects (runtime.RawExtension) are kept as they are', () => {
    const cr = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r' },
      revision: 1,
      data: { any: ['thing', 1] },
    }
    expect(obj(decodeBuiltin(cr)).data).toEqual({ any: ['thing', 1] })
  })
})

test('kinds kelp has no Go type for are left alone', () => {
  expect(decodeBuiltin({ apiVersion: 'example.com/v1', kind: 'Widget' })).toBeUndefined()
})
