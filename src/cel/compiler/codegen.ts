import { ListCreateBaseCost, type RuntimeCost } from '../cost/costs.js'
import { setMembershipCost, standardRuntimeCosts, standardRuntimeCostsV029, traversalCost } from '../cost/runtime.js'
import type { CelValue } from '../values/values.js'
import { MacroCost } from './closures.js'
import type { Plan } from './plan.js'
import type { Ops } from './runtime.js'
import * as rt from './runtime.js'

// Back end 1: the plan as JavaScript source, turned into a function with `new Function`.
// The generated code is the optimistic path: it decides every case where all values are of the
// expected kinds and no error occurs, which is what rules do nearly always. Anything else (an
// error to absorb in `&&` / `||` / a macro, a non-bool operand, any thrown error, the cost limit
// crossed) leaves it, and the program re-evaluates with the closure back end, which implements
// every rule of cel-go's error and cost semantics. CEL is deterministic and side-effect free, so
// re-evaluation gives the exact result (the generated function returns rt.BAIL to ask for it);
// the generated code only has to get the common case right,
// including its total run-time cost (`c.n`), which it may add up in any order.
// Injection safety: the source is built only from the plan; every string that came from the
// expression (field names, variable names, string literals) is emitted through JSON.stringify,
// and all other values (lists, maps, bytes, implementations) are passed by reference in `k`.
// Property reads are own-property reads, so `__proto__` or `constructor` in an object are
// fields like any other. Each comprehension is its own hoisted function that receives the
// variables in scope as parameters: no closure captures the evaluation's locals (which would
// move them into a heap context and slow every read).

/** Cost counter of one evaluation: `n` so far, `l` the limit, `a` allocated through guards (cost/budget.ts). */
export interface CostCounter {
  n: number
  l: number
  a: number
}
export type FastEvaluator = (act: Readonly<Record<string, CelValue>>, c: CostCounter) => CelValue | typeof rt.BAIL

/**
 * `withCost` false: the variant for evaluations that neither report cost nor have a limit; the cost
 * bookkeeping is left out (V8 then drops the dead local counter).
 */
export function generate(plan: Plan, ops: Ops, withCost = true): { source: string; fn: FastEvaluator } {
  const g = new Gen(withCost)
  const body = g.expr(plan)
  const decls = g.scope.temps
  // Each function counts its cost in a local `n` and adds it to `c.n` when it returns. The body runs
  // in try / catch: any exception means "ask the exact evaluator" (rt.BAIL).
  const source = `"use strict";\n${g.fns.join('\n')}\nreturn function celProgram(act, c) {\nlet n = 0${decls.length ? `, ${decls.join(', ')}` : ''};\ntry {\nconst v = ${body};\n${withCost ? 'c.n += n;\n' : ''}return v;\n} catch {\nreturn rt.BAIL;\n}\n};`
  const factory = new Function('rt', 'ops', 'k', 'OP', source) as (
    r: typeof rt,
    o: Ops,
    k: unknown[],
    op: object,
  ) => FastEvaluator
  return { source, fn: factory(rt, ops, g.consts, Object.prototype) }
}

const q = (s: string) => JSON.stringify(s)

/** Cost helpers the generated code calls directly for the standard size-dependent operators. */
const inlineCost = new Map<RuntimeCost | undefined, string>([
  [standardRuntimeCosts['_==_'], 'rt.minSizeCost'],
  [standardRuntimeCosts['_!=_'], 'rt.minSizeCost'],
  [standardRuntimeCosts['_<_'], 'rt.orderingCost'],
  [standardRuntimeCosts['_<=_'], 'rt.orderingCost'],
  [standardRuntimeCosts['_>_'], 'rt.orderingCost'],
  [standardRuntimeCosts['_>=_'], 'rt.orderingCost'],
  [standardRuntimeCosts['_+_'], 'rt.addCost'],
  [standardRuntimeCosts.startsWith, 'rt.receiverTraversalCost'],
  [standardRuntimeCosts.endsWith, 'rt.receiverTraversalCost'],
  [standardRuntimeCostsV029.startsWith, 'rt.argTraversalCost'],
  [standardRuntimeCostsV029.endsWith, 'rt.argTraversalCost'],
  [standardRuntimeCosts.contains, 'rt.containsCost'],
  [standardRuntimeCosts.matches, 'rt.matchesCost'],
  [standardRuntimeCosts['@in'], 'rt.inCost'],
])

