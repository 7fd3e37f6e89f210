import type { CelValue } from '../values/values.js'
import type { Plan } from './plan.js'
import type { Ops } from './runtime.js'
import * as rt from './runtime.js'

// Back end 1: the plan as JavaScript source, turned into a function with `new Function`.
// The generated code is the optimistic path: it decides every case where all values are of the
// expected kinds and no error occurs, which is what rules do nearly always. Anything else (an
// error to absorb in `&&` / `||` / a macro, a non-bool operand, any thrown error) leaves it, and the
// program re-evaluates with the closure back end, which implements every rule of cel-go's error
// semantics. CEL is deterministic and side-effect free, so re-evaluation gives the exact result.
// Injection safety: the source is built only from the plan; every string that came from the
// expression (field names, variable names, string literals) is emitted through JSON.stringify,
// and all other values (lists, maps, bytes, implementations) are passed by reference in `k`.
// Property reads are own-property reads, so `__proto__` or `constructor` in an object are
// fields like any other. Each comprehension is its own hoisted function that receives the
// variables in scope as parameters: no closure captures the evaluation's locals (which would
// move them into a heap context and slow every read).

export type Evaluator = (act: Readonly<Record<string, CelValue>>) => CelValue

export function generate(plan: Plan, _slots: number, ops: Ops): { source: string; fn: Evaluator } {
  const g = new Gen()
  const body = g.expr(plan)
  const decls = g.scope.temps
  const source = `"use strict";\n${g.fns.join('\n')}\nreturn function celProgram(act) {\n${decls.length ? `let ${decls.join(', ')};\n` : ''}return ${body};\n};`
  const factory = new Function('rt', 'ops', 'k', 'OP', source) as (
    r: typeof rt,
    o: Ops,
    k: unknown[],
    op: object,
  ) => Evaluator
  return { source, fn: factory(rt, ops, g.consts, Object.prototype) }
}

const q = (s: string) => JSON.stringify(s)

class Gen {
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

