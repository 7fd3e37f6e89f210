import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import type { OverloadDecl } from '../../src/cel/functions.js'
import {
  bytesToString,
  conversionFunctions,
  parseGoFloat,
  stringToBool,
  stringToBytes,
  stringToDouble,
  stringToInt,
  stringToUint,
} from '../../src/cel/stdlib/conversions.js'
import { IntType, ListType, listOf, TypeType } from '../../src/cel/types/types.js'
import { buildMap } from '../../src/cel/values/maps.js'
import { Duration, Timestamp } from '../../src/cel/values/time.js'
import { typeValueOf } from '../../src/cel/values/typeof.js'
import { type CelValue, Double, OpaqueValue, Optional, Uint } from '../../src/cel/values/values.js'

// A CEL double literal as the parser reads it (Go ParseFloat and JS Number round alike).
const lit = (s: string) => Number(s)

// Expected values: cel-spec tests/simple/testdata/conversions.textproto (test names quoted), cel-go
// common/types/{int,uint,double,string,bytes}.go ConvertToType and overflow.go error texts, and Go
// strconv's own tests (atof_test.go) for ParseFloat syntax.

const u = (v: bigint | number) => new Uint(BigInt(v))
const d = (v: number) => new Double(v)

function conv(id: string): OverloadDecl['impl'] {
  for (const f of conversionFunctions) for (const o of f.overloads) if (o.id === id) return o.impl
  throw new Error(`no overload ${id}`)
}

function thrown(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    if (e instanceof ErrorValue) return e.message
    throw e
  }
  throw new Error('expected an ErrorValue')
}

describe('int()', () => {
  it('converts uints, doubles and strings (conversions int)', () => {
    expect(conv('uint64_to_int64')(u(42))).toBe(42) // uint
    expect(conv('uint64_to_int64')(u(9223372036854775807n))).toBe(9223372036854775807n) // uint_max_exact
    expect(conv('double_to_int64')(-123.456)).toBe(-123) // double_round_neg
    expect(conv('double_to_int64')(1.9)).toBe(1) // double_truncate
    expect(conv('double_to_int64')(-7.9)).toBe(-7) // double_truncate_neg
    expect(conv('double_to_int64')(11.5)).toBe(11) // double_half_pos
    expect(conv('double_to_int64')(-3.5)).toBe(-3) // double_half_neg
    expect(conv('double_to_int64')(36028797018963968)).toBe(36028797018963968n) // double_big_exact
    expect(conv('double_to_int64')(d(-0))).toBe(0)
    expect(stringToInt('987')).toBe(987) // string
    expect(stringToInt('-456')).toBe(-456)
    expect(stringToInt('+12')).toBe(12)
    expect(stringToInt('-9223372036854775808')).toBe(-9223372036854775808n)
    expect(stringToInt('0009007199254740993')).toBe(9007199254740993n)
    expect(Object.is(stringToInt('-0'), 0)).toBe(true)
    expect(conv('int64_to_int64')(5)).toBe(5)
  })

  it('reports range errors as cel-go does', () => {
    // uint_range; overflow.go uint64ToInt64Checked
    expect(thrown(() => conv('uint64_to_int64')(u(18446744073709551615n)))).toBe('integer overflow')
    // double_int_max_range, double_int_min_range, double_range; doubleToInt64Checked
    expect(thrown(() => conv('double_to_int64')(lit('9223372036854775807')))).toBe('integer overflow')
    expect(thrown(() => conv('double_to_int64')(lit('-9223372036854775808')))).toBe('integer overflow')
    expect(thrown(() => conv('double_to_int64')(1e99))).toBe('integer overflow')
    expect(thrown(() => conv('double_to_int64')(Number.NaN))).toBe('integer overflow')
    expect(thrown(() => conv('double_to_int64')(Number.NEGATIVE_INFINITY))).toBe('integer overflow')
    // string.go ConvertToType: failed strconv.ParseInt falls through to the generic conversion error
    expect(thrown(() => stringToInt('9223372036854775808'))).toBe("type conversion error from 'string' to 'int'")
    expect(thrown(() => stringToInt('1.5'))).toBe("type conversion error from 'string' to 'int'")
    expect(thrown(() => stringToInt(''))).toBe("type conversion error from 'string' to 'int'")
    expect(thrown(() => stringToInt(' 1'))).toBe("type conversion error from 'string' to 'int'")
    expect(thrown(() => stringToInt('1_000'))).toBe("type conversion error from 'string' to 'int'")
    expect(thrown(() => stringToInt('0x10'))).toBe("type conversion error from 'string' to 'int'")
  })
})

