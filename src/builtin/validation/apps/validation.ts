import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import type { Selector } from '../../../kube/labels.js'
import { deepEqualJSON } from '../../../kube/schema/deep-equal.js'
import type { LabelSelector as PolicyLabelSelector } from '../../../kube/validation/label-selector.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import {
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  type ValidateNameFunc,
  validateAnnotations,
  validateLabels,
  validateObjectMetaFor,
} from '../../../kube/validation/objectmeta.js'
import { isObject as isObj, type JSONObject, sortedKeys } from '../../../kube/values/json.js'
import { validateDNS1123Label, validateNonnegative, validatePodTemplateSpec } from '../core/pod.js'
import { validatePodSpecificAnnotations } from '../core/pod-security.js'
import { validateClaimTemplates } from '../core/pvc.js'
import { asSelector, selectorValue } from '../selectors.js'

// apps/v1 Deployment, ReplicaSet, DaemonSet and StatefulSet (kubernetes v1.37.2
// pkg/apis/apps/validation/validation.go: ValidateDeployment / Update, ValidateReplicaSet / Update,
// ValidateDaemonSet / Update, ValidateStatefulSet / Update), create and update: selectors (required,
// valid, not empty, matching the template's labels, immutable), the template (core/pod.ts), restartPolicy
// Always, no activeDeadlineSeconds, strategies and their int-or-percent values, the counts, a StatefulSet's
// volumeClaimTemplates' claim specs on create (core/pvc.ts) and persistentVolumeClaimRetentionPolicy, in
// ValidateStatefulSetSpec's order.

const obj = (v: unknown): JSONObject => (isObj(v) ? v : {})
const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined
const META = FieldPath.of('metadata')
const SPEC = FieldPath.of('spec')

/** Go's %#v of a map[string]string (the bad value before 1.34 printed it so): keys sorted. */
function goMapStringString(m: Record<string, string> | undefined): string {
  if (m === undefined) return 'map[string]string(nil)'
  const keys = sortedKeys(m)
  return `map[string]string{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`).join(', ')}}`
}

/** field.Invalid of template.Labels (a map[string]string), rendered per release. */
function labelsInvalid(p: FieldPath, labels: Record<string, string> | undefined, detail: string, minor: number) {
  const e = field.invalid(p, labels ?? null, detail)
  return minor >= 34 ? e : { ...e, printedValue: goMapStringString(labels) }
}

const selectorCount = (s: JSONObject) =>
  Object.keys(obj(s.matchLabels)).length + (Array.isArray(s.matchExpressions) ? s.matchExpressions.length : 0)

/** The strict selector checks of Deployment / ReplicaSet / StatefulSet specs. */
function validateRequiredSelector(spec: JSONObject, what: string, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  if (!isObj(spec.selector)) errs.push(field.required(p, ''))
  else {
    errs.push(
      ...validateLabelSelector(
        spec.selector as unknown as PolicyLabelSelector,
        { allowInvalidLabelValueInSelector: false },
        p,
        minor,
      ),
    )
    if (selectorCount(spec.selector) === 0)
      errs.push(field.invalid(p, selectorValue(spec.selector), `empty selector is invalid for ${what}`))
  }
  return errs
}

/** ValidatePodTemplateSpecForReplicaSet. */
function validateTemplateForReplicaSet(
  template: JSONObject,
  selector: Selector,
  p: FieldPath,
  kind: string,
  minor: number,
): FieldError[] {
  const errs: FieldError[] = []
  const labels = obj(obj(template.metadata).labels) as Record<string, string>
  if (!selector.empty() && !selector.matches(labels)) {
    errs.push(
      labelsInvalid(
        p.child('metadata', 'labels'),
        isObj(obj(template.metadata).labels) ? labels : undefined,
        '`selector` does not match template `labels`',
        minor,
      ),
    )
  }
  errs.push(...validatePodTemplateSpec(template, p, { minor }))
  const ts = obj(template.spec)
  if (str(ts.restartPolicy) !== 'Always')
    errs.push(field.notSupported(p.child('spec', 'restartPolicy'), str(ts.restartPolicy), ['Always']))
  if (ts.activeDeadlineSeconds !== undefined && ts.activeDeadlineSeconds !== null)
    errs.push(
      field.forbidden(p.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`),
    )
  return errs
}

