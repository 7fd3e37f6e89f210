import { ErrorValue, GoPanic } from '../common/errors.js'
import { ListCreateBaseCost, type RuntimeCost } from '../cost/costs.js'
import type { Impl } from '../functions.js'
import { type CelValue, Optional } from '../values/values.js'
import { isAttribute, type Plan } from './plan.js'
import type { Ops } from './runtime.js'
import * as rt from './runtime.js'

// Back end 2: the plan as a tree of closures, the exact evaluator. It implements every rule of
// cel-go's semantics (error absorption in && / || / macros, error positions) and charges run-time
// cost node by node as cel-go's cost observer does (runtimecost.go), raising the cost-limit error
// at the node that crosses the limit. The generated code (codegen.ts) bails to it on anything
// unusual; the differential tests keep the two in step.

export interface Frame {
  readonly act: Readonly<Record<string, CelValue>>
  readonly s: (CelValue | ErrorValue)[]
  cost: number
  readonly limit: number
  /** Units allocated through the allocation guards (cost/budget.ts). */
  alloc: number
}
type Node = (f: Frame) => CelValue

export type ExactEvaluator = (f: Frame) => CelValue

/**
 * `locate` false: errors are not tagged with the node they came from (no try / catch around each call,
 * select and condition: a tenth of the tree's time); the caller evaluates again on a locating tree when
 * an untagged error reaches it (program.ts), which fails at the same node at the same cost.
 */
export function closures(plan: Plan, ops: Ops, locate = true): ExactEvaluator {
  return build(plan, ops, locate)
}

function charge(f: Frame, n: number): void {
  if ((f.cost += n) > f.limit) throw new rt.CostLimitExceeded()
}

function tryEval(n: Node, f: Frame): CelValue | ErrorValue {
  try {
    return n(f)
  } catch (e) {
    return rt.caught(e)
  }
}

/**
 * Tags an error raised by this node with the node's id (the innermost failing node wins), so the
 * public error can say where it happened.
 */
function located(n: Node, id: number): Node {
  if (id === 0) return n
  return (f) => {
    try {
      return n(f)
    } catch (e) {
      if (e instanceof ErrorValue && e.exprId === 0) e.exprId = id
      throw e
    }
  }
}

const locatedOps = new Set(['call', 'opt', 'select', 'fail', 'has', 'optSelect', 'optIndex', 'cond'])

function build(p: Plan, ops: Ops, locate: boolean): Node {
  const n = buildNode(p, ops, locate)
  return locate && locatedOps.has(p.op) ? located(n, (p as { id: number }).id) : n
}

/** The per-iteration scaffolding cost of the standard macro expansions (cel-go parser/macro.go shapes). */
export const MacroCost = {
  /** all: cond `@not_strictly_false(@result)` (call 1 + ident 1), step `@result && p` (ident 1). */
  allCond: 2,
  allStep: 1,
  /** exists: cond `@not_strictly_false(!@result)` (2 calls + ident), step `@result || p` (ident 1). */
  existsCond: 3,
  existsStep: 1,
  /**
   * exists_one: step `p ? @result + 1 : @result` (ident + call, or nothing: the false branch is an
   * attribute of a conditional, which cel-go resolves without observing it); result `@result == 1`.
   */
  existsOneHit: 2,
  existsOneMiss: 0,
  existsOneResult: 2,
  /** filter / map: step `@result + [t]` (ident 1 + list 10 + call 1, plus t), or `@result` (free, as above). */
  appendOne: 12,
  keep: 0,
  /** result `@result` (ident 1). */
  result: 1,
} as const

