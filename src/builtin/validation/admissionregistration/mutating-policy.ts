import { trim } from '../../../cel/ext/strings.js'
import type { ExpressionKind, PolicyValidationHooks } from '../../../kube/admissionregistration/compile-hook.js'
import type {
  MatchResources,
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  MutatingAdmissionPolicyBindingSpec,
  MutatingAdmissionPolicySpec,
  Mutation,
} from '../../../kube/admissionregistration/types.js'
import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { isDNS1123Subdomain } from '../../../kube/validation/names.js'
import {
  nameIsDNSSubdomain,
  validateObjectMetaJSON as validateObjectMeta,
} from '../../../kube/validation/objectmeta.js'
import { compileErrorDetail, convertCELErrorToValidationError } from './cel-condition.js'
import { createCompiler, type PolicyCompiler } from './compiler.js'
import { validateMatchConditions } from './match-conditions.js'
import { validateMatchResources } from './match-resources.js'
import { NO_PREEXISTING_EXPRESSIONS, type ValidationOptions } from './options.js'
import { validateParamRef } from './param-ref.js'
import { validatePolicySpecHead } from './policy.js'
import { validateVariable } from './variable.js'

// ValidateMutatingAdmissionPolicy and ValidateMutatingAdmissionPolicyBinding
// (pkg/apis/admissionregistration/validation/validation.go validateMutatingAdmissionPolicySpec,
// validateMutation, validateApplyConfiguration, validateJSONPatch,
// validateMutatingAdmissionPolicyBindingSpec): the parts shared with ValidatingAdmissionPolicy
// (paramKind, matchConstraints, matchConditions, variables, paramRef, matchResources) are the same
// functions; a MutatingAdmissionPolicy adds its mutations, reinvocationPolicy and the operations a
// mutation can apply to (no DELETE).

/** supportedMutatingOperations.List() (sorted). */
export const SUPPORTED_MUTATING_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'UPDATE'] as const
/** supportedReinvocationPolicies.List() (sorted). */
export const SUPPORTED_REINVOCATION_POLICIES = ['IfNeeded', 'Never'] as const
/** supportedPatchTypes.List() (sorted). */
export const SUPPORTED_PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'] as const

/** The operations of every resource rule must be ones a mutation applies to (the path has no index, as Go's). */
function validateMutatingOperations(mr: MatchResources, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  for (const rule of mr.resourceRules ?? [])
    for (const op of rule.operations ?? [])
      if (!(SUPPORTED_MUTATING_OPERATIONS as readonly string[]).includes(op))
        errs.push(field.notSupported(fldPath, op, SUPPORTED_MUTATING_OPERATIONS))
  return errs
}

/** validateApplyConfiguration / validateJSONPatch: a non-blank expression that compiles to its type. */
function validatePatchExpression(
  compiler: PolicyCompiler | undefined,
  expression: string,
  kind: ExpressionKind,
  hasParamKind: boolean,
  fldPath: FieldPath,
): FieldError[] {
  if (expression.length === 0 || trim(expression) === '') return [field.required(fldPath, '')]
  if (compiler === undefined) return []
  const outcome = compiler.compile(expression, kind, {
    hasParams: hasParamKind,
    hasAuthorizer: true,
    environment: 'NewExpressions',
  })
  const detail = compileErrorDetail(outcome, kind)
  return detail === undefined ? [] : [convertCELErrorToValidationError(fldPath, expression, detail)]
}

/** The internal type's value as field.Invalid renders it (JSON of its Go field names). */
const expressionStruct = (e: { expression?: string }) => new GoStruct([['Expression', e.expression ?? '']])

/** validateMutation: the patchType union. */
function validateMutation(
  compiler: PolicyCompiler | undefined,
  m: Mutation,
  hasParamKind: boolean,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const applyPath = fldPath.child('applyConfiguration')
  const jsonPath = fldPath.child('jsonPatch')
  const hasApply = m.applyConfiguration !== undefined && m.applyConfiguration !== null
  const hasJSON = m.jsonPatch !== undefined && m.jsonPatch !== null
  switch (m.patchType) {
    case 'JSONPatch':
      if (!hasJSON) errs.push(field.required(jsonPath, 'must be specified when patchType is JSONPatch'))
      else
        errs.push(
          ...validatePatchExpression(
            compiler,
            m.jsonPatch?.expression ?? '',
            'jsonPatch',
            hasParamKind,
            jsonPath.child('expression'),
          ),
        )
      if (hasApply)
        errs.push(
          field.invalid(
            applyPath,
            expressionStruct(m.applyConfiguration ?? {}),
            'must not be specified when patchType is JSONPatch',
          ),
        )
      break
    case 'ApplyConfiguration':
      if (!hasApply) errs.push(field.required(applyPath, 'must be specified when patchType is ApplyConfiguration'))
      else
        errs.push(
          ...validatePatchExpression(
            compiler,
            m.applyConfiguration?.expression ?? '',
            'applyConfiguration',
            hasParamKind,
            applyPath.child('expression'),
          ),
        )
      if (hasJSON)
        errs.push(
          field.invalid(
            jsonPath,
            expressionStruct(m.jsonPatch ?? {}),
            'must not be specified when patchType is ApplyConfiguration',
          ),
        )
      break
    case undefined:
    case null:
    case '':
      errs.push(field.required(fldPath.child('patchType'), ''))
      break
    default:
      errs.push(field.notSupported(fldPath.child('patchType'), m.patchType, SUPPORTED_PATCH_TYPES))
  }
  return errs
}

