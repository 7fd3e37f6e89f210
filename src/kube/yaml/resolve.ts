import jsyaml from 'js-yaml'

// go-yaml v2's scalar resolution (gopkg.in/yaml.v2 resolve.go, forked as sigs.k8s.io/yaml/goyaml.v2),
// as kubectl reads YAML: YAML 1.1 booleans, leading-0 octal, `_` separators, decoding into
// interface{} (timestamps stay strings); then sigs.k8s.io/yaml's JSON conversion (yaml.go
// convertToJSONableObject, json.Marshal): map keys become strings, ±Inf and NaN cannot be sent.

export const STR_TAG = 'tag:yaml.org,2002:str'
export const BOOL_TAG = 'tag:yaml.org,2002:bool'
export const INT_TAG = 'tag:yaml.org,2002:int'
export const FLOAT_TAG = 'tag:yaml.org,2002:float'
export const NULL_TAG = 'tag:yaml.org,2002:null'
export const TIMESTAMP_TAG = 'tag:yaml.org,2002:timestamp'
export const BINARY_TAG = 'tag:yaml.org,2002:binary'
export const MERGE_TAG = 'tag:yaml.org,2002:merge'

/** A resolved scalar: its tag and the Go value's JS form (int64 outside ±2^53 as bigint). */
export interface Resolved {
  readonly tag: string
  readonly value: unknown
  /** uint64 or *big.Int in Go: no int type of JSON keeps it; sent as a JSON number. */
  readonly wide?: 'uint64' | '*big.Int'
}

// resolveTable: the first byte says what a plain scalar may be ('S' sign, 'D' digit, 'M' in the map)
const HINT = new Uint8Array(128)
for (const c of '+-') HINT[c.charCodeAt(0)] = 83 // S
for (const c of '0123456789') HINT[c.charCodeAt(0)] = 68 // D
for (const c of 'yYnNtTfFoO~') HINT[c.charCodeAt(0)] = 77 // M
HINT[46] = 46 // '.'

// resolveMap
const RESOLVE_MAP = new Map<string, Resolved>()
const put = (value: unknown, tag: string, l: string[]) => {
  for (const s of l) RESOLVE_MAP.set(s, { tag, value })
}
put(true, BOOL_TAG, ['y', 'Y', 'yes', 'Yes', 'YES'])
put(true, BOOL_TAG, ['true', 'True', 'TRUE'])
put(true, BOOL_TAG, ['on', 'On', 'ON'])
put(false, BOOL_TAG, ['n', 'N', 'no', 'No', 'NO'])
put(false, BOOL_TAG, ['false', 'False', 'FALSE'])
put(false, BOOL_TAG, ['off', 'Off', 'OFF'])
put(null, NULL_TAG, ['', '~', 'null', 'Null', 'NULL'])
put(Number.NaN, FLOAT_TAG, ['.nan', '.NaN', '.NAN'])
put(Number.POSITIVE_INFINITY, FLOAT_TAG, ['.inf', '.Inf', '.INF'])
put(Number.POSITIVE_INFINITY, FLOAT_TAG, ['+.inf', '+.Inf', '+.INF'])
put(Number.NEGATIVE_INFINITY, FLOAT_TAG, ['-.inf', '-.Inf', '-.INF'])
put('<<', MERGE_TAG, ['<<'])

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const UINT64_MAX = 2n ** 64n - 1n

const DIGITS: Record<number, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }
const PREFIX: Record<number, string> = { 2: '0b', 8: '0o', 10: '', 16: '0x' }

/** strconv.ParseUint(s, base, 64) digits, as a bigint; undefined for a syntax error (range is the caller's). */
function parseDigits(s: string, base: number): bigint | undefined {
  if (s === '' || !(DIGITS[base] as RegExp).test(s)) return undefined
  return BigInt(`${PREFIX[base]}${s}`)
}

