import { ErrorValue } from '../../cel/common/errors.js'
import type { Activation, RunOutcome } from '../../cel/program.js'
import { type CelValue, MapValue } from '../../cel/values/values.js'
import type { Authorize } from '../../kube/authz/authorizer.js'
import { newAuthorizer, newResourceAuthorizer } from '../../kube/authz/library.js'
import type { AdmissionAttributes } from '../attributes.js'
import {
  AuthorizerVarName,
  type CompilationResult,
  RequestResourceAuthorizerVarName,
  VariableVarName,
} from './compile.js'

// Evaluating a batch of admission expressions (apiserver pkg/admission/plugin/cel/condition.go
// ForInput, activation.go Evaluate, composition.go): one activation per batch, the expressions in
// order against one cost budget, and `variables` computed lazily on first use, once per batch, their
// cost charged to the batch.

export const OutOfBudget =
  'validation failed due to running out of cost budget, no further validation rules will be run'

/** One expression's outcome: its value, or the error text the apiserver reports. */
export interface EvaluationResult {
  /** Undefined for a placeholder (a validation without messageExpression in the message batch). */
  readonly expression?: string
  readonly value?: CelValue
  readonly error?: string
}

/** A batch-level failure: no results, the whole batch is an error (e.g. out of budget). */
export interface BatchError {
  readonly batchError: string
  /** cel.ErrOutOfBudget. */
  readonly outOfBudget: boolean
  /** cel.ErrInternal (kelp raises none; the validator treats it as the apiserver does). */
  readonly internal?: boolean
}

/** What ForInput returns: the results and the budget left, or the batch error. */
export type ForInputOutcome = { readonly results: EvaluationResult[]; readonly remainingBudget: number } | BatchError

/** condition.CompilationErrors: the compile errors of a batch's expressions, in order. */
export function compilationErrors(compiled: readonly (CompilationResult | undefined)[]): string[] {
  return compiled.flatMap((c) => (c?.error === undefined ? [] : [c.error.detail]))
}

/** The optional variables' values (OptionalVariableBindings). */
export interface OptionalVariableBindings {
  /** The param object (JSON), or null when the binding has no paramRef. */
  readonly params?: unknown
  /** Authorization for `authorizer`: bound only for validations and matchConditions. */
  readonly authorize?: Authorize
}

/**
 * A policy's variables by position: a batch keeps its variables' values in an array indexed by these slots,
 * not in a Map of its own (a request builds a dozen batches, each filling a Map of up to 40 names: their
 * growth was a tenth of all that `kelp check` allocated with the bundled pack). Built once per policy.
 */
interface VariableSlots {
  readonly index: ReadonlyMap<string, number>
  readonly results: readonly CompilationResult[]
}

const SLOTS = new WeakMap<ReadonlyMap<string, CompilationResult>, VariableSlots>()

function slotsOf(variables: ReadonlyMap<string, CompilationResult>): VariableSlots {
  let slots = SLOTS.get(variables)
  if (slots === undefined) {
    const index = new Map<string, number>()
    const results: CompilationResult[] = []
    for (const [name, result] of variables) {
      index.set(name, results.length)
      results.push(result)
    }
    slots = { index, results }
    SLOTS.set(variables, slots)
  }
  return slots
}

/**
 * The variables one batch evaluated, for a later batch of the same Validate with the same inputs
 * (its validations, then its messageExpressions: same object, request, params and namespace). A
 * variable is a pure function of those, so the later batch takes its value or error and charges its
 * cost again, as evaluating it afresh would (the apiserver evaluates it again in the new activation):
 * the same results and the same budget, without the work. Only for policies whose variables cannot
 * reach `authorizer`, which is bound for validations and not for messages.
 */
export class VariableMemo {
  private readonly slots: VariableSlots
  /** The kept evaluations by slot (VariableSlots of the policy's variables). */
  private readonly kept: (KeptVariable | undefined)[]
  /**
   * The sum of the entries' costs: a bound of what reading any of them charges a batch (each variable
   * is charged once per batch, and the variables a kept one read are kept too: MessageBatch.evaluate).
   */
  total = 0

