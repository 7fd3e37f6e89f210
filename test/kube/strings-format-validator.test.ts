import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/program.js'
import { DynType } from '../../src/cel/types/types.js'
import { kubeEnv } from '../../src/kube/environment.js'

// Compile-time behaviour of `string.format` in Kubernetes (ext.Strings(StringsVersion(2)), base.go
// entry 7, from 1.29): cel-go v0.26.0 ext/strings.go adds cel.ASTValidators(stringFormatValidator{})
// for versions 1–3, and ext/formatting.go's stringFormatValidator (a) exempts every literal inside a
// `format` call from the homogeneous aggregate literal validator (Configure, adding "format" to
// cel.HomogeneousAggregateLiteralExemptFunctions), and (b) parses a constant format string whose
// argument is a list literal, checking each clause against its argument's type and the argument
// count. Issues are reported at the argument for a type error (getErrorExprID), else at the call;
// cel-go's parser positions a member call at its `(` (parser/parser.go VisitMemberCall) and a global
// call at its `(` too.

const env = kubeEnv({ variables: { self: DynType } })

function compileError(expr: string): string {
  try {
    compile(expr, { env })
  } catch (e) {
    return (e as Error).message
  }
  return '(no error)'
}

/** cel-go's one-issue display: `ERROR: <input>:1:<col>: <msg>`, the line, and a caret under column col. */
function issue(expr: string, col: number, message: string): string {
  return `ERROR: <input>:1:${col}: ${message}\n | ${expr}\n | ${'.'.repeat(col - 1)}^`
}

describe('heterogeneous list literals passed to format compile (cel-go v0.26.0 ext/formatting.go Configure)', () => {
  it("'%s has %d replicas'.format(['web', 3])", () => {
    expect(compile("'%s has %d replicas'.format(['web', 3])", { env }).evaluate()).toBe('web has 3 replicas')
  })
  it('cel-go v0.26.0 ext/formatting_test.go TestStringFormatHeterogeneousLiterals', () => {
    const cases: [string, string][] = [
      [`"list: %s".format([[[1, 2, [3.0, 4]]]])`, 'list: [[1, 2, [3.000000, 4]]]'],
      [`"list size: %d".format([[[1, 2, [3.0, 4]]].size()])`, 'list size: 1'],
      [`"list element: %s".format([[[1, 2, [3.0, 4]]][0]])`, 'list element: [1, 2, [3.000000, 4]]'],
    ]
    for (const [expr, out] of cases) expect(compile(expr, { env }).evaluate()).toBe(out)
  })
  it('the exemption covers any depth inside the call, including macro bodies (cel/validator.go inExemptFunction)', () => {
    expect(compile("'%s'.format([[1].map(x, [x, 'a'])])", { env }).evaluate()).toBe('[[1, "a"]]')
    expect(compile("'%s'.format([{'a': 1, 2: 'b'}])", { env }).evaluate()).toBe('{"a":1, 2:"b"}')
  })
  it('outside a format call the literal is still rejected (cel/validator.go)', () => {
    const expr = "[[1, 'a']].size() == 1 && '%s'.format([[1, 'a']]) != ''"
    expect(compileError(expr)).toBe(issue(expr, 6, "expected type 'int' but found 'string'"))
  })
})

