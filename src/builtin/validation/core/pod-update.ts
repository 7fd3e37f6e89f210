import { compareStrings } from '../../../cel/values/strings.js'
import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { deepEqual } from '../../../kube/values/json.js'
import type { Quantity } from '../../../kube/values/quantity.js'
import { arr, isObj, type JSONObject, keys, obj, optNum, str, strMap } from '../common.js'
import { goDiff } from '../go-diff.js'
import { internalPodSpec } from './pod-spec-internal.js'
import { quantity, ZERO } from './resources.js'

// The update rules of core/v1 Pod: ValidatePodUpdate after ValidateObjectMetaUpdate and
// validatePodMetadataAndSpec (both in pod.ts), in Go's order: ValidatePodSpecificAnnotationUpdates,
// ValidateContainerUpdates (containers, then initContainers; a count change stops there),
// activeDeadlineSeconds, validateOnlyAddedTolerations, validateOnlyDeletedSchedulingGates, then the
// spec equality after munging the updatable fields (images, activeDeadlineSeconds, tolerations,
// schedulingGates, a terminationGracePeriodSeconds of 1 over a negative one, and for a gated pod the
// additions to nodeSelector / required node affinity) with its Forbidden `pod updates may not change
// fields other than …`.
//
// Release differences: 1.30 and 1.31 (InPlacePodVerticalScaling alpha, off) also report
// `metadata: Invalid value: "<status.qosClass>": Pod QoS is immutable` when the QoS class computed
// from the new spec differs from the old pod's; from 1.32 resizes go through the resize subresource
// and that check is gone. The Forbidden message's list of updatable fields is the same in every
// supported release (the gate-off list of 1.30 / 1.31 equals the later one).
//
// The diff after the message: the apiserver appends a diff of the internal core.PodSpec — go-cmp's
// cmp.Diff up to 1.33 (its output is deliberately unstable: it randomly uses non-breaking spaces per
// process), and from 1.34 apimachinery's diff.Diff (a difflib unified diff of json.MarshalIndent of
// the internal type, whose fields have no JSON tags, so Go field names and every zero value appear).
// kelp cannot reproduce either from the v1 object: it appends its own rendering, one `-` / `+` line per
// changed top-level spec field (as it does for PersistentVolumeClaim).
//
// Semantic equality is deepEqual over the decoded objects: kelp's decoding drops Go's zero values and
// nil / empty collections and canonicalises quantities as a round trip through the internal type would,
// so equal JSON means equal internal values.
//
// Not done: the validation options GetValidationOptionsFromPodSpecAndMeta derives from the old pod
// (e.g. an invalid label value already in the old required node affinity stays allowed).

const SPEC = FieldPath.of('spec')
const META = FieldPath.of('metadata')
const MIRROR = 'kubernetes.io/config.mirror'
const APPARMOR_CONTAINER = 'container.apparmor.security.beta.kubernetes.io/'
const MAX_INT32 = 2147483647

/** `spec.<field>` descriptions the Forbidden message lists (updatablePodSpecFields). */
const UPDATABLE = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
]

/** The pod-spec validations ValidatePodUpdate repeats on the new pod (from pod.ts). */
export interface PodUpdateChecks {
  /** ValidatePodSpecificAnnotations(new annotations, new spec, metadata.annotations). */
  readonly annotations: () => FieldError[]
  /** ValidateTolerations(new tolerations, spec.tolerations). */
  readonly tolerations: () => FieldError[]
}

const annotationsOf = (o: JSONObject): Record<string, string> => strMap(obj(o.metadata)?.annotations) ?? {}

/** ValidatePodSpecificAnnotationUpdates: AppArmor and mirror-pod annotations may not change. */
function validateAnnotationUpdates(pod: JSONObject, old: JSONObject, checks: PodUpdateChecks): FieldError[] {
  const errs: FieldError[] = []
  const na = annotationsOf(pod)
  const oa = annotationsOf(old)
  const p = META.child('annotations')
  for (const k of keys(oa)) {
    if (Object.hasOwn(na, k) && na[k] === oa[k]) continue
    if (k.startsWith(APPARMOR_CONTAINER))
      errs.push(field.forbidden(p.key(k), 'may not remove or update AppArmor annotations'))
    if (k === MIRROR) errs.push(field.forbidden(p.key(k), 'may not remove or update mirror pod annotation'))
  }
  for (const k of keys(na)) {
    if (Object.hasOwn(oa, k)) continue
    if (k.startsWith(APPARMOR_CONTAINER)) errs.push(field.forbidden(p.key(k), 'may not add AppArmor annotations'))
    if (k === MIRROR) errs.push(field.forbidden(p.key(k), 'may not add mirror pod annotation'))
  }
  errs.push(...checks.annotations())
  return errs
}

