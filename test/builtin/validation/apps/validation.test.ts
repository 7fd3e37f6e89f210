import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/apps/validation.js'
import '../../../../src/builtin/validation/core/pod.js'
import { PolicySet } from '../../../../src/engine/policy-set.js'
import { errors, type O, texts, tweak } from '../support.js'

// kubernetes v1.37.2 pkg/apis/apps/validation/validation_test.go, on the v1 JSON of the same objects
// (decoded and defaulted first, as the apiserver does before the strategy's validation).

const validDeployment = (): O => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'abc', namespace: 'default' },
  spec: {
    selector: { matchLabels: { name: 'abc' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
    template: {
      metadata: { labels: { name: 'abc' } },
      spec: { containers: [{ name: 'ctr', image: 'image' }] },
    },
  },
})

describe('TestValidateDeployment (apps/validation/validation_test.go)', () => {
  it('accepts the valid deployment', () => {
    expect(texts(validDeployment())).toEqual([])
  })
  // errorCases: the key is a substring of the first error, as the Go test checks it
  const cases: [string, (d: O) => void][] = [
    ['metadata.name: Required value', (d) => (d.metadata.name = '')],
    ['`selector` does not match template `labels`', (d) => (d.spec.template.metadata.labels = { name: 'def' })],
    ['Unsupported value: "Never"', (d) => (d.spec.template.spec.restartPolicy = 'Never')],
    ['supported values: "Recreate", "RollingUpdate"', (d) => (d.spec.strategy.type = 'randomType')],
    [
      "may not be specified when strategy `type` is 'Recreate'",
      (d) => (d.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }),
    ],
    [
      'a valid percent string must be',
      (d) => (d.spec.strategy.rollingUpdate = { maxSurge: '20Percent', maxUnavailable: 1 }),
    ],
    [
      'may not be 0 when `maxSurge` is 0',
      (d) => (d.spec.strategy.rollingUpdate = { maxSurge: '0%', maxUnavailable: 0 }),
    ],
    ['must not be greater than 100%', (d) => (d.spec.strategy.rollingUpdate = { maxSurge: 1, maxUnavailable: '110%' })],
    [
      'must be greater than minReadySeconds',
      (d) => {
        d.spec.progressDeadlineSeconds = 1
        d.spec.minReadySeconds = 1
      },
    ],
    [
      'ephemeral containers not allowed',
      (d) =>
        (d.spec.template.spec.ephemeralContainers = [
          { name: 'ec', image: 'image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' },
        ]),
    ],
  ]
  for (const [want, f] of cases) {
    it(want, () => {
      const t = texts(tweak(validDeployment(), f))
      expect(t.length).toBeGreaterThan(0)
      expect(t[0]).toContain(want)
    })
  }
  // the v1 API has no spec.rollbackTo (extensions/v1beta1 only): the Go table's rollback case does not apply
})

describe('TestValidateDeploymentUpdate (selector immutable)', () => {
  it('a changed selector is `field is immutable`', () => {
    const old = validDeployment()
    const d = tweak(old, (x) => {
      x.spec.selector = { matchLabels: { name: 'xyz' } }
      x.spec.template.metadata.labels = { name: 'xyz' }
      x.metadata.resourceVersion = '1'
    })
    const e = errors(
      d,
      tweak(old, (x) => (x.metadata.resourceVersion = '1')),
    )
    expect(e.map((x) => `${x.field} ${x.type}`)).toEqual(['spec.selector FieldValueInvalid'])
    expect(e[0]?.detail).toBe('field is immutable')
  })
})

const validReplicaSet = (): O => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'abc', namespace: 'default' },
  spec: {
    selector: { matchLabels: { a: 'b' } },
    template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'ctr', image: 'image' }] } },
  },
})

describe('TestValidateReplicaSet (apps/validation/validation_test.go)', () => {
  it('accepts the valid replica set', () => expect(texts(validReplicaSet())).toEqual([]))
  const cases: [string, string, (r: O) => void][] = [
    ['zero-length ID', 'metadata.name FieldValueRequired', (r) => (r.metadata.name = '')],
    ['missing-namespace', 'metadata.namespace FieldValueRequired', (r) => delete r.metadata.namespace],
    ['empty selector', 'spec.selector FieldValueInvalid', (r) => (r.spec.selector = {})],
    [
      'selector_doesnt_match',
      'spec.template.metadata.labels FieldValueInvalid',
      (r) => (r.spec.selector = { matchLabels: { foo: 'bar' } }),
    ],
    ['negative_replicas', 'spec.replicas FieldValueInvalid', (r) => (r.spec.replicas = -1)],
    [
      'invalid_label',
      'metadata.labels FieldValueInvalid',
      (r) => (r.metadata.labels = { 'NoUppercaseOrSpecialCharsLike=Equals': 'bar' }),
    ],
    [
      'invalid_label 2 (template)',
      'spec.template.labels FieldValueInvalid',
      (r) =>
        (r.spec.template.metadata.labels = {
          ...r.spec.template.metadata.labels,
          'NoUppercaseOrSpecialCharsLike=Equals': 'bar',
        }),
    ],
    [
      'invalid_annotation',
      'metadata.annotations FieldValueInvalid',
      (r) => (r.metadata.annotations = { 'NoUppercaseOrSpecialCharsLike=Equals': 'bar' }),
    ],
    [
      'invalid restart policy 1',
      'spec.template.spec.restartPolicy FieldValueNotSupported',
      (r) => (r.spec.template.spec.restartPolicy = 'OnFailure'),
    ],
  ]
  for (const [name, want, f] of cases) {
    it(name, () => expect(errors(tweak(validReplicaSet(), f)).map((e) => `${e.field} ${e.type}`)).toContain(want))
  }
})

