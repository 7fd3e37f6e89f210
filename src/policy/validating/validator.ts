import type { Env } from '../../cel/env.js'
import type { Program, RunOutcome } from '../../cel/program.js'
import { BoolType, NullType, StringType } from '../../cel/types/types.js'
import { typeNameOf } from '../../cel/values/typeof.js'
import type { CelValue } from '../../cel/values/values.js'
import type { AuditAnnotation, ValidatingAdmissionPolicy, Validation } from '../../kube/admissionregistration/types.js'
import type { Authorize } from '../../kube/authz/authorizer.js'
import { RuntimeCELCostBudget, RuntimeCELCostBudgetMatchConditions } from '../../kube/environment.js'
import type { AdmissionAttributes, GroupVersionResource } from '../attributes.js'
import {
  AuthorizerVarName,
  type CompilationResult,
  type CompilerOptions,
  CompositedCompiler,
  readsOnlyVariables,
} from '../cel/compile.js'
import {
  type ActivationInput,
  type EvaluationResult,
  type ForInputOutcome,
  forInput,
  type OptionalVariableBindings,
  OutOfBudget,
  type RequestVariables,
  type SharedActivation,
  VariableMemo,
} from '../cel/condition.js'
import { createAdmissionRequest, createNamespaceObject } from '../cel/request.js'
import { type FailurePolicy, type MatchResult, matchResult } from '../generic/matchconditions.js'
import { MessageBatch } from './message-batch.js'

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
  /** The variables this request's policies share (the dispatcher's, one per request). */
  readonly requestVariables?: RequestVariables
}

/** validateShared's cost / error holder (evaluation is synchronous: one suffices). */
const runOutcome: RunOutcome = { cost: 0, error: undefined }

const errorDecision = (f: FailurePolicy, message: string): PolicyDecision => ({
  action: f === 'Ignore' ? 'Admit' : 'Deny',
  evaluation: 'Error',
  message,
})

/** Go strings.TrimSpace: Unicode white space (unicode.IsSpace), not JavaScript's trim set (which adds U+FEFF). */
export function trimSpace(s: string): string {
  // printable ASCII at both ends (every message the pack writes): nothing to trim, no regular expression run
  if (s.length > 0 && printableAscii(s.charCodeAt(0)) && printableAscii(s.charCodeAt(s.length - 1))) return s
  return s.replace(/^[\t\n\v\f\r \u0085\u00a0\p{Zs}\u2028\u2029]+|[\t\n\v\f\r \u0085\u00a0\p{Zs}\u2028\u2029]+$/gu, '')
}

const printableAscii = (c: number): boolean => c > 0x20 && c < 0x7f

/** A ConditionEvaluator's ForInput for one request (activation fixed): the batch outcome for a budget. */
export type Filter = (budget: number) => ForInputOutcome

/** The evaluators of one validator (validator.go `validator`), bound to one request. */
export interface Evaluators {
  readonly matcher?: () => MatchResult
  readonly validation: Filter
  /** The message batch, given the validations' results (which messages a decision will read). */
  readonly message: (budget: number, validations: readonly EvaluationResult[]) => ForInputOutcome
  readonly audit: Filter
  /**
   * Whether the message batch's worst-case cost fits in `budget`: when every validation admits, such
   * a batch cannot change any decision, and it is not evaluated (PolicyValidator.messagesFit).
   */
  readonly messagesFit?: (budget: number) => boolean
}

/** The message batch not evaluated (every validation admitted and its worst case fits). */
const MESSAGES_SKIPPED: ForInputOutcome = Object.freeze({ results: [], remainingBudget: 0 })

/** Every validation evaluated to true (validator.go: `evalResult.EvalResult == celtypes.True`, no error). */
function allAdmit(results: readonly EvaluationResult[]): boolean {
  for (const r of results) if (r.error !== undefined || r.value !== true) return false
  return true
}

/**
 * validator.go Validate: matchConditions, the validations with `budget`, their messageExpressions
 * with the budget left, the auditAnnotations with a fresh `budget`; each outcome a decision under
 * failurePolicy. `validations` / `audits` are the policy's, index for index with the filters' results.
 */
