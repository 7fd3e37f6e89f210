import { plainScalar } from './resolve.js'

// The YAML most manifests are written in, read without js-yaml: block mappings and sequences of
// printable-ASCII lines, keys of name characters, one-line plain and quoted scalars, one-line flow
// collections (a whole document written `{…}` on one line too), literal block scalars, comments, anchors
// and aliases of block values (`labels: &l` … `labels: *l`, as js-yaml's dump writes a shared object). Every
// other text (and every error) is js-yaml's: a line this reader is not sure of makes it give up, and
// readYAMLChunk reads the document with GOYAML_V2_SCHEMA. Where it answers, it answers what js-yaml
// would (test/kube/yaml-simple.test.ts checks that on real files and on fuzzed ones); it is here for
// speed (docs/benchmarks.md: js-yaml's reading is most of `kelp check`'s time on built-in kinds).

/** readSimpleYAML's answer for a text outside its subset. */
export const NOT_SIMPLE: unique symbol = Symbol('not simple YAML')

// anything but printable ASCII and newlines (tabs, CR, BOM, non-ASCII) is left to js-yaml
const OUTSIDE = /[^\n\x20-\x7e]/
// nesting deeper than this is left to js-yaml (and to its depth limits)
const MAX_NESTING = 64
// go-yaml refuses implicit keys longer than 1024 characters; such keys are left to js-yaml
const MAX_KEY = 1000

const table = (chars: string) => {
  const t = new Uint8Array(128)
  for (const c of chars) t[c.charCodeAt(0)] = 1
  return t
}
const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const KEY_START = table(`${ALNUM}_./$`)
const KEY_CHAR = table(`${ALNUM}_./$-`)
// a plain scalar may not start with an indicator (`-` only before a space: see scalar())
const INDICATOR = table('-?:,[]{}#&*!|>%@`')

// an anchor's or alias's name: go-yaml's characters (yaml_parser_scan_anchor); js-yaml takes more, and
// a name running into another character is left to it (refusals.ts words go-yaml's answer)
const ANCHOR_NAME = table(`${ALNUM}_-`)

class GiveUp {}
const GIVE_UP = new GiveUp()

// the document's content lines (not blank, not comment-only): indent, first character, end
let indents = new Int32Array(512)
let starts = new Int32Array(512)
let ends = new Int32Array(512)
let count = 0 // content lines scanned so far
let scanPos = 0 // where the next line to scan starts (past the text's end when all are)
let next = 0 // the first line not read yet
let t = ''
// the document's anchors so far (made at the first), the names whose value is being read, and the nodes
// decoded under aliases (go-yaml's decoder counts them; see aliasCopy)
let anchors: Map<string, unknown> | undefined
const defining: string[] = []
let aliasNodes = 0
// go-yaml refuses a document for excessive aliasing only past 100 nodes decoded under aliases (decode.go);
// a document with more is js-yaml's, with kelp's check of go-yaml's ratio (limits.ts checkAliasing)
const MAX_ALIAS_NODES = 100

/** The value of a document in the subset, as js-yaml reads it with GOYAML_V2_SCHEMA; else NOT_SIMPLE. */
export function readSimpleYAML(text: string): unknown {
  t = text
  count = 0
  scanPos = 0
  anchors = undefined
  defining.length = 0
  aliasNodes = 0
  try {
    if (!has(0)) return NOT_SIMPLE
    next = 0
    const v = node(0)
    // characters outside the subset are asked for last (a text given up on early is not scanned for them):
    // the reading treats them as any other, and nothing it answered holds them only if there are none
    return has(next) || OUTSIDE.test(text) ? NOT_SIMPLE : v
  } catch (e) {
    if (e === GIVE_UP) return NOT_SIMPLE
    throw e
  } finally {
    t = ''
  }
}

/**
 * Whether content line i exists. Lines are scanned as the reading needs them, so that a text the
 * reader gives up on early (a CRD's first block description) costs little.
 */
function has(i: number): boolean {
  const len = t.length
  while (count <= i) {
    if (scanPos > len) return false
    let nl = t.indexOf('\n', scanPos)
    if (nl < 0) nl = len
    let j = scanPos
    while (j < nl && t.charCodeAt(j) === 32) j++
    if (j < nl && t.charCodeAt(j) !== 35) {
      if (count === indents.length) grow()
      indents[count] = j - scanPos
      starts[count] = j
      let e = nl
      while (t.charCodeAt(e - 1) === 32) e--
      ends[count++] = e
    }
    scanPos = nl + 1
  }
  return true
}

