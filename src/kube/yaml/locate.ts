import { plainScalar } from './resolve.js'

// Where a field of an object is written: a field path (`spec.template.spec.containers[0].image`,
// `metadata.annotations[kubernetes.io/x]`, `.spec.x`, `m['k']`) → the line and column of the field in
// the YAML or JSON text the object was read from, or of its deepest ancestor written there.
//
// Why a scanner of its own rather than js-yaml's `listener` or simple.ts: js-yaml recurses (a deep
// document overflows its stack, docs/yaml.md) and reads a whole document to answer one path; simple.ts
// gives up on most of what a locator must handle (flow collections, anchors, folded scalars, JSON).
// This scanner reads only structure (where entries, keys and values start; scalar values are never
// built), only as far as a path needs, iteratively (no recursion: nesting depth costs no stack), and
// remembers what it read: each collection's entries are read once however many paths are asked (a
// character is read once per enclosing collection read past it). It trusts its input: the text is one
// kelp already read without error, so it does not check YAML's rules, only finds its way.

/** A 1-based line and column (UTF-16 units, as load.ts's positions and SARIF's default); `exact` false for an ancestor. */
export interface FieldPosition {
  readonly line: number
  readonly column: number
  /** false when the path goes past what is written: the position is its deepest ancestor's. */
  readonly exact: boolean
}

/** Where the object starts (load.ts's `source`): a document's first content, or a List item's. */
export interface ObjectStart {
  readonly line: number
  /** 1-based; the line's first content when absent. */
  readonly column?: number
}

/**
 * A field path: apimachinery's field.Path text, with a leading `.` (JSONPath, a CRD rule's fieldPath) and
 * quoted subscripts (`['k']`) also read; or its steps (strings: names or keys, numbers: indexes), which
 * avoids the ambiguity of keys holding `].` or `][`.
 */
export type FieldPathInput = string | readonly (string | number)[]

/**
 * The positions of fields in one text (a file or one document of it). Build one per text and ask it for
 * each finding: the line index and what was scanned of each object are kept between calls, so a finding
 * costs about what is read from the object's start to its field, and the first call for a text a scan of
 * its line breaks. Nothing is read until the first call.
 */
export class FieldLocator {
  private scanner: Scanner | undefined
  /**
   * @param text the file's text, or one document's
   * @param firstLine the line number of text's first line (a document's `line` when text is the document)
   */
  constructor(
    readonly text: string,
    readonly firstLine = 1,
  ) {}

  locate(start: ObjectStart, path: FieldPathInput): FieldPosition {
    this.scanner ??= new Scanner(this.text)
    const s = this.scanner
    const at = s.offsetOf(start.line - this.firstLine, start.column)
    const found = s.find(at, typeof path === 'string' ? parsePath(path) : path.map(step))
    const p = s.position(found.at)
    return { line: p.line + this.firstLine, column: p.column, exact: found.exact }
  }
}

/** One field's position (a FieldLocator for one question; keep a FieldLocator to ask several of one text). */
export function locateField(text: string, start: ObjectStart, path: FieldPathInput, firstLine = 1): FieldPosition {
  return new FieldLocator(text, firstLine).locate(start, path)
}

/** One step of a path: a mapping key, a sequence index (-1: none), an associative-list selector. */
interface Step {
  readonly key: string
  readonly index: number
  /** server-side apply's `[name="x",port=80]`: the item whose fields have these values. */
  readonly select?: readonly (readonly [string, string])[]
}

const INDEX = /^(0|[1-9][0-9]*)$/

const step = (s: string | number): Step =>
  typeof s === 'number' ? { key: String(s), index: s } : { key: s, index: INDEX.test(s) ? Number(s) : -1 }

