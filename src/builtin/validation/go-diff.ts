import { compareStrings } from '../../cel/values/strings.js'
import { goJSON } from '../../kube/field.js'

// apimachinery pkg/util/diff.Diff as of Kubernetes 1.34 (kubernetes#132026): the two values as
// json.MarshalIndent(v, "", " ") and a unified diff of their lines with three lines of context, by
// github.com/pmezard/go-difflib (a port of Python's difflib SequenceMatcher, autojunk on, no junk
// function, no file header). Before 1.34 the apiserver used go-cmp's cmp.Diff, whose output is
// deliberately unstable and is not reproduced. Callers build the Go value's JSON shape (internal
// types have no JSON tags: Go field names, every field, nil as null) with GoValue.

/** A Go value as encoding/json sees it: a struct's fields in declaration order, maps sorted, nil as null. */
export type GoValue =
  | null
  | string
  | number
  | boolean
  | readonly GoValue[]
  | { readonly struct: readonly (readonly [string, GoValue])[] }
  | { readonly map: Readonly<Record<string, GoValue>> }

/** json.MarshalIndent(v, prefix + "", " ") of a GoValue (HTML characters escaped as encoding/json does). */
export function marshalIndent(v: GoValue, indent = ''): string {
  if (v === null) return 'null'
  if (typeof v === 'string') return goJSON(v)
  if (typeof v === 'number' || typeof v === 'boolean') return goJSON(v)
  const inner = `${indent} `
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]'
    return `[\n${v.map((x) => inner + marshalIndent(x, inner)).join(',\n')}\n${indent}]`
  }
  const entries: (readonly [string, GoValue])[] =
    'struct' in (v as object)
      ? [...(v as { struct: readonly (readonly [string, GoValue])[] }).struct]
      : Object.keys((v as { map: Record<string, GoValue> }).map)
          .sort(compareStrings)
          .map((k) => [k, (v as { map: Record<string, GoValue> }).map[k] as GoValue] as const)
  if (entries.length === 0) return '{}'
  return `{\n${entries.map(([k, x]) => `${inner}${goJSON(k)}: ${marshalIndent(x, inner)}`).join(',\n')}\n${indent}}`
}

/** difflib.SplitLines: split after each "\n", the last line given a "\n". */
function splitLines(s: string): string[] {
  const lines: string[] = []
  let start = 0
  for (let i = 0; i < s.length; i++)
    if (s[i] === '\n') {
      lines.push(s.slice(start, i + 1))
      start = i + 1
    }
  lines.push(`${s.slice(start)}\n`)
  return lines
}

interface Match {
  a: number
  b: number
  size: number
}
type Tag = 'r' | 'd' | 'i' | 'e'
interface OpCode {
  tag: Tag
  i1: number
  i2: number
  j1: number
  j2: number
}

/** difflib.SequenceMatcher (NewMatcher: autoJunk, no IsJunk). */
class SequenceMatcher {
  private readonly b2j = new Map<string, number[]>()

  constructor(
    private readonly a: readonly string[],
    private readonly b: readonly string[],
  ) {
    b.forEach((s, i) => {
      const l = this.b2j.get(s)
      if (l === undefined) this.b2j.set(s, [i])
      else l.push(i)
    })
    const n = b.length
    if (n >= 200) {
      const ntest = Math.floor(n / 100) + 1
      for (const [s, indices] of [...this.b2j]) if (indices.length > ntest) this.b2j.delete(s)
    }
  }