describe('uint()', () => {
  it('converts ints, doubles and strings (conversions uint)', () => {
    expect(conv('int64_to_uint64')(1729)).toEqual(u(1729)) // int
    expect(conv('int64_to_uint64')(9223372036854775807n)).toEqual(u(9223372036854775807n)) // int_max
    expect(conv('double_to_uint64')(lit('3.14159265'))).toEqual(u(3)) // double
    expect(conv('double_to_uint64')(25.5)).toEqual(u(25)) // double_half
    expect(conv('double_to_uint64')(36028797018963968)).toEqual(u(36028797018963968n)) // double_big_exact
    expect(stringToUint('300')).toEqual(u(300)) // string
    expect(stringToUint('18446744073709551615')).toEqual(u(18446744073709551615n))
  })

  it('reports range errors as cel-go does', () => {
    expect(thrown(() => conv('int64_to_uint64')(-1))).toBe('unsigned integer overflow') // int_neg
    expect(thrown(() => conv('double_to_uint64')(6.022e23))).toBe('unsigned integer overflow') // double_range_beyond_uint
    expect(thrown(() => conv('double_to_uint64')(-0.5))).toBe('unsigned integer overflow')
    expect(thrown(() => conv('double_to_uint64')(2 ** 64))).toBe('unsigned integer overflow')
    expect(thrown(() => stringToUint('-1'))).toBe("type conversion error from 'string' to 'uint'")
    expect(thrown(() => stringToUint('+1'))).toBe("type conversion error from 'string' to 'uint'")
    expect(thrown(() => stringToUint('18446744073709551616'))).toBe("type conversion error from 'string' to 'uint'")
  })
})