export function validateWith(
  f: FailurePolicy,
  validations: readonly Validation[],
  audits: readonly AuditAnnotation[],
  e: Evaluators,
  budget: number = RuntimeCELCostBudget,
): ValidateResult {
  if (e.matcher !== undefined) {
    const matched = e.matcher()
    if (matched.error !== undefined) return { decisions: [errorDecision(f, matched.error)], auditAnnotations: [] }
    if (!matched.matches) return { decisions: [], auditAnnotations: [] }
  }

  const evals = e.validation(budget)
  if ('batchError' in evals) return { decisions: [errorDecision(f, evals.batchError)], auditAnnotations: [] }
  // validator.go evaluates the messages before it reads the outcomes. When every validation admitted,
  // no decision reads a message's result; only a failure of the whole batch shows (ErrOutOfBudget,
  // or ErrInternal, which kelp's forInput never raises, as ForInput raises none for expressions that
  // compiled). A batch whose worst case fits in the budget left cannot run out: it is not evaluated.
  const messages =
    e.messagesFit !== undefined && allAdmit(evals.results) && e.messagesFit(evals.remainingBudget)
      ? MESSAGES_SKIPPED
      : e.message(evals.remainingBudget, evals.results)
  // only an internal or out-of-budget failure of the message batch fails the decisions
  const messageFailure =
    'batchError' in messages && (messages.outOfBudget || messages.internal === true) ? messages.batchError : undefined
  const messageResults = 'batchError' in messages ? [] : messages.results
  const decisions = evals.results.map((r, i): PolicyDecision => {
    const v = validations[i] ?? {}
    if (r.error !== undefined) return errorDecision(f, r.error)
    if (messageFailure !== undefined) return errorDecision(f, `failed messageExpression: ${messageFailure}`)
    if (r.value === true) return { action: 'Admit', evaluation: 'Admit', message: '' }
    const m = messageResults[i]
    let message = ''
    if (m !== undefined && m.error === undefined && typeof m.value === 'string') {
      message = trimSpace(m.value)
      if (Buffer.byteLength(message) > MaxMessageBytes || message.includes('\n')) message = ''
    }
    if (message === '' && v.message) message = trimSpace(v.message)
    if (message === '') message = `failed expression: ${trimSpace(v.expression ?? '')}`
    return { action: 'Deny', evaluation: 'Deny', message, reason: v.reason || 'Invalid' }
  })

  const auditOut = e.audit(budget)
  if ('batchError' in auditOut) return { decisions: [errorDecision(f, auditOut.batchError)], auditAnnotations: [] }
  const auditAnnotations = auditOut.results.map((r, i): PolicyAuditAnnotation => {
    const a = audits[i] ?? {}
    const key = a.key ?? ''
    const onError: AuditAnnotationAction = f === 'Ignore' ? 'Exclude' : 'Error'
    if (r.error !== undefined) return { key, action: onError, error: r.error }
    const value = r.value as CelValue
    if (typeof value === 'string') {
      const t = trimSpace(value)
      return t === '' ? { key, action: 'Exclude' } : { key, action: 'Publish', value: t }
    }
    if (value === null) return { key, action: 'Exclude' }
    return {
      key,
      action: 'Error',
      error: `valueExpression '${a.valueExpression ?? ''}' resulted in unsupported return type: ${typeNameOf(value)}. Return type must be either string or null.`,
    }
  })
  return { decisions, auditAnnotations }
}

/** A policy's expressions, compiled (compilePolicy). */
interface CompiledPolicy {
  readonly matchConditions: readonly CompilationResult[]
  readonly matchConditionNames: readonly string[]
  readonly validations: readonly CompilationResult[]
  readonly messageExpressions: readonly (CompilationResult | undefined)[]
  readonly auditAnnotations: readonly CompilationResult[]
  readonly variables: ReadonlyMap<string, CompilationResult>
  readonly hasMessageExpressions: boolean
  readonly messagePlaceholders: readonly EvaluationResult[]
  readonly shared: boolean
  /**
   * No variable can reach `authorizer` (none mentions it): the variables' values are the same in the
   * validations' and the messages' batches (VariableMemo).
   */
  readonly variablesWithoutAuthorizer: boolean
  /** Every messageExpression reads nothing of its activation but `variables.<name>` (readsOnlyVariables). */
  readonly messagesReadOnlyVariables: boolean
  /** The environments of the messageExpressions and of the variables (for their cost estimates). */
  readonly messageEnv: Env
  readonly variableEnv: Env
}

