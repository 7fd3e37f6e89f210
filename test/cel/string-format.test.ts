import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import { checkFormatCall, type FormatArgInfo, formatString } from '../../src/cel/ext/format.js'
import {
  BoolType,
  DoubleType,
  DynType,
  IntType,
  listOf,
  NullType,
  StringType,
  struct,
  type Type,
  UintType,
} from '../../src/cel/types/types.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import { CelMap, type CelValue, Double, Uint } from '../../src/cel/values/values.js'

// Expected values: cel-go v0.26 ext/formatting_test.go (TestStringFormat, the v1 formatter with x/text
// output), cel-spec string_ext.textproto `format` / `format_errors` cases that v1 shares, and
// golang.org/x/text/message (ExamplePrinter_numbers: en prints 123456.78 as "123,456.78").
// Scientific notation (%e) follows the golang.org/x/text Kubernetes vendors (≥ v0.23.0 since 1.33):
// x/text 221d88c "fix scientific notation by removing extraneous spaces" dropped the
// U+202F on both sides of × (internal/number/format.go appendScientific), and kubernetes
// apiextensions-apiserver release-1.34+ pkg/apiserver/schema/cel/validation_test.go expects
// `'%e'.format([3.14]) == '3.140000×10⁰⁰'`. cel-go's formatting_test.go pins x/text v0.22.0 and
// expects `2.718280\u202f\u00d7\u202f10\u2070\u2070`; those cases are kept with the separators removed.

const fmt = (f: string, ...args: CelValue[]) => formatString(f, args)
function fmtError(f: string, ...args: CelValue[]): string {
  try {
    formatString(f, args)
  } catch (e) {
    expect(e).toBeInstanceOf(ErrorValue)
    return (e as ErrorValue).message
  }
  throw new Error(`expected ${f} to fail`)
}
const ts = (iso: string) => new Timestamp(Date.parse(iso) / 1000, 0)
const NS = 1_000_000_000n
// biome-ignore lint/suspicious/noApproximativeNumericConstant: the argument formatting_test.go uses
const E5 = 2.71828