  /** A memo for the batches of one policy, whose variables are `variables`. */
  constructor(variables: ReadonlyMap<string, CompilationResult>) {
    this.slots = slotsOf(variables)
    this.kept = new Array(this.slots.results.length).fill(undefined)
  }

  /** Variable `name`'s kept evaluation. */
  get(name: string): KeptVariable | undefined {
    const slot = this.slots.index.get(name)
    return slot === undefined ? undefined : this.kept[slot]
  }

  /** Keeps `name`'s evaluation (the first one: a batch evaluates a variable once). */
  keep(name: string, entry: KeptVariable): void {
    const slot = this.slots.index.get(name)
    if (slot === undefined || this.kept[slot] !== undefined) return
    this.kept[slot] = entry
    this.total += entry.cost
  }
}

/**
 * A variable's evaluation, as a later batch replays it: its value (or error), its own cost, and the
 * variables it read (each evaluated first in that batch if it was not yet, as evaluating this one
 * afresh would, so that their cost is charged too).
 */
export interface KeptVariable {
  readonly value: CelValue | ErrorValue
  readonly cost: number
  readonly reads: readonly string[]
}

/**
 * The value and cost of each constant variable (CompilationResult.constant: it reads nothing of the
 * request), computed on first use and charged again at every use after, as evaluating it would be:
 * the bundled pack builds 0..9999 for deduplicating lists in a variable of that kind.
 */
const CONSTANTS = new WeakMap<CompilationResult, KeptVariable>()

/**
 * Variable `name`'s evaluation, if a batch given `memo` would take it without evaluating it: kept in
 * `memo` (this request's validations evaluated it) or a constant's. Its `cost` is what its first read
 * charges the batch (the variables it read are charged apart, each at its own first read).
 */
export function knownVariable(
  name: string,
  result: CompilationResult,
  memo: VariableMemo | undefined,
): KnownVariable | undefined {
  return memo?.get(name) ?? (result.constant === true ? CONSTANTS.get(result) : undefined)
}

export type KnownVariable = KeptVariable

/** The cost of a constant variable, once evaluated (CONSTANTS): what each batch's first read of it charges. */
export function constantCost(result: CompilationResult): number | undefined {
  return result.constant === true ? CONSTANTS.get(result)?.cost : undefined
}

/**
 * The variables that every policy of one request evaluates alike (CompilationResult.shareKey: the same
 * definition, reading nothing but `object`, `oldObject` and such variables), kept by key for the
 * request's other policies: the pod-security policies of the bundled pack define the same two dozen
 * variables over the same pod. One per dispatch; `of` gives the entries of one request's attributes
 * (a policy matched through another version sees another object). A policy taking an entry charges its
 * cost and evaluates the variables it read in its own batch, as evaluating it afresh would (replay).
 */
export class RequestVariables {
  private readonly byAttributes = new Map<AdmissionAttributes, Map<string, KeptVariable>>()

  of(a: AdmissionAttributes): Map<string, KeptVariable> {
    let entries = this.byAttributes.get(a)
    if (entries === undefined) {
      entries = new Map()
      this.byAttributes.set(a, entries)
    }
    return entries
  }
}

/**
 * A batch's variable `name` as `knownVariable` gives it, evaluated first (kept in `input.memo`, as
 * the batch's first read would evaluate and keep it) when not known yet. Undefined without a memo.
 */
export function variableReader(input: ActivationInput): (name: string) => KnownVariable | undefined {
  let lazy: LazyVariables | undefined
  return (name) => {
    const memo = input.memo
    if (memo === undefined) return undefined
    // kept in the memo: the common case (the validations read most variables)
    const kept = memo.get(name)
    if (kept !== undefined) return kept
    const result = input.variables?.get(name)
    if (result === undefined) return undefined
    const known = knownVariable(name, result, input.memo)
    if (known !== undefined) return known
    lazy ??= newActivation(input).activation[VariableVarName] as LazyVariables
    try {
      lazy.find(name)
    } catch (e) {
      if (!(e instanceof ErrorValue)) throw e
    }
    return knownVariable(name, result, input.memo)
  }
}

/**
 * What one expression of a batch read of `variables` (its look-ups in order: the name and the value
 * or error it got; not the look-ups of the variables it evaluates) and its own cost (its program's,
 * without the variables'), when forInput is given traces.
 */