/** A string literal argument's value (the size-dependent formulas of such an operand are known when generating). */
function literalString(p: Plan | undefined): string | undefined {
  return p?.op === 'const' && typeof p.value === 'string' ? p.value : undefined
}

/**
 * A standard size-dependent cost with a string literal as the operand it reads, worked out while generating:
 * `x.startsWith('a')` (v0.29: the prefix's traversal) is a constant, `x.contains(':')` the receiver's
 * traversal times the literal's. `ts` are the temporaries holding the evaluated arguments.
 */
function foldedCost(inline: string, args: readonly Plan[], ts: readonly string[]): string | undefined {
  if (inline === 'rt.argTraversalCost') {
    const lit = literalString(args[1])
    return lit === undefined ? shortTraversal(ts[1]!, inline, ts) : String(traversalCost(lit))
  }
  if (inline === 'rt.receiverTraversalCost') {
    const lit = literalString(args[0])
    return lit === undefined ? shortTraversal(ts[0]!, inline, ts) : String(traversalCost(lit))
  }
  if (inline === 'rt.containsCost') {
    const lit = literalString(args[1])
    if (lit === undefined) return undefined
    const k = traversalCost(lit)
    // another `contains` overload (a non-string receiver) keeps its formula
    return `(typeof ${ts[0]} === 'string' ? ${k === 0 ? '0' : `rt.traversalCost(${ts[0]})${k === 1 ? '' : ` * ${k}`}`} : rt.containsCost(${ts.join(', ')}))`
  }
  return undefined
}

/** `ceil(size(s) * 0.1)` in line for a string of at most 10 UTF-16 units (as many code points: 0 or 1). */
function shortTraversal(t: string, inline: string, ts: readonly string[]): string {
  return `(typeof ${t} === 'string' && ${t}.length <= 10 ? (${t}.length === 0 ? 0 : 1) : ${inline}(${ts.join(', ')}))`
}

/** The run-time cost of a subtree when it does not depend on values (no branches, loops or sized calls). */
function staticCost(p: Plan): number | undefined {
  switch (p.op) {
    case 'const':
    case 'fresh':
      return p.cost ?? 0
    case 'var':
    case 'local':
    case 'accu':
      return p.free ? 0 : 1
    case 'select': {
      // (an optional operand bails: rt.selectJs)
      const o = staticCost(p.operand)
      return o === undefined ? undefined : o + 1 + (p.rel ? 1 : 0)
    }
    case 'has': {
      const o = staticCost(p.operand)
      return o === undefined ? undefined : o + (p.rel ? 1 : 0)
    }
    case 'opt':
    case 'call': {
      // an index on an optional bails (ops.indexJs); `in` turned into set membership is free
      let sum = p.op === 'opt' ? (p.cost === setMembershipCost ? 0 : 1 + (p.extra ?? 0)) : 1
      if (p.cost && p.cost !== setMembershipCost) return undefined
      for (const a of p.args) {
        const c = staticCost(a)
        if (c === undefined) return undefined
        sum += c
      }
      return sum
    }
    case 'nsf': {
      const a = staticCost(p.arg)
      return a === undefined ? undefined : a + 1
    }
    default:
      return undefined
  }
}

class Gen {
  constructor(private readonly withCost: boolean) {
    this.flush = withCost ? 'c.n += n; ' : ''
    this.limitCheck = withCost ? 'if (c.n + n > c.l) rt.bail()' : ''
  }
  /** Adds the function's local cost to the evaluation's counter (before a return). */
  private readonly flush: string
  /** Leaves a loop that crossed the cost limit (the exact evaluator raises the error at the right node). */
  private readonly limitCheck: string
  readonly consts: unknown[] = []
  /** Hoisted comprehension functions. */
  readonly fns: string[] = []
  /** The function being generated: its temporaries. */
  scope: { temps: string[] } = { temps: [] }
  /** Comprehension variables (slots) visible at this point, passed on to nested comprehension functions. */
  private visible: string[] = []
  private temps = 0

  private temp(): string {
    const t = `t${this.temps++}`
    this.scope.temps.push(t)
    return t
  }

  private k(v: unknown): string {
    let i = this.consts.indexOf(v)
    if (i < 0) i = this.consts.push(v) - 1
    return `k[${i}]`
  }

  private constant(v: CelValue): string {
    if (typeof v === 'string') return q(v)
    if (typeof v === 'boolean' || v === null) return String(v)
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v < 0 ? `(${v})` : String(v)
    return this.k(v)
  }

