import type { FeatureGates } from '../../../kube/feature-gates.js'
import type { FieldError } from '../../../kube/field.js'
import { dropHPADisabledFields } from '../../drop-disabled.js'
import { isObj, type JSONObject, obj, optNum } from '../common.js'
import { quantity } from '../core/resources.js'
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerUpdate } from './validation.js'

// autoscaling/v1 HorizontalPodAutoscaler: the apiserver converts a v1 object to the internal type and validates
// that (kubernetes v1.37.2 pkg/apis/autoscaling/v1/conversion.go
// Convert_v1_HorizontalPodAutoscalerSpec_To_autoscaling_HorizontalPodAutoscalerSpec), so the errors carry the
// internal (v2-shaped) paths: targetCPUUtilizationPercentage becomes spec.metrics[0], a Resource metric on cpu
// with a Utilization target, after the metrics of the autoscaling.alpha.kubernetes.io/metrics annotation (v1
// MetricSpecs, converted as Convert_v1_MetricSpec_To_autoscaling_MetricSpec does). The v2 validation
// (validation.ts) then runs on that shape. Not modelled: the /behavior and tolerance annotations the
// conversion also reads (an internal-type JSON, written by clients of other versions).

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

const METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics'

type Loose = Record<string, unknown>
/** A JSON value json.Unmarshal would put in the Go field, or a type error (the whole annotation is then ignored). */
class TypeMismatch extends Error {}
const isRecord = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v)
function optional<T>(v: unknown, check: (x: unknown) => x is T): T | undefined {
  if (v === undefined || v === null) return undefined
  if (!check(v)) throw new TypeMismatch()
  return v
}
const isString = (x: unknown): x is string => typeof x === 'string'
const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x)
/** A resource.Quantity field: a string (or number) that parses, else Unmarshal fails. */
function quantityText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined
  if ((typeof v !== 'string' && typeof v !== 'number') || quantity(String(v)) === undefined) throw new TypeMismatch()
  return String(v)
}
const record = (v: unknown): Loose => optional(v, isRecord) ?? {}
const defined = (o: Loose): Loose => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

/** Convert_v1_MetricSpec_To_autoscaling_MetricSpec of one element of the metrics annotation (v1 MetricSpec). */
function convertMetric(m: Loose): Loose {
  const type = optional(m.type, isString) ?? ''
  const out: Loose = { type }
  const o = optional(m.object, isRecord)
  if (o !== undefined) {
    const target = record(o.target)
    const averageValue = quantityText(o.averageValue)
    const targetValue = quantityText(o.targetValue) ?? '0'
    out.object = defined({
      describedObject: defined({
        kind: optional(target.kind, isString) ?? '',
        name: optional(target.name, isString) ?? '',
        apiVersion: optional(target.apiVersion, isString),
      }),
      metric: defined({ name: optional(o.metricName, isString) ?? '', selector: optional(o.selector, isRecord) }),
      target: defined(
        averageValue === undefined
          ? { type: 'Value', value: targetValue }
          : { type: 'AverageValue', value: quantity(targetValue)?.isZero() ? undefined : targetValue, averageValue },
      ),
    })
  }
  const pods = optional(m.pods, isRecord)
  if (pods !== undefined)
    out.pods = {
      metric: defined({ name: optional(pods.metricName, isString) ?? '', selector: optional(pods.selector, isRecord) }),
      target: { type: 'AverageValue', averageValue: quantityText(pods.targetAverageValue) ?? '0' },
    }
  for (const k of ['resource', 'containerResource'] as const) {
    const r = optional(m[k], isRecord)
    if (r === undefined) continue
    const utilization = optional(r.targetAverageUtilization, isInt)
    out[k] = defined({
      name: optional(r.name, isString) ?? '',
      container: k === 'containerResource' ? (optional(r.container, isString) ?? '') : undefined,
      target: defined({
        type: utilization === undefined ? 'AverageValue' : 'Utilization',
        averageValue: quantityText(r.targetAverageValue),
        averageUtilization: utilization,
      }),
    })
  }
  const ext = optional(m.external, isRecord)
  if (ext !== undefined) {
    const value = quantityText(ext.targetValue)
    out.external = {
      metric: defined({
        name: optional(ext.metricName, isString) ?? '',
        selector: optional(ext.metricSelector, isRecord),
      }),
      target: defined({
        type: value === undefined ? 'AverageValue' : 'Value',
        value,
        averageValue: quantityText(ext.targetAverageValue),
      }),
    }
  }
  return out
}

/**
 * The metrics of the autoscaling.alpha.kubernetes.io/metrics annotation in the internal shape, or undefined when
 * json.Unmarshal would fail (the conversion then ignores the annotation). Keys match exactly (encoding/json
 * also accepts other cases: not modelled).
 */
export function annotationMetrics(hpa: JSONObject): Loose[] | undefined {
  const annotations = obj(obj(hpa.metadata)?.annotations)
  if (annotations === undefined || !Object.hasOwn(annotations, METRICS_ANNOTATION)) return undefined
  const text = annotations[METRICS_ANNOTATION]
  if (typeof text !== 'string') return undefined
  try {
    const v: unknown = JSON.parse(text)
    if (v === null) return []
    if (!Array.isArray(v)) return undefined
    return v.map((m) => (m === null ? { type: '' } : convertMetric(record(m))))
  } catch {
    return undefined
  }
}

/** The v1 object in the internal shape (a v2 object), as the validation sees it. */
export function v1ToInternal(hpa: JSONObject): JSONObject {
  const spec = isObj(hpa.spec) ? hpa.spec : {}
  const out: JSONObject = {}
  if (spec.scaleTargetRef !== undefined) out.scaleTargetRef = spec.scaleTargetRef
  if (spec.minReplicas !== undefined) out.minReplicas = spec.minReplicas
  if (spec.maxReplicas !== undefined) out.maxReplicas = spec.maxReplicas
  const metrics: unknown[] = []
  const target = optNum(spec.targetCPUUtilizationPercentage)
  if (target !== undefined)
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } },
    })
  // the annotation's metrics come first, the CPU target after them
  const others = annotationMetrics(hpa)
  if (others !== undefined) metrics.unshift(...others)
  // without any metric the conversion gives the default CPU target (DefaultCPUUtilization, 80)
  if (metrics.length === 0)
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
    })
  out.metrics = metrics
  return { ...hpa, spec: out as JSONObject }
}

/** ValidateHorizontalPodAutoscaler of a converted v1 object. */
export function validateHorizontalPodAutoscalerV1(hpa: JSONObject, minor: number): FieldError[] {
  return validateHorizontalPodAutoscaler(v1ToInternal(hpa), minor)
}

/** ValidateHorizontalPodAutoscalerUpdate of converted v1 objects. */
export function validateHorizontalPodAutoscalerV1Update(hpa: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateHorizontalPodAutoscalerUpdate(v1ToInternal(hpa), v1ToInternal(old), minor)
}