function grow(): void {
  const g = (a: Int32Array) => {
    const b = new Int32Array(a.length * 2)
    b.set(a)
    return b
  }
  indents = g(indents)
  starts = g(starts)
  ends = g(ends)
}

/** `-` then a space or the line's end. */
const isEntry = (s: number, e: number) => t.charCodeAt(s) === 45 && (s + 1 === e || t.charCodeAt(s + 1) === 32)

function node(depth: number): unknown {
  if (depth > MAX_NESTING) throw GIVE_UP
  const indent = indents[next] as number
  const s = starts[next] as number
  const c = t.charCodeAt(s)
  // a flow collection as the document (or as a block entry's value on its own line): one line
  if (c === 123 || c === 91) {
    const e = ends[next] as number
    next++
    return flowCollection(s, e, depth)
  }
  return isEntry(s, ends[next] as number) ? sequence(indent, depth) : mapping(indent, depth)
}

/** Where the key at s ends (at its `:`), or -1 when the line does not start with a key. */
function keyEnd(s: number, e: number): number {
  if (KEY_START[t.charCodeAt(s)] !== 1) return -1
  let k = s + 1
  while (k < e && KEY_CHAR[t.charCodeAt(k)] === 1) k++
  if (k === e || t.charCodeAt(k) !== 58 || (k + 1 < e && t.charCodeAt(k + 1) !== 32)) return -1
  return k
}

function mapping(indent: number, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  while (has(next) && indents[next] === indent) {
    const s = starts[next] as number
    const e = ends[next] as number
    const k = keyEnd(s, e)
    if (k < 0 || k - s > MAX_KEY) throw GIVE_UP
    const key = t.slice(s, k)
    // a key that resolves to another value (a number, a bool, null) or that js-yaml treats apart
    if (plainScalar(key) !== key || key === '__proto__' || Object.hasOwn(out, key)) throw GIVE_UP
    let p = k + 1
    while (p < e && t.charCodeAt(p) === 32) p++
    next++
    const c = t.charCodeAt(p)
    if (p === e || c === 35) out[key] = blockValue(indent, depth, true)
    else if (c === 38 || c === 42) out[key] = property(p, e, indent, depth)
    else {
      out[key] = scalar(p, e, indent, depth)
      if (has(next) && (indents[next] as number) > indent) throw GIVE_UP // a continuation line
    }
  }
  return out
}

function sequence(indent: number, depth: number): unknown[] {
  const out: unknown[] = []
  while (has(next) && indents[next] === indent && isEntry(starts[next] as number, ends[next] as number)) {
    const s = starts[next] as number
    const e = ends[next] as number
    let p = s + 1
    while (p < e && t.charCodeAt(p) === 32) p++
    if (p === e || t.charCodeAt(p) === 35) {
      next++
      const v = blockValue(indent, depth, false)
      // js-yaml reads an entry less indented that follows an empty one into this sequence (`-\n -\n- b`
      // is [[null, "b"]] to it): left to js-yaml, whose answer kelp gives (docs/known-differences.md)
      if (
        v === null &&
        has(next) &&
        (indents[next] as number) < indent &&
        isEntry(starts[next] as number, ends[next] as number)
      )
        throw GIVE_UP
      out.push(v)
    } else if (t.charCodeAt(p) === 38 || t.charCodeAt(p) === 42) {
      next++
      out.push(property(p, e, indent, depth))
    } else if (keyEnd(p, e) >= 0) {
      // `- key: value`: a mapping whose entries are at the key's column
      if (depth + 1 > MAX_NESTING) throw GIVE_UP
      indents[next] = indent + (p - s)
      starts[next] = p
      out.push(mapping(indents[next] as number, depth + 1))
    } else {
      next++
      out.push(scalar(p, e, indent, depth))
      if (has(next) && (indents[next] as number) > indent) throw GIVE_UP
    }
  }
  return out
}

/** The value of an entry with nothing after its indicator: the block below it, a compact sequence, or null. */
function blockValue(indent: number, depth: number, inMapping: boolean): unknown {
  if (!has(next)) return null
  const i = indents[next] as number
  if (i > indent) return node(depth + 1)
  if (inMapping && i === indent && isEntry(starts[next] as number, ends[next] as number)) {
    if (depth + 1 > MAX_NESTING) throw GIVE_UP
    return sequence(indent, depth + 1)
  }
  return null
}