  private findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): Match {
    let besti = alo
    let bestj = blo
    let bestsize = 0
    let j2len = new Map<number, number>()
    for (let i = alo; i !== ahi; i++) {
      const next = new Map<number, number>()
      for (const j of this.b2j.get(this.a[i] as string) ?? []) {
        if (j < blo) continue
        if (j >= bhi) break
        const k = (j2len.get(j - 1) ?? 0) + 1
        next.set(j, k)
        if (k > bestsize) {
          besti = i - k + 1
          bestj = j - k + 1
          bestsize = k
        }
      }
      j2len = next
    }
    // no junk: only the extensions over equal non-junk elements apply
    while (besti > alo && bestj > blo && this.a[besti - 1] === this.b[bestj - 1]) {
      besti--
      bestj--
      bestsize++
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && this.a[besti + bestsize] === this.b[bestj + bestsize])
      bestsize++
    return { a: besti, b: bestj, size: bestsize }
  }

  private matchingBlocks(): Match[] {
    const matched: Match[] = []
    const rec = (alo: number, ahi: number, blo: number, bhi: number) => {
      const m = this.findLongestMatch(alo, ahi, blo, bhi)
      if (m.size > 0) {
        if (alo < m.a && blo < m.b) rec(alo, m.a, blo, m.b)
        matched.push(m)
        if (m.a + m.size < ahi && m.b + m.size < bhi) rec(m.a + m.size, ahi, m.b + m.size, bhi)
      }
    }
    rec(0, this.a.length, 0, this.b.length)
    const out: Match[] = []
    let i1 = 0
    let j1 = 0
    let k1 = 0
    for (const m of matched) {
      if (i1 + k1 === m.a && j1 + k1 === m.b) k1 += m.size
      else {
        if (k1 > 0) out.push({ a: i1, b: j1, size: k1 })
        i1 = m.a
        j1 = m.b
        k1 = m.size
      }
    }
    if (k1 > 0) out.push({ a: i1, b: j1, size: k1 })
    out.push({ a: this.a.length, b: this.b.length, size: 0 })
    return out
  }

  private opCodes(): OpCode[] {
    let i = 0
    let j = 0
    const codes: OpCode[] = []
    for (const m of this.matchingBlocks()) {
      let tag: Tag | undefined
      if (i < m.a && j < m.b) tag = 'r'
      else if (i < m.a) tag = 'd'
      else if (j < m.b) tag = 'i'
      if (tag !== undefined) codes.push({ tag, i1: i, i2: m.a, j1: j, j2: m.b })
      i = m.a + m.size
      j = m.b + m.size
      if (m.size > 0) codes.push({ tag: 'e', i1: m.a, i2: i, j1: m.b, j2: j })
    }
    return codes
  }

  groupedOpCodes(n: number): OpCode[][] {
    let codes = this.opCodes()
    if (codes.length === 0) codes = [{ tag: 'e', i1: 0, i2: 1, j1: 0, j2: 1 }]
    const first = codes[0] as OpCode
    if (first.tag === 'e')
      codes[0] = { ...first, i1: Math.max(first.i1, first.i2 - n), j1: Math.max(first.j1, first.j2 - n) }
    const last = codes[codes.length - 1] as OpCode
    if (last.tag === 'e')
      codes[codes.length - 1] = { ...last, i2: Math.min(last.i2, last.i1 + n), j2: Math.min(last.j2, last.j1 + n) }
    const nn = n + n
    const groups: OpCode[][] = []
    let group: OpCode[] = []
    for (const c of codes) {
      let { i1, j1 } = c
      const { i2, j2 } = c
      if (c.tag === 'e' && i2 - i1 > nn) {
        group.push({ tag: 'e', i1, i2: Math.min(i2, i1 + n), j1, j2: Math.min(j2, j1 + n) })
        groups.push(group)
        group = []
        i1 = Math.max(i1, i2 - n)
        j1 = Math.max(j1, j2 - n)
      }
      group.push({ tag: c.tag, i1, i2, j1, j2 })
    }
    if (group.length > 0 && !(group.length === 1 && group[0]?.tag === 'e')) groups.push(group)
    return groups
  }
}

/** formatRangeUnified. */
function range(start: number, stop: number): string {
  let beginning = start + 1
  const length = stop - start
  if (length === 1) return `${beginning}`
  if (length === 0) beginning -= 1
  return `${beginning},${length}`
}

/** difflib.GetUnifiedDiffString with Context 3 and no file names (no `---` / `+++` header). */
export function unifiedDiff(aText: string, bText: string): string {
  const a = splitLines(aText)
  const b = splitLines(bText)
  let out = ''
  for (const g of new SequenceMatcher(a, b).groupedOpCodes(3)) {
    const first = g[0] as OpCode
    const last = g[g.length - 1] as OpCode
    out += `@@ -${range(first.i1, last.i2)} +${range(first.j1, last.j2)} @@\n`
    for (const c of g) {
      if (c.tag === 'e') {
        for (const l of a.slice(c.i1, c.i2)) out += ` ${l}`
        continue
      }
      if (c.tag === 'r' || c.tag === 'd') for (const l of a.slice(c.i1, c.i2)) out += `-${l}`
      if (c.tag === 'r' || c.tag === 'i') for (const l of b.slice(c.j1, c.j2)) out += `+${l}`
    }
  }
  return out
}

/** diff.Diff(a, b) of apimachinery 1.34+ for two values that marshal without error. */
export function goDiff(a: GoValue, b: GoValue): string {
  return unifiedDiff(marshalIndent(a), marshalIndent(b))
}