/** ValidateContainerUpdates: the same number of containers, each with a non-empty, trimmed image. */
function validateContainerUpdates(nc: unknown[], oc: unknown[], p: FieldPath): { errs: FieldError[]; stop: boolean } {
  if (nc.length !== oc.length)
    return { errs: [field.forbidden(p, 'pod updates may not add or remove containers')], stop: true }
  const errs: FieldError[] = []
  nc.forEach((c, i) => {
    const image = str(obj(c)?.image)
    if (image.length === 0) errs.push(field.required(p.index(i).child('image'), ''))
    if (image.trim().length !== image.length)
      errs.push(field.invalid(p.index(i).child('image'), image, 'must not have leading or trailing whitespace'))
  })
  return { errs, stop: false }
}

/** A toleration as reflect.DeepEqual sees it (tolerationSeconds taken from the other side). */
const tolerationKey = (t: JSONObject, seconds: unknown): unknown => {
  const { tolerationSeconds: _s, ...rest } = t
  return seconds === undefined || seconds === null ? rest : { ...rest, tolerationSeconds: seconds }
}

/** validateOnlyAddedTolerations. */
function validateOnlyAddedTolerations(nt: unknown[], ot: unknown[], checks: PodUpdateChecks): FieldError[] {
  for (const o of ot) {
    const found = nt.some((n) => deepEqual(tolerationKey(obj(o) ?? {}, obj(n)?.tolerationSeconds), n))
    if (!found)
      return [
        field.forbidden(
          SPEC.child('tolerations'),
          'existing toleration can not be modified except its tolerationSeconds',
        ),
      ]
  }
  return checks.tolerations()
}

/** validateOnlyDeletedSchedulingGates (the new gates in Go's map order: kelp sorts by name). */
function validateOnlyDeletedSchedulingGates(ng: unknown[], og: unknown[]): FieldError[] {
  if (ng.length === 0) return []
  const added = new Map<string, number>()
  ng.forEach((g, i) => {
    added.set(str(obj(g)?.name), i)
  })
  for (const g of og) added.delete(str(obj(g)?.name))
  return [...added.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([name, i]) =>
      field.forbidden(
        SPEC.child('schedulingGates').index(i).child('name'),
        `only deletion is allowed, but found new scheduling gate '${name}'`,
      ),
    )
}

/** validateNodeSelectorMutation: a gated pod's nodeSelector may only gain entries. */
function validateNodeSelectorMutation(ns: JSONObject | undefined, os: JSONObject | undefined): FieldError[] {
  for (const k of keys(os))
    if (!ns || !Object.hasOwn(ns, k) || ns[k] !== os?.[k])
      return [
        field.invalid(
          SPEC.child('nodeSelector'),
          ns ?? null,
          'only additions to spec.nodeSelector are allowed (no mutations or deletions)',
        ),
      ]
  return []
}

/** A core.NodeSelectorRequirement / NodeSelectorTerm as Go marshals the internal type (no JSON tags). */
const requirementValue = (r: unknown): GoStruct => {
  const o = obj(r) ?? {}
  return new GoStruct([
    ['Key', str(o.key)],
    ['Operator', str(o.operator)],
    ['Values', Array.isArray(o.values) ? o.values : null],
  ])
}
const requirementsValue = (v: unknown): unknown => (Array.isArray(v) ? v.map(requirementValue) : null)
const termValue = (t: unknown): GoStruct => {
  const o = obj(t) ?? {}
  return new GoStruct([
    ['MatchExpressions', requirementsValue(o.matchExpressions)],
    ['MatchFields', requirementsValue(o.matchFields)],
  ])
}

const required = (na: JSONObject | undefined): JSONObject | undefined =>
  obj(na?.requiredDuringSchedulingIgnoredDuringExecution)

