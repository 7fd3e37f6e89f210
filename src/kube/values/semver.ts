import { goQuote } from '../../cel/ext/quote.js'
import { OpaqueValue } from '../../cel/values/values.js'

// Semantic versions as github.com/blang/semver/v4 (v4.0.0) parses and compares them, and Kubernetes'
// `normalize` variant (apiserver pkg/cel/library/semverlib.go normalizeAndParse). Numbers are uint64,
// held as bigints. Parse failures are the library's error texts, returned as strings.

/** A pre-release identifier: numeric (compared as numbers) or alphanumeric (compared as strings). */
export interface PreRelease {
  readonly num: bigint | undefined
  readonly str: string
}

export class Semver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly PreRelease[],
    readonly build: readonly string[],
  ) {}

  /** Version.String. */
  toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`
    if (this.pre.length > 0) s += `-${this.pre.map((p) => (p.num === undefined ? p.str : `${p.num}`)).join('.')}`
    if (this.build.length > 0) s += `+${this.build.join('.')}`
    return s
  }
}

/** The CEL value `kubernetes.Semver` (apiserver pkg/cel/semver.go): `==` is Version.EQ (build ignored). */
export class SemverValue extends OpaqueValue {
  constructor(readonly version: Semver) {
    super()
  }
  override get typeName(): string {
    return 'kubernetes.Semver'
  }
  /** The Go type Kubernetes holds it as (apiservercel.Semver), as Go's panics name it. */
  get goType(): string {
    return 'cel.Semver'
  }
  override equals(other: OpaqueValue): boolean {
    return other instanceof SemverValue && compareSemver(this.version, other.version) === 0
  }
  override toString(): string {
    return this.version.toString()
  }
}

const UINT64_MAX = 18446744073709551615n

function isDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x30 || c > 0x39) return false
  }
  return true
}

/** [0-9A-Za-z-] only (blang's `alphanum`). */
function isAlphanum(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d)) return false
  }
  return true
}

function hasLeadingZeroes(s: string): boolean {
  return s.length > 1 && s[0] === '0'
}

/** strconv.ParseUint(s, 10, 64) of a digit string, or its *NumError text. */
function parseUint(s: string): bigint | string {
  if (s === '') return `strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`
  const v = BigInt(s)
  return v > UINT64_MAX ? `strconv.ParseUint: parsing ${goQuote(s)}: value out of range` : v
}

/** strings.SplitN(s, ".", 3). */
function splitN3(s: string): string[] {
  const a = s.indexOf('.')
  if (a < 0) return [s]
  const b = s.indexOf('.', a + 1)
  if (b < 0) return [s.slice(0, a), s.slice(a + 1)]
  return [s.slice(0, a), s.slice(a + 1, b), s.slice(b + 1)]
}

function numberPart(s: string, what: string): bigint | string {
  if (!isDigits(s)) return `Invalid character(s) found in ${what} number ${goQuote(s)}`
  if (hasLeadingZeroes(s))
    return `${what[0]!.toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${goQuote(s)}`
  return parseUint(s)
}

/** blang/semver Parse: strict `MAJOR.MINOR.PATCH[-PRE][+BUILD]`. */
export function parseSemver(s: string): Semver | string {
  if (s.length === 0) return 'Version string empty'
  const parts = splitN3(s)
  if (parts.length !== 3) return 'No Major.Minor.Patch elements found'
  const major = numberPart(parts[0]!, 'major')
  if (typeof major === 'string') return major
  const minor = numberPart(parts[1]!, 'minor')
  if (typeof minor === 'string') return minor
  let patchStr = parts[2]!
  let build: string[] = []
  let prerelease: string[] = []
  const plus = patchStr.indexOf('+')
  if (plus >= 0) {
    build = patchStr.slice(plus + 1).split('.')
    patchStr = patchStr.slice(0, plus)
  }
  const dash = patchStr.indexOf('-')
  if (dash >= 0) {
    prerelease = patchStr.slice(dash + 1).split('.')
    patchStr = patchStr.slice(0, dash)
  }
  const patch = numberPart(patchStr, 'patch')
  if (typeof patch === 'string') return patch
  const pre: PreRelease[] = []
  for (const p of prerelease) {
    if (p.length === 0) return 'Prerelease is empty'
    if (isDigits(p)) {
      if (hasLeadingZeroes(p)) return `Numeric PreRelease version must not contain leading zeroes ${goQuote(p)}`
      const num = parseUint(p)
      if (typeof num === 'string') return num
      pre.push({ num, str: '' })
    } else if (isAlphanum(p)) {
      pre.push({ num: undefined, str: p })
    } else {
      return `Invalid character(s) found in prerelease ${goQuote(p)}`
    }
  }
  for (const b of build) {
    if (b.length === 0) return 'Build meta data is empty'
    if (!isAlphanum(b)) return `Invalid character(s) found in build meta data ${goQuote(b)}`
  }
  return new Semver(major, minor, patch, pre, build)
}

/**
 * semverlib.go normalizeAndParse: strip one leading `v`, strip leading zeros of each of the (at most 3)
 * dot-separated parts, pad a short version with `.0`; then Parse. No whitespace trimming.
 */
export function parseSemverNormalized(s: string): Semver | string {
  if (s.startsWith('v')) s = s.slice(1)
  const parts = splitN3(s)
  for (let i = 0; i < parts.length; i++) {
    let p = parts[i]!
    // Go tests len(p) > 1 in bytes: a single non-ASCII character is longer than one byte
    if (p.length > 1 || (p.length === 1 && p.charCodeAt(0) >= 0x80)) {
      let z = 0
      while (z < p.length && p[z] === '0') z++
      p = p.slice(z)
      const c = p.charCodeAt(0)
      if (p.length === 0 || !(c >= 0x30 && c <= 0x39)) p = `0${p}`
      parts[i] = p
    }
  }
  if (parts.length < 3) {
    const last = parts[parts.length - 1]!
    if (last.includes('+') || last.includes('-')) return 'short version cannot contain PreRelease/Build meta data'
    while (parts.length < 3) parts.push('0')
  }
  return parseSemver(parts.join('.'))
}

function cmp(a: bigint, b: bigint): number {
  return a === b ? 0 : a > b ? 1 : -1
}

/** Version.Compare: precedence per semver 2.0 (build metadata ignored, a pre-release sorts first). */
export function compareSemver(v: Semver, o: Semver): number {
  const c = cmp(v.major, o.major) || cmp(v.minor, o.minor) || cmp(v.patch, o.patch)
  if (c !== 0) return c
  const a = v.pre
  const b = o.pre
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a[i]!
    const y = b[i]!
    let r: number
    if (x.num !== undefined && y.num !== undefined) r = cmp(x.num, y.num)
    else if (x.num !== undefined)
      r = -1 // numeric identifiers sort before alphanumeric ones
    else if (y.num !== undefined) r = 1
    else r = x.str === y.str ? 0 : x.str > y.str ? 1 : -1
    if (r !== 0) return r
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1
}
