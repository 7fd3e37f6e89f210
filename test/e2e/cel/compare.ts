// Comparing the two sides' outcomes of one expression, aspect by aspect, and the signature of a difference.
import { doubleText, type Evaluation, type Outcome } from './kelp-side.js'

/** What is compared: compile verdict, value (or that both failed), error text, run-time cost, estimate. */
export type Aspect = 'compile' | 'value' | 'error' | 'cost' | 'estimate' | 'crash'
export const ASPECTS: readonly Aspect[] = ['compile', 'value', 'error', 'cost', 'estimate']

/** One aspect on which the sides differ, with a short stable detail (which side, which direction). */
export interface AspectDifference {
  readonly aspect: Aspect
  readonly detail: string
}

/** A tagged value with Go's doubles re-written as JavaScript writes them and map entries sorted. */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical)
  if (v === null || typeof v !== 'object') return v
  const o = v as Record<string, unknown>
  if (typeof o.double === 'string') {
    const s = o.double
    return { double: s === 'NaN' || s === 'Infinity' || s === '-Infinity' || s === '-0' ? s : doubleText(Number(s)) }
  }
  if (Array.isArray(o.map)) {
    const pairs = (o.map as [unknown, unknown][]).map(([k, x]) => [canonical(k), canonical(x)] as const)
    return { map: pairs.sort((a, b) => cmp(JSON.stringify(a[0]), JSON.stringify(b[0]))) }
  }
  return Object.fromEntries(Object.keys(o).map((k) => [k, canonical(o[k])]))
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Which of the aspects a case was compared on (the denominators of the agreement figures). */
export interface Compared {
  readonly aspects: Set<Aspect>
  readonly differences: AspectDifference[]
}

const sameResult = (a: Evaluation, b: Evaluation) =>
  a.error === b.error && JSON.stringify(canonical(a.value)) === JSON.stringify(canonical(b.value))

/**
 * Go's outcome as it is compared with kelp's: among the evaluations the oracle made of one program (Go
 * ranges over maps in random order, so the entry a comprehension fails on or stops at, and the order of
 * the list it builds, change from run to run), the one kelp's outcome is, else one with kelp's value or
 * error (another cost), else the first. Agreement means kelp answers what cel-go can answer.
 */
export function goOutcome(kelp: Outcome, go: Outcome): Outcome {
  const alternatives = go.alternatives
  if (!alternatives || alternatives.length === 0 || kelp.compile !== '' || go.compile !== '') return go
  const all: Evaluation[] = [go, ...alternatives]
  const chosen =
    all.find((e) => sameResult(kelp, e) && kelp.cost === e.cost) ?? all.find((e) => sameResult(kelp, e)) ?? go
  if (chosen === go) return go
  const { value: _v, error: _e, cost: _c, ...rest } = go
  return { ...rest, ...chosen }
}

/** Compares kelp's outcome with Go's (the evaluation of Go's that is kelp's, when the oracle made several). */
export function compare(kelp: Outcome, oracle: Outcome): Compared {
  const go = goOutcome(kelp, oracle)
  const aspects = new Set<Aspect>(['compile'])
  const differences: AspectDifference[] = []
  const diff = (aspect: Aspect, detail: string) => differences.push({ aspect, detail })
  if (kelp.panic !== undefined || go.panic !== undefined) {
    diff('crash', kelp.panic !== undefined ? `kelp ${kelp.panic.replace(/:.*/s, '')}` : 'go panic')
    return { aspects, differences }
  }
  const kelpRefuses = kelp.compile !== ''
  const goRefuses = go.compile !== ''
  if (kelpRefuses !== goRefuses) {
    diff('compile', kelpRefuses ? 'kelp refuses' : 'go refuses')
    return { aspects, differences }
  }
  if (kelpRefuses) return { aspects, differences }
  aspects.add('estimate')
  if (kelp.estimate?.[0] !== go.estimate?.[0] || kelp.estimate?.[1] !== go.estimate?.[1]) {
    const side = (k?: string, g?: string) => (k === g ? '=' : BigInt(k ?? -1) < BigInt(g ?? -1) ? '<' : '>')
    diff(
      'estimate',
      `min ${side(kelp.estimate?.[0], go.estimate?.[0])} max ${side(kelp.estimate?.[1], go.estimate?.[1])}`,
    )
  }
  aspects.add('value')
  aspects.add('cost')
  const kelpFails = kelp.error !== undefined
  const goFails = go.error !== undefined
  if (kelpFails !== goFails) diff('value', kelpFails ? 'kelp error, go value' : 'kelp value, go error')
  else if (kelpFails) {
    aspects.add('error')
    if (kelp.error !== go.error) diff('error', 'text')
  } else if (JSON.stringify(canonical(kelp.value)) !== JSON.stringify(canonical(go.value))) diff('value', 'differs')
  // the cost of a failed evaluation (what the apiserver charges for a failed rule) is a class of its own
  const failed = kelpFails || goFails ? ', failed evaluation' : ''
  if (kelp.cost !== go.cost) diff('cost', `${Number(kelp.cost) < Number(go.cost) ? 'kelp < go' : 'kelp > go'}${failed}`)
  return { aspects, differences }
}

/** A difference found, with its root: the smallest subexpression differing on the same aspect (value and error as one). */
export interface Found {
  readonly caseId: number
  readonly aspect: Aspect
  readonly detail: string
  /** The production at the root of the smallest differing subexpression, and that subexpression. */
  readonly fn: string
  readonly text: string
  readonly kelp: Outcome
  readonly go: Outcome
}