  /** Hoists a comprehension into `function cN(act, <visible slots>)`; `body` gets the range expression. */
  private hoist(own: number[], range: Plan, body: (range: string) => string): string {
    const params = ['act', ...this.visible]
    const rangeCode = this.expr(range)
    const idx = this.fns.push('') - 1
    const saved = this.scope
    const savedVisible = this.visible
    this.scope = { temps: [] }
    const ownNames = own.map((i) => `s${i}`)
    this.visible = [...this.visible, ...ownNames]
    const code = body('r')
    const locals = [...ownNames, ...this.scope.temps]
    this.fns[idx] = `function c${idx}(${params.join(', ')}, r) { let ${locals.join(', ')}; ${code} }`
    this.scope = saved
    this.visible = savedVisible
    return `c${idx}(${params.join(', ')}, ${rangeCode})`
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

  expr(p: Plan): string {
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
      case 'attr':
        return `rt.resolveAttr(act, ${this.k(p.candidates)})`
      case 'local':
        return `s${p.slot}`
      case 'accu':
        // In generated code an accumulator never holds an error: any error bails to the closures.
        return `s${p.slot}`
      case 'select': {
        const f = q(p.field)
        if (p.field in Object.prototype) return `rt.select(${this.expr(p.operand)}, ${f})`
        const t = this.temp()
        const v = this.temp()
        // A plain JSON object whose read found a value that is not Object.prototype's: an own field.
        // (Comparing with OP keeps a polluted Object.prototype from leaking into CEL; V8 folds it.)
        return `((${t} = ${this.expr(p.operand)}) !== null && typeof ${t} === 'object' && ${t}.constructor === Object && (${v} = ${t}[${f}]) !== undefined && ${v} !== OP[${f}] ? ${v} : rt.select(${t}, ${f}))`
      }
      case 'optSelect':
        return `rt.optionalSelect(${this.expr(p.operand)}, ${q(p.field)})`
      case 'has': {
        const f = q(p.field)
        if (p.field in Object.prototype) return `rt.has(${this.expr(p.operand)}, ${f})`
        const t = this.temp()
        const v = this.temp()
        return `((${t} = ${this.expr(p.operand)}) !== null && typeof ${t} === 'object' && ${t}.constructor === Object ? ((${v} = ${t}[${f}]) === undefined ? false : ${v} !== OP[${f}] ? true : rt.has(${t}, ${f})) : rt.has(${t}, ${f}))`
      }
      case 'opt':
        return `ops.${p.name}(${p.args.map((a) => this.expr(a)).join(', ')})`
      case 'call':
        return `${this.k(p.impl)}(${p.args.map((a) => this.expr(a)).join(', ')})`
      case 'optIndex':
        return `rt.optionalIndex(${this.expr(p.operand)}, ${this.expr(p.key)})`
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
        const sc = p.kind === 'or' ? 'orShortCircuit' : 'orValueShortCircuit'
        return `((${t} = rt.${sc}(${this.expr(p.left)})) !== undefined ? ${t} : ${this.expr(p.right)})`
      }
      case 'cond': {
        const t = this.temp()
        return `((${t} = ${this.expr(p.test)}) === true ? ${this.expr(p.ifTrue)} : ${t} === false ? ${this.expr(p.ifFalse)} : rt.condFail(${t}))`
      }
      case 'nsf':
        return `(${this.expr(p.arg)} !== false)`
      case 'list':
        if (!p.optional.includes(true)) return `[${p.elems.map((e) => this.expr(e)).join(', ')}]`
        return `rt.optionalList([${p.elems.map((e) => this.expr(e)).join(', ')}], ${this.k(p.optional)})`
      case 'map':
        return `rt.mapLiteral([${p.keys.map((e) => this.expr(e)).join(', ')}], [${p.values.map((e) => this.expr(e)).join(', ')}], ${p.optional.includes(true) ? this.k(p.optional) : 'null'})`
      case 'fail':
        return `rt.fail(${q(p.message)})`
      case 'accuAppend':
        return `(s${p.accu}.push(${p.elems.map((e) => this.expr(e)).join(', ')}), s${p.accu})`
      case 'all':
      case 'exists': {
        const stop = p.op === 'all' ? 'false' : 'true'
        const go = p.op === 'all' ? 'true' : 'false'
        const s = `s${p.iter}`
        return this.hoist(
          [p.iter],
          p.range,
          (r) =>
            `const l = rt.iterRange(${r}); for (let i = 0; i < l.length; i++) { ${s} = l[i]; const v = ${this.expr(p.pred!)}; if (v === ${stop}) return ${stop}; if (v !== ${go}) rt.bail() } return ${go}`,
        )
      }
      case 'existsOne': {
        const s = `s${p.iter}`
        return this.hoist(
          [p.iter],
          p.range,
          (r) =>
            `const l = rt.iterRange(${r}); let n = 0; for (let i = 0; i < l.length; i++) { ${s} = l[i]; const v = ${this.expr(p.pred!)}; if (v === true) n++; else if (v !== false) rt.bail() } return n === 1`,
        )
      }
      case 'filter': {
        const s = `s${p.iter}`
        return this.hoist(
          [p.iter],
          p.range,
          (r) =>
            `const l = rt.iterRange(${r}); const out = []; for (let i = 0; i < l.length; i++) { ${s} = l[i]; const v = ${this.expr(p.pred!)}; if (v === true) out.push(${s}); else if (v !== false) rt.bail() } return out`,
        )
      }
      case 'mapList': {
        const s = `s${p.iter}`
        const pred = p.pred
        return this.hoist([p.iter], p.range, (r) => {
          const t = this.expr(p.transform!)
          if (!pred)
            return `const l = rt.iterRange(${r}); const out = new Array(l.length); for (let i = 0; i < l.length; i++) { ${s} = l[i]; out[i] = ${t} } return out`
          return `const l = rt.iterRange(${r}); const out = []; for (let i = 0; i < l.length; i++) { ${s} = l[i]; const v = ${this.expr(pred)}; if (v === true) out.push(${t}); else if (v !== false) rt.bail() } return out`
        })
      }
      case 'fold': {
        const it = `s${p.iter}`
        const a = `s${p.accu}`
        const two = p.iter2 !== undefined
        const own = two ? [p.iter, p.iter2!, p.accu] : [p.iter, p.accu]
        return this.hoist(own, p.range, (r) => {
          const bind = two ? `${it} = l[i][0]; s${p.iter2} = l[i][1];` : `${it} = l[i];`
          return `const l = rt.${two ? 'iterPairs' : 'iterRange'}(${r}); ${a} = ${this.expr(p.init)}; for (let i = 0; i < l.length; i++) { ${bind} if (${this.expr(p.cond)} === false) break; ${a} = ${this.expr(p.step)} } return ${this.expr(p.result)}`
        })
      }
    }
  }
}
