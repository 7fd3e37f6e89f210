import { goQuote } from '../../cel/ext/quote.js'
import { OpaqueValue } from '../../cel/values/values.js'

// Go's net/url as Kubernetes' URL library uses it (Parse, ParseRequestURI, String, Hostname, Port,
// EscapedPath, Query), NOT the WHATWG URL class, which normalises paths, lowercases hosts, applies
// default ports and IDNA. Ported from Go's src/net/url/url.go as shipped with the Go releases that
// build Kubernetes 1.34–1.36, including two security fixes of late 2025 / early 2026: bracketed hosts
// must be IPv6 literals (CVE-2025-47912) and Query() gives up beyond 10000 parameters
// (urlmaxqueryparams). Go 1.26's strict colons (urlstrictcolons) is off: Kubernetes' go.mod pins an
// older GODEBUG default, so `host:1:2` takes the last colon as Go ≤1.25 did.
//
// Go works on UTF-8 bytes; these functions work on JS strings, whose structural characters are the same
// ASCII bytes. Escaping encodes non-ASCII characters as UTF-8 %XX; unescaping decodes the bytes back as
// UTF-8 (an invalid sequence Go would keep as raw bytes becomes U+FFFD).

/** A parse failure: the text of Go's error (the `*url.Error` text for Parse / ParseRequestURI). */
export class URLError {
  constructor(readonly message: string) {}
}

/** Go's url.Userinfo. */
export interface Userinfo {
  readonly username: string
  readonly password: string
  readonly passwordSet: boolean
}

/** Go's url.URL: the fields as Go stores them (Path decoded, RawPath only when it differs). */
export class GoURL {
  scheme = ''
  opaque = ''
  user: Userinfo | null = null
  host = ''
  path = ''
  rawPath = ''
  omitHost = false
  forceQuery = false
  rawQuery = ''
  fragment = ''
  rawFragment = ''

  /** URL.EscapedPath. */
  escapedPath(): string {
    if (this.rawPath !== '' && validEncoded(this.rawPath, PATH)) {
      const p = unescape(this.rawPath, PATH)
      if (p === this.path) return this.rawPath
    }
    if (this.path === '*') return '*' // Go issue 11202
    return escape(this.path, PATH)
  }

  /** URL.EscapedFragment. */
  escapedFragment(): string {
    if (this.rawFragment !== '' && validEncoded(this.rawFragment, FRAGMENT)) {
      const f = unescape(this.rawFragment, FRAGMENT)
      if (f === this.fragment) return this.rawFragment
    }
    return escape(this.fragment, FRAGMENT)
  }

  /** URL.Hostname: the host without a valid port, IPv6 brackets removed. */
  hostname(): string {
    return splitHostPort(this.host)[0]
  }

  /** URL.Port: the port without its colon, '' when there is no valid numeric port. */
  port(): string {
    return splitHostPort(this.host)[1]
  }

  /**
   * URL.Query: the RawQuery pairs, unescaped (`+` is a space), values in order of appearance.
   * Malformed pairs (bad escapes, any pair containing `;`) are dropped silently, as Go does.
   */
  query(): Map<string, string[]> {
    return parseQuery(this.rawQuery)
  }