describe('string.format: formatting_test.go TestStringFormat', () => {
  it('plain text and percent escapes', () => {
    expect(fmt('no substitution')).toBe('no substitution')
    expect(fmt('str is %s and some more', 'filler')).toBe('str is filler and some more')
    expect(fmt('%% and also %%')).toBe('% and also %')
    expect(fmt('%%%s%%', 'text')).toBe('%text%')
    expect(fmt('%s%%', 'percent on the right')).toBe('percent on the right%')
    expect(fmt('%%%s', 'percent on the left')).toBe('%percent on the left')
    expect(fmt('\u0025\u0025escaped \u0025s\u0025\u0025', 'percent')).toBe('%escaped percent%')
    expect(fmt('%d %d %d, %s %s %s, %d %d %d, %s %s %s', 1, 2, 3, 'A', 'B', 'C', 4, 5, 6, 'D', 'E', 'F')).toBe(
      '1 2 3, A B C, 4 5 6, D E F',
    )
  })

  it('integer clauses', () => {
    expect(fmt('this is 5 in binary: %b', 5)).toBe('this is 5 in binary: 101')
    expect(fmt('this is -5 in binary: %b', -5)).toBe('this is -5 in binary: -101')
    expect(fmt('unsigned 64 in binary: %b', new Uint(64n))).toBe('unsigned 64 in binary: 1000000')
    expect(fmt('bit set from bool: %b', true)).toBe('bit set from bool: 1')
    expect(fmt('%o', 11)).toBe('13')
    expect(fmt('%o', -11)).toBe('-13')
    expect(fmt('this is an unsigned octal: %o', new Uint(65535n))).toBe('this is an unsigned octal: 177777')
    expect(fmt('%x is 30 in hexadecimal', 30)).toBe('1e is 30 in hexadecimal')
    expect(fmt('%X is 20 in hexadecimal', 30)).toBe('1E is 20 in hexadecimal')
    expect(fmt('%x is -30 in hexadecimal', -30)).toBe('-1e is -30 in hexadecimal')
    expect(fmt('%X is 6000 in hexadecimal', new Uint(6000n))).toBe('1770 is 6000 in hexadecimal')
    expect(fmt('%d', new Uint(64n))).toBe('64')
    expect(fmt('dynamic int: %d', 128)).toBe('dynamic int: 128')
    expect(fmt('dynamic hex int: %x', 22)).toBe('dynamic hex int: 16')
    expect(fmt('dynamic hex int: %X (uppercase)', 26)).toBe('dynamic hex int: 1A (uppercase)')
    expect(fmt('dynamic hex int: %x (unsigned)', new Uint(500n))).toBe('dynamic hex int: 1f4 (unsigned)')
    // Go fmt %d / %x of int64 extremes
    expect(fmt('%d %x', -9223372036854775808n, -9223372036854775808n)).toBe('-9223372036854775808 -8000000000000000')
  })

  it('hex of strings and bytes', () => {
    expect(fmt('%x', 'Hello world!')).toBe('48656c6c6f20776f726c6421')
    expect(fmt('%X', 'Hello world!')).toBe('48656C6C6F20776F726C6421')
    const bytes = new TextEncoder().encode('byte string')
    expect(fmt('%x', bytes)).toBe('6279746520737472696e67')
    expect(fmt('%X', bytes)).toBe('6279746520737472696E67')
    expect(fmt('%x', new Uint8Array([0, 0, ...bytes, 0]))).toBe('00006279746520737472696e6700')
  })

  it('fixed-point and scientific clauses (x/text en_US)', () => {
    expect(fmt('%.3f', 1.2345)).toBe('1.234')
    expect(fmt('%f', E5)).toBe('2.718280')
    expect(fmt('dynamic double: %.3f', 4.5)).toBe('dynamic double: 4.500')
    expect(fmt('message field msg.single_double: %.1f', new Double(1))).toBe('message field msg.single_double: 1.0')
    expect(fmt('%.6e', 1052.032911275)).toBe('1.052033\u00d710\u2070\u00b3')
    expect(fmt('%e', E5)).toBe('2.718280\u00d710\u2070\u2070')
    expect(fmt('unescaped unicode: %e, escaped unicode: %e', E5, E5)).toBe(
      'unescaped unicode: 2.718280×10⁰⁰, escaped unicode: 2.718280\u00d710\u2070\u2070',
    )
    expect(fmt('%f', 'NaN')).toBe('NaN')
    expect(fmt('%f', 'Infinity')).toBe('∞')
    expect(fmt('%f', '-Infinity')).toBe('-∞')
    expect(fmt('NaN: %f, infinity: %f', Number.NaN, Number.POSITIVE_INFINITY)).toBe('NaN: NaN, infinity: ∞')
  })

  it('%s of scalars', () => {
    expect(fmt('%s', 2.71)).toBe('2.71')
    expect(fmt('%s', 0.000000002)).toBe('2e-09')
    expect(fmt('%s', Number.NaN)).toBe('NaN')
    expect(fmt('%s', Number.POSITIVE_INFINITY)).toBe('+Inf')
    expect(fmt('%s', Number.NEGATIVE_INFINITY)).toBe('-Inf')
    expect(fmt('null: %s', null)).toBe('null: null')
    expect(fmt('%s', 999999999999)).toBe('999999999999')
    expect(fmt('some bytes: %s', new TextEncoder().encode('xyz'))).toBe('some bytes: xyz')
    expect(fmt('type is %s', StringType)).toBe('type is string')
    expect(fmt('%s', ts('2023-02-03T23:31:20Z'))).toBe('2023-02-03T23:31:20Z')
    expect(fmt('dyntype timestamp: %s', ts('2009-11-10T23:00:00Z'))).toBe('dyntype timestamp: 2009-11-10T23:00:00Z')
    expect(fmt('%s', new Duration(6347n * NS))).toBe('6347s')
    expect(fmt('%s', new Duration(2n))).toBe('0.000000002s')
    expect(fmt('dyntype duration: %s', new Duration(8747n * NS))).toBe('dyntype duration: 8747s')
    expect(fmt('true bool: %s, false bool: %s', true, false)).toBe('true bool: true, false bool: false')
    expect(fmt('dynIntStr: %s dynDoubleStr: %s', 32, 56.8)).toBe('dynIntStr: 32 dynDoubleStr: 56.8')
  })

  it('%s of lists and maps prints CEL literals', () => {
    expect(fmt('%s', [2.71])).toBe('[2.710000]')
    expect(fmt('%s', [0.000000002])).toBe('[0.000000]')
    expect(fmt('%s', [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])).toBe('["NaN", "+Inf", "-Inf"]')
    expect(fmt('%s', ['abc', 3.14, null, [9, 8, 7, 6], ts('2023-02-03T23:31:20Z')])).toBe(
      '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]',
    )
    const m = Object.assign(Object.create(null), {
      key1: new TextEncoder().encode('xyz'),
      key5: null,
      key2: new Duration(7200n * NS),
      key4: true,
      key3: E5,
    })
    expect(fmt('%s', m)).toBe('{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}')
    const keys = new CelMap(
      new Map<number | bigint | string | boolean, [CelValue, CelValue]>([
        [1, [1, 'value1']],
        [2, [new Uint(2n), 'value2']],
        [true, [true, Number.NaN]],
      ]),
    )
    expect(fmt('map with multiple key types: %s', keys)).toBe(
      'map with multiple key types: {1:"value1", 2:"value2", true:"NaN"}',
    )
    const dyn = new CelMap(
      new Map<number | bigint | string | boolean, [CelValue, CelValue]>([
        ['strKey', ['strKey', 'x']],
        [true, [true, 42]],
        [6, [6, new Duration(422n * NS)]],
      ]),
    )
    expect(fmt('dyntype map: %s', dyn)).toBe('dyntype map: {"strKey":"x", 6:duration("422s"), true:42}')
    expect(fmt('dyntype list: %s', [6, 4.2, 'a string'])).toBe('dyntype list: [6, 4.200000, "a string"]')
    // TestStringFormatHeterogeneousLiterals
    expect(fmt('list: %s', [[1, 2, [new Double(3), 4]]])).toBe('list: [[1, 2, [3.000000, 4]]]')
    expect(fmt('list element: %s', [1, 2, [new Double(3), 4]])).toBe('list element: [1, 2, [3.000000, 4]]')
  })

  it('runtime errors', () => {
    expect(fmtError('%a', 1)).toBe('could not parse formatting clause: unrecognized formatting clause "a"')
    expect(fmtError('%d %d %d', 0, 1)).toBe('index 2 out of range')
    expect(fmtError('string is %b', 'abc')).toBe(
      'error during formatting: only integers and bools can be formatted as binary, was given string',
    )
    expect(fmtError('%d', new Duration(1802n * NS))).toBe(
      'error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration',
    )
    expect(fmtError('octal: %o', 'a string')).toBe(
      'error during formatting: octal clause can only be used on integers, was given string',
    )
    expect(fmtError('double is %x', 0.5)).toBe(
      'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double',
    )
    expect(fmtError('double is %E', 0.5)).toBe('could not parse formatting clause: unrecognized formatting clause "E"')
    const nul: [string, string][] = [
      ['%d', 'decimal clause can only be used on integers'],
      ['%e', 'scientific clause can only be used on doubles'],
      ['%f', 'fixed-point clause can only be used on doubles'],
      ['%x', 'only integers, byte buffers, and strings can be formatted as hex'],
      ['%X', 'only integers, byte buffers, and strings can be formatted as hex'],
      ['%b', 'only integers and bools can be formatted as binary'],
      ['%o', 'octal clause can only be used on integers'],
    ]
    for (const [clause, msg] of nul) {
      expect(fmtError(`null: ${clause}`, null)).toBe(`error during formatting: ${msg}, was given null_type`)
    }
    expect(fmtError('%s %s', 'abc')).toBe('index 1 out of range')
    expect(fmtError('filler %')).toBe('index 0 out of range')
    expect(fmtError('filler %', 1)).toBe('unexpected end of string')
    expect(fmtError('double is %.34', 5)).toBe(
      'could not parse formatting clause: error while parsing precision: could not find end of precision specifier',
    )
  })
})

