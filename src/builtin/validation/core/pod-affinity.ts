import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import type { LabelSelector } from '../../../kube/validation/label-selector.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain } from '../../../kube/validation/objectmeta.js'
import { arr, isObj, type JSONObject, keys, obj, optNum, str, strs } from '../common.js'

// Scheduling constraints of a PodSpec (kubernetes v1.37.2 pkg/apis/core/validation/validation.go):
// validateAffinity (validateNodeAffinity with ValidateNodeSelector / ValidateNodeSelectorTerm /
// ValidateNodeSelectorRequirement / ValidateNodeFieldSelectorRequirement / ValidatePreferredSchedulingTerms,
// validatePodAffinity / validatePodAntiAffinity with validatePodAffinityTerm,
// ValidatePodAffinityTermSelector, ValidateMatchLabelKeysAndMismatchLabelKeys) and
// validateTopologySpreadConstraints (validateMinDomains, ValidateTopologyKey, ValidateWhenUnsatisfiable,
// ValidateSpreadConstraintNotRepeat, validateNodeInclusionPolicy, ValidateMatchLabelKeysInTopologySpread).
// The validation options are those of a create: no old pod, so no invalid label values are allowed.
// The Pod strategy's mutatePodAffinity / mutateTopologySpreadConstraints (merging matchLabelKeys into
// the selector before validation) are not applied here.

const labelName = (key: string, p: FieldPath, minor: number): FieldError[] =>
  isQualifiedName(key, minor).map((m) => field.invalid(p, key, m))

const selector = (v: unknown): LabelSelector | undefined => (isObj(v) ? (v as LabelSelector) : undefined)