  /** URL.String. */
  toString(): string {
    let buf = ''
    if (this.scheme !== '') buf += `${this.scheme}:`
    if (this.opaque !== '') {
      buf += this.opaque
    } else {
      if (this.scheme !== '' || this.host !== '' || this.user !== null) {
        if (!(this.omitHost && this.host === '' && this.user === null)) {
          if (this.host !== '' || this.path !== '' || this.user !== null) buf += '//'
          if (this.user !== null) buf += `${userinfoString(this.user)}@`
          if (this.host !== '') buf += escape(this.host, HOST)
        }
      }
      const path = this.escapedPath()
      if (path !== '' && path[0] !== '/' && this.host !== '') buf += '/'
      // RFC 3986 §4.2: a first segment with a colon would read as a scheme
      if (buf === '' && firstSegment(path).includes(':')) buf += './'
      buf += path
    }
    if (this.forceQuery || this.rawQuery !== '') buf += `?${this.rawQuery}`
    if (this.fragment !== '') buf += `#${this.escapedFragment()}`
    return buf
  }
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path (no fragment handling). */
export function parseRequestURI(rawURL: string): GoURL | URLError {
  const u = parse(rawURL, true)
  return typeof u === 'string' ? new URLError(`parse ${goQuote(rawURL)}: ${u}`) : u
}

/** Go's url.Parse: any URI reference; `#fragment` is split off first. */
export function parseURL(rawURL: string): GoURL | URLError {
  const hash = rawURL.indexOf('#')
  const u = hash < 0 ? rawURL : rawURL.slice(0, hash)
  const url = parse(u, false)
  if (typeof url === 'string') return new URLError(`parse ${goQuote(u)}: ${url}`)
  if (hash < 0) return url
  const frag = rawURL.slice(hash + 1)
  if (frag === '') return url
  const f = unescape(frag, FRAGMENT)
  if (f instanceof URLError) return new URLError(`parse ${goQuote(rawURL)}: ${f.message}`)
  url.fragment = f
  url.rawFragment = escape(f, FRAGMENT) === frag ? '' : frag
  return url
}

/** The CEL value `kubernetes.URL` (apiserver pkg/cel/url.go): equal when their String() forms are. */
export class URLValue extends OpaqueValue {
  private text: string | undefined
  constructor(readonly url: GoURL) {
    super()
  }
  override get typeName(): string {
    return 'kubernetes.URL'
  }
  /** The Go type Kubernetes holds it as (apiservercel.URL), as Go's panics name it. */
  get goType(): string {
    return 'cel.URL'
  }
  override equals(other: OpaqueValue): boolean {
    return other instanceof URLValue && this.toString() === other.toString()
  }
  override toString(): string {
    this.text ??= this.url.toString()
    return this.text
  }
}

// ---------------------------------------------------------------------------------------------
// Escaping (url.go shouldEscape / escape / unescape)

// Go's encoding modes
const PATH = 1
const PATH_SEGMENT = 2
const HOST = 3
const ZONE = 4
const USER_PASSWORD = 5
const QUERY = 6
const FRAGMENT = 7

function isAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)
}

/** url.go shouldEscape for one byte. */
function computeShouldEscape(c: number, mode: number): boolean {
  if (isAlnum(c)) return false
  const ch = String.fromCharCode(c)
  // §3.2.2: sub-delims, ':' (port), '[' ']' (IPv6), '<' '>' '"' (rejected later anyway)
  if ((mode === HOST || mode === ZONE) && `!$&'()*+,;=:[]<>"`.includes(ch)) return false
  if ('-_.~'.includes(ch)) return false
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case PATH:
        return ch === '?'
      case PATH_SEGMENT:
        return ch === '/' || ch === ';' || ch === ',' || ch === '?'
      case USER_PASSWORD:
        return ch === '@' || ch === '/' || ch === '?' || ch === ':'
      case QUERY:
        return true
      case FRAGMENT:
        return false
    }
  }
  if (mode === FRAGMENT && '!()*'.includes(ch)) return false
  return true
}

/** SHOULD_ESCAPE[mode][byte]; every byte >= 0x80 is escaped in every mode. */
const SHOULD_ESCAPE: Uint8Array[] = []
for (let mode = 0; mode <= FRAGMENT; mode++) {
  const table = new Uint8Array(256).fill(1)
  for (let c = 0; c < 0x80; c++) table[c] = computeShouldEscape(c, mode) ? 1 : 0
  SHOULD_ESCAPE.push(table)
}

function shouldEscape(c: number, mode: number): boolean {
  return SHOULD_ESCAPE[mode]![c] === 1
}

const UPPER_HEX = '0123456789ABCDEF'

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10
  return -1
}

const utf8 = new TextEncoder()
const utf8Decoder = new TextDecoder()

