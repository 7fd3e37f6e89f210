import { parseAddr } from '../../kube/values/netip.js'

// strfmt.IsEmail: Go's net/mail ParseAddress (RFC 5322 single address: addr-spec, or an optional
// display name with an angle-addr, or a one-address group) succeeds with a non-empty address. Only
// whether parsing succeeds matters here, so the parser keeps no values beyond what it checks.

const isVchar = (r: number) => (r >= 0x21 && r <= 0x7e) || r >= 0x80
const isWSP = (r: number) => r === 0x20 || r === 0x09
const isQtext = (r: number) => r !== 0x5c && r !== 0x22 && isVchar(r)
const isDtext = (r: number) => r !== 0x5b && r !== 0x5d && r !== 0x5c && isVchar(r)
const SPECIALS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x3a, 0x3b, 0x40, 0x5c, 0x2c, 0x22])

function isAtext(r: number, dot: boolean): boolean {
  if (r === 0x2e) return dot
  if (SPECIALS.has(r)) return false
  return isVchar(r)
}

class Fail extends Error {}

/** The rune at s[i] (lone surrogates read as U+FFFD, as Go's JSON decoding leaves them) and its length. */
function runeAt(s: string, i: number): [number, number] {
  const c = s.codePointAt(i) as number
  if (c >= 0xd800 && c <= 0xdfff) return [0xfffd, 1]
  return [c, c > 0xffff ? 2 : 1]
}

const SUPPORTED_CHARSETS = new Set(['utf-8', 'iso-8859-1', 'us-ascii'])

/** mime.WordDecoder.Decode of an encoded-word fails on its charset (the one error net/mail keeps). */
function charsetFails(word: string): boolean {
  if (word.length < 8 || !word.startsWith('=?') || !word.endsWith('?=') || word.split('?').length !== 5) return false
  const [charset, enc, text] = word.slice(2, -2).split('?') as [string, string, string]
  if (charset === '' || enc.length !== 1) return false
  if (enc === 'b' || enc === 'B') {
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return false
  } else if (enc === 'q' || enc === 'Q') {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c === 0x3d) {
        if (!/^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) return false
        i += 2
      } else if (!((c >= 0x20 && c <= 0x7e) || c === 0x0a || c === 0x0d || c === 0x09)) return false
    }
  } else return false
  return !SUPPORTED_CHARSETS.has(charset.toLowerCase())
}

class AddrParser {
  constructor(public s: string) {}

  empty(): boolean {
    return this.s.length === 0
  }
  peek(): number {
    return this.s.charCodeAt(0)
  }
  consume(c: number): boolean {
    if (this.empty() || this.peek() !== c) return false
    this.s = this.s.slice(1)
    return true
  }
  skipSpace(): void {
    let i = 0
    while (i < this.s.length && isWSP(this.s.charCodeAt(i))) i++
    this.s = this.s.slice(i)
  }
  skipCFWS(): boolean {
    this.skipSpace()
    while (this.consume(0x28)) {
      if (this.consumeComment() === undefined) return false
      this.skipSpace()
    }
    return true
  }
  consumeComment(): string | undefined {
    let depth = 1
    let comment = ''
    while (!this.empty() && depth !== 0) {
      if (this.peek() === 0x5c && this.s.length > 1) this.s = this.s.slice(1)
      else if (this.peek() === 0x28) depth++
      else if (this.peek() === 0x29) depth--
      if (depth > 0) comment += this.s[0]
      this.s = this.s.slice(1)
    }
    return depth === 0 ? comment : undefined
  }

  parseSingleAddress(): boolean {
    const n = this.parseAddress(true)
    if (!this.skipCFWS() || !this.empty()) throw new Fail()
    return n === 1
  }

  /** Returns how many addresses were parsed (a group may hold several or none). */
  parseAddress(handleGroup: boolean): number {
    this.skipSpace()
    if (this.empty()) throw new Fail()
    if (this.tryAddrSpec()) {
      this.skipSpace()
      if (!this.empty() && this.peek() === 0x28) this.consumeDisplayNameComment()
      return 1
    }
    if (this.peek() !== 0x3c) this.consumePhrase()
    this.skipSpace()
    if (handleGroup && this.consume(0x3a)) return this.consumeGroupList()
    if (!this.consume(0x3c)) throw new Fail()
    if (!this.tryAddrSpec() || !this.consume(0x3e)) throw new Fail()
    return 1
  }