/** compilePolicy: every expression compiled once (errors kept, reported when evaluated). */
function compilePolicy(policy: ValidatingAdmissionPolicy, options: CompilerOptions): CompiledPolicy {
  const spec = policy.spec ?? {}
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null
  const withAuthz = { hasParams, hasAuthorizer: true }
  const compiler = new CompositedCompiler(options)
  compiler.compileAndStoreVariables(
    (spec.variables ?? []).map((v) => ({ name: v.name ?? '', expression: v.expression ?? '' })),
    withAuthz,
  )
  const variables = compiler.variables
  const conditions = spec.matchConditions ?? []
  const matchConditions = conditions.map((c) => compiler.compile(c.expression ?? '', [BoolType], withAuthz))
  const validations = (spec.validations ?? []).map((v) => compiler.compile(v.expression ?? '', [BoolType], withAuthz))
  const messageDecls = { hasParams, hasAuthorizer: false }
  const messageExpressions = (spec.validations ?? []).map((v) =>
    v.messageExpression ? compiler.compile(v.messageExpression, [StringType], messageDecls) : undefined,
  )
  const hasMessageExpressions = messageExpressions.some((m) => m !== undefined)
  const auditAnnotations = (spec.auditAnnotations ?? []).map((a) =>
    compiler.compile(a.valueExpression ?? '', [StringType, NullType], withAuthz),
  )
  return {
    matchConditions,
    matchConditionNames: conditions.map((c) => c.name ?? ''),
    validations,
    messageExpressions,
    auditAnnotations,
    variables,
    hasMessageExpressions,
    messagePlaceholders: messageExpressions.map(() => ({})),
    variablesWithoutAuthorizer: (spec.variables ?? []).every((v) => !(v.expression ?? '').includes(AuthorizerVarName)),
    messagesReadOnlyVariables: (spec.validations ?? []).every(
      (v) => !v.messageExpression || readsOnlyVariables(v.messageExpression),
    ),
    messageEnv: compiler.env(messageDecls),
    variableEnv: compiler.env(withAuthz),
    shared:
      !hasParams &&
      variables.size === 0 &&
      matchConditions.length === 0 &&
      !hasMessageExpressions &&
      auditAnnotations.length === 0 &&
      validations.every((v) => v.error === undefined && v.program !== undefined),
  }
}

export class PolicyValidator {
  private readonly failurePolicy: FailurePolicy
  /** Some validation mentions `authorizer` (textually: conservative). */
  private readonly usesAuthorizer: boolean
  private compiledPolicy: CompiledPolicy | undefined
  /** The messageExpressions' batch, made on first use (message-batch.ts). */
  private messageBatchOf: MessageBatch | undefined

  /**
   * The expressions are compiled when the policy is first evaluated, not when it is loaded: a run
   * that never meets a request the policy matches (`kelp check` of one file, a webhook whose
   * requests touch a few policies) does not pay for compiling it. Compile errors are the same, only
   * found later (material validation reports them when the policy is loaded).
   */
  constructor(
    readonly policy: ValidatingAdmissionPolicy,
    private readonly options: CompilerOptions = {},
  ) {
    const spec = policy.spec ?? {}
    this.failurePolicy = spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail'
    this.usesAuthorizer = (spec.validations ?? []).some((v) => (v.expression ?? '').includes(AuthorizerVarName))
  }

  private get c(): CompiledPolicy {
    this.compiledPolicy ??= compilePolicy(this.policy, this.options)
    return this.compiledPolicy
  }

  /**
   * Validations only (no paramKind, variables, matchConditions, messageExpressions or
   * auditAnnotations), all compiled: the policy reads nothing of its own, so the dispatcher
   * evaluates it with validateShared against the request's one activation.
   */
  get shared(): boolean {
    return this.c.shared
  }

  private get messageBatch(): MessageBatch {
    this.messageBatchOf ??= new MessageBatch(this.c)
    return this.messageBatchOf
  }

  /** matchconditions.Matcher.Match: false stops (no decision); errors under failurePolicy. */
  private match(input: ValidateInput, shared: ActivationInput['shared']): MatchResult {
    const a = input.attributes
    const act: ActivationInput = {
      attributes: a,
      // the request's own resource, not the matched one; no namespace object in matchConditions
      request: createAdmissionRequest(a, a.resource, a.kind),
      namespace: null,
      bindings: { params: input.params, authorize: input.authorize },
      variables: this.c.variables,
      shared,
    }
    const out = forInput(this.c.matchConditions, act, RuntimeCELCostBudgetMatchConditions)
    return matchResult(out, this.c.matchConditionNames, this.failurePolicy)
  }