/** url.go escape: bytes that need it become %XX (UTF-8 bytes for non-ASCII); in query mode ' ' is '+'. */
function escape(s: string, mode: number): string {
  const table = SHOULD_ESCAPE[mode]!
  let i = 0
  while (i < s.length && table[s.charCodeAt(i)] === 0) i++
  if (i === s.length) return s
  let out = s.slice(0, i)
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) {
      if (table[c] === 0) out += s[i]
      else if (c === 0x20 && mode === QUERY) out += '+'
      else out += `%${UPPER_HEX[c >> 4]}${UPPER_HEX[c & 15]}`
      continue
    }
    // a whole code point (surrogate pair included) as UTF-8 bytes
    const pair = c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    for (const b of utf8.encode(pair ? s.slice(i, i + 2) : s[i])) out += `%${UPPER_HEX[b >> 4]}${UPPER_HEX[b & 15]}`
    if (pair) i++
  }
  return out
}

/** Go's EscapeError text for the (at most 3-byte) escape starting at `i`. */
function escapeError(s: string, i: number): URLError {
  const bytes = utf8.encode(s.slice(i, i + 3)).subarray(0, 3)
  return new URLError(`invalid URL escape ${quoteBytes(bytes)}`)
}

/** strconv.Quote of a byte string: valid UTF-8 as Quote prints runes, other bytes as \xNN. */
function quoteBytes(bytes: Uint8Array): string {
  let out = '"'
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    const n = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 0
    let valid = n > 0 && i + n <= bytes.length
    for (let k = 1; valid && k < n; k++) valid = (bytes[i + k]! & 0xc0) === 0x80
    if (!valid) {
      out += `\\x${(b >> 4).toString(16)}${(b & 15).toString(16)}`
      i++
      continue
    }
    out += goQuote(utf8Decoder.decode(bytes.subarray(i, i + n))).slice(1, -1)
    i += n
  }
  return `${out}"`
}

/** url.go unescape: %XX decoding (and '+' → ' ' in query mode), with the host and zone restrictions. */
function unescape(s: string, mode: number): string | URLError {
  let n = 0
  let hasPlus = false
  const hostLike = mode === HOST || mode === ZONE
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i)
    if (c === 0x25) {
      n++
      const h1 = hexVal(s.charCodeAt(i + 1))
      const h2 = hexVal(s.charCodeAt(i + 2))
      if (h1 < 0 || h2 < 0) return escapeError(s, i)
      // RFC 3986: a host may %-encode only non-ASCII bytes; RFC 6874 adds %25 for IPv6 zones
      if (mode === HOST && h1 < 8 && s.slice(i, i + 3) !== '%25') return escapeError(s, i)
      if (mode === ZONE) {
        const v = (h1 << 4) | h2
        if (s.slice(i, i + 3) !== '%25' && v !== 0x20 && shouldEscape(v, HOST)) return escapeError(s, i)
      }
      i += 3
    } else if (c === 0x2b) {
      hasPlus = mode === QUERY
      i++
    } else {
      if (hostLike && c < 0x80 && shouldEscape(c, mode)) {
        return new URLError(`invalid character ${goQuote(s[i]!)} in host name`)
      }
      i++
    }
  }
  if (n === 0 && !hasPlus) return s
  return decodeEscapes(s, mode === QUERY)
}

/** Decodes the (validated) %XX escapes of `s` as UTF-8 bytes; '+' becomes ' ' when `plusIsSpace`. */
function decodeEscapes(s: string, plusIsSpace: boolean): string {
  const bytes: number[] = []
  let ascii = true
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 0x25) {
      const b = (hexVal(s.charCodeAt(i + 1)) << 4) | hexVal(s.charCodeAt(i + 2))
      if (b >= 0x80) ascii = false
      bytes.push(b)
      i += 2
    } else if (c === 0x2b) {
      bytes.push(plusIsSpace ? 0x20 : 0x2b)
    } else if (c < 0x80) {
      bytes.push(c)
    } else {
      const pair = c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
      for (const b of utf8.encode(pair ? s.slice(i, i + 2) : s[i])) bytes.push(b)
      if (pair) i++
      ascii = false
    }
  }
  if (!ascii) return utf8Decoder.decode(Uint8Array.from(bytes))
  let out = ''
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.slice(i, i + 4096))
  return out
}