export interface ExpressionTrace {
  readonly reads: (string | CelValue | ErrorValue | undefined)[]
  ownCost: number
}

/** compositionContext: the lazy `variables` of one batch and the cost they ran up. */
class CompositionContext {
  accumulatedCost = 0
  readonly slots: VariableSlots
  constructor(
    readonly variables: ReadonlyMap<string, CompilationResult>,
    readonly memo: VariableMemo | undefined,
    readonly shared: Map<string, KeptVariable> | undefined,
  ) {
    this.slots = slotsOf(variables)
  }
  getAndResetCost(): number {
    const c = this.accumulatedCost
    this.accumulatedCost = 0
    return c
  }
}

/** The names of `reads` once each, in order of first read (a few names: no Set); `reads` itself when they are. */
function distinct(reads: string[]): string[] {
  for (let i = 1; i < reads.length; i++) {
    if (reads.lastIndexOf(reads[i] as string, i - 1) < 0) continue
    // a name read again: the names up to i are distinct, the rest are filtered
    const out = reads.slice(0, i)
    for (let j = i + 1; j < reads.length; j++) if (!out.includes(reads[j] as string)) out.push(reads[j] as string)
    return out
  }
  return reads
}

/** lazy.MapValue over the compiled variables: each evaluated on first access, result (or error) kept. */
class LazyVariables extends MapValue {
  /** Each variable's value or error by slot (VariableSlots), once evaluated in this batch. */
  private readonly values: (CelValue | ErrorValue | undefined)[]
  /** The variables read by the variable being evaluated (for its KeptVariable). */
  private reads: string[] | undefined
  /** The batch's expressions' look-ups and their outcomes (not the variables'), when the batch is traced. */
  trace: ExpressionTrace['reads'] | undefined
  /** Variables being evaluated (their look-ups are not the batch expressions'). */
  private depth = 0
  /** The outcome of the evaluation at each depth. */
  private readonly outcomes: RunOutcome[] = []
  activation: Activation = {}

  constructor(private readonly ctx: CompositionContext) {
    super()
    this.values = new Array(ctx.slots.results.length).fill(undefined)
  }

  find(key: CelValue): CelValue | undefined {
    if (typeof key !== 'string') return undefined
    this.reads?.push(key)
    const slot = this.ctx.slots.index.get(key)
    if (slot === undefined) return undefined
    let v = this.values[slot]
    if (v === undefined) {
      v = this.evaluate(key, this.ctx.slots.results[slot] as CompilationResult)
      this.values[slot] = v
    }
    if (this.depth === 0) this.trace?.push(key, v)
    if (v instanceof ErrorValue) throw v
    return v
  }

  private evaluate(name: string, result: CompilationResult): CelValue | ErrorValue {
    if (result.error !== undefined || result.program === undefined) {
      return new ErrorValue(`composited variable "${name}" fails to compile: ${result.error?.detail ?? ''}`)
    }
    const memo = this.ctx.memo
    const kept = memo?.get(name) ?? (result.constant === true ? CONSTANTS.get(result) : undefined)
    if (kept !== undefined) return this.replay(kept)
    const shareKey = result.shareKey
    const shared = shareKey === undefined ? undefined : this.ctx.shared
    const fromShared = shared?.get(shareKey as string)
    if (fromShared !== undefined) {
      // this batch's memo has it too, as if evaluated here (variableReader, MessageBatch.fits)
      memo?.keep(name, fromShared)
      return this.replay(fromShared)
    }
    const keep = memo !== undefined || result.constant === true || shared !== undefined
    const outer = this.reads
    // the reads are recorded only for an evaluation that is kept (pushed, deduplicated once)
    const reads: string[] | undefined = keep ? [] : undefined
    this.reads = reads
    // tryRunInto: no counter and result allocated per evaluation (a request evaluates dozens of
    // variables); one outcome per nesting depth (a variable read while evaluating another has its own)
    const out = (this.outcomes[this.depth] ??= { cost: 0, error: undefined })
    let v: CelValue | undefined
    this.depth++
    try {
      v = result.program.tryRunInto(this.activation, out)
    } finally {
      this.reads = outer
      this.depth--
    }
    this.ctx.accumulatedCost += out.cost
    const value =
      out.error !== undefined
        ? new ErrorValue(`composited variable "${name}" fails to evaluate: ${out.error.message}`)
        : (v as CelValue)
    if (reads !== undefined) {
      const entry: KeptVariable = { value, cost: out.cost, reads: distinct(reads) }
      memo?.keep(name, entry)
      if (result.constant === true) CONSTANTS.set(result, entry)
      shared?.set(shareKey as string, entry)
    }
    return value
  }