/** validateNodeSelectorTermHasOnlyAdditions. */
function onlyAdditions(nt: JSONObject, ot: JSONObject): boolean {
  const ne = arr(nt.matchExpressions)
  const nf = arr(nt.matchFields)
  const oe = arr(ot.matchExpressions)
  const of = arr(ot.matchFields)
  if (oe.length === 0 && of.length === 0 && (ne.length > 0 || nf.length > 0)) return false
  if (oe.length > 0 && (ne.length < oe.length || !deepEqual(ne.slice(0, oe.length), oe))) return false
  if (of.length > 0 && (nf.length < of.length || !deepEqual(nf.slice(0, of.length), of))) return false
  return true
}

/** validateNodeAffinityMutation: a gated pod's required node affinity may only gain requirements. */
function validateNodeAffinityMutation(na: JSONObject | undefined, oa: JSONObject | undefined): FieldError[] {
  const or = required(oa)
  if (or === undefined) return []
  const p = SPEC.child('affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution').child(
    'nodeSelectorTerms',
  )
  const oldTerms = arr(or.nodeSelectorTerms)
  const nr = required(na)
  const newTerms = nr === undefined ? [] : arr(nr.nodeSelectorTerms)
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length) {
    const value = nr === undefined || !Array.isArray(nr.nodeSelectorTerms) ? null : newTerms.map(termValue)
    return [field.invalid(p, value, 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')]
  }
  const errs: FieldError[] = []
  oldTerms.forEach((t, i) => {
    const n = obj(newTerms[i]) ?? {}
    if (!onlyAdditions(n, obj(t) ?? {}))
      errs.push(field.invalid(p.index(i), termValue(n), 'only additions are allowed (no mutations or deletions)'))
  })
  return errs
}

/** ComputePodQOS of 1.30 / 1.31 (containers and init containers; cpu and memory only). */
function computePodQOS(spec: JSONObject): string {
  const requests = new Map<string, Quantity>()
  const limits = new Map<string, Quantity>()
  let guaranteed = true
  for (const c of [...arr(spec.containers), ...arr(spec.initContainers)]) {
    const r = obj(obj(c)?.resources)
    const add = (into: Map<string, Quantity>, list: unknown, found?: Set<string>) => {
      for (const name of keys(list)) {
        if (name !== 'cpu' && name !== 'memory') continue
        const q = quantity(obj(list)?.[name])
        if (q === undefined || q.cmp(ZERO) !== 1) continue
        found?.add(name)
        const prev = into.get(name)
        into.set(name, prev === undefined ? q : q.add(prev))
      }
    }
    add(requests, r?.requests)
    const found = new Set<string>()
    add(limits, r?.limits, found)
    if (!found.has('memory') || !found.has('cpu')) guaranteed = false
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort'
  if (guaranteed)
    for (const [name, req] of requests) {
      const lim = limits.get(name)
      if (lim === undefined || lim.cmp(req) !== 0) {
        guaranteed = false
        break
      }
    }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable'
}

/**
 * The spec diff: from 1.34 apimachinery diff.Diff, a unified diff of the internal core.PodSpecs as JSON
 * (pod-spec-internal.ts); before, go-cmp's deliberately unstable cmp.Diff, for which kelp prints a `-` / `+`
 * line per changed top-level field.
 */
function specDiff(oldSpec: JSONObject, newSpec: JSONObject, minor: number): string {
  if (minor >= 34) return goDiff(internalPodSpec(oldSpec), internalPodSpec(newSpec))
  const lines: string[] = []
  for (const k of [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])].sort(compareStrings)) {
    if (deepEqual(oldSpec[k] ?? null, newSpec[k] ?? null)) continue
    if (oldSpec[k] !== undefined) lines.push(`-  ${k}: ${JSON.stringify(oldSpec[k])}`)
    if (newSpec[k] !== undefined) lines.push(`+  ${k}: ${JSON.stringify(newSpec[k])}`)
  }
  return lines.join('\n')
}

/** Sets or deletes a key (a nil pointer / empty collection is an absent key in the decoded object). */
function assign(o: JSONObject, k: string, v: unknown): void {
  if (v === undefined) delete o[k]
  else o[k] = v
}

/**
 * The rules of ValidatePodUpdate after validatePodMetadataAndSpec: `pod` and `old` are the decoded
 * new and old Pods, `checks` the validations Go repeats on the new pod.
 */