/** url.go validEncoded: `s` contains no byte that escaping would change (sub-delims, ':', '@', '[', ']', '%' allowed). */
function validEncoded(s: string, mode: number): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80 && `!$&'()*+,;=:@[]%`.includes(s[i]!)) continue
    if (c >= 0x80 || shouldEscape(c, mode)) return false
  }
  return true
}

// ---------------------------------------------------------------------------------------------
// Parsing (url.go parse, parseAuthority, parseHost)

function hasControlByte(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}

function firstSegment(s: string): string {
  const slash = s.indexOf('/')
  return slash < 0 ? s : s.slice(0, slash)
}

/** url.go parse; a string result is Go's inner error text. */
function parse(rawURL: string, viaRequest: boolean): GoURL | string {
  if (hasControlByte(rawURL)) return 'net/url: invalid control character in URL'
  if (rawURL === '' && viaRequest) return 'empty url'
  const url = new GoURL()
  if (rawURL === '*') {
    url.path = '*'
    return url
  }
  // getScheme: [a-zA-Z][a-zA-Z0-9+.-]* before the first ':'
  let rest = rawURL
  for (let i = 0; i < rawURL.length; i++) {
    const c = rawURL.charCodeAt(i)
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) break
      continue
    }
    if (c === 0x3a) {
      if (i === 0) return 'missing protocol scheme'
      url.scheme = rawURL.slice(0, i).toLowerCase()
      rest = rawURL.slice(i + 1)
    }
    break
  }
  const q = rest.indexOf('?')
  if (q === rest.length - 1 && q >= 0) {
    url.forceQuery = true
    rest = rest.slice(0, -1)
  } else if (q >= 0) {
    url.rawQuery = rest.slice(q + 1)
    rest = rest.slice(0, q)
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest // a rootless path (RFC 3986) is opaque
      return url
    }
    if (viaRequest) return 'invalid URI for request'
    // golang.org/issue/16822: not a malformed scheme like cache_object:foo/bar
    if (firstSegment(rest).includes(':')) return 'first path segment in URL cannot contain colon'
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2)
    rest = ''
    const slash = authority.indexOf('/')
    if (slash >= 0) {
      rest = authority.slice(slash)
      authority = authority.slice(0, slash)
    }
    const err = parseAuthority(url, authority)
    if (err !== undefined) return err
  } else if (url.scheme !== '' && rest.startsWith('/')) {
    url.omitHost = true // golang.org/issue/46059
  }
  const path = unescape(rest, PATH)
  if (path instanceof URLError) return path.message
  url.path = path
  url.rawPath = escape(path, PATH) === rest ? '' : rest
  return url
}

/** url.go parseAuthority: sets user and host, or returns Go's error text. */
function parseAuthority(url: GoURL, authority: string): string | undefined {
  const at = authority.lastIndexOf('@')
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1))
  if (host instanceof URLError) return host.message
  url.host = host
  if (at < 0) return undefined
  const userinfo = authority.slice(0, at)
  if (!validUserinfo(userinfo)) return 'net/url: invalid userinfo'
  const colon = userinfo.indexOf(':')
  const username = unescape(colon < 0 ? userinfo : userinfo.slice(0, colon), USER_PASSWORD)
  if (username instanceof URLError) return username.message
  if (colon < 0) {
    url.user = { username, password: '', passwordSet: false }
    return undefined
  }
  const password = unescape(userinfo.slice(colon + 1), USER_PASSWORD)
  if (password instanceof URLError) return password.message
  url.user = { username, password, passwordSet: true }
  return undefined
}

