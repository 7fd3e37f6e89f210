import { describe, expect, it } from 'vitest'
import { applySizeRefusal, jsonShorterThan, TOTAL_ANNOTATION_SIZE_LIMIT } from '../../src/engine/apply-sizes.js'

// The bound that spares most objects their JSON.stringify in applySizeRefusal (issue 29). What it must never do:
// answer "shorter" for a value whose JSON (JavaScript's JSON.stringify, the reference here) is not. The limits
// themselves are apimachinery pkg/api/validation/objectmeta.go TotalAnnotationSizeLimitB (256 KiB), as a real
// kube-apiserver v1.37.2 answered `kubectl apply --dry-run=server` of a ConfigMap holding 270,000 characters of
// data (`metadata.annotations: Too long: may not be more than 262144 bytes`: its last-applied copy) and created
// one holding 200,000.

const values: unknown[] = [
  null,
  true,
  0,
  -1.2345678901234567e-308,
  Number.MAX_VALUE,
  'plain',
  'quote " and backslash \\',
  '\u0000\u0001\u001f control characters',
  '\ud800 a lone surrogate',
  '<>&\u2028\u2029',
  [],
  [1, 'a', null, [2, [3]]],
  // biome-ignore lint/suspicious/noSparseArray: a hole is written as null
  [1, , 3],
  {},
  { a: 1, b: { c: [true, false], d: 'x'.repeat(100) } },
  JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}'),
  Object.assign(Object.create(null), { k: 'v' }),
  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } }, spec: {} },
]

describe('jsonShorterThan', () => {
  it('answers true only below the length JSON.stringify writes', () => {
    for (const v of values) {
      const n = JSON.stringify(v).length
      for (const limit of [0, 1, n - 1, n, n + 1, 6 * n + 64, 10 * n + 100]) {
        if (jsonShorterThan(v, limit)) expect(n, `${JSON.stringify(v)} under ${limit}`).toBeLessThan(limit)
      }
    }
  })

  it('answers true for an ordinary object well under the limit', () => {
    expect(jsonShorterThan(values.at(-1), 24 * 1024)).toBe(true)
  })

  it('answers false for what it cannot bound (a toJSON method)', () => {
    expect(jsonShorterThan({ toJSON: () => 'x'.repeat(100) }, 1000)).toBe(false)
    expect(jsonShorterThan(new Date(0), 1000)).toBe(false)
  })

  it('bounds a bigint as the number it is written as', () => {
    const v = { n: 12345678901234567890n }
    const n = JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)).length
    expect(jsonShorterThan(v, n)).toBe(false)
    expect(jsonShorterThan(v, 100)).toBe(true)
  })

  it('gives up on a huge array or object at once', () => {
    expect(jsonShorterThan(new Array(10_000_000).fill(0), 24 * 1024)).toBe(false)
    const wide: Record<string, number> = {}
    for (let i = 0; i < 100_000; i++) wide[`k${i}`] = i
    expect(jsonShorterThan(wide, 24 * 1024)).toBe(false)
  })

  it('walks deep nesting without recursion, giving up at the limit', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 200_000; i++) deep = [deep]
    expect(jsonShorterThan(deep, 24 * 1024)).toBe(false)
    expect(jsonShorterThan(deep, 10_000_000)).toBe(true)
  })
})

describe('applySizeRefusal around the bound', () => {
  const configMap = (data: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'big' },
    data: { data },
  })

  it('a small object meets no limit, nor one of 200,000 characters', () => {
    expect(applySizeRefusal(configMap('x'.repeat(1000)), undefined, 'default')).toBeUndefined()
    expect(applySizeRefusal(configMap('x'.repeat(200_000)), undefined, 'default')).toBeUndefined()
  })

  it('an object whose last-applied copy is over 256 KiB is refused (objectmeta.go)', () => {
    expect(applySizeRefusal(configMap('x'.repeat(270_000)), undefined, 'default')?.limit).toBe('annotations')
    // 50,000 control characters: each written \u0001 in the annotation (refused by the same apiserver)
    const refused = applySizeRefusal(configMap('\u0001'.repeat(50_000)), undefined, 'default')
    expect(refused?.limit).toBe('annotations')
    expect(refused?.bytes).toBeGreaterThan(TOTAL_ANNOTATION_SIZE_LIMIT)
  })
})
