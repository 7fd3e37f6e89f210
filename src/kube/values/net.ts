import { RE2JS } from 're2js'
import { utf8Length } from '../validation/utf8.js'
import { parseAddr } from './netip.js'

// The network formats of kube-openapi's strfmt registry (strfmt/default.go): ipv4 and cidr through
// k8s.io/utils/net ParseIPSloppy / ParseCIDRSloppy (Go 1.16's parser: leading zeros allowed), ipv6
// through today's net.ParseIP (no zones), mac through net.ParseMAC, hostname through its RFC 1034
// pattern plus the length limits.

const BIG = 0xffffff

/** Go 1.16 dtoi: decimal digits at s[i:], stopping at `big`. Returns [n, end] or undefined. */
function dtoi(s: string, i: number): [number, number] | undefined {
  let n = 0
  let j = i
  for (; j < s.length && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x39; j++) {
    n = n * 10 + (s.charCodeAt(j) - 0x30)
    if (n >= BIG) return undefined
  }
  return j === i ? undefined : [n, j]
}

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (c >= 0x61 && c <= 0x66) return c - 0x57
  if (c >= 0x41 && c <= 0x46) return c - 0x37
  return -1
}

/** Go 1.16 xtoi: hex digits at s[i:], stopping at `big`. */
function xtoi(s: string, i: number): [number, number] | undefined {
  let n = 0
  let j = i
  for (; j < s.length; j++) {
    const h = hexVal(s.charCodeAt(j))
    if (h < 0) break
    n = n * 16 + h
    if (n >= BIG) return undefined
  }
  return j === i ? undefined : [n, j]
}

/** Go 1.16 parseIPv4 over s[i:]: four decimal fields of at most 255, leading zeros allowed. */
function sloppyIPv4(s: string, i: number): boolean {
  for (let f = 0; f < 4; f++) {
    if (i >= s.length) return false
    if (f > 0) {
      if (s.charCodeAt(i) !== 0x2e) return false
      i++
    }
    const r = dtoi(s, i)
    if (r === undefined || r[0] > 0xff) return false
    i = r[1]
  }
  return i === s.length
}

/** Go 1.16 parseIPv6 (no zone). */
function sloppyIPv6(s: string): boolean {
  let ellipsis = -1
  let i = 0
  let n = 0 // bytes parsed
  if (s.length >= 2 && s.charCodeAt(0) === 0x3a && s.charCodeAt(1) === 0x3a) {
    ellipsis = 0
    i = 2
    if (i === s.length) return true
  }
  while (n < 16) {
    const r = xtoi(s, i)
    if (r === undefined || r[0] > 0xffff) return false
    const c = r[1]
    if (c < s.length && s.charCodeAt(c) === 0x2e) {
      if (ellipsis < 0 && n !== 12) return false
      if (n + 4 > 16) return false
      if (!sloppyIPv4(s, i)) return false
      i = s.length
      n += 4
      break
    }
    n += 2
    i = c
    if (i === s.length) break
    if (s.charCodeAt(i) !== 0x3a || i + 1 === s.length) return false
    i++
    if (s.charCodeAt(i) === 0x3a) {
      if (ellipsis >= 0) return false
      ellipsis = n
      i++
      if (i === s.length) break
    }
  }
  if (i !== s.length) return false
  if (n < 16) return ellipsis >= 0
  return ellipsis < 0
}

/** netutils.ParseIPSloppy(s) != nil: the first `.` or `:` decides the family. */
export function parseIPSloppy(s: string): 4 | 6 | undefined {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 0x2e) return sloppyIPv4(s, 0) ? 4 : undefined
    if (c === 0x3a) return sloppyIPv6(s) ? 6 : undefined
  }
  return undefined
}

/** strfmt isIPv4: any sloppy IP whose text has a dot (so `::ffff:1.2.3.4` counts). */
export function isIPv4(s: string): boolean {
  return parseIPSloppy(s) !== undefined && s.includes('.')
}

/** govalidator.IsIPv6: net.ParseIP (netip, zones rejected) and a colon in the text. */
export function isIPv6(s: string): boolean {
  const a = parseAddr(s)
  return typeof a !== 'string' && a.zone === '' && s.includes(':')
}

/** netutils.ParseCIDRSloppy succeeds: `addr/len`, IPv4 tried first, len in decimal up to the address size. */
export function isCIDR(s: string): boolean {
  const slash = s.indexOf('/')
  if (slash < 0) return false
  const addr = s.slice(0, slash)
  let bits = 32
  if (!sloppyIPv4(addr, 0)) {
    if (!sloppyIPv6(addr)) return false
    bits = 128
  }
  const r = dtoi(s, slash + 1)
  return r !== undefined && r[1] === s.length && r[0] <= bits
}

/** net.ParseMAC: 6, 8 or 20 octets as `xx:xx…`, `xx-xx…` or `xxxx.xxxx…`. */
export function isMAC(s: string): boolean {
  if (s.length < 14) return false
  const octet = (i: number, sep: number): boolean =>
    hexVal(s.charCodeAt(i)) >= 0 &&
    hexVal(s.charCodeAt(i + 1)) >= 0 &&
    (i + 2 >= s.length || s.charCodeAt(i + 2) === sep)
  const c2 = s.charCodeAt(2)
  if (c2 === 0x3a || c2 === 0x2d) {
    if ((s.length + 1) % 3 !== 0) return false
    const n = (s.length + 1) / 3
    if (n !== 6 && n !== 8 && n !== 20) return false
    for (let i = 0, x = 0; i < n; i++, x += 3) if (!octet(x, c2)) return false
    return true
  }
  if (s.charCodeAt(4) === 0x2e) {
    if ((s.length + 1) % 5 !== 0) return false
    const n = (2 * (s.length + 1)) / 5
    if (n !== 6 && n !== 8 && n !== 20) return false
    for (let i = 0, x = 0; i < n; i += 2, x += 5) {
      // the first octet of a group is read from s[x:x+2] alone, the second must be followed by '.'
      if (hexVal(s.charCodeAt(x)) < 0 || hexVal(s.charCodeAt(x + 1)) < 0) return false
      if (!octet(x + 2, 0x2e)) return false
    }
    return true
  }
  return false
}

const HOSTNAME_PATTERN =
  '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$'
let hostnameRE: ReturnType<RE2JS['re2']> | undefined

/** strfmt.IsHostname: the pattern, at most 255 bytes, labels of at most 63 bytes. */
export function isHostname(s: string): boolean {
  hostnameRE ??= RE2JS.compile(HOSTNAME_PATTERN).re2()
  if (!hostnameRE.match(s)) return false
  if (utf8Length(s) > 255) return false
  return s.split('.').every((p) => utf8Length(p) <= 63)
}