/** url.go validUserinfo (RFC 3986 §3.2.1; pct-encoding is checked by unescape). */
function validUserinfo(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (isAlnum(c)) continue
    if (c >= 0x80 || !`-._:~!$&'()*+,;=%@`.includes(s[i]!)) return false
  }
  return true
}

/** url.go parseHost: `host[:port]`, or an IPv6 literal in brackets (which must parse as IPv6). */
function parseHost(host: string): string | URLError {
  const open = host.lastIndexOf('[')
  if (open > 0) return new URLError('invalid IP-literal')
  if (open === 0) {
    const close = host.lastIndexOf(']')
    if (close < 0) return new URLError("missing ']' in host")
    const colonPort = host.slice(close + 1)
    if (!validOptionalPort(colonPort)) return new URLError(`invalid port ${goQuote(colonPort)} after host`)
    const hostname = host.slice(1, close)
    // RFC 6874: %25 introduces the zone, which may use any %-encoding of host characters
    const zone = hostname.indexOf('%25')
    let unescaped: string
    if (zone >= 0) {
      const part = unescape(hostname.slice(0, zone), HOST)
      if (part instanceof URLError) return part
      const zonePart = unescape(hostname.slice(zone), ZONE)
      if (zonePart instanceof URLError) return zonePart
      unescaped = part + zonePart
    } else {
      const part = unescape(hostname, HOST)
      if (part instanceof URLError) return part
      unescaped = part
    }
    // only an IPv6 address may be bracketed (IPv4-mapped IPv6 is still IPv6)
    const family = parseAddrFamily(unescaped)
    if (family instanceof URLError) return new URLError(`invalid host: ${family.message}`)
    if (family === 4) return new URLError('invalid IP-literal')
    return `[${unescaped}]${colonPort}`
  }
  const colon = host.lastIndexOf(':')
  if (colon >= 0) {
    const colonPort = host.slice(colon)
    if (!validOptionalPort(colonPort)) return new URLError(`invalid port ${goQuote(colonPort)} after host`)
  }
  return unescape(host, HOST)
}

/** Either '' or ':' followed by ASCII digits only. */
function validOptionalPort(port: string): boolean {
  if (port === '') return true
  if (port[0] !== ':') return false
  for (let i = 1; i < port.length; i++) {
    const c = port.charCodeAt(i)
    if (c < 0x30 || c > 0x39) return false
  }
  return true
}

/** url.go splitHostPort: only a valid numeric port is split off; brackets around the host are removed. */
function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort
  let port = ''
  const colon = host.lastIndexOf(':')
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1)
    host = host.slice(0, colon)
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1)
  return [host, port]
}

function userinfoString(u: Userinfo): string {
  let s = escape(u.username, USER_PASSWORD)
  if (u.passwordSet) s += `:${escape(u.password, USER_PASSWORD)}`
  return s
}

/** Go's default limit on query parameters (urlmaxqueryparams): beyond it ParseQuery returns no values. */
const MAX_QUERY_PARAMS = 10000

/** url.go parseQuery with its errors discarded (URL.Query). */
function parseQuery(query: string): Map<string, string[]> {
  const m = new Map<string, string[]>()
  if (query === '') return m
  let amps = 0
  for (let i = query.indexOf('&'); i >= 0; i = query.indexOf('&', i + 1)) amps++
  if (amps + 1 > MAX_QUERY_PARAMS) return m
  let start = 0
  while (start <= query.length) {
    let end = query.indexOf('&', start)
    if (end < 0) end = query.length
    const pair = query.slice(start, end)
    start = end + 1
    if (pair === '' || pair.includes(';')) continue // "invalid semicolon separator in query"
    const eq = pair.indexOf('=')
    const key = unescape(eq < 0 ? pair : pair.slice(0, eq), QUERY)
    if (key instanceof URLError) continue
    const value = unescape(eq < 0 ? '' : pair.slice(eq + 1), QUERY)
    if (value instanceof URLError) continue
    const list = m.get(key)
    if (list) list.push(value)
    else m.set(key, [value])
  }
  return m
}

