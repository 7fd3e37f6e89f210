import type { PolicyValidationHooks } from '../../../kube/admissionregistration/compile-hook.js'
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicySpec,
} from '../../../kube/admissionregistration/types.js'
import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import {
  nameIsDNSSubdomain,
  validateObjectMetaJSON as validateObjectMeta,
} from '../../../kube/validation/objectmeta.js'
import { validateAuditAnnotation } from './audit-annotation.js'
import { createCompiler, type PolicyCompiler } from './compiler.js'
import { validateMatchConditions } from './match-conditions.js'
import { validateMatchResources } from './match-resources.js'
import { NO_PREEXISTING_EXPRESSIONS, type ValidationOptions } from './options.js'
import { validateParamKind } from './param-kind.js'
import {
  findValidatingPolicyPreexistingExpressions,
  ignoreValidatingAdmissionPolicyMatchConditions,
} from './preexisting-expressions.js'
import { validateValidation } from './validation.js'
import { validateVariable } from './variable.js'

// ValidateValidatingAdmissionPolicy and ValidateValidatingAdmissionPolicyUpdate
// (pkg/apis/admissionregistration/validation/validation.go): what the API server answers to the
// create or update of a ValidatingAdmissionPolicy, once defaulted (defaults.ts). Errors come in Go's
// order; an empty list means the write is accepted.

/** maxAuditAnnotations. */
export const MAX_AUDIT_ANNOTATIONS = 20

/** supportedFailurePolicies.List() (sorted). */
export const SUPPORTED_FAILURE_POLICIES = ['Fail', 'Ignore'] as const

/** What a policy spec's head needs: the fields validating and mutating admission policies share. */
interface PolicySpecHead {
  readonly failurePolicy?: string | null
  readonly paramKind?: Parameters<typeof validateParamKind>[0] | null
  readonly matchConstraints?: Parameters<typeof validateMatchResources>[0] | null
}

/**
 * The checks validateValidatingAdmissionPolicySpec and validateMutatingAdmissionPolicySpec open with, in
 * Go's order: failurePolicy, paramKind (which lets match conditions read params), matchConstraints with at
 * least one resourceRule (the type information). Appends to `errs`; returns the options for what follows.
 */
export function validatePolicySpecHead(
  spec: PolicySpecHead,
  options: ValidationOptions,
  fldPath: FieldPath,
  errs: FieldError[],
): ValidationOptions {
  let opts = options
  if (spec.failurePolicy === undefined || spec.failurePolicy === null)
    errs.push(field.required(fldPath.child('failurePolicy'), ''))
  else if (!(SUPPORTED_FAILURE_POLICIES as readonly string[]).includes(spec.failurePolicy))
    errs.push(field.notSupported(fldPath.child('failurePolicy'), spec.failurePolicy, SUPPORTED_FAILURE_POLICIES))
  if (spec.paramKind !== undefined && spec.paramKind !== null) {
    opts = { ...opts, allowParamsInMatchConditions: true }
    errs.push(...validateParamKind(spec.paramKind, fldPath.child('paramKind')))
  }
  if (spec.matchConstraints === undefined || spec.matchConstraints === null)
    errs.push(field.required(fldPath.child('matchConstraints'), ''))
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, fldPath.child('matchConstraints')))
    // at least one resourceRule must be defined to provide type information
    if ((spec.matchConstraints.resourceRules ?? []).length === 0)
      errs.push(field.required(fldPath.child('matchConstraints', 'resourceRules'), ''))
  }
  return opts
}