  /** A kept evaluation: the variables it read first (those not evaluated in this batch yet), then its own cost. */
  private replay(kept: KeptVariable): CelValue | ErrorValue {
    for (const d of kept.reads) {
      const slot = this.ctx.slots.index.get(d)
      if (slot === undefined || this.values[slot] !== undefined) continue
      this.values[slot] = this.evaluate(d, this.ctx.slots.results[slot] as CompilationResult)
    }
    this.ctx.accumulatedCost += kept.cost
    return kept.value
  }

  keys(): CelValue[] {
    return [...this.ctx.variables.keys()]
  }
  get size(): number {
    return this.ctx.variables.size
  }
  equals(other: CelValue): boolean {
    return other === this
  }
}

/** The inputs of one batch's activation. */
export interface ActivationInput {
  readonly attributes: AdmissionAttributes
  /** `request` as CreateAdmissionRequest built it (JSON). */
  readonly request: Record<string, unknown>
  /** `namespaceObject` (JSON) or null. */
  readonly namespace: Record<string, unknown> | null
  readonly bindings: OptionalVariableBindings
  /** The policy's compiled variables (undefined: no composition, as for webhook matchConditions). */
  readonly variables?: ReadonlyMap<string, CompilationResult>
  /** Variables shared with the other batches given the same memo (VariableMemo: same inputs only). */
  readonly memo?: VariableMemo
  /** The request's variables shared by its policies (RequestVariables.of this request's attributes). */
  readonly shared?: Map<string, KeptVariable>
}

type AuthorizerValues = {
  attributes: AdmissionAttributes | undefined
  authorizer: CelValue
  requestResource: CelValue
  authorize: Authorize | undefined
}
/**
 * The values of the last request (admission is synchronous: every batch of one request hits it). Not a
 * WeakMap per request: weak entries for short-lived keys cost the garbage collector more than this saves.
 */
let lastAuthorizer: AuthorizerValues = {
  attributes: undefined,
  authorizer: null,
  requestResource: null,
  authorize: undefined,
}

/** NewAuthorizerVal / NewResourceAuthorizerVal, built once per request (they hold no state). */
function authorizerValues(a: AdmissionAttributes, authorize: Authorize): AuthorizerValues {
  const cached = lastAuthorizer
  if (cached.attributes === a && cached.authorize === authorize) return cached
  const user = { username: a.userInfo.username ?? '', groups: a.userInfo.groups ?? [] }
  const authorizer = newAuthorizer(user, authorize)
  const requestResource = newResourceAuthorizer(authorizer, {
    group: a.resource.group,
    resource: a.resource.resource,
    subresource: a.subResource,
    namespace: a.namespace,
    name: a.name,
  })
  lastAuthorizer = { attributes: a, authorizer, requestResource, authorize }
  return lastAuthorizer
}

/** The activation's fixed variables (literal keys: one hidden class for every activation). */
function baseActivation(
  a: AdmissionAttributes,
  params: unknown,
  request: Record<string, unknown>,
  namespace: Record<string, unknown> | null,
): Record<string, CelValue> {
  // the names are compile.ts's *VarName constants
  return {
    object: (a.object ?? null) as CelValue,
    oldObject: (a.oldObject ?? null) as CelValue,
    params: (params ?? null) as CelValue,
    request: request as CelValue,
    namespaceObject: namespace as CelValue,
  }
}

/** Binds `authorizer` and `authorizer.requestResource` in an activation. */
function bindAuthorizer(act: Record<string, CelValue>, a: AdmissionAttributes, authorize: Authorize): void {
  const v = authorizerValues(a, authorize)
  act[AuthorizerVarName] = v.authorizer
  act[RequestResourceAuthorizerVarName] = v.requestResource
}

