import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compile, DynType } from '../../src/cel/index.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// Calls that build a value from an input size are refused before they allocate (src/cel/cost/budget.ts).
// Expected texts: cel-go v0.29.0 ext/lists.go genRange (`lists.range: size must be non-negative, got
// %d`, `lists.range: size %d exceeds maximum allowed (%d)`, defaultMaxRangeSize 1,000,000) and
// interpreter/runtimecost.go's EvalCancelledError (`operation cancelled: actual cost limit exceeded`).
// The hard maximum without a limit is kelp's own (MAX_UNLIMITED_SIZE, 10,000,000).

const COST_LIMIT = 'operation cancelled: actual cost limit exceeded'
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')

const backends = ['closures', 'js'] as const

/** The error evaluating `expr` raises (or 'ok'), in the Kubernetes environment with PerCallLimit. */
function kubeError(expr: string, backend: (typeof backends)[number], costLimit = PerCallLimit): string {
  const p = compile(expr, { env: kubeEnv({ variables: { s: DynType } }), costLimit, backend })
  try {
    p.evaluate({ s: 'ab'.repeat(2000) })
    return 'ok'
  } catch (e) {
    return (e as Error).message
  }
}

function celError(expr: string, costLimit?: number): string {
  const p = compile(expr, costLimit === undefined ? {} : { costLimit })
  try {
    p.evaluate()
    return 'ok'
  } catch (e) {
    return (e as Error).message
  }
}

/** `[seed].all(a0, [a0 + a0].all(a1, ...))`: each level doubles the list with one `+` (cel-go charges 1). */
function doubling(seed: string, levels: number): string {
  let body = `size(a${levels}) > 0`
  for (let i = levels; i >= 1; i--) body = `[a${i - 1} + a${i - 1}].all(a${i}, ${body})`
  return `[${seed}].all(a0, ${body})`
}

describe('lists.range (cel-go v0.29 genRange)', () => {
  it('refuses negative sizes and sizes over 1,000,000 before allocating, with or without a limit', () => {
    expect(celError('lists.range(-1)')).toBe('lists.range: size must be non-negative, got -1')
    expect(celError('lists.range(5000000000)')).toBe('lists.range: size 5000000000 exceeds maximum allowed (1000000)')
    for (const b of backends) {
      expect(kubeError('lists.range(-1).size() == 0', b)).toBe('lists.range: size must be non-negative, got -1')
    }
  })
  it('refuses a size the remaining budget cannot cover exactly where the post-call charge would', () => {
    // ext/lists.go trackListOutputSize: 1 (call) + 10 (list) + n; the constant argument costs nothing
    for (const b of backends) {
      expect(kubeError('lists.range(1000).size() > 0', b, 1011 + 1 + 1)).toBe('ok')
      expect(kubeError('lists.range(1000).size() > 0', b, 1010)).toBe(COST_LIMIT)
      expect(kubeError('lists.range(1000000).size() > 0', b)).toBe(COST_LIMIT)
    }
  })
})

describe('amplifying calls end with the cost-limit error instead of allocating', () => {
  it('list concatenation doubling in nested comprehensions', () => {
    // 1,000 × 2^11 elements; cel-go concatenates lazily at cost 1, kelp copies and counts the copy
    for (const b of backends) expect(kubeError(doubling('lists.range(1000)', 11), b)).toBe(COST_LIMIT)
    expect(kubeError(doubling('lists.range(10)', 5), 'closures')).toBe('ok')
  })
  it('flatten of one sublist repeated (cel-go charges the input size times the depth)', () => {
    const expr = '[lists.range(2000)].all(x, lists.range(1000).map(i, x).flatten().size() > 0)'
    for (const b of backends) expect(kubeError(expr, b)).toBe(COST_LIMIT)
  })
  it('replace that grows the string (cost.go charges a traversal of the receiver)', () => {
    // 4,000 characters with '' replaced by the whole string: 16 million characters
    for (const b of backends) expect(kubeError("s.replace('', s).size() > 0", b)).toBe(COST_LIMIT)
    expect(kubeError("s.replace('b', 'cc').size() == 6000", 'closures')).toBe('ok')
  })
  it('join of one string repeated (no join cost in the plain cel-go environment)', () => {
    const big = `'${'x'.repeat(1000)}'`
    expect(celError(`lists.range(2000).map(i, ${big}).join().size() > 0`, 100_000)).toBe(COST_LIMIT)
    expect(celError(`lists.range(20).map(i, ${big}).join().size() > 0`, 100_000)).toBe('ok')
  })
  it('string.format: a list holding one large string many times, and a %e precision (its width)', () => {
    for (const b of backends) {
      expect(kubeError("'%s'.format([lists.range(5000).map(i, s)]).size() > 0", b)).toBe(COST_LIMIT)
      expect(kubeError("'%.20000000e'.format([1.0]).size() > 0", b)).toBe(COST_LIMIT)
    }
    expect(celError("'%.20000000e'.format([1.0]).size() > 0")).toBe(
      'format: result size exceeds maximum allowed (10000000)',
    )
  })
  it('without a cost limit, a result over the hard maximum is a CEL error', () => {
    expect(celError('[lists.range(5000)].all(x, lists.range(5000).map(i, x).flatten().size() > 0)')).toBe(
      'flatten: result size exceeds maximum allowed (10000000)',
    )
    // an absorbable CEL error, as cel-go's genRange error is
    expect(celError('lists.range(-1).size() == 0 || true')).toBe('ok')
  })
})