function buildNode(p: Plan, ops: Ops, locate: boolean): Node {
  const b = (x: Plan) => build(x, ops, locate)
  switch (p.op) {
    case 'const': {
      const v = p.value
      const c = p.cost
      if (c === undefined) return () => v
      return (f) => {
        charge(f, c)
        return v
      }
    }
    case 'fresh': {
      const c = p.cost
      if (c !== undefined)
        return (f) => {
          charge(f, c)
          return p.kind === 'list' ? [] : Object.create(null)
        }
      return p.kind === 'list' ? () => [] : () => Object.create(null)
    }
    case 'var': {
      const name = p.name
      if (p.free) return (f) => rt.variable(f.act, name)
      return (f) => {
        charge(f, 1)
        return rt.variable(f.act, name)
      }
    }
    case 'attr': {
      const c = p.candidates
      const free = p.free ? 1 : 0
      return (f) => {
        // charged before resolving: cel-go observes a failed resolution too
        charge(f, rt.attrCost(f.act, c) - free)
        return rt.resolveAttr(f.act, c)
      }
    }
    case 'local': {
      const i = p.slot
      if (p.free) return (f) => f.s[i] as CelValue
      return (f) => {
        charge(f, 1)
        return f.s[i] as CelValue
      }
    }
    case 'accu': {
      const i = p.slot
      if (p.free) return (f) => rt.accu(f.s[i] as CelValue | ErrorValue)
      return (f) => {
        charge(f, 1)
        return rt.accu(f.s[i] as CelValue | ErrorValue)
      }
    }
    case 'select': {
      const o = relative(b(p.operand), p.rel)
      const field = p.field
      const rc = p.rel ? 1 : 0
      return (f) => {
        const v = o(f)
        charge(f, rc)
        if (v instanceof Optional) {
          // applied to an optional: observed only when present (cel-go applyQualifiers, QualifyIfPresent)
          const r = rt.select(v, field)
          charge(f, rt.presence(r))
          return r
        }
        charge(f, 1)
        return rt.select(v, field)
      }
    }
    case 'optSelect': {
      const o = relative(b(p.operand), p.rel)
      const field = p.field
      const rc = p.rel ? 1 : 0
      return (f) => {
        const v = o(f)
        charge(f, rc)
        // cel-go evalWatchConstQual.QualifyIfPresent observes the qualifier only when the field is present
        const r = rt.optionalSelect(v, field)
        charge(f, rt.presence(r))
        return r
      }
    }
    case 'has': {
      // PresenceTestHasCost(false), as Kubernetes configures cel-go: has() itself is free.
      const o = relative(b(p.operand), p.rel)
      const field = p.field
      if (!p.rel)
        return (f) => {
          let v: CelValue
          try {
            v = o(f)
          } catch (e) {
            // cel-go charges the test-only field in place of the root (evalTestOnly: +1 -1, then each
            // qualifier); a qualifier that fails before the field is reached leaves it uncharged
            if (e instanceof ErrorValue) charge(f, -1)
            throw e
          }
          return rt.has(v, field)
        }
      // on a relative attribute the presence qualifier is observed (1): the root's +1 / -1 cancel
      return (f) => {
        const v = o(f)
        charge(f, 1)
        return rt.has(v, field)
      }
    }
    case 'opt':
      if (p.name === 'index')
        return indexNode(
          ops.index,
          b(p.args[0]!),
          b(p.args[1]!),
          p.extra ?? 0,
          !isAttribute(p.args[0]!) && !p.rootFree,
          false,
          chargedRoot(p.args[0]!),
        )
      return callNode(ops[p.name] as Impl, p.args.map(b), p.cost, p.overloadId)
    case 'call':
      return p.varArgs
        ? varArgsNode(p.impl, p.args.map(b), p.cost, p.overloadId)
        : callNode(p.impl, p.args.map(b), p.cost, p.overloadId)
    case 'optIndex':
      return indexNode(
        rt.optionalIndex,
        b(p.operand),
        b(p.key),
        p.extra ?? 0,
        !isAttribute(p.operand) && !p.rootFree,
        true,
        chargedRoot(p.operand),
      )
    case 'and':
    case 'or': {
      const l = b(p.left)
      const r = b(p.right)
      const stop = p.op === 'or'
      const failFn = p.op === 'and' ? rt.andFail : rt.orFail
      return (f) => {
        const lv = tryEval(l, f)
        if (lv === stop) return stop
        const rv = tryEval(r, f)
        if (rv === stop) return stop
        return failFn(lv, rv)
      }
    }
    case 'optOr': {
      const l = b(p.left)
      const r = b(p.right)
      const sc =
        p.kind === 'or'
          ? p.v029
            ? rt.orShortCircuitV029
            : rt.orShortCircuit
          : p.v029
            ? rt.orValueShortCircuitV029
            : rt.orValueShortCircuit
      return (f) => {
        const lv = l(f)
        const v = sc(lv)
        // free: cel-go's decorateOptionalOr makes it no call for the cost observer
        return v !== undefined ? v : r(f)
      }
    }
    case 'cond': {
      const c = b(p.test)
      const t = b(p.ifTrue)
      const e = b(p.ifFalse)
      return (f) => {
        const cv = c(f)
        return cv === true ? t(f) : cv === false ? e(f) : rt.condFail(cv)
      }
    }
    case 'nsf': {
      const a = b(p.arg)
      return (f) => {
        const v = tryEval(a, f) !== false
        charge(f, 1)
        return v
      }
    }
    case 'list': {
      const elems = p.elems.map(b)
      const opt = p.optional.includes(true) ? p.optional : null
      return (f) => {
        let vs: CelValue[]
        try {
          vs = elems.map((e) => e(f))
        } catch (e) {
          // cel-go stops at the failing element and still charges the construction
          if (e instanceof ErrorValue) charge(f, 10)
          throw e
        }
        charge(f, 10)
        return opt ? rt.optionalList(vs, opt) : vs
      }
    }
    case 'map': {
      const ks = p.keys.map(b)
      const vs = p.values.map(b)
      const opt = p.optional.includes(true) ? p.optional : null
      return (f) => {
        const keys: CelValue[] = []
        const values: CelValue[] = []
        try {
          for (let i = 0; i < ks.length; i++) {
            keys.push(ks[i]!(f))
            values.push(vs[i]!(f))
          }
        } catch (e) {
          // cel-go stops at the failing entry and still charges the construction
          if (e instanceof ErrorValue) charge(f, 30)
          throw e
        }
        charge(f, 30)
        return rt.mapLiteral(keys, values, opt)
      }
    }
    case 'fail': {
      const m = p.message
      return () => rt.fail(m)
    }
    case 'accuAppend': {
      // `@result + [e...]` (strict `_+_`): both sides are evaluated, and the accumulator's error wins
      // over the element's (cel-go evalBinary returns the left-hand error first).
      const i = p.accu
      const elems = p.elems.map(b)
      // unless the list is a constant, its creation (10), then the `+` (1): observed one after the other,
      // so that a cost limit crossed at the list stops before the `+` as in cel-go
      const listCost = p.constant ? 0 : ListCreateBaseCost
      return (f) => {
        charge(f, 1)
        const a = f.s[i]
        const vs = elems.map((e) => tryEval(e, f))
        charge(f, listCost)
        charge(f, 1)
        if (rt.isError(a)) throw a
        for (const v of vs) if (rt.isError(v)) throw v
        const list = a as CelValue[]
        for (const v of vs) list.push(v as CelValue)
        return list
      }
    }
    case 'all':
    case 'exists': {
      const range = b(p.range)
      const pred = b(p.pred!)
      const slot = p.iter
      const stop = p.op === 'exists'
      const condCost = stop ? MacroCost.existsCond : MacroCost.allCond
      const stepCost = stop ? MacroCost.existsStep : MacroCost.allStep
      return (f) => {
        const r = rt.iterRange(range(f))
        let err: ErrorValue | undefined
        let done = false
        for (let i = 0; i < r.length; i++) {
          charge(f, condCost)
          if (done) break
          f.s[slot] = r[i] as CelValue
          charge(f, stepCost)
          const v = tryEval(pred, f)
          if (v === stop) done = true
          else if (rt.isError(v)) err ??= v
          else if (v !== !stop) err ??= rt.noSuchOverload()
        }
        charge(f, MacroCost.result)
        if (done) return stop
        if (err) throw err
        return !stop
      }
    }
    case 'existsOne': {
      const range = b(p.range)
      const pred = b(p.pred!)
      const slot = p.iter
      return (f) => {
        const r = rt.iterRange(range(f))
        let n = 0
        let err: ErrorValue | undefined
        for (let i = 0; i < r.length; i++) {
          f.s[slot] = r[i] as CelValue
          const v = tryEval(pred, f)
          if (v === true) {
            charge(f, MacroCost.existsOneHit)
            n++
          } else if (v === false) charge(f, MacroCost.existsOneMiss)
          else err = rt.isError(v) ? v : rt.noSuchOverload()
        }
        charge(f, MacroCost.existsOneResult)
        if (err) throw err
        return n === 1
      }
    }
    case 'filter':
    case 'mapList': {
      const range = b(p.range)
      const pred = p.pred ? b(p.pred) : undefined
      // filter appends the iteration variable itself (one more identifier read)
      const tr = p.transform ? b(p.transform) : undefined
      const elemCost = tr ? 0 : 1
      // `[t]` then `+`, observed one after the other (a cost limit crossed at the list stops before the `+`)
      const listCost = MacroCost.appendOne - 2 - (p.constStep ? ListCreateBaseCost : 0)
      const slot = p.iter
      const initCost = p.initCost ?? 0
      return (f) => {
        const r = rt.iterRange(range(f))
        charge(f, initCost)
        const out: CelValue[] = []
        let err: ErrorValue | undefined
        for (let i = 0; i < r.length; i++) {
          const x = r[i] as CelValue
          f.s[slot] = x
          if (pred) {
            const v = tryEval(pred, f)
            if (v === false) {
              charge(f, MacroCost.keep)
              continue
            }
            if (v !== true) {
              // the condition's error (or no such overload) becomes the accumulator's value
              err = rt.isError(v) ? v : rt.noSuchOverload()
              continue
            }
          }
          // `@result + [t]`: the transform is evaluated even when the accumulator already holds an error;
          // `@result` (1) is observed before it, the list and the `+` after (where a cost limit stops)
          charge(f, 1)
          const t = tr ? tryEval(tr, f) : x
          charge(f, elemCost)
          charge(f, listCost)
          charge(f, 1)
          if (err) continue
          if (rt.isError(t)) err = t
          else out.push(t)
        }
        charge(f, MacroCost.result)
        if (err) throw err
        return out
      }
    }
    case 'fold': {
      const range = b(p.range)
      const init = b(p.init)
      const cond = b(p.cond)
      const step = b(p.step)
      const result = b(p.result)
      const { iter, accu } = p
      const iter2 = p.iter2
      return (f) => {
        const rv = range(f)
        // a failed accuInit is the accumulator's value, not the fold's end: cel-go's folder evaluates it when the
        // accumulator is first read (the sortBy macro's bind reads it in @sortByAssociatedKeys' arguments)
        if (iter2 === undefined) {
          const r = rt.iterRange(rv)
          f.s[accu] = tryEval(init, f)
          for (let i = 0; i < r.length; i++) {
            f.s[iter] = r[i] as CelValue
            if (cond(f) === false) break
            f.s[accu] = tryEval(step, f)
          }
        } else {
          const r = rt.iterPairs(rv)
          f.s[accu] = tryEval(init, f)
          for (let i = 0; i < r.length; i++) {
            const pair = r[i]!
            f.s[iter] = pair[0]
            f.s[iter2] = pair[1]
            if (cond(f) === false) break
            f.s[accu] = tryEval(step, f)
          }
        }
        return result(f)
      }
    }
  }
}

