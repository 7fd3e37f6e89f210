import { goQuote } from '../../cel/ext/quote.js'
import { OpaqueValue } from '../../cel/values/values.js'

// A port of the parts of Go's net/netip (Go 1.24) that Kubernetes' IP and CIDR libraries use:
// ParseAddr, ParsePrefix (with their exact error texts), Addr.String (RFC 5952 as Go prints it),
// the Is* classifiers, Prefix.Masked, Contains and Overlaps.
//
// Addr and Prefix double as the CEL values `net.IP` and `net.CIDR`: apiserver's pkg/cel/ip.go and
// cidr.go wrap netip.Addr / netip.Prefix one to one, so parsing yields the CEL value directly.
//
// An address is held as Go holds it: 128 bits (here four big-endian uint32 words), IPv4 addresses
// in their IPv4-mapped form (::ffff:a.b.c.d) with a family flag, plus the IPv6 zone.

const HEX = '0123456789abcdef'

export class Addr extends OpaqueValue {
  constructor(
    /** Bits 0..31 of the 128-bit form (most significant first). */
    readonly w0: number,
    readonly w1: number,
    readonly w2: number,
    readonly w3: number,
    /** An IPv4 address (Go's z4); IPv4-mapped IPv6 addresses are not. */
    readonly v4: boolean,
    /** The IPv6 zone (`fe80::1%eth0`), '' for none. */
    readonly zone = '',
  ) {
    super()
  }

  override get typeName(): string {
    return 'net.IP'
  }
  /** The Go type Kubernetes holds it as (apiservercel.IP), as Go's panics name it. */
  get goType(): string {
    return 'cel.IP'
  }

  /** Go's `==` on netip.Addr: same family, bits and zone. */
  override equals(other: OpaqueValue): boolean {
    return (
      other instanceof Addr &&
      this.w3 === other.w3 &&
      this.w2 === other.w2 &&
      this.w1 === other.w1 &&
      this.w0 === other.w0 &&
      this.v4 === other.v4 &&
      this.zone === other.zone
    )
  }

  is4(): boolean {
    return this.v4
  }

  is6(): boolean {
    return !this.v4
  }

  /** In ::ffff:0:0/96 (an IPv4-mapped IPv6 address). */
  is4In6(): boolean {
    return !this.v4 && this.w0 === 0 && this.w1 === 0 && this.w2 === 0xffff
  }

  bitLen(): number {
    return this.v4 ? 32 : 128
  }

  /** apiserver IP.Size(): the address length in bytes (the size cost formulas use). */
  size(): number {
    return this.v4 ? 4 : 16
  }

  /** The i'th 16-bit group of the 128-bit form (Go's v6u16). */
  group(i: number): number {
    const w = i < 2 ? this.w0 : i < 4 ? this.w1 : i < 6 ? this.w2 : this.w3
    return i & 1 ? w & 0xffff : w >>> 16
  }

  /** The IPv4 form of an IPv4-mapped address (Go's Unmap); other addresses unchanged. */
  private unmapped(): Addr {
    return this.is4In6() ? new Addr(0, 0, 0xffff, this.w3, true) : this
  }

  isUnspecified(): boolean {
    // Go: ip == IPv4Unspecified() || ip == IPv6Unspecified(), so a zoned `::` is not
    if (this.v4) return this.w3 === 0
    return this.zone === '' && this.w0 === 0 && this.w1 === 0 && this.w2 === 0 && this.w3 === 0
  }

  isLoopback(): boolean {
    const ip = this.unmapped()
    if (ip.v4) return ip.w3 >>> 24 === 127
    return ip.w0 === 0 && ip.w1 === 0 && ip.w2 === 0 && ip.w3 === 1
  }

  isMulticast(): boolean {
    const ip = this.unmapped()
    if (ip.v4) return ip.w3 >>> 28 === 0xe
    return ip.w0 >>> 24 === 0xff
  }

  /** 224.0.0.0/24, or ffX2::/16 (Go tests the group with mask 0xff0f). */
  isLinkLocalMulticast(): boolean {
    const ip = this.unmapped()
    if (ip.v4) return ip.w3 >>> 8 === 0xe00000
    return ((ip.w0 >>> 16) & 0xff0f) === 0xff02
  }

