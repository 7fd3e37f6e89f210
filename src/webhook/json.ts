// JSON for AdmissionReviews with exact integers. JSON.parse turns every number into a double, so an
// int64 such as `activeDeadlineSeconds: 9007199254740993` loses its last digit and becomes a double
// in CEL (`x % 2`: no matching overload; under failurePolicy Fail, a Deny). kube-apiserver decodes an
// integer literal into an int64 when it fits (apimachinery util/json), so kelp does the same: an
// integer outside ±(2^53−1) and inside int64 becomes a bigint, as kelp's CEL values take it
// (docs/values.md); other numbers stay doubles.
//
// The common review has no such literal: a text without a run of 16 digits (the shortest that can
// pass 2^53−1) is JSON.parse'd alone. Otherwise JSON.parse still checks the syntax (and words its
// errors), then the exact parser below reads the text again.

const LONG_DIGITS = /\d{16}/
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** JSON.parse, with integers beyond ±(2^53−1) (within int64) as bigint. */
export function parseJSONExact(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text)
  // JSON.parse checks the syntax (and words its errors); its tree is dropped before exact() builds
  // its own, so that the two are never both held (a large review would cost twice its parsed size)
  JSON.parse(text)
  return exact(text)
}

/** What a JSON text holds, counted from its bytes without parsing it. */
export interface JSONShape {
  /** Objects and arrays (`{` and `[` outside strings). */
  readonly containers: number
  /** Commas outside strings: one per value past the first of each object or array. */
  readonly commas: number
  /** The deepest nesting of objects and arrays (the deep lane's measure: deep.ts). */
  readonly nesting: number
}

/**
 * Counts the containers and commas of a JSON text (UTF-8 bytes) outside its strings, and its deepest nesting: what its parsed
 * form costs is mostly a heap object per container and a slot per value, far more than its bytes for
 * a text of many small containers (`[{},{},…]`: 3 bytes each, 64 on the heap once parsed). Long
 * strings are skipped with indexOf (native); the rest is looked at byte by byte. A text that is not JSON is
 * counted all the same (JSON.parse refuses it afterwards).
 */
export function jsonShape(bytes: Buffer): JSONShape {
  let containers = 0
  let commas = 0
  let depth = 0
  let nesting = 0
  const n = bytes.length
  let i = 0
  while (i < n) {
    const c = bytes[i++]
    if (c === 0x22 /* " */) {
      // to the closing quote: a short string byte by byte, a long one by indexOf from its 32nd byte
      // (one not preceded by an odd run of backslashes)
      const end = Math.min(i + 32, n)
      for (;;) {
        if (i < end) {
          const d = bytes[i++]
          if (d === 0x22) break
          if (d === 0x5c /* \ */) i++
          continue
        }
        const j = bytes.indexOf(0x22, i)
        if (j < 0) return { containers, commas, nesting } // an unterminated string: not JSON
        let k = j - 1
        while (bytes[k] === 0x5c) k--
        i = j + 1
        if ((j - k) % 2 === 1) break
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      containers++
      if (++depth > nesting) nesting = depth
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--
    else if (c === 0x2c /* , */) commas++
  }
  return { containers, commas, nesting }
}

/**
 * The size of `value` as JSON text (UTF-8 bytes), or Infinity as soon as it is past `limit`: a walk
 * that stops at the limit, so that measuring a huge value (100 references to one 2 MB string) costs
 * no more than `limit` bytes' worth of steps, and no text is made. Iterative (any depth). Strings
 * count their UTF-8 bytes and quotes but not their escapes: a lower bound, so that a value under the
 * limit is never taken for one over it. Bigints count as the integer literals stringifyExact writes.
 */
export function jsonSizeWithin(value: unknown, limit: number): number {
  let size = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    switch (typeof v) {
      case 'string':
        size += Buffer.byteLength(v) + 2
        break
      case 'number':
        size += Number.isFinite(v) ? String(v).length : 4 // null
        break
      case 'bigint':
        size += v.toString().length
        break
      case 'boolean':
        size += v ? 4 : 5
        break
      case 'object':
        if (v === null) size += 4
        else if (Array.isArray(v)) {
          size += 2 + Math.max(0, v.length - 1) // [ ] and commas
          // each element adds a byte at least: past the limit before anything is pushed
          if (size + v.length > limit) return Number.POSITIVE_INFINITY
          for (let i = v.length - 1; i >= 0; i--) stack.push(v[i] === undefined ? null : v[i])
        } else {
          size += 2 // { }
          let first = true
          for (const k in v) {
            if (!Object.hasOwn(v, k)) continue
            const x = (v as Record<string, unknown>)[k]
            if (x === undefined || typeof x === 'function') continue // JSON.stringify leaves them out
            size += Buffer.byteLength(k) + 3 + (first ? 0 : 1) // "k": and a comma
            first = false
            stack.push(x)
            if (size > limit) return Number.POSITIVE_INFINITY
          }
        }
        break
      default:
        size += 4 // undefined in an array, as null
    }
    if (size > limit) return Number.POSITIVE_INFINITY
  }
  return size
}

const WS = /[ \t\n\r]*/y
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y
const STRING = /"(?:[^"\\]|\\.)*"/y

