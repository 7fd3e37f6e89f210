import { describe, expect, test } from 'vitest'
import { validatorFor } from '../../../../src/builtin/strategy.js'
import { errorString } from '../../../../src/kube/field.js'
import { errors, fieldTypes, type O, stored, texts, tweak } from '../support.js'

// autoscaling/v2 HorizontalPodAutoscaler: kubernetes v1.37.2 pkg/apis/autoscaling/validation/validation_test.go
// TestValidateBehavior (full texts), TestValidateHorizontalPodAutoscaler (error cases: Go checks that
// the first error contains msg; here also its field and type), the ScaleToZero tests, and the 1.37
// declarative rules (types.go +k8s:beta(since: "1.37") minimum / required). Objects are decoded and
// defaulted as v2 first: behavior rules without policies get the default policies. Go keeps an
// explicit `policies: []` (a non-nil empty slice) through defaulting; kelp's decoding drops it and
// defaults it (docs/known-differences.md), so those cases give the validator the stored object with
// `policies: []` put back.

const hpa = (spec: O): O => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'myautoscaler', namespace: 'default' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'mydeployment' },
    minReplicas: 1,
    maxReplicas: 5,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    ...spec,
  },
})
const simple = [
  { type: 'Percent', value: 10, periodSeconds: 1 },
  { type: 'Pods', value: 1, periodSeconds: 1800 },
]

describe('validation_test.go TestValidateBehavior', () => {
  const ok: O[] = [
    {},
    {
      scaleUp: { stabilizationWindowSeconds: 3600, selectPolicy: 'Min', policies: simple },
      scaleDown: { stabilizationWindowSeconds: 0, selectPolicy: 'Disabled', policies: simple },
    },
  ]
  ok.forEach((b, i) => {
    test(`success ${i}`, () => expect(fieldTypes(hpa({ behavior: b }))).toEqual([]))
  })
  for (const dir of ['scaleUp', 'scaleDown']) {
    const p = `spec.behavior.${dir}`
    const cases: [O, string][] = [
      [{ selectPolicy: 'Min', policies: [] }, `${p}.policies: Required value: must specify at least one Policy`],
      [
        { stabilizationWindowSeconds: 3601, selectPolicy: 'Min', policies: simple },
        `${p}.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600`,
      ],
      [
        { policies: [{ type: 'Pods', value: 7, periodSeconds: 1801 }] },
        `${p}.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800`,
      ],
      [
        { selectPolicy: 'incorrect', policies: [{ type: 'Pods', value: 7, periodSeconds: 8 }] },
        `${p}.selectPolicy: Unsupported value: "incorrect": supported values: "Disabled", "Max", "Min"`,
      ],
      [
        { policies: [{ type: 'hm', value: 7, periodSeconds: 8 }] },
        `${p}.policies[0].type: Unsupported value: "hm": supported values: "Percent", "Pods"`,
      ],
      [
        { policies: [{ type: 'Pods', value: 8 }] },
        `${p}.policies[0].periodSeconds: Invalid value: 0: must be greater than zero`,
      ],
      [
        { policies: [{ type: 'Pods', periodSeconds: 8 }] },
        `${p}.policies[0].value: Invalid value: 0: must be greater than zero`,
      ],
      [
        { policies: [{ type: 'Pods', value: 8, periodSeconds: -1 }] },
        `${p}.policies[0].periodSeconds: Invalid value: -1: must be greater than zero`,
      ],
      [
        { policies: [{ type: 'Pods', value: -1, periodSeconds: 1 }] },
        `${p}.policies[0].value: Invalid value: -1: must be greater than zero`,
      ],
    ]
    for (const [rules, msg] of cases)
      test(msg, () => {
        if (Array.isArray(rules.policies) && rules.policies.length === 0) {
          const o = stored(hpa({ behavior: { [dir]: rules } }))
          o.spec.behavior[dir].policies = []
          const v = validatorFor('autoscaling', 'v2', 'HorizontalPodAutoscaler')
          expect(v?.(o, { minor: 37 }).map(errorString)[0]).toBe(msg)
        } else expect(texts(hpa({ behavior: { [dir]: rules } }))[0]).toBe(msg)
      })
  }
})