/**
 * The operand of a select / index that is not an attribute: cel-go wraps it in a relative attribute,
 * observed (1) even when the operand fails.
 */
function relative(o: Node, rel: true | undefined): Node {
  if (!rel) return o
  return (f) => {
    try {
      return o(f)
    } catch (e) {
      if (e instanceof ErrorValue) charge(f, 1)
      throw e
    }
  }
}

/**
 * Whether `p` is an attribute whose root's observation this evaluator has charged by the time its
 * qualifiers run (an identifier when read, a relative attribute with its first qualifier; not a
 * conditional's branch): cel-go observes it only once the whole attribute is resolved (evalWatchAttr),
 * after its qualifiers.
 */
function chargedRoot(p: Plan): boolean {
  switch (p.op) {
    case 'var':
    case 'attr':
    case 'local':
    case 'accu':
      return !p.free
    // a relative attribute's own observation (1), charged with its first qualifier (`rel`, an index's extra)
    case 'select':
    case 'optSelect':
      return p.rel ? true : chargedRoot(p.operand)
    case 'optIndex':
      return isAttribute(p.operand) ? chargedRoot(p.operand) : !p.rootFree
    case 'opt':
      return p.name === 'index' && (isAttribute(p.args[0]!) ? chargedRoot(p.args[0]!) : !p.rootFree)
    default:
      return false
  }
}

