import fc from 'fast-check'
import {
  boolLit,
  bytesLit,
  doubleLit,
  durationText,
  formatLit,
  intLit,
  regexLit,
  stringLit,
  timestampText,
  timezone,
  uintLit,
} from './literals.js'

// A grammar of well-formed CEL expressions, as text, by result sort. Sorted generation keeps most
// expressions meaningful (`size(s) + 1` rather than `true + b"x"`), while the `any` sort and the
// error operands still mix kinds freely. Every compound form is parenthesised, so whatever the
// nesting the text parses; only the semantics (type errors, overflow, missing keys) can fail.
// Variables are those of values.ts VARIABLES; `v` and `w` are comprehension variables.

export type Sort =
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'bool'
  | 'timestamp'
  | 'duration'
  | 'list'
  | 'map'
  | 'optional'
  | 'any'

type Arbs = { [S in Sort]: fc.Arbitrary<string> }
type Texts = { [S in Sort]: string }
type W = { weight: number; arbitrary: fc.Arbitrary<string> }

const p = (s: string) => `(${s})`
const w = (weight: number, arbitrary: fc.Arbitrary<string>): W => ({ weight, arbitrary })
const one = (...xs: string[]) => fc.constantFrom(...xs)

/** Field names: identifiers, including those JavaScript objects have on their prototype. */
export const FIELDS = [
  'a',
  'b',
  'c',
  'x',
  'name',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
] as const
const field = fc.constantFrom(...FIELDS)
/** Comprehension variable pairs (always distinct: the same name twice is a parse error). */
const iterVars = fc.constantFrom(['v', 'w'], ['w', 'v'], ['v', 'x'], ['i', 'v'], ['k', 'w'])
const iterVar = fc.constantFrom('v', 'w', 'x', 'i')
/** Error operands of every kind (cel-go: division by zero, no such key, index out of bounds, ...). */
const errorOperand = one(
  '(1 / 0)',
  '(1 % 0)',
  '{}.x',
  '{"a": 1}.b',
  '[][0]',
  '[1, 2][2]',
  'int("x")',
  '(9223372036854775807 + 1)',
  '(-9223372036854775808 - 1)',
  'optional.none().value()',
  '(1u - 2u)',
  'timestamp("bad")',
  'nope.x',
)

function bin(a: fc.Arbitrary<string>, ops: readonly string[], b: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(a, fc.constantFrom(...ops), b).map(([x, op, y]) => `(${x} ${op} ${y})`)
}

function call(name: string, ...args: fc.Arbitrary<string>[]): fc.Arbitrary<string> {
  return fc.tuple(...args).map((xs) => `${name}(${xs.join(', ')})`)
}

function member(recv: fc.Arbitrary<string>, name: string, ...args: fc.Arbitrary<string>[]): fc.Arbitrary<string> {
  return fc.tuple(recv, ...args).map(([r, ...xs]) => `${p(r)}.${name}(${xs.join(', ')})`)
}

function listOf(elem: fc.Arbitrary<string>, max = 3): fc.Arbitrary<string> {
  return fc.array(elem, { maxLength: max }).map((xs) => `[${xs.join(', ')}]`)
}

export interface ExprOptions {
  /** Nesting depth of compound forms (default 4). */
  readonly maxDepth?: number
}

