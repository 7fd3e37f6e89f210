import { describe, expect, test } from 'vitest'
import { prepareHorizontalPodAutoscalerV1, v1ToInternal } from '../../../../src/builtin/validation/autoscaling/v1.js'
import { defaultFeatureGates } from '../../../../src/kube/feature-gates.js'
import { fieldTypes, type O, stored, texts } from '../support.js'

// autoscaling/v1 HorizontalPodAutoscaler: the apiserver validates the internal type the v1 object converts to
// (kubernetes v1.37.2 pkg/apis/autoscaling/v1/conversion.go; conversion_test.go
// TestHorizontalPodAutoscalerSpecConversion_v1), so its errors carry v2 paths; the texts as kube-apiserver
// v1.37.2 answers for autoscaling/v1 objects, and the v1 defaults (defaults.go: minReplicas 1; the CPU target
// 80 the conversion gives an HPA without one).

const hpa = (spec: O): O => ({
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'hpa', namespace: 'default', resourceVersion: '1' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
})

describe('conversion to the internal shape', () => {
  test('targetCPUUtilizationPercentage becomes a Resource metric on cpu', () => {
    expect(v1ToInternal(hpa({ minReplicas: 2, targetCPUUtilizationPercentage: 50 })).spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
    })
  })
  test('the v1 defaults: minReplicas 1, the CPU target 80', () => {
    expect(stored(hpa({})).spec).toMatchObject({ minReplicas: 1, targetCPUUtilizationPercentage: 80 })
  })
})

describe('the metrics annotation (conversion.go Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler)', () => {
  const annotated = (metrics: string, spec: O = {}): O => {
    const o = hpa(spec)
    o.metadata.annotations = { 'autoscaling.alpha.kubernetes.io/metrics': metrics }
    return o
  }
  test('its metrics come first, converted to the internal shape; then the CPU target', () => {
    const o = annotated(
      '[{"type":"Object","object":{"target":{"kind":"Service","name":"s"},"metricName":"rps","targetValue":"10"}},' +
        '{"type":"External","external":{"metricName":"q","targetAverageValue":"30"}}]',
      { targetCPUUtilizationPercentage: 50 },
    )
    expect((v1ToInternal(o).spec as O).metrics).toEqual([
      {
        type: 'Object',
        object: {
          describedObject: { kind: 'Service', name: 's' },
          metric: { name: 'rps' },
          target: { type: 'Value', value: '10' },
        },
      },
      { type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ])
  })
  test('with metrics in the annotation, no default CPU target', () => {
    const o = annotated('[{"type":"External","external":{"metricName":"q","targetAverageValue":"30"}}]')
    expect(stored(o).spec.targetCPUUtilizationPercentage).toBeUndefined()
    expect(fieldTypes({ ...o, spec: { ...o.spec, minReplicas: 0 } })).toEqual([])
  })
  test('an annotation json.Unmarshal refuses is ignored (the default CPU target applies)', () => {
    for (const bad of ['not json', '{"type":"Pods"}', '[{"type":1}]', '[{"pods":{"targetAverageValue":"x"}}]']) {
      const o = annotated(bad)
      expect((v1ToInternal(stored(o)).spec as O).metrics, bad).toEqual([
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
      ])
    }
  })
  test('invalid metrics of the annotation are refused at their internal paths (kube-apiserver v1.37.2)', () => {
    const o = annotated(
      '[{"type":"Pods","pods":{"metricName":"","targetAverageValue":"-1"}},{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":-5}}]',
      { targetCPUUtilizationPercentage: -1 },
    )
    expect(texts(o)).toEqual([
      'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].pods.target.averageValue: Invalid value: "-1": must be positive',
      'spec.metrics[1].resource.target.averageUtilization: Invalid value: -5: must be greater than 0',
      'spec.metrics[2].resource.target.averageUtilization: Invalid value: -1: must be greater than 0',
    ])
  })
})

describe('the status annotations (helpers.go DropRoundTripHorizontalPodAutoscalerAnnotations, kube-apiserver v1.37.2)', () => {
  test('conditions and current metrics are dropped; the spec annotations and the others kept', () => {
    const o = hpa({})
    o.metadata.annotations = {
      'autoscaling.alpha.kubernetes.io/conditions': '[]',
      'autoscaling.alpha.kubernetes.io/current-metrics': '[]',
      'autoscaling.alpha.kubernetes.io/metrics': '[]',
      team: 'a',
    }
    prepareHorizontalPodAutoscalerV1(o, undefined, defaultFeatureGates(37))
    expect(o.metadata.annotations).toEqual({ 'autoscaling.alpha.kubernetes.io/metrics': '[]', team: 'a' })
  })
  test('no annotations left: none at all', () => {
    const o = hpa({})
    o.metadata.annotations = { 'autoscaling.alpha.kubernetes.io/conditions': '[]' }
    prepareHorizontalPodAutoscalerV1(o, undefined, defaultFeatureGates(37))
    expect(o.metadata.annotations).toBeUndefined()
  })
})

describe('ValidateHorizontalPodAutoscaler on v1 objects (kube-apiserver v1.37.2)', () => {
  test('valid', () => expect(fieldTypes(hpa({ minReplicas: 1, targetCPUUtilizationPercentage: 70 }))).toEqual([]))
  test('a ReplicationController target may have an empty group', () => {
    expect(
      fieldTypes(hpa({ scaleTargetRef: { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' } })),
    ).toEqual([])
  })
  test('maxReplicas below minReplicas, the target reference, a negative utilization', () => {
    const o = hpa({
      scaleTargetRef: { kind: '', name: 'a/b' },
      minReplicas: 5,
      maxReplicas: 3,
      targetCPUUtilizationPercentage: -1,
    })
    expect(texts(o)).toEqual([
      'spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`',
      'spec.scaleTargetRef.kind: Required value',
      `spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'`,
      'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: -1: must be greater than 0',
    ])
  })
  test('minReplicas 0 without Object or External metrics; maxReplicas 0', () => {
    const o = hpa({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 0, maxReplicas: 0 })
    expect(texts(o)).toEqual([
      'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
      'spec.maxReplicas: Required value',
    ])
  })
  test('an update keeps an unchanged invalid apiVersion of the target', () => {
    const ref = { kind: 'Deployment', name: 'web' }
    expect(fieldTypes(hpa({ scaleTargetRef: ref, maxReplicas: 6 }), hpa({ scaleTargetRef: ref }))).toEqual([])
  })
})