/** The steps of a path's text. A key's `]` ends it where `.`, `[` or the end follows (keys are not quoted). */
export function parsePath(path: string): Step[] {
  const out: Step[] = []
  const n = path.length
  if (path === '<nil>') return out
  let i = path.charCodeAt(0) === 46 ? 1 : 0
  while (i < n) {
    if (path.charCodeAt(i) === 91) {
      const q = path[i + 1]
      let done = false
      if (q === '"' || q === "'") {
        // a quoted subscript: ['a.b'] (JSONPath, a CRD rule's fieldPath)
        let j = i + 2
        let s = ''
        while (j < n && path[j] !== q) {
          if (path[j] === '\\' && j + 1 < n) j++
          s += path[j++]
        }
        if (path[j + 1] === ']' && (j + 2 === n || path[j + 2] === '.' || path[j + 2] === '[')) {
          out.push({ key: s, index: -1 })
          i = j + 2
          done = true
        }
      }
      if (!done) {
        let j = path.indexOf(']', i + 1)
        while (j >= 0 && j + 1 < n && path[j + 1] !== '.' && path[j + 1] !== '[') j = path.indexOf(']', j + 1)
        if (j < 0) j = n
        const s = path.slice(i + 1, j)
        const select = selector(s)
        out.push(select !== undefined ? { key: s, index: -1, select } : step(s))
        i = j + 1
      }
    } else {
      let j = i
      while (j < n && path.charCodeAt(j) !== 46 && path.charCodeAt(j) !== 91) j++
      out.push({ key: path.slice(i, j), index: -1 })
      i = j
    }
    if (path.charCodeAt(i) === 46) i++
  }
  return out
}

// structured-merge-diff's PathElement text for an associative list item: `name="x"`, `port=80,protocol="TCP"`
const SELECTOR = /^[A-Za-z_$][\w$.-]*=("(?:[^"\\]|\\.)*"|[^,"]*)(,[A-Za-z_$][\w$.-]*=("(?:[^"\\]|\\.)*"|[^,"]*))*$/
const PAIR = /([A-Za-z_$][\w$.-]*)=("(?:[^"\\]|\\.)*"|[^,"]*)/g

function selector(s: string): [string, string][] | undefined {
  if (!SELECTOR.test(s)) return undefined
  const out: [string, string][] = []
  for (const m of s.matchAll(PAIR)) {
    const v = m[2] as string
    let text = v
    if (v.startsWith('"')) {
      try {
        text = JSON.parse(v) as string
      } catch {
        return undefined
      }
    }
    out.push([m[1] as string, text])
  }
  return out
}

// node kinds
const BMAP = 0
const BSEQ = 1
const FMAP = 2
const FSEQ = 3
const LEAF = 4

/** An entry of a collection: where it is reported and where its value starts. */
interface Entry {
  /** A key's offset; a sequence item's value when it starts on its `-` line, else the `-`'s. */
  readonly report: number
  /** Just after the key's `:` or the item's `-` (block), the item itself (flow); -1: no value (`{a, b}`). */
  readonly at: number
  node?: Node
}

/** A node whose entries are read as paths need them: `cursor` resumes the reading. */
interface Node {
  readonly kind: number
  /** Block collections: the column of their entries. */
  readonly indent: number
  /** Where the next entry is read, or (pending) the last entry's value, skipped first. */
  cursor: number
  pending: boolean
  done: boolean
  readonly keys: Map<string, Entry> | undefined
  readonly items: Entry[] | undefined
}

const leafNode = (): Node => ({
  kind: LEAF,
  indent: 0,
  cursor: 0,
  pending: false,
  done: true,
  keys: undefined,
  items: undefined,
})

const node = (kind: number, indent: number, cursor: number): Node => ({
  kind,
  indent,
  cursor,
  pending: false,
  done: false,
  keys: kind === BMAP || kind === FMAP ? new Map() : undefined,
  items: kind === BSEQ || kind === FSEQ ? [] : undefined,
})

// characters
const TAB = 9
const LF = 10
const CR = 13
const SP = 32
const BANG = 33
const DQ = 34
const HASH = 35
const PCT = 37
const AMP = 38
const SQ = 39
const STAR = 42
const COMMA = 44
const DASH = 45
const DOT = 46
const COLON = 58
const GT = 62
const QM = 63
const LBRACKET = 91
const RBRACKET = 93
const LBRACE = 123
const BAR = 124
const RBRACE = 125
const BOM = 0xfeff

const NONE = -2

const flowIndicator = (c: number) => c === COMMA || c === LBRACKET || c === RBRACKET || c === LBRACE || c === RBRACE
// roots kept per text: a file's objects are asked for in turn, each a few times
const ROOTS = 16

