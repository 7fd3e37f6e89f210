import type { PlaygroundState } from './evaluate/types.js'

// The playground's state in its URL: JSON, deflate-raw (CompressionStream, in browsers and Node), base64url
// (RFC 4648 §5, no padding). A link is input from anyone: decodeState reads at most MAX_ENCODED characters,
// inflates at most MAX_STATE_BYTES, and refuses anything that is not a state of a version it knows, always with
// an Error whose message says why (never another exception, never a hang).

/** The largest state a link may hold, inflated (1 MiB). */
export const MAX_STATE_BYTES = 1 << 20
/** The longest encoded text read: deflate cannot do better than ~1:1000, so a valid link is far shorter. */
export const MAX_ENCODED = 2 << 20

const OPERATIONS: ReadonlySet<string> = new Set(['CREATE', 'UPDATE', 'DELETE'])

/** Why a link is refused. */
export class StateError extends Error {
  constructor(why: string) {
    super(`playground link: ${why}`)
    this.name = 'StateError'
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const INDEX = new Int16Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i

function toBase64url(bytes: Uint8Array): string {
  let out = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number)
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  const rest = bytes.length - i
  if (rest === 1) {
    const n = (bytes[i] as number) << 16
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8)
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!
  }
  return out
}

function fromBase64url(text: string): Uint8Array {
  if (text.length % 4 === 1) throw new StateError('not base64url (its length)')
  const out = new Uint8Array(Math.floor((text.length * 3) / 4))
  let acc = 0
  let bits = 0
  let o = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const v = c < 128 ? (INDEX[c] as number) : -1
    if (v < 0) throw new StateError(`not base64url (character ${i + 1})`)
    acc = ((acc << 6) | v) & 0xffffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 0xff
    }
  }
  return out.subarray(0, o)
}

async function pipe(
  bytes: Uint8Array,
  stream: CompressionStream | DecompressionStream,
  limit: number,
): Promise<Uint8Array> {
  const writer = stream.writable.getWriter()
  // the write settles as the reader drains: not awaited here, and its failure (or the close's) is the reader's
  // (an ArrayBuffer-backed view: the DOM's BufferSource, which the page is type-checked with, refuses a shared one)
  writer
    .write(bytes as Uint8Array<ArrayBuffer>)
    .then(() => writer.close())
    .catch(() => {})
  const reader = stream.readable.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new StateError(`more than ${limit} bytes once inflated`)
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** The state as a URL-safe text (deflate-raw, base64url). */
export async function encodeState(s: PlaygroundState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(checkState(s)))
  return toBase64url(await pipe(json, new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER))
}

/** The state a link holds; refuses anything else with a StateError. */
export async function decodeState(s: string): Promise<PlaygroundState> {
  if (typeof s !== 'string') throw new StateError('not a text')
  if (s.length > MAX_ENCODED) throw new StateError(`longer than ${MAX_ENCODED} characters`)
  const text = s.startsWith('#') ? s.slice(1) : s
  if (text === '') throw new StateError('empty')
  const bytes = fromBase64url(text)
  let inflated: Uint8Array
  try {
    inflated = await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_STATE_BYTES)
  } catch (e) {
    if (e instanceof StateError) throw e
    throw new StateError('not deflate-raw data')
  }
  let json: string
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(inflated)
  } catch {
    throw new StateError('not UTF-8')
  }
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    throw new StateError('not JSON')
  }
  return checkState(value)
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined)

/** A state read from anywhere, as a fresh object of the known fields only; refused with a StateError when not one. */
export function checkState(value: unknown): PlaygroundState {
  if (!isRecord(value)) throw new StateError('not an object')
  if (own(value, 'v') !== 1) throw new StateError(`unknown version ${JSON.stringify(own(value, 'v')) ?? 'none'}`)
  const text = (k: string): string => {
    const v = own(value, k)
    if (typeof v !== 'string') throw new StateError(`${k} is not a text`)
    return v
  }
  const release = text('release')
  if (!/^v?\d{1,3}\.\d{1,3}$/.test(release)) throw new StateError('release is not a Kubernetes release (1.37)')
  const operation = text('operation')
  if (!OPERATIONS.has(operation)) throw new StateError('operation is not CREATE, UPDATE or DELETE')
  const user = own(value, 'user')
  if (!isRecord(user)) throw new StateError('user is not an object')
  const username = own(user, 'username')
  const groups = own(user, 'groups')
  if (typeof username !== 'string') throw new StateError('user.username is not a text')
  if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string'))
    throw new StateError('user.groups is not a list of texts')
  return {
    v: 1,
    release,
    material: text('material'),
    object: text('object'),
    oldObject: text('oldObject'),
    operation: operation as PlaygroundState['operation'],
    user: { username, groups: [...groups] as string[] },
  }
}