  /** 169.254.0.0/16, fe80::/10. */
  isLinkLocalUnicast(): boolean {
    const ip = this.unmapped()
    if (ip.v4) return ip.w3 >>> 16 === 0xa9fe
    return ((ip.w0 >>> 16) & 0xffc0) === 0xfe80
  }

  /** As package net: not unspecified, broadcast, loopback, multicast or link-local unicast (private ranges count). */
  isGlobalUnicast(): boolean {
    const ip = this.unmapped()
    if (ip.v4 && (ip.w3 === 0 || ip.w3 === 0xffffffff)) return false
    if (!ip.v4 && ip.zone === '' && ip.w0 === 0 && ip.w1 === 0 && ip.w2 === 0 && ip.w3 === 0) return false
    return !ip.isLoopback() && !ip.isMulticast() && !ip.isLinkLocalUnicast()
  }

  /** Go's Addr.String: dotted quad, `::ffff:a.b.c.d`, or RFC 5952 IPv6 (lowercase, longest zero run as `::`). */
  override toString(): string {
    if (this.v4) return v4String(this.w3)
    if (this.is4In6()) return `::ffff:${v4String(this.w3)}${this.zone === '' ? '' : `%${this.zone}`}`
    return this.v6String()
  }

  private v6String(): string {
    // the first longest run of at least two zero groups is elided
    let zeroStart = -1
    let zeroLen = 1
    for (let i = 0; i < 8; i++) {
      let j = i
      while (j < 8 && this.group(j) === 0) j++
      if (j - i > zeroLen) {
        zeroStart = i
        zeroLen = j - i
      }
    }
    let out = ''
    for (let i = 0; i < 8; i++) {
      if (i === zeroStart) {
        out += '::'
        i += zeroLen
        if (i >= 8) break
      } else if (i > 0) {
        out += ':'
      }
      out += hex16(this.group(i))
    }
    return this.zone === '' ? out : `${out}%${this.zone}`
  }
}

function v4String(v: number): string {
  return `${v >>> 24}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`
}

function hex16(x: number): string {
  let out = ''
  if (x >= 0x1000) out += HEX[x >>> 12]
  if (x >= 0x100) out += HEX[(x >>> 8) & 0xf]
  if (x >= 0x10) out += HEX[(x >>> 4) & 0xf]
  return out + HEX[x & 0xf]
}

/** Keeps the top `bits` bits of word `k` (bits 32k..32k+31 of the 128-bit form). */
function maskWord(w: number, k: number, bits: number): number {
  const keep = bits - 32 * k
  if (keep >= 32) return w
  if (keep <= 0) return 0
  return (w & (0xffffffff << (32 - keep))) >>> 0
}

/** Go's Addr.Prefix(bits) for a valid length: the address with its host bits cleared, and the length. */
function maskedPrefix(ip: Addr, bits: number): Prefix {
  const eff = ip.v4 ? bits + 96 : bits
  const a = new Addr(
    maskWord(ip.w0, 0, eff),
    maskWord(ip.w1, 1, eff),
    maskWord(ip.w2, 2, eff),
    maskWord(ip.w3, 3, eff),
    ip.v4,
  )
  return new Prefix(a, bits)
}

/** Whether two addresses of the same family agree on their first `bits` bits (no allocation). */
function sameNetwork(a: Addr, b: Addr, bits: number): boolean {
  const eff = a.v4 ? bits + 96 : bits
  return (
    maskWord((a.w3 ^ b.w3) >>> 0, 3, eff) === 0 &&
    maskWord((a.w2 ^ b.w2) >>> 0, 2, eff) === 0 &&
    maskWord((a.w1 ^ b.w1) >>> 0, 1, eff) === 0 &&
    maskWord((a.w0 ^ b.w0) >>> 0, 0, eff) === 0
  )
}

/** netip.Prefix: an address (host bits kept as written, no zone) and a prefix length. */
export class Prefix extends OpaqueValue {
  constructor(
    readonly addr: Addr,
    readonly bits: number,
  ) {
    super()
  }

  override get typeName(): string {
    return 'net.CIDR'
  }
  /** The Go type Kubernetes holds it as (apiservercel.CIDR), as Go's panics name it. */
  get goType(): string {
    return 'cel.CIDR'
  }

  /** Go's `==` on netip.Prefix: same address as written and same length. */
  override equals(other: OpaqueValue): boolean {
    return other instanceof Prefix && this.bits === other.bits && this.addr.equals(other.addr)
  }