describe('double()', () => {
  it('converts ints, uints and strings (conversions double)', () => {
    expect(conv('int64_to_double')(0)).toEqual(d(0)) // int_zero
    expect(conv('int64_to_double')(-1000000000000000)).toEqual(d(-1000000000000000)) // int_neg
    expect(conv('int64_to_double')(-9007199254740992n)).toBe(-9007199254740992) // int_min_exact
    expect(conv('int64_to_double')(9223372036854775807n)).toBe(lit('9223372036854775808')) // int_range
    expect(conv('uint64_to_double')(u(123))).toEqual(d(123)) // uint_pos
    expect(conv('uint64_to_double')(u(18446744073709551615n))).toBe(lit('18446744073709551616')) // uint_range
    expect(stringToDouble('0.0')).toEqual(d(0)) // string_zero_dec
    expect(stringToDouble('123.456')).toBe(123.456) // string_pos
    expect(stringToDouble('6.02214e23')).toBe(6.02214e23) // string_exp_pos_pos
    expect(stringToDouble('-84.32e7')).toEqual(d(-843200000)) // string_exp_neg_pos
    expect(stringToDouble('-5.43e-21')).toBe(-5.43e-21) // string_exp_neg_neg
    const negZero = stringToDouble('-0.0') // string_neg_zero
    expect(negZero).toBeInstanceOf(Double)
    expect(Object.is((negZero as Double).value, -0)).toBe(true)
  })

  it('parses exactly what Go strconv.ParseFloat accepts (atof_test.go)', () => {
    expect(parseGoFloat('.5')).toBe(0.5)
    expect(parseGoFloat('5.')).toBe(5)
    expect(parseGoFloat('1E23')).toBe(1e23)
    expect(parseGoFloat('+0e0')).toBe(0)
    expect(parseGoFloat('1e-350')).toBe(0) // underflow is not an error
    expect(parseGoFloat('nan')).toBeNaN()
    expect(parseGoFloat('NAN')).toBeNaN()
    expect(parseGoFloat('inf')).toBe(Number.POSITIVE_INFINITY)
    expect(parseGoFloat('-Infinity')).toBe(Number.NEGATIVE_INFINITY)
    expect(parseGoFloat('+INFINITY')).toBe(Number.POSITIVE_INFINITY)
    expect(parseGoFloat('1_23.50_0_0e+1_2')).toBe(1.235e14)
    expect(parseGoFloat('0x_1_2.3_4_5p+1_2')).toBe(74565)
    expect(parseGoFloat('0x1.fffffffffffffp1023')).toBe(1.7976931348623157e308)
    expect(parseGoFloat('0x.1fffffffffffffp1027')).toBe(1.7976931348623157e308)
    expect(Object.is(parseGoFloat('-0x0p126'), -0)).toBe(true)
    expect(parseGoFloat('0x1p-2')).toBe(0.25)
    for (const bad of [
      '',
      ' 1',
      '1e',
      '.',
      '+nan',
      'infin',
      '0x1',
      '0x15e-2',
      '1.7976931348623159e308', // ErrRange
      '2e308',
      '0x1p1024',
      '-_123.5e+12',
      '_123.5e+12',
      '1__23.5e+12',
      '123_.5e+12',
      '123._5e+12',
      '123.5_e+12',
      '123.5e_+12',
      '123.5e+12_',
      '0x__12.345p+12',
      '0x12_.345p+12',
      '0x12.345p+1__2',
    ]) {
      expect(parseGoFloat(bad), bad).toBeUndefined()
    }
    expect(thrown(() => stringToDouble('abc'))).toBe("type conversion error from 'string' to 'double'")
  })
})