/** strconv.ParseInt(s, 0, 64) / ParseUint(s, 0, 64) without the range check: sign, 0b/0o/0x, leading-0 octal. */
function parseBase0(s: string, signed: boolean): bigint | undefined {
  let neg = false
  if (signed && (s[0] === '+' || s[0] === '-')) {
    neg = s[0] === '-'
    s = s.slice(1)
  }
  if (s === '') return undefined
  let base = 10
  if (s[0] === '0') {
    const p = s.length >= 3 ? (s[1] as string).toLowerCase() : ''
    if (p === 'b') base = 2
    else if (p === 'o') base = 8
    else if (p === 'x') base = 16
    else base = 8
    s = base === 8 && p !== 'o' ? s.slice(1) : s.slice(2)
    if (s === '' && base === 8) return 0n // "0": ParseInt reads no digit after the octal prefix
  }
  const v = parseDigits(s, base)
  return v === undefined ? undefined : neg ? -v : v
}

/** big.Int SetString(s, 0): sign, prefixes, underscores already removed. */
function parseBig(s: string): bigint | undefined {
  return parseBase0(s, true)
}

// yamlStyleFloat
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/
// strconv.ParseFloat on a scalar starting with '.' (the map took .inf/.nan): digits, optional exponent
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/

/** An int64 as JS: a number when safe, else a bigint (docs/values.md). */
const int64 = (v: bigint): unknown => (v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v)

// allowedTimestampFormats of resolve.go, as time.Parse reads them (1-2 digit month/day/hour/minute/second)
const TIMESTAMP = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
]
function isTimestamp(s: string): boolean {
  for (const re of TIMESTAMP) {
    const m = re.exec(s)
    if (m === null) continue
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
    const days = new Date(Date.UTC(y, mo, 0)).getUTCDate()
    if (mo < 1 || mo > 12 || d < 1 || d > days) return false
    if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) return false
    return true
  }
  return false
}

/** go-yaml's error for a value that does not fit its explicit tag. */
export class GoYAMLError extends Error {}

const shortTag = (tag: string) => (tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice(18)}` : tag)

/** `0` or digits not starting with 0. */
function isPlainDecimal(s: string): boolean {
  if (s.charCodeAt(0) === 48) return s.length === 1
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

function resolvePlain(tag: string, s: string): Resolved {
  const hint = s === '' ? 78 : (HINT[s.charCodeAt(0)] ?? 0)
  if (hint === 0 || tag === STR_TAG || tag === BINARY_TAG) return { tag: STR_TAG, value: s }
  const item = RESOLVE_MAP.get(s)
  if (item !== undefined) return item
  if (hint === 46) {
    if (DOT_FLOAT.test(s)) return { tag: FLOAT_TAG, value: Number(s) }
  } else if (hint === 68 || hint === 83) {
    // the common case first: a decimal without sign, leading zero (octal) or underscore, exact as a double
    if (hint === 68 && s.length <= 15 && isPlainDecimal(s)) return { tag: INT_TAG, value: Number(s) }
    // a timestamp decoded into interface{} stays the string as written (decode.go scalar); every
    // allowed format starts with four digits and a dash
    if ((tag === '' || tag === TIMESTAMP_TAG) && s.charCodeAt(4) === 45 && isTimestamp(s))
      return { tag: TIMESTAMP_TAG, value: s }
    const plain = s.includes('_') ? s.replaceAll('_', '') : s
    let range = false
    const i = parseBase0(plain, true)
    if (i !== undefined) {
      if (i >= INT64_MIN && i <= INT64_MAX) return { tag: INT_TAG, value: int64(i) }
      range = true
    }
    const u = parseBase0(plain, false)
    if (u !== undefined) {
      if (u <= UINT64_MAX) return { tag: INT_TAG, value: Number(u), wide: 'uint64' }
      range = true
    } else range = false // ParseUint's error is the one kept (intConvErr is reassigned)
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = Number(plain)
      if (Number.isFinite(f)) return { tag: FLOAT_TAG, value: f } // ParseFloat: ErrRange past ±MaxFloat64
    }
    if (plain.startsWith('0b') || plain.startsWith('-0b')) {
      const neg = plain[0] === '-'
      const b = parseDigits(plain.slice(neg ? 3 : 2), 2)
      if (b !== undefined) {
        const v = neg ? -b : b
        if (v >= INT64_MIN && v <= INT64_MAX) return { tag: INT_TAG, value: int64(v) }
        if (!neg && v <= UINT64_MAX) return { tag: INT_TAG, value: Number(v), wide: 'uint64' }
      }
    }
    if (range) {
      const big = parseBig(plain)
      if (big !== undefined) return { tag: INT_TAG, value: Number(big), wide: '*big.Int' }
    }
  }
  return { tag: STR_TAG, value: s }
}

/**
 * resolve(tag, in) of resolve.go: a plain scalar (tag '') or one with an explicit tag. Throws go-yaml's
 * "cannot decode !!str `x` as a !!int" when the value does not fit the tag.
 */
export function resolve(tag: string, s: string): Resolved {
  const r = resolvePlain(tag, s)
  if (tag === '' || tag === r.tag || tag === STR_TAG || tag === BINARY_TAG) return r
  if (tag === FLOAT_TAG && r.tag === INT_TAG) return { tag: FLOAT_TAG, value: Number(r.value) }
  throw new GoYAMLError(`cannot decode ${shortTag(r.tag)} \`${s}\` as a ${shortTag(tag)}`)
}