class Scanner {
  private readonly len: number
  private lines: Int32Array | undefined
  private lineCount = 0
  private lastLine = 0
  private readonly roots = new Map<number, { node: Node; report: number }>()
  /** scanLine's answer: the column that more indented lines continue a scalar of (NONE: none). */
  private text = NONE
  /** tryKey's answers: the key's text (undefined: not a string key) and where it starts. */
  private key: string | undefined
  private keyStart = 0

  constructor(private readonly t: string) {
    this.len = t.length
  }

  // ---- positions

  private index(): Int32Array {
    if (this.lines !== undefined) return this.lines
    const t = this.t
    let a = new Int32Array(1024)
    let n = 1
    for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) {
      if (n === a.length) {
        const b = new Int32Array(a.length * 2)
        b.set(a)
        a = b
      }
      a[n++] = i + 1
    }
    this.lineCount = n
    this.lines = a
    return a
  }

  /** The 0-based line of offset p (binary search, the last answer tried first: scans move forward). */
  private lineOf(p: number): number {
    const a = this.index()
    const n = this.lineCount
    let l = this.lastLine
    if (a[l]! <= p && (l + 1 === n || a[l + 1]! > p)) return l
    if (l + 1 < n && a[l + 1]! <= p && (l + 2 === n || a[l + 2]! > p)) return (this.lastLine = l + 1)
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (a[mid]! <= p) lo = mid
      else hi = mid - 1
    }
    l = lo
    this.lastLine = l
    return l
  }

  private col(p: number): number {
    const l = this.lineOf(p)
    // a BOM is not indentation
    return p - this.index()[l]! - (l === 0 && p > 0 && this.t.charCodeAt(0) === BOM ? 1 : 0)
  }

  /** The offset of a 0-based line and 1-based column (clamped to the line: a List item `-` alone has its column past it). */
  offsetOf(line: number, column: number | undefined): number {
    const a = this.index()
    if (line < 0) return 0
    if (line >= this.lineCount) return this.len
    const start = a[line]!
    let end = line + 1 < this.lineCount ? a[line + 1]! - 1 : this.len
    if (end > start && this.t.charCodeAt(end - 1) === CR) end--
    return Math.min(start + Math.max(0, (column ?? 1) - 1), end)
  }

  position(p: number): { line: number; column: number } {
    const l = this.lineOf(p)
    return { line: l, column: p - this.index()[l]! + 1 }
  }

  // ---- characters

  private blankOrEnd(i: number): boolean {
    if (i >= this.len) return true
    const c = this.t.charCodeAt(i)
    return c === SP || c === LF || c === TAB || c === CR
  }

  /** A `---` or `...` line: the document ends (also inside whatever was open). */
  private marker(q: number): boolean {
    const t = this.t
    const c = t.charCodeAt(q)
    return (c === DASH || c === DOT) && t.charCodeAt(q + 1) === c && t.charCodeAt(q + 2) === c && this.blankOrEnd(q + 3)
  }

  private isDash(p: number): boolean {
    return this.t.charCodeAt(p) === DASH && this.blankOrEnd(p + 1)
  }

  /** Past spaces and tabs (and a CR) on the line. */
  private ws(p: number): number {
    const t = this.t
    for (;;) {
      const c = t.charCodeAt(p)
      if (c !== SP && c !== TAB && c !== CR) return p
      p++
    }
  }

  /** The start of the next line (len at the end). */
  private nextLine(p: number): number {
    const nl = this.t.indexOf('\n', p)
    return nl < 0 ? this.len : nl + 1
  }

  /** Past an anchor, tag or alias token. */
  private tokenEnd(p: number, flow: boolean): number {
    const t = this.t
    while (p < this.len) {
      const c = t.charCodeAt(p)
      if (c === SP || c === LF || c === TAB || c === CR) break
      if (flow && (c === COMMA || c === LBRACKET || c === RBRACKET || c === LBRACE || c === RBRACE)) break
      p++
    }
    return p
  }

  /** Past the quoted scalar opening at p (its closing quote), over any lines. */
  private quoteEnd(p: number): number {
    const t = this.t
    const q = t.charCodeAt(p)
    let i = p + 1
    if (q === DQ) {
      for (;;) {
        const j = t.indexOf('"', i)
        if (j < 0) return this.len
        let b = j - 1
        while (b > p && t.charCodeAt(b) === 92) b--
        if ((j - 1 - b) % 2 === 0) return j + 1 // an even run of backslashes before it: not escaped
        i = j + 1
      }
    }
    for (;;) {
      const j = t.indexOf("'", i)
      if (j < 0) return this.len
      if (t.charCodeAt(j + 1) !== SQ) return j + 1
      i = j + 2
    }
  }

  /**
   * Flow content from p: with `collection`, past the collection opening at p (its matching bracket);
   * else the offset of the `,`, `]` or `}` that ends the value at p. Brackets are counted, not recursed.
   */
  private flow(p: number, collection: boolean): number {
    const t = this.t
    const len = this.len
    let depth = 0
    let plain = false // inside a plain scalar: quotes are its characters, blanks do not end it
    let blank = true // after a blank: `#` opens a comment
    let i = p
    while (i < len) {
      const c = t.charCodeAt(i)
      if (c === SP || c === TAB || c === CR) {
        i++
        blank = true
        continue
      }
      if (c === LF) {
        i++
        if (this.marker(i)) return i
        blank = true
        continue
      }
      if (c === HASH && blank) {
        i = this.nextLine(i)
        if (this.marker(i)) return i
        plain = false
        continue
      }
      blank = false
      if (c === LBRACKET || c === LBRACE) {
        depth++
        i++
        plain = false
      } else if (c === RBRACKET || c === RBRACE) {
        if (depth === 0) return i
        depth--
        i++
        if (collection && depth === 0) return i
        plain = false
      } else if (c === COMMA) {
        if (depth === 0 && !collection) return i
        i++
        plain = false
      } else if (c === COLON && (!plain || this.blankOrEnd(i + 1) || flowIndicator(t.charCodeAt(i + 1)))) {
        i++ // a value indicator (`"a":"b"` needs no blank after a quoted key)
        plain = false
      } else if ((c === DQ || c === SQ) && !plain) i = this.quoteEnd(i)
      else {
        plain = !(c === QM && !plain && this.blankOrEnd(i + 1))
        i++
      }
    }
    return len
  }

  /**
   * Where a flow collection's next entry starts (the last entry's value skipped, then its comma), or
   * -1 at the collection's end (the cursor left at the closing bracket).
   */
  private nextFlowEntry(nd: Node): number {
    const t = this.t
    let p = nd.cursor
    if (nd.pending) {
      p = this.flow(p, false)
      nd.pending = false
    }
    p = this.flowContent(p)
    if (t.charCodeAt(p) === COMMA) p = this.flowContent(p + 1)
    const c = t.charCodeAt(p)
    if (p >= this.len || c === RBRACE || c === RBRACKET) {
      nd.cursor = p
      return -1
    }
    return p
  }

  /** In flow context: past blanks, line breaks and comments (len at a document marker or the end). */
  private flowContent(p: number): number {
    const t = this.t
    let blank = p === 0 || this.blankOrEnd(p - 1)
    while (p < this.len) {
      const c = t.charCodeAt(p)
      if (c === SP || c === TAB || c === CR) {
        p++
        blank = true
      } else if (c === LF) {
        p++
        if (this.marker(p)) return this.len
        blank = true
      } else if (c === HASH && blank) {
        const nl = t.indexOf('\n', p)
        if (nl < 0) return this.len
        p = nl
      } else return p
    }
    return this.len
  }

  /**
   * In block context, from p (on a line): the next line's first content that is not blank or a
   * comment, or len (end, document marker).
   */
  private nextContentLine(p: number): number {
    const t = this.t
    let q = this.nextLine(p)
    while (q < this.len) {
      if (this.marker(q)) return this.len
      const f = this.ws(q)
      const c = t.charCodeAt(f)
      if (f < this.len && c !== LF && c !== HASH) return f
      q = this.nextLine(f)
    }
    return this.len
  }

  // ---- keys

  /**
   * Whether a block mapping key starts at p (on one line, then `:` and a blank): the offset of its `:`
   * or -1. Sets `key` (its text as sigs.k8s.io/yaml makes it; undefined for `<<` and keys that are not
   * scalars) and `keyStart`.
   */
  private tryKey(p: number): number {
    const t = this.t
    let c = t.charCodeAt(p)
    while (c === AMP || c === BANG) {
      p = this.ws(this.tokenEnd(p, false))
      c = t.charCodeAt(p)
    }
    this.keyStart = p
    if (c === DQ || c === SQ) {
      const e = this.quoteEnd(p)
      if (e >= this.len || t.lastIndexOf('\n', e - 1) >= p) return -1 // an implicit key holds no line break
      const q = this.ws(e)
      if (t.charCodeAt(q) !== COLON) return -1
      this.key = unquote(t.slice(p, e))
      return q
    }
    if (c === STAR) {
      const e = this.ws(this.tokenEnd(p, false))
      this.key = undefined
      return t.charCodeAt(e) === COLON && this.blankOrEnd(e + 1) ? e : -1
    }
    if (
      c === LF ||
      c === HASH ||
      c === LBRACKET ||
      c === LBRACE ||
      c === BAR ||
      c === GT ||
      c === PCT ||
      p >= this.len ||
      ((c === DASH || c === QM || c === COLON) && this.blankOrEnd(p + 1))
    )
      return -1
    for (let q = p; q < this.len; q++) {
      const d = t.charCodeAt(q)
      if (d === LF) return -1
      if (d === COLON && this.blankOrEnd(q + 1)) {
        this.key = plainKey(t.slice(p, q).trimEnd())
        return q
      }
      if (d === HASH && q > p && this.blankOrEnd(q - 1)) return -1
    }
    return -1
  }

  // ---- block context

  /**
   * The rest of a block line from p, over the lines a quoted scalar or flow collection opened on it
   * spans: the start of the line after it. `owner` is the column a plain or block scalar belongs to
   * (the key's, the `-`'s); more indented lines after such a scalar continue it (`text`).
   */
  private scanLine(p: number, owner: number): number {
    const t = this.t
    this.text = NONE
    let blank = true
    for (;;) {
      if (p >= this.len) return this.len
      const c = t.charCodeAt(p)
      if (c === LF) return p + 1
      if (c === SP || c === TAB || c === CR) {
        p++
        blank = true
        continue
      }
      if (c === HASH && blank) return this.nextLine(p)
      blank = false
      if ((c === DASH || c === QM || c === COLON) && this.blankOrEnd(p + 1)) {
        if (c !== COLON) owner = this.col(p)
        p++
      } else if (c === AMP || c === BANG || c === STAR) p = this.tokenEnd(p, false)
      else if (c === DQ || c === SQ) p = this.quoteEnd(p)
      else if (c === LBRACKET || c === LBRACE) p = this.flow(p, true)
      else if (c === BAR || c === GT) {
        this.text = owner
        return this.nextLine(p)
      } else {
        // a plain scalar: a key (`k: `) or the line's value
        let q = p
        for (; q < this.len; q++) {
          const d = t.charCodeAt(q)
          if (d === LF || (d === COLON && this.blankOrEnd(q + 1)) || (d === HASH && this.blankOrEnd(q - 1))) break
        }
        if (t.charCodeAt(q) === COLON) {
          owner = this.col(p)
          p = q + 1
          continue
        }
        this.text = owner
        return this.nextLine(q)
      }
    }
  }

  /**
   * Past the value of a block entry whose value starts at `at` (after its `:` or `-`), of a collection at
   * column n: the first content of the line that is the collection's next entry or ends it (len at the
   * end). A mapping's value may be a sequence at the mapping's own column.
   */
  private skipValue(at: number, n: number, map: boolean): number {
    const t = this.t
    let q = this.scanLine(at, n)
    let text = this.text
    while (q < this.len) {
      if (this.marker(q)) return this.len
      const f = this.ws(q)
      const c = t.charCodeAt(f)
      if (f >= this.len) return this.len
      if (c === LF) {
        q = f + 1
        continue
      }
      const col = f - q
      if (text !== NONE && col > text) {
        q = this.nextLine(f)
        continue
      }
      text = NONE
      if (c === HASH) {
        q = this.nextLine(f)
        continue
      }
      if (col < n || (col === n && !(map && this.isDash(f)))) return f
      // a line of the value: a scalar alone on it belongs to something left of it
      q = this.scanLine(f, col - 1)
      text = this.text
    }
    return this.len
  }

  /**
   * The node whose value starts at p in block context: on the line of a key (`block` false: no block
   * collection starts there), of a `-` or at the object's start (`block` true), or on a later line more
   * indented than n (a mapping's sequence may be at n).
   */
  private blockNode(p: number, n: number, map: boolean, block: boolean): Node {
    const t = this.t
    let moved = false
    let first = -1 // the first token on the node's line (before its anchor or tag)
    for (;;) {
      p = this.ws(p)
      const c = t.charCodeAt(p)
      if (p >= this.len || c === LF || (c === HASH && this.blankOrEnd(p - 1))) {
        if (moved) return leafNode()
        const f = this.nextContentLine(p)
        if (f >= this.len) return leafNode()
        const col = this.col(f)
        if (!(col > n || (col === n && map && this.isDash(f)))) return leafNode() // an empty value
        p = f
        moved = true
        block = true
        first = -1
        continue
      }
      if (first < 0) first = p
      if (c === AMP || c === BANG) {
        p = this.tokenEnd(p, false)
        continue
      }
      break
    }
    const c = t.charCodeAt(p)
    if (c === LBRACKET) return node(FSEQ, 0, p + 1)
    if (c === LBRACE) return node(FMAP, 0, p + 1)
    if (!block || c === STAR || c === BAR || c === GT) return leafNode()
    if (this.isDash(p)) return node(BSEQ, this.col(p), p)
    if ((c === QM && this.blankOrEnd(p + 1)) || this.tryKey(first) >= 0) return node(BMAP, this.col(first), first)
    return leafNode()
  }

  /** The node of a flow entry's value at p. */
  private flowNode(p: number): Node {
    const t = this.t
    p = this.flowContent(p)
    while (t.charCodeAt(p) === AMP || t.charCodeAt(p) === BANG) p = this.flowContent(this.tokenEnd(p, true))
    const c = t.charCodeAt(p)
    if (c === LBRACKET) return node(FSEQ, 0, p + 1)
    if (c === LBRACE) return node(FMAP, 0, p + 1)
    return leafNode()
  }

  // ---- reading entries, one at a time

  /** Reads a node's next entry into keys or items; false when it has no more. */
  private next(nd: Node): boolean {
    if (nd.done) return false
    const e = this.readEntry(nd)
    if (e === undefined) {
      nd.done = true
      return false
    }
    return true
  }

  private readEntry(nd: Node): Entry | undefined {
    const t = this.t
    const n = nd.indent
    switch (nd.kind) {
      case BMAP: {
        if (nd.pending) {
          nd.cursor = this.skipValue(nd.cursor, n, true)
          nd.pending = false
        }
        const f = nd.cursor
        if (f >= this.len || this.col(f) !== n) return undefined
        if (t.charCodeAt(f) === QM && this.blankOrEnd(f + 1)) {
          // an explicit key: its text when it is a one-line scalar, its value on a `:` line at n
          const k = this.ws(f + 1)
          const c = t.charCodeAt(k)
          let key: string | undefined
          if (c === DQ || c === SQ) key = unquote(t.slice(k, this.quoteEnd(k)))
          else if (c !== LF && c !== HASH && k < this.len) {
            let e = t.indexOf('\n', k)
            if (e < 0) e = this.len
            const h = t.indexOf(' #', k)
            key = plainKey(t.slice(k, h >= 0 && h < e ? h : e).trim())
          }
          const q = this.skipValue(f + 1, n, true)
          const valued = q < this.len && t.charCodeAt(q) === COLON && this.blankOrEnd(q + 1) && this.col(q) === n
          const entry: Entry = { report: k, at: valued ? q + 1 : -1 }
          if (valued) {
            nd.cursor = q + 1
            nd.pending = true
          } else nd.cursor = q
          return this.add(nd, key, entry)
        }
        const colon = this.tryKey(f)
        if (colon < 0) return undefined
        const entry: Entry = { report: this.keyStart, at: colon + 1 }
        nd.cursor = colon + 1
        nd.pending = true
        return this.add(nd, this.key, entry)
      }
      case BSEQ: {
        if (nd.pending) {
          nd.cursor = this.skipValue(nd.cursor, n, false)
          nd.pending = false
        }
        const f = nd.cursor
        if (f >= this.len || this.col(f) !== n || !this.isDash(f)) return undefined
        const v = this.ws(f + 1)
        const c = t.charCodeAt(v)
        const here = v < this.len && c !== LF && c !== HASH
        const entry: Entry = { report: here ? v : f, at: f + 1 }
        nd.cursor = f + 1
        nd.pending = true
        nd.items!.push(entry)
        return entry
      }
      case FMAP: {
        let p = this.nextFlowEntry(nd)
        if (p < 0) return undefined
        // `?` is the key indicator to go-yaml in any flow context, a blank after it or not (`{?ip: x}`: key `ip`)
        if (
          t.charCodeAt(p) === QM &&
          (this.blankOrEnd(p + 1) || !(flowIndicator(t.charCodeAt(p + 1)) || t.charCodeAt(p + 1) === COLON))
        )
          p = this.flowContent(p + 1)
        while (t.charCodeAt(p) === AMP || t.charCodeAt(p) === BANG) p = this.flowContent(this.tokenEnd(p, true))
        const c = t.charCodeAt(p)
        let key: string | undefined
        let e: number
        if (c === DQ || c === SQ) {
          e = this.quoteEnd(p)
          key = unquote(t.slice(p, e))
        } else if (c === LBRACKET || c === LBRACE) {
          e = this.flow(p, true) // a collection as a key: no string key
        } else {
          // a plain key: up to `: `, or the entry's end (a key without a value)
          e = p
          for (; e < this.len; e++) {
            const d = t.charCodeAt(e)
            if (d === COMMA || d === RBRACE || d === RBRACKET || (d === HASH && this.blankOrEnd(e - 1))) break
            if (d === COLON) {
              const d1 = t.charCodeAt(e + 1)
              if (this.blankOrEnd(e + 1) || d1 === COMMA || d1 === RBRACE || d1 === RBRACKET || d1 === LBRACKET) break
              if (d1 === LBRACE) break
            }
          }
          key = plainKey(
            t
              .slice(p, e)
              .replace(/[ \t]*(\r?\n[ \t]*)+/g, ' ')
              .trim(),
          ) // a line break folds to a space
        }
        const q = this.flowContent(e)
        const valued = t.charCodeAt(q) === COLON
        const entry: Entry = { report: p, at: valued ? q + 1 : -1 }
        nd.cursor = valued ? q + 1 : q
        nd.pending = valued
        return this.add(nd, key, entry)
      }
      case FSEQ: {
        const p = this.nextFlowEntry(nd)
        if (p < 0) return undefined
        const entry: Entry = { report: p, at: p }
        nd.cursor = p
        nd.pending = true
        nd.items!.push(entry)
        return entry
      }
    }
    return undefined
  }

  /** A mapping entry: kept under its key (the first of duplicates: kelp refuses those documents anyway). */
  private add(nd: Node, key: string | undefined, entry: Entry): Entry {
    if (key !== undefined && !nd.keys!.has(key)) nd.keys!.set(key, entry)
    return entry
  }

  private valueOf(parent: Node, e: Entry): Node {
    if (e.node !== undefined) return e.node
    let v: Node
    if (e.at < 0) v = leafNode()
    else if (parent.kind === FMAP || parent.kind === FSEQ) v = this.flowNode(e.at)
    else v = this.blockNode(e.at, parent.indent, parent.kind === BMAP, parent.kind === BSEQ)
    e.node = v
    return v
  }

  /** The entry a step names in a node, reading entries as far as needed. */
  private child(nd: Node, s: Step): Entry | undefined {
    if (nd.kind === BMAP || nd.kind === FMAP) {
      const keys = nd.keys!
      for (;;) {
        const e = keys.get(s.key)
        if (e !== undefined) return e
        if (!this.next(nd)) return undefined
      }
    }
    if (nd.kind === LEAF) return undefined
    const items = nd.items!
    if (s.select !== undefined) {
      for (let i = 0; ; i++) {
        if (i === items.length && !this.next(nd)) return undefined
        const e = items[i]!
        if (this.selects(nd, e, s.select)) return e
      }
    }
    if (s.index < 0) return undefined
    while (items.length <= s.index) if (!this.next(nd)) return undefined
    return items[s.index]
  }

  /** Whether a list item is a mapping whose fields have the selected scalar values. */
  private selects(parent: Node, e: Entry, select: readonly (readonly [string, string])[]): boolean {
    const v = this.valueOf(parent, e)
    for (const [k, want] of select) {
      const f = this.child(v, { key: k, index: -1 })
      if (f === undefined || f.at < 0) return false
      if (this.scalar(f.at, v.kind === FMAP) !== want) return false
    }
    return true
  }

  /** The text of a one-line scalar value at p (after a `:`), quoted or plain. */
  private scalar(p: number, flow: boolean): string | undefined {
    const t = this.t
    p = this.ws(p)
    const c = t.charCodeAt(p)
    if (c === DQ || c === SQ) return unquote(t.slice(p, this.quoteEnd(p)))
    let e = p
    for (; e < this.len; e++) {
      const d = t.charCodeAt(e)
      if (d === LF || (d === HASH && this.blankOrEnd(e - 1))) break
      if (flow && (d === COMMA || d === RBRACE || d === RBRACKET)) break
    }
    return t.slice(p, e).trim()
  }

  // ---- paths

  /** The root node at p: past blank lines, comments, directives and a `---`. */
  private root(p: number): { node: Node; report: number } {
    const cached = this.roots.get(p)
    if (cached !== undefined) return cached
    const t = this.t
    let q = p
    if (t.charCodeAt(q) === BOM) q++
    for (;;) {
      q = this.ws(q)
      const c = t.charCodeAt(q)
      if (q >= this.len) break
      const lineStart = q === 0 || t.charCodeAt(q - 1) === LF || this.col(q) === 0
      if (c === LF || (c === HASH && (q === p || this.blankOrEnd(q - 1))) || (c === PCT && lineStart)) {
        q = this.nextLine(q)
        continue
      }
      if (lineStart && this.marker(q)) {
        if (c === DOT) {
          q = this.len
          break
        }
        q += 3
        continue
      }
      break
    }
    const found =
      q >= this.len
        ? { node: leafNode(), report: Math.min(p, this.len) }
        : { node: this.blockNode(q, -1, false, true), report: q }
    if (this.roots.size >= ROOTS) this.roots.clear()
    this.roots.set(p, found)
    return found
  }

  find(p: number, steps: readonly Step[]): { at: number; exact: boolean } {
    const root = this.root(p)
    let nd = root.node
    let at = root.report
    for (const s of steps) {
      const e = this.child(nd, s)
      if (e === undefined) return { at, exact: false }
      nd = this.valueOf(nd, e)
      at = e.report
    }
    return { at, exact: true }
  }
}

