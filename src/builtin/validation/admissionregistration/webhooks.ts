import type { CompileHook } from '../../../kube/admissionregistration/compile-hook.js'
import type {
  LabelSelector,
  MatchCondition,
  NamedRuleWithOperations,
} from '../../../kube/admissionregistration/types.js'
import { type KubeVersion, SUPPORTED_VERSIONS } from '../../../kube/environment.js'
import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { isDNS1035Label, isDNS1123Subdomain } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { validateWebhookService, validateWebhookURL } from '../../../kube/validation/webhook.js'
import { arr, deepEqual, isObj, type JSONObject, num, obj, str, strs } from '../common.js'
import { validateMatchConditions } from './match-conditions.js'
import { NO_PREEXISTING_EXPRESSIONS } from './options.js'
import { validateRuleWithOperations } from './rule-with-operations.js'
import { validateStaticSuffix } from './static-suffix.js'

// admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration:
// kubernetes v1.37.2 pkg/apis/admissionregistration/validation/validation.go
// ValidateValidatingWebhookConfiguration(Update) / ValidateMutatingWebhookConfiguration(Update) (the
// update re-runs the create ObjectMeta rules, with options from the old object), the rules and match
// conditions through the validation of the policy kinds beside this file, the webhook URL and service
// through the CRD conversion port of apiserver pkg/util/webhook; on create, from 1.37
// (ManifestBasedAdmissionControlConfig beta) names ending in .static.k8s.io are refused. The kinds
// have no declarative rules.

const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1']
const FAILURE_POLICIES = ['Fail', 'Ignore']
const MATCH_POLICIES = ['Equivalent', 'Exact']
const SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown']
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun']
const REINVOCATION = ['IfNeeded', 'Never']

interface Opts {
  ignoreMatchConditions: boolean
  requireNoSideEffects: boolean
  requireRecognizedAdmissionReviewVersion: boolean
  requireUniqueWebhookNames: boolean
  allowInvalidLabelValueInSelector: boolean
  preexistingMatchConditions: ReadonlySet<string>
  minor: number
}

/** validation.IsFullyQualifiedName. */
function isFullyQualifiedName(p: FieldPath, name: string): FieldError[] {
  if (name === '') return [field.required(p, '')]
  const errs = isDNS1123Subdomain(name)
  if (errs.length > 0) return [field.invalid(p, name, errs.join(','))]
  if (name.split('.').length < 3)
    return [field.invalid(p, name, 'should be a domain with at least three segments separated by dots')]
  return []
}

