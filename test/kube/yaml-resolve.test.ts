import { describe, expect, it } from 'vitest'
import { decodeStream } from '../../src/kube/yaml/decode.js'
import { formatFloatKey } from '../../src/kube/yaml/resolve.js'

// go-yaml v2's resolution as kubectl reads YAML. Expected values: the unmarshalTests table of
// gopkg.in/yaml.v2 decode_test.go (sigs.k8s.io/yaml goyaml.v2/decode_test.go), cases decoding into
// interface{}; the rules of goyaml.v2/resolve.go; the JSON conversion of sigs.k8s.io/yaml yaml.go.

const one = (text: string) => {
  const docs = [...decodeStream(text)]
  expect(docs).toHaveLength(1)
  return docs[0]
}
const value = (text: string) => {
  const d = one(text)
  expect(d?.error).toBeUndefined()
  return d?.value
}

describe('decode_test.go unmarshalTests (into interface{})', () => {
  const cases: [string, unknown][] = [
    ['v: hi', { v: 'hi' }],
    ['v: true', { v: true }],
    ['v: 10', { v: 10 }],
    ['v: 0b10', { v: 2 }],
    ['v: 0xA', { v: 10 }],
    ['v: 4294967296', { v: 4294967296 }],
    ['v: 0.1', { v: 0.1 }],
    ['v: .1', { v: 0.1 }],
    ['v: -10', { v: -10 }],
    ['v: -.1', { v: -0.1 }],
    ['canonical: 6.8523e+5', { canonical: 6.8523e5 }],
    ['expo: 685.230_15e+03', { expo: 685.23015e3 }],
    ['fixed: 685_230.15', { fixed: 685230.15 }],
    ['canonical: y', { canonical: true }],
    ['answer: NO', { answer: false }],
    ['logical: True', { logical: true }],
    ['option: on', { option: true }],
    ['canonical: 685230', { canonical: 685230 }],
    ['decimal: +685_230', { decimal: 685230 }],
    ['octal: 02472256', { octal: 685230 }],
    ['hexa: 0x_0A_74_AE', { hexa: 685230 }],
    ['bin: 0b1010_0111_0100_1010_1110', { bin: 685230 }],
    ['bin: -0b101010', { bin: -42 }],
    ['bin: -0b1000000000000000000000000000000000000000000000000000000000000000', { bin: -9223372036854775808n }],
    ['empty:', { empty: null }],
    ['canonical: ~', { canonical: null }],
    ['english: null', { english: null }],
    ['seq: [A,B]', { seq: ['A', 'B'] }],
    ['seq: [A,1,C]', { seq: ['A', 1, 'C'] }],
    ["v: !!float '1.1'", { v: 1.1 }],
    ['v: !!float 0', { v: 0 }],
    ['v: !!float -1', { v: -1 }],
    ["v: !!null ''", { v: null }],
    ["%TAG !y! tag:yaml.org,2002:\n---\nv: !y!int '1'", { v: 1 }],
    ['v: ! test', { v: 'test' }],
    ['a: &x 1\nb: &y 2\nc: *x\nd: *y\n', { a: 1, b: 2, c: 1, d: 2 }],
    ['a: -b_c', { a: '-b_c' }],
    ['a: +b_c', { a: '+b_c' }],
    ['a: 50cent_of_dollar', { a: '50cent_of_dollar' }],
    ['a: {b: https://github.com/go-yaml/yaml}', { a: { b: 'https://github.com/go-yaml/yaml' } }],
    ['a: "2015-01-01"', { a: '2015-01-01' }],
    ['a: !!timestamp "2015-01-01"', { a: '2015-01-01' }],
    ['a: 2015-01-01', { a: '2015-01-01' }],
  ]
  it.each(cases)('%s', (text, want) => {
    expect(value(text)).toEqual(want)
  })
})

