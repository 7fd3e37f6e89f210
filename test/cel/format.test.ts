import { describe, expect, it } from 'vitest'
import { IntType, listOf } from '../../src/cel/types/types.js'
import {
  formatDouble,
  formatDuration,
  formatTimestamp,
  formatValue,
  goValueString,
} from '../../src/cel/values/format.js'
import { buildMap } from '../../src/cel/values/maps.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import { Double, Optional, Uint } from '../../src/cel/values/values.js'

// A CEL double literal as the parser reads it (Go ParseFloat and JS Number round alike).
const lit = (s: string) => Number(s)

describe('formatDouble (Go strconv.FormatFloat(x, g, -1, 64) / fmt %g)', () => {
  // Expected strings: Go src/strconv/ftoa_test.go ftoatests, 'g' with precision -1.
  it.each([
    [0, '0'],
    [-1, '-1'],
    [12, '12'],
    [32, '32'],
    [123456700, '1.234567e+08'],
    [lit('108678236358137.625'), '1.0867823635813762e+14'],
    [1e23, '1e+23'],
    [lit('99999999999999974834176'), '9.999999999999997e+22'], // below1e23
    [lit('100000000000000008388608'), '1.0000000000000001e+23'], // above1e23
    [5e-324, '5e-324'],
    [-5e-324, '-5e-324'],
  ])('ftoa_test %d → %s', (x, want) => {
    expect(formatDouble(x)).toBe(want)
  })

  it('prints +Inf, -Inf and NaN as Go does (ftoa_test.go)', () => {
    expect(formatDouble(Number.POSITIVE_INFINITY)).toBe('+Inf')
    expect(formatDouble(Number.NEGATIVE_INFINITY)).toBe('-Inf')
    expect(formatDouble(Number.NaN)).toBe('NaN')
  })

  it('switches to exponent form at 1e6 and below 1e-4 (Go %g with shortest precision)', () => {
    // cel-spec conversions.textproto: string(123.456) == "123.456", string(-4.5e-3) == "-0.0045";
    // cel-go standard.go doc: string(-1.23e4) // '-12300'; spec §B.12: string(1e6) == "1e+06".
    expect(formatDouble(123.456)).toBe('123.456')
    expect(formatDouble(-4.5e-3)).toBe('-0.0045')
    expect(formatDouble(-1.23e4)).toBe('-12300')
    expect(formatDouble(1e6)).toBe('1e+06')
    expect(formatDouble(1234567)).toBe('1.234567e+06')
    expect(formatDouble(100000)).toBe('100000')
    expect(formatDouble(1e-5)).toBe('1e-05')
    expect(formatDouble(0.0001)).toBe('0.0001')
    expect(formatDouble(0.1)).toBe('0.1')
    expect(formatDouble(1e100)).toBe('1e+100')
  })

  it('keeps the sign of negative zero (Go prints -0)', () => {
    expect(formatDouble(-0)).toBe('-0')
  })
})

describe('goValueString (Go %v of cel-go values in error messages)', () => {
  it('prints strings raw, uints without suffix and doubles as %g', () => {
    // interpreter/attributes.go: fmt.Sprintf("no such key: %v", key)
    expect(goValueString('foo')).toBe('foo')
    expect(goValueString(new Uint(7n))).toBe('7')
    expect(goValueString(1.5)).toBe('1.5')
    expect(goValueString(new Double(5))).toBe('5')
    expect(goValueString(-9223372036854775808n)).toBe('-9223372036854775808')
    expect(goValueString(true)).toBe('true')
  })
})

describe('formatValue (CEL-literal display)', () => {
  it('formats scalars as CEL literals', () => {
    expect(formatValue(null)).toBe('null')
    expect(formatValue(42)).toBe('42')
    expect(formatValue(new Uint(42n))).toBe('42u')
    expect(formatValue(new Double(1))).toBe('1.0')
    expect(formatValue(new Double(-0))).toBe('-0.0')
    expect(formatValue(2.5)).toBe('2.5')
    expect(formatValue(1e21)).toBe('1e+21')
    expect(formatValue(Number.NaN)).toBe('double("NaN")')
    expect(formatValue('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"')
    expect(formatValue(new Uint8Array([0, 97, 98, 255]))).toBe('b"\\x00ab\\xff"')
  })

  it('formats aggregates, optionals, types, timestamps and durations', () => {
    expect(formatValue([1, 'a'])).toBe('[1, "a"]')
    expect(formatValue(buildMap(['a'], [1]))).toBe('{"a": 1}')
    expect(formatValue(buildMap([1, true], ['x', null]))).toBe('{1: "x", true: null}')
    expect(formatValue(Optional.none)).toBe('optional.none()')
    expect(formatValue(new Optional(1))).toBe('optional.of(1)')
    expect(formatValue(IntType)).toBe('int')
    expect(formatValue(listOf(IntType))).toBe('list')
    expect(formatValue(new Timestamp(0, 0))).toBe('timestamp("1970-01-01T00:00:00Z")')
    expect(formatValue(new Duration(1500000000n))).toBe('duration("1.5s")')
  })

  it('prints timestamps as RFC 3339 with trimmed nanoseconds and durations as seconds', () => {
    // cel-go timestamp.go: t.Format(time.RFC3339Nano); duration.go: seconds + "s" ("5400s" for 1h30m).
    expect(formatTimestamp(new Timestamp(1095379199, 0))).toBe('2004-09-16T23:59:59Z')
    expect(formatTimestamp(new Timestamp(-62135596800, 1))).toBe('0001-01-01T00:00:00.000000001Z')
    expect(formatTimestamp(new Timestamp(253402300799, 999999999))).toBe('9999-12-31T23:59:59.999999999Z')
    expect(formatDuration(new Duration(5400000000000n))).toBe('5400s')
    expect(formatDuration(new Duration(-1000n))).toBe('-0.000001s')
  })
})