/** ValidateNodeSelectorRequirement. */
function validateNodeSelectorRequirement(rq: JSONObject, allowInvalidValue: boolean, p: FieldPath, minor: number) {
  const errs: FieldError[] = []
  const values = strs(rq.values)
  const op = str(rq.operator)
  switch (op) {
    case 'In':
    case 'NotIn':
      if (values.length === 0)
        errs.push(field.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"))
      break
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0)
        errs.push(
          field.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        )
      break
    case 'Gt':
    case 'Lt':
      if (values.length !== 1)
        errs.push(field.required(p.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
      break
    default:
      errs.push(field.invalid(p.child('operator'), op, 'not a valid selector operator'))
  }
  errs.push(...labelName(str(rq.key), p.child('key'), minor))
  if (!allowInvalidValue)
    values.forEach((v, i) => {
      for (const m of isValidLabelValue(v, minor)) errs.push(field.invalid(p.child('values').index(i), v, m))
    })
  return errs
}

/** ValidateNodeFieldSelectorRequirement (only metadata.name, a node name). */
function validateNodeFieldSelectorRequirement(rq: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const values = strs(rq.values)
  const op = str(rq.operator)
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1)
      errs.push(
        field.required(
          p.child('values'),
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      )
  } else errs.push(field.invalid(p.child('operator'), op, 'not a valid selector operator'))
  const key = str(rq.key)
  if (key !== 'metadata.name') errs.push(field.invalid(p.child('key'), key, 'not a valid field selector key'))
  else
    values.forEach((v, i) => {
      for (const m of nameIsDNSSubdomain(v, false)) errs.push(field.invalid(p.child('values').index(i), v, m))
    })
  return errs
}

/** ValidateNodeSelectorTerm. */
export function validateNodeSelectorTerm(term: unknown, allowInvalidValue: boolean, p: FieldPath, minor: number) {
  const t = obj(term) ?? {}
  const errs: FieldError[] = []
  arr(t.matchExpressions).forEach((r, j) => {
    errs.push(
      ...validateNodeSelectorRequirement(obj(r) ?? {}, allowInvalidValue, p.child('matchExpressions').index(j), minor),
    )
  })
  arr(t.matchFields).forEach((r, j) => {
    errs.push(...validateNodeFieldSelectorRequirement(obj(r) ?? {}, p.child('matchFields').index(j)))
  })
  return errs
}

/** ValidateNodeSelector. */
export function validateNodeSelector(ns: JSONObject, allowInvalidValue: boolean, p: FieldPath, minor: number) {
  const tp = p.child('nodeSelectorTerms')
  const terms = arr(ns.nodeSelectorTerms)
  if (terms.length === 0) return [field.required(tp, 'must have at least one node selector term')]
  const errs: FieldError[] = []
  terms.forEach((t, i) => {
    errs.push(...validateNodeSelectorTerm(t, allowInvalidValue, tp.index(i), minor))
  })
  return errs
}

function validateWeight(w: unknown, p: FieldPath): FieldError[] {
  const n = optNum(w) ?? 0
  return n <= 0 || n > 100 ? [field.invalid(p, n, 'must be in the range 1-100')] : []
}

/** validateNodeAffinity. */
function validateNodeAffinity(na: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const req = obj(na.requiredDuringSchedulingIgnoredDuringExecution)
  if (req !== undefined)
    errs.push(...validateNodeSelector(req, false, p.child('requiredDuringSchedulingIgnoredDuringExecution'), minor))
  const pp = p.child('preferredDuringSchedulingIgnoredDuringExecution')
  arr(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((x, i) => {
    const term = obj(x) ?? {}
    errs.push(...validateWeight(term.weight, pp.index(i).child('weight')))
    // invalid label values are always allowed in preferred terms
    errs.push(...validateNodeSelectorTerm(term.preference, true, pp.index(i).child('preference'), minor))
  })
  return errs
}

/** validateLabelKeys (matchLabelKeys / mismatchLabelKeys). */
function validateLabelKeys(p: FieldPath, labelKeys: string[], sel: LabelSelector | undefined, minor: number) {
  if (labelKeys.length === 0) return []
  if (sel === undefined) return [field.forbidden(p, 'must not be specified when labelSelector is not set')]
  const errs: FieldError[] = []
  labelKeys.forEach((k, i) => {
    errs.push(...labelName(k, p.index(i), minor))
  })
  return errs
}

/** ValidateMatchLabelKeysAndMismatchLabelKeys. */
function validateMatchLabelKeysAndMismatchLabelKeys(
  p: FieldPath,
  matchKeys: string[],
  mismatchKeys: string[],
  sel: LabelSelector | undefined,
  minor: number,
): FieldError[] {
  const errs: FieldError[] = []
  errs.push(...validateLabelKeys(p.child('matchLabelKeys'), matchKeys, sel, minor))
  errs.push(...validateLabelKeys(p.child('mismatchLabelKeys'), mismatchKeys, sel, minor))
  if (sel !== undefined) {
    const index = new Map<string, number>()
    matchKeys.forEach((k, i) => {
      index.set(k, i)
    })
    const seen = new Set(keys(sel.matchLabels))
    for (const e of arr(sel.matchExpressions)) {
      const key = str(obj(e)?.key)
      const i = index.get(key)
      // Go reports at fldPath.Index(i): the index hangs on the term (or constraint) path itself
      if (i !== undefined && seen.has(key))
        errs.push(field.invalid(p.index(i), key, 'exists in both matchLabelKeys and labelSelector'))
      seen.add(key)
    }
  }
  const mismatch = new Set(mismatchKeys)
  matchKeys.forEach((k, i) => {
    if (mismatch.has(k))
      errs.push(
        field.invalid(p.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'),
      )
  })
  return errs
}

/** validatePodAffinityTerm. */
function validatePodAffinityTerm(t: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const sel = selector(t.labelSelector)
  errs.push(...validateLabelSelector(sel, {}, p.child('labelSelector'), minor))
  errs.push(...validateLabelSelector(selector(t.namespaceSelector), {}, p.child('namespaceSelector'), minor))
  for (const name of strs(t.namespaces))
    for (const m of isDNS1123Label(name)) errs.push(field.invalid(p.child('namespace'), name, m))
  errs.push(
    ...validateMatchLabelKeysAndMismatchLabelKeys(p, strs(t.matchLabelKeys), strs(t.mismatchLabelKeys), sel, minor),
  )
  const tk = str(t.topologyKey)
  if (tk.length === 0) errs.push(field.required(p.child('topologyKey'), 'can not be empty'))
  errs.push(...labelName(tk, p.child('topologyKey'), minor))
  return errs
}

/** validatePodAffinity / validatePodAntiAffinity. */
function validatePodAffinity(a: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const rp = p.child('requiredDuringSchedulingIgnoredDuringExecution')
  arr(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    errs.push(...validatePodAffinityTerm(obj(t) ?? {}, rp.index(i), minor))
  })
  const pp = p.child('preferredDuringSchedulingIgnoredDuringExecution')
  arr(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((x, j) => {
    const w = obj(x) ?? {}
    errs.push(...validateWeight(w.weight, pp.index(j).child('weight')))
    errs.push(...validatePodAffinityTerm(obj(w.podAffinityTerm) ?? {}, pp.index(j).child('podAffinityTerm'), minor))
  })
  return errs
}

/** validateAffinity. */
export function validateAffinity(affinity: unknown, p: FieldPath, minor: number): FieldError[] {
  const a = obj(affinity)
  if (a === undefined) return []
  const errs: FieldError[] = []
  const na = obj(a.nodeAffinity)
  if (na !== undefined) errs.push(...validateNodeAffinity(na, p.child('nodeAffinity'), minor))
  const pa = obj(a.podAffinity)
  if (pa !== undefined) errs.push(...validatePodAffinity(pa, p.child('podAffinity'), minor))
  const paa = obj(a.podAntiAffinity)
  if (paa !== undefined) errs.push(...validatePodAffinity(paa, p.child('podAntiAffinity'), minor))
  return errs
}

const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway']
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore']

/** ValidateMatchLabelKeysInTopologySpread (the rule before MatchLabelKeysInPodTopologySpreadSelectorMerge). */
function validateMatchLabelKeysInTopologySpread(
  p: FieldPath,
  matchKeys: string[],
  sel: LabelSelector | undefined,
  minor: number,
) {
  if (matchKeys.length === 0) return []
  const errs: FieldError[] = []
  const selKeys = new Set<string>()
  if (sel !== undefined) {
    for (const k of keys(sel.matchLabels)) selKeys.add(k)
    for (const e of arr(sel.matchExpressions)) selKeys.add(str(obj(e)?.key))
  } else errs.push(field.forbidden(p, 'must not be specified when labelSelector is not set'))
  matchKeys.forEach((k, i) => {
    errs.push(...labelName(k, p.index(i), minor))
    if (selKeys.has(k)) errs.push(field.invalid(p.index(i), k, 'exists in both matchLabelKeys and labelSelector'))
  })
  return errs
}

/**
 * validateTopologySpreadConstraints. MatchLabelKeysInPodTopologySpreadSelectorMerge (beta, on from
 * 1.34) switches the matchLabelKeys rule to ValidateMatchLabelKeysAndMismatchLabelKeys.
 */
export function validateTopologySpreadConstraints(constraints: unknown, p: FieldPath, minor: number): FieldError[] {
  const list = arr(constraints).map((c) => obj(c) ?? {})
  const errs: FieldError[] = []
  list.forEach((c, i) => {
    const sp = p.index(i)
    const maxSkew = optNum(c.maxSkew) ?? 0
    if (maxSkew <= 0) errs.push(field.invalid(sp.child('maxSkew'), maxSkew, 'must be greater than zero'))
    const tk = str(c.topologyKey)
    if (tk.length === 0) errs.push(field.required(sp.child('topologyKey'), 'can not be empty'))
    const wu = str(c.whenUnsatisfiable)
    if (!SCHEDULE_ACTIONS.includes(wu))
      errs.push(field.notSupported(sp.child('whenUnsatisfiable'), wu, SCHEDULE_ACTIONS))
    if (list.slice(i + 1).some((r) => str(r.topologyKey) === tk && str(r.whenUnsatisfiable) === wu))
      errs.push(field.duplicate(sp.child('{topologyKey, whenUnsatisfiable}'), `{${tk}, ${wu}}`))
    const md = optNum(c.minDomains)
    if (md !== undefined) {
      if (md <= 0) errs.push(field.invalid(sp.child('minDomains'), md, 'must be greater than zero'))
      if (wu !== 'DoNotSchedule')
        errs.push(
          field.invalid(
            sp.child('minDomains'),
            md,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${wu}`,
          ),
        )
    }
    for (const k of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      const v = c[k]
      if (typeof v === 'string' && !NODE_INCLUSION_POLICIES.includes(v))
        errs.push(field.notSupported(sp.child(k), v, NODE_INCLUSION_POLICIES))
    }
    const sel = selector(c.labelSelector)
    const matchKeys = strs(c.matchLabelKeys)
    if (minor >= 34) errs.push(...validateMatchLabelKeysAndMismatchLabelKeys(sp, matchKeys, [], sel, minor))
    else errs.push(...validateMatchLabelKeysInTopologySpread(sp.child('matchLabelKeys'), matchKeys, sel, minor))
    errs.push(...validateLabelSelector(sel, {}, sp.child('labelSelector'), minor))
  })
  return errs
}