describe('cel-go v0.26.0 ext/formatting_test.go TestStringFormat: compile-time checks', () => {
  // The test builds `fmt.Sprintf("%q.format([%s])", format, formatArgs)` and matches the error text;
  // StringsValidateFormatCalls is deprecated and does nothing in v0.26, so the cases marked
  // skipCompileCheck fail at compile time too.
  const cases: [name: string, expr: string, col: number, message: string][] = [
    ['compile-time cardinality check (too few for string)', '"%s %s".format(["abc"])', 15, 'index 1 out of range'],
    [
      'compile-time cardinality check (too many for string)',
      '"%s %s".format(["abc", "def", "ghi"])',
      15,
      'too many arguments supplied to string.format (expected 2, got 3)',
    ],
    ['compile-time syntax check (unexpected end of string)', '"filler %".format([])', 18, 'unexpected end of string'],
    [
      'compile-time syntax check (unrecognized formatting clause)',
      '"%j".format([123])',
      12,
      'could not parse formatting clause: unrecognized formatting clause "j"',
    ],
    [
      'compile-time %d check',
      '"int is %d".format([5.2])',
      21,
      'error during formatting: decimal clause can only be used on integers, was given double',
    ],
    [
      'compile-time %f check',
      '"double is %f".format([true])',
      24,
      'error during formatting: fixed-point clause can only be used on doubles, was given bool',
    ],
    [
      'compile-time precision syntax check',
      '"double is %.34".format([5.0])',
      24,
      'could not parse formatting clause: error while parsing precision: could not find end of precision specifier',
    ],
    [
      'compile-time %e check',
      '"double is %e".format([true])',
      24,
      'error during formatting: scientific clause can only be used on doubles, was given bool',
    ],
    [
      'compile-time %b check',
      '"string is %b".format(["a string"])',
      24,
      'error during formatting: only integers and bools can be formatted as binary, was given string',
    ],
    [
      'compile-time %x check',
      '"%x is a double".format([2.5])',
      26,
      'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double',
    ],
    [
      'compile-time %X check',
      '"%X is a double".format([2.5])',
      26,
      'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double',
    ],
    [
      'compile-time %o check',
      '"an octal: %o".format([3.14])',
      24,
      'error during formatting: octal clause can only be used on integers, was given double',
    ],
    [
      'unrecognized formatting clause',
      '"%a".format([1])',
      12,
      'could not parse formatting clause: unrecognized formatting clause "a"',
    ],
    ['out of bounds arg index', '"%d %d %d".format([0, 1])', 18, 'index 2 out of range'],
    [
      'string substitution is not allowed with binary clause',
      '"string is %b".format(["abc"])',
      24,
      'error during formatting: only integers and bools can be formatted as binary, was given string',
    ],
    [
      'duration substitution not allowed with decimal clause',
      '"%d".format([duration("30m2s")])',
      22,
      'error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration',
    ],
    [
      'uppercase not allowed for scientific clause',
      '"%E".format([6])',
      12,
      'could not parse formatting clause: unrecognized formatting clause "E"',
    ],
    [
      'null not allowed for %d',
      '"null: %d".format([null])',
      20,
      'error during formatting: decimal clause can only be used on integers, was given null_type',
    ],
    [
      'null not allowed for %o',
      '"null: %o".format([null])',
      20,
      'error during formatting: octal clause can only be used on integers, was given null_type',
    ],
  ]
  for (const [name, expr, col, message] of cases) {
    it(name, () => expect(compileError(expr)).toBe(issue(expr, col, message)))
  }
})

describe('cel-go v0.26.0 ext/formatting.go stringFormatChecker: argument types', () => {
  it('dyn arguments pass every clause (verifyTypeOneOf)', () => {
    for (const clause of ['s', 'd', 'f', 'e', 'b', 'x', 'X', 'o'])
      expect(compileError(`'%${clause}'.format([self.x])`)).toBe('(no error)')
  })
  it('%s accepts lists and maps, whose literal elements are checked one by one (verifyString)', () => {
    expect(compileError("'%s %s %s %s %s'.format([[1, 2], {'a': b'x'}, type(1), duration('1s'), null])")).toBe(
      '(no error)',
    )
    const expr = "'%s'.format([[1, quantity('1')]])"
    expect(compileError(expr)).toBe(
      issue(
        expr,
        26,
        'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given kubernetes.Quantity',
      ),
    )
  })
  it('a non-literal format string or argument list is not checked (matchConstantFormatStringWithListLiteralArgs)', () => {
    expect(compileError("('%d' + '').format([1.5])")).toBe('(no error)')
    expect(compileError("'%d'.format(self.args)")).toBe('(no error)')
    expect(compileError("'%d'.format([1.5][0:1])")).toMatch(/^ERROR/) // no slicing in CEL: a parse error
  })
  it('issues of every validator are reported together, sorted by position (cel/env.go Env.Check)', () => {
    const expr = "[1, 'a'].size() == 2 && '%d'.format([]) == '' && duration('1x') == duration('1s')"
    expect(compileError(expr)).toBe(
      [
        issue(expr, 5, "expected type 'int' but found 'string'"),
        issue(expr, 36, 'index 0 out of range'),
        issue(expr, 59, 'invalid duration argument'),
      ].join('\n'),
    )
  })
})
