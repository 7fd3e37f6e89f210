// A bounded DER reader: one tag-length-value at a time, every length checked against the bytes left (no
// recursion, no allocation beyond views of the input), enough to take a PKCS#10 request apart the way Go's
// encoding/asn1 Unmarshal does for x509.ParseCertificateRequest. The error texts are encoding/asn1's for
// the failures a mangled request meets most (truncation, non-minimal lengths, a wrong tag); other
// encoding/asn1 texts (its structure errors name Go types) are not reproduced word for word.

export interface TLV {
  readonly cls: number
  readonly constructed: boolean
  readonly tag: number
  /** The whole element (header and content). */
  readonly full: Uint8Array
  readonly content: Uint8Array
}

export class DERError extends Error {}

const syntax = (msg: string) => new DERError(`asn1: syntax error: ${msg}`)
const structure = (msg: string) => new DERError(`asn1: structure error: ${msg}`)

export interface Header {
  readonly cls: number
  readonly constructed: boolean
  readonly tag: number
  readonly length: number
  /** Where the content starts. */
  readonly start: number
}

/** parseTagAndLength (encoding/asn1 asn1.go), at `offset` of `b`: the length not yet checked against the bytes. */
export function readHeader(b: Uint8Array, offset: number): Header {
  let i = offset
  if (i >= b.length) throw syntax('sequence truncated')
  const first = b[i++] as number
  const cls = first >> 6
  const constructed = (first & 0x20) !== 0
  let tag = first & 0x1f
  if (tag === 0x1f) {
    tag = 0
    for (let n = 0; ; n++) {
      if (i >= b.length) throw syntax('truncated tag or length')
      if (n >= 4) throw structure('base 128 integer too large')
      const c = b[i++] as number
      tag = tag * 128 + (c & 0x7f)
      if ((c & 0x80) === 0) break
    }
    if (tag < 0x1f) throw syntax('non-minimal tag')
  }
  if (i >= b.length) throw syntax('truncated tag or length')
  let c = b[i++] as number
  let length: number
  if ((c & 0x80) === 0) length = c & 0x7f
  else {
    const n = c & 0x7f
    if (n === 0) throw syntax('indefinite length found (not DER)')
    length = 0
    for (let k = 0; k < n; k++) {
      if (i >= b.length) throw syntax('truncated tag or length')
      c = b[i++] as number
      if (length >= 2 ** 23) throw structure('length too large')
      length = length * 256 + c
      if (length === 0) throw structure('superfluous leading zeros in length')
    }
    if (length < 0x80) throw structure('non-minimal length')
  }
  return { cls, constructed, tag, length, start: i }
}

/** readHeader, then the content (a length past the end: `data truncated`). */
export function readTLV(b: Uint8Array, offset: number): { tlv: TLV; next: number } {
  const h = readHeader(b, offset)
  if (h.length > b.length - h.start) throw syntax('data truncated')
  const end = h.start + h.length
  const tlv = {
    cls: h.cls,
    constructed: h.constructed,
    tag: h.tag,
    full: b.subarray(offset, end),
    content: b.subarray(h.start, end),
  }
  return { tlv, next: end }
}

/**
 * encoding/asn1's StructuralError for an element whose tag is not the expected one, as parseField words it
 * for a field with default parameters of the Go type `typeName` (@ the offset after the header).
 */
export function tagMismatch(expected: number, h: Header, typeName: string): DERError {
  return structure(
    `tags don't match (${expected} vs {class:${h.cls} tag:${h.tag} length:${h.length} isCompound:${h.constructed}}) ` +
      '{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 ' +
      `timeType:0 set:false omitEmpty:false} ${typeName} @${h.start}`,
  )
}

/** The elements of a constructed value's content, in order. */
export function children(content: Uint8Array): TLV[] {
  const out: TLV[] = []
  for (let i = 0; i < content.length; ) {
    const r = readTLV(content, i)
    out.push(r.tlv)
    i = r.next
  }
  return out
}

export const SEQUENCE = 16
export const OID = 6
export const BIT_STRING = 3
export const INTEGER = 2
export const NULL = 5

/** The dotted text of an OBJECT IDENTIFIER's content ('' when malformed). */
export function oidText(c: Uint8Array): string {
  if (c.length === 0) return ''
  const arcs: number[] = []
  let v = 0
  for (let i = 0; i < c.length; i++) {
    const x = c[i] as number
    v = v * 128 + (x & 0x7f)
    if (v > Number.MAX_SAFE_INTEGER / 128) return ''
    if ((x & 0x80) === 0) {
      if (arcs.length === 0) arcs.push(v < 80 ? Math.floor(v / 40) : 2, v < 80 ? v % 40 : v - 80)
      else arcs.push(v)
      v = 0
    } else if (i === c.length - 1) return ''
  }
  return arcs.join('.')
}