/**
 * `a[k]` / `a[?k]` as cel-go's attribute qualification (planCallIndex): the qualifier costs 1, or on
 * an optional (and always for `[?k]`) 1 only when the value is present; `extra` as in the plan. A
 * failing qualification is observed; a failing operand charges only its relative attribute. cel-go
 * observes the attribute's root after the key (evalWatchAttr): the root's 1, charged here when it was
 * read (`root`), is set aside while the key runs, so that a key that panics (GoPanic; the cost limit
 * crossed, where cel-go's tracker panics too) leaves it uncharged and the limit is crossed where
 * cel-go crosses it.
 */
function indexNode(fn: Impl, o: Node, k: Node, extra: number, rel: boolean, optional: boolean, root: boolean): Node {
  const operand = relative(o, rel || undefined)
  // a failing key: the qualification is observed with the error (not for `[?k]`, QualifyIfPresent)
  const keyFail = (optional ? 0 : 1) + extra
  const late = root ? 1 : 0
  return (f) => {
    const v = operand(f)
    // the root's observation moves after the key's (see above): it is not counted while the key runs
    f.cost -= late
    let key: CelValue
    try {
      key = k(f)
    } catch (e) {
      if (e instanceof ErrorValue) {
        charge(f, keyFail)
        charge(f, late)
      }
      throw e
    }
    charge(f, late)
    charge(f, extra)
    if (optional || v instanceof Optional) {
      const r = fn(v, key)
      charge(f, rt.presence(r))
      return r
    }
    charge(f, 1)
    return fn(v, key)
  }
}

