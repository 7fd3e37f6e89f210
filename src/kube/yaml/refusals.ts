// What go-yaml v2's scanner refuses and js-yaml reads (test/e2e/yaml finds them against kubectl's
// reading), go-yaml v2 being YAML 1.1 where js-yaml is 1.2 (scannerc.go):
// - an anchor name with a character outside [0-9A-Za-z_-] (`&apps/v1`): yaml_parser_scan_anchor's
//   "did not find expected alphabetic or numeric character";
// - the escape `\/` in a double-quoted scalar: yaml_parser_scan_flow_scalar's "found unknown escape
//   character";
// - `?` inside a plain scalar of a flow collection (`[--url=http://x?y]`): yaml_parser_scan_plain_scalar
//   ends the scalar there, then the parser's "did not find expected ',' or ']'" (or '}');
// - `:` opening a plain scalar of a flow collection (`[:x]`): a value indicator to go-yaml in flow
//   context (yaml_parser_fetch_next_token), then the parser's "did not find expected node content";
// - `?` opening the plain scalar of a value in a flow collection (`{name: ?x}`): a key indicator to
//   go-yaml in any flow context, where the parser wants the value's node: "did not find expected node
//   content".
// - a tab where go-yaml's block context allows a simple key (a line's indentation, after `-` or `?`):
//   "found character that cannot start any token" (js-yaml takes tabs as separation);
// - an anchor running into a key's `:` (`&name: x`): an anchor of [0-9A-Za-z_-] to go-yaml, then a null key,
//   which the conversion to JSON refuses ("unsupported map key of type: %!s(<nil>)"); js-yaml's anchor is `name:`.
// And two readings go-yaml makes otherwise, for which rereadText gives the text to read again:
// - a multi-line quoted scalar folds without the blanks that end its lines, which js-yaml keeps;
// - `?` opening a scalar of a flow collection where a key may start (`{?ip: 10.0.0.1}`, `[?x]`): the key
//   indicator to go-yaml in any flow context (yaml_parser_fetch_next_token: `flow_level > 0`), so the key is
//   `ip` and `[?x]` a single-pair mapping; js-yaml wants a blank after it and reads the scalar `?ip`. Read
//   again with the blank;
// - in block context, an anchor running into a character go-yaml ends it at (`&system:reader`): go-yaml reads
//   on from there (the plain scalar `:reader`), js-yaml's anchor is `system:reader`. Read again with a blank.
// - a tag that runs into a character outside a URI's (`!###`, `!"echo ok"`): yaml_parser_scan_tag's "did not
//   find expected whitespace or line break" (js-yaml's tag runs to a blank).
// Watched through js-yaml's node listener, only in texts that hold `&`, `\/`, a tab, a blank before a
// line break, a `!` where a tag may start, or `?` or `:` and a flow collection.

import type { EventType, State } from 'js-yaml'
import { goSharpV } from '../field.js'
import { GoScalar } from './resolve.js'

export interface Refusal {
  readonly message: string
  /** Offset in the text. */
  readonly at: number
}

interface ListenerState {
  readonly input: string
  readonly position: number
  readonly kind: string | null
  readonly anchor: string | null
  readonly tag: string | null
  result: unknown
  readonly anchorMap: Record<string, unknown>
}

const ANCHOR_CHAR = /^[0-9A-Za-z_-]*/
// after an anchor's name go-yaml takes a blank, the end, or one of these (anything else is its error)
const ANCHOR_END = '?:,]}%@`'

export interface GoYAMLWatch {
  /** For js-yaml's `listener` option. */
  readonly listener: (event: EventType, state: State) => void
  /** The first refusal seen, by position. */
  refusal(): Refusal | undefined
  /**
   * The text to read again, if it needs it: without the spaces that end lines of multi-line quoted scalars, and
   * with a blank after each `?` go-yaml reads as a flow key's indicator. Its positions are not the text's.
   */
  rereadText(): string | undefined
}

