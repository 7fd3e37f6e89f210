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
  const value = JSON.parse(text)
  if (!LONG_DIGITS.test(text)) return value
  return exact(text)
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