  /** Hoists a comprehension into `function cN(act, c, <visible slots>, r)`; `body` gets the range's name. */
  private hoist(own: number[], range: Plan, body: () => string): string {
    const params = ['act', 'c', ...this.visible]
    const rangeCode = this.expr(range)
    const idx = this.fns.push('') - 1
    const saved = this.scope
    const savedVisible = this.visible
    this.scope = { temps: [] }
    const ownNames = own.map((i) => `s${i}`)
    this.visible = [...this.visible, ...ownNames]
    const code = body()
    const locals = [...ownNames, ...this.scope.temps]
    this.fns[idx] = `function c${idx}(${params.join(', ')}, r) { let n = 0, ${locals.join(', ')}; ${code} }`
    this.scope = saved
    this.visible = savedVisible
    return `c${idx}(${params.join(', ')}, ${rangeCode})`
  }

  /** `!t` of a temporary in line for a bool (ops.not, a call V8 did not always inline, raises the error otherwise). */
  private not(t: string): string {
    return `(typeof ${t} === 'boolean' ? !${t} : ops.not(${t}))`
  }

  /** Code for `p` that also counts its run-time cost. */
  expr(p: Plan): string {
    const sc = staticCost(p)
    if (sc !== undefined) return sc === 0 ? this.raw(p) : `(n += ${sc}, ${this.raw(p)})`
    return this.counted(p)
  }

  /** Code for a subtree whose cost is counted by the caller. */
  private raw(p: Plan): string {
    switch (p.op) {
      case 'const':
        return this.constant(p.value)
      case 'fresh':
        return p.kind === 'list' ? '[]' : 'Object.create(null)'
      case 'var': {
        if (p.name in Object.prototype) return `rt.variable(act, ${q(p.name)})`
        const t = this.temp()
        return `((${t} = act[${q(p.name)}]) !== undefined && ${t} !== OP[${q(p.name)}] ? ${t} : rt.variable(act, ${q(p.name)}))`
      }
      case 'local':
      case 'accu':
        // In generated code an accumulator never holds an error: any error bails to the closures.
        return `s${p.slot}`
      case 'select': {
        const f = q(p.field)
        if (p.field in Object.prototype) return `rt.selectJs(${this.raw(p.operand)}, ${f})`
        const t = this.temp()
        const v = this.temp()
        // A plain JSON object whose read found a value that is not Object.prototype's: an own field.
        // (Comparing with OP keeps a polluted Object.prototype from leaking into CEL; V8 folds it.)
        return `((${t} = ${this.raw(p.operand)}) !== null && typeof ${t} === 'object' && ${t}.constructor === Object && (${v} = ${t}[${f}]) !== undefined && ${v} !== OP[${f}] ? ${v} : rt.selectJs(${t}, ${f}))`
      }
      case 'has': {
        const f = q(p.field)
        if (p.field in Object.prototype) return `rt.has(${this.raw(p.operand)}, ${f})`
        const t = this.temp()
        const v = this.temp()
        return `((${t} = ${this.raw(p.operand)}) !== null && typeof ${t} === 'object' && ${t}.constructor === Object ? ((${v} = ${t}[${f}]) === undefined ? false : ${v} !== OP[${f}] ? true : rt.has(${t}, ${f})) : rt.has(${t}, ${f}))`
      }
      case 'opt':
        if (p.name === 'not') {
          const t = this.temp()
          return `(${t} = ${this.raw(p.args[0]!)}, ${this.not(t)})`
        }
        return `ops.${p.name === 'index' ? 'indexJs' : p.name}(${p.args.map((a) => this.raw(a)).join(', ')})`
      case 'call':
        return `${this.k(p.impl)}(${p.args.map((a) => this.raw(a)).join(', ')})`
      case 'nsf':
        return `(${this.raw(p.arg)} !== false)`
      default:
        return this.counted(p)
    }
  }