/** A plain key's text as sigs.k8s.io/yaml makes it (`y` → "true", `0x1F` → "31"); undefined for `<<` (a merge). */
function plainKey(s: string): string | undefined {
  if (s === '<<') return undefined
  try {
    return String(plainScalar(s))
  } catch {
    return s
  }
}

/** A double-quoted scalar's escapes (YAML 1.2 §5.7, as go-yaml reads them); also the playground's scalar map. */
export const YAML_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
}
/** The digits of `\x`, `\u` and `\U` escapes. */
export const YAML_HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 }

/** A one-line quoted scalar's text (the quotes included in s). */
function unquote(s: string): string {
  const inner = s.slice(1, s.length > 1 && s[s.length - 1] === s[0] ? -1 : undefined)
  if (s[0] === "'") return inner.replaceAll("''", "'")
  if (!inner.includes('\\')) return inner
  let out = ''
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i] as string
    if (c !== '\\') {
      out += c
      continue
    }
    const e = inner[++i] ?? ''
    const h = YAML_HEX_LENGTH[e]
    if (h !== undefined) {
      const cp = Number.parseInt(inner.slice(i + 1, i + 1 + h), 16)
      out += Number.isNaN(cp) ? '' : String.fromCodePoint(cp)
      i += h
    } else out += YAML_ESCAPES[e] ?? e
  }
  return out
}