const validDaemonSet = (): O => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'abc', namespace: 'default' },
  spec: {
    selector: { matchLabels: { a: 'b' } },
    template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'ctr', image: 'image' }] } },
  },
})

describe('TestValidateDaemonSet (apps/validation/validation_test.go)', () => {
  it('accepts the valid daemon set', () => expect(texts(validDaemonSet())).toEqual([]))
  const cases: [string, string, (r: O) => void][] = [
    ['zero-length ID', 'metadata.name FieldValueRequired', (r) => (r.metadata.name = '')],
    ['nil selector / empty selector', 'spec.selector FieldValueInvalid', (r) => (r.spec.selector = {})],
    [
      'selector_doesnt_match',
      'spec.template.metadata.labels FieldValueInvalid',
      (r) => (r.spec.selector = { matchLabels: { foo: 'bar' } }),
    ],
    [
      'invalid restart policy',
      'spec.template.spec.restartPolicy FieldValueNotSupported',
      (r) => (r.spec.template.spec.restartPolicy = 'OnFailure'),
    ],
    [
      'invalid update strategy - Type is not supported',
      'spec.updateStrategy FieldValueNotSupported',
      (r) => (r.spec.updateStrategy = { type: 'Random' }),
    ],
  ]
  for (const [name, want, f] of cases) {
    it(name, () => expect(errors(tweak(validDaemonSet(), f)).map((e) => `${e.field} ${e.type}`)).toContain(want))
  }
})

describe('StatefulSet (TestValidateStatefulSet, a subset)', () => {
  const valid = (): O => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'abc', namespace: 'default' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'ctr', image: 'image' }] } },
    },
  })
  it('accepts the valid stateful set', () => expect(texts(valid())).toEqual([]))
  it('a subdomain name is not a DNS label', () =>
    expect(errors(tweak(valid(), (s) => (s.metadata.name = 'a.b'))).map((e) => `${e.field} ${e.type}`)).toEqual([
      'metadata.name FieldValueInvalid',
    ]))
  // a real kube-apiserver 1.37.2 answered `The StatefulSet "loki" is invalid: spec.volumeClaimTemplates[0].spec.accessModes:
  // Unsupported value: "ReadWriteSometimes": supported values: …` (the differential corpus's pvc/access-mode-bad)
  it("a claim template's spec is validated on create", () =>
    expect(
      texts(
        tweak(valid(), (s) => {
          s.spec.volumeClaimTemplates = [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteSometimes'], resources: { requests: { storage: '1Gi' } } },
            },
          ]
        }),
      ),
    ).toEqual([
      'spec.volumeClaimTemplates[0].spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    ]))
  it('invalid podManagementPolicy', () =>
    expect(errors(tweak(valid(), (s) => (s.spec.podManagementPolicy = 'foo'))).map((e) => e.detail)).toEqual([
      "must be 'OrderedReady' or 'Parallel'",
    ]))
})

// the texts a real kube-apiserver 1.37.2 answered (the differential corpus's workload/strategy-type-bad mutations):
// the value is the internal Go struct, whose fields have no json tags
describe('an unsupported update strategy prints the internal struct', () => {
  it('Deployment, DaemonSet, StatefulSet', () => {
    expect(texts(tweak(validDeployment(), (d) => (d.spec.strategy = { type: 'Rolling' })))).toEqual([
      'spec.strategy: Unsupported value: {"Type":"Rolling","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"',
    ])
    expect(texts(tweak(validDaemonSet(), (d) => (d.spec.updateStrategy = { type: 'Rolling' })))).toEqual([
      'spec.updateStrategy: Unsupported value: {"Type":"Rolling","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"',
    ])
    const sts: O = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'abc', namespace: 'default' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        updateStrategy: { type: 'Rolling' },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'ctr', image: 'image' }] } },
      },
    }
    expect(texts(sts)).toEqual([
      `spec.updateStrategy: Invalid value: {"Type":"Rolling","RollingUpdate":null}: must be 'RollingUpdate' or 'OnDelete'`,
    ])
  })
})

describe('engine: the strategy runs before validating admission (422 Invalid)', () => {
  it('a Deployment whose selector does not match: the Status and kubectl text, per release', () => {
    const d = tweak(validDeployment(), (x) => {
      x.metadata.name = 'web'
      x.spec.template.metadata.labels = { app: 'x' }
    })
    const r = PolicySet.build([]).validate(d)
    expect(r.allowed).toBe(false)
    expect(r.builtin?.status?.code).toBe(422)
    expect(r.builtin?.status?.message).toBe(
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`',
    )
    const old = PolicySet.build([], { release: '1.33' }).validate(d)
    expect(old.builtin?.message).toBe(
      'The Deployment "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
    )
  })
  it('a kind without a validator says so', () => {
    // core/v1 Event: decoded and defaulted, its native validation not covered by kelp
    const r = PolicySet.build([]).validate({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
    })
    expect(r.builtin?.nativeValidation).toBe('not-covered')
  })
})