/**
 * strconv.FormatFloat(f, 'g', -1, 32) with go-yaml's names for the infinities and NaN: how
 * convertToJSONableObject writes a float map key (float32 shortest digits, %e past 1e+06 and below 1e-04).
 */
export function formatFloatKey(f: number): string {
  const f32 = Math.fround(f)
  if (Number.isNaN(f32)) return '.nan'
  if (f32 === Number.POSITIVE_INFINITY) return '.inf'
  if (f32 === Number.NEGATIVE_INFINITY) return '-.inf'
  if (f32 === 0) return Object.is(f32, -0) ? '-0' : '0'
  let e = ''
  for (let p = 1; p <= 9; p++) {
    e = Math.abs(f32).toExponential(p - 1)
    if (Math.fround(Number(e)) === Math.abs(f32)) break
  }
  const [mant, ex] = e.split('e') as [string, string]
  const digits = mant.replace('.', '')
  const exp = Number(ex)
  const sign = f32 < 0 ? '-' : ''
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const a = Math.abs(exp)
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${a < 10 ? '0' : ''}${a}`
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}`
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
}

/**
 * A scalar whose JSON form differs from what js-yaml would make of it as a key or a value: a float key
 * (formatFloatKey), a key JSON cannot have (uint64, *big.Int: "unsupported map key"), a value JSON
 * cannot hold (±Inf, NaN: json.Marshal's "unsupported value"). js-yaml stringifies keys with String(),
 * so toString() gives the key; decode.ts replaces the boxes left as values.
 */
export class GoScalar {
  static created = 0
  constructor(
    readonly value: unknown,
    readonly key: string | undefined,
    readonly keyType: string,
    readonly valueError?: string,
  ) {
    GoScalar.created++
  }
  // js-yaml turns a key object tagged [object Object] into that text; a tag of our own keeps toString()
  get [Symbol.toStringTag](): string {
    return 'GoScalar'
  }
  toString(): string {
    if (this.key === undefined)
      throw new GoYAMLError(`unsupported map key of type: ${this.keyType}, key: ${String(this.value)}`)
    return this.key
  }
}

/** The JS value go-yaml + sigs.k8s.io/yaml make of a resolved scalar (boxed where keys or JSON differ). */
function construct(r: Resolved): unknown {
  const v = r.value
  if (r.wide !== undefined) return new GoScalar(v, undefined, r.wide)
  if (r.tag === FLOAT_TAG && typeof v === 'number') {
    if (!Number.isFinite(v)) {
      const go = Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'
      return new GoScalar(v, formatFloatKey(v), 'float64', `json: unsupported value: ${go}`)
    }
    const key = formatFloatKey(v)
    return key === String(v) ? v : new GoScalar(v, key, 'float64')
  }
  return v
}

/** !!binary: base64.StdEncoding (padding required; CR and LF ignored), then the bytes as a Go string in JSON. */
export function decodeBinary(s: string): string {
  const b64 = s.replace(/[\r\n]/g, '')
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
    throw new GoYAMLError('!!binary value contains invalid base64 data')
  return goStringToJSON(Buffer.from(b64, 'base64'))
}

