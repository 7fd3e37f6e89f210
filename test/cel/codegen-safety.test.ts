import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { type CompileOptions, compile } from '../../src/cel/program.js'
import { DynType } from '../../src/cel/types/types.js'
import { type CelValue, Optional } from '../../src/cel/values/values.js'
import { celString } from './gen/literals.js'
import { compileOutcome, evalOutcome, type Outcome, sameOutcome, show } from './gen/outcome.js'
import { defineOwn, plainMap } from './gen/values.js'

// Injection and prototype safety of the generated JavaScript (codegen.ts) and of the closures:
// names and strings crafted to break out of generated code, names JavaScript objects inherit, and
// names of codegen's own temporaries must all mean exactly what CEL says. The CEL answers follow
// cel-go's map semantics (common/types/map.go: a key is present only when the map has it;
// interpreter/attributes.go: `no such key: %v`, `no such attribute(s): %s`). Programs are checked
// as Kubernetes checks them, the activation's variables declared as dyn (as evaluate() does), unless
// a test says otherwise; unchecked programs (disableCheck, cel-go's unchecked ASTs) resolve names at
// run time and are tested too, since the checker must not be what keeps a name out.

/** Strings that would end a JS string or comment, start a template, or end a line in older JS. */
const PAYLOADS = [
  '"]);process.exit(1);//',
  "');process.exit(1);//",
  "'*/",
  '*/ process.exit(1) /*',
  // template-literal openers, spelled in pieces so that they are not templates here
  '`$' + '{process.exit(1)}`',
  '$' + '{}',
  '\u2028\u2029',
  '</script><script>',
  '\\',
  '\\"',
  '\n//',
  '\u0000',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  't0',
  's0',
  'c0',
  'act',
  'rt',
  'ops',
  'k',
  'OP',
  'k[0]',
  'act["x"]',
]

/** Identifiers that CEL accepts and that mean something to JS objects or to the generated code. */
const NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  't0',
  't1',
  's0',
  's1',
  'c0',
  'act',
  'rt',
  'ops',
  'k',
  'OP',
  'c',
  'l',
  'n',
  'i',
  'r',
  'v',
  'out',
  'celProgram',
  'Object',
  'undefined',
  'NaN',
  'eval',
  'arguments',
  'this',
  'globalThis',
  'process',
  'require',
  'Function',
]

const BACKENDS = ['closures', 'js', 'auto'] as const

/** The activation's variables declared as dyn (program.ts evaluate() does the same). */
const dynOf = (names: readonly string[]) => Object.fromEntries(names.map((k) => [k, DynType]))

/** The outcome on every back end (auto warmed past its switch to generated code); they must agree. */
function outcome(expr: string, act: Record<string, CelValue>, options: CompileOptions = {}): Outcome {
  if (!options.declarations && !options.disableCheck) options = { ...options, declarations: dynOf(Object.keys(act)) }
  let first: Outcome | undefined
  for (const backend of BACKENDS) {
    const p = compileOutcome(expr, { ...options, backend })
    let o: Outcome
    if ('ok' in p) o = p
    else {
      o = evalOutcome(p, act)
      for (let i = 0; backend === 'auto' && i < 20; i++) o = evalOutcome(p, act)
    }
    if (first === undefined) first = o
    else if (!sameOutcome(first, o))
      expect.fail(`${expr} with ${show(act)}: closures ${show(first)}, ${backend} ${show(o)}`)
  }
  return first!
}

const value = (v: CelValue): Outcome => ({ ok: true, value: v })
const error = (message: string): Outcome => ({ ok: false, stage: 'eval', message })
/** The check error for an expression that is just the undeclared identifier `name` (cel-go checker/errors.go). */
const undeclared = (name: string): Outcome => ({
  ok: false,
  stage: 'check',
  message: `ERROR: <input>:1:1: undeclared reference to '${name}' (in container '')\n | ${name}\n | ^`,
})

function expectOutcome(expr: string, act: Record<string, CelValue>, want: Outcome, options: CompileOptions = {}): void {
  const got = outcome(expr, act, options)
  if (!sameOutcome(got, want)) expect.fail(`${expr} with ${show(act)}: want ${show(want)}, got ${show(got)}`)
}

/** `{name: v}` as JSON.parse builds it (an own property even for `__proto__`). */
const own = (name: string, v: CelValue): CelValue => plainMap([[name, v]])