/** An intstr.IntOrString as decoded: a number or a string. */
type IntOrString = number | string

const PERCENT = /^[0-9]+%$/
function validatePositiveIntOrPercent(v: IntOrString | undefined, p: FieldPath): FieldError[] {
  if (v === undefined) return []
  if (typeof v === 'string') {
    return PERCENT.test(v)
      ? []
      : [
          field.invalid(
            p,
            v,
            "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
          ),
        ]
  }
  return validateNonnegative(v, p)
}
const percentValue = (v: IntOrString | undefined): number | undefined =>
  typeof v === 'string' && PERCENT.test(v) ? Number(v.slice(0, -1)) : undefined
/** getIntOrPercentValue: the percent, or IntValue() (a string's Atoi, 0 when it is not a number). */
const intOrPercentValue = (v: IntOrString | undefined): number => {
  const pc = percentValue(v)
  if (pc !== undefined) return pc
  if (typeof v === 'number') return v
  const n = Number.parseInt(v ?? '', 10)
  return /^[+-]?\d+$/.test(v ?? '') ? n : 0
}
function notMoreThan100Percent(v: IntOrString | undefined, p: FieldPath): FieldError[] {
  const pc = percentValue(v)
  return pc !== undefined && pc > 100 ? [field.invalid(p, v, 'must not be greater than 100%')] : []
}
const ios = (v: unknown): IntOrString | undefined => (typeof v === 'number' || typeof v === 'string' ? v : undefined)

/**
 * An update strategy as the apiserver prints it in an error: the internal Go struct, whose fields have no json
 * tags (pkg/apis/apps/types.go DeploymentStrategy / DaemonSetUpdateStrategy / StatefulSetUpdateStrategy:
 * `{"Type":"Rolling","RollingUpdate":null}`; a RollingUpdateDeployment's and RollingUpdateDaemonSet's
 * IntOrStrings are values, a RollingUpdateStatefulSetStrategy's MaxUnavailable a pointer).
 */
function internalStrategy(s: JSONObject, kind: 'Deployment' | 'DaemonSet' | 'StatefulSet'): GoStruct {
  const ru = isObj(s.rollingUpdate) ? s.rollingUpdate : undefined
  const rolling =
    ru === undefined
      ? null
      : kind === 'StatefulSet'
        ? new GoStruct([
            ['Partition', num(ru.partition) ?? 0],
            ['MaxUnavailable', ios(ru.maxUnavailable) ?? null],
          ])
        : new GoStruct([
            ['MaxUnavailable', ios(ru.maxUnavailable) ?? 0],
            ['MaxSurge', ios(ru.maxSurge) ?? 0],
          ])
  return new GoStruct([
    ['Type', str(s.type)],
    ['RollingUpdate', rolling],
  ])
}

