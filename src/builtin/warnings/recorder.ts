// The apiserver's warning recorder (k8s.io/apiserver v0.37.2 pkg/endpoints/filters/warning.go): each
// request's warnings, in the order they were added, become `Warning:` headers; an empty text or one already
// added is dropped, and so is one with a control character or invalid UTF-8 (net.NewWarningHeader refuses it:
// a header cannot carry it); past 4096 runes in all, every warning is cut to 256 runes (those already added
// too), and once the cut ones reach 4096 runes again the rest are dropped.

/** truncateAtTotalRunes and truncateItemRunes (Go's tests set smaller ones). */
export interface WarningLimits {
  readonly totalRunes: number
  readonly itemRunes: number
}
const LIMITS: WarningLimits = { totalRunes: 4 * 1024, itemRunes: 256 }

/** The code points of s as `for…of` counts them (a lone surrogate one), without a string per code point. */
const runes = (s: string): number => {
  let n = s.length
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}

/** A control character or a surrogate: a text without any is sendable, its runes its length. */
const CONTROL_OR_SURROGATE = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/

/**
 * The runes of s when a header can carry it, else -1: a unicode.IsControl character (C0, DEL, C1) or a lone
 * surrogate (a string Go would hold as invalid UTF-8) is refused. Every warning of every object meets it: one
 * native scan answers the common text (printable, no surrogate); the others take one pass over the char codes
 * (a regular expression with a look-behind for lone surrogates cost more than the recorder).
 */
function sendableRunes(s: string): number {
  if (!CONTROL_OR_SURROGATE.test(s)) return s.length
  let n = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return -1
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c > 0xdbff) return -1
      const d = s.charCodeAt(i + 1)
      if (!(d >= 0xdc00 && d <= 0xdfff)) return -1
      n--
      i++
    }
  }
  return n
}

/** The first `n` runes of s. */
function cut(s: string, n: number): string {
  let i = 0
  let out = ''
  for (const r of s) {
    if (i++ === n) break
    out += r
  }
  return out
}

/** The warnings a response carries when `added` were added in this order. */
export function recordWarnings(added: readonly string[], limits: WarningLimits = LIMITS): string[] {
  const TRUNCATE_AT_TOTAL_RUNES = limits.totalRunes
  const TRUNCATE_ITEM_RUNES = limits.itemRunes
  const recorded = new Set<string>()
  const ordered: string[] = []
  let headers: string[] = []
  let written = 0
  let truncating = false
  for (const w of added) {
    if (w.length === 0) continue
    if (written >= TRUNCATE_AT_TOTAL_RUNES && truncating) break
    if (recorded.has(w)) continue
    recorded.add(w)
    ordered.push(w)
    let text = w
    // its runes when a header can carry it, else -1; a long one is cut first when truncating, then checked
    let length = sendableRunes(w)
    if (truncating && (length < 0 ? runes(w) : length) > TRUNCATE_ITEM_RUNES) {
      text = cut(w, TRUNCATE_ITEM_RUNES)
      length = sendableRunes(text)
    }
    if (length < 0) continue
    if (written + length <= TRUNCATE_AT_TOTAL_RUNES || truncating) {
      written += length
      headers.push(text)
      continue
    }
    // over the limit: truncate from now on, and replay what was added so far, truncated
    truncating = true
    written = 0
    headers = []
    for (const o of ordered) {
      const t = runes(o) > TRUNCATE_ITEM_RUNES ? cut(o, TRUNCATE_ITEM_RUNES) : o
      const n = sendableRunes(t)
      if (n < 0) continue
      written += n
      headers.push(t)
    }
  }
  return headers
}