/**
 * A strict call as cel-go evaluates and charges it: every argument is evaluated (an error argument
 * does not stop the others), and the call is charged even when an argument or the call itself fails
 * (the cost observer sees the error value: runtimecost.go costCall, an error's size is 1). Then the
 * first error is raised.
 */
function callNode(fn: Impl, args: Node[], cost: RuntimeCost | undefined, overloadId?: string): Node {
  const charged = (f: Frame, vs: readonly (CelValue | ErrorValue)[], r: CelValue | ErrorValue) =>
    charge(f, cost ? (costOf(cost, vs, r, overloadId) ?? 1) : 1)
  const failed = (f: Frame, vs: readonly (CelValue | ErrorValue)[], e: unknown): never => {
    if (e instanceof ErrorValue) charged(f, vs, e)
    throw e
  }
  switch (args.length) {
    case 0:
      return (f) => {
        let v: CelValue
        try {
          v = fn()
        } catch (e) {
          return failed(f, [], e)
        }
        charged(f, [], v)
        return v
      }
    case 1: {
      const [a] = args as [Node]
      // the cost formula's arguments: one array per node, filled after the call (which may evaluate CEL
      // again: a host function) and emptied once charged, so no evaluation allocates one or keeps a value
      const vs: CelValue[] = [null]
      return (f) => {
        const x = tryEval(a, f)
        if (x instanceof ErrorValue) return failed(f, [x], x)
        let v: CelValue
        try {
          v = fn(x)
        } catch (e) {
          return failed(f, [x], e)
        }
        if (cost === undefined) charge(f, 1)
        else {
          vs[0] = x
          charge(f, costOf(cost, vs, v, overloadId) ?? 1)
          vs[0] = null
        }
        return v
      }
    }
    case 2: {
      const [a, c] = args as [Node, Node]
      const vs: CelValue[] = [null, null]
      return (f) => {
        const x = tryEval(a, f)
        const y = tryEval(c, f)
        if (x instanceof ErrorValue) return failed(f, [x, y], x)
        if (y instanceof ErrorValue) return failed(f, [x, y], y)
        let v: CelValue
        try {
          v = fn(x, y)
        } catch (e) {
          return failed(f, [x, y], e)
        }
        if (cost === undefined) charge(f, 1)
        else {
          vs[0] = x
          vs[1] = y
          charge(f, costOf(cost, vs, v, overloadId) ?? 1)
          vs[0] = null
          vs[1] = null
        }
        return v
      }
    }
    default:
      return (f) => {
        const vs = args.map((x) => tryEval(x, f))
        for (const x of vs) if (x instanceof ErrorValue) return failed(f, vs, x)
        let v: CelValue
        try {
          v = fn(...(vs as CelValue[]))
        } catch (e) {
          return failed(f, vs, e)
        }
        charged(f, vs, v)
        return v
      }
  }
}

