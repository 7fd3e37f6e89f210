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

/** getLine: up to the first \n (excluded), trailing spaces, tabs and \r trimmed; the rest after the \n. */
function getLine(data: string): [string, string] {
  const i = data.indexOf('\n')
  const line = i < 0 ? data : data.slice(0, i)
  const rest = i < 0 ? '' : data.slice(i + 1)
  return [line.replace(/[ \t\r]+$/, ''), rest]
}

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

/** pem.Decode: the first block and the data after it, or undefined. */
export function pemDecodeRest(data: string): { block: PEMBlock; rest: string } | undefined {
  let rest = data
  for (;;) {
    if (rest.startsWith(PEM_START.slice(1))) rest = rest.slice(PEM_START.length - 1)
    else {
      const i = rest.indexOf(PEM_START)
      if (i < 0) return undefined
      rest = rest.slice(i + PEM_START.length)
    }
    let typeLine: string
    ;[typeLine, rest] = getLine(rest)
    if (!typeLine.endsWith(EOL)) continue
    typeLine = typeLine.slice(0, -EOL.length)
    let headers = 0
    let truncated = false
    for (;;) {
      if (rest.length === 0) {
        truncated = true
        break
      }
      const [line, next] = getLine(rest)
      if (!line.includes(':')) break
      headers++
      rest = next
    }
    if (truncated) return undefined
    let endIndex: number
    let endTrailerIndex: number
    if (headers === 0 && rest.startsWith(PEM_END.slice(1))) {
      endIndex = 0
      endTrailerIndex = PEM_END.length - 1
    } else {
      endIndex = rest.indexOf(PEM_END)
      endTrailerIndex = endIndex + PEM_END.length
    }
    if (endIndex < 0) continue
    const trailerLen = typeLine.length + EOL.length
    let endTrailer = rest.slice(endTrailerIndex)
    if (endTrailer.length < trailerLen) continue
    const restOfEndLine = endTrailer.slice(trailerLen)
    endTrailer = endTrailer.slice(0, trailerLen)
    if (!endTrailer.startsWith(typeLine) || !endTrailer.endsWith(EOL)) continue
    if (getLine(restOfEndLine)[0].length !== 0) continue
    const bytes = decodeStdBase64(rest.slice(0, endIndex).replace(/[ \t]/g, ''))
    if (bytes === undefined) continue
    // the -1: the END line may have matched without its leading newline (an empty block)
    const after = getLine(rest.slice(endIndex + PEM_END.length - 1))[1]
    return { block: { type: typeLine, headers, bytes }, rest: after }
  }
}
