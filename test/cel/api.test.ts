import { describe, expect, it } from 'vitest'
import {
  CelCompileError,
  CelError,
  CelEvalError,
  CelMap,
  celLibraries,
  compile,
  Double,
  DoubleType,
  Duration,
  DynType,
  Env,
  evaluate,
  fn,
  IntType,
  Optional,
  overload,
  type Program,
  Timestamp,
  Uint,
} from '../../src/cel/index.js'
import type { CelValue } from '../../src/cel/values/values.js'

// The public API contract (src/cel/index.ts): compile() gives a reusable, re-entrant Program;
// evaluate() is the one-shot form; every failure is a CelError with its stage and cel-go's
// message; plain JS values map to CEL values as Kubernetes decodes JSON (docs/values.md).
// Expected values: cel-spec doc/langdef.md and tests/simple/testdata (noted per case), cel-go
// parser/parser_test.go and checker/errors.go for messages, interpreter/attributes.go for
// `no such key: %v` / `index out of bounds: %v` / `no such attribute(s): %s`.

const BACKENDS = ['auto', 'js', 'closures'] as const

function thrown(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  return expect.fail('expected an exception')
}

describe('compile() and Program', () => {
  it.each(BACKENDS)('a program is reusable: interleaved evaluations with different activations (%s)', (backend) => {
    const p = compile('has(obj.spec) ? obj.spec.replicas * 2 : -1', { backend, declarations: { obj: DynType } })
    const acts: Record<string, CelValue>[] = [
      { obj: { spec: { replicas: 3 } } },
      { obj: {} },
      { obj: { spec: { replicas: 4611686018427387904n } } },
      { obj: { spec: {} } },
    ]
    // Past the switch to generated code (16 evaluations) and back and forth between activations.
    for (let i = 0; i < 40; i++) {
      expect(p.evaluate(acts[0]!)).toBe(6)
      expect(p.evaluate(acts[1]!)).toBe(-1)
      expect(() => p.evaluate(acts[2]!)).toThrow('integer overflow')
      expect(() => p.evaluate(acts[3]!)).toThrow('no such key: replicas')
    }
  })

  it.each(BACKENDS)('a program is re-entrant: it may be evaluated from inside its own evaluation (%s)', (backend) => {
    // A host function that evaluates the same program again: factorial by recursion through evaluate().
    let program: Program | undefined
    const recurse = fn(
      'recurse',
      overload('recurse_int', [IntType], IntType, (n: number) => program!.evaluate({ n: n - 1 })),
    )
    const env = new Env({ libraries: [...celLibraries, { name: 'test.recurse', functions: [recurse] }] })
    program = compile('n <= 1 ? 1 : n * recurse(n)', { env, backend, declarations: { n: IntType } })
    for (let i = 0; i < 20; i++) {
      expect(program.evaluate({ n: 5 })).toBe(120)
      expect(program.evaluate({ n: 1 })).toBe(1)
    }
    // An error raised by the inner evaluation reaches the outer caller as it is.
    const failing = new Env({
      libraries: [
        ...celLibraries,
        {
          name: 'test.inner',
          functions: [
            fn(
              'inner',
              overload('inner_int', [IntType], IntType, (n: number) => program!.evaluate({ n })),
            ),
          ],
        },
      ],
    })
    const outer = compile('inner(n) + 1', { env: failing, backend, declarations: { n: IntType } })
    program = compile('10 / n', { backend, declarations: { n: IntType } })
    expect(outer.evaluate({ n: 2 })).toBe(6)
    const e = thrown(() => outer.evaluate({ n: 0 }))
    expect(e).toBeInstanceOf(CelEvalError)
    expect((e as CelError).message).toBe('division by zero')
  })

  it('evaluate(expression, activation) compiles and evaluates once', () => {
    expect(evaluate('x + 1', { x: 41 })).toBe(42)
    expect(evaluate('"a" + "b"')).toBe('ab')
    expect(evaluate('x', { x: 1 }, { backend: 'closures' })).toBe(1)
  })

  it('the activation defaults to no variables', () => {
    expect(compile('1 + 2').evaluate()).toBe(3)
    // A declared variable the activation lacks (cel-go interpreter/attributes.go: `no such attribute(s): %s`).
    expect(() => compile('x', { declarations: { x: DynType } }).evaluate()).toThrow('no such attribute(s): x')
    // The same in an unchecked program (cel-go's unchecked ASTs resolve every name at run time).
    expect(() => compile('x', { disableCheck: true }).evaluate()).toThrow('no such attribute(s): x')
    // Checked, an undeclared name never gets that far (cel-go checker/errors.go undeclaredReference).
    expect(thrown(() => compile('x'))).toMatchObject({
      stage: 'check',
      message: "ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x\n | ^",
    })
  })

  it('declarations turn unknown names into check errors (cel-go checker/errors.go)', () => {
    const e = thrown(() => compile('x + y', { declarations: { x: IntType } }))
    expect(e).toBeInstanceOf(CelCompileError)
    expect(e).toMatchObject({ stage: 'check', line: 1, column: 5 })
    expect((e as Error).message).toBe(
      "ERROR: <input>:1:5: undeclared reference to 'y' (in container '')\n | x + y\n | ....^",
    )
  })
})