describe('string()', () => {
  it('converts ints, uints, doubles, bools and bytes (conversions string)', () => {
    expect(conv('int64_to_string')(123)).toBe('123') // int
    expect(conv('int64_to_string')(-456)).toBe('-456') // int_neg
    expect(conv('int64_to_string')(-9223372036854775808n)).toBe('-9223372036854775808')
    expect(conv('uint64_to_string')(u(9876))).toBe('9876') // uint
    expect(conv('double_to_string')(123.456)).toBe('123.456') // double
    expect(conv('double_to_string')(-4.5e-3)).toBe('-0.0045') // double_hard
    expect(conv('double_to_string')(d(1000000))).toBe('1e+06') // Go %g
    expect(conv('bool_to_string')(true)).toBe('true')
    expect(bytesToString(new Uint8Array([97, 98, 99]))).toBe('abc') // bytes
    expect(bytesToString(new Uint8Array([0xc3, 0xbf]))).toBe('ÿ') // bytes_unicode
    expect(bytesToString(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('\uFEFFa') // a BOM is kept, as Go does
  })

  it('rejects invalid UTF-8 with cel-go bytes.go text (bytes_invalid)', () => {
    const msg = 'invalid UTF-8 in bytes, cannot convert to string'
    expect(thrown(() => bytesToString(new Uint8Array([0x00, 0xff])))).toBe(msg)
    expect(thrown(() => bytesToString(new Uint8Array([0xed, 0xa0, 0x80])))).toBe(msg) // an encoded surrogate
    expect(thrown(() => bytesToString(new Uint8Array([0xc0, 0x80])))).toBe(msg) // overlong
  })
})

describe('bytes(), bool(), dyn()', () => {
  it('encodes strings as UTF-8 (conversions bytes)', () => {
    expect(stringToBytes('')).toEqual(new Uint8Array()) // string_empty
    expect(stringToBytes('abc')).toEqual(new Uint8Array([97, 98, 99])) // string
    expect(stringToBytes('ÿ')).toEqual(new Uint8Array([0xc3, 0xbf])) // string_unicode
  })

  it('parses bools like Go strconv.ParseBool (conversions bool)', () => {
    for (const s of ['1', 't', 'T', 'true', 'TRUE', 'True']) expect(stringToBool(s)).toBe(true)
    for (const s of ['0', 'f', 'F', 'false', 'FALSE', 'False']) expect(stringToBool(s)).toBe(false)
    expect(thrown(() => stringToBool('TrUe'))).toBe("type conversion error from 'string' to 'bool'") // string_true_badcase
    expect(thrown(() => stringToBool('FaLsE'))).toBe("type conversion error from 'string' to 'bool'")
  })

  it('dyn and the identity overloads return their argument', () => {
    const l = [1]
    expect(conv('to_dyn')(l)).toBe(l)
    expect(conv('bool_to_bool')(true)).toBe(true)
    expect(conv('double_to_double')(5.5)).toBe(5.5)
  })
})

describe('type()', () => {
  it('returns the runtime type (conversions type)', () => {
    const t = (v: CelValue) => typeValueOf(v).name
    expect(t(true)).toBe('bool')
    expect(t(0)).toBe('int')
    expect(t(9223372036854775807n)).toBe('int')
    expect(t(u(64))).toBe('uint')
    expect(t(3.14)).toBe('double')
    expect(t(d(-0))).toBe('double')
    expect(t(null)).toBe('null_type')
    expect(t('foo')).toBe('string')
    expect(t(new Uint8Array([0xff]))).toBe('bytes')
    expect(t([1, 2, 3])).toBe('list')
    expect(t(buildMap([4], [16]))).toBe('map')
    expect(t(buildMap(['one'], [1]))).toBe('map')
    expect(t(new Timestamp(0, 0))).toBe('google.protobuf.Timestamp')
    expect(t(new Duration(0n))).toBe('google.protobuf.Duration')
    expect(t(Optional.none)).toBe('optional_type')
    expect(typeValueOf(IntType)).toBe(TypeType) // type :: type(int)
    expect(typeValueOf(typeValueOf(7))).toBe(TypeType) // meta
    expect(typeValueOf([1])).toBe(ListType)
    expect(typeValueOf(listOf(IntType))).toBe(TypeType)
    class Q extends OpaqueValue {
      get typeName() {
        return 'kubernetes.Quantity'
      }
      equals() {
        return false
      }
    }
    expect(typeValueOf(new Q()).name).toBe('kubernetes.Quantity')
    expect(typeValueOf(new Q())).toBe(typeValueOf(new Q())) // cached, no allocation per call
    expect(conv('type')(1)).toBe(IntType)
  })

  it('declares the cel-go conversion overloads', () => {
    const ids = new Map(conversionFunctions.map((f) => [f.name, f.overloads.map((o) => o.id)]))
    expect(ids.get('int')).toEqual(['int64_to_int64', 'double_to_int64', 'string_to_int64', 'uint64_to_int64'])
    expect(ids.get('uint')).toEqual(['uint64_to_uint64', 'double_to_uint64', 'int64_to_uint64', 'string_to_uint64'])
    expect(ids.get('double')).toEqual(['double_to_double', 'int64_to_double', 'string_to_double', 'uint64_to_double'])
    expect(ids.get('string')).toEqual([
      'string_to_string',
      'bool_to_string',
      'bytes_to_string',
      'double_to_string',
      'int64_to_string',
      'uint64_to_string',
    ])
    expect(ids.get('bool')).toEqual(['bool_to_bool', 'string_to_bool'])
    expect(ids.get('bytes')).toEqual(['bytes_to_bytes', 'string_to_bytes'])
    expect(ids.get('dyn')).toEqual(['to_dyn'])
    const type = conversionFunctions.find((f) => f.name === 'type')?.overloads[0]
    expect(type?.id).toBe('type')
    expect(String(type?.result)).toBe('type(A)')
  })
})