  /** apiserver CIDR.Size(): ceil(bits / 8). */
  size(): number {
    return Math.ceil(this.bits / 8)
  }

  /** The canonical network: host bits cleared. */
  masked(): Prefix {
    return maskedPrefix(this.addr, this.bits)
  }

  /** Whether the network includes ip (families must match; zoned addresses never match). */
  contains(ip: Addr): boolean {
    return ip.zone === '' && ip.v4 === this.addr.v4 && sameNetwork(ip, this.addr, this.bits)
  }

  /** Whether the two networks share any address (Go's Prefix.Overlaps). */
  overlaps(o: Prefix): boolean {
    if (this.equals(o)) return true
    if (this.addr.v4 !== o.addr.v4) return false
    return sameNetwork(this.addr, o.addr, Math.min(this.bits, o.bits))
  }

  /** Go's Prefix.String: `<addr>/<bits>`, the address as written. */
  override toString(): string {
    return `${this.addr.toString()}/${this.bits}`
  }
}

// ---- parsing (Go's ParseAddr / ParsePrefix). Failures return the Go error text instead of throwing.

function addrError(input: string, msg: string, at?: string): string {
  const head = `ParseAddr(${goQuote(input)}): ${msg}`
  return at ? `${head} (at ${goQuote(at)})` : head
}

/**
 * netip.ParseAddr: dotted decimal (exactly four fields, no leading zeros) or IPv6 (RFC 4291, with an
 * optional trailing dotted quad and `%zone`). Returns the address, or Go's error text.
 */
export function parseAddr(s: string): Addr | string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 0x2e) return parseIPv4(s)
    if (c === 0x3a) return parseIPv6(s)
    if (c === 0x25) return addrError(s, 'missing IPv6 address')
  }
  return addrError(s, 'unable to parse IP')
}

/** The four octets of in[off, end) packed into a uint32, or Go's error text (errors name the whole `in`). */
function parseIPv4Fields(input: string, off: number, end: number): number | string {
  let val = 0
  let pos = 0
  let digits = 0
  let acc = 0
  for (let i = off; i < end; i++) {
    const c = input.charCodeAt(i)
    if (c >= 0x30 && c <= 0x39) {
      if (digits === 1 && val === 0) return addrError(input, 'IPv4 field has octet with leading zero')
      val = val * 10 + c - 0x30
      digits++
      if (val > 255) return addrError(input, 'IPv4 field has value >255')
    } else if (c === 0x2e) {
      // .1.2.3, 1.2.3. and 1..2.3
      if (i === off || i === end - 1 || input.charCodeAt(i - 1) === 0x2e) {
        return addrError(input, 'IPv4 field must have at least one digit', input.slice(i, end))
      }
      if (pos === 3) return addrError(input, 'IPv4 address too long')
      acc = acc * 256 + val
      pos++
      val = 0
      digits = 0
    } else {
      return addrError(input, 'unexpected character', input.slice(i, end))
    }
  }
  if (pos < 3) return addrError(input, 'IPv4 address too short')
  return acc * 256 + val
}

function parseIPv4(s: string): Addr | string {
  const v = parseIPv4Fields(s, 0, s.length)
  return typeof v === 'string' ? v : new Addr(0, 0, 0xffff, v, true)
}

// Scratch space for the 8 groups of an IPv6 address being parsed (JS is single-threaded).
const groups = new Uint16Array(8)