describe('errors are CelErrors with stage, message and position', () => {
  it.each([
    // cel-go parser/parser_test.go
    [
      '{"a": 1}."a"',
      'ERROR: <input>:1:10: Syntax error: no viable alternative at input \'."a"\'\n | {"a": 1}."a"\n | .........^',
      1,
      10,
    ],
    ['1 + 2\n3 +', "ERROR: <input>:2:1: Syntax error: mismatched input '3' expecting <EOF>\n | 3 +\n | ^", 2, 1],
    ['has(m)', 'ERROR: <input>:1:5: invalid argument to has() macro\n | has(m)\n | ....^', 1, 5],
    ['while', 'ERROR: <input>:1:1: reserved identifier: while\n | while\n | ^', 1, 1],
  ])('parse: %j', (expr, message, line, column) => {
    const e = thrown(() => compile(expr))
    expect(e).toBeInstanceOf(CelCompileError)
    expect(e).toBeInstanceOf(CelError)
    expect(e).toBeInstanceOf(Error)
    expect(e).toMatchObject({ stage: 'parse', message, line, column })
    // evaluate() reports the same error.
    expect(thrown(() => evaluate(expr))).toMatchObject({ stage: 'parse', message })
  })

  it.each([
    ['{}.x', {}, 'no such key: x'],
    ['m.x', { m: { y: 1 } }, 'no such key: x'],
    ['m["x"]', { m: {} }, 'no such key: x'],
    ['1 / 0', {}, 'division by zero'],
    ['1 % 0', {}, 'modulus by zero'],
    ['[1, 2][5]', {}, 'index out of bounds: 5'],
    ['l[-1]', { l: [] }, 'index out of bounds: -1'],
    ['9223372036854775807 + 1', {}, 'integer overflow'],
    ['0u - 1u', {}, 'unsigned integer overflow'],
    // a variable: OptOptimize folds `int("x")` when the program is created (cel-go-v029.test.ts)
    ['int(s)', { s: 'x' }, "type conversion error from 'string' to 'int'"],
    ['optional.none().value()', {}, 'optional.none() dereference'],
  ])('eval: %s', (expr, act, message) => {
    const declarations = Object.fromEntries(Object.keys(act).map((k) => [k, DynType]))
    for (const backend of BACKENDS) {
      const p = compile(expr, { backend, declarations })
      for (let i = 0; i < 20; i++) {
        const e = thrown(() => p.evaluate(act))
        expect(e).toBeInstanceOf(CelEvalError)
        expect(e).toMatchObject({ stage: 'eval', message })
      }
    }
  })

  it('eval: a declared variable missing from the activation', () => {
    const e = thrown(() => compile('self.x', { declarations: { self: DynType } }).evaluate({}))
    expect(e).toMatchObject({ stage: 'eval', message: 'no such attribute(s): self' })
  })

  it('the error names are the public classes', () => {
    expect(thrown(() => compile('1 +'))).toMatchObject({ name: 'CelParseError' })
    expect(thrown(() => compile('y', { declarations: { x: IntType } }))).toMatchObject({ name: 'CelCheckError' })
    expect(thrown(() => evaluate('1 / 0'))).toMatchObject({ name: 'CelEvalError' })
  })
})