/**
 * cel-go's evalVarArgs: the arguments in order, stopping at the first error, which is raised. The
 * observer charges the call only when it finds every argument's value (runtimecost.go dropArgs), so
 * an error before the last argument leaves the call (and the arguments after it) uncharged.
 */
function varArgsNode(fn: Impl, args: Node[], cost: RuntimeCost | undefined, overloadId?: string): Node {
  const charged = (f: Frame, vs: readonly (CelValue | ErrorValue)[], r: CelValue | ErrorValue) =>
    charge(f, cost ? (costOf(cost, vs, r, overloadId) ?? 1) : 1)
  const n = args.length
  return (f) => {
    const vs: (CelValue | ErrorValue)[] = new Array(n)
    for (let i = 0; i < n; i++) {
      const x = tryEval(args[i] as Node, f)
      vs[i] = x
      if (x instanceof ErrorValue) {
        if (i === n - 1) charged(f, vs, x)
        throw x
      }
    }
    let v: CelValue
    try {
      v = fn(...(vs as CelValue[]))
    } catch (e) {
      if (e instanceof ErrorValue) charged(f, vs, e)
      throw e
    }
    charged(f, vs, v)
    return v
  }
}

/** Whether an argument is an error (a loop: it runs on every costed call). */
function hasError(vs: readonly (CelValue | ErrorValue)[]): boolean {
  for (let i = 0; i < vs.length; i++) if (vs[i] instanceof ErrorValue) return true
  return false
}

/**
 * A library's cost function given error values too: one that cannot cope falls back to 1. A failed
 * argument is charged by the overload the checker chose (`overloadId`), which its value no longer shows.
 */
function costOf(
  cost: RuntimeCost,
  vs: readonly (CelValue | ErrorValue)[],
  r: CelValue | ErrorValue,
  overloadId: string | undefined,
): number | undefined {
  if (!(r instanceof ErrorValue) && !hasError(vs)) return cost(vs as CelValue[], r)
  try {
    return cost(vs as CelValue[], r as CelValue, overloadId)
  } catch (e) {
    // cel-go's own trackers that assert their argument's type panic on it (ext/lists.go)
    if (e instanceof GoPanic) throw e
    return 1
  }
}