function validateAdmissionReviewVersions(versions: string[], require: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (versions.length < 1) return [field.required(p, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)]
  const seen = new Set<string>()
  let accepted = false
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(field.invalid(p.index(i), v, 'duplicate version'))
      return
    }
    seen.add(v)
    for (const m of isDNS1035Label(v)) errs.push(field.invalid(p.index(i), v, m))
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true
  })
  if (require && !accepted)
    errs.push(field.invalid(p, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`))
  return errs
}

/** Makes the compile hook of a release (undefined: the default release). */
export type CompileHookFactory = (version: KubeVersion | undefined) => CompileHook

// The match conditions compile in the admission CEL environment (src/policy/cel), which builtin/ may
// not import: the layer that imports both installs the factory (src/engine/admission-validation.ts), as
// it hands the policy kinds' validation its hook. Not installed: no expression is compiled (every other
// check still runs), as for a policy validated without a hook.
let factory: CompileHookFactory | undefined
const compilers = new Map<number, CompileHook>()

/** Installs the compile hook factory of the webhooks' match conditions (the engine does, once). */
export function installWebhookCompileHook(f: CompileHookFactory): void {
  factory = f
  compilers.clear()
}

function compileHook(minor: number): CompileHook | undefined {
  if (factory === undefined) return undefined
  let c = compilers.get(minor)
  if (c === undefined) {
    const v = `1.${minor}`
    const version = (SUPPORTED_VERSIONS as readonly string[]).includes(v) ? (v as KubeVersion) : undefined
    c = factory(version)
    compilers.set(minor, c)
  }
  return c
}

function validateWebhook(hook: JSONObject, mutating: boolean, o: Opts, p: FieldPath): FieldError[] {
  const errs = isFullyQualifiedName(p.child('name'), str(hook.name))
  const lo = { allowInvalidLabelValueInSelector: o.allowInvalidLabelValueInSelector }
  arr(hook.rules).forEach((r, i) => {
    errs.push(...validateRuleWithOperations((obj(r) ?? {}) as NamedRuleWithOperations, p.child('rules').index(i)))
  })
  if (typeof hook.failurePolicy === 'string' && !FAILURE_POLICIES.includes(hook.failurePolicy))
    errs.push(field.notSupported(p.child('failurePolicy'), hook.failurePolicy, FAILURE_POLICIES))
  if (typeof hook.matchPolicy === 'string' && !MATCH_POLICIES.includes(hook.matchPolicy))
    errs.push(field.notSupported(p.child('matchPolicy'), hook.matchPolicy, MATCH_POLICIES))
  const allowed = o.requireNoSideEffects ? NO_SIDE_EFFECTS : SIDE_EFFECTS
  if (typeof hook.sideEffects !== 'string')
    errs.push(field.required(p.child('sideEffects'), `must specify one of ${allowed.join(', ')}`))
  else if (!allowed.includes(hook.sideEffects))
    errs.push(field.notSupported(p.child('sideEffects'), hook.sideEffects, allowed))
  if (typeof hook.timeoutSeconds === 'number' && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1))
    errs.push(
      field.invalid(
        p.child('timeoutSeconds'),
        hook.timeoutSeconds,
        'the timeout value must be between 1 and 30 seconds',
      ),
    )
  for (const k of ['namespaceSelector', 'objectSelector'] as const)
    if (isObj(hook[k])) errs.push(...validateLabelSelector(hook[k] as LabelSelector, lo, p.child(k), o.minor))
  if (mutating && typeof hook.reinvocationPolicy === 'string' && !REINVOCATION.includes(hook.reinvocationPolicy))
    errs.push(field.notSupported(p.child('reinvocationPolicy'), hook.reinvocationPolicy, REINVOCATION))
  const cc = obj(hook.clientConfig) ?? {}
  const cp = p.child('clientConfig')
  const hasURL = typeof cc.url === 'string'
  const svc = obj(cc.service)
  if (hasURL === (svc !== undefined)) errs.push(field.required(cp, 'exactly one of url or service is required'))
  else if (hasURL) errs.push(...validateWebhookURL(cp.child('url'), str(cc.url), true))
  else if (svc !== undefined)
    // Go passes (name, namespace) into ValidateWebhookService(fldPath, namespace, name, …): kept as is
    errs.push(
      ...validateWebhookService(
        cp.child('service'),
        str(svc.name),
        str(svc.namespace),
        typeof svc.path === 'string' ? svc.path : undefined,
        num(svc.port),
      ),
    )
  if (!o.ignoreMatchConditions)
    errs.push(
      ...validateMatchConditions(
        arr(hook.matchConditions) as MatchCondition[],
        {
          ignoreMatchConditions: false,
          allowParamsInMatchConditions: false,
          preexistingExpressions: {
            ...NO_PREEXISTING_EXPRESSIONS,
            matchConditionExpressions: o.preexistingMatchConditions,
          },
          compile: compileHook(o.minor),
        },
        p.child('matchConditions'),
      ),
    )
  return errs
}

function validateConfiguration(cfg: JSONObject, mutating: boolean, o: Opts): FieldError[] {
  const errs = validateObjectMetaFor(cfg, { namespaced: false, nameFn: nameIsDNSSubdomain, minor: o.minor })
  const names = new Set<string>()
  arr(cfg.webhooks).forEach((h, i) => {
    const hook = obj(h) ?? {}
    const hp = FieldPath.of('webhooks').index(i)
    errs.push(...validateWebhook(hook, mutating, o, hp))
    errs.push(
      ...validateAdmissionReviewVersions(
        strs(hook.admissionReviewVersions),
        o.requireRecognizedAdmissionReviewVersion,
        hp.child('admissionReviewVersions'),
      ),
    )
    const name = str(hook.name)
    if (o.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(field.duplicate(hp.child('name'), name))
      else names.add(name)
    }
  })
  return errs
}

const hooksOf = (cfg: JSONObject): JSONObject[] => arr(cfg.webhooks).map((h) => obj(h) ?? {})

function selectorsInvalid(hooks: JSONObject[]): boolean {
  return hooks.some((h) =>
    (['namespaceSelector', 'objectSelector'] as const).some(
      (k) => isObj(h[k]) && validateLabelSelector(h[k] as LabelSelector, {}, FieldPath.of(k)).length > 0,
    ),
  )
}

function updateOptions(cfg: JSONObject, old: JSONObject, minor: number): Opts {
  const nh = hooksOf(cfg)
  const oh = hooksOf(old)
  const names = oh.map((h) => str(h.name))
  return {
    ignoreMatchConditions:
      nh.length === oh.length &&
      oh.every((h, i) => deepEqual(h.matchConditions ?? null, nh[i]?.matchConditions ?? null)),
    requireNoSideEffects: oh.every((h) => typeof h.sideEffects === 'string' && NO_SIDE_EFFECTS.includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: oh.every((h) => {
      const vs = strs(h.admissionReviewVersions)
      return vs.length === 0 || vs.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))
    }),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: selectorsInvalid(oh),
    preexistingMatchConditions: new Set(oh.flatMap((h) => arr(h.matchConditions).map((m) => str(obj(m)?.expression)))),
    minor,
  }
}

/** ValidateValidatingWebhookConfiguration / ValidateMutatingWebhookConfiguration on create. */
function validateCreate(cfg: JSONObject, mutating: boolean, minor: number): FieldError[] {
  const errs = validateConfiguration(cfg, mutating, {
    ignoreMatchConditions: false,
    requireNoSideEffects: true,
    requireRecognizedAdmissionReviewVersion: true,
    requireUniqueWebhookNames: true,
    allowInvalidLabelValueInSelector: false,
    preexistingMatchConditions: new Set(),
    minor,
  })
  errs.push(...validateStaticSuffix(obj(cfg.metadata)?.name, minor))
  return errs
}

export const validateValidatingWebhookConfiguration = (cfg: JSONObject, minor: number): FieldError[] =>
  validateCreate(cfg, false, minor)
export const validateValidatingWebhookConfigurationUpdate = (
  cfg: JSONObject,
  old: JSONObject,
  minor: number,
): FieldError[] => validateConfiguration(cfg, false, updateOptions(cfg, old, minor))
export const validateMutatingWebhookConfiguration = (cfg: JSONObject, minor: number): FieldError[] =>
  validateCreate(cfg, true, minor)
export const validateMutatingWebhookConfigurationUpdate = (
  cfg: JSONObject,
  old: JSONObject,
  minor: number,
): FieldError[] => validateConfiguration(cfg, true, updateOptions(cfg, old, minor))