/**
 * The anchored value `v` as an alias gives it: a copy (go-yaml decodes an alias afresh, so changing one
 * cannot change another), counting the nodes it holds (each collection, key and scalar, as go-yaml's
 * decodeCount under an alias) into aliasNodes; past MAX_ALIAS_NODES the document is js-yaml's.
 */
function aliasCopy(v: unknown): unknown {
  if (++aliasNodes > MAX_ALIAS_NODES) throw GIVE_UP
  if (typeof v !== 'object' || v === null) return v
  if (Array.isArray(v)) return v.map(aliasCopy)
  // a scalar box (resolve.ts GoScalar): the document is read again by js-yaml anyway (readYAMLChunk)
  if (Object.getPrototypeOf(v) !== Object.prototype) return v
  const out: Record<string, unknown> = {}
  // keys the reader took: never `__proto__` (mapping and flowMapping give up on it)
  for (const k of Object.keys(v)) {
    ++aliasNodes
    out[k] = aliasCopy((v as Record<string, unknown>)[k])
  }
  return out
}

/**
 * An entry's value that starts with an anchor (`&name`, then a scalar on the line or a block more indented below
 * it) or is an alias (`*name`, then nothing or a comment), its line already taken; `indent` is the collection's.
 * An alias gives a copy of the anchored value (aliasCopy). Left to js-yaml: an alias
 * of a name not anchored yet or whose value it is inside (go-yaml refuses that one), a name anchored again inside
 * its own node, an anchor on nothing or on a compact sequence, an anchor with another property, a name of other
 * characters.
 */
function property(p: number, e: number, indent: number, depth: number): unknown {
  let q = p + 1
  while (q < e && ANCHOR_NAME[t.charCodeAt(q)] === 1) q++
  if (q === p + 1 || (q < e && t.charCodeAt(q) !== 32)) throw GIVE_UP
  const name = t.slice(p + 1, q)
  let r = q
  while (r < e && t.charCodeAt(r) === 32) r++
  let v: unknown
  if (t.charCodeAt(p) === 42) {
    if ((r < e && t.charCodeAt(r) !== 35) || anchors === undefined || !anchors.has(name) || defining.includes(name))
      throw GIVE_UP
    v = aliasCopy(anchors.get(name))
  } else {
    // the name anchored again inside its own node: go-yaml's alias after it is the inner node, js-yaml's the outer
    // (refusals.ts reads it as go-yaml does)
    if (defining.includes(name)) throw GIVE_UP
    defining.push(name)
    if (r === e) {
      if (!has(next) || (indents[next] as number) <= indent) throw GIVE_UP
      v = node(depth + 1)
    } else {
      const c = t.charCodeAt(r)
      if (c === 35 || c === 38 || c === 42) throw GIVE_UP
      v = scalar(r, e, indent, depth)
    }
    defining.pop()
    anchors ??= new Map()
    anchors.set(name, v)
  }
  if (has(next) && (indents[next] as number) > indent) throw GIVE_UP // a continuation line
  return v
}

/**
 * The value that starts at p on a line ending at e (trailing spaces already off), a comment allowed
 * after it: a one-line scalar, an empty or one-line flow collection, or a literal block scalar (then
 * the lines it takes are read; `indent` is the collection's the value belongs to).
 */
