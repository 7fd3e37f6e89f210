// kelp's side of the CEL differential: an expression compiled and run as the admission CEL compiler does it
// (src/policy/cel/compile.ts: kubeEnv of 1.37 with `object`, `oldObject`, `params` declared dyn, the per-call cost
// limit), the estimate as Kubernetes makes it (estimateKubeCost, no size estimator: dyn is unbounded), and the value
// in the tagged form oracle/main.go writes. Each expression also runs on the generated-JavaScript tier (what a program
// evaluated often runs), which must answer as the closures do.
import { CelCompileError, CelError } from '../../../src/cel/common/errors.js'
import { compile, type Program } from '../../../src/cel/program.js'
import { DynType, Type } from '../../../src/cel/types/types.js'
import { Duration, Timestamp } from '../../../src/cel/values/time.js'
import { CelMap, type CelValue, Double, MapValue, OpaqueValue, Optional, Uint } from '../../../src/cel/values/values.js'
import { estimateKubeCost } from '../../../src/kube/cost.js'
import { kubeEnv, PerCallLimit } from '../../../src/kube/environment.js'
import type { Json } from './generate.js'

/** One side's answer for one expression (oracle/main.go writes the same fields). */
export interface Outcome {
  /** The compile (or program creation) error's text; '' when it compiled. */
  readonly compile: string
  readonly estimate?: readonly [string, string]
  readonly value?: unknown
  readonly error?: string
  readonly cost?: string
  /** A crash of the side (a Go panic; a JavaScript exception, an out-of-memory or a hang of kelp). */
  readonly panic?: string
  /** The oracle's evaluations of a program with a comprehension (Go's random map order), when more than one. */
  readonly runs?: number
  /** The outcomes other than this one that those evaluations gave. */
  readonly alternatives?: readonly Evaluation[]
}

/** One evaluation's outcome. */
export type Evaluation = Pick<Outcome, 'value' | 'error' | 'cost'>

const VARIABLES = { object: DynType, oldObject: DynType, params: DynType }

/** A double as main.go's `double` writes it. */
export function doubleText(n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  if (n === Number.POSITIVE_INFINITY) return 'Infinity'
  if (n === Number.NEGATIVE_INFINITY) return '-Infinity'
  if (Object.is(n, -0)) return '-0'
  return String(n)
}

/** A kelp value in main.go's tagged form. */
export function tag(v: CelValue): unknown {
  switch (typeof v) {
    case 'number':
      return Number.isSafeInteger(v) ? { int: String(v) } : { double: doubleText(v) }
    case 'bigint':
      return { int: v.toString() }
    case 'string':
      return { string: v }
    case 'boolean':
      return { bool: v }
  }
  if (v === null) return { null: null }
  if (Array.isArray(v)) return { list: v.map(tag) }
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString('base64') }
  if (v instanceof Double) return { double: doubleText(v.value) }
  if (v instanceof Uint) return { uint: v.value.toString() }
  if (v instanceof Duration) return { duration: v.nanos.toString() }
  if (v instanceof Timestamp) return { timestamp: `${v.seconds}.${String(v.nanos).padStart(9, '0')}` }
  if (v instanceof Type) return { type: v.name }
  if (v instanceof Optional) return { optional: v.value === undefined ? null : tag(v.value) }
  if (v instanceof OpaqueValue) return { opaque: v.typeName }
  if (v instanceof CelMap) return { map: [...v.entries.values()].map(([k, x]) => [tag(k), tag(x)]) }
  if (v instanceof MapValue) return { map: v.keys().map((k) => [tag(k), tag(v.find(k) as CelValue)]) }
  const o = v as Record<string, CelValue>
  return { map: Object.keys(o).map((k) => [{ string: k }, tag(o[k] as CelValue)]) }
}

/** Compiles, estimates and runs `expr` with the bindings; never throws. */
export function runKelp(expr: string, env: 'new' | 'stored', vars: Readonly<Record<string, Json>>): Outcome {
  const e = kubeEnv({ version: '1.37', expressions: env, variables: VARIABLES })
  let program: Program
  try {
    program = compile(expr, { env: e, costLimit: PerCallLimit })
  } catch (err) {
    if (err instanceof CelCompileError || err instanceof CelError) return { compile: err.message }
    return { compile: '', panic: `compile: ${String(err)}` }
  }
  let estimate: readonly [string, string] | undefined
  try {
    const est = estimateKubeCost(program, e)
    estimate = [est.min.toString(), est.max.toString()]
  } catch (err) {
    return { compile: '', panic: `estimate: ${String(err)}` }
  }
  const activation = { object: null, oldObject: null, params: null, ...vars } as Record<string, CelValue>
  let outcome: Outcome
  try {
    outcome = { compile: '', ...(estimate ? { estimate } : {}), ...evaluation(program, activation) }
  } catch (err) {
    return { compile: '', ...(estimate ? { estimate } : {}), panic: `run: ${String(err)}` }
  }
  // The run above is a first one: the exact evaluator (closures). A program run often (every admission
  // request) runs generated JavaScript, which must give the same value, error and cost: any other answer
  // is a crash of kelp's side, compared with the oracle as such.
  try {
    const generated = evaluation(compile(expr, { env: e, costLimit: PerCallLimit, backend: 'js' }), activation)
    const exact = JSON.stringify({ value: outcome.value, error: outcome.error, cost: outcome.cost })
    const js = JSON.stringify({ value: generated.value, error: generated.error, cost: generated.cost })
    if (js !== exact) return { ...outcome, panic: `generated code: ${js} where the closures gave ${exact}` }
  } catch (err) {
    return { ...outcome, panic: `generated code: ${String(err)}` }
  }
  return outcome
}

/** One run's value (tagged) or error, and its cost. */
function evaluation(program: Program, activation: Record<string, CelValue>): Pick<Outcome, 'value' | 'error' | 'cost'> {
  const r = program.tryRun(activation)
  const cost = String(r.cost)
  return 'error' in r ? { error: r.error.message, cost } : { value: tag(r.value), cost }
}
