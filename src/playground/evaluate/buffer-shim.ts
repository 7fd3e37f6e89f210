// Node's `Buffer` global, as far as kelp's core uses it, for a page (which has none): the UTF-8 byte lengths Go
// measures strings in, bytes from UTF-8, base64, arrays and views, and their text as UTF-8 (a BOM kept, invalid
// sequences as U+FFFD: what Node's toString does), base64, hex or latin-1. Installed only where no Buffer is
// (this module is the page entry's first import, so it runs before any module that reads Buffer).

type Encoding = 'utf8' | 'utf-8' | 'base64' | 'base64url' | 'hex' | 'latin1' | 'binary'

const encoder = new TextEncoder()
// ignoreBOM: a leading U+FEFF stays in the text, as Node's toString keeps it
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
// Node's decoder reads both alphabets, skips other characters and stops at padding
const B64_INDEX = new Int16Array(128).fill(-1)
for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i
B64_INDEX[45] = 62 // -
B64_INDEX[95] = 63 // _

/** The UTF-8 length of a string (a lone surrogate is U+FFFD's 3 bytes, as TextEncoder and Node encode it). */
export function utf8ByteLength(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4
        i++
      } else n += 3
    } else n += 3
  }
  return n
}

function base64Decode(s: string): Uint8Array {
  const out = new Uint8Array(Math.ceil((s.length * 3) / 4))
  let acc = 0
  let bits = 0
  let o = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 61) break // =
    const v = c < 128 ? (B64_INDEX[c] as number) : -1
    if (v < 0) continue
    acc = ((acc << 6) | v) & 0xffffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 0xff
    }
  }
  return out.subarray(0, o)
}

function base64Encode(b: Uint8Array, url: boolean): string {
  const alphabet = url ? `${B64.slice(0, 62)}-_` : B64
  let out = ''
  let i = 0
  for (; i + 2 < b.length; i += 3) {
    const n = ((b[i] as number) << 16) | ((b[i + 1] as number) << 8) | (b[i + 2] as number)
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!
  }
  const rest = b.length - i
  if (rest > 0) {
    const n = ((b[i] as number) << 16) | (rest === 2 ? (b[i + 1] as number) << 8 : 0)
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]!
    out += rest === 2 ? alphabet[(n >> 6) & 63]! : url ? '' : '='
    if (!url) out += '='
  }
  return out
}

/** The subset of Node's Buffer kelp's core uses, over Uint8Array. */
export class PageBuffer extends Uint8Array {
  static override from(value: unknown, encodingOrOffset?: unknown, length?: number): PageBuffer {
    if (typeof value === 'string') {
      const enc = (typeof encodingOrOffset === 'string' ? encodingOrOffset : 'utf8').toLowerCase() as Encoding
      let bytes: Uint8Array
      if (enc === 'base64' || enc === 'base64url') bytes = base64Decode(value)
      else if (enc === 'hex') {
        const n = value.length >> 1
        bytes = new Uint8Array(n)
        for (let i = 0; i < n; i++) {
          const v = Number.parseInt(value.slice(2 * i, 2 * i + 2), 16)
          if (Number.isNaN(v)) {
            bytes = bytes.subarray(0, i)
            break
          }
          bytes[i] = v
        }
      } else if (enc === 'latin1' || enc === 'binary') {
        bytes = new Uint8Array(value.length)
        for (let i = 0; i < value.length; i++) bytes[i] = value.charCodeAt(i) & 0xff
      } else bytes = encoder.encode(value)
      return new PageBuffer(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length)
    }
    if (value instanceof ArrayBuffer) {
      const offset = typeof encodingOrOffset === 'number' ? encodingOrOffset : 0
      return new PageBuffer(value, offset, length ?? value.byteLength - offset)
    }
    if (ArrayBuffer.isView(value)) {
      // a copy, as Node's Buffer.from(view)
      const v = value as Uint8Array
      const out = new PageBuffer(v.length)
      out.set(v)
      return out
    }
    if (Array.isArray(value)) {
      const out = new PageBuffer(value.length)
      for (let i = 0; i < value.length; i++) out[i] = Number(value[i]) & 0xff
      return out
    }
    throw new TypeError('Buffer.from: unsupported value')
  }

  static byteLength(value: string | ArrayBufferView | ArrayBuffer, encoding?: string): number {
    if (typeof value !== 'string') return value.byteLength
    if (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8') return utf8ByteLength(value)
    return PageBuffer.from(value, encoding).length
  }

  static compare(a: Uint8Array, b: Uint8Array): number {
    const n = Math.min(a.length, b.length)
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number) ? -1 : 1
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1
  }

  static isBuffer(v: unknown): boolean {
    return v instanceof PageBuffer
  }

  override toString(encoding?: string): string {
    const enc = (encoding ?? 'utf8').toLowerCase()
    if (enc === 'base64' || enc === 'base64url') return base64Encode(this, enc === 'base64url')
    if (enc === 'hex') {
      let out = ''
      for (const b of this) out += b.toString(16).padStart(2, '0')
      return out
    }
    if (enc === 'latin1' || enc === 'binary') {
      let out = ''
      for (const b of this) out += String.fromCharCode(b)
      return out
    }
    return decoder.decode(this)
  }
}

if ((globalThis as { Buffer?: unknown }).Buffer === undefined) (globalThis as { Buffer?: unknown }).Buffer = PageBuffer
