import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CelError } from '../../src/cel/common/errors.js'
import { type CompileOptions, compile } from '../../src/cel/program.js'
import { DynType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { exprArb } from './gen/exprs.js'
import {
  compileOutcome,
  evalOutcome,
  invalidValue,
  type Outcome,
  run,
  sameOutcome,
  sameValue,
  show,
} from './gen/outcome.js'
import { activationArb, deepFreeze, listArb, mapArb, VARIABLES, valueArb } from './gen/values.js'

// Robustness of the whole pipeline (parse → plan → evaluate) on random well-formed expressions
// and random activations: compile either returns a program or throws CelError of stage parse or
// check; evaluation returns a well-formed CEL value (docs/values.md) or throws CelError of stage
// eval in cel-go's words; never a JavaScript exception, never a hang, never a mutated input.
// Metamorphic relations between macros come from their expansions in cel-go parser/macro.go.
// Programs are checked as Kubernetes checks them (variables declared as dyn; a check error is an
// allowed outcome) and, where noted, unchecked (disableCheck: cel-go's unchecked ASTs, names
// resolved at run time, type errors reported as run-time `no such overload`).

/** Slowest single compile + evaluate allowed (bounded sizes: lists of ≤ 4, depth ≤ 5). */
const SLOW_MS = 2000
const dynOf = (names: readonly string[]): Record<string, typeof DynType> =>
  Object.fromEntries(names.map((k) => [k, DynType]))
const declarations = dynOf(Object.keys(VARIABLES))
/** The two ways of compiling every property runs: checked with declarations, or unchecked. */
const CHECKED: CompileOptions = { declarations }
const UNCHECKED: CompileOptions = { disableCheck: true }

function timed<T>(f: () => T): T {
  const start = performance.now()
  const r = f()
  expect(performance.now() - start).toBeLessThan(SLOW_MS)
  return r
}

/** The property every compile + evaluate must hold; returns the outcome for further checks. */
function checkedRun(expr: string, act: Record<string, CelValue>, options: CompileOptions = {}): Outcome {
  return timed(() => {
    const o = run(expr, act, options)
    if (o.ok) {
      const bad = invalidValue(o.value)
      if (bad) expect.fail(`${expr} gave a malformed value: ${bad}`)
    } else {
      expect(['parse', 'check', 'eval']).toContain(o.stage)
      expect(o.message).not.toBe('')
      // program.ts reports JavaScript exceptions as `internal error: …`: a kelp bug, never cel-go's answer.
      if (o.message.startsWith('internal error')) {
        expect.fail(`${expr} with ${show(act)}: ${o.message}`)
      }
    }
    return o
  })
}

describe('random well-formed expressions', () => {
  it('always parse (the generator writes only valid syntax)', () => {
    fc.assert(
      fc.property(exprArb({ maxDepth: 5 }), (expr) => {
        const p = compileOutcome(expr)
        if ('ok' in p && !p.ok && p.stage === 'parse') expect.fail(`${expr}\n${p.message}`)
      }),
      { numRuns: 800 },
    )
  })

  it('compile or evaluate only ever raise CelError, on every back end', () => {
    fc.assert(
      fc.property(
        exprArb({ maxDepth: 5 }),
        activationArb,
        fc.constantFrom<CompileOptions['backend']>('auto', 'js', 'closures'),
        fc.constantFrom(CHECKED, UNCHECKED, {}),
        (expr, act, backend, options) => {
          // {}: checked with nothing declared, so any variable is a check error.
          checkedRun(expr, act, { ...options, backend })
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('leave their inputs alone and give the same outcome every time', () => {
    fc.assert(
      fc.property(
        exprArb({ maxDepth: 4 }),
        activationArb,
        fc.constantFrom(CHECKED, UNCHECKED),
        (expr, act, options) => {
          const frozen = deepFreeze(act)
          const p = compileOutcome(expr, { ...options, backend: 'auto' })
          if ('ok' in p) return
          // The first evaluations run on closures, the later ones on generated code (tiering).
          const first = evalOutcome(p, frozen)
          for (let i = 0; i < 20; i++) {
            const again = evalOutcome(p, frozen)
            if (!sameOutcome(first, again))
              expect.fail(`${expr}: run ${i + 2} gave ${show(again)}, first ${show(first)}`)
          }
          if (!first.ok && first.message.startsWith('internal error')) {
            expect.fail(`${expr}: ${first.message}`)
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it('give results that are valid inputs: a result read back from a variable is the same value', () => {
    fc.assert(
      fc.property(
        exprArb({ maxDepth: 4 }),
        activationArb,
        fc.constantFrom(CHECKED, UNCHECKED),
        (expr, act, options) => {
          const o = checkedRun(expr, act, options)
          if (!o.ok) return
          const r = { declarations: { r: DynType } }
          const back = run('r', { r: o.value }, r)
          if (!back.ok || !sameValue(back.value, o.value))
            expect.fail(`${expr}: ${show(o.value)} read back as ${show(back)}`)
          // CEL equality of the value with itself: true unless a NaN is inside (cel-spec: NaN != NaN).
          const eq = run('r == r', { r: o.value }, r)
          if (eq.ok && eq.value === false) expect(show(o.value)).toMatch(/NaN/)
          else if (!eq.ok) expect.fail(`${expr}: r == r on ${show(o.value)} gave ${eq.message}`)
        },
      ),
      { numRuns: 600 },
    )
  })

  it('resolve declared and undeclared variables alike (checked and unchecked programs)', () => {
    fc.assert(
      fc.property(exprArb({ maxDepth: 4 }), activationArb, (expr, act) => {
        // A program the checker accepts evaluates as its unchecked form does (cel-go: checking
        // only selects overloads and resolves names, it does not change a value or an error).
        // Compared without OptOptimize: its set-membership rewrite needs the checked overload
        // (in_list) and makes `x in []` false without evaluating x (interpreter/decorators.go),
        // so an error in x shows only unchecked; the test below pins that difference.
        const undeclared = checkedRun(expr, act, UNCHECKED)
        const declared = checkedRun(expr, act, { ...CHECKED, optimize: false })
        if (!undeclared.ok && undeclared.stage !== 'eval') return
        if (!declared.ok && declared.stage !== 'eval') return
        // A missing variable is worded after the attribute's candidate names, which differ between the two.
        const missing = (o: Outcome) => !o.ok && o.message.startsWith('no such attribute(s)')
        if (missing(undeclared) || missing(declared)) return
        if (!sameOutcome(undeclared, declared))
          expect.fail(`${expr}: ${show(undeclared)} vs declared ${show(declared)}`)
      }),
      { numRuns: 300 },
    )
  })

  it('OptOptimize folds `x in []` to false only in checked programs (cel-go maybeOptimizeSetMembership)', () => {
    // The seed -1516254271 counterexample: `m.a` on an empty map is an error, which the checked,
    // optimized program never evaluates; unchecked, the overload is unknown at plan time.
    const act: Record<string, CelValue> = { m: {} }
    expect(show(run('m.a in []', act, CHECKED))).toBe('value false')
    expect(show(run('m.a in []', act, { ...CHECKED, optimize: false }))).toBe('eval error: no such key: a')
    expect(show(run('m.a in []', act, UNCHECKED))).toBe('eval error: no such key: a')
    // A non-empty constant list evaluates x: the error stays.
    expect(show(run('m.a in [1]', act, CHECKED))).toBe('eval error: no such key: a')
  })
})

describe('large expressions stay fast (compile + 20 evaluations on every back end)', () => {
  const nested = (fn: string, n: number, body: string) =>
    `${Array.from({ length: n }, (_, i) => `l.${fn}(v${i}, `).join('')}${body}${')'.repeat(n)}`
  it.each([
    ['a list of 2000 elements', `[${'x, '.repeat(1999)}x]`, { x: 1 }],
    ['2000 conjuncts', `x${' && x'.repeat(1999)}`, { x: true }],
    ['2000 disjuncts', `x${' || x'.repeat(1999)}`, { x: false }],
    ['200 additions', `x${' + x'.repeat(199)}`, { x: 1 }],
    ['100 selections', `has(x${'.a'.repeat(100)})`, { x: {} }],
    ['100 conditionals', `${'x ? x : '.repeat(100)}x`, { x: false }],
    ['30 nested all()', nested('all', 30, 'true'), { l: [1] }],
    ['30 nested map()', nested('map', 30, '1'), { l: [1] }],
    [
      '6^4 nested exists()',
      'l.exists(a, l.exists(b, l.exists(c, l.exists(d, a + b + c + d < 0))))',
      { l: [1, 2, 3, 4, 5, 6] },
    ],
    ['a map literal of 500 entries', `{${Array.from({ length: 500 }, (_, i) => `"k${i}": x`).join(', ')}}`, { x: 1 }],
    ['10001 negations', `${'!'.repeat(10001)}x`, { x: true }],
  ] as [string, string, Record<string, CelValue>][])('%s', (_name, expr, act) => {
    for (const backend of ['closures', 'js', 'auto'] as const) {
      const start = performance.now()
      const p = compile(expr, { backend, declarations: dynOf(Object.keys(act)) })
      let first: CelValue | undefined
      for (let i = 0; i < 20; i++) {
        const o = evalOutcome(p, act)
        if (!o.ok && o.message.startsWith('internal error')) expect.fail(o.message)
        if (o.ok) {
          if (i === 0) first = o.value
          else expect(sameValue(o.value, first!)).toBe(true)
        }
      }
      expect(performance.now() - start).toBeLessThan(5000)
    }
  })
})

describe('macro relations (cel-go parser/macro.go expansions)', () => {
  // A range (list or map) and a predicate over `v`, built from the generator's sorts.
  const rangeArb = fc.oneof(
    fc.constantFrom('l', 'm', 'x', '[1, 2, 3]', '["a", "b"]', '{"a": 1, "b": 2}', '[0, 1, 2].map(n, 2 / n)', '[]'),
    exprArb({ maxDepth: 2 }).map((e) => `[${e}, ${e}]`),
  )
  const predArb = fc.constantFrom(
    'v > 1',
    'v == "a"',
    'v',
    '1 / v > 0',
    'size(v) > 0',
    'v in [1, "b"]',
    'true',
    'false',
    'has(v.a)',
    'int(v) > 0',
    'v.a',
    '{}.x',
    'v != v',
  )

  // l is always a list and m a map here, so that the range kind is known from the text.
  const macroAct = fc.record({ l: listArb, m: mapArb, x: valueArb })

  const macroDecls = { declarations: dynOf(['l', 'm', 'x']) }

  function expectSame(a: string, x: Outcome, b: string, y: Outcome, act: Record<string, CelValue>): void {
    if (x.ok || y.ok || x.stage === 'eval' || y.stage === 'eval')
      if (!sameOutcome(x, y)) expect.fail(`${a} → ${show(x)}\n${b} → ${show(y)}\nwith ${show(act)}`)
  }

  /** Unchecked, and checked (l, m, x declared as dyn), `a` and `b` must have the same outcome. */
  function same(a: string, b: string, act: Record<string, CelValue>): void {
    expectSame(a, checkedRun(a, act, UNCHECKED), b, checkedRun(b, act, UNCHECKED), act)
    expectSame(a, checkedRun(a, act, macroDecls), b, checkedRun(b, act, macroDecls), act)
  }

  it('all(v, P) is !exists(v, !(P)), errors included', () => {
    fc.assert(
      fc.property(rangeArb, predArb, macroAct, (r, p, act) => {
        same(`(${r}).all(v, ${p})`, `!(${r}).exists(v, !(${p}))`, act)
      }),
      { numRuns: 300 },
    )
  })

  it('filter(v, P) is map(v, P, v), and map(v, T) is transformList(_k, v, T) on lists', () => {
    fc.assert(
      fc.property(rangeArb, predArb, macroAct, (r, p, act) => {
        same(`(${r}).filter(v, ${p})`, `(${r}).map(v, ${p}, v)`, act)
        if (r.startsWith('[') || r === 'l') same(`(${r}).map(v, [${p}])`, `(${r}).transformList(_k, v, [${p}])`, act)
      }),
      { numRuns: 300 },
    )
  })

  it('one-variable macros agree with their two-variable forms (dedicated loops vs the generic fold)', () => {
    fc.assert(
      fc.property(rangeArb, predArb, macroAct, (r, p, act) => {
        const list = r.startsWith('[') || r === 'l'
        if (!list && !r.startsWith('{') && r !== 'm') return
        // On a list the first variable of the two-variable form is the index; on a map, the key.
        const two = (name: string) => (list ? `(${r}).${name}(_i, v, ${p})` : `(${r}).${name}(v, _val, ${p})`)
        same(`(${r}).all(v, ${p})`, two('all'), act)
        same(`(${r}).exists(v, ${p})`, two('exists'), act)
        same(`(${r}).exists_one(v, ${p})`, two('existsOne'), act)
      }),
      { numRuns: 300 },
    )
  })
})

describe('random text', () => {
  const TOKENS = [
    ...'()[]{}.,?:!-+*/%<>'.split(''),
    '==',
    '&&',
    '||',
    'in',
    'x',
    'l',
    'm',
    's',
    'v',
    'true',
    'null',
    '1',
    '2u',
    '1.5',
    '"a"',
    "b'x'",
    'has',
    'all',
    'exists',
    'map',
    'filter',
    'size',
    'int',
    'string',
    'optional',
    'of',
    'none',
    'orValue',
    'transformList',
    'sortBy',
    'lists',
    'range',
    'timestamp',
    '"2023-01-01T00:00:00Z"',
    '.?',
    '[?',
    '{?',
    '__proto__',
    'constructor',
  ]

  const textDecls = dynOf(['x', 'l', 'm', 's', 'v'])

  function check(text: string, options: CompileOptions = { declarations: textDecls }): void {
    timed(() => {
      let program: ReturnType<typeof compile>
      try {
        program = compile(text, options)
      } catch (e) {
        if (!(e instanceof CelError)) throw e
        expect(['parse', 'check']).toContain(e.stage)
        return
      }
      const act = { x: { a: 1 }, l: [1, 2], m: { a: 'b' }, s: 'str', v: 1 }
      try {
        const v = program.evaluate(act)
        expect(invalidValue(v)).toBeUndefined()
      } catch (e) {
        if (!(e instanceof CelError)) throw e
        expect(e.stage).toBe('eval')
        if (e.message.startsWith('internal error')) {
          expect.fail(`${text}: ${e.message}`)
        }
      }
    })
  }

  it('random strings compile to a program or a parse / check CelError', () => {
    // Any UTF-16 text: mostly ASCII, any code point, lone surrogates included.
    const unit = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0, max: 0x10ffff }))
    const text = fc
      .array(unit, { maxLength: 40 })
      .map((cps) =>
        cps.map((c) => (c >= 0xd800 && c <= 0xdfff ? String.fromCharCode(c) : String.fromCodePoint(c))).join(''),
      )
    fc.assert(
      fc.property(text, (t) => check(t)),
      { numRuns: 800 },
    )
  })

  it('random token soups (some of them valid) only ever raise CelError', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 25 }), fc.boolean(), (toks, checked) =>
        check(toks.join(' '), checked ? { declarations: textDecls } : UNCHECKED),
      ),
      { numRuns: 3000 },
    )
  })
})
