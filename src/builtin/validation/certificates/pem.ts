// encoding/pem Decode (Go 1.26 src/encoding/pem/pem.go) over bytes held as a latin-1 string: the first
// well-formed block (type line, optional `Key: value` headers, base64 body, matching END line) and what follows
// it; a malformed candidate is skipped as Go skips it. Linear in the input.

export interface PEMBlock {
  readonly type: string
  readonly headers: number
  /** The decoded bytes. */
  readonly bytes: Uint8Array
}

const PEM_START = '\n-----BEGIN '
const PEM_END = '\n-----END '
const EOL = '-----'

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]))

/** base64.StdEncoding.Decode (newlines and carriage returns ignored, padding required). */
export function decodeStdBase64(s: string): Uint8Array | undefined {
  const t = s.replace(/[\r\n]/g, '')
  if (t.length % 4 !== 0) return undefined
  const pad = t.endsWith('==') ? 2 : t.endsWith('=') ? 1 : 0
  const out = new Uint8Array((t.length / 4) * 3 - pad)
  let o = 0
  for (let i = 0; i < t.length; i += 4) {
    const last = i + 4 === t.length
    let v = 0
    for (let j = 0; j < 4; j++) {
      const c = t[i + j] as string
      const d = B64_INDEX.get(c)
      if (d === undefined && !(c === '=' && last && j >= 4 - pad)) return undefined
      v = (v << 6) | (d ?? 0)
    }
    const bytes = [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff]
    for (let j = 0; j < 3 && o < out.length; j++) out[o++] = bytes[j] as number
  }
  return out
}

/** Bytes as a latin-1 string (one character per byte), in chunks the argument list can hold. */
export function latin1(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return s
}

/** pem.Decode: the first block, or undefined. */
export function pemDecode(data: string): PEMBlock | undefined {
  return pemDecodeRest(data)?.block
}

/**
 * pem.Decode: the first block and the data after it, or undefined. Offsets into `data` rather than slices, the
 * next END line looked up once for all the candidates before it, and a body given up at its first character
 * that base64 cannot hold: linear in the input, where Go's own loop is quadratic for many BEGIN lines.
 */
export function pemDecodeRest(data: string): { block: PEMBlock; rest: string } | undefined {
  let pos = 0
  let nextEnd = -2
  const findEnd = (from: number): number => {
    if (nextEnd !== -1 && nextEnd < from) nextEnd = data.indexOf(PEM_END, from)
    return nextEnd
  }
  // getLine: the line at `at` (trailing spaces, tabs and \r trimmed) and where the next one starts
  const lineAt = (at: number): [string, number] => {
    const i = data.indexOf('\n', at)
    const line = data.slice(at, i < 0 ? data.length : i)
    return [line.replace(/[ \t\r]+$/, ''), i < 0 ? data.length : i + 1]
  }
  for (;;) {
    if (data.startsWith(PEM_START.slice(1), pos)) pos += PEM_START.length - 1
    else {
      const i = data.indexOf(PEM_START, pos)
      if (i < 0) return undefined
      pos = i + PEM_START.length
    }
    let typeLine: string
    ;[typeLine, pos] = lineAt(pos)
    if (!typeLine.endsWith(EOL)) continue
    typeLine = typeLine.slice(0, -EOL.length)
    let headers = 0
    for (;;) {
      if (pos >= data.length) return undefined
      const [line, next] = lineAt(pos)
      if (!line.includes(':')) break
      headers++
      pos = next
    }
    let endIndex: number
    let endTrailerIndex: number
    if (headers === 0 && data.startsWith(PEM_END.slice(1), pos)) {
      endIndex = pos
      endTrailerIndex = pos + PEM_END.length - 1
    } else {
      endIndex = findEnd(pos)
      endTrailerIndex = endIndex + PEM_END.length
    }
    if (endIndex < 0) continue
    const trailerLen = typeLine.length + EOL.length
    if (data.length - endTrailerIndex < trailerLen) continue
    const endTrailer = data.slice(endTrailerIndex, endTrailerIndex + trailerLen)
    if (!endTrailer.startsWith(typeLine) || !endTrailer.endsWith(EOL)) continue
    const [restOfEndLine, after] = lineAt(endTrailerIndex + trailerLen)
    if (restOfEndLine.length !== 0) continue
    if (!base64Body(data, pos, endIndex)) continue
    const bytes = decodeStdBase64(data.slice(pos, endIndex).replace(/[ \t]/g, ''))
    if (bytes === undefined) continue
    return { block: { type: typeLine, headers, bytes }, rest: data.slice(after) }
  }
}

/** Whether data[from, to) holds only what a base64 body may (letters, digits, + / =, blanks, line ends). */
function base64Body(data: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = data.charCodeAt(i)
    const ok =
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2b ||
      c === 0x2f ||
      c === 0x3d ||
      c === 0x20 ||
      c === 0x09 ||
      c === 0x0a ||
      c === 0x0d
    if (!ok) return false
  }
  return true
}