  /**
   * Validate for a `shared` policy on the request's shared activation (matched resource and kind the
   * request's own, no params): undefined when every validation admits (nothing to report, nothing
   * allocated), else what validate() returns. Each validation's cost is charged to the one
   * RuntimeCELCostBudget as forInput charges it; the decisions come from validateWith.
   */
  validateShared(shared: SharedActivation): ValidateResult | undefined {
    const act = this.usesAuthorizer ? shared.withAuthorizer() : shared.activation
    const compiled = this.c.validations
    const out = runOutcome
    let remaining = RuntimeCELCostBudget
    let results: EvaluationResult[] | undefined
    for (let i = 0; i < compiled.length; i++) {
      const c = compiled[i] as CompilationResult
      const value = (c.program as Program).tryRunInto(act, out)
      if (out.cost > remaining) return this.decide({ batchError: OutOfBudget, outOfBudget: true })
      remaining -= out.cost
      if (value === true && results === undefined) continue
      // the first validation that does not admit: the results so far, then every one
      results ??= compiled.slice(0, i).map((p): EvaluationResult => ({ expression: p.expression, value: true }))
      const error = out.error
      results.push(
        error !== undefined
          ? { expression: c.expression, error: `expression '${c.expression}' resulted in error: ${error.message}` }
          : { expression: c.expression, value: value as CelValue },
      )
    }
    return results === undefined ? undefined : this.decide({ results, remainingBudget: remaining })
  }

  /** validateWith on the outcome of the validations of a `shared` policy (no messages, no audits). */
  private decide(evals: ForInputOutcome): ValidateResult {
    const spec = this.policy.spec ?? {}
    return validateWith(this.failurePolicy, spec.validations ?? [], [], {
      validation: () => evals,
      message: (budget) => ({ results: [...this.c.messagePlaceholders], remainingBudget: budget }),
      audit: (budget) => ({ results: [], remainingBudget: budget }),
    })
  }

  /** Validate: decisions for each validation and the audit annotations of one evaluation. */
  validate(input: ValidateInput): ValidateResult {
    const a = input.attributes
    const request = createAdmissionRequest(a, input.matchedResource, a.kind)
    const ns = createNamespaceObject(input.namespace)
    const spec = this.policy.spec ?? {}
    const variables = this.c.variables
    // the validations' variables serve the messages' batch (same inputs but the authorizer)
    const memo =
      variables.size > 0 && this.c.hasMessageExpressions && this.c.variablesWithoutAuthorizer
        ? new VariableMemo(variables)
        : undefined
    const requestShared = variables.size > 0 ? input.requestVariables?.of(a) : undefined
    // one input shape for every batch (no spreads: this runs per policy, binding and param)
    const batch = (
      namespace: Record<string, unknown> | null,
      bindings: OptionalVariableBindings,
      shared?: VariableMemo,
    ): ActivationInput => ({
      attributes: a,
      request,
      namespace,
      bindings,
      variables,
      memo: shared,
      shared: requestShared,
    })
    let messageBatch: ActivationInput | undefined
    const messageInput = (): ActivationInput => {
      messageBatch ??= batch(ns, { params: input.params }, memo)
      return messageBatch
    }
    return validateWith(this.failurePolicy, spec.validations ?? [], spec.auditAnnotations ?? [], {
      // compilePolicy builds a matcher only when the policy has matchConditions
      matcher: this.c.matchConditions.length > 0 ? () => this.match(input, requestShared) : undefined,
      validation: (budget) =>
        forInput(this.c.validations, batch(ns, { params: input.params, authorize: input.authorize }, memo), budget),
      // messageExpressions: no authorizer
      message: (budget, validations) =>
        this.c.hasMessageExpressions
          ? this.messageBatch.evaluate(budget, validations, messageInput())
          : { results: [...this.c.messagePlaceholders], remainingBudget: budget },
      messagesFit: this.c.hasMessageExpressions ? (budget) => this.messageBatch.fits(budget, messageInput) : undefined,
      // auditAnnotations: no authorizer, and the namespace as given (not CreateNamespaceObject)
      audit: (budget) =>
        this.c.auditAnnotations.length === 0
          ? { results: [], remainingBudget: budget }
          : forInput(
              this.c.auditAnnotations,
              batch((input.namespace ?? null) as Record<string, unknown> | null, { params: input.params }),
              budget,
            ),
    })
  }
}