/** encoding/json writes each byte of an invalid UTF-8 sequence as U+FFFD (one per byte, unlike TextDecoder). */
function goStringToJSON(b: Buffer): string {
  let out = ''
  let i = 0
  while (i < b.length) {
    const c = b[i] as number
    const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0
    let ok = n > 0 && i + n <= b.length
    for (let k = 1; ok && k < n; k++) ok = ((b[i + k] as number) & 0xc0) === 0x80
    if (ok && n >= 3) {
      const cp = n === 3 ? ((c & 0x0f) << 12) | (((b[i + 1] as number) & 0x3f) << 6) : 0
      if (n === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ok = false
      if (n === 4) {
        const cp4 = ((c & 0x07) << 18) | (((b[i + 1] as number) & 0x3f) << 12)
        if (cp4 < 0x10000 || cp4 > 0x10ffff) ok = false
      }
    }
    if (!ok) {
      out += '\ufffd'
      i++
      continue
    }
    out += b.subarray(i, i + n).toString('utf8')
    i += n
  }
  return out
}

/**
 * A plain scalar's value as GOYAML_V2_SCHEMA's implicit types make it (js-yaml tries them on plain
 * scalars only): the text for a string or a timestamp, else the constructed value. Not for `<<`, the
 * merge key (js-yaml's merge type takes it).
 */
export function plainScalar(s: string): unknown {
  if (s !== '' && (HINT[s.charCodeAt(0)] ?? 0) === 0) return s
  const r = resolvePlain('', s)
  return r.tag === STR_TAG || r.tag === TIMESTAMP_TAG ? s : construct(r)
}

// js-yaml types: one implicit type for every plain scalar that is not a string (js-yaml tries implicit
// types only on plain scalars, so quoted scalars stay strings, as go-yaml's n.implicit), explicit types
// for the tags go-yaml resolves, and any other tag read as go-yaml does (scalars as their text,
// collections as they are: decode.go ignores a collection's tag).
let last: { s: string; r: Resolved } | undefined
const plainType = new jsyaml.Type('tag:yaml.org,2002:kelp-plain', {
  kind: 'scalar',
  resolve: (data: string | null) => {
    const s = data ?? ''
    // most scalars are words: no implicit type applies (resolvePlain's first test, without its allocations)
    if (s !== '' && (HINT[s.charCodeAt(0)] ?? 0) === 0) return false
    const r = resolvePlain('', s)
    last = { s, r }
    return r.tag !== STR_TAG
  },
  construct: (data: string | null) => {
    const s = data ?? ''
    const r = last?.s === s ? last.r : resolvePlain('', s)
    return r.tag === TIMESTAMP_TAG ? s : construct(r)
  },
})

const tagged = (tag: string) =>
  new jsyaml.Type(tag, {
    kind: 'scalar',
    resolve: () => true,
    construct: (s: string | null) => {
      const r = resolve(tag, s ?? '')
      if (tag === BINARY_TAG) return decodeBinary(String(r.value))
      return r.tag === TIMESTAMP_TAG ? (s ?? '') : construct(r)
    },
  })

const anyTag = (prefix: string, kind: 'scalar' | 'sequence' | 'mapping') =>
  new jsyaml.Type(prefix, {
    kind,
    multi: true,
    resolve: () => true,
    construct: (v: unknown) => (kind === 'scalar' ? (v ?? '') : v),
  })

// @types/js-yaml does not declare `types`; js-yaml 4 exports them (types.merge: the `<<` key)
const { merge } = (jsyaml as unknown as { types: { merge: jsyaml.Type } }).types

/** The js-yaml schema that reads YAML as go-yaml v2 does (values may hold GoScalar boxes: see decode.ts). */
export const GOYAML_V2_SCHEMA = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [plainType, merge],
  explicit: [
    tagged(BOOL_TAG),
    tagged(INT_TAG),
    tagged(FLOAT_TAG),
    tagged(NULL_TAG),
    tagged(TIMESTAMP_TAG),
    tagged(BINARY_TAG),
    ...(['!', 'tag:'] as const).flatMap((p) => [anyTag(p, 'scalar'), anyTag(p, 'sequence'), anyTag(p, 'mapping')]),
  ],
})