// ---------------------------------------------------------------------------------------------
// netip.ParseAddr, as far as parseHost needs it: the address family, or Go's error text
// (src/net/netip/netip.go parseIPv4Fields / parseIPv6).

function addrError(input: string, msg: string, at?: string): URLError {
  const tail = at ? ` (at ${goQuote(at)})` : ''
  return new URLError(`ParseAddr(${goQuote(input)}): ${msg}${tail}`)
}

/** 4 or 6 for a valid address (an IPv6 zone allowed), else netip's parse error. */
function parseAddrFamily(s: string): 4 | 6 | URLError {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c === '.') {
      const err = checkIPv4Fields(s, 0, s.length)
      return err ?? 4
    }
    if (c === ':') return checkIPv6(s)
    if (c === '%') return addrError(s, 'missing IPv6 address')
  }
  return addrError(s, 'unable to parse IP')
}

/** parseIPv4Fields over in[off:end]. */
function checkIPv4Fields(input: string, off: number, end: number): URLError | undefined {
  const s = input.slice(off, end)
  let val = 0
  let pos = 0
  let digits = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x30 && c <= 0x39) {
      if (digits === 1 && val === 0) return addrError(input, 'IPv4 field has octet with leading zero')
      val = val * 10 + (c - 0x30)
      digits++
      if (val > 255) return addrError(input, 'IPv4 field has value >255')
    } else if (c === 0x2e) {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') {
        return addrError(input, 'IPv4 field must have at least one digit', s.slice(i))
      }
      if (pos === 3) return addrError(input, 'IPv4 address too long')
      pos++
      val = 0
      digits = 0
    } else {
      return addrError(input, 'unexpected character', s.slice(i))
    }
  }
  if (pos < 3) return addrError(input, 'IPv4 address too short')
  return undefined
}

/** parseIPv6 (the zone after '%' must be non-empty). */
function checkIPv6(input: string): 6 | URLError {
  let s = input
  let zoneLen = 0
  const pct = s.indexOf('%')
  if (pct >= 0) {
    zoneLen = s.length - pct - 1
    if (zoneLen === 0) return addrError(input, 'zone must be a non-empty string')
    s = s.slice(0, pct)
  }
  let ellipsis = -1
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0
    s = s.slice(2)
    if (s.length === 0) return 6
  }
  let i = 0
  while (i < 16) {
    let off = 0
    let acc = 0
    for (; off < s.length; off++) {
      const h = hexVal(s.charCodeAt(off))
      if (h < 0) break
      acc = acc * 16 + h
      if (off > 3) return addrError(input, 'each group must have 4 or less digits', s)
      if (acc > 0xffff) return addrError(input, 'IPv6 field has value >=2^16', s)
    }
    if (off === 0) return addrError(input, 'each colon-separated field must have at least one digit', s)
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) {
        return addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s)
      }
      if (i + 4 > 16) {
        return addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s)
      }
      const end = input.length - (zoneLen > 0 ? zoneLen + 1 : 0)
      const err = checkIPv4Fields(input, end - s.length, end)
      if (err) return err
      s = ''
      i += 4
      break
    }
    i += 2
    s = s.slice(off)
    if (s.length === 0) break
    if (s[0] !== ':') return addrError(input, 'unexpected character, want colon', s)
    if (s.length === 1) return addrError(input, 'colon must be followed by more characters', s)
    s = s.slice(1)
    if (s[0] === ':') {
      if (ellipsis >= 0) return addrError(input, 'multiple :: in address', s)
      ellipsis = i
      s = s.slice(1)
      if (s.length === 0) break
    }
  }
  if (s.length !== 0) return addrError(input, 'trailing garbage after address', s)
  if (i < 16) {
    if (ellipsis < 0) return addrError(input, 'address string too short')
  } else if (ellipsis >= 0) {
    return addrError(input, 'the :: must expand to at least one field of zeros')
  }
  return 6
}
