// The apiserver's warning recorder (k8s.io/apiserver v0.37.2 pkg/endpoints/filters/warning.go): each
// request's warnings, in the order they were added, become `Warning:` headers; an empty text or one already
// added is dropped; past 4096 runes in all, every warning is cut to 256 runes (those already added too), and
// once the cut ones reach 4096 runes again the rest are dropped.

const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024
const TRUNCATE_ITEM_RUNES = 256

const runes = (s: string): number => {
  let n = 0
  for (const _ of s) n++
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
export function recordWarnings(added: readonly string[]): string[] {
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
    let length = runes(text)
    if (truncating && length > TRUNCATE_ITEM_RUNES) {
      text = cut(text, TRUNCATE_ITEM_RUNES)
      length = TRUNCATE_ITEM_RUNES
    }
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
      written += runes(t)
      headers.push(t)
    }
  }
  return headers
}