describe('resolve.go rules', () => {
  it('the boolean and null tables of resolveMapList, exactly', () => {
    for (const s of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'])
      expect(value(`v: ${s}`)).toEqual({ v: true })
    for (const s of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'])
      expect(value(`v: ${s}`)).toEqual({ v: false })
    for (const s of ['~', 'null', 'Null', 'NULL', '']) expect(value(`v: ${s}`)).toEqual({ v: null })
    // not in the table: strings
    for (const s of ['yES', 'tRUE', 'oN', 'nULL', 'Nope', 'NaN', 'inf']) expect(value(`v: ${s}`)).toEqual({ v: s })
  })

  it('quoted scalars are strings', () => {
    expect(value(`a: "yes"\nb: 'on'\nc: "0644"\nd: "1.5"\ne: "~"`)).toEqual({
      a: 'yes',
      b: 'on',
      c: '0644',
      d: '1.5',
      e: '~',
    })
  })

  it('ints: ParseInt base 0 after `_` removal (leading-0 octal, 0o, 0x, signs), then uint64, then float', () => {
    expect(value('v: 0644')).toEqual({ v: 420 })
    expect(value('v: 0o644')).toEqual({ v: 420 })
    expect(value('v: +0x10')).toEqual({ v: 16 })
    expect(value('v: 0')).toEqual({ v: 0 })
    expect(value('v: 1__000')).toEqual({ v: 1000 })
    expect(value('v: _1')).toEqual({ v: '_1' }) // no hint for '_'
    expect(value('v: 08')).toEqual({ v: 8 }) // not octal: yamlStyleFloat, ParseFloat
    expect(value('v: 0x')).toEqual({ v: '0x' })
    expect(value('v: 9223372036854775807')).toEqual({ v: 9223372036854775807n })
    expect(value('v: 9007199254740993')).toEqual({ v: 9007199254740993n })
    // uint64 and past: JSON numbers the apiserver reads as float64
    expect(value('v: 18446744073709551615')).toEqual({ v: 2 ** 64 }) // uint64 max as float64
    expect(value('v: 18446744073709551616')).toEqual({ v: 2 ** 64 })
    expect(value('v: 0x10000000000000000')).toEqual({ v: 2 ** 64 }) // *big.Int
    expect(value('v: -9223372036854775809')).toEqual({ v: -(2 ** 63) }) // float64
  })

  it('floats: yamlStyleFloat; out of range stays a string; integral floats are JSON integers', () => {
    expect(value('v: 1e3')).toEqual({ v: 1000 })
    expect(value('v: 1.')).toEqual({ v: 1 })
    expect(value('v: 1e400')).toEqual({ v: '1e400' })
    expect(value('v: 1e-400')).toEqual({ v: 0 })
    expect(value('v: 1.2.3')).toEqual({ v: '1.2.3' })
  })

  it('±Inf and NaN cannot be sent: json.Marshal refuses them', () => {
    expect(one('v: .inf')?.error?.message).toBe('json: unsupported value: +Inf')
    expect(one('v: -.Inf')?.error?.message).toBe('json: unsupported value: -Inf')
    expect(one('v: .NaN')?.error?.message).toBe('json: unsupported value: NaN')
  })

  it('explicit tags: !!str, !!int, !!bool, !!binary; a value that does not fit fails as go-yaml does', () => {
    expect(value('a: !!str 123\nb: !!int "12"\nc: !!bool "yes"\nd: !!binary aGVsbG8=\ne: !!str yes')).toEqual({
      a: '123',
      b: 12,
      c: true,
      d: 'hello',
      e: 'yes',
    })
    expect(one('v: !!int abc')?.error?.message).toBe('cannot decode !!str `abc` as a !!int')
    expect(one('v: !!binary "a!"')?.error?.message).toBe('!!binary value contains invalid base64 data')
    // tags go-yaml does not resolve leave the scalar's text, and a collection's tag is ignored
    expect(value('a: !foo 12\nb: !!set {x: 1}\nc: !!omap [1]')).toEqual({ a: '12', b: { x: 1 }, c: [1] })
  })

  it('merge keys', () => {
    expect(value('a: &b {x: "1"}\nc:\n  <<: *b\n  z: "2"')).toEqual({ a: { x: '1' }, c: { x: '1', z: '2' } })
  })

  it('`y` and `n` are booleans, keys too (the YAML 1.1 gotcha kubectl has)', () => {
    expect(value('y: 1\nn: 2')).toEqual({ true: 1, false: 2 })
  })
})

describe('convertToJSONableObject: map keys become strings', () => {
  it('ints with Itoa, bools as true/false, floats with FormatFloat(f, g, -1, 32)', () => {
    expect(value('1: a\n0x10: b\nyes: c\noff: d\n1.5: e\n1e6: f\n0.1: g\n3.14159265358979: h\n.inf: j')).toEqual({
      '1': 'a',
      '16': 'b',
      true: 'c',
      false: 'd',
      '1.5': 'e',
      '1e+06': 'f',
      '0.1': 'g',
      '3.1415927': 'h',
      '.inf': 'j',
    })
  })
  it('formatFloatKey (strconv.FormatFloat %g shortest, float32)', () => {
    expect([100000, 1234567, 0.0001, 0.00001, -2.5, 1e21].map(formatFloatKey)).toEqual([
      '100000',
      '1.234567e+06',
      '0.0001',
      '1e-05',
      '-2.5',
      '1e+21',
    ])
  })
  it('a uint64 key is refused', () => {
    expect(one('18446744073709551615: a')?.error?.message).toMatch(/^unsupported map key of type: uint64/)
  })
})
