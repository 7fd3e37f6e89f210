// A unified diff of two texts by lines (diff -u's format, 3 lines of context): the longest common subsequence of
// their lines, computed in a table bounded by MAX_CELLS so that two large objects cannot exhaust the page (past
// it, the common head and tail are kept and the middle is one replaced block).

const CONTEXT = 3
/** The largest LCS table built (lines × lines): 4M cells of 4 bytes. */
const MAX_CELLS = 4_000_000

type Op = readonly [' ' | '-' | '+', string]

function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  // the common head and tail first: most edits touch a few lines of a long object
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const x = a.slice(head, a.length - tail)
  const y = b.slice(head, b.length - tail)
  const ops: Op[] = a.slice(0, head).map((l): Op => [' ', l])
  const n = x.length
  const m = y.length
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    for (const l of x) ops.push(['-', l])
    for (const l of y) ops.push(['+', l])
  } else {
    // lcs[i][j]: the longest common subsequence of x[i..] and y[j..]
    const w = m + 1
    const lcs = new Int32Array((n + 1) * w)
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i * w + j] =
          x[i] === y[j]
            ? (lcs[(i + 1) * w + j + 1] as number) + 1
            : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number)
    let i = 0
    let j = 0
    while (i < n || j < m) {
      if (i < n && j < m && x[i] === y[j]) {
        ops.push([' ', x[i] as string])
        i++
        j++
      } else if (i < n && (j === m || (lcs[(i + 1) * w + j] as number) >= (lcs[i * w + j + 1] as number)))
        // removals before additions within a change, as diff prints them
        ops.push(['-', x[i++] as string])
      else ops.push(['+', y[j++] as string])
    }
  }
  for (const l of a.slice(a.length - tail)) ops.push([' ', l])
  return ops
}

/** `--- <from>` / `+++ <to>` and the hunks; '' when the texts are equal. */
export function unifiedDiff(before: string, after: string, from = 'before', to = 'after'): string {
  if (before === after) return ''
  const split = (t: string) => (t === '' ? [] : t.replace(/\n$/, '').split('\n'))
  const ops = lineOps(split(before), split(after))
  const out = [`--- ${from}`, `+++ ${to}`]
  let k = 0
  while (k < ops.length) {
    while (k < ops.length && (ops[k] as Op)[0] === ' ') k++
    if (k === ops.length) break
    // a hunk: from CONTEXT lines before this change to CONTEXT after the last change closer than 2 × CONTEXT
    let start = Math.max(0, k - CONTEXT)
    let end = k
    for (;;) {
      while (end < ops.length && (ops[end] as Op)[0] !== ' ') end++
      let next = end
      while (next < ops.length && (ops[next] as Op)[0] === ' ') next++
      if (next < ops.length && next - end <= 2 * CONTEXT) end = next
      else break
    }
    end = Math.min(ops.length, end + CONTEXT)
    let aStart = 1
    let bStart = 1
    for (let i = 0; i < start; i++) {
      if ((ops[i] as Op)[0] !== '+') aStart++
      if ((ops[i] as Op)[0] !== '-') bStart++
    }
    const hunk = ops.slice(start, end)
    const aLen = hunk.filter((o) => o[0] !== '+').length
    const bLen = hunk.filter((o) => o[0] !== '-').length
    const range = (s: number, l: number) => (l === 1 ? `${s}` : `${l === 0 ? s - 1 : s},${l}`)
    out.push(`@@ -${range(aStart, aLen)} +${range(bStart, bLen)} @@`)
    for (const [t, l] of hunk) out.push(`${t}${l}`)
    k = end
    start = end
  }
  return `${out.join('\n')}\n`
}
