// Where each character of a YAML scalar value comes from in the text: a CEL error's position inside an
// expression (`<input>:2:26`) becomes a line and column of the pane. The locator (kube/yaml/locate.ts) finds the
// field's key; from there this reads the value as YAML 1.1 builds it (go-yaml's scanner): a plain scalar (lines
// folded into spaces), a double-quoted one (escapes, folding, escaped line breaks), a single-quoted one (`''`),
// a literal block (`|`: the lines less their indentation) or a folded block (`>`). The caller compares the value
// built here with the expression the engine compiled and uses the map only when they are equal, so a form this
// reader gets wrong costs precision (the marker goes to the value's start), never a wrong place.

import { YAML_ESCAPES, YAML_HEX_LENGTH } from '../../kube/yaml/locate.js'

/** The value read at a key and, for each UTF-16 unit of it, its 0-based offset in the text. */
export interface ScalarMap {
  readonly value: string
  readonly offsets: readonly number[]
  /** Where the value starts in the text (its quote or block indicator, or its first character). */
  readonly start: number
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t'
const isBreak = (c: string | undefined): boolean => c === '\n' || c === '\r'

/** The offset just past the line break at `i` (CRLF counts as one). */
const pastBreak = (t: string, i: number): number => (t[i] === '\r' && t[i + 1] === '\n' ? i + 2 : i + 1)

/** The offset of the key's value: past the key (plain or quoted), its `:` and the spaces after it; undefined when not a key. */
function valueStart(t: string, key: number): number | undefined {
  let i = key
  const q = t[i]
  if (q === '"' || q === "'") {
    i++
    while (i < t.length && t[i] !== q) i += t[i] === '\\' && q === '"' ? 2 : q === "'" && t[i + 1] === "'" ? 2 : 1
    i++
    while (isSpace(t[i])) i++
    if (t[i] !== ':') return undefined
    i++
  } else {
    while (i < t.length && !(t[i] === ':' && (isSpace(t[i + 1]) || isBreak(t[i + 1]) || i + 1 === t.length))) {
      if (isBreak(t[i])) return undefined
      i++
    }
    if (i >= t.length) return undefined
    i++
  }
  while (isSpace(t[i])) i++
  return i
}

/** The column (0-based) of the line holding `i`'s first character, and that line's start. */
function lineOf(t: string, i: number): { start: number; indent: number } {
  let s = i
  while (s > 0 && !isBreak(t[s - 1])) s--
  let k = s
  while (t[k] === ' ') k++
  return { start: s, indent: k - s }
}

/**
 * Flow folding (plain and quoted scalars, YAML 1.1 §4.6.3): at a line break inside the value, trailing spaces go,
 * the next line's leading spaces go; one break is a space, each further (empty) line a `\n`. Returns the offset
 * of the next content and appends what the break reads as.
 */
function fold(t: string, i: number, out: { value: string; offsets: number[] }): number {
  const at = i
  let breaks = 0
  while (i < t.length && (isBreak(t[i]) || isSpace(t[i]))) {
    if (isBreak(t[i])) {
      breaks++
      i = pastBreak(t, i)
    } else i++
  }
  if (breaks === 1) {
    out.value += ' '
    out.offsets.push(at)
  } else
    for (let b = 1; b < breaks; b++) {
      out.value += '\n'
      out.offsets.push(at)
    }
  return i
}

/** Trims spaces pushed before a line break (they are not part of a folded value). */
function trimTrailing(out: { value: string; offsets: number[] }, from: number): void {
  while (out.value.length > from && isSpace(out.value[out.value.length - 1])) {
    out.value = out.value.slice(0, -1)
    out.offsets.pop()
  }
}

function doubleQuoted(t: string, open: number): ScalarMap | undefined {
  const out = { value: '', offsets: [] as number[] }
  let i = open + 1
  while (i < t.length) {
    const c = t[i] as string
    if (c === '"') return { ...out, start: open }
    if (c === '\\') {
      const e = t[i + 1]
      if (e === undefined) return undefined
      if (isBreak(e)) {
        // an escaped line break: nothing, and the next line's leading spaces go
        i = pastBreak(t, i + 1)
        while (isSpace(t[i])) i++
        continue
      }
      const n = YAML_HEX_LENGTH[e]
      if (n !== undefined) {
        const code = Number.parseInt(t.slice(i + 2, i + 2 + n), 16)
        if (Number.isNaN(code) || code > 0x10ffff) return undefined
        const s = String.fromCodePoint(code)
        for (let k = 0; k < s.length; k++) out.offsets.push(i)
        out.value += s
        i += 2 + n
        continue
      }
      const s = YAML_ESCAPES[e]
      if (s === undefined) return undefined
      out.value += s
      out.offsets.push(i)
      i += 2
      continue
    }
    if (isBreak(c)) {
      trimTrailing(out, 0)
      i = fold(t, i, out)
      continue
    }
    out.value += c
    out.offsets.push(i)
    i++
  }
  return undefined
}

function singleQuoted(t: string, open: number): ScalarMap | undefined {
  const out = { value: '', offsets: [] as number[] }
  let i = open + 1
  while (i < t.length) {
    const c = t[i] as string
    if (c === "'") {
      if (t[i + 1] !== "'") return { ...out, start: open }
      out.value += "'"
      out.offsets.push(i)
      i += 2
      continue
    }
    if (isBreak(c)) {
      trimTrailing(out, 0)
      i = fold(t, i, out)
      continue
    }
    out.value += c
    out.offsets.push(i)
    i++
  }
  return undefined
}

/**
 * A plain scalar: to a ` #` comment, a `: `, or a line indented no deeper than its key's (`parentIndent`); in a
 * flow collection (`{rule: x, message: y}`) also to a `,`, `}` or `]`.
 */
function plain(t: string, first: number, parentIndent: number, flow: boolean): ScalarMap {
  const out = { value: '', offsets: [] as number[] }
  let i = first
  for (;;) {
    // one line's content
    while (i < t.length && !isBreak(t[i])) {
      const c = t[i] as string
      if (isSpace(c) && t[i + 1] === '#') break
      if (c === ':' && (isSpace(t[i + 1]) || isBreak(t[i + 1]) || i + 1 === t.length)) break
      if (flow && (c === ',' || c === '}' || c === ']')) break
      out.value += c
      out.offsets.push(i)
      i++
    }
    trimTrailing(out, 0)
    if (!isBreak(t[i])) break
    if (flow) {
      // a flow scalar over lines: folded up to the indicator that ends it, whatever the indentation
      let j = i
      while (j < t.length && (isBreak(t[j]) || isSpace(t[j]))) j = isBreak(t[j]) ? pastBreak(t, j) : j + 1
      if (j >= t.length || t[j] === '#' || t[j] === ',' || t[j] === '}' || t[j] === ']') break
      i = fold(t, i, out)
      continue
    }
    // does the scalar go on? the next content line must be indented deeper than the key's line and be no comment
    let j = i
    while (j < t.length && (isBreak(t[j]) || isSpace(t[j]))) j = isBreak(t[j]) ? pastBreak(t, j) : j + 1
    const next = lineOf(t, j)
    if (j >= t.length || next.indent <= parentIndent || t[j] === '#') break
    if (t.startsWith('---', next.start) || t.startsWith('...', next.start)) break
    i = fold(t, i, out)
  }
  return { ...out, start: first }
}

/** A block scalar (`|` or `>`, with their chomping and indentation indicators). */
function block(t: string, at: number, parentIndent: number): ScalarMap | undefined {
  const literal = t[at] === '|'
  let i = at + 1
  let chomp: '-' | '+' | '' = ''
  let indent = 0
  for (let k = 0; k < 2; k++) {
    const c = t[i]
    if ((c === '-' || c === '+') && chomp === '') {
      chomp = c
      i++
    } else if (c !== undefined && c >= '1' && c <= '9' && indent === 0) {
      indent = parentIndent + Number(c)
      i++
    }
  }
  while (isSpace(t[i])) i++
  if (t[i] === '#') while (i < t.length && !isBreak(t[i])) i++
  if (i < t.length && !isBreak(t[i])) return undefined
  i = i < t.length ? pastBreak(t, i) : i
  // the lines: each with its start, its content's start (past the indentation) and end
  const lines: { start: number; end: number; blank: boolean }[] = []
  while (i < t.length) {
    let e = i
    while (e < t.length && !isBreak(t[e])) e++
    let k = i
    while (t[k] === ' ') k++
    const blank = k === e
    if (!blank) {
      if (indent === 0) indent = Math.max(k - i, parentIndent + 1)
      if (k - i < indent) break
    }
    lines.push({ start: i, end: e, blank })
    i = e < t.length ? pastBreak(t, e) : e
  }
  if (indent === 0) indent = parentIndent + 1
  const out = { value: '', offsets: [] as number[] }
  const push = (c: string, at: number) => {
    out.value += c
    out.offsets.push(at)
  }
  // the lines' texts past the indentation; trailing empty lines apart (chomping decides on them)
  let last = lines.length
  while (last > 0 && (lines[last - 1] as { blank: boolean }).blank) last--
  let previous: { end: number; more: boolean } | undefined
  let empties: number[] = []
  for (let n = 0; n < last; n++) {
    const l = lines[n] as { start: number; end: number; blank: boolean }
    const from = Math.min(l.start + indent, l.end)
    if (l.blank && !literal) {
      empties.push(l.end)
      continue
    }
    const more = !l.blank && isSpace(t[from])
    if (previous !== undefined) {
      if (literal || more || previous.more) {
        // every break kept: the one ending the previous line, then one per empty line
        push('\n', previous.end)
        for (const e of empties) push('\n', e)
      } else if (empties.length === 0) push(' ', previous.end)
      else for (const e of empties) push('\n', e)
    } else for (const e of empties) push('\n', e)
    empties = []
    for (let k = from; k < l.end; k++) push(t[k] as string, k)
    previous = { end: l.end, more }
  }
  // chomping: clip keeps one final break, keep every one, strip none
  if (previous !== undefined && chomp !== '-') {
    push('\n', previous.end)
    if (chomp === '+') for (let n = last; n < lines.length; n++) push('\n', (lines[n] as { end: number }).end)
  }
  return { ...out, start: at }
}

/** The value of the key at `keyOffset` and where each of its characters is; undefined for a form not read here. */
export function scalarAt(text: string, keyOffset: number): ScalarMap | undefined {
  const v = valueStart(text, keyOffset)
  if (v === undefined) return undefined
  const parentIndent = lineOf(text, keyOffset).indent
  const keyColumn = keyOffset - lineOf(text, keyOffset).start
  // a key after `- ` sits deeper than its line's indentation: its continuation lines must be deeper than the key
  const indent = Math.max(parentIndent, keyColumn)
  let i = v
  if (isBreak(text[i]) || (text[i] === '#' && (i === 0 || isSpace(text[i - 1])))) {
    // the value on the next lines: skip to its first content
    while (i < text.length && !isBreak(text[i])) i++
    while (i < text.length && (isBreak(text[i]) || isSpace(text[i]))) i = isBreak(text[i]) ? pastBreak(text, i) : i + 1
    if (lineOf(text, i).indent <= parentIndent) return undefined
  }
  const c = text[i]
  if (c === '"') return doubleQuoted(text, i)
  if (c === "'") return singleQuoted(text, i)
  if (c === '|' || c === '>') return block(text, i, indent)
  if (c === undefined || c === '[' || c === '{' || c === '&' || c === '*' || c === '!') return undefined
  // a key in a flow mapping follows its `{` or a `,`
  let b = keyOffset - 1
  while (b >= 0 && (isSpace(text[b]) || isBreak(text[b]))) b--
  return plain(text, i, indent, text[b] === '{' || text[b] === ',')
}