describe('string.format: cel-spec string_ext.textproto cases shared by the v1 formatter', () => {
  it('rounding of %f (Go strconv: round half to even on the exact value)', () => {
    expect(fmt('%.0f', new Double(123))).toBe('123')
    expect(fmt('%.0f', 3.5001)).toBe('4')
    expect(fmt('%.0f', 3.4999)).toBe('3')
    expect(fmt('%.0f', 1.5)).toBe('2')
    expect(fmt('%.0f', 2.5)).toBe('2')
    expect(fmt('%.3f', 123.4999)).toBe('123.500')
    expect(fmt('%.3f', 123.4994)).toBe('123.499')
    expect(fmt('%.3f', -123.4999)).toBe('-123.500')
    expect(fmt('%.3f', -123.4994)).toBe('-123.499')
    expect(fmt('%.5f', -1.2)).toBe('-1.20000')
    expect(fmt('%s', [1, 2, 3])).toBe('[1, 2, 3]')
  })
})

describe('string.format: x/text grouping and Go printf details', () => {
  it('groups the integer part of %f by thousands (ExamplePrinter_numbers: en 123,456.78)', () => {
    expect(fmt('%.2f', 123456.78)).toBe('123,456.78')
    expect(fmt('%f', -1234.5)).toBe('-1,234.500000')
    expect(fmt('%.0f', 1e21)).toBe('1,000,000,000,000,000,000,000')
  })
  it('keeps doubles inside lists ungrouped (plain Go %.6f)', () => {
    expect(fmt('%s', [1234.5])).toBe('[1234.500000]')
  })
  it('prints a non-ASCII clause letter as Go reads it: one byte', () => {
    // Go: rune(formatStr[i]) of "é" (0xC3 0xA9) is U+00C3
    expect(fmtError('%é', 1)).toBe('could not parse formatting clause: unrecognized formatting clause "Ã"')
  })
  it('reports strconv.Atoi failures of the precision', () => {
    expect(fmtError('%.f', 1.5)).toBe(
      'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax',
    )
  })
})

