import type { CelValue } from '../values/values.js'
import type { Plan } from './plan.js'
import type { Ops } from './runtime.js'
import * as rt from './runtime.js'

// Back end 1: the plan as JavaScript source, turned into a function with `new Function`.
// Injection safety: the source is built only from the plan; every string that came from the
// expression (field names, variable names, string literals) is emitted through JSON.stringify,
// and all other values (lists, maps, bytes, implementations) are passed by reference in `k`.
// Property reads are own-property reads (`Object.hasOwn`), so `__proto__` or `constructor` in
// an object are fields like any other.

export type Evaluator = (act: Readonly<Record<string, CelValue>>) => CelValue

export function generate(plan: Plan, slots: number, ops: Ops): { source: string; fn: Evaluator } {
  const g = new Gen()
  const body = g.expr(plan)
  const decls = [...g.temps, ...Array.from({ length: slots }, (_, i) => `s${i}`)]
  const source = `"use strict";\nreturn function celProgram(act) {\n${decls.length ? `let ${decls.join(', ')};\n` : ''}return ${body};\n};`
  const factory = new Function('rt', 'ops', 'k', source) as (r: typeof rt, o: Ops, k: unknown[]) => Evaluator
  return { source, fn: factory(rt, ops, g.consts) }
}

const q = (s: string) => JSON.stringify(s)

class Gen {
  readonly temps: string[] = []
  readonly consts: unknown[] = []

  private temp(): string {
    const t = `t${this.temps.length}`
    this.temps.push(t)
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

  expr(p: Plan): string {
    switch (p.op) {
      case 'const':
        return this.constant(p.value)
      case 'fresh':
        return p.kind === 'list' ? '[]' : 'Object.create(null)'
      case 'var':
        return `(Object.hasOwn(act, ${q(p.name)}) ? act[${q(p.name)}] : rt.missingVar(${q(p.name)}))`
      case 'attr':
        return `rt.resolveAttr(act, ${this.k(p.candidates)})`
      case 'local':
        return `s${p.slot}`
      case 'accu':
        return `rt.accu(s${p.slot})`
      case 'select': {
        const t = this.temp()
        const f = q(p.field)
        return `((${t} = ${this.expr(p.operand)}) !== null && typeof ${t} === 'object' && ${t}.constructor === Object && Object.hasOwn(${t}, ${f}) ? ${t}[${f}] : rt.select(${t}, ${f}))`
      }
      case 'optSelect':
        return `rt.optionalSelect(${this.expr(p.operand)}, ${q(p.field)})`
      case 'has':
        return `rt.has(${this.expr(p.operand)}, ${q(p.field)})`
      case 'opt':
        return `ops.${p.name}(${p.args.map((a) => this.expr(a)).join(', ')})`
      case 'call':
        return `${this.k(p.impl)}(${p.args.map((a) => this.expr(a)).join(', ')})`
      case 'optIndex':
        return `rt.optionalIndex(${this.expr(p.operand)}, ${this.expr(p.key)})`
      case 'and':
      case 'or': {
        const stop = p.op === 'and' ? 'false' : 'true'
        return `(() => { let l, r; try { l = ${this.expr(p.left)} } catch (e) { l = rt.caught(e) } if (l === ${stop}) return ${stop}; try { r = ${this.expr(p.right)} } catch (e) { r = rt.caught(e) } if (r === ${stop}) return ${stop}; return rt.${p.op}Fail(l, r) })()`
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
        return `(() => { try { return ${this.expr(p.arg)} !== false } catch (e) { rt.caught(e); return true } })()`
      case 'list':
        if (!p.optional.includes(true)) return `[${p.elems.map((e) => this.expr(e)).join(', ')}]`
        return `rt.optionalList([${p.elems.map((e) => this.expr(e)).join(', ')}], ${this.k(p.optional)})`
      case 'map':
        return `rt.mapLiteral([${p.keys.map((e) => this.expr(e)).join(', ')}], [${p.values.map((e) => this.expr(e)).join(', ')}], ${p.optional.includes(true) ? this.k(p.optional) : 'null'})`
      case 'fail':
        return `rt.fail(${q(p.message)})`
      case 'accuAppend':
        return `(rt.isError(s${p.accu}) ? rt.raise(s${p.accu}) : (s${p.accu}.push(${p.elems.map((e) => this.expr(e)).join(', ')}), s${p.accu}))`
      case 'all':
      case 'exists': {
        const stop = p.op === 'all' ? 'false' : 'true'
        const s = `s${p.iter}`
        return `(() => { const r = rt.iterRange(${this.expr(p.range)}); let err; for (let i = 0; i < r.length; i++) { ${s} = r[i]; let v; try { v = ${this.expr(p.pred!)} } catch (e) { err ??= rt.caught(e); continue } if (v === ${stop}) return ${stop}; if (v !== ${p.op === 'all' ? 'true' : 'false'}) err ??= rt.noSuchOverload() } if (err) throw err; return ${p.op === 'all' ? 'true' : 'false'} })()`
      }
      case 'existsOne': {
        const s = `s${p.iter}`
        return `(() => { const r = rt.iterRange(${this.expr(p.range)}); let n = 0, err; for (let i = 0; i < r.length; i++) { ${s} = r[i]; let v; try { v = ${this.expr(p.pred!)} } catch (e) { err = rt.caught(e); continue } if (v === true) n++; else if (v !== false) err = rt.noSuchOverload() } if (err) throw err; return n === 1 })()`
      }
      case 'filter': {
        const s = `s${p.iter}`
        return `(() => { const r = rt.iterRange(${this.expr(p.range)}); const out = []; let err; for (let i = 0; i < r.length; i++) { ${s} = r[i]; let v; try { v = ${this.expr(p.pred!)} } catch (e) { err = rt.caught(e); continue } if (v === true) { if (!err) out.push(${s}) } else if (v !== false) err = rt.noSuchOverload() } if (err) throw err; return out })()`
      }
      case 'mapList': {
        const s = `s${p.iter}`
        const t = this.expr(p.transform!)
        if (!p.pred)
          return `(() => { const r = rt.iterRange(${this.expr(p.range)}); const out = new Array(r.length); for (let i = 0; i < r.length; i++) { ${s} = r[i]; out[i] = ${t} } return out })()`
        return `(() => { const r = rt.iterRange(${this.expr(p.range)}); const out = []; let err; for (let i = 0; i < r.length; i++) { ${s} = r[i]; let v; try { v = ${this.expr(p.pred)} } catch (e) { err = rt.caught(e); continue } if (v === true) { if (!err) { try { out.push(${t}) } catch (e) { err = rt.caught(e) } } } else if (v !== false) err = rt.noSuchOverload() } if (err) throw err; return out })()`
      }
      case 'fold': {
        const it = `s${p.iter}`
        const a = `s${p.accu}`
        const two = p.iter2 !== undefined
        const range = `const r = rt.${two ? 'iterPairs' : 'iterRange'}(${this.expr(p.range)});`
        const bind = two ? `${it} = r[i][0]; s${p.iter2} = r[i][1];` : `${it} = r[i];`
        return `(() => { ${range} ${a} = ${this.expr(p.init)}; for (let i = 0; i < r.length; i++) { ${bind} if (${this.expr(p.cond)} === false) break; try { ${a} = ${this.expr(p.step)} } catch (e) { ${a} = rt.caught(e) } } return ${this.expr(p.result)} })()`
      }
    }
  }
}