/** validateMutatingAdmissionPolicySpec. */
export function validateMutatingAdmissionPolicySpec(
  spec: MutatingAdmissionPolicySpec,
  options: ValidationOptions,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  let opts = options
  const hasParamKind = spec.paramKind !== undefined && spec.paramKind !== null
  // the composition compiler: variables are declared for the mutations
  const compiler = opts.compile !== undefined ? createCompiler(opts.compile, true) : undefined
  opts = validatePolicySpecHead(spec, opts, fldPath, errs)
  if (spec.matchConstraints !== undefined && spec.matchConstraints !== null) {
    errs.push(
      ...validateMutatingOperations(
        spec.matchConstraints,
        fldPath.child('matchConstraints', 'resourceRules', 'operations'),
      ),
    )
  }
  if (!opts.ignoreMatchConditions)
    errs.push(...validateMatchConditions(spec.matchConditions, opts, fldPath.child('matchConditions')))
  ;(spec.variables ?? []).forEach((v, i) => {
    errs.push(...validateVariable(compiler, v, hasParamKind, opts, fldPath.child('variables').index(i)))
  })
  const mutations = spec.mutations ?? []
  if (mutations.length === 0)
    errs.push(field.required(fldPath.child('mutations'), 'mutations must contain at least one item'))
  mutations.forEach((m, i) => {
    errs.push(...validateMutation(compiler, m ?? {}, hasParamKind, fldPath.child('mutations').index(i)))
  })
  const rp = spec.reinvocationPolicy
  if (rp === undefined || rp === null || rp === '') errs.push(field.required(fldPath.child('reinvocationPolicy'), ''))
  else if (!(SUPPORTED_REINVOCATION_POLICIES as readonly string[]).includes(rp))
    errs.push(field.notSupported(fldPath.child('reinvocationPolicy'), rp, SUPPORTED_REINVOCATION_POLICIES))
  return errs
}

/**
 * ValidateMutatingAdmissionPolicy: the create of a (defaulted) policy of any served version. Every
 * expression compiles in the NewExpressions environment through `hooks.compile`, when given.
 */
export function validateMutatingAdmissionPolicy(
  policy: MutatingAdmissionPolicy,
  hooks: PolicyValidationHooks = {},
): FieldError[] {
  const meta = policy.metadata ?? {}
  return [
    ...validateObjectMeta(meta, false, nameIsDNSSubdomain, FieldPath.of('metadata')),
    ...validateMutatingAdmissionPolicySpec(
      policy.spec ?? {},
      {
        ignoreMatchConditions: false,
        allowParamsInMatchConditions: false,
        preexistingExpressions: NO_PREEXISTING_EXPRESSIONS,
        compile: hooks.compile,
      },
      FieldPath.of('spec'),
    ),
  ]
}

/** validateMutatingAdmissionPolicyBindingSpec. */
export function validateMutatingAdmissionPolicyBindingSpec(
  spec: MutatingAdmissionPolicyBindingSpec,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const policyName = spec.policyName ?? ''
  if (policyName.length === 0) errs.push(field.required(fldPath.child('policyName'), ''))
  else
    for (const msg of isDNS1123Subdomain(policyName))
      errs.push(field.invalid(fldPath.child('policyName'), policyName, msg))
  errs.push(...validateParamRef(spec.paramRef, fldPath.child('paramRef')))
  errs.push(...validateMatchResources(spec.matchResources, fldPath.child('matchResources')))
  if (spec.matchResources !== undefined && spec.matchResources !== null)
    errs.push(
      ...validateMutatingOperations(
        spec.matchResources,
        fldPath.child('matchResources', 'resourceRules', 'operations'),
      ),
    )
  return errs
}

/** ValidateMutatingAdmissionPolicyBinding: the create of a (defaulted) binding. */
export function validateMutatingAdmissionPolicyBinding(binding: MutatingAdmissionPolicyBinding): FieldError[] {
  return [
    ...validateObjectMeta(binding.metadata ?? {}, false, nameIsDNSSubdomain, FieldPath.of('metadata')),
    ...validateMutatingAdmissionPolicyBindingSpec(binding.spec ?? {}, FieldPath.of('spec')),
  ]
}