describe('in a process with a small heap', () => {
  it('hostile sizes end quickly with errors instead of exhausting memory', () => {
    const cases = [
      { expr: 'lists.range(x).all(i, i >= 0)', kube: true, limit: true },
      { expr: 'lists.range(3037000500).size() > 0', kube: false, limit: false },
      {
        expr: '[lists.range(100000)].all(x, lists.range(100000).map(i, x).flatten().size() > 0)',
        kube: true,
        limit: true,
      },
      {
        expr: '[lists.range(4000)].all(x, lists.range(4000).map(i, x).flatten().size() > 0)',
        kube: false,
        limit: false,
      },
      { expr: doubling('[1]', 40), kube: true, limit: true },
      { expr: doubling('[1]', 40), kube: false, limit: false },
      {
        expr: "[lists.range(3000).map(i, 'ab').join()].all(s, s.replace('', s).replace('', s).size() > 0)",
        kube: true,
        limit: true,
      },
      { expr: "lists.range(100000).map(i, '" + 'y'.repeat(2000) + "').join().size() > 0", kube: false, limit: false },
      { expr: "'%.200000000e'.format([1.0]).size() > 0", kube: true, limit: true },
    ]
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=192', 'test/e2e/run-ts.js', 'test/cel/fixtures/hostile-eval.ts', JSON.stringify(cases)],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
    )
    expect(r.stderr).not.toMatch(/heap|FATAL/)
    expect(r.status).toBe(0)
    const results = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { error?: string; ms: number })
    expect(results.map((x) => x.error)).toEqual([
      'lists.range: size 3037000500 exceeds maximum allowed (1000000)',
      'lists.range: size 3037000500 exceeds maximum allowed (1000000)',
      COST_LIMIT,
      'flatten: result size exceeds maximum allowed (10000000)',
      COST_LIMIT,
      '_+_: result size exceeds maximum allowed (10000000)',
      COST_LIMIT,
      'join: result size exceeds maximum allowed (10000000)',
      COST_LIMIT,
    ])
    for (const x of results) expect(x.ms).toBeLessThan(1000)
  })
})

describe('transformMap builds its map in linear time (cel-go ext/comprehensions.go: a mutable map accumulator)', () => {
  // found by the CEL differential: a copy of the accumulator per insert made lists.range(10000).transformMap run
  // past 20 s at a cost of 60,013, far under the per-call limit (a denial of service within the budget)
  for (const backend of backends)
    it(`${backend}: 100,000 entries well within a few seconds, every entry kept; the first map is not changed`, () => {
      const env = kubeEnv({ variables: { s: DynType } })
      const t0 = Date.now()
      const p = compile('lists.range(100000).transformMap(i, v, v * 2)', { env, costLimit: PerCallLimit, backend })
      const m = p.evaluate({}) as Record<string, unknown> | { size: number }
      expect(Date.now() - t0).toBeLessThan(5000)
      const size = m instanceof Map || 'entries' in (m as object) ? (m as { size: number }).size : Object.keys(m).length
      expect(size).toBe(100000)
      // a literal map given as the accumulator's start is never written (the first insert copies)
      const q = compile("{'a': 1}.transformMapEntry(k, v, {k + 'x': v}) == {'ax': 1}", { env, backend })
      expect(q.evaluate({})).toBe(true)
      expect(q.evaluate({})).toBe(true)
    })
})
