import type { FeatureGates } from '../../../kube/feature-gates.js'
import type { FieldError } from '../../../kube/field.js'
import { dropHPADisabledFields } from '../../drop-disabled.js'
import { isObj, type JSONObject, obj, optNum } from '../common.js'
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerUpdate } from './validation.js'

// autoscaling/v1 HorizontalPodAutoscaler: the apiserver converts a v1 object to the internal type and validates
// that (kubernetes v1.37.2 pkg/apis/autoscaling/v1/conversion.go
// Convert_v1_HorizontalPodAutoscalerSpec_To_autoscaling_HorizontalPodAutoscalerSpec), so the errors carry the
// internal (v2-shaped) paths: targetCPUUtilizationPercentage becomes spec.metrics[0], a Resource metric on cpu
// with a Utilization target. The v2 validation (validation.ts) then runs on that shape. Not modelled: the
// autoscaling.alpha.kubernetes.io/metrics and /behavior annotations the conversion also reads (written by
// clients of other versions, rarely by hand).

// The status the round-trip annotations carry (HorizontalPodAutoscalerConditionsAnnotation,
// MetricStatusesAnnotation): the conversion drops them (DropRoundTripHorizontalPodAutoscalerAnnotations) and
// fills the status the strategy then resets, so a written object never keeps them. The spec's (metrics,
// behavior, tolerances) come back when the object is read in v1, re-encoded: kelp keeps their text.
const STATUS_ANNOTATIONS = [
  'autoscaling.alpha.kubernetes.io/conditions',
  'autoscaling.alpha.kubernetes.io/current-metrics',
]

/** The autoscaling/v1 row's prepare: the disabled fields dropped, and the status annotations the conversion drops. */
export function prepareHorizontalPodAutoscalerV1(o: JSONObject, old: JSONObject | undefined, on: FeatureGates): void {
  dropHPADisabledFields(o, old, on)
  const meta = obj(o.metadata)
  const annotations = obj(meta?.annotations)
  if (meta === undefined || annotations === undefined) return
  for (const k of STATUS_ANNOTATIONS) delete annotations[k]
  if (Object.keys(annotations).length === 0) delete meta.annotations
}

/** The v1 object in the internal shape (a v2 object), as the validation sees it. */
export function v1ToInternal(hpa: JSONObject): JSONObject {
  const spec = isObj(hpa.spec) ? hpa.spec : {}
  const out: JSONObject = {}
  if (spec.scaleTargetRef !== undefined) out.scaleTargetRef = spec.scaleTargetRef
  if (spec.minReplicas !== undefined) out.minReplicas = spec.minReplicas
  if (spec.maxReplicas !== undefined) out.maxReplicas = spec.maxReplicas
  // without a CPU target the conversion gives the default one (DefaultCPUUtilization, 80)
  const target = optNum(spec.targetCPUUtilizationPercentage) ?? 80
  out.metrics = [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } },
  ]
  return { ...hpa, spec: out }
}

/** ValidateHorizontalPodAutoscaler of a converted v1 object. */
export function validateHorizontalPodAutoscalerV1(hpa: JSONObject, minor: number): FieldError[] {
  return validateHorizontalPodAutoscaler(v1ToInternal(hpa), minor)
}

/** ValidateHorizontalPodAutoscalerUpdate of converted v1 objects. */
export function validateHorizontalPodAutoscalerV1Update(hpa: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateHorizontalPodAutoscalerUpdate(v1ToInternal(hpa), v1ToInternal(old), minor)
}
