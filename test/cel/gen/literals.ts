import fc from 'fast-check'

// CEL literal text (cel-spec doc/langdef.md "Lexical structure"): strings in every quoting style
// with escapes and astral characters, bytes with hex / octal escapes, and the numeric edges.

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')

/**
 * Writes `s` as a CEL string literal. Styles: 0 double quotes, 1 single quotes, 2 double quotes with
 * every non-ASCII code point escaped (`\u` / `\U`), 3 raw `r"…"` when the text allows it, 4 triple quotes.
 */
export function celString(s: string, style: number): string {
  if (style === 3 && !/["\\\r\n]/.test(s)) return `r"${s}"`
  if (style === 4 && !/["\\\r]/.test(s)) return `"""${s}"""`
  const quote = style === 1 ? "'" : '"'
  let out = ''
  for (const ch of s) {
    const cp = ch.codePointAt(0)!
    if (ch === '\\') out += '\\\\'
    else if (ch === quote) out += `\\${quote}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\r') out += '\\r'
    else if (cp < 0x20 || cp === 0x7f) out += `\\u${hex(cp, 4)}`
    else if (style === 2 && cp > 0x7f) out += cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`
    else out += ch
  }
  return `${quote}${out}${quote}`
}

/** Writes bytes as a CEL bytes literal: printable ASCII as is, other bytes as `\xHH` or octal `\ooo`. */
export function celBytes(bytes: readonly number[], octal: boolean): string {
  let out = ''
  for (const b of bytes) {
    if (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c) out += String.fromCharCode(b)
    else out += octal ? `\\${b.toString(8).padStart(3, '0')}` : `\\x${hex(b, 2)}`
  }
  return `b"${out}"`
}

const codePoint = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.constantFrom(0x0a, 0x09, 0x00, 0x22, 0x27, 0x5c, 0x60, 0x85, 0x2028, 0x2029, 0xfeff) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xd7ff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x1f600, max: 0x1f64f }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }) },
)

/** Text a string literal may hold (any code point but lone surrogates, which CEL cannot express). */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.array(codePoint, { maxLength: 6 }).map((cps) => String.fromCodePoint(...cps)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      'a',
      'b',
      'abc',
      'x',
      'name',
      '__proto__',
      'constructor',
      'toString',
      ',',
      'é',
      '😀',
      'a😀b',
      '1',
      '-12',
      '1.5',
      'true',
      '1h30m',
      '-1.5s',
      '2023-01-01T00:00:00Z',
      '  pad  ',
    ),
  },
)

export const stringLit: fc.Arbitrary<string> = fc
  .tuple(textArb, fc.integer({ min: 0, max: 4 }))
  .map(([s, style]) => celString(s, style))

export const bytesLit: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 5 }), fc.boolean()).map(([b, o]) => celBytes(b, o)),
  fc.constantFrom('b""', "b'abc'", 'b"é"', 'b"\\xff\\x00"', 'b"\\377"', 'b"😀"', "B'x'"),
)

export const intLit: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -3, max: 12 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0x10',
      '-0x1',
      '42',
      '1000000',
      '9007199254740991',
      '-9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '-9007199254740993',
      '4611686018427387904',
      '9223372036854775807',
      '-9223372036854775808',
    ),
  },
)

export const uintLit: fc.Arbitrary<string> = fc.constantFrom(
  '0u',
  '1u',
  '2u',
  '7u',
  '0x10u',
  '9007199254740993u',
  '9223372036854775808u',
  '18446744073709551615u',
)

export const doubleLit: fc.Arbitrary<string> = fc.constantFrom(
  '0.0',
  '-0.0',
  '1.0',
  '2.0',
  '1.5',
  '-2.5',
  '.5',
  '1e3',
  '1e-3',
  '3.14159',
  '1e308',
  '-1e308',
  '9007199254740993.0',
  '9.223372036854775807e18',
  '1.8446744073709552e19',
)

export const boolLit: fc.Arbitrary<string> = fc.constantFrom('true', 'false')

/** RFC 3339 texts for timestamp(): valid ones, the range edges, and some Go rejects. */
export const timestampText: fc.Arbitrary<string> = fc.constantFrom(
  '"2023-01-01T00:00:00Z"',
  '"2009-02-13T23:31:30.123456789Z"',
  '"1970-01-01T00:00:00+05:30"',
  '"0001-01-01T00:00:00Z"',
  '"9999-12-31T23:59:59.999999999Z"',
  '"2024-02-29T12:00:00-08:00"',
  '"2023-02-29T00:00:00Z"',
  '"not a time"',
  '"2023-01-01"',
)

export const durationText: fc.Arbitrary<string> = fc.constantFrom(
  '"0s"',
  '"1s"',
  '"-1.5s"',
  '"1h30m"',
  '"100ms"',
  '"1us"',
  '"1µs"',
  '"3ns"',
  '"2562047h47m16.854775807s"',
  '"2562048h"',
  '"1d"',
  '""',
)

export const timezone: fc.Arbitrary<string> = fc.constantFrom(
  '"UTC"',
  '"America/New_York"',
  '"Europe/Paris"',
  '"Asia/Kolkata"',
  '"+05:30"',
  '"-08:00"',
  '"02:00"',
  '"Not/AZone"',
)

/** RE2 patterns, including ones Go rejects (`(`, `\\1`) and classes JS spells differently. */
export const regexLit: fc.Arbitrary<string> = fc.constantFrom(
  '"a.*"',
  '"^[a-z]+$"',
  '"(?i)ABC"',
  '"\\\\d+"',
  '"\\\\pL"',
  '"[[:alpha:]]+"',
  '"x*"',
  '""',
  '"😀"',
  '"^.$"',
  '"("',
  '"(a)\\\\1"',
)

/** Format strings for ext strings `format` (verbs cel-go supports, and unsupported ones). */
export const formatLit: fc.Arbitrary<string> = fc.constantFrom(
  '"%s"',
  '"%d"',
  '"%s-%s"',
  '"%.2f"',
  '"%e"',
  '"%x"',
  '"%X"',
  '"%o"',
  '"%b"',
  '"%%"',
  '"%q"',
  '"%5s"',
  '"abc"',
)