describe('JSON values in (docs/values.md; Kubernetes decodes JSON integers as int, others as double)', () => {
  it.each([
    ['an integral number is an int', 1, 'int'],
    ['a negative integral number is an int', -7, 'int'],
    ['a fractional number is a double', 1.5, 'double'],
    ['a number beyond 2^53 is a double', 2 ** 60, 'double'],
    ['NaN is a double', Number.NaN, 'double'],
    ['new Double(2) is a double', new Double(2), 'double'],
    ['new Uint(2n) is a uint', new Uint(2n), 'uint'],
    ['a bigint beyond 2^53 is an int', 2n ** 60n, 'int'],
    ['a string is a string', 'a', 'string'],
    ['a boolean is a bool', true, 'bool'],
    ['null is null_type', null, 'null_type'],
    ['an array is a list', [1, 'a'], 'list'],
    ['an object is a map', { a: 1 }, 'map'],
    ['a CelMap is a map', new CelMap(), 'map'],
    ['a Uint8Array is bytes', new Uint8Array([1]), 'bytes'],
    ['a Timestamp is a google.protobuf.Timestamp', new Timestamp(0, 0), 'google.protobuf.Timestamp'],
    ['a Duration is a google.protobuf.Duration', new Duration(1n), 'google.protobuf.Duration'],
  ])('%s', (_what, x, type) => {
    expect(evaluate(`type(x) == ${type}`, { x })).toBe(true)
    expect(evaluate(`type(x) != ${type === 'int' ? 'double' : 'int'}`, { x })).toBe(true)
  })

  it('numbers compare and combine as their CEL types (cel-spec comparisons / integer_math / fp_math)', () => {
    expect(evaluate('x == 9223372036854775807', { x: 9223372036854775807n })).toBe(true)
    expect(evaluate('x + 1', { x: 9007199254740991 })).toBe(9007199254740992n)
    expect(evaluate('x * 2.0', { x: new Double(2) })).toEqual(new Double(4))
    expect(evaluate('x + 1u', { x: new Uint(1n) })).toEqual(new Uint(2n))
    expect(() => evaluate('x + 1', { x: 1.5 })).toThrow('no such overload')
    // Heterogeneous numeric equality (cel-spec comparisons.textproto, eq_mixed_types).
    expect(evaluate('x == 1', { x: new Double(1) })).toBe(true)
    expect(evaluate('x == 1u', { x: 1 })).toBe(true)
  })

  it('maps read own properties only: __proto__ is a key like any other', () => {
    expect(evaluate('x.__proto__', { x: JSON.parse('{"__proto__": 5}') })).toBe(5)
    expect(evaluate('has(x.__proto__)', { x: {} })).toBe(false)
    expect(evaluate('size(x)', { x: JSON.parse('{"__proto__": 5, "a": 1}') })).toBe(2)
  })
})

describe('values out', () => {
  it.each([
    // cel-spec integer_math / fp_math / basic.textproto for the values; the JS shape is docs/values.md.
    ['1 + 1', 2],
    ['9007199254740993', 9007199254740993n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9007199254740992 - 1', 9007199254740991],
    ['9007199254740991 + 1', 9007199254740992n],
    ['2.0 * 1.0', new Double(2)],
    ['1.5 + 1.0', 2.5],
    ['-0.0', new Double(-0)],
    ['1u + 1u', new Uint(2n)],
    ['"a" + "😀"', 'a😀'],
    ['b"ab"', new Uint8Array([97, 98])],
    ['[1, 2.0, 3u]', [1, new Double(2), new Uint(3n)]],
    ['null', null],
    ['optional.of(1)', new Optional(1)],
    ['optional.none()', Optional.none],
    ['duration("1.5s")', new Duration(1_500_000_000n)],
    ['timestamp("1970-01-01T00:00:01.5Z")', new Timestamp(1, 500_000_000)],
    ['type(1.0)', DoubleType],
  ])('%s', (expr, want) => {
    for (const backend of BACKENDS) expect(evaluate(expr, {}, { backend })).toEqual(want)
  })

  it('an int result is never -0 (cel-go ints have no negative zero)', () => {
    expect(Object.is(evaluate('-0'), 0)).toBe(true)
    expect(Object.is(evaluate('0 * -1'), 0)).toBe(true)
    expect(Object.is(evaluate('int(-0.0)'), 0)).toBe(true)
    expect(Object.is(evaluate('x - x', { x: -5 }), 0)).toBe(true)
    expect(Object.is(evaluate('-x', { x: 0 }), 0)).toBe(true)
  })

  it('maps built by expressions are plain objects with a null prototype, or CelMap for other keys', () => {
    const m = evaluate('{"a": 1, "__proto__": 2}') as Record<string, unknown>
    expect(Object.getPrototypeOf(m)).toBeNull()
    expect(Object.keys(m).sort()).toEqual(['__proto__', 'a'])
    expect(Object.getOwnPropertyDescriptor(m, '__proto__')?.value).toBe(2)
    const viaVar = evaluate('{k: v}', { k: '__proto__', v: 3 }) as Record<string, unknown>
    expect(Object.hasOwn(viaVar, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(viaVar)).toBeNull()
    const intKeys = evaluate('{1: "a", 2u: "b"}')
    expect(intKeys).toBeInstanceOf(CelMap)
    expect([...(intKeys as CelMap).entries.values()]).toEqual([
      [1, 'a'],
      [new Uint(2n), 'b'],
    ])
  })

  it('a list from the activation comes back unchanged and is never mutated', () => {
    const l = Object.freeze([1, 2, 3])
    expect(evaluate('l', { l })).toBe(l)
    expect(evaluate('l + [4]', { l })).toEqual([1, 2, 3, 4])
    expect(evaluate('l.map(x, x * 2)', { l })).toEqual([2, 4, 6])
    expect(evaluate('l.sort()', { l: Object.freeze([3, 1, 2]) })).toEqual([1, 2, 3])
    expect(l).toEqual([1, 2, 3])
  })
})