/** A listener for js-yaml's load, and what it saw; undefined when the text needs none. */
export function goYAMLWatch(text: string): GoYAMLWatch | undefined {
  const anchors = text.includes('&')
  const escapes = text.includes('\\/')
  const flowText = text.includes('[') || text.includes('{')
  // `?` in a flow scalar; `:` opening one (after `[`, `{`, `,` or a key's `:`)
  const questions = flowText && text.includes('?')
  // (a regex: String includes of a pattern that starts with a space is slow on large texts; line breaks too, as a
  // multi-line flow mapping has them: `,\n  :kind`)
  const colons = flowText && /[[{,:][ \t\r\n]*:/.test(text)
  const flows = questions || colons
  const tabs = text.includes('\t')
  // a space or tab before a line break, which may end a line of a multi-line quoted scalar
  const trailing = /[ \t]\n/.test(text)
  // a `!` where a tag may start (a CEL `!has(…)` inside a quoted scalar is no tag, and not looked at)
  const tags = /(?:^|[\s[{,])!/.test(text)
  if (!anchors && !escapes && !flows && !tabs && !trailing && !tags) return undefined
  // multi-line quoted scalars with a line that ends in spaces: [start, end) of each
  const quoted: [number, number][] = []
  // where a blank goes for go-yaml's reading (before the character at each offset): after the `?` of a flow key
  // (`{?ip: …}`), after an anchor's name in block context (`&system:reader`)
  const blanks: number[] = []
  let refusal: Refusal | undefined
  // with tabs: the spans of block and quoted scalars and of flow collections, where tabs are content or
  // separation go-yaml takes
  const spans: [number, number][] = []
  let tabsChecked = !tabs
  // the open nodes' offsets where js-yaml opened them and where their content starts, outermost first
  // (found once at the open: a parent's start asked again at each child would rescan its comments)
  const opens: number[] = []
  const starts: number[] = []
  // and the offset of each one's tag (its `!`), -1 when it has none
  const tagAts: number[] = []
  const props = { tag: -1 }
  // each anchor name's node that opened last, among those closed (where it opened, and its value)
  const anchored = anchors ? new Map<string, { open: number; result: unknown }>() : undefined
  const refuse = (message: string, at: number) => {
    if (refusal === undefined || at < refusal.at) refusal = { message, at }
  }
  return {
    refusal: () => {
      if (!tabsChecked) {
        tabsChecked = true
        const tab = blockTab(text, spans)
        if (tab !== undefined) refuse(tab.message, tab.at)
      }
      return refusal
    },
    rereadText: () => {
      if (quoted.length === 0 && blanks.length === 0) return undefined
      // (a node js-yaml closes twice is seen twice)
      const at = [...new Set(blanks)].sort((a, b) => a - b)
      return withoutTrailingSpace(withBlanks(text, at), quoted, at)
    },
    listener: (event, st) => {
      // js-yaml's state holds more than @types/js-yaml declares
      const state = st as unknown as ListenerState
      const s = state.input
      if (event === 'open') {
        opens.push(state.position)
        props.tag = -1
        starts.push(contentStart(s, state.position, s.length, props))
        tagAts.push(props.tag)
        return
      }
      const open = opens.pop() ?? 0
      const start = starts.pop() ?? 0
      const tagAt = tagAts.pop() ?? -1
      if (tags && tagAt >= 0) {
        const end = tagEnd(s, tagAt)
        if (end >= 0) refuse('did not find expected whitespace or line break', end)
        // an empty node with the non-specific tag `!` is "" to go-yaml (decode.go resolves no `!`: the empty text
        // stays a string), null to js-yaml, which leaves `!` nodes as read
        if (state.tag === '!' && state.result === null) state.result = ''
      }
      if (anchored !== undefined && state.anchor !== null) {
        const name = state.anchor
        // go-yaml registers an anchor where its node starts (parser.go anchor()), js-yaml again where it ends: a
        // node anchored with the same name inside this one is what the name refers to after it, to go-yaml
        const inner = anchored.get(name)
        if (inner !== undefined && inner.open > open) state.anchorMap[name] = inner.result
        else anchored.set(name, { open, result: state.result })
        const ok = (ANCHOR_CHAR.exec(name)?.[0] ?? '').length
        if (ok < name.length && !ANCHOR_END.includes(name[ok] as string)) {
          const at = s.indexOf(`&${name}`, open)
          refuse('did not find expected alphabetic or numeric character', at < 0 ? open : at + 1 + ok)
        } else if (ok > 0 && ok + 1 === name.length && name[ok] === ':') {
          // an anchor running into a key's `:` (`&name: x`, `{&name: x}`): go-yaml ends the anchor there and reads
          // an anchored empty key, null, whose value is the node js-yaml anchored; sigs.k8s.io/yaml's conversion
          // to JSON refuses it (yaml.go convertToJSONableObject)
          const at = s.indexOf(`&${name}`, open)
          refuse(
            `unsupported map key of type: %!s(<nil>), key: <nil>, value: ${goInterfaceV(state.result)}`,
            at < 0 ? open : at,
          )
        } else if (ok > 0 && ok < name.length && !'[{'.includes(s[starts[starts.length - 1] ?? -1] ?? '[')) {
          // in block context, an anchor running into another character go-yaml ends it at (`&system:reader`):
          // go-yaml reads on from there (a plain scalar `:reader`); read again with a blank after the anchor
          const at = s.indexOf(`&${name}`, open)
          if (at >= 0) blanks.push(at + 1 + ok)
        }
      }
      if (tabs && '|>"\'[{'.includes(s[start] ?? ' ')) spans.push([start, state.position])
      if (state.kind !== 'scalar') return
      // a quoted scalar ends at its closing quote: most scalars need no more look than this
      const end = s[state.position - 1]
      const quotedEnd = end === '"' || end === "'"
      if (!flows && !(quotedEnd && (trailing || escapes))) return
      if (trailing && (s[start] === '"' || s[start] === "'")) {
        const raw = s.slice(start, state.position)
        // js-yaml closes a block entry's scalar twice (as a would-be key, then as the entry): once here
        const last = quoted[quoted.length - 1]
        if (/[ \t]\n/.test(raw) && last?.[0] !== start) quoted.push([start, state.position])
      }
      if (!escapes && !flows) return
      if (escapes && s[start] === '"') {
        const at = slashEscape(s, start, state.position)
        if (at >= 0) refuse('found unknown escape character', at)
      }
      const first = s[start]
      if (flows && first !== '"' && first !== "'" && first !== '|' && first !== '>' && starts.length > 0) {
        // the innermost open collection is the scalar's: only a flow one matters
        const parent = s[starts[starts.length - 1] as number]
        if (parent === '[' || parent === '{') {
          const q = questions ? charIn(s, 63, start + 1, state.position) : -1
          if (colons && first === ':') refuse('did not find expected node content', start)
          // `?` opening a value's scalar (`{name: ?x}`): a key indicator to go-yaml where a node must follow
          else if (questions && first === '?' && afterValueIndicator(s, start))
            refuse('did not find expected node content', start)
          else if (q >= 0) refuse(`did not find expected ',' or '${parent === '[' ? ']' : '}'}'`, q)
          // `?` opening a key's scalar, more after it: go-yaml's key indicator (js-yaml may close it twice)
          else if (first === '?' && state.position > start + 1) blanks.push(start + 1)
        }
      }
    },
  }
}

// yaml_parser_scan_tag_uri's characters: [0-9A-Za-z_-] and these (a tag handle's are among them)
const TAG_URI = /[0-9A-Za-z_\-;/?:@&=+$,.!~*'()[\]%]*/y

/**
 * Where the tag whose `!` is at `i` ends on a character go-yaml refuses after a tag, or -1: yaml_parser_scan_tag
 * takes `!<…>` or `!` and URI characters, and then wants a blank or a line break (`!###` then a comment,
 * `!"echo ok"`: "did not find expected whitespace or line break").
 */
function tagEnd(s: string, i: number): number {
  let j: number
  if (s[i + 1] === '<') {
    const close = s.indexOf('>', i + 2)
    if (close < 0) return -1
    j = close + 1
  } else {
    TAG_URI.lastIndex = i + 1
    TAG_URI.exec(s)
    j = TAG_URI.lastIndex
  }
  const c = s[j]
  return c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r' ? -1 : j
}

/** Go's `%+#v` of a value go-yaml v2 decoded into interface{}, printed alone (nil is `<nil>` there). */
function goInterfaceV(v: unknown): string {
  const plain = unboxed(v)
  return plain === null || plain === undefined ? '<nil>' : goSharpV(plain, 'map[interface {}]interface {}')
}

/** js-yaml's value without GoScalar boxes (resolve.ts). */
function unboxed(v: unknown): unknown {
  if (v instanceof GoScalar) return v.value
  if (Array.isArray(v)) return v.map(unboxed)
  if (v === null || typeof v !== 'object') return v
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unboxed(x)]))
}

/** Whether the last character before `at` other than a blank or a line break is a value indicator `:`. */
function afterValueIndicator(s: string, at: number): boolean {
  let i = at - 1
  // (bounded: a run of blanks is walked once per scalar that follows it)
  while (i >= 0 && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i--
  return s[i] === ':'
}

// where go-yaml's scanner meets a tab while a simple key is allowed in block context (scannerc.go
// yaml_parser_scan_to_next_token skips tabs only in flow context or when no simple key may start): in a
// line's indentation (blank and comment lines too), and after a `-` or `?` indicator. (After a key's `:`
// kubectl's go-yaml takes one: test/e2e/yaml.)
const TAB_AFTER_INDENT = /^ *\t/
const TAB_AFTER_ENTRY = /^ *(?:[-?] +)*[-?] *\t/

// a line that ends in a plain scalar (not a key's `:`, an entry's `-`, a comment, a quoted scalar or a flow
// collection): go-yaml's plain scalar scanner reads on into the next lines' indentation
const ENDS_IN_PLAIN = /[^\s:\-"'\]}]\s*$|[^\s]:[^\s]\S*\s*$/

// (a `#` is a comment only after white space: `nam#e:` is a key)
const KEY_LINE = /^( *(?:- +)*)(?:[^\s#'"-](?:[^#]|(?<=\S)#)*?|"[^"]*"|'[^']*'):(?: |$)/
const ENTRY_LINE = /^( *(?:- +)*)- /
const indentOf = (l: string) => (/^ */.exec(l)?.[0] ?? '').length

/**
 * The column of the block collection that holds the plain scalar ending the last of `lines` (go-yaml's
 * parser.indent while it scans that scalar): a key's column on a `key: value` line, the last `-`'s on an
 * entry, else (a value on a line of its own) the collection's of the nearest less indented line.
 */
function blockColumn(lines: readonly string[]): number {
  const last = lines[lines.length - 1] ?? ''
  let own = indentOf(last)
  let l = last
  // (bounded: a hostile text of values on lines of their own must not make each tab line look far back)
  const stop = Math.max(0, lines.length - 1000)
  for (let i = lines.length - 2; i >= stop && !KEY_LINE.test(l) && !ENTRY_LINE.test(l); i--) {
    const p = lines[i] as string
    if (indentOf(p) < own) {
      l = p
      own = indentOf(p)
    }
  }
  const m = KEY_LINE.exec(l) ?? ENTRY_LINE.exec(l)
  return m === null ? 0 : (m[1] as string).length
}

/** The first tab go-yaml refuses in block context, outside `spans`, in go-yaml's words. */
function blockTab(text: string, spans: readonly [number, number][]): Refusal | undefined {
  let previous = '' // the last line with content before this one
  const earlier: string[] = [] // the lines with content before this one, comments left out
  // the spans by start, each line tested against the ones that began before it (linear, not lines × spans)
  const sorted = [...spans].sort((x, y) => x[0] - y[0])
  let next = 0
  let coveredTo = -1 // the furthest end of the spans begun so far
  let at = 0
  // go-yaml breaks lines at CR LF, LF and a CR alone (yaml_parser_scan_to_next_token, IS_BREAK): the next CR,
  // looked for again only once passed (a text without one is not searched to its end at every line)
  let cr = text.indexOf('\r')
  while (at <= text.length) {
    let nl = text.indexOf('\n', at)
    if (nl < 0) nl = text.length
    if (cr >= 0 && cr < at) cr = text.indexOf('\r', at)
    // the line's end and where the next line starts
    let after = nl + 1
    if (cr >= 0 && cr < nl) {
      after = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1
      nl = cr
    }
    while (next < sorted.length && (sorted[next] as [number, number])[0] < at) {
      coveredTo = Math.max(coveredTo, (sorted[next] as [number, number])[1])
      next++
    }
    const line = text.slice(at, nl)
    if (at >= coveredTo && line.includes('\t')) {
      const indent = TAB_AFTER_INDENT.exec(line)
      // in a line's indentation after a plain scalar, the scalar scanner's check words it
      // (yaml_parser_scan_plain_scalar); anywhere else the scan for the next token does
      if (indent !== null) {
        const column = indent[0].length - 1
        const plain = ENDS_IN_PLAIN.test(previous) && !/^\s*#/.test(previous) && !/\s#/.test(previous)
        if (!plain) return { message: 'found character that cannot start any token', at: at + column }
        // the scalar's scanner refuses a tab left of its block's column + 1 only; past it the tab is
        // separation before the comment or the next line's content
        if (column <= blockColumn(earlier))
          return { message: 'found a tab character that violates indentation', at: at + column }
      }
      const entry = TAB_AFTER_ENTRY.exec(line)
      if (entry !== null)
        return { message: 'found character that cannot start any token', at: at + entry[0].length - 1 }
    }
    if (line.trim() !== '') {
      previous = line
      if (!/^\s*#/.test(line)) earlier.push(line)
    }
    at = after
  }
  return undefined
}

/** The first `c` (a char code) in s[from, to), or -1 (indexOf would search on to the text's end). */
function charIn(s: string, c: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === c) return i
  return -1
}

/**
 * Where a node opened at `from` begins: after separation spaces, comments and its properties (the offset of its tag's
 * `!` to `props.tag`).
 */
export function contentStart(s: string, from: number, to: number, props?: { tag: number }): number {
  let i = from
  for (;;) {
    let c = s.charCodeAt(i)
    // space, tab, LF, CR
    while (i < to && (c === 32 || c === 9 || c === 10 || c === 13)) c = s.charCodeAt(++i)
    if (c === 35) {
      while (i < to && s.charCodeAt(i) !== 10) i++
      continue
    }
    // & (anchor) or ! (tag): the property, then what follows it
    if (c === 38 || c === 33) {
      if (c === 33 && props !== undefined) props.tag = i
      while (i < to && (c = s.charCodeAt(i)) !== 32 && c !== 9 && c !== 10) i++
      continue
    }
    return i
  }
}

/** Where the double-quoted scalar opening at `start` holds `\/`, or -1. */
function slashEscape(s: string, start: number, to: number): number {
  for (let j = start + 1; j < to; j++) {
    const c = s[j]
    if (c === '"') return -1
    if (c === '\\') {
      if (s[j + 1] === '/') return j
      j++
    }
  }
  return -1
}

/** `text` with a blank before the character at each of `blanks` (ascending offsets). */
function withBlanks(text: string, blanks: readonly number[]): string {
  let out = ''
  let from = 0
  for (const b of blanks) {
    out += `${text.slice(from, b)} `
    from = b
  }
  return out + text.slice(from)
}

/**
 * `text` with the literal spaces and tabs that end a line inside the `spans` (quoted scalars) removed; an escaped
 * one (`\ ` in double quotes) stays, as folding keeps it. The spans' offsets are from before the `blanks` were
 * written (withBlanks): each moves what follows it by one.
 */
function withoutTrailingSpace(text: string, spans: readonly [number, number][], blanks: readonly number[]): string {
  if (spans.length === 0) return text
  let out = ''
  let from = 0
  let k = 0
  for (const [a0, b0] of spans) {
    while (k < blanks.length && (blanks[k] as number) <= a0) k++
    const a = a0 + k
    const b = b0 + k
    const double = text[a] === '"'
    out += text.slice(from, a)
    out += text.slice(a, b).replace(/[ \t]+(?=\n)/g, (run, at: number, raw: string) => {
      if (!double) return ''
      let k = 0
      while (raw[at - 1 - k] === '\\') k++
      // an odd number of backslashes escapes the run's first character
      return k % 2 === 1 ? (run[0] as string) : ''
    })
    from = b
  }
  return out + text.slice(from)
}