const metric = (m: O) => ({ metrics: [m] })
const res = (target: O, name = 'cpu') => metric({ type: 'Resource', resource: { name, target } })
const cres = (target: O, extra: O = {}) =>
  metric({
    type: 'ContainerResource',
    containerResource: { name: 'cpu', container: 'test-application', target, ...extra },
  })
const util70 = { type: 'Utilization', averageUtilization: 70 }
const ext = (target: O, name = 'somemetric') =>
  metric({ type: 'External', external: { metric: { name, selector: { matchLabels: { label: 'value' } } }, target } })

describe('validation_test.go TestValidateHorizontalPodAutoscaler (error cases)', () => {
  // [name, spec tweak, first error's "<field> <type>", substring of its text (Go's msg)]
  const cases: [string, O, string, string][] = [
    [
      'kind required',
      { scaleTargetRef: { name: 'mydeployment', apiVersion: 'apps/v1' } },
      'spec.scaleTargetRef.kind FieldValueRequired',
      'scaleTargetRef.kind: Required',
    ],
    [
      'kind required (containerResource)',
      { scaleTargetRef: { name: 'myrc', apiVersion: 'v1' }, ...cres(util70) },
      'spec.scaleTargetRef.kind FieldValueRequired',
      'scaleTargetRef.kind: Required',
    ],
    [
      'kind ..',
      { scaleTargetRef: { kind: '..', name: 'myrc', apiVersion: 'v1' } },
      'spec.scaleTargetRef.kind FieldValueInvalid',
      'scaleTargetRef.kind: Invalid',
    ],
    [
      'name required',
      { scaleTargetRef: { kind: 'Deployment', apiVersion: 'apps/v1' } },
      'spec.scaleTargetRef.name FieldValueRequired',
      'scaleTargetRef.name: Required',
    ],
    [
      'name ..',
      { scaleTargetRef: { name: '..', kind: 'Deployment', apiVersion: 'apps/v1' }, ...cres(util70) },
      'spec.scaleTargetRef.name FieldValueInvalid',
      'scaleTargetRef.name: Invalid',
    ],
    [
      'apiVersion without group',
      { scaleTargetRef: { kind: 'Deployment', name: 'mydeployment' }, ...cres(util70) },
      'spec.scaleTargetRef.apiVersion FieldValueInvalid',
      'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
    ],
    [
      'maxReplicas below minReplicas',
      { scaleTargetRef: {}, minReplicas: 7, maxReplicas: 5 },
      'spec.maxReplicas FieldValueInvalid',
      'must be greater than or equal to `minReplicas`',
    ],
    [
      'utilization and value',
      res({ type: 'Utilization', averageUtilization: 70, averageValue: '300m' }),
      'spec.metrics[0].resource.target.averageValue FieldValueForbidden',
      'may not set both a target raw value and a target utilization',
    ],
    [
      'utilization and value (containerResource)',
      cres({ type: 'Utilization', averageUtilization: 70, averageValue: '300m' }),
      'spec.metrics[0].containerResource.target.averageValue FieldValueForbidden',
      'may not set both a target raw value and a target utilization',
    ],
    [
      'no resource name',
      res(util70, ''),
      'spec.metrics[0].resource.name FieldValueRequired',
      'must specify a resource name',
    ],
    [
      'no resource name (containerResource)',
      cres(util70, { name: '' }),
      'spec.metrics[0].containerResource.name FieldValueRequired',
      'must specify a resource name',
    ],
    [
      'InvalidResource',
      cres(util70, { name: 'InvalidResource' }),
      'spec.metrics[0].containerResource.name FieldValueInvalid',
      'Invalid value: "InvalidResource": must be a standard resource type or fully qualified',
    ],
    [
      'utilization -10',
      res({ type: 'Utilization', averageUtilization: -10 }),
      'spec.metrics[0].resource.target.averageUtilization FieldValueInvalid',
      'must be greater than 0',
    ],
    [
      'no container',
      cres({ type: 'Utilization', averageUtilization: -10 }, { container: '' }),
      'spec.metrics[0].containerResource.container FieldValueRequired',
      'must specify a container',
    ],
    [
      'bad container',
      cres({ type: 'Utilization', averageUtilization: -10 }, { container: '---***' }),
      'spec.metrics[0].containerResource.container FieldValueInvalid',
      'Invalid value: "---***"',
    ],
    [
      'no target (resource)',
      res({ type: 'Value' }),
      'spec.metrics[0].resource.target.averageUtilization FieldValueRequired',
      'must set either a target raw value or a target utilization',
    ],
    [
      'no metric name (pods)',
      metric({ type: 'Pods', pods: { metric: {}, target: { type: 'Value', averageValue: '100m' } } }),
      'spec.metrics[0].pods.metric.name FieldValueRequired',
      'must specify a metric name',
    ],
    [
      'no averageValue (pods)',
      metric({ type: 'Pods', pods: { metric: { name: 'somemetric' }, target: { type: 'Value' } } }),
      'spec.metrics[0].pods.target.averageValue FieldValueRequired',
      'must specify a positive target averageValue',
    ],
    [
      'no value (object)',
      metric({
        type: 'Object',
        object: {
          describedObject: { kind: 'ReplicationController', name: 'myrc' },
          metric: { name: 'somemetric' },
          target: { type: 'Value' },
        },
      }),
      'spec.metrics[0].object.target.averageValue FieldValueRequired',
      'must set either a target value or averageValue',
    ],
    [
      'describedObject kind',
      metric({
        type: 'Object',
        object: {
          describedObject: { name: 'myrc' },
          metric: { name: 'somemetric' },
          target: { type: 'Value', value: '100m' },
        },
      }),
      'spec.metrics[0].object.describedObject.kind FieldValueRequired',
      'object.describedObject.kind: Required',
    ],
    [
      'apiVersion apps/v1/v3',
      {
        scaleTargetRef: { name: 'myrc', kind: 'ReplicationController', apiVersion: 'apps/v1/v3' },
        ...metric({
          type: 'Object',
          object: {
            describedObject: { name: 'myrc', kind: 'Deployment' },
            metric: { name: 'somemetric' },
            target: { type: 'Value', value: '100m' },
          },
        }),
      },
      'spec.scaleTargetRef.apiVersion FieldValueInvalid',
      'spec.scaleTargetRef.apiVersion: Invalid value: "apps/v1/v3": unexpected GroupVersion string: apps/v1/v3',
    ],
    [
      'no metric name (object)',
      metric({
        type: 'Object',
        object: {
          describedObject: { kind: 'ReplicationController', name: 'myrc' },
          metric: {},
          target: { type: 'Value', value: '100m' },
        },
      }),
      'spec.metrics[0].object.metric.name FieldValueRequired',
      'must specify a metric name',
    ],
    [
      'no metric name (external)',
      ext({ type: 'Value', value: '300m' }, ''),
      'spec.metrics[0].external.metric.name FieldValueRequired',
      'must specify a metric name',
    ],
    [
      'metric name foo/../',
      ext({ type: 'Value', value: '300m' }, 'foo/../'),
      'spec.metrics[0].external.metric.name FieldValueInvalid',
      "'/'",
    ],
    [
      'no target value (external)',
      ext({ type: 'Value' }),
      'spec.metrics[0].external.target.averageValue FieldValueRequired',
      'must set either a target value for metric or a per-pod target',
    ],
    [
      'negative value',
      ext({ type: 'Value', value: '-300m' }),
      'spec.metrics[0].external.target.value FieldValueInvalid',
      'must be positive',
    ],
    [
      'negative averageValue',
      ext({ type: 'Value', averageValue: '-300m' }),
      'spec.metrics[0].external.target.averageValue FieldValueInvalid',
      'must be positive',
    ],
    [
      'value and averageValue',
      ext({ type: 'Value', value: '300m', averageValue: '300m' }),
      'spec.metrics[0].external.target.value FieldValueForbidden',
      'may not set both a target value for metric and a per-pod target',
    ],
    [
      'target type boogity',
      ext({ type: 'boogity', value: '300m' }),
      'spec.metrics[0].external.target.type FieldValueInvalid',
      'must be either Utilization, Value, or AverageValue',
    ],
    [
      'no target type',
      ext({ value: '300m' }),
      'spec.metrics[0].external.target.type FieldValueRequired',
      'must specify a metric target type',
    ],
    ['no target', ext({}), 'spec.metrics[0].external.target.type FieldValueRequired', 'must specify a metric target'],
    ['empty metric', { metrics: [{}] }, 'spec.metrics[0].type FieldValueRequired', 'must specify a metric source type'],
    [
      'InvalidType',
      { metrics: [{ type: 'InvalidType' }] },
      'spec.metrics[0].type FieldValueNotSupported',
      'type: Unsupported value',
    ],
    [
      'two sources',
      metric({
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '100m' } },
        pods: { metric: { name: 'somemetric' }, target: { type: 'AverageValue', averageValue: '100m' } },
      }),
      'spec.metrics[0].pods FieldValueForbidden',
      'must populate the given metric source only',
    ],
  ]
  for (const [name, spec, first, msg] of cases)
    test(name, () => {
      const errs = errors(hpa(spec))
      expect(errs.length).toBeGreaterThan(0)
      const e = errs[0] as (typeof errs)[0]
      expect(`${e.field} ${e.type}`).toBe(first)
      expect(errorString(e)).toContain(msg)
    })
  test('minReplicas -1 with a lower bound of 1 (Go: hpaSpecValidationOpts; 1.36)', () =>
    expect(texts(hpa({ minReplicas: -1 }), undefined, 36)).toEqual([
      'spec.minReplicas: Invalid value: -1: must be greater than or equal to 1',
    ]))
})