  consumeGroupList(): number {
    let n = 0
    this.skipSpace()
    if (this.consume(0x3b)) {
      if (!this.skipCFWS()) throw new Fail()
      return 0
    }
    for (;;) {
      this.skipSpace()
      n += this.parseAddress(false)
      if (!this.skipCFWS()) throw new Fail()
      if (this.consume(0x3b)) {
        if (!this.skipCFWS()) throw new Fail()
        return n
      }
      if (!this.consume(0x2c)) throw new Fail()
    }
  }

  /** consumeAddrSpec; on failure the input is left as it was. */
  tryAddrSpec(): boolean {
    const orig = this.s
    try {
      this.skipSpace()
      if (this.empty()) throw new Fail()
      if (this.peek() === 0x22) {
        if (this.consumeQuotedString() === '') throw new Fail()
      } else this.consumeAtom(true, false)
      if (!this.consume(0x40)) throw new Fail()
      this.skipSpace()
      if (this.empty()) throw new Fail()
      if (this.peek() === 0x5b) this.consumeDomainLiteral()
      else this.consumeAtom(true, false)
      return true
    } catch (e) {
      if (!(e instanceof Fail)) throw e
      this.s = orig
      return false
    }
  }

  consumePhrase(): void {
    const words: string[] = []
    let failed = false
    for (;;) {
      if (words.length > 0 && !this.skipCFWS()) throw new Fail()
      this.skipSpace()
      if (this.empty()) break
      try {
        if (this.peek() === 0x22) words.push(this.consumeQuotedString())
        else {
          const w = this.consumeAtom(true, true)
          if (charsetFails(w)) throw new Fail()
          words.push(w)
        }
      } catch (e) {
        if (!(e instanceof Fail)) throw e
        failed = true
        break
      }
    }
    if (failed && words.length === 0) throw new Fail()
  }

  consumeQuotedString(): string {
    let i = 1
    let out = ''
    let escaped = false
    for (;;) {
      if (i >= this.s.length) throw new Fail()
      const [r, size] = runeAt(this.s, i)
      if (escaped) {
        if (!isVchar(r) && !isWSP(r)) throw new Fail()
        out += String.fromCodePoint(r)
        escaped = false
      } else if (isQtext(r) || isWSP(r)) out += String.fromCodePoint(r)
      else if (r === 0x22) break
      else if (r === 0x5c) escaped = true
      else throw new Fail()
      i += size
    }
    this.s = this.s.slice(i + 1)
    return out
  }

  consumeAtom(dot: boolean, permissive: boolean): string {
    let i = 0
    while (i < this.s.length) {
      const [r, size] = runeAt(this.s, i)
      if (!isAtext(r, dot)) break
      i += size
    }
    if (i === 0) throw new Fail()
    const atom = this.s.slice(0, i)
    this.s = this.s.slice(i)
    if (!permissive && (atom.startsWith('.') || atom.includes('..') || atom.endsWith('.'))) throw new Fail()
    return atom
  }

  consumeDomainLiteral(): void {
    if (!this.consume(0x5b)) throw new Fail()
    let dtext = ''
    for (;;) {
      if (this.empty()) throw new Fail()
      if (this.peek() === 0x5d) break
      const [r, size] = runeAt(this.s, 0)
      if (!isDtext(r)) throw new Fail()
      dtext += this.s.slice(0, size)
      this.s = this.s.slice(size)
    }
    if (!this.consume(0x5d)) throw new Fail()
    if (dtext.startsWith('IPv6:')) {
      // len(net.ParseIP(addr)) == IPv6len: any parsable IP (IPv4 comes back in 16 bytes too)
      const a = parseAddr(dtext.slice(5))
      if (typeof a === 'string' || a.zone !== '') throw new Fail()
    } else {
      const a = parseAddr(dtext)
      if (typeof a === 'string' || a.zone !== '' || !(a.is4() || a.is4In6())) throw new Fail()
    }
  }

  consumeDisplayNameComment(): void {
    if (!this.consume(0x28)) throw new Fail()
    const comment = this.consumeComment()
    if (comment === undefined) throw new Fail()
    for (const w of comment.split(/[ \t]+/)) if (w !== '' && charsetFails(w)) throw new Fail()
  }
}

/** strfmt.IsEmail. */
export function isEmail(s: string): boolean {
  try {
    return new AddrParser(s).parseSingleAddress()
  } catch (e) {
    if (e instanceof Fail) return false
    throw e
  }
}
