import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { anyName, longName, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { isObj, type JSONObject, keys, obj, optNum, str, strMap, validateNonnegativeField } from '../common.js'
import { validatePodTemplateSpec } from './pod.js'

// core/v1 ReplicationController: kubernetes v1.37.2 pkg/apis/core/validation/validation.go
// ValidateReplicationController / ValidateReplicationControllerUpdate (ValidateReplicationControllerSpec,
// ValidateNonEmptySelector, ValidatePodTemplateSpecForRC; the template through core/pod.ts). From 1.37
// (beta, DeclarativeValidationBeta on; alpha in 1.36) the rules of pkg/apis/core/v1 zz_generated.validations.go
// Validate_ReplicationController (metadata.name LongName, spec.replicas required and minimum 0,
// spec.minReadySeconds minimum 0) replace the handwritten errors they cover (MarkCoveredByDeclarative)
// and come after the handwritten list, in the declarative order (name, replicas, minReadySeconds); an
// unchanged field is not validated declaratively on update. Not modelled: the strategy's
// non-convertible-field annotations (helper.NonConvertibleFields), which only old clients write.

const META = FieldPath.of('metadata')
const SPEC = FieldPath.of('spec')

/** Whether the kind's declarative rules are enforced: beta (DeclarativeValidationBeta on) from 1.37, alpha in 1.36. */
const beta = (minor: number) => minor >= 37

/** field.Invalid of template.Labels; before 1.34 the value printed as Go's %#v of a map[string]string. */
function labelsInvalid(p: FieldPath, m: Record<string, string> | undefined, detail: string, minor: number) {
  const e = field.invalid(p, m ?? null, detail)
  if (minor >= 34) return e
  const printed =
    m === undefined
      ? 'map[string]string(nil)'
      : `map[string]string{${keys(m)
          .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`)
          .join(', ')}}`
  return { ...e, printedValue: printed }
}

/** labels.Set(selector).AsSelector().Matches(labels). */
function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return keys(selector).every((k) => Object.hasOwn(labels, k) && labels[k] === selector[k])
}

/** ValidatePodTemplateSpecForRC. */
function validatePodTemplateSpecForRC(
  template: JSONObject | undefined,
  selector: Record<string, string>,
  p: FieldPath,
  minor: number,
): FieldError[] {
  if (template === undefined) return [field.required(p, '')]
  const errs: FieldError[] = []
  const labels = strMap(obj(template.metadata)?.labels)
  if (keys(selector).length > 0 && !matches(selector, labels ?? {}))
    errs.push(
      labelsInvalid(p.child('metadata', 'labels'), labels, '`selector` does not match template `labels`', minor),
    )
  errs.push(...validatePodTemplateSpec(template, p, { minor }))
  const ts = obj(template.spec) ?? {}
  if (str(ts.restartPolicy) !== 'Always')
    errs.push(field.notSupported(p.child('spec', 'restartPolicy'), str(ts.restartPolicy), ['Always']))
  if (ts.activeDeadlineSeconds !== undefined && ts.activeDeadlineSeconds !== null)
    errs.push(
      field.forbidden(
        p.child('spec', 'activeDeadlineSeconds'),
        'activeDeadlineSeconds in ReplicationController is not Supported',
      ),
    )
  return errs
}

/** A handwritten error and whether it is MarkCoveredByDeclarative. */
type Hw = { e: FieldError; covered: boolean }

/** ValidateReplicationControllerSpec. */
function validateReplicationControllerSpec(spec: JSONObject, minor: number): Hw[] {
  const out: Hw[] = []
  const hw = (errs: FieldError[], covered = false) => {
    for (const e of errs) out.push({ e, covered })
  }
  hw(validateNonnegativeField(optNum(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')), true)
  const selector = strMap(spec.selector) ?? {}
  if (keys(selector).length === 0) hw([field.required(SPEC.child('selector'), '')])
  const replicas = optNum(spec.replicas)
  if (replicas === undefined) hw([field.required(SPEC.child('replicas'), '')], true)
  else hw(validateNonnegativeField(replicas, SPEC.child('replicas')), true)
  hw(validatePodTemplateSpecForRC(obj(spec.template), selector, SPEC.child('template'), minor))
  return out
}

/** Validate_ReplicationController's beta rules, with update ratcheting (an unchanged value is skipped). */
function declarative(rc: JSONObject, old: JSONObject | undefined): FieldError[] {
  const errs: FieldError[] = []
  const name = str(obj(rc.metadata)?.name)
  if (old === undefined && name !== '')
    for (const m of longName(name, false)) errs.push(field.invalid(META.child('name'), name, m))
  const spec = obj(rc.spec) ?? {}
  const oldSpec = obj(old?.spec)
  const changed = (k: string) => oldSpec === undefined || optNum(oldSpec[k]) !== optNum(spec[k])
  const replicas = optNum(spec.replicas)
  if (changed('replicas')) {
    if (replicas === undefined) errs.push(field.required(SPEC.child('replicas'), ''))
    else errs.push(...validateNonnegativeField(replicas, SPEC.child('replicas')))
  }
  if (changed('minReadySeconds'))
    errs.push(...validateNonnegativeField(optNum(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')))
  return errs
}

function validateReplicationControllerCreateOrUpdate(
  rc: JSONObject,
  old: JSONObject | undefined,
  minor: number,
): FieldError[] {
  // the name rule is covered by the declarative LongName from 1.37
  const nameFn = beta(minor) ? anyName : longName
  const errs =
    old === undefined
      ? validateObjectMetaFor(rc, { namespaced: true, nameFn, minor, path: META })
      : validateObjectMetaFor(rc, { namespaced: true, nameFn, minor, oldObject: old, path: META })
  const hand = validateReplicationControllerSpec(isObj(rc.spec) ? rc.spec : {}, minor)
  if (!beta(minor)) return [...errs, ...hand.map((h) => h.e)]
  // rest.ValidateDeclarativelyWithMigrationChecks: a covered error goes when an enforced declarative error
  // of its type and field exists (validate.FilterCoveredHandwrittenErrors); the declarative ones come last
  const dec = declarative(rc, old)
  const matched = (e: FieldError) => dec.some((d) => d.type === e.type && d.field === e.field)
  return [...errs, ...hand.filter((h) => !(h.covered && matched(h.e))).map((h) => h.e), ...dec]
}

/** ValidateReplicationController. */
export function validateReplicationController(rc: JSONObject, minor: number): FieldError[] {
  return validateReplicationControllerCreateOrUpdate(rc, undefined, minor)
}

/** ValidateReplicationControllerUpdate. */
export function validateReplicationControllerUpdate(rc: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateReplicationControllerCreateOrUpdate(rc, old, minor)
}