function scalar(p: number, e: number, indent: number, depth: number): unknown {
  const c = t.charCodeAt(p)
  if (c === 91 || c === 123) return flowCollection(p, e, depth + 1)
  if (c === 124) return literal(p, e, indent)
  if (c === 34) {
    let q = p + 1
    for (; q < e; q++) {
      const ch = t.charCodeAt(q)
      if (ch === 34) break
      if (ch === 92) throw GIVE_UP // escapes are js-yaml's
    }
    if (q >= e) throw GIVE_UP
    afterQuoted(q + 1, e)
    return t.slice(p + 1, q)
  }
  if (c === 39) {
    let q = p + 1
    let doubled = false
    for (;;) {
      q = t.indexOf("'", q)
      if (q < 0 || q >= e) throw GIVE_UP
      if (q + 1 < e && t.charCodeAt(q + 1) === 39) {
        doubled = true
        q += 2
        continue
      }
      break
    }
    afterQuoted(q + 1, e)
    const v = t.slice(p + 1, q)
    return doubled ? v.replaceAll("''", "'") : v
  }
  if (INDICATOR[c] === 1 && (c !== 45 || p + 1 === e || t.charCodeAt(p + 1) === 32)) throw GIVE_UP
  let last = p + 1
  for (let q = p + 1; q < e; q++) {
    const ch = t.charCodeAt(q)
    if (ch === 32) {
      if (t.charCodeAt(q + 1) === 35) break // a comment
    } else {
      // `: ` or a final `:` inside a plain scalar is a mapping indicator: an error js-yaml words
      if (ch === 58 && (q + 1 === e || t.charCodeAt(q + 1) === 32)) throw GIVE_UP
      last = q + 1
    }
  }
  const s = t.slice(p, last)
  if (s === '<<') throw GIVE_UP
  return plainScalar(s)
}

/** After a closing quote: nothing, or spaces and a comment. */
function afterQuoted(q: number, e: number): void {
  let r = q
  while (r < e && t.charCodeAt(r) === 32) r++
  if (r < e && (r === q || t.charCodeAt(r) !== 35)) throw GIVE_UP
}

/**
 * Stops a plain scalar of a flow collection: `,[]{}` end it (go-yaml and js-yaml alike); `#`, `?` and quotes
 * make the reader give up (a comment; `?`, where go-yaml ends the scalar and js-yaml reads on: refusals.ts).
 */
const FLOW_STOP = table(',[]{}#?\'"')
const FLOW_INDICATOR = table(',[]{}')

// where the flow collection being read is (an offset in its line)
let fp = 0

/**
 * A flow collection that opens at p and closes on the same line (ending at e), then nothing but a comment:
 * mappings of plain keys, sequences of scalars and mappings, one-line scalars. Multi-line collections,
 * empty entries, pairs in sequences, sequences of sequences, keys without a value and trailing commas are
 * js-yaml's.
 */
function flowCollection(p: number, e: number, depth: number): unknown {
  fp = p
  const v = flowNode(e, depth)
  afterQuoted(fp, e)
  return v
}

function flowNode(e: number, depth: number): unknown {
  if (depth > MAX_NESTING) throw GIVE_UP
  const c = t.charCodeAt(fp)
  if (c === 123) return flowMapping(e, depth)
  if (c === 91) return flowSequence(e, depth)
  return flowScalar(e)
}

function flowSpaces(e: number): void {
  while (fp < e && t.charCodeAt(fp) === 32) fp++
}

/** Past the opening bracket: whether the collection is empty (`{}`, `[ ]`: then past its closing bracket too). */
function flowOpenEmpty(e: number, close: number): boolean {
  fp++
  flowSpaces(e)
  if (fp >= e || t.charCodeAt(fp) !== close) return false
  fp++
  return true
}

/** After an entry: `,` and the next entry (true), or the closing bracket (false). */
function flowNext(e: number, close: number): boolean {
  flowSpaces(e)
  const d = t.charCodeAt(fp)
  if (fp < e && d === close) {
    fp++
    return false
  }
  if (fp >= e || d !== 44) throw GIVE_UP
  fp++
  flowSpaces(e)
  // an empty entry or a trailing comma
  if (fp >= e || t.charCodeAt(fp) === close || t.charCodeAt(fp) === 44) throw GIVE_UP
  return true
}

/** `{k: v, …}`: plain keys as in a block mapping, each followed by `: `. */
function flowMapping(e: number, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (flowOpenEmpty(e, 125)) return out
  do {
    const s = fp
    if (KEY_START[t.charCodeAt(s)] !== 1) throw GIVE_UP
    let k = s + 1
    while (k < e && KEY_CHAR[t.charCodeAt(k)] === 1) k++
    // `key: ` (a key followed by anything else, or by nothing, is js-yaml's)
    if (k + 1 >= e || t.charCodeAt(k) !== 58 || t.charCodeAt(k + 1) !== 32 || k - s > MAX_KEY) throw GIVE_UP
    const key = t.slice(s, k)
    if (plainScalar(key) !== key || key === '__proto__' || Object.hasOwn(out, key)) throw GIVE_UP
    fp = k + 1
    flowSpaces(e)
    if (fp >= e) throw GIVE_UP
    out[key] = flowNode(e, depth + 1)
  } while (flowNext(e, 125))
  return out
}