  /** Code for a node whose cost depends on values: it adds to `c.n` itself. */
  private counted(p: Plan): string {
    switch (p.op) {
      case 'attr':
        return `(n += rt.attrCost(act, ${this.k(p.candidates)})${p.free ? ' - 1' : ''}, rt.resolveAttr(act, ${this.k(p.candidates)}))`
      case 'select':
        return `(n += ${p.rel ? 2 : 1}, rt.selectJs(${this.expr(p.operand)}, ${q(p.field)}))`
      case 'optSelect': {
        if (!this.withCost) return `rt.optionalSelect(${this.expr(p.operand)}, ${q(p.field)})`
        // the qualifier is charged only when the field is present (cel-go QualifyIfPresent)
        const t = this.temp()
        return `(${t} = rt.optionalSelect(${this.expr(p.operand)}, ${q(p.field)}), n += ${p.rel ? '1 + ' : ''}rt.presence(${t}), ${t})`
      }
      case 'has':
        return `${p.rel ? '(n += 1, ' : '('}rt.has(${this.expr(p.operand)}, ${q(p.field)}))`
      case 'nsf':
        return `(n += 1, ${this.expr(p.arg)} !== false)`
      case 'opt':
      case 'call': {
        const fn = p.op === 'opt' ? `ops.${p.name === 'index' ? 'indexJs' : p.name}` : this.k(p.impl)
        const ts = p.args.map(() => this.temp())
        const r = this.temp()
        const assigns = p.args.map((a, i) => `${ts[i]} = ${this.expr(a)}`)
        const call =
          p.op === 'opt' && p.name === 'not' ? `${r} = ${this.not(ts[0]!)}` : `${r} = ${fn}(${ts.join(', ')})`
        let cost = p.op === 'opt' && p.extra ? String(1 + p.extra) : '1'
        if (p.cost === setMembershipCost) cost = '0'
        else if (p.cost && this.withCost) {
          const inline = inlineCost.get(p.cost)
          cost = inline
            ? (foldedCost(inline, p.args, ts) ?? `${inline}(${ts.join(', ')})`)
            : `(${this.k(p.cost)}([${ts.join(', ')}], ${r}) ?? 1)`
          // Two numbers (or booleans) are scalars of size 1: ==, != and ordering cost 1 (cel-go costCall).
          if (inline === 'rt.minSizeCost' || inline === 'rt.orderingCost')
            cost = `(typeof ${ts[0]} === typeof ${ts[1]} && (typeof ${ts[0]} === 'number' || typeof ${ts[0]} === 'boolean') ? 1 : ${cost})`
        }
        return `(${[...assigns, call].join(', ')}, n += ${cost}, ${r})`
      }
      case 'optIndex': {
        if (!this.withCost) return `rt.optionalIndex(${this.expr(p.operand)}, ${this.expr(p.key)})`
        // the qualifier is charged only when the value is present (cel-go QualifyIfPresent)
        const t = this.temp()
        const extra = p.extra ? `${p.extra} + ` : ''
        return `(${t} = rt.optionalIndex(${this.expr(p.operand)}, ${this.expr(p.key)}), n += ${extra}rt.presence(${t}), ${t})`
      }
      case 'and':
      case 'or': {
        // Booleans on both sides decide here; anything else (errors to absorb, non-bools) bails.
        const l = this.temp()
        const r = this.temp()
        const stop = p.op === 'and' ? 'false' : 'true'
        const go = p.op === 'and' ? 'true' : 'false'
        return `((${l} = ${this.expr(p.left)}) === ${stop} ? ${stop} : ${l} === ${go} ? ((${r} = ${this.expr(p.right)}) === true || ${r} === false ? ${r} : rt.bail()) : rt.bail())`
      }
      case 'optOr': {
        const t = this.temp()
        const sc = `${p.kind === 'or' ? 'orShortCircuit' : 'orValueShortCircuit'}${p.v029 ? 'V029' : ''}`
        // free: cel-go's decorateOptionalOr makes it no call for the cost observer
        return `((${t} = rt.${sc}(${this.expr(p.left)})) !== undefined ? ${t} : ${this.expr(p.right)})`
      }
      case 'cond': {
        const t = this.temp()
        return `((${t} = ${this.expr(p.test)}) === true ? ${this.expr(p.ifTrue)} : ${t} === false ? ${this.expr(p.ifFalse)} : rt.bail())`
      }
      case 'list':
        if (p.optional.includes(true))
          return `(n += 10, rt.optionalList([${p.elems.map((e) => this.expr(e)).join(', ')}], ${this.k(p.optional)}))`
        return `(n += 10, [${p.elems.map((e) => this.expr(e)).join(', ')}])`
      case 'map':
        return `(n += 30, rt.mapLiteral([${p.keys.map((e) => this.expr(e)).join(', ')}], [${p.values.map((e) => this.expr(e)).join(', ')}], ${p.optional.includes(true) ? this.k(p.optional) : 'null'}))`
      case 'fail':
        return `rt.fail(${q(p.message)})`
      case 'accuAppend':
        return `(n += ${p.constant ? 2 : 12}, s${p.accu}.push(${p.elems.map((e) => this.expr(e)).join(', ')}), s${p.accu})`
      case 'all':
      case 'exists': {
        const stop = p.op === 'all' ? 'false' : 'true'
        const go = p.op === 'all' ? 'true' : 'false'
        const cond = p.op === 'all' ? MacroCost.allCond : MacroCost.existsCond
        const step = p.op === 'all' ? MacroCost.allStep : MacroCost.existsStep
        const s = `s${p.iter}`
        return this.hoist(
          [p.iter],
          p.range,
          () =>
            `const l = rt.iterRange(r), len = l.length; for (let i = 0; i < len; i++) { n += ${cond + step}; ${s} = l[i]; const v = ${this.expr(p.pred!)}; if (v === ${stop}) { n += i + 1 < len ? ${cond + MacroCost.result} : ${MacroCost.result}; ${this.flush}return ${stop} } if (v !== ${go}) rt.bail(); ${this.limitCheck} } n += ${MacroCost.result}; ${this.flush}return ${go}`,
        )
      }
      case 'existsOne': {
        const s = `s${p.iter}`
        return this.hoist(
          [p.iter],
          p.range,
          () =>
            `const l = rt.iterRange(r); let k1 = 0; for (let i = 0; i < l.length; i++) { ${s} = l[i]; const v = ${this.expr(p.pred!)}; if (v === true) { k1++; n += ${MacroCost.existsOneHit} } else if (v === false) n += ${MacroCost.existsOneMiss}; else rt.bail(); ${this.limitCheck} } n += ${MacroCost.existsOneResult}; ${this.flush}return k1 === 1`,
        )
      }
      case 'filter': {
        const s = `s${p.iter}`
        const init = p.initCost ? `n += ${p.initCost}; ` : ''
        return this.hoist(
          [p.iter],
          p.range,
          () =>
            `const l = rt.iterRange(r); ${init}const out = []; for (let i = 0; i < l.length; i++) { ${s} = l[i]; const v = ${this.expr(p.pred!)}; if (v === true) { out.push(${s}); n += ${MacroCost.appendOne + 1} } else if (v === false) n += ${MacroCost.keep}; else rt.bail(); ${this.limitCheck} } n += ${MacroCost.result}; ${this.flush}return out`,
        )
      }
      case 'mapList': {
        const s = `s${p.iter}`
        const init = p.initCost ? `n += ${p.initCost}; ` : ''
        const pred = p.pred
        const append = MacroCost.appendOne - (p.constStep ? ListCreateBaseCost : 0)
        return this.hoist([p.iter], p.range, () => {
          const t = this.expr(p.transform!)
          if (!pred)
            return `const l = rt.iterRange(r); ${init}const out = new Array(l.length); for (let i = 0; i < l.length; i++) { ${s} = l[i]; out[i] = ${t}; n += ${append}; ${this.limitCheck} } n += ${MacroCost.result}; ${this.flush}return out`
          return `const l = rt.iterRange(r); ${init}const out = []; for (let i = 0; i < l.length; i++) { ${s} = l[i]; const v = ${this.expr(pred)}; if (v === true) { out.push(${t}); n += ${append} } else if (v === false) n += ${MacroCost.keep}; else rt.bail(); ${this.limitCheck} } n += ${MacroCost.result}; ${this.flush}return out`
        })
      }
      case 'fold': {
        const it = `s${p.iter}`
        const a = `s${p.accu}`
        const two = p.iter2 !== undefined
        const own = two ? [p.iter, p.iter2!, p.accu] : [p.iter, p.accu]
        return this.hoist(own, p.range, () => {
          const bind = two ? `${it} = l[i][0]; s${p.iter2} = l[i][1];` : `${it} = l[i];`
          return `const l = rt.${two ? 'iterPairs' : 'iterRange'}(r); ${a} = ${this.expr(p.init)}; for (let i = 0; i < l.length; i++) { ${bind} if (${this.expr(p.cond)} === false) break; ${a} = ${this.expr(p.step)}; ${this.limitCheck} } const res = ${this.expr(p.result)}; ${this.flush}return res`
        })
      }
      default:
        return this.raw(p)
    }
  }
}
