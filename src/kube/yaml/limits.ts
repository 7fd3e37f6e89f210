import { nodeModule } from '../node-host.js'
import { setOwn } from '../own-keys.js'
import { GoScalar, GoYAMLError } from './resolve.js'

// The limits go-yaml v2 puts on a document (sigs.k8s.io/yaml/goyaml.v2): its reader's UTF-8 check
// (readerc.go), its depth limit (scannerc.go max_flow_level / max_indents), its alias expansion
// bound (decode.go allowedAliasRatio); and Go's encoding/json depth limit for JSON streams.

/** scannerc.go max_flow_level and max_indents; encoding/json maxNestingDepth is the same number. */
export const MAX_DEPTH = 10000

export interface Utf8Problem {
  /** Byte offset of the bad sequence. */
  readonly offset: number
  /** 1-based line (LF bytes before the offset + 1). */
  readonly line: number
  /** go-yaml's words (readerc.go yaml_parser_update_buffer). */
  readonly problem: string
}

/**
 * Whether the bytes are valid UTF-8, natively: Node's buffer.isUtf8 (no copy); in a page, the fatal TextDecoder
 * (which refuses the same sequences: overlong forms, surrogates, past U+10FFFF, truncated ones).
 */
const isUtf8: (buf: Uint8Array) => boolean =
  nodeModule('node:buffer')?.isUtf8 ??
  ((buf) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(buf)
      return true
    } catch {
      return false
    }
  })

/**
 * The invalid UTF-8 sequences of a buffer as go-yaml's reader reports them, in order (empty for valid
 * input; the whole-buffer check is native and fast, the scan runs only on invalid input).
 */
export function utf8Problems(buf: Uint8Array): Utf8Problem[] {
  if (isUtf8(buf)) return []
  const out: Utf8Problem[] = []
  let line = 1
  let i = 0
  while (i < buf.length) {
    const c = buf[i] as number
    if (c === 0x0a) line++
    if (c < 0x80) {
      i++
      continue
    }
    const width = (c & 0xe0) === 0xc0 ? 2 : (c & 0xf0) === 0xe0 ? 3 : (c & 0xf8) === 0xf0 ? 4 : 0
    let problem: string | undefined
    if (width === 0) problem = 'invalid leading UTF-8 octet'
    else if (i + width > buf.length) problem = 'incomplete UTF-8 octet sequence'
    else {
      let value = width === 2 ? c & 0x1f : width === 3 ? c & 0x0f : c & 0x07
      for (let k = 1; k < width && problem === undefined; k++) {
        const o = buf[i + k] as number
        if ((o & 0xc0) !== 0x80) problem = 'invalid trailing UTF-8 octet'
        value = (value << 6) + (o & 0x3f)
      }
      if (problem === undefined) {
        if ((width === 2 && value < 0x80) || (width === 3 && value < 0x800) || (width === 4 && value < 0x10000))
          problem = 'invalid length of a UTF-8 sequence'
        else if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) problem = 'invalid Unicode character'
      }
    }
    if (problem !== undefined) {
      out.push({ offset: i, line, problem })
      i++
      continue
    }
    i += width
  }
  return out
}

// decode.go: the share of decode operations that may come from alias expansion, by document size
const ALIAS_RATIO_RANGE_LOW = 400000
const ALIAS_RATIO_RANGE_HIGH = 4000000
const ALIAS_RATIO_RANGE = ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW

export function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1
  return 0.99 - 0.89 * ((decodeCount - ALIAS_RATIO_RANGE_LOW) / ALIAS_RATIO_RANGE)
}

type Node = Record<string, unknown> | unknown[]
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !(v instanceof GoScalar)

/**
 * go-yaml's decodeCount / aliasCount over a js-yaml result, which shares an aliased collection by
 * reference: the first occurrence of a collection is its anchor, every later one an alias, counted
 * as the alias node plus the expanded size of its value (computed once per collection, so an alias
 * bomb costs its size in the source, not its expansion). Throws go-yaml's "document contains
 * excessive aliasing" where decode.go unmarshal would; returns whether anything was aliased.
 * (Aliased scalars are copies in js-yaml and count as plain nodes; go-yaml counts them one more.)
 */
