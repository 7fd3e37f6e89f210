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