/** The expression arbitraries, one per result sort. */
export function exprArbs(options: ExprOptions = {}): Arbs {
  const maxDepth = options.maxDepth ?? 4
  return fc.letrec<Texts>((tie) => {
    const t = (s: Sort) => tie(s) as fc.Arbitrary<string>
    const I = t('int')
    const U = t('uint')
    const D = t('double')
    const S = t('string')
    const B = t('bool')
    const Y = t('bytes')
    const T = t('timestamp')
    const Du = t('duration')
    const L = t('list')
    const M = t('map')
    const O = t('optional')
    const A = t('any')
    /** A comprehension range: a list, or a map (its keys). */
    const R = fc.oneof(L, L, M)
    const num = fc.oneof(I, I, U, D)
    const key = fc.oneof(stringLit, stringLit, intLit, uintLit, boolLit, S)
    const cmp = ['==', '!=', '<', '<=', '>', '>='] as const
    const node = (leaf: fc.Arbitrary<string>, ...rec: W[]) =>
      fc.oneof({ maxDepth, depthIdentifier: 'cel', depthSize: 'small' }, w(6, leaf), ...rec)

    // A comprehension body sees v / w: any of the sorts, or the loop variables themselves.
    const macro1 = (name: string, body: fc.Arbitrary<string>) =>
      fc.tuple(R, iterVar, body).map(([r, v, b]) => `${p(r)}.${name}(${v}, ${b})`)
    const macro2 = (name: string, ...bodies: fc.Arbitrary<string>[]) =>
      fc.tuple(R, iterVars, ...bodies).map(([r, [v, w2], ...bs]) => `${p(r)}.${name}(${v}, ${w2}, ${bs.join(', ')})`)

    return {
      int: node(
        fc.oneof(w(4, intLit), w(2, one('i', 'j')), w(1, one('v', 'w'))),
        w(4, bin(I, ['+', '-', '*', '/', '%'], I)),
        w(
          1,
          I.map((x) => `-${p(x)}`),
        ),
        w(2, fc.oneof(call('size', A), member(fc.oneof(S, L, M, Y), 'size'))),
        w(2, call('int', fc.oneof(A, S, D, U, T, stringLit))),
        w(1, fc.oneof(member(S, 'indexOf', S), member(S, 'indexOf', S, I), member(S, 'lastIndexOf', S, I))),
        w(
          1,
          fc
            .tuple(
              T,
              fc.constantFrom(
                'getFullYear',
                'getMonth',
                'getDayOfYear',
                'getDayOfMonth',
                'getDate',
                'getDayOfWeek',
                'getHours',
                'getMinutes',
                'getSeconds',
                'getMilliseconds',
              ),
              fc.option(timezone, { nil: '' }),
            )
            .map(([x, f, tz]) => `${p(x)}.${f}(${tz})`),
        ),
        w(
          1,
          fc
            .tuple(Du, one('getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'))
            .map(([x, f]) => `${p(x)}.${f}()`),
        ),
        w(
          1,
          fc.tuple(B, I, I).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
        ),
      ),
      uint: node(
        fc.oneof(uintLit, one('u')),
        w(3, bin(U, ['+', '-', '*', '/', '%'], U)),
        w(2, call('uint', fc.oneof(A, I, D, S))),
      ),
      double: node(
        fc.oneof(doubleLit, one('d')),
        w(3, bin(D, ['+', '-', '*', '/'], D)),
        w(
          1,
          D.map((x) => `-${p(x)}`),
        ),
        w(2, call('double', fc.oneof(A, I, U, S))),
      ),
      string: node(
        fc.oneof(w(4, stringLit), w(2, one('s')), w(1, one('v'))),
        w(3, bin(S, ['+'], S)),
        w(2, call('string', A)),
        w(1, fc.oneof(member(S, 'substring', I), member(S, 'substring', I, I), member(S, 'charAt', I))),
        w(
          1,
          fc.constantFrom('lowerAscii', 'upperAscii', 'trim', 'reverse').chain((f) => member(S, f)),
        ),
        w(1, fc.oneof(member(S, 'replace', S, S), member(S, 'replace', S, S, I))),
        w(1, fc.oneof(member(L, 'join'), member(L, 'join', S))),
        w(
          1,
          fc.tuple(formatLit, listOf(A, 2)).map(([f, args]) => `${f}.format(${args})`),
        ),
        w(1, call('strings.quote', S)),
        w(1, call('string', fc.oneof(T, Du, Y, D, U))),
      ),
      bytes: node(fc.oneof(bytesLit, one('by')), w(2, bin(Y, ['+'], Y)), w(2, call('bytes', fc.oneof(S, Y, A)))),
      bool: node(
        fc.oneof(w(4, boolLit), w(2, one('b')), w(1, errorOperand)),
        w(4, bin(B, ['&&', '||'], B)),
        w(
          1,
          B.map((x) => `!${p(x)}`),
        ),
        w(
          1,
          fc.tuple(B, B, B).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
        ),
        // comparisons within a sort, across numeric sorts, and of anything
        w(
          5,
          fc
            .constantFrom<Sort>('int', 'uint', 'double', 'string', 'bytes', 'bool', 'timestamp', 'duration')
            .chain((s) => bin(t(s), cmp, t(s))),
        ),
        w(2, bin(num, cmp, num)),
        w(2, bin(fc.oneof(A, L, M), ['==', '!='], fc.oneof(A, L, M))),
        w(2, fc.oneof(bin(A, ['in'], L), bin(S, ['in'], M), bin(A, ['in'], A))),
        w(
          2,
          fc
            .tuple(fc.oneof(M, A, one('m', 'x', 'm.a', 'x.a', 'x.a.b')), field)
            .map(([o, f]) => `has(${/^[a-z.]+$/.test(o) ? o : p(o)}.${f})`),
        ),
        w(
          1,
          fc.tuple(S, one('contains', 'startsWith', 'endsWith'), S).map(([a, f, b]) => `${p(a)}.${f}(${b})`),
        ),
        w(1, fc.oneof(member(S, 'matches', regexLit), call('matches', S, regexLit))),
        w(
          3,
          fc.constantFrom('all', 'exists', 'exists_one', 'existsOne').chain((n) => macro1(n, B)),
        ),
        w(
          2,
          fc.constantFrom('all', 'exists', 'existsOne', 'exists_one').chain((n) => macro2(n, B)),
        ),
        w(1, member(O, 'hasValue')),
        w(
          1,
          fc.constantFrom('sets.contains', 'sets.equivalent', 'sets.intersects').chain((f) => call(f, L, L)),
        ),
        w(1, call('bool', fc.oneof(S, A))),
      ),
      timestamp: node(
        fc.oneof(
          one('t'),
          timestampText.map((s) => `timestamp(${s})`),
        ),
        w(2, fc.oneof(bin(T, ['+', '-'], Du), bin(Du, ['+'], T))),
        w(1, call('timestamp', fc.oneof(I, S, T, A))),
      ),
      duration: node(
        fc.oneof(
          one('du'),
          durationText.map((s) => `duration(${s})`),
        ),
        w(2, bin(Du, ['+', '-'], Du)),
        w(1, bin(T, ['-'], T)),
        w(1, call('duration', fc.oneof(S, Du, A))),
      ),
      list: node(
        fc.oneof(one('l', '[]', '[1, 2, 3]', '["b", "a", "b"]', '[[1], [2, 3]]'), listOf(intLit)),
        w(
          3,
          fc.constantFrom<Sort>('int', 'string', 'double', 'bool', 'any', 'list').chain((s) => listOf(t(s))),
        ),
        w(
          1,
          fc.tuple(O, A).map(([o, a]) => `[?${o}, ${a}]`),
        ),
        w(2, bin(L, ['+'], L)),
        w(2, macro1('map', A)),
        w(
          1,
          fc.tuple(R, iterVar, B, A).map(([r, v, c, b]) => `${p(r)}.map(${v}, ${c}, ${b})`),
        ),
        w(2, macro1('filter', B)),
        w(1, fc.oneof(macro2('transformList', A), macro2('transformList', B, A))),
        // cel-go's sortBy macro accepts only a list, identifier, comprehension, call or select target
        w(
          1,
          fc.tuple(L, iterVar, A).map(([l, v, k]) => `${p(l)}.sortBy(${v}, ${k})`),
        ),
        w(1, fc.oneof(member(S, 'split', S), member(S, 'split', S, I))),
        w(1, fc.oneof(member(L, 'slice', I, I), member(L, 'flatten'), member(L, 'flatten', I))),
        w(
          1,
          fc.constantFrom('sort', 'reverse', 'distinct').chain((f) => member(L, f)),
        ),
        w(
          1,
          fc.integer({ min: -1, max: 5 }).map((n) => `lists.range(${n})`),
        ),
      ),
      map: node(
        fc.oneof(one('m', '{}', '{"a": 1, "b": {"c": [true]}}', '{1: "one", 2u: "two", true: "t"}')),
        w(
          3,
          fc.array(fc.tuple(key, A), { maxLength: 3 }).map((es) => `{${es.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
        ),
        w(
          1,
          fc.tuple(key, O, key, A).map(([k1, o, k2, v]) => `{?${k1}: ${o}, ${k2}: ${v}}`),
        ),
        w(1, fc.oneof(macro2('transformMap', A), macro2('transformMap', B, A))),
        w(
          1,
          fc
            .tuple(M, iterVars, fc.boolean())
            .map(([m, [k, v], swap]) => `${p(m)}.transformMapEntry(${k}, ${v}, {${swap ? v : k}: ${swap ? k : v}})`),
        ),
      ),
      optional: node(
        fc.oneof(
          one('optional.none()', 'm.?a', 'x.?a', 'x.?a.b', 'l[?0]', 'm[?"__proto__"]'),
          fc.constantFrom(...FIELDS).map((f) => `m.?${f}`),
        ),
        w(2, fc.oneof(call('optional.of', A), call('optional.ofNonZeroValue', A))),
        w(
          2,
          fc.tuple(fc.oneof(M, A), field).map(([o, f]) => `${p(o)}.?${f}`),
        ),
        w(
          2,
          fc.oneof(
            fc.tuple(L, I).map(([l, i]) => `${p(l)}[?${i}]`),
            fc.tuple(M, key).map(([m, k]) => `${p(m)}[?${k}]`),
          ),
        ),
        w(1, member(O, 'or', O)),
        w(
          1,
          fc.tuple(O, iterVar, A).map(([o, v, b]) => `${p(o)}.optMap(${v}, ${b})`),
        ),
        w(
          1,
          fc.tuple(O, iterVar, O).map(([o, v, b]) => `${p(o)}.optFlatMap(${v}, ${b})`),
        ),
        w(1, fc.oneof(member(L, 'first'), member(L, 'last'))),
      ),
      any: node(
        fc.oneof(w(6, one('x', 'y', 'x.a', 'x.a.b', 'm.a', 'null')), w(2, one('v', 'w')), w(1, errorOperand)),
        w(
          8,
          fc
            .constantFrom<Sort>(
              'int',
              'uint',
              'double',
              'string',
              'bytes',
              'bool',
              'timestamp',
              'duration',
              'list',
              'map',
              'optional',
            )
            .chain((s) => t(s)),
        ),
        w(
          2,
          fc.tuple(fc.oneof(M, A), field).map(([o, f]) => `${p(o)}.${f}`),
        ),
        w(
          2,
          fc.oneof(
            fc.tuple(L, I).map(([l, i]) => `${p(l)}[${i}]`),
            fc.tuple(M, key).map(([m, k]) => `${p(m)}[${k}]`),
          ),
        ),
        w(
          1,
          fc.tuple(A, A).map(([a, b]) => `${p(a)}[${b}]`),
        ),
        w(1, fc.oneof(member(O, 'value'), member(O, 'orValue', A))),
        w(1, fc.oneof(call('dyn', A), call('type', A))),
        w(
          1,
          fc.tuple(B, A, A).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
        ),
        w(1, bin(A, ['+', '-', '*', '/', '%'], A)),
      ),
    }
  })
}

/** Any expression (the default shape for fuzzing). */
export function exprArb(options: ExprOptions = {}): fc.Arbitrary<string> {
  return exprArbs(options).any
}