type Container = { value: unknown[] | Record<string, unknown>; key: string | undefined }

/**
 * The text (already known to be valid JSON) read without recursion (a deeply nested review cannot
 * overflow the stack), keys set as own properties (`__proto__` included, as JSON.parse does).
 */
function exact(text: string): unknown {
  let i = 0
  const skip = () => {
    WS.lastIndex = i
    WS.exec(text)
    i = WS.lastIndex
  }
  const str = (): string => {
    STRING.lastIndex = i
    const m = STRING.exec(text) as RegExpExecArray
    i = STRING.lastIndex
    const raw = m[0]
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1)
  }
  const num = (): number | bigint => {
    NUMBER.lastIndex = i
    const m = NUMBER.exec(text) as RegExpExecArray
    i = NUMBER.lastIndex
    const lit = m[0]
    if (m[1] !== undefined || m[2] !== undefined) return Number(lit)
    const n = Number(lit)
    if (Number.isSafeInteger(n)) return n
    const b = BigInt(lit)
    return b >= INT64_MIN && b <= INT64_MAX ? b : n // past int64: a double, as the apiserver decodes it
  }
  const stack: Container[] = []
  let root: unknown
  const put = (v: unknown) => {
    const top = stack[stack.length - 1]
    if (top === undefined) root = v
    else if (Array.isArray(top.value)) top.value.push(v)
    else
      Object.defineProperty(top.value, top.key as string, {
        value: v,
        writable: true,
        enumerable: true,
        configurable: true,
      })
  }
  for (;;) {
    skip()
    const c = text.charCodeAt(i)
    let value: unknown
    let scalar = true
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const container: Container = { value: c === 0x7b ? {} : [], key: undefined }
      put(container.value)
      stack.push(container)
      i++
      skip()
      const close = text.charCodeAt(i)
      if (close === 0x7d || close === 0x5d) {
        i++
        stack.pop()
      } else {
        if (c === 0x7b) {
          container.key = str()
          skip()
          i++ // :
        }
        continue
      }
      scalar = false
    } else if (c === 0x22) value = str()
    else if (c === 0x74) {
      value = true
      i += 4
    } else if (c === 0x66) {
      value = false
      i += 5
    } else if (c === 0x6e) {
      value = null
      i += 4
    } else value = num()
    if (scalar) put(value)
    // after a value: commas and closings until the next value (or the end)
    for (;;) {
      skip()
      const top = stack[stack.length - 1]
      if (top === undefined) return root
      const d = text.charCodeAt(i)
      i++
      if (d === 0x2c /* , */) {
        if (!Array.isArray(top.value)) {
          skip()
          top.key = str()
          skip()
          i++ // :
        }
        break
      }
      stack.pop() // } or ]
    }
  }
}
