import { describe, expect, test } from 'vitest'
import { validateReplicationController } from '../../../../src/builtin/validation/core/replication-controller.js'
import { fieldTypes, type O, stored, texts, tweak } from '../support.js'

// core/v1 ReplicationController: kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go
// TestValidateReplicationController (success cases and error cases: field and type; the handwritten
// errors the declarative rules cover appear after the others from 1.37, as the apiserver orders them),
// and the texts kube-apiserver v1.37.2 answers (kubectl apply --dry-run=server).

const rc = (spec: O = {}, meta: O = {}): O => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name: 'abc', namespace: 'ns', resourceVersion: '1', ...meta },
  spec: {
    replicas: 1,
    selector: { a: 'b' },
    template: {
      metadata: { labels: { a: 'b' } },
      spec: { containers: [{ name: 'c', image: 'img' }] },
    },
    ...spec,
  },
})

describe('TestValidateReplicationController success cases', () => {
  const ok: O[] = [
    rc(),
    rc({}, { name: 'abc-123' }),
    rc({ replicas: 0 }),
    rc({ replicas: 100 }),
    rc({ minReadySeconds: 1 }),
    rc({ minReadySeconds: 100 }),
  ]
  ok.forEach((o, i) => {
    test(`success ${i}`, () => expect(fieldTypes(o)).toEqual([]))
  })
})

describe('TestValidateReplicationController error cases', () => {
  test('empty selector (without template labels to default it from)', () => {
    const o = rc({ selector: {}, template: { spec: { containers: [{ name: 'c', image: 'img' }] } } })
    expect(fieldTypes(o)).toEqual(['spec.selector FieldValueRequired'])
  })
  test('selector doesnt match', () => {
    expect(texts(rc({ selector: { foo: 'bar' } }))).toEqual([
      'spec.template.metadata.labels: Invalid value: {"a":"b"}: `selector` does not match template `labels`',
    ])
  })
  test('invalid manifest: no template', () => {
    const o = tweak(stored(rc()), (x) => {
      delete x.spec.template
    })
    expect(validateReplicationController(o, 37).map((e) => `${e.field} ${e.type}`)).toEqual([
      'spec.template FieldValueRequired',
    ])
  })
  test('negative replicas', () => {
    expect(texts(rc({ replicas: -1 }))).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ])
  })
  test('negative minReadySeconds', () => {
    expect(texts(rc({ minReadySeconds: -1 }))).toEqual([
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
    ])
  })
  test('nil replicas (the v1 default fills it; the validator alone requires it)', () => {
    const o = tweak(stored(rc()), (x) => {
      delete x.spec.replicas
    })
    expect(validateReplicationController(o, 37).map((e) => `${e.field} ${e.type}`)).toEqual([
      'spec.replicas FieldValueRequired',
    ])
  })
  test('invalid label', () => {
    expect(fieldTypes(rc({}, { labels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'bar' } }))).toEqual([
      'metadata.labels FieldValueInvalid',
    ])
  })
  test('invalid label 2 (in the template; the RC labels set, else the v1 default copies the template labels)', () => {
    const o = rc(
      {
        template: {
          metadata: { labels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'bar' } },
          spec: { containers: [{ name: 'c', image: 'img' }] },
        },
      },
      { labels: { a: 'b' } },
    )
    expect(fieldTypes(o)).toEqual([
      'spec.template.metadata.labels FieldValueInvalid',
      'spec.template.labels FieldValueInvalid',
    ])
  })
  test('invalid annotation', () => {
    expect(fieldTypes(rc({}, { annotations: { 'NoUppercaseOrSpecialCharsLike=Equals': 'bar' } }))).toEqual([
      'metadata.annotations FieldValueInvalid',
    ])
  })
  for (const policy of ['OnFailure', 'Never'])
    test(`invalid restart policy ${policy}`, () => {
      const o = rc({
        template: {
          metadata: { labels: { a: 'b' } },
          spec: { restartPolicy: policy, containers: [{ name: 'c', image: 'img' }] },
        },
      })
      expect(texts(o)).toEqual([
        `spec.template.spec.restartPolicy: Unsupported value: "${policy}": supported values: "Always"`,
      ])
    })
  test('template may not contain ephemeral containers', () => {
    const o = rc({
      template: {
        metadata: { labels: { a: 'b' } },
        spec: {
          containers: [{ name: 'c', image: 'img' }],
          ephemeralContainers: [{ name: 'debug', image: 'img' }],
        },
      },
    })
    expect(fieldTypes(o)).toEqual(['spec.template.spec.ephemeralContainers FieldValueForbidden'])
  })
})

describe('the declarative rules (beta, enforced from 1.37; alpha in 1.36): kube-apiserver v1.37.2', () => {
  test('the name and counts come after the handwritten errors', () => {
    const o = rc(
      {
        replicas: -1,
        minReadySeconds: -2,
        template: {
          metadata: { labels: { a: 'b' } },
          spec: { restartPolicy: 'Never', activeDeadlineSeconds: 5, containers: [{ name: 'c', image: 'img' }] },
        },
      },
      { name: 'Bad_Name' },
    )
    expect(fieldTypes(o)).toEqual([
      'spec.template.spec.restartPolicy FieldValueNotSupported',
      'spec.template.spec.activeDeadlineSeconds FieldValueForbidden',
      'metadata.name FieldValueInvalid',
      'spec.replicas FieldValueInvalid',
      'spec.minReadySeconds FieldValueInvalid',
    ])
  })
  test('before 1.37 (1.36: alpha, not enforced) the handwritten order: minReadySeconds, replicas, then the template', () => {
    const o = rc({ replicas: -1, minReadySeconds: -2 }, { name: 'Bad_Name' })
    expect(fieldTypes(o, undefined, 36)).toEqual([
      'metadata.name FieldValueInvalid',
      'spec.minReadySeconds FieldValueInvalid',
      'spec.replicas FieldValueInvalid',
    ])
  })
  test('an unchanged negative replicas is not validated declaratively on update: the handwritten error stays', () => {
    const old = rc({ replicas: -1 })
    const o = rc({ replicas: -1, minReadySeconds: -2 })
    expect(fieldTypes(o, old)).toEqual(['spec.replicas FieldValueInvalid', 'spec.minReadySeconds FieldValueInvalid'])
  })
})

describe('hostile input', () => {
  test('a selector keyed __proto__ is data', () => {
    const selector = JSON.parse('{"__proto__": "x"}')
    expect(fieldTypes(rc({ selector }))).toEqual(['spec.template.metadata.labels FieldValueInvalid'])
  })
})