/** ValidateDeploymentStrategy. */
function validateDeploymentStrategy(s: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const type = str(s.type)
  if (type === 'Recreate') {
    if (isObj(s.rollingUpdate))
      errs.push(field.forbidden(p.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"))
  } else if (type === 'RollingUpdate') {
    if (!isObj(s.rollingUpdate))
      errs.push(field.required(p.child('rollingUpdate'), 'this should be defaulted and never be nil'))
    else {
      const rp = p.child('rollingUpdate')
      const mu = ios(s.rollingUpdate.maxUnavailable)
      const ms = ios(s.rollingUpdate.maxSurge)
      errs.push(...validatePositiveIntOrPercent(mu, rp.child('maxUnavailable')))
      errs.push(...validatePositiveIntOrPercent(ms, rp.child('maxSurge')))
      if (intOrPercentValue(mu) === 0 && intOrPercentValue(ms) === 0)
        errs.push(field.invalid(rp.child('maxUnavailable'), mu ?? 0, 'may not be 0 when `maxSurge` is 0'))
      errs.push(...notMoreThan100Percent(mu, rp.child('maxUnavailable')))
    }
  } else {
    errs.push(field.notSupported(p, internalStrategy(s, 'Deployment'), ['Recreate', 'RollingUpdate']))
  }
  return errs
}

/** ValidateDeploymentSpec. */
function validateDeploymentSpec(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  errs.push(...validateNonnegative(num(spec.replicas) ?? 0, p.child('replicas')))
  errs.push(...validateRequiredSelector(spec, 'deployment', p.child('selector'), minor))
  const selector = asSelector(spec.selector)
  if (selector === undefined)
    errs.push(field.invalid(p.child('selector'), selectorValue(obj(spec.selector)), 'invalid label selector'))
  else
    errs.push(...validateTemplateForReplicaSet(obj(spec.template), selector, p.child('template'), 'ReplicaSet', minor))
  errs.push(...validateDeploymentStrategy(obj(spec.strategy), p.child('strategy')))
  const mrs = num(spec.minReadySeconds) ?? 0
  errs.push(...validateNonnegative(mrs, p.child('minReadySeconds')))
  const rhl = num(spec.revisionHistoryLimit)
  if (rhl !== undefined) errs.push(...validateNonnegative(rhl, p.child('revisionHistoryLimit')))
  if (isObj(spec.rollbackTo))
    errs.push(...validateNonnegative(num(spec.rollbackTo.revision) ?? 0, p.child('rollback', 'version')))
  const pds = num(spec.progressDeadlineSeconds)
  if (pds !== undefined) {
    errs.push(...validateNonnegative(pds, p.child('progressDeadlineSeconds')))
    if (pds <= mrs)
      errs.push(field.invalid(p.child('progressDeadlineSeconds'), pds, 'must be greater than minReadySeconds'))
  }
  return errs
}

const immutable = (nv: unknown, ov: unknown, p: FieldPath): FieldError[] =>
  deepEqualJSON(nv ?? null, ov ?? null)
    ? []
    : [field.invalid(p, isObj(nv) ? selectorValue(nv) : (nv ?? null), 'field is immutable')]

function meta(o: JSONObject, nameFn: ValidateNameFunc, old: JSONObject | undefined, minor: number): FieldError[] {
  return old !== undefined
    ? validateObjectMetaFor(o, { namespaced: true, nameFn, minor, oldObject: old, path: META })
    : validateObjectMetaFor(o, { namespaced: true, nameFn, minor, path: META })
}

function validateDeploymentCreateOrUpdate(d: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const errs = meta(d, nameIsDNSSubdomain, old, minor)
  errs.push(...validateDeploymentSpec(obj(d.spec), SPEC, minor))
  if (old !== undefined) errs.push(...immutable(obj(d.spec).selector, obj(old.spec).selector, SPEC.child('selector')))
  return errs
}

/** ValidateReplicaSetSpec. */
function validateReplicaSetSpec(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  errs.push(...validateNonnegative(num(spec.replicas) ?? 0, p.child('replicas')))
  errs.push(...validateNonnegative(num(spec.minReadySeconds) ?? 0, p.child('minReadySeconds')))
  errs.push(...validateRequiredSelector(spec, 'deployment', p.child('selector'), minor))
  const selector = asSelector(spec.selector)
  if (selector === undefined)
    errs.push(field.invalid(p.child('selector'), selectorValue(obj(spec.selector)), 'invalid label selector'))
  else
    errs.push(...validateTemplateForReplicaSet(obj(spec.template), selector, p.child('template'), 'ReplicaSet', minor))
  return errs
}

/**
 * Up to 1.33 the ReplicaSet and DaemonSet strategies' ValidateUpdate ran the create validation
 * (ValidateReplicaSet / ValidateDaemonSet: ObjectMeta and spec) before the update validation, which
 * validates the spec again, and appended the selector immutability last; from 1.34 only the update
 * validation runs (the DaemonSet's immutability inside ValidateDaemonSetSpecUpdate, before its spec).
 */
const createFirstOnUpdate = (minor: number) => minor <= 33

function validateReplicaSetCreateOrUpdate(rs: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const spec = () => validateReplicaSetSpec(obj(rs.spec), SPEC, minor)
  const errs =
    old !== undefined && createFirstOnUpdate(minor)
      ? [...meta(rs, nameIsDNSSubdomain, undefined, minor), ...spec(), ...meta(rs, nameIsDNSSubdomain, old, minor)]
      : meta(rs, nameIsDNSSubdomain, old, minor)
  errs.push(...spec())
  if (old !== undefined) errs.push(...immutable(obj(rs.spec).selector, obj(old.spec).selector, SPEC.child('selector')))
  return errs
}

/** ValidateDaemonSetUpdateStrategy. */
function validateDaemonSetUpdateStrategy(s: JSONObject, p: FieldPath): FieldError[] {
  const type = str(s.type)
  if (type === 'OnDelete') return []
  if (type === 'RollingUpdate') {
    if (!isObj(s.rollingUpdate)) return [field.required(p.child('rollingUpdate'), '')]
    const rp = p.child('rollingUpdate')
    const mu = ios(s.rollingUpdate.maxUnavailable)
    const ms = ios(s.rollingUpdate.maxSurge)
    const errs = [
      ...validatePositiveIntOrPercent(mu, rp.child('maxUnavailable')),
      ...validatePositiveIntOrPercent(ms, rp.child('maxSurge')),
      ...notMoreThan100Percent(mu, rp.child('maxUnavailable')),
      ...notMoreThan100Percent(ms, rp.child('maxSurge')),
    ]
    const hasU = intOrPercentValue(mu) !== 0
    const hasS = intOrPercentValue(ms) !== 0
    if (hasU && hasS)
      errs.push(field.invalid(rp.child('maxSurge'), ms, 'may not be set when maxUnavailable is non-zero'))
    else if (!hasU && !hasS) errs.push(field.required(rp.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'))
    return errs
  }
  return [field.notSupported(p, internalStrategy(s, 'DaemonSet'), ['RollingUpdate', 'OnDelete'])]
}

/** ValidateDaemonSetSpec. */
function validateDaemonSetSpec(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const sel = isObj(spec.selector) ? spec.selector : undefined
  errs.push(
    ...validateLabelSelector(
      sel as unknown as PolicyLabelSelector | undefined,
      { allowInvalidLabelValueInSelector: false },
      p.child('selector'),
      minor,
    ),
  )
  const template = obj(spec.template)
  const tmeta = obj(template.metadata)
  const selector = asSelector(sel)
  if (selector !== undefined && !selector.matches(obj(tmeta.labels) as Record<string, string>))
    errs.push(
      labelsInvalid(
        p.child('template', 'metadata', 'labels'),
        isObj(tmeta.labels) ? (tmeta.labels as Record<string, string>) : undefined,
        '`selector` does not match template `labels`',
        minor,
      ),
    )
  if (sel !== undefined && selectorCount(sel) === 0)
    errs.push(field.invalid(p.child('selector'), selectorValue(sel), 'empty selector is invalid for daemonset'))
  errs.push(...validatePodTemplateSpec(template, p.child('template'), { minor }))
  const ts = obj(template.spec)
  if (str(ts.restartPolicy) !== 'Always')
    errs.push(field.notSupported(p.child('template', 'spec', 'restartPolicy'), str(ts.restartPolicy), ['Always']))
  if (ts.activeDeadlineSeconds !== undefined && ts.activeDeadlineSeconds !== null)
    errs.push(
      field.forbidden(
        p.child('template', 'spec', 'activeDeadlineSeconds'),
        'activeDeadlineSeconds in DaemonSet is not Supported',
      ),
    )
  errs.push(...validateNonnegative(num(spec.minReadySeconds) ?? 0, p.child('minReadySeconds')))
  errs.push(...validateNonnegative(num(spec.templateGeneration) ?? 0, p.child('templateGeneration')))
  errs.push(...validateDaemonSetUpdateStrategy(obj(spec.updateStrategy), p.child('updateStrategy')))
  const rhl = num(spec.revisionHistoryLimit)
  if (rhl !== undefined) errs.push(...validateNonnegative(rhl, p.child('revisionHistoryLimit')))
  return errs
}

/** ValidateDaemonSet. */
export function validateDaemonSet(ds: JSONObject, minor: number): FieldError[] {
  const spec = () => validateDaemonSetSpec(obj(ds.spec), SPEC, minor)
  return [...meta(ds, nameIsDNSSubdomain, undefined, minor), ...spec()]
}

/** ValidateDaemonSetUpdate. */
export function validateDaemonSetUpdate(ds: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const spec = () => validateDaemonSetSpec(obj(ds.spec), SPEC, minor)
  const selector = immutable(obj(ds.spec).selector, obj(old.spec).selector, SPEC.child('selector'))
  // ValidateDaemonSetSpecUpdate's templateGeneration rules: the field is internal (the strategy keeps it)
  if (createFirstOnUpdate(minor))
    return [
      ...meta(ds, nameIsDNSSubdomain, undefined, minor),
      ...spec(),
      ...meta(ds, nameIsDNSSubdomain, old, minor),
      ...spec(),
      ...selector,
    ]
  return [...meta(ds, nameIsDNSSubdomain, old, minor), ...selector, ...spec()]
}

/** StatefulSetValidationOptions (the ones kelp uses). */
interface StatefulSetOptions {
  /** AllowInvalidServiceName: set on update (1.33+; before 1.33 serviceName is not validated at all). */
  readonly allowInvalidServiceName?: boolean
  /** SkipValidatePodTemplateSpec (1.34+): on update, when the old spec does not validate. */
  readonly skipPodTemplateSpec?: boolean
  /** SkipValidateVolumeClaimTemplates: set on update (the templates are immutable). */
  readonly skipVolumeClaimTemplates?: boolean
}

const RETENTION_POLICY_TYPES = ['Retain', 'Delete']

/** ValidatePersistentVolumeClaimRetentionPolicy (with ValidatePersistentVolumeClaimRetentionPolicyType). */
function validatePersistentVolumeClaimRetentionPolicy(policy: unknown, p: FieldPath): FieldError[] {
  if (!isObj(policy)) return []
  const errs: FieldError[] = []
  for (const k of ['whenDeleted', 'whenScaled']) {
    const v = str(policy[k])
    if (!RETENTION_POLICY_TYPES.includes(v)) errs.push(field.notSupported(p.child(k), v, RETENTION_POLICY_TYPES))
  }
  return errs
}

/** ValidateStatefulSetSpec (without the volumeClaimTemplates' own validation). */
function validateStatefulSetSpec(
  spec: JSONObject,
  p: FieldPath,
  minor: number,
  setOpts: StatefulSetOptions = {},
): FieldError[] {
  const errs: FieldError[] = []
  const pmp = str(spec.podManagementPolicy)
  if (pmp === '') errs.push(field.required(p.child('podManagementPolicy'), ''))
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel')
    errs.push(field.invalid(p.child('podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"))
  const us = obj(spec.updateStrategy)
  const ut = str(us.type)
  if (ut === '') errs.push(field.required(p.child('updateStrategy'), ''))
  else if (ut === 'OnDelete') {
    if (isObj(us.rollingUpdate))
      errs.push(
        field.invalid(
          p.child('updateStrategy', 'rollingUpdate'),
          us.rollingUpdate,
          "only allowed for updateStrategy 'RollingUpdate'",
        ),
      )
  } else if (ut === 'RollingUpdate') {
    if (isObj(us.rollingUpdate)) {
      const rp = p.child('updateStrategy', 'rollingUpdate')
      errs.push(...validateNonnegative(num(us.rollingUpdate.partition) ?? 0, rp.child('partition')))
      const mu = ios(us.rollingUpdate.maxUnavailable)
      if (mu !== undefined) {
        errs.push(...validatePositiveIntOrPercent(mu, rp.child('maxUnavailable')))
        if (intOrPercentValue(mu) === 0) errs.push(field.invalid(rp.child('maxUnavailable'), mu, 'cannot be 0'))
        errs.push(...notMoreThan100Percent(mu, rp.child('maxUnavailable')))
      }
    }
  } else
    errs.push(
      field.invalid(
        p.child('updateStrategy'),
        internalStrategy(us, 'StatefulSet'),
        "must be 'RollingUpdate' or 'OnDelete'",
      ),
    )
  errs.push(
    ...validatePersistentVolumeClaimRetentionPolicy(
      spec.persistentVolumeClaimRetentionPolicy,
      p.child('persistentVolumeClaimRetentionPolicy'),
    ),
  )
  // on update the strategy skips them (SkipValidateVolumeClaimTemplates: they are immutable)
  if (!setOpts.skipVolumeClaimTemplates && Array.isArray(spec.volumeClaimTemplates))
    errs.push(...validateClaimTemplates(spec.volumeClaimTemplates, p.child('volumeClaimTemplates'), minor))
  errs.push(...validateNonnegative(num(spec.replicas) ?? 0, p.child('replicas')))
  errs.push(...validateNonnegative(num(spec.minReadySeconds) ?? 0, p.child('minReadySeconds')))
  if (isObj(spec.ordinals)) errs.push(...validateNonnegative(num(spec.ordinals.start) ?? 0, p.child('ordinals.start')))
  const sn = str(spec.serviceName)
  if (minor >= 33 && !setOpts.allowInvalidServiceName && sn.length > 0)
    errs.push(...validateDNS1123Label(sn, p.child('serviceName')))
  if (!isObj(spec.selector)) errs.push(field.required(p.child('selector'), ''))
  else {
    errs.push(
      ...validateLabelSelector(
        spec.selector as unknown as PolicyLabelSelector,
        { allowInvalidLabelValueInSelector: false },
        p.child('selector'),
        minor,
      ),
    )
    if (selectorCount(spec.selector) === 0)
      errs.push(
        field.invalid(p.child('selector'), selectorValue(spec.selector), 'empty selector is invalid for statefulset'),
      )
  }
  const selector = asSelector(spec.selector)
  const template = obj(spec.template)
  if (selector === undefined) errs.push(field.invalid(p.child('selector'), selectorValue(obj(spec.selector)), ''))
  else {
    // the controller overwrites hostname and subdomain; claim templates add volumes
    const ts = { ...obj(template.spec) }
    delete ts.hostname
    delete ts.subdomain
    const claims = Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates.map(obj) : []
    if (claims.length > 0) {
      const added = new Map<string, JSONObject>()
      for (const c of claims) {
        const name = str(obj(c.metadata).name)
        added.set(name, { name, persistentVolumeClaim: { claimName: name } })
      }
      const others = (Array.isArray(ts.volumes) ? ts.volumes : []).filter((v) => !added.has(str(obj(v).name)))
      ts.volumes = [...added.values(), ...others]
    }
    const tpl = { ...template, spec: ts }
    const tp = p.child('template')
    const labels = obj(obj(template.metadata).labels) as Record<string, string>
    if (!selector.empty() && !selector.matches(labels))
      errs.push(
        labelsInvalid(
          tp.child('metadata', 'labels'),
          isObj(obj(template.metadata).labels) ? labels : undefined,
          '`selector` does not match template `labels`',
          minor,
        ),
      )
    // ValidatePodTemplateSpecForStatefulSet: before 1.34 the pod template itself is not validated
    // (its ValidatePodTemplateSpec call is commented out), only its labels and annotations; from 1.34
    // it is, and the labels and annotations are validated again after it
    if (minor >= 34 && !setOpts.skipPodTemplateSpec) errs.push(...validatePodTemplateSpec(tpl, tp, { minor }))
    const tmeta = obj(template.metadata)
    const annotations = isObj(tmeta.annotations) ? (tmeta.annotations as Record<string, string>) : undefined
    errs.push(...validateLabels(isObj(tmeta.labels) ? labels : undefined, tp.child('labels'), minor))
    errs.push(...validateAnnotations(annotations, tp.child('annotations'), minor))
    errs.push(...validatePodSpecificAnnotations(annotations, ts, tp.child('annotations'), minor))
  }
  const ts = obj(template.spec)
  if (str(ts.restartPolicy) !== 'Always')
    errs.push(field.notSupported(p.child('template', 'spec', 'restartPolicy'), str(ts.restartPolicy), ['Always']))
  if (ts.activeDeadlineSeconds !== undefined && ts.activeDeadlineSeconds !== null)
    errs.push(
      field.forbidden(
        p.child('template', 'spec', 'activeDeadlineSeconds'),
        'activeDeadlineSeconds in StatefulSet is not Supported',
      ),
    )
  return errs
}

/** The spec fields a StatefulSet update may change before 1.37 (the munged ones of ValidateStatefulSetUpdate). */
const STS_UPDATABLE = [
  'replicas',
  'template',
  'updateStrategy',
  'minReadySeconds',
  'ordinals',
  'persistentVolumeClaimRetentionPolicy',
]

/** ValidateStatefulSet. */
export function validateStatefulSet(s: JSONObject, minor: number): FieldError[] {
  const errs = meta(s, nameIsDNSLabel, undefined, minor)
  errs.push(...validateStatefulSetSpec(obj(s.spec), SPEC, minor))
  return errs
}

/**
 * ValidateStatefulSetUpdate. Up to 1.36 every spec field but the updatable ones (revisionHistoryLimit
 * among them from 1.33) must stay, with one Forbidden on `spec`; from 1.37 selector,
 * volumeClaimTemplates, serviceName and podManagementPolicy are each immutable. From 1.33 the new
 * serviceName is not validated (AllowInvalidServiceName); from 1.34 the template's pod spec is not
 * validated when the old spec does not validate (SkipValidatePodTemplateSpec).
 */
export function validateStatefulSetUpdate(s: JSONObject, oldObject: JSONObject, minor: number): FieldError[] {
  const old = obj(oldObject.spec)
  const spec = obj(s.spec)
  const errs = meta(s, nameIsDNSLabel, oldObject, minor)
  const setOpts: StatefulSetOptions = {
    allowInvalidServiceName: true,
    skipVolumeClaimTemplates: true,
    skipPodTemplateSpec:
      minor >= 34 &&
      validateStatefulSetSpec(old, SPEC, minor, { allowInvalidServiceName: true, skipVolumeClaimTemplates: true })
        .length > 0,
  }
  errs.push(...validateStatefulSetSpec(spec, SPEC, minor, setOpts))
  if (minor <= 36) {
    const updatable = minor >= 33 ? [...STS_UPDATABLE, 'revisionHistoryLimit'] : STS_UPDATABLE
    const rest = (x: JSONObject) => Object.fromEntries(Object.entries(x).filter(([k]) => !updatable.includes(k)))
    if (!deepEqualJSON(rest(spec), rest(old)))
      errs.push(
        field.forbidden(
          SPEC,
          minor >= 33
            ? "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
            : "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ),
      )
    return errs
  }
  errs.push(...immutable(spec.selector, old.selector, SPEC.child('selector')))
  if (!deepEqualJSON(spec.volumeClaimTemplates ?? null, old.volumeClaimTemplates ?? null))
    errs.push(
      field.invalid(SPEC.child('volumeClaimTemplates'), spec.volumeClaimTemplates ?? null, 'field is immutable'),
    )
  errs.push(...immutable(spec.serviceName ?? '', old.serviceName ?? '', SPEC.child('serviceName')))
  errs.push(
    ...immutable(spec.podManagementPolicy ?? '', old.podManagementPolicy ?? '', SPEC.child('podManagementPolicy')),
  )
  return errs
}

/** ValidateDeployment. */
export function validateDeployment(d: JSONObject, minor: number): FieldError[] {
  return validateDeploymentCreateOrUpdate(d, undefined, minor)
}

/** ValidateDeploymentUpdate. */
export function validateDeploymentUpdate(d: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateDeploymentCreateOrUpdate(d, old, minor)
}

/** ValidateReplicaSet. */
export function validateReplicaSet(rs: JSONObject, minor: number): FieldError[] {
  return validateReplicaSetCreateOrUpdate(rs, undefined, minor)
}

/** ValidateReplicaSetUpdate. */
export function validateReplicaSetUpdate(rs: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateReplicaSetCreateOrUpdate(rs, old, minor)
}