/** `[v, …]`: scalars and mappings (a sequence in a sequence is js-yaml's). */
function flowSequence(e: number, depth: number): unknown[] {
  const out: unknown[] = []
  if (flowOpenEmpty(e, 93)) return out
  do {
    if (t.charCodeAt(fp) === 91) throw GIVE_UP
    out.push(flowNode(e, depth + 1))
  } while (flowNext(e, 93))
  return out
}

/** A quoted scalar, or a plain one up to a flow indicator (its trailing spaces not part of it). */
function flowScalar(e: number): unknown {
  const c = t.charCodeAt(fp)
  if (c === 34 || c === 39) {
    const close = closingQuote(fp, e)
    const v = t.slice(fp + 1, close)
    fp = close + 1
    return c === 39 && v.includes("''") ? v.replaceAll("''", "'") : v
  }
  // `-` starts a plain scalar only before a character that can go on one (js-yaml readPlainScalar)
  if (
    INDICATOR[c] === 1 &&
    (c !== 45 || fp + 1 >= e || FLOW_STOP[t.charCodeAt(fp + 1)] === 1 || t.charCodeAt(fp + 1) === 32)
  )
    throw GIVE_UP
  const from = fp
  let last = fp
  for (; fp < e; fp++) {
    const ch = t.charCodeAt(fp)
    if (FLOW_STOP[ch] === 1) break
    if (ch === 58) {
      // `:` then a space, the end or a flow indicator: a pair, or a scalar js-yaml ends there and go-yaml
      // does not (`a:,`)
      const d = t.charCodeAt(fp + 1)
      if (fp + 1 >= e || d === 32 || FLOW_INDICATOR[d] === 1) throw GIVE_UP
    }
    if (ch !== 32) last = fp + 1
  }
  if (last === from) throw GIVE_UP
  const item = t.slice(from, last)
  if (item === '<<') throw GIVE_UP
  return plainScalar(item)
}

/** The closing quote of the one-line quoted scalar opening at q (no escapes; `''` in single quotes). */
function closingQuote(q: number, e: number): number {
  const quote = t.charCodeAt(q)
  for (let i = q + 1; i < e; i++) {
    const ch = t.charCodeAt(i)
    if (ch === quote) {
      if (quote === 39 && t.charCodeAt(i + 1) === 39 && i + 1 < e) {
        i++
        continue
      }
      return i
    }
    if (ch === 92 && quote === 34) throw GIVE_UP
  }
  throw GIVE_UP
}

/**
 * A literal block scalar, `|` or `|-` (no indentation indicator, no `+`), its lines more indented than
 * `indent`, the first one not blank, none of only spaces, the last one ending in a newline.
 */
function literal(p: number, e: number, indent: number): string {
  let h = p + 1
  const strip = t.charCodeAt(h) === 45
  if (strip) h++
  afterQuoted(h, e)
  const len = t.length
  let pos = t.indexOf('\n', e)
  if (pos < 0) throw GIVE_UP
  pos++
  let blockIndent = 0
  while (t.charCodeAt(pos + blockIndent) === 32) blockIndent++
  if (blockIndent <= indent || pos + blockIndent >= len || t.charCodeAt(pos + blockIndent) === 10) throw GIVE_UP
  let out = ''
  let empty = 0 // empty lines since the last content line
  let first = true
  for (;;) {
    if (pos >= len) break
    let nl = t.indexOf('\n', pos)
    if (nl < 0) nl = len
    let i = pos
    while (i < nl && t.charCodeAt(i) === 32) i++
    if (i === nl) {
      if (nl > pos) throw GIVE_UP // a line of spaces only
      empty++
    } else if (i - pos < blockIndent) break
    else {
      if (nl === len) throw GIVE_UP // the last line without its newline
      out += first ? t.slice(pos + blockIndent, nl) : `${'\n'.repeat(empty + 1)}${t.slice(pos + blockIndent, nl)}`
      first = false
      empty = 0
    }
    pos = nl + 1
  }
  // the lines it took are not the collection's
  if (scanPos < pos) scanPos = pos
  while (has(next) && (starts[next] as number) < pos) next++
  return strip ? out : `${out}\n`
}
