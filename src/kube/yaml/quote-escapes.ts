import jsyaml from 'js-yaml'
import { contentStart } from './refusals.js'
import { GOYAML_V2_SCHEMA } from './resolve.js'

// go-yaml v2 reads the escape `\'` in a double-quoted scalar as `'` (scannerc.go yaml_parser_scan_flow_scalar,
// after libyaml); js-yaml, reading YAML 1.2, refuses it ("unknown escape sequence"). Kubernetes' documentation
// writes it (pods/inject/envars-file-container.yaml). The text js-yaml reads instead has `\x27` for each such
// escape: same value, same lines; a column after one on its line is 2 further on.
//
// Only an escape inside a double-quoted scalar is one: `\'` in a plain or block scalar or a comment is text, and
// in a single-quoted scalar its `'` ends the scalar ('C:\temp\'). Which is which is known from js-yaml's reading, so
// the text is read until the escapes rewritten are exactly those its double-quoted scalars hold. A reading is
// the true one up to the first place where its text goes wrong: an escape not rewritten in a double-quoted
// scalar (js-yaml stops there), or one rewritten in a single-quoted scalar (which no longer ends there); the
// others change no structure. So each reading settles every escape up to that place, and mends that one. The
// first guess (firstGuess) follows the quotes of each line: a usual text needs one reading besides the last; one
// crafted to need more (each `\'` of a scalar quoted over several lines a wrong guess) is refused past
// MAX_READINGS, saying why.

/** The most readings of one text. */
export const MAX_READINGS = 32

export interface QuoteEscapes {
  /** The text js-yaml reads: each escape `\'` of a double-quoted scalar written `\x27`. */
  readonly text: string
  /** Where each escape rewritten is in the original text (its backslash), ascending. */
  readonly at: readonly number[]
  /** Whether the readings settled which `\'` are escapes (false: MAX_READINGS were not enough). */
  readonly settled: boolean
}

/** The text to read for go-yaml's `\'` escapes, or undefined when no double-quoted scalar holds one. */
export function quoteEscapes(text: string): QuoteEscapes | undefined {
  const candidates = escapeCandidates(text)
  if (candidates.length === 0) return undefined
  const rewritten = firstGuess(text, candidates)
  let at: number[] = []
  let settled = false
  for (let reading = 0; reading < MAX_READINGS && !settled; reading++) {
    at = candidates.filter((_, i) => rewritten[i])
    const read = readSpans(rewrite(text, at), at)
    let changed = false
    let s = 0
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i] as number
      if (c === read.unknownEscape) {
        // (not rewritten, or js-yaml would not have stopped at it)
        rewritten[i] = true
        changed = true
        break
      }
      if (c >= read.frontier) break
      while (s < read.spans.length && (read.spans[s] as Span).end <= c) s++
      const span = read.spans[s]
      const quote = span !== undefined && span.start < c ? span.quote : undefined
      if (quote === "'" && rewritten[i]) {
        // a single-quoted scalar's end, read as content: what follows was misread
        rewritten[i] = false
        changed = true
        break
      }
      const now = quote === '"'
      if (now !== rewritten[i]) {
        rewritten[i] = now
        changed = true
      }
    }
    if (!changed) settled = true
    else at = candidates.filter((_, i) => rewritten[i])
  }
  return at.length === 0 && settled ? undefined : { text: rewrite(text, at), at, settled }
}

// after the `'` of a `\'`: it may end a single-quoted scalar
const SINGLE_QUOTED_END = /^[ \t]*(?:$|[\r\n#,\]}:])/

/**
 * Whether each `\'` is likely an escape of a double-quoted scalar: the quotes opened and closed before it on its
 * line say so, or, outside them, what follows it (a single-quoted scalar's end, above). A guess, checked by the
 * readings: one pass over the text, the quotes' state carried from one `\'` to the next of the same line.
 */
function firstGuess(text: string, candidates: readonly number[]): boolean[] {
  const out: boolean[] = []
  let pos = 0
  let quote = 0 // 0, or the open quote's code: 34 `"`, 39 `'`
  for (const c of candidates) {
    while (pos < c) {
      const ch = text.charCodeAt(pos)
      if (ch === 10 || ch === 13) quote = 0
      else if (quote === 0) {
        if (ch === 34 || ch === 39) quote = ch
      } else if (quote === 34) {
        if (ch === 92) pos++
        else if (ch === 34) quote = 0
      } else if (ch === 39) {
        if (text.charCodeAt(pos + 1) === 39) pos++
        else quote = 0
      }
      pos++
    }
    out.push(quote === 34 || (quote === 0 && !SINGLE_QUOTED_END.test(text.slice(c + 2, c + 66))))
    // the `\'` itself: an escape in `"…"`; in `'…'` its `'` ends the scalar
    if (quote === 39) quote = 0
    pos = c + 2
  }
  return out
}

/** An offset of js-yaml's reading of a text with `\x27` for the `\'` at each of `at`, in the original text. */
export function originalOffset(at: readonly number[], position: number): number {
  // the escapes wholly before the position, each 2 longer as read (the i-th starts at at[i] + 2i)
  let lo = 0
  let hi = at.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((at[mid] as number) + 2 * mid + 4 <= position) lo = mid + 1
    else hi = mid
  }
  const next = at[lo]
  // inside an escape as read: the escape's backslash
  if (next !== undefined && next + 2 * lo < position) return next
  return position - 2 * lo
}

/** The offsets of each `\` that with a `'` after it ends an odd run of backslashes (an escape, in a `"…"`). */
function escapeCandidates(text: string): number[] {
  const out: number[] = []
  let i = text.indexOf("\\'")
  while (i >= 0) {
    let run = 1
    while (i - run >= 0 && text.charCodeAt(i - run) === 92) run++
    if (run % 2 === 1) out.push(i)
    i = text.indexOf("\\'", i + 2)
  }
  return out
}

function rewrite(text: string, at: readonly number[]): string {
  if (at.length === 0) return text
  let out = ''
  let from = 0
  for (const a of at) {
    out += `${text.slice(from, a)}\\x27`
    from = a + 2
  }
  return out + text.slice(from)
}

interface Span {
  readonly start: number
  readonly end: number
  readonly quote: '"' | "'"
}

/**
 * js-yaml's reading of `read` (which has `\x27` at each of `at`, offsets of the original): its quoted scalars' spans
 * in document order and how far it read, in the original's offsets, and the escape `\'` it refused, if that ended it.
 */
function readSpans(read: string, at: readonly number[]): { spans: Span[]; frontier: number; unknownEscape?: number } {
  const original = (p: number) => originalOffset(at, p)
  const spans: Span[] = []
  const starts: number[] = []
  try {
    jsyaml.load(read, {
      schema: GOYAML_V2_SCHEMA,
      listener: (event, st) => {
        const state = st as unknown as { input: string; position: number; kind: string | null }
        if (event === 'open') {
          starts.push(contentStart(state.input, state.position, state.input.length))
          return
        }
        const start = starts.pop() ?? 0
        const quote = state.input[start]
        if (state.kind === 'scalar' && (quote === '"' || quote === "'"))
          spans.push({ start: original(start), end: original(state.position), quote })
      },
    })
  } catch (e) {
    const err = e as { reason?: string; mark?: { position: number } }
    const p = err.mark?.position ?? 0
    const frontier = original(p)
    if (err.reason === 'unknown escape sequence' && read[p] === "'" && read[p - 1] === '\\')
      return { spans, frontier, unknownEscape: frontier - 1 }
    return { spans, frontier }
  }
  return { spans, frontier: Number.POSITIVE_INFINITY }
}