describe('prototype names are ordinary keys', () => {
  it('has(x.__proto__) is false on {} and true on JSON.parse(\'{"__proto__": 1}\')', () => {
    expectOutcome('has(x.__proto__)', { x: {} }, value(false))
    expectOutcome('has(x.__proto__)', { x: JSON.parse('{"__proto__": 1}') }, value(true))
    expectOutcome('x.__proto__', { x: JSON.parse('{"__proto__": 1}') }, value(1))
    expectOutcome('x.__proto__', { x: {} }, error('no such key: __proto__'))
    // The value of an own __proto__ is not a prototype: its fields are not the map's.
    expectOutcome('x.a', { x: JSON.parse('{"__proto__": {"a": 1}}') }, error('no such key: a'))
  })

  it('x.constructor on {} is `no such key: constructor`', () => {
    expectOutcome('x.constructor', { x: {} }, error('no such key: constructor'))
  })

  it.each(NAMES)('field %s: absent, present, presence test, optional select, index, in', (name) => {
    const lit = celString(name, 0)
    const absent = { x: {} }
    const nullProto = { x: Object.create(null) as CelValue }
    const present = { x: own(name, 7) }
    for (const act of [absent, nullProto]) {
      expectOutcome(`x.${name}`, act, error(`no such key: ${name}`))
      expectOutcome(`has(x.${name})`, act, value(false))
      expectOutcome(`x.?${name}`, act, value(Optional.none))
      expectOutcome(`x[${lit}]`, act, error(`no such key: ${name}`))
      expectOutcome(`${lit} in x`, act, value(false))
      expectOutcome(`size(x)`, act, value(0))
      expectOutcome(`x.map(k, k)`, act, value([]))
    }
    expectOutcome(`x.${name}`, present, value(7))
    expectOutcome(`has(x.${name})`, present, value(true))
    expectOutcome(`x.?${name}`, present, value(new Optional(7)))
    expectOutcome(`x[${lit}]`, present, value(7))
    expectOutcome(`${lit} in x`, present, value(true))
    expectOutcome(`x.map(k, k)`, present, value([name]))
    expectOutcome(`x.${name}.${name}`, { x: own(name, own(name, 'deep')) }, value('deep'))
    // Maps the expression builds: the key is an own entry, and the map is not polluted by it.
    expectOutcome(`{${lit}: 1}.${name}`, {}, value(1))
    expectOutcome(`{${lit}: x}.${name}`, { x: 2 }, value(2))
    expectOutcome(`has({${lit}: 1}.${name})`, {}, value(true))
    expectOutcome(`size({${lit}: x})`, { x: 1 }, value(1))
    expectOutcome(`{"a": 1}.${name}`, {}, error(`no such key: ${name}`))
  })

  it.each(NAMES)('variable %s: read only when the activation has it as an own property', (name) => {
    const act: Record<string, CelValue> = {}
    defineOwn(act, name, 5)
    // Declared (checked), and unchecked: the name is resolved at run time in both.
    for (const options of [{ declarations: { [name]: DynType } }, { disableCheck: true }]) {
      expectOutcome(name, act, value(5), options)
      expectOutcome(`${name} + 1`, act, value(6), options)
      expectOutcome(name, {}, error(`no such attribute(s): ${name}`), options)
      expectOutcome(name, Object.create(null), error(`no such attribute(s): ${name}`), options)
    }
    // Checked and undeclared, it is unknown whatever JavaScript objects inherit.
    expectOutcome(name, act, undeclared(name), { declarations: {} })
    expectOutcome(name, act, undeclared(name), { declarations: { x: DynType } })
  })

  it.each(NAMES)('comprehension variable %s shadows nothing but itself', (name) => {
    const act: Record<string, CelValue> = { x: [1, 2] }
    expectOutcome(`x.map(${name}, ${name} * 10)`, act, value([10, 20]))
    expectOutcome(`x.all(${name}, ${name} > 0)`, act, value(true))
    expectOutcome(`x.exists_one(${name}, ${name} == 2)`, act, value(true))
    expectOutcome(`x.filter(${name}, ${name} != 1)`, act, value([2]))
    expectOutcome(`x.transformList(${name}, w, ${name} + w)`, act, value([1, 3]))
    expectOutcome(`{"a": 1}.all(${name}, w, ${name} == "a" && w == 1)`, {}, value(true))
    expectOutcome(
      `x.map(${name}, x.map(w, ${name} * w))`,
      act,
      value([
        [1, 2],
        [2, 4],
      ]),
    )
  })
})