describe('ScaleToZero and the 1.37 declarative rules', () => {
  const zero = { minReplicas: 0 }
  test('TestValidateHorizontalPodAutoscalerScaleToZeroEnabled: minReplicas 0 needs an Object or External metric', () =>
    expect(texts(hpa(zero))).toEqual([
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]))
  test('minReplicas 0 with an External metric (1.37: HPAScaleToZero on)', () =>
    expect(fieldTypes(hpa({ ...zero, ...ext({ type: 'Value', value: '300m' }) }))).toEqual([]))
  test('TestValidateHorizontalPodAutoscalerScaleToZeroDisabled: minReplicas 0 before 1.37', () =>
    expect(fieldTypes(hpa({ ...zero, ...ext({ type: 'Value', value: '300m' }) }), undefined, 36)).toEqual([
      'spec.minReplicas FieldValueInvalid',
    ]))
  test('TestValidateHorizontalPodAutoscalerScaleToZeroUpdateDisabled: an old 0 stays allowed', () => {
    const old = tweak(
      hpa({ ...zero, ...ext({ type: 'Value', value: '300m' }) }),
      (x) => (x.metadata.resourceVersion = '1'),
    )
    expect(fieldTypes(old, old, 36)).toEqual([])
  })
  test('declarative (1.37): the covered minimum error comes last', () =>
    expect(texts(hpa({ minReplicas: -1, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment' } }))).toEqual([
      'spec.scaleTargetRef.name: Required value',
      'spec.minReplicas: Invalid value: -1: must be greater than or equal to 0',
    ]))
  test('declarative (1.37): maxReplicas 0 is the declarative Required', () =>
    expect(texts(hpa({ maxReplicas: 0, minReplicas: 0, ...ext({ type: 'Value', value: '300m' }) }))).toEqual([
      'spec.maxReplicas: Required value',
    ]))
  test('handwritten before 1.37: maxReplicas 0', () =>
    expect(texts(hpa({ maxReplicas: 0 }), undefined, 36)).toEqual([
      'spec.maxReplicas: Required value: must be set and greater than 0',
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
    ]))
  test('TestValidateHorizontalPodAutoscalerConfigurableToleranceEnabled: negative tolerance', () =>
    expect(texts(hpa({ behavior: { scaleUp: { policies: simple, tolerance: '-0.1' } } }))).toEqual([
      'spec.behavior.scaleUp.tolerance: Invalid value: "-100m": must be greater than or equal to 0',
    ]))
  test('TestValidateHorizontalPodAutoscalerConfigurableToleranceDisabled: dropped before 1.35', () =>
    expect(fieldTypes(hpa({ behavior: { scaleUp: { policies: simple, tolerance: '-0.1' } } }), undefined, 34)).toEqual(
      [],
    ))
})