export function checkAliasing(root: unknown): boolean {
  let decodeCount = 1 // the document node
  let aliasCount = 0
  let aliased = false
  const sizes = new Map<Node, number>()
  const open = new Set<Node>()
  const size = (n: Node): number => {
    const known = sizes.get(n)
    if (known !== undefined) return known
    if (open.has(n)) throw new GoYAMLError('anchor value contains itself')
    open.add(n)
    let s = 1
    if (Array.isArray(n)) for (const v of n) s += isNode(v) ? size(v) : 1
    else for (const k in n) s += 1 + (isNode(n[k]) ? size(n[k] as Node) : 1)
    open.delete(n)
    sizes.set(n, s)
    return s
  }
  const check = () => {
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount))
      throw new GoYAMLError('document contains excessive aliasing')
  }
  const seen = new Set<Node>()
  const visit = (v: unknown) => {
    decodeCount++
    check()
    if (!isNode(v)) return
    if (seen.has(v)) {
      aliased = true
      const s = size(v)
      aliasCount += s
      decodeCount += s
      check()
      return
    }
    if (open.has(v)) throw new GoYAMLError('anchor value contains itself')
    seen.add(v)
    open.add(v)
    if (Array.isArray(v)) for (const x of v) visit(x)
    else
      for (const k in v) {
        decodeCount++ // the key
        visit(v[k])
      }
    open.delete(v)
  }
  visit(root)
  return aliased
}

/**
 * The document as sigs.k8s.io/yaml hands it on: a tree (aliased collections copied, so that changing
 * one copy cannot change another: go-yaml decodes each alias afresh) with GoScalar boxes replaced by
 * their values; a value JSON cannot hold (±Inf, NaN) throws json.Marshal's error.
 */
export function toJSONTree(v: unknown, copy: boolean): unknown {
  if (v instanceof GoScalar) {
    if (v.valueError !== undefined) throw new GoYAMLError(v.valueError)
    return v.value
  }
  if (typeof v !== 'object' || v === null) return v
  if (Array.isArray(v)) {
    const out = copy ? new Array(v.length) : v
    for (let i = 0; i < v.length; i++) out[i] = toJSONTree(v[i], copy)
    return out
  }
  const o = v as Record<string, unknown>
  const out: Record<string, unknown> = copy ? {} : o
  // setOwn: a copy's `__proto__` key stays a key (plain assignment to a new object would set its prototype)
  for (const k in o) setOwn(out, k, toJSONTree(o[k], copy))
  return out
}

/** The maximum nesting of a YAML or JSON text, counted as go-yaml counts it (flow level; block indents). */
export function nestingDepth(text: string): number {
  let flow = 0
  let max = 0
  const indents: number[] = []
  let lineStart = true
  let col = 0
  let quote = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) {
      lineStart = true
      col = 0
      continue
    }
    if (quote !== 0) {
      if (c === quote && !(quote === 34 && text.charCodeAt(i - 1) === 92)) quote = 0
      continue
    }
    if (lineStart && c !== 32) {
      lineStart = false
      if (flow === 0 && c !== 35) {
        while (indents.length > 0 && (indents[indents.length - 1] as number) >= col) indents.pop()
        indents.push(col)
      }
    }
    col++
    if (c === 34 || c === 39) quote = c
    else if (c === 91 || c === 123) flow++
    else if ((c === 93 || c === 125) && flow > 0) flow--
    else if (c === 35 && (i === 0 || text.charCodeAt(i - 1) === 32)) {
      const nl = text.indexOf('\n', i)
      i = nl < 0 ? text.length : nl - 1
      continue
    }
    const d = flow + indents.length
    if (d > max) max = d
  }
  return max
}

/** The message for a document nested past what can be read: go-yaml's past its limit, else kelp's own. */
export function depthMessage(text: string): string {
  return nestingDepth(text) > MAX_DEPTH
    ? `exceeded max depth of ${MAX_DEPTH}`
    : `document nested too deeply for kelp's YAML reader (go-yaml allows ${MAX_DEPTH} levels)`
}