describe('checkFormatCall (cel-go stringFormatValidator)', () => {
  let nextId = 10
  const arg = (type: Type, extra: Partial<FormatArgInfo> = {}): FormatArgInfo => ({ id: nextId++, type, ...extra })
  const CALL = 1

  it('accepts well-typed calls', () => {
    expect(
      checkFormatCall(
        '%s %d %f %e %b %x %o %%',
        [arg(StringType), arg(IntType), arg(DoubleType), arg(StringType), arg(BoolType), arg(UintType), arg(IntType)],
        CALL,
      ),
    ).toBeUndefined()
    expect(checkFormatCall('%d', [arg(DynType)], CALL)).toBeUndefined()
    expect(checkFormatCall('%s', [arg(NullType)], CALL)).toBeUndefined()
  })

  it('reports cardinality and syntax errors at the call', () => {
    expect(checkFormatCall('%s %s', [arg(StringType)], CALL)).toEqual({ message: 'index 1 out of range', id: CALL })
    expect(checkFormatCall('%s %s', [arg(StringType), arg(StringType), arg(StringType)], CALL)).toEqual({
      message: 'too many arguments supplied to string.format (expected 2, got 3)',
      id: CALL,
    })
    expect(checkFormatCall('filler %', [], CALL)).toEqual({ message: 'unexpected end of string', id: CALL })
    expect(checkFormatCall('%j', [arg(IntType)], CALL)).toEqual({
      message: 'could not parse formatting clause: unrecognized formatting clause "j"',
      id: CALL,
    })
    expect(checkFormatCall('double is %.34', [arg(DoubleType)], CALL)?.message).toBe(
      'could not parse formatting clause: error while parsing precision: could not find end of precision specifier',
    )
  })

  it('reports clause/type mismatches at the argument', () => {
    const cases: [string, Type, string][] = [
      ['int is %d', DoubleType, 'decimal clause can only be used on integers, was given double'],
      ['double is %f', BoolType, 'fixed-point clause can only be used on doubles, was given bool'],
      ['double is %e', BoolType, 'scientific clause can only be used on doubles, was given bool'],
      ['string is %b', StringType, 'only integers and bools can be formatted as binary, was given string'],
      [
        '%x is a double',
        DoubleType,
        'only integers, byte buffers, and strings can be formatted as hex, was given double',
      ],
      [
        '%X is a double',
        DoubleType,
        'only integers, byte buffers, and strings can be formatted as hex, was given double',
      ],
      ['an octal: %o', DoubleType, 'octal clause can only be used on integers, was given double'],
    ]
    for (const [f, t, msg] of cases) {
      const a = arg(t)
      expect(checkFormatCall(f, [a], CALL)).toEqual({ message: `error during formatting: ${msg}`, id: a.id })
    }
  })

  it('checks %s inside list literals element by element', () => {
    const obj = arg(struct('ext.TestAllTypes'))
    const list = arg(listOf(DynType), { elements: [arg(IntType), arg(IntType), obj] })
    expect(checkFormatCall('list is %s', [list], CALL)).toEqual({
      message:
        'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ext.TestAllTypes',
      id: obj.id,
    })
  })
})

describe('string.format: derived from the Go sources (x/text internal/number, strconv)', () => {
  it('rounds tiny %f values to zero without printing extra digits', () => {
    expect(fmt('%.2f', 0.0004)).toBe('0.00')
    expect(fmt('%.2f', 0.006)).toBe('0.01')
    expect(fmt('%.2f', -0.0004)).toBe('-0.00') // x/text keeps the sign of a negative input
    expect(fmt('%s', [-0.0000001])).toBe('[-0.000000]')
  })
  it('prints negative exponents of %e with a superscript minus (internal/number superMinus)', () => {
    expect(fmt('%e', 0.001)).toBe('1.000000×10\u207b\u2070\u00b3')
    expect(fmt('%e', new Double(-123456789))).toBe('-1.234568×10\u2070\u2078')
  })
  it('uses the %e precision as a width (cel-go builds "%<p>e"), padding on the left', () => {
    expect(fmt('%.3e', 2.5)).toBe('2.500000×10\u2070\u2070')
    expect(fmt('%.20e', 2.5)).toBe('       2.500000×10\u2070\u2070') // 13 code points, padded to 20
    expect(fmt('%e', 'NaN')).toBe('   NaN')
  })
})
