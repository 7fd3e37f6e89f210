import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { deepEqual, type JSONObject, num, obj, str, validateQualifiedName } from '../common.js'

// events.k8s.io/v1 Event: kubernetes v1.37.2 pkg/apis/core/validation/events.go ValidateEventCreate /
// ValidateEventUpdate for a request of that group-version (legacyValidateEvent, then the events.k8s.io
// rules). The object is converted to core's internal Event first (pkg/apis/events/v1/conversion.go), so
// the paths name the internal fields: regarding → involvedObject, note → message, deprecatedSource →
// source, deprecatedFirstTimestamp / deprecatedLastTimestamp / deprecatedCount → firstTimestamp /
// lastTimestamp / count. The strategy has no PrepareForCreate.

const REPORTING_INSTANCE_LENGTH_LIMIT = 128
const ACTION_LENGTH_LIMIT = 128
const REASON_LENGTH_LIMIT = 128
const NOTE_LENGTH_LIMIT = 1024

const bytes = (s: string) => Buffer.byteLength(s)
const isSet = (v: unknown) => v !== undefined && v !== null && v !== ''
const p = (...names: string[]) => FieldPath.of(names[0] as string, ...names.slice(1))

/** legacyValidateEvent for a request that is not core/v1 (the field is `reportingController`). */
function legacyValidateEvent(e: JSONObject): FieldError[] {
  const errs: FieldError[] = []
  const ns = str(obj(e.metadata)?.namespace)
  const regardingNs = str(obj(e.regarding)?.namespace)
  const nsPath = p('involvedObject', 'namespace')
  const mismatch = () => field.invalid(nsPath, regardingNs, 'does not match event.namespace')
  if (!isSet(e.eventTime)) {
    if (regardingNs.length === 0) {
      if (ns !== '' && ns !== 'default') errs.push(mismatch())
    } else if (ns !== regardingNs) errs.push(mismatch())
    return errs
  }
  if (regardingNs.length === 0 && ns !== 'default' && ns !== 'kube-system') errs.push(mismatch())
  const controller = str(e.reportingController)
  if (controller.length === 0) errs.push(field.required(p('reportingController'), ''))
  errs.push(...validateQualifiedName(controller, p('reportingController')))
  const instance = str(e.reportingInstance)
  if (instance.length === 0) errs.push(field.required(p('reportingInstance'), ''))
  if (bytes(instance) > REPORTING_INSTANCE_LENGTH_LIMIT)
    errs.push(
      field.invalid(p('reportingInstance'), '', `can have at most ${REPORTING_INSTANCE_LENGTH_LIMIT} characters`),
    )
  const action = str(e.action)
  if (action.length === 0) errs.push(field.required(p('action'), ''))
  if (bytes(action) > ACTION_LENGTH_LIMIT)
    errs.push(field.invalid(p('action'), '', `can have at most ${ACTION_LENGTH_LIMIT} characters`))
  const reason = str(e.reason)
  if (reason.length === 0) errs.push(field.required(p('reason'), ''))
  if (bytes(reason) > REASON_LENGTH_LIMIT)
    errs.push(field.invalid(p('reason'), '', `can have at most ${REASON_LENGTH_LIMIT} characters`))
  if (bytes(str(e.note)) > NOTE_LENGTH_LIMIT)
    errs.push(field.invalid(p('message'), '', `can have at most ${NOTE_LENGTH_LIMIT} characters`))
  return errs
}

/** validateV1EventSeries. */
function validateV1EventSeries(e: JSONObject): FieldError[] {
  const series = obj(e.series)
  if (series === undefined) return []
  const errs: FieldError[] = []
  if (num(series.count) < 2) errs.push(field.invalid(p('series.count'), '', 'should be at least 2'))
  if (!isSet(series.lastObservedTime)) errs.push(field.required(p('series.lastObservedTime'), ''))
  return errs
}

/** ValidateEventCreate for an events.k8s.io/v1 request. */
export function validateEventCreate(e: JSONObject, minor: number): FieldError[] {
  const errs = legacyValidateEvent(e)
  errs.push(...validateObjectMetaFor(e, { namespaced: true, nameFn: nameIsDNSSubdomain, minor }))
  errs.push(...validateV1EventSeries(e))
  if (!isSet(e.eventTime)) errs.push(field.required(p('eventTime'), ''))
  if (e.type !== 'Normal' && e.type !== 'Warning')
    errs.push(field.invalid(p('type'), '', `has invalid value: ${str(e.type)}`))
  if (isSet(e.deprecatedFirstTimestamp)) errs.push(field.invalid(p('firstTimestamp'), '', 'needs to be unset'))
  if (isSet(e.deprecatedLastTimestamp)) errs.push(field.invalid(p('lastTimestamp'), '', 'needs to be unset'))
  if (num(e.deprecatedCount) !== 0) errs.push(field.invalid(p('count'), '', 'needs to be unset'))
  const source = obj(e.deprecatedSource)
  if (str(source?.component) !== '' || str(source?.host) !== '')
    errs.push(field.invalid(p('source'), '', 'needs to be unset'))
  return errs
}

/** The internal field each immutable check names, and the v1 field it reads, in ValidateEventUpdate's order. */
const IMMUTABLE: readonly [internal: string, v1: string][] = [
  ['involvedObject', 'regarding'],
  ['reason', 'reason'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reason', 'reason'],
  ['type', 'type'],
]

/** ValidateEventUpdate for an events.k8s.io/v1 request. */
export function validateEventUpdate(e: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = legacyValidateEvent(e)
  errs.push(...validateObjectMetaFor(e, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, oldObject: old }))
  if (!deepEqual(e.series ?? null, old.series ?? null)) errs.push(...validateV1EventSeries(e))
  const immutable = (internal: string, v1: string) => {
    if (!deepEqual(e[v1] ?? null, old[v1] ?? null))
      errs.push(field.invalid(p(internal), e[v1] ?? null, 'field is immutable'))
  }
  for (const [internal, v1] of IMMUTABLE) immutable(internal, v1)
  if (!deepEqual(e.eventTime ?? null, old.eventTime ?? null)) immutable('eventTime', 'eventTime')
  for (const k of ['action', 'related', 'reportingController', 'reportingInstance']) immutable(k, k)
  return errs
}
