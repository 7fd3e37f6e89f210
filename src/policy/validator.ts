import { BoolType, NullType, StringType } from '../cel/types/types.js'
import { typeNameOf } from '../cel/values/typeof.js'
import type { CelValue } from '../cel/values/values.js'
import type { Authorize } from '../kube/authz/authorizer.js'
import { RuntimeCELCostBudget, RuntimeCELCostBudgetMatchConditions } from '../kube/environment.js'
import type { AdmissionAttributes, GroupVersionResource } from './attributes.js'
import { type CompilationResult, type CompilerOptions, CompositedCompiler } from './compile.js'
import { type ActivationInput, forInput } from './condition.js'
import { createAdmissionRequest, createNamespaceObject } from './request.js'
import type { ValidatingAdmissionPolicy } from './types.js'

// A compiled ValidatingAdmissionPolicy and its Validate (apiserver pkg/admission/plugin/policy/
// validating/plugin.go compilePolicy, validator.go Validate, webhook/matchconditions/matcher.go):
// matchConditions, then the validations in one batch (10M), their messageExpressions with the budget
// left, then the auditAnnotations with a fresh budget; each outcome a decision under failurePolicy.

/** MaxEvaluatedMessageExpressionSizeBytes. */
const MaxMessageBytes = 5 * 1024

export type PolicyDecisionAction = 'Admit' | 'Deny'
export type PolicyDecisionEvaluation = 'Admit' | 'Deny' | 'Error'

export interface PolicyDecision {
  readonly action: PolicyDecisionAction
  readonly evaluation: PolicyDecisionEvaluation
  readonly message: string
  /** metav1.StatusReason of a Deny (the validation's reason, else Invalid); none for errors. */
  readonly reason?: string
}

export type AuditAnnotationAction = 'Publish' | 'Error' | 'Exclude'

export interface PolicyAuditAnnotation {
  readonly key: string
  readonly value?: string
  readonly action: AuditAnnotationAction
  readonly error?: string
}

export interface ValidateResult {
  readonly decisions: readonly PolicyDecision[]
  readonly auditAnnotations: readonly PolicyAuditAnnotation[]
}

/** The inputs of one evaluation (per binding and param). */
export interface ValidateInput {
  /** The resource the policy matched (matchPolicy Equivalent may name another version). */
  readonly matchedResource: GroupVersionResource
  /** The request, its object already in the matched version. */
  readonly attributes: AdmissionAttributes
  /** The param object (JSON) or null. */
  readonly params: unknown
  /** The request's Namespace object (JSON) or undefined (cluster-scoped, Namespace objects, unknown). */
  readonly namespace?: Record<string, unknown>
  readonly authorize: Authorize
}

type FailurePolicy = 'Fail' | 'Ignore'

const errorDecision = (f: FailurePolicy, message: string): PolicyDecision => ({
  action: f === 'Ignore' ? 'Admit' : 'Deny',
  evaluation: 'Error',
  message,
})