/**
 * The activation of a request's validations shared by every policy that reads nothing of its own
 * (no params, no variables: see PolicyValidator.shared), the same as each batch's newActivation
 * would be. The authorizer values are bound by `withAuthorizer`, only once a policy reads them;
 * until then they hold null (the keys exist so that the activation keeps newActivation's shape).
 */
export interface SharedActivation {
  readonly activation: Activation
  /** Binds the authorizer values (idempotent); returns the activation. */
  withAuthorizer(): Activation
}

export function sharedActivation(
  a: AdmissionAttributes,
  request: Record<string, unknown>,
  namespace: Record<string, unknown> | null,
  authorize: () => Authorize,
): SharedActivation {
  const act = baseActivation(a, null, request, namespace)
  act[AuthorizerVarName] = null
  act[RequestResourceAuthorizerVarName] = null
  let bound = false
  return {
    activation: act,
    withAuthorizer() {
      if (!bound) {
        bindAuthorizer(act, a, authorize())
        bound = true
      }
      return act
    },
  }
}

/** newActivation: the variables every expression of the batch reads. */
function newActivation(input: ActivationInput): {
  activation: Activation
  composition?: CompositionContext
  lazy?: LazyVariables
} {
  const a = input.attributes
  const act = baseActivation(a, input.bindings.params, input.request, input.namespace)
  const authorize = input.bindings.authorize
  if (authorize !== undefined) bindAuthorizer(act, a, authorize)
  if (input.variables === undefined || input.variables.size === 0) return { activation: act }
  const composition = new CompositionContext(input.variables, input.memo, input.shared)
  const lazy = new LazyVariables(composition)
  act[VariableVarName] = lazy
  lazy.activation = act
  return { activation: act, composition, lazy }
}

/**
 * ForInput: evaluates `compiled` in order (undefined entries are placeholders) with one budget.
 * Returns the results and the budget left, or the batch error.
 */
export function forInput(
  compiled: readonly (CompilationResult | undefined)[],
  input: ActivationInput,
  budget: number,
  traces?: (ExpressionTrace | undefined)[],
  evaluate?: readonly boolean[],
): ForInputOutcome {
  // a batch of placeholders only (no messageExpression, no auditAnnotation) needs no activation
  if (compiled.every((c) => c === undefined)) return { results: compiled.map(() => ({})), remainingBudget: budget }
  const { activation, composition, lazy } = newActivation(input)
  let remaining = budget
  const results: EvaluationResult[] = []
  // tryRunInto: one outcome for the batch, no counter and result allocated per expression
  const out: RunOutcome = { cost: 0, error: undefined }
  for (let i = 0; i < compiled.length; i++) {
    const c = compiled[i]
    // `evaluate` false: left out by the caller, as a placeholder (no cost, no result)
    if (c === undefined || evaluate?.[i] === false) {
      results.push({})
      continue
    }
    if (c.error !== undefined || c.program === undefined) {
      results.push({ expression: c.expression, error: `compilation error: ${c.error?.detail ?? ''}` })
      continue
    }
    let trace: ExpressionTrace | undefined
    if (traces !== undefined) {
      trace = { reads: [], ownCost: 0 }
      traces[i] = trace
      if (lazy !== undefined) lazy.trace = trace.reads
    }
    // each program carries its per-call limit (compile.ts perCallLimit, PerCallLimit by default)
    const value = c.program.tryRunInto(activation, out)
    if (composition !== undefined) {
      const cost = composition.getAndResetCost()
      if (cost > remaining) return { batchError: OutOfBudget, outOfBudget: true }
      remaining -= cost
    }
    if (out.cost > remaining) return { batchError: OutOfBudget, outOfBudget: true }
    remaining -= out.cost
    if (trace !== undefined) trace.ownCost = out.cost
    if (out.error !== undefined) {
      results.push({
        expression: c.expression,
        error: `expression '${c.expression}' resulted in error: ${out.error.message}`,
      })
    } else results.push({ expression: c.expression, value: value as CelValue })
  }
  return { results, remainingBudget: remaining }
}