export function validatePodUpdateRules(
  pod: JSONObject,
  old: JSONObject,
  minor: number,
  checks: PodUpdateChecks,
): FieldError[] {
  const errs = validateAnnotationUpdates(pod, old, checks)
  const spec = obj(pod.spec) ?? {}
  const oldSpec = obj(old.spec) ?? {}
  for (const k of ['containers', 'initContainers']) {
    const r = validateContainerUpdates(arr(spec[k]), arr(oldSpec[k]), SPEC.child(k))
    errs.push(...r.errs)
    if (r.stop) return errs
  }
  const ads = optNum(spec.activeDeadlineSeconds)
  const oldAds = optNum(oldSpec.activeDeadlineSeconds)
  const adp = SPEC.child('activeDeadlineSeconds')
  if (ads !== undefined) {
    if (ads < 0 || ads > MAX_INT32) {
      errs.push(field.invalid(adp, ads, `must be between 0 and ${MAX_INT32}, inclusive`))
      return errs
    }
    if (oldAds !== undefined && oldAds < ads) {
      errs.push(field.invalid(adp, ads, 'must be less than or equal to previous value'))
      return errs
    }
  } else if (oldAds !== undefined)
    errs.push(field.invalid(adp, null, 'must not update from a positive integer to nil value'))
  errs.push(...validateOnlyAddedTolerations(arr(spec.tolerations), arr(oldSpec.tolerations), checks))
  errs.push(...validateOnlyDeletedSchedulingGates(arr(spec.schedulingGates), arr(oldSpec.schedulingGates)))
  if (deepEqual(spec, oldSpec)) return errs

  if (minor <= 31) {
    const oldQOS = str(obj(old.status)?.qosClass) || computePodQOS(oldSpec)
    if (oldQOS !== computePodQOS(spec)) {
      // newPod.Status is the old pod's (the strategy's PrepareForUpdate keeps the stored status)
      errs.push(field.invalid(META, str(obj(old.status)?.qosClass), 'Pod QoS is immutable'))
    }
  }

  const munged: JSONObject = structuredClone(spec)
  for (const k of ['containers', 'initContainers']) {
    const olds = arr(oldSpec[k])
    if (Array.isArray(munged[k]))
      munged[k] = (munged[k] as unknown[]).map((c, i) => {
        const mc = { ...(obj(c) ?? {}) }
        assign(mc, 'image', obj(olds[i])?.image)
        return mc
      })
  }
  assign(munged, 'activeDeadlineSeconds', oldSpec.activeDeadlineSeconds)
  assign(munged, 'schedulingGates', oldSpec.schedulingGates)
  assign(munged, 'tolerations', oldSpec.tolerations)
  const oldTgps = optNum(oldSpec.terminationGracePeriodSeconds)
  if (oldTgps !== undefined && oldTgps < 0 && optNum(munged.terminationGracePeriodSeconds) === 1)
    munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds

  if (arr(oldSpec.schedulingGates).length > 0) {
    if (!deepEqual(munged.nodeSelector ?? null, oldSpec.nodeSelector ?? null)) {
      errs.push(...validateNodeSelectorMutation(obj(munged.nodeSelector), obj(oldSpec.nodeSelector)))
      assign(munged, 'nodeSelector', oldSpec.nodeSelector)
    }
    const oldNA = obj(obj(oldSpec.affinity)?.nodeAffinity)
    const ma = obj(munged.affinity)
    const mungedNA = obj(ma?.nodeAffinity)
    if (!deepEqual(oldNA ?? null, mungedNA ?? null)) {
      errs.push(...validateNodeAffinityMutation(mungedNA, oldNA))
      if (ma === undefined) {
        if (oldNA !== undefined) munged.affinity = { nodeAffinity: oldNA }
      } else if (!isObj(oldSpec.affinity) && !isObj(ma.podAntiAffinity) && !isObj(ma.podAffinity))
        delete munged.affinity
      else {
        const na = { ...ma }
        assign(na, 'nodeAffinity', oldNA)
        munged.affinity = na
      }
    }
  }

  if (!deepEqual(munged, oldSpec))
    errs.push(
      field.forbidden(
        SPEC,
        `pod updates may not change fields other than ${UPDATABLE.join(',')}\n${specDiff(oldSpec, munged, minor)}`,
      ),
    )
  return errs
}