/** utilerrors.NewAggregate(errs).Error(): one message, or `[m1, m2]`. */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`
}

export class PolicyValidator {
  private readonly failurePolicy: FailurePolicy
  private readonly matchConditions: readonly CompilationResult[]
  private readonly matchConditionNames: readonly string[]
  private readonly validations: readonly CompilationResult[]
  private readonly messageExpressions: readonly (CompilationResult | undefined)[]
  private readonly auditAnnotations: readonly CompilationResult[]
  private readonly auditKeys: readonly string[]
  private readonly variables: ReadonlyMap<string, CompilationResult>

  /** compilePolicy: every expression compiled once (errors kept, reported when evaluated). */
  constructor(
    readonly policy: ValidatingAdmissionPolicy,
    options: CompilerOptions = {},
  ) {
    const spec = policy.spec ?? {}
    this.failurePolicy = spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail'
    const hasParams = spec.paramKind !== undefined && spec.paramKind !== null
    const withAuthz = { hasParams, hasAuthorizer: true }
    const compiler = new CompositedCompiler(options)
    compiler.compileAndStoreVariables(
      (spec.variables ?? []).map((v) => ({ name: v.name ?? '', expression: v.expression ?? '' })),
      withAuthz,
    )
    this.variables = compiler.variables
    const conditions = spec.matchConditions ?? []
    this.matchConditions = conditions.map((c) => compiler.compile(c.expression ?? '', [BoolType], withAuthz))
    this.matchConditionNames = conditions.map((c) => c.name ?? '')
    const validations = spec.validations ?? []
    this.validations = validations.map((v) => compiler.compile(v.expression ?? '', [BoolType], withAuthz))
    this.messageExpressions = validations.map((v) =>
      v.messageExpression
        ? compiler.compile(v.messageExpression, [StringType], { hasParams, hasAuthorizer: false })
        : undefined,
    )
    const audits = spec.auditAnnotations ?? []
    this.auditAnnotations = audits.map((a) =>
      compiler.compile(a.valueExpression ?? '', [StringType, NullType], withAuthz),
    )
    this.auditKeys = audits.map((a) => a.key ?? '')
  }

  /** Compile errors of every expression (for reports; evaluation reports them as the apiserver does). */
  compileErrors(): { readonly expression: string; readonly detail: string }[] {
    const all = [...this.variables.values(), ...this.matchConditions, ...this.validations, ...this.auditAnnotations]
    for (const m of this.messageExpressions) if (m !== undefined) all.push(m)
    return all.flatMap((c) => (c.error === undefined ? [] : [{ expression: c.expression, detail: c.error.detail }]))
  }

  /** matchconditions.Matcher.Match: false stops (no decision); errors under failurePolicy. */
  private match(input: ValidateInput): { matches: boolean; error?: string; failedCondition?: string } {
    if (this.matchConditions.length === 0) return { matches: true }
    const a = input.attributes
    const act: ActivationInput = {
      attributes: a,
      // the request's own resource, not the matched one; no namespace object in matchConditions
      request: createAdmissionRequest(a, a.resource, a.kind),
      namespace: null,
      bindings: { params: input.params, authorize: input.authorize },
      variables: this.variables,
    }
    const out = forInput(this.matchConditions, act, RuntimeCELCostBudgetMatchConditions)
    if ('batchError' in out)
      return this.failurePolicy === 'Fail' ? { matches: false, error: out.batchError } : { matches: false }
    const errors: string[] = []
    for (const [i, r] of out.results.entries()) {
      if (r.error !== undefined) errors.push(r.error)
      if (r.value === false) return { matches: false, failedCondition: this.matchConditionNames[i] as string }
    }
    if (errors.length > 0)
      return this.failurePolicy === 'Fail' ? { matches: false, error: aggregate(errors) } : { matches: false }
    return { matches: true }
  }

  /** Validate: decisions for each validation and the audit annotations of one evaluation. */
  validate(input: ValidateInput): ValidateResult {
    const f = this.failurePolicy
    const matched = this.match(input)
    if (matched.error !== undefined) return { decisions: [errorDecision(f, matched.error)], auditAnnotations: [] }
    if (!matched.matches) return { decisions: [], auditAnnotations: [] }

    const a = input.attributes
    const request = createAdmissionRequest(a, input.matchedResource, a.kind)
    const ns = createNamespaceObject(input.namespace)
    const base = { attributes: a, request, namespace: ns, variables: this.variables }
    const evals = forInput(
      this.validations,
      { ...base, bindings: { params: input.params, authorize: input.authorize } },
      RuntimeCELCostBudget,
    )
    if ('batchError' in evals) return { decisions: [errorDecision(f, evals.batchError)], auditAnnotations: [] }
    const messages = forInput(
      this.messageExpressions,
      { ...base, bindings: { params: input.params } },
      evals.remainingBudget,
    )
    const validations = this.policy.spec?.validations ?? []
    const decisions = evals.results.map((r, i): PolicyDecision => {
      const v = validations[i] ?? {}
      if (r.error !== undefined) return errorDecision(f, r.error)
      if ('batchError' in messages) return errorDecision(f, `failed messageExpression: ${messages.batchError}`)
      if (r.value === true) return { action: 'Admit', evaluation: 'Admit', message: '' }
      const m = messages.results[i]
      let message = ''
      if (m !== undefined && m.error === undefined && typeof m.value === 'string') {
        message = m.value.trim()
        if (Buffer.byteLength(message) > MaxMessageBytes || message.includes('\n')) message = ''
      }
      if (message === '' && v.message) message = v.message.trim()
      if (message === '') message = `failed expression: ${(v.expression ?? '').trim()}`
      return { action: 'Deny', evaluation: 'Deny', message, reason: v.reason || 'Invalid' }
    })

    // auditAnnotations: a fresh budget, no authorizer, the namespace as given
    const audits = forInput(
      this.auditAnnotations,
      {
        ...base,
        namespace: (input.namespace ?? null) as Record<string, unknown> | null,
        bindings: { params: input.params },
      },
      RuntimeCELCostBudget,
    )
    if ('batchError' in audits) return { decisions: [errorDecision(f, audits.batchError)], auditAnnotations: [] }
    const auditAnnotations = audits.results.map((r, i): PolicyAuditAnnotation => {
      const key = this.auditKeys[i] as string
      const onError: AuditAnnotationAction = f === 'Ignore' ? 'Exclude' : 'Error'
      if (r.error !== undefined) return { key, action: onError, error: r.error }
      const value = r.value as CelValue
      if (typeof value === 'string') {
        const t = value.trim()
        return t === '' ? { key, action: 'Exclude' } : { key, action: 'Publish', value: t }
      }
      if (value === null) return { key, action: 'Exclude' }
      return {
        key,
        action: 'Error',
        error: `valueExpression '${r.expression}' resulted in unsupported return type: ${typeNameOf(value)}. Return type must be either string or null.`,
      }
    })
    return { decisions, auditAnnotations }
  }
}