describe('strings that would break out of generated code', () => {
  it.each(PAYLOADS)('%j survives as a literal, a map key and a field', (s) => {
    for (const style of [0, 1, 2, 3, 4]) {
      const lit = celString(s, style)
      expectOutcome(lit, {}, value(s))
      expectOutcome(`${lit} + ${lit}`, {}, value(s + s))
      expectOutcome(`x + ${lit}`, { x: 'a' }, value(`a${s}`))
      expectOutcome(`{${lit}: 1}[${lit}]`, {}, value(1))
      expectOutcome(`{${lit}: x}[${lit}]`, { x: true }, value(true))
      expectOutcome(`${lit} in {${lit}: x}`, { x: 1 }, value(true))
      expectOutcome(`x[${lit}]`, { x: own(s, 3) }, value(3))
      expectOutcome(`x[${lit}]`, { x: {} }, error(`no such key: ${s}`))
      expectOutcome(`x.?a.orValue(${lit})`, { x: {} }, value(s))
    }
  })

  it('unpaired surrogates from the activation are compared and looked up as they are', () => {
    const lone = '\ud800'
    const act = { x: own(lone, 1), y: lone, z: `${lone}a` }
    expectOutcome('x[y]', act, value(1))
    expectOutcome('y in x', act, value(true))
    expectOutcome('y + "a" == z', act, value(true))
    expectOutcome('z.startsWith(y)', act, value(true))
    expectOutcome('{y: 2}[y]', act, value(2))
  })

  it('a lone surrogate cannot be written in a CEL string literal (cel-go: invalid unicode code point)', () => {
    const o = outcome('"\\ud800"', {})
    expect(o).toMatchObject({ ok: false, stage: 'parse' })
    expect((o as { message: string }).message).toContain('invalid unicode code point')
  })
})

describe('Program.source()', () => {
  // Every identifier the generator itself spells (its own source, the plan's op names and the
  // runtime helpers it calls); generated code may use no other name, so nothing from the
  // expression can appear outside a JSON string literal.
  const own = new Set(
    ['codegen.ts', 'runtime.ts', 'plan.ts'].flatMap((f) =>
      readFileSync(new URL(`../../src/cel/compiler/${f}`, import.meta.url), 'utf8').match(/[A-Za-z_$][\w$]*/g),
    ),
  )
  const JSON_STRING = /"(?:[^"\\]|\\.)*"/g

  // x and every name of NAMES declared, so that all of them reach the generator as variables.
  const declarations = dynOf(['x', ...NAMES])

  function checkSource(expr: string, options: CompileOptions = { declarations }): void {
    const p = compile(expr, { ...options, backend: 'js' })
    const source = p.source()
    // It parses as a function body (the same parameters codegen.ts gives it).
    expect(() => new Function('rt', 'ops', 'k', 'OP', source)).not.toThrow()
    const code = source.replace(JSON_STRING, '""')
    for (const bad of ['process', 'exit', '*/', '/*', '`', '${', '</script', '\u2028', '\u2029', '\\'])
      if (code.includes(bad))
        expect.fail(`${expr}: generated code contains ${JSON.stringify(bad)} outside a string:\n${source}`)
    for (const id of code.match(/[A-Za-z_$][\w$]*/g) ?? []) {
      // Numbered temporaries and hoisted functions (t0, s3, c1) are spelled as a letter and an index.
      const base = /^[a-z]\d+$/.test(id) ? id[0]! : id
      if (!own.has(base)) expect.fail(`${expr}: generated code uses the identifier ${id}:\n${source}`)
    }
  }

  it.each(PAYLOADS)('keeps %j inside JSON string literals', (s) => {
    const lit = celString(s, 0)
    checkSource(`${lit} == x`)
    checkSource(`x[${lit}] + ${lit}`)
    checkSource(`{${lit}: x, "b": ${lit}}`)
    checkSource(`[x, ${lit}].exists(v, v == ${lit})`)
    checkSource(`x.?a.orValue(${lit})`)
    checkSource(`has(x.a) ? ${lit} : x.b`)
  })

  it.each(NAMES)('keeps the name %s inside JSON string literals', (name) => {
    checkSource(`x.${name} + ${name}`)
    checkSource(`has(x.${name}) && x.?${name}.hasValue()`)
    checkSource(`x.map(${name}, ${name}.${name})`)
    checkSource(`{"${name}": ${name}}.${name}`)
    checkSource(`x.a.${name}.b`)
  })

  it('on random expressions, parses and names only the generator`s identifiers', () => {
    const name = fc.constantFrom(...NAMES)
    const payload = fc.constantFrom(...PAYLOADS)
    const expr = fc.letrec<{ e: string }>((tie) => ({
      e: fc.oneof(
        { maxDepth: 4, depthIdentifier: 'e' },
        name,
        payload.map((s) => celString(s, 0)),
        fc.tuple(tie('e'), name).map(([a, n]) => `(${a}).${n}`),
        fc.tuple(tie('e'), name).map(([a, n]) => `has((${a}).${n})`),
        fc.tuple(tie('e'), tie('e')).map(([a, b]) => `(${a})[${b}]`),
        fc.tuple(tie('e'), tie('e')).map(([a, b]) => `{${a}: ${b}}`),
        fc.tuple(tie('e'), name, tie('e')).map(([a, n, b]) => `(${a}).map(${n}, ${b})`),
        fc.tuple(tie('e'), tie('e')).map(([a, b]) => `(${a}) == (${b}) || (${a}) + (${b}) != ""`),
      ),
    })).e
    fc.assert(
      fc.property(expr, fc.boolean(), (e, checked) => {
        // Checked with declarations, or unchecked (which plans what the checker would reject).
        const options: CompileOptions = checked ? { declarations } : { disableCheck: true }
        const p = compileOutcome(e, options)
        if ('ok' in p) return
        checkSource(e, options)
      }),
      { numRuns: 300 },
    )
  })
})