/** validateValidatingAdmissionPolicySpec. */
export function validateValidatingAdmissionPolicySpec(
  policyName: string,
  spec: ValidatingAdmissionPolicySpec,
  options: ValidationOptions,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  let opts = options
  const variables = spec.variables ?? []
  const validations = spec.validations ?? []
  const auditAnnotations = spec.auditAnnotations ?? []
  // the composition compiler is stateful: one per policy, created when first needed
  let compiler: PolicyCompiler | undefined
  const getCompiler = (): PolicyCompiler | undefined => {
    if (compiler === undefined && opts.compile !== undefined)
      compiler = createCompiler(opts.compile, variables.length > 0)
    return compiler
  }
  const hasParamKind = spec.paramKind !== undefined && spec.paramKind !== null

  opts = validatePolicySpecHead(spec, opts, fldPath, errs)
  if (!opts.ignoreMatchConditions)
    errs.push(...validateMatchConditions(spec.matchConditions, opts, fldPath.child('matchConditions')))
  variables.forEach((v, i) => {
    errs.push(...validateVariable(getCompiler(), v, hasParamKind, opts, fldPath.child('variables').index(i)))
  })
  if (validations.length === 0 && auditAnnotations.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item'
    errs.push(field.required(fldPath.child('validations'), detail))
    errs.push(field.required(fldPath.child('auditAnnotations'), detail))
  } else {
    validations.forEach((v, i) => {
      errs.push(...validateValidation(getCompiler(), v, hasParamKind, opts, fldPath.child('validations').index(i)))
    })
    const keys = new Set<string>()
    if (auditAnnotations.length > MAX_AUDIT_ANNOTATIONS)
      errs.push(
        field.invalid(
          fldPath.child('auditAnnotations'),
          // the internal []AuditAnnotation, marshalled with its Go field names
          auditAnnotations.map(
            (a) =>
              new GoStruct([
                ['Key', a.key ?? ''],
                ['ValueExpression', a.valueExpression ?? ''],
              ]),
          ),
          `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`,
        ),
      )
    auditAnnotations.forEach((a, i) => {
      const p = fldPath.child('auditAnnotations').index(i)
      errs.push(...validateAuditAnnotation(getCompiler(), policyName, a, hasParamKind, opts, p))
      const key = a.key ?? ''
      if (keys.has(key)) errs.push(field.duplicate(p.child('key'), key))
      keys.add(key)
    })
  }
  return errs
}

/** validateValidatingAdmissionPolicy: metadata (cluster-scoped, DNS subdomain name), then the spec. */
function validatePolicy(policy: ValidatingAdmissionPolicy, opts: ValidationOptions): FieldError[] {
  const meta = policy.metadata ?? {}
  return [
    ...validateObjectMeta(meta, false, nameIsDNSSubdomain, FieldPath.of('metadata')),
    ...validateValidatingAdmissionPolicySpec(meta.name ?? '', policy.spec ?? {}, opts, FieldPath.of('spec')),
  ]
}

/**
 * ValidateValidatingAdmissionPolicy: the create of a (defaulted) v1 or v1beta1 policy. Every
 * expression compiles in the NewExpressions environment through `hooks.compile`, when given.
 */
export function validateValidatingAdmissionPolicy(
  policy: ValidatingAdmissionPolicy,
  hooks: PolicyValidationHooks = {},
): FieldError[] {
  return validatePolicy(policy, {
    ignoreMatchConditions: false,
    allowParamsInMatchConditions: false,
    preexistingExpressions: NO_PREEXISTING_EXPRESSIONS,
    compile: hooks.compile,
  })
}

/**
 * ValidateValidatingAdmissionPolicyUpdate: the update of `oldPolicy` to `newPolicy` (both
 * defaulted). Match conditions are not validated again when paramKind and matchConditions are
 * unchanged; expressions the old policy already had compile in the StoredExpressions environment.
 * Object-meta update rules (immutable name, …) are the generic registry's, not checked here.
 */
export function validateValidatingAdmissionPolicyUpdate(
  newPolicy: ValidatingAdmissionPolicy,
  oldPolicy: ValidatingAdmissionPolicy,
  hooks: PolicyValidationHooks = {},
): FieldError[] {
  return validatePolicy(newPolicy, {
    ignoreMatchConditions: ignoreValidatingAdmissionPolicyMatchConditions(newPolicy, oldPolicy),
    allowParamsInMatchConditions: false,
    preexistingExpressions: findValidatingPolicyPreexistingExpressions(oldPolicy),
    compile: hooks.compile,
  })
}
