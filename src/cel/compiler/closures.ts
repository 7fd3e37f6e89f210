import { ErrorValue } from '../common/errors.js'
import type { Impl } from '../functions.js'
import type { CelValue } from '../values/values.js'
import type { Evaluator } from './codegen.js'
import type { Plan } from './plan.js'
import type { Ops } from './runtime.js'
import * as rt from './runtime.js'

// Back end 2: the plan as a tree of closures, for hosts that forbid `new Function` (a strict
// CSP) and for the first evaluations of a program before it is worth generating code. Every node
// mirrors the generated code in codegen.ts; the differential tests keep the two in step.

interface Frame {
  readonly act: Readonly<Record<string, CelValue>>
  readonly s: (CelValue | ErrorValue)[]
}
type Node = (f: Frame) => CelValue

export function closures(plan: Plan, slots: number, ops: Ops): Evaluator {
  const root = build(plan, ops)
  return (act) => root({ act, s: new Array(slots) })
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
 * public error can say where it happened. The closures are the exact evaluator every error goes
 * through (the generated code bails to them), so locating errors here costs the fast path nothing.
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

function build(p: Plan, ops: Ops): Node {
  const n = buildNode(p, ops)
  return 'id' in p &&
    (p.op === 'call' ||
      p.op === 'opt' ||
      p.op === 'select' ||
      p.op === 'fail' ||
      p.op === 'has' ||
      p.op === 'optSelect' ||
      p.op === 'optIndex' ||
      p.op === 'cond')
    ? located(n, p.id)
    : n
}

function buildNode(p: Plan, ops: Ops): Node {
  const b = (x: Plan) => build(x, ops)
  switch (p.op) {
    case 'const': {
      const v = p.value
      return () => v
    }
    case 'fresh':
      return p.kind === 'list' ? () => [] : () => Object.create(null)
    case 'var': {
      const name = p.name
      return (f) => (Object.hasOwn(f.act, name) ? (f.act[name] as CelValue) : rt.missingVar(name))
    }
    case 'attr': {
      const c = p.candidates
      return (f) => rt.resolveAttr(f.act, c)
    }
    case 'local': {
      const i = p.slot
      return (f) => f.s[i] as CelValue
    }
    case 'accu': {
      const i = p.slot
      return (f) => rt.accu(f.s[i] as CelValue | ErrorValue)
    }
    case 'select': {
      const o = b(p.operand)
      const field = p.field
      return (f) => rt.select(o(f), field)
    }
    case 'optSelect': {
      const o = b(p.operand)
      const field = p.field
      return (f) => rt.optionalSelect(o(f), field)
    }
    case 'has': {
      const o = b(p.operand)
      const field = p.field
      return (f) => rt.has(o(f), field)
    }
    case 'opt': {
      const fn = ops[p.name] as Impl
      const args = p.args.map(b)
      return callNode(fn, args)
    }
    case 'call':
      return callNode(p.impl, p.args.map(b))
    case 'optIndex': {
      const o = b(p.operand)
      const k = b(p.key)
      return (f) => rt.optionalIndex(o(f), k(f))
    }
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
      const sc = p.kind === 'or' ? rt.orShortCircuit : rt.orValueShortCircuit
      return (f) => {
        const v = sc(l(f))
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
      return (f) => tryEval(a, f) !== false
    }
    case 'list': {
      const elems = p.elems.map(b)
      if (!p.optional.includes(true)) return (f) => elems.map((e) => e(f))
      const opt = p.optional
      return (f) =>
        rt.optionalList(
          elems.map((e) => e(f)),
          opt,
        )
    }
    case 'map': {
      const ks = p.keys.map(b)
      const vs = p.values.map(b)
      const opt = p.optional.includes(true) ? p.optional : null
      return (f) =>
        rt.mapLiteral(
          ks.map((k) => k(f)),
          vs.map((v) => v(f)),
          opt,
        )
    }
    case 'fail': {
      const m = p.message
      return () => rt.fail(m)
    }
    case 'accuAppend': {
      const i = p.accu
      const elems = p.elems.map(b)
      return (f) => {
        const a = f.s[i]
        if (rt.isError(a)) throw a
        const list = a as CelValue[]
        for (const e of elems) list.push(e(f))
        return list
      }
    }
    case 'all':
    case 'exists': {
      const range = b(p.range)
      const pred = b(p.pred!)
      const slot = p.iter
      const stop = p.op === 'exists'
      return (f) => {
        const r = rt.iterRange(range(f))
        let err: ErrorValue | undefined
        for (let i = 0; i < r.length; i++) {
          f.s[slot] = r[i] as CelValue
          const v = tryEval(pred, f)
          if (v === stop) return stop
          if (rt.isError(v)) err ??= v
          else if (v !== !stop) err ??= rt.noSuchOverload()
        }
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
          if (v === true) n++
          else if (rt.isError(v)) err = v
          else if (v !== false) err = rt.noSuchOverload()
        }
        if (err) throw err
        return n === 1
      }
    }
    case 'filter':
    case 'mapList': {
      const range = b(p.range)
      const pred = p.pred ? b(p.pred) : undefined
      const tr = p.transform ? b(p.transform) : undefined
      const slot = p.iter
      return (f) => {
        const r = rt.iterRange(range(f))
        const out: CelValue[] = []
        let err: ErrorValue | undefined
        for (let i = 0; i < r.length; i++) {
          const x = r[i] as CelValue
          f.s[slot] = x
          if (!pred) {
            out.push(tr!(f))
            continue
          }
          const v = tryEval(pred, f)
          if (v === true) {
            if (!err) {
              if (!tr) out.push(x)
              else {
                const t = tryEval(tr, f)
                if (rt.isError(t)) err = t
                else out.push(t)
              }
            }
          } else if (rt.isError(v)) err = v
          else if (v !== false) err = rt.noSuchOverload()
        }
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
        if (iter2 === undefined) {
          const r = rt.iterRange(rv)
          f.s[accu] = init(f)
          for (let i = 0; i < r.length; i++) {
            f.s[iter] = r[i] as CelValue
            if (cond(f) === false) break
            f.s[accu] = tryEval(step, f)
          }
        } else {
          const r = rt.iterPairs(rv)
          f.s[accu] = init(f)
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

function callNode(fn: Impl, args: Node[]): Node {
  switch (args.length) {
    case 0:
      return () => fn()
    case 1: {
      const [a] = args as [Node]
      return (f) => fn(a(f))
    }
    case 2: {
      const [a, c] = args as [Node, Node]
      return (f) => fn(a(f), c(f))
    }
    case 3: {
      const [a, c, d] = args as [Node, Node, Node]
      return (f) => fn(a(f), c(f), d(f))
    }
    default:
      return (f) => fn(...args.map((x) => x(f)))
  }
}