describe('a polluted Object.prototype', () => {
  const proto = Object.prototype as Record<string, unknown>
  afterEach(() => {
    delete proto.polluted
    delete proto.a
  })

  function polluted(run: () => void): void {
    try {
      proto.polluted = 1
      proto.a = 'inherited'
      run()
    } finally {
      delete proto.polluted
      delete proto.a
    }
  }

  const checks = () => {
    expectOutcome('{}.polluted', {}, error('no such key: polluted'))
    expectOutcome('has(x.polluted)', { x: {} }, value(false))
    expectOutcome('x.polluted', { x: {} }, error('no such key: polluted'))
    expectOutcome('x.a', { x: {} }, error('no such key: a'))
    expectOutcome('has({}.polluted)', {}, value(false))
    expectOutcome('"polluted" in x', { x: {} }, value(false))
    expectOutcome('x.?polluted', { x: {} }, value(Optional.none))
    expectOutcome('x[?"polluted"]', { x: {} }, value(Optional.none))
    expectOutcome('x.map(k, k)', { x: {} }, value([]))
    expectOutcome('size(x)', { x: {} }, value(0))
    expectOutcome('polluted', {}, undeclared('polluted'))
    expectOutcome('a', {}, undeclared('a'), { declarations: { x: DynType } })
    expectOutcome('polluted', {}, error('no such attribute(s): polluted'), { disableCheck: true })
    expectOutcome('polluted', {}, error('no such attribute(s): polluted'), { declarations: { polluted: DynType } })
    expectOutcome('a', {}, error('no such attribute(s): a'), { declarations: { a: DynType } })
    // An own property whose value happens to equal the inherited one is still the map's entry.
    expectOutcome('x.polluted', { x: { polluted: 1 } }, value(1))
    expectOutcome('has(x.polluted)', { x: { polluted: 1 } }, value(true))
    expectOutcome('x.a', { x: { a: 'inherited' } }, value('inherited'))
    expectOutcome('polluted', { polluted: 1 }, value(1), { declarations: { polluted: DynType } })
  }

  it('does not leak into CEL on any back end (programs compiled while polluted)', () => {
    polluted(checks)
  })

  it('does not leak into programs compiled before the pollution', () => {
    const programs = BACKENDS.map((backend) => ({
      backend,
      select: compile('x.polluted', { backend, declarations: { x: DynType } }),
      has: compile('has(x.polluted)', { backend, declarations: { x: DynType } }),
      variable: compile('polluted', { backend, declarations: { polluted: DynType } }),
      unchecked: compile('polluted', { backend, disableCheck: true }),
    }))
    polluted(() => {
      for (const p of programs) {
        for (let i = 0; i < 20; i++) {
          expect(() => p.select.evaluate({ x: {} }), p.backend).toThrow('no such key: polluted')
          expect(p.has.evaluate({ x: {} }), p.backend).toBe(false)
          expect(() => p.variable.evaluate({}), p.backend).toThrow('no such attribute(s): polluted')
          expect(() => p.unchecked.evaluate({}), p.backend).toThrow('no such attribute(s): polluted')
          expect(p.select.evaluate({ x: { polluted: 1 } }), p.backend).toBe(1)
        }
      }
    })
  })

  it('is not polluted by evaluating maps with __proto__ keys', () => {
    for (const backend of BACKENDS) {
      const p = compile('{"__proto__": {"polluted": 1}}.__proto__.polluted + x["__proto__"].polluted', {
        backend,
        declarations: { x: DynType },
      })
      for (let i = 0; i < 20; i++)
        expect(p.evaluate({ x: JSON.parse('{"__proto__": {"polluted": 2}}') }), backend).toBe(3)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf({})).toBe(Object.prototype)
  })
})