function parseIPv6(input: string): Addr | string {
  let end = input.length
  let zone = ''
  const pct = input.indexOf('%')
  if (pct !== -1) {
    zone = input.slice(pct + 1)
    if (zone === '') return addrError(input, 'zone must be a non-empty string')
    end = pct
  }
  groups.fill(0)
  let p = 0 // read position in input[0, end)
  let ellipsis = -1 // group index where `::` stands
  if (end >= 2 && input.charCodeAt(0) === 0x3a && input.charCodeAt(1) === 0x3a) {
    ellipsis = 0
    p = 2
    if (p === end) return new Addr(0, 0, 0, 0, false, zone)
  }
  let g = 0 // groups filled
  while (g < 8) {
    let off = 0
    let acc = 0
    for (; p + off < end; off++) {
      const c = input.charCodeAt(p + off)
      let d: number
      if (c >= 0x30 && c <= 0x39) d = c - 0x30
      else if (c >= 0x61 && c <= 0x66) d = c - 0x61 + 10
      else if (c >= 0x41 && c <= 0x46) d = c - 0x41 + 10
      else break
      acc = acc * 16 + d
      if (off > 3) return addrError(input, 'each group must have 4 or less digits', input.slice(p, end))
    }
    if (off === 0) {
      return addrError(input, 'each colon-separated field must have at least one digit', input.slice(p, end))
    }
    if (p + off < end && input.charCodeAt(p + off) === 0x2e) {
      // a trailing dotted quad fills the last two groups
      if (ellipsis < 0 && g !== 6) {
        return addrError(
          input,
          'embedded IPv4 address must replace the final 2 fields of the address',
          input.slice(p, end),
        )
      }
      if (g + 2 > 8) {
        return addrError(
          input,
          'too many hex fields to fit an embedded IPv4 at the end of the address',
          input.slice(p, end),
        )
      }
      const v = parseIPv4Fields(input, p, end)
      if (typeof v === 'string') return v
      groups[g] = v >>> 16
      groups[g + 1] = v & 0xffff
      g += 2
      p = end
      break
    }
    groups[g++] = acc
    p += off
    if (p === end) break
    if (input.charCodeAt(p) !== 0x3a) {
      return addrError(input, 'unexpected character, want colon', input.slice(p, end))
    }
    if (p + 1 === end) return addrError(input, 'colon must be followed by more characters', input.slice(p, end))
    p++
    if (input.charCodeAt(p) === 0x3a) {
      if (ellipsis >= 0) return addrError(input, 'multiple :: in address', input.slice(p, end))
      ellipsis = g
      p++
      if (p === end) break
    }
  }
  if (p !== end) return addrError(input, 'trailing garbage after address', input.slice(p, end))
  if (g < 8) {
    if (ellipsis < 0) return addrError(input, 'address string too short')
    // move the groups after `::` to the end and zero the gap
    const n = 8 - g
    for (let j = g - 1; j >= ellipsis; j--) groups[j + n] = groups[j] as number
    groups.fill(0, ellipsis, ellipsis + n)
  } else if (ellipsis >= 0) {
    return addrError(input, 'the :: must expand to at least one field of zeros')
  }
  return new Addr(
    (groups[0] * 0x10000 + groups[1]) >>> 0,
    (groups[2] * 0x10000 + groups[3]) >>> 0,
    (groups[4] * 0x10000 + groups[5]) >>> 0,
    (groups[6] * 0x10000 + groups[7]) >>> 0,
    false,
    zone,
  )
}

function prefixError(input: string, msg: string): string {
  return `netip.ParsePrefix(${goQuote(input)}): ${msg}`
}

const INT64_MAX = 9223372036854775807n

/**
 * netip.ParsePrefix: `<addr>/<bits>` with decimal bits (no sign, no leading zeros), no zone. The host
 * bits are kept as written. Returns the prefix, or Go's error text.
 */
export function parsePrefix(s: string): Prefix | string {
  const slash = s.lastIndexOf('/')
  if (slash < 0) return prefixError(s, "no '/'")
  const ip = parseAddr(s.slice(0, slash))
  if (typeof ip === 'string') return prefixError(s, ip)
  if (ip.zone !== '') return prefixError(s, 'IPv6 zones cannot be present in a prefix')
  const bitsStr = s.slice(slash + 1)
  const bits = atoi(bitsStr)
  if (bits < 0) return prefixError(s, `bad bits after slash: ${goQuote(bitsStr)}`)
  if (bits > ip.bitLen()) return prefixError(s, 'prefix length out of range')
  return new Prefix(ip, bits)
}

/**
 * The bits as ParsePrefix reads them: a plain decimal (a lone `0`, or no leading zero or sign) that
 * strconv.Atoi accepts; -1 when rejected. Values beyond int32 are returned as Infinity (out of range).
 */
function atoi(t: string): number {
  const n = t.length
  if (n === 0) return -1
  for (let i = 0; i < n; i++) {
    const c = t.charCodeAt(i)
    if (c < 0x30 || c > 0x39) return -1
  }
  if (n > 1 && t.charCodeAt(0) === 0x30) return -1
  // Atoi fails (so "bad bits") beyond int64; anything else too large is just out of range
  if (n >= 19 && BigInt(t) > INT64_MAX) return -1
  return n > 9 ? Number.POSITIVE_INFINITY : Number(t)
}
