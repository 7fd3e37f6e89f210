import jsyaml from 'js-yaml'
import { scanGoJSON } from '../json-syntax.js'
import { collectionKey } from './collection-keys.js'
import { goYAMLFirstDocumentEnd, goYAMLProblem } from './goyaml/index.js'
import { checkAliasing, depthMessage, MAX_DEPTH, toJSONTree, type Utf8Problem, utf8Problems } from './limits.js'
import { MAX_READINGS, originalOffset, quoteEscapes } from './quote-escapes.js'
import { goYAMLWatch } from './refusals.js'
import { GOYAML_V2_SCHEMA, GoScalar, GoYAMLError, resolve } from './resolve.js'
import { NOT_SIMPLE, readSimpleYAML } from './simple.js'

/** A line whose node is an explicit key (`? `, also as a sequence entry's): its key may be a collection. */
const EXPLICIT_KEY = /^[ \t]*(?:- +)*\?(?:[ \t]|$)/m
/**
 * A line that opens a flow collection and closes one before a key's `:` (`[a]: b`, `- {a: 1}: b`): maybe a collection
 * as an implicit key. (Not `k:{"name":"x"}:`, a managedFields key: a plain scalar.)
 */
const FLOW_KEY = /^[ \t]*(?:- +)*[[{][^\n]*[\]}][ \t]*:(?:[ \t]|$)/m

// A stream of documents as kubectl reads a file (apimachinery pkg/util/yaml YAMLOrJSONDecoder, which
// cli-runtime's StreamVisitor uses with a 4096-byte sniff): JSON values back to back when the stream
// starts with `{`, else YAML documents split at `---` lines (YAMLReader), each read as
// sigs.k8s.io/yaml.Unmarshal reads it (go-yaml v2, then the JSON conversion). One document at a time.

export interface DecodedDocument {
  /** 0-based position of the document in the stream. */
  readonly index: number
  /** 1-based line of the document's first line. */
  readonly line: number
  /** The document's own text (positions inside it are relative to `line`). */
  readonly text: string
  readonly json: boolean
  /** The value (undefined for an empty document), when it was read. */
  readonly value?: unknown
  readonly error?: { readonly message: string; readonly line: number; readonly column?: number }
}

const SNIFF = 4096
// unicode.IsSpace (GuessJSONStream trims with it)
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/

/**
 * A share of a stream's documents (a worker of `kelp check` reads its own): whether the document that
 * starts at this fraction of the text (0 ≤ at < 1) is read. A JSON stream is one share: the
 * document at 0's. Documents not read still count in `index`.
 */
export type DocumentShare = (at: number) => boolean

/** The documents of a stream, one at a time (text, or the file's bytes: then UTF-8 is checked as go-yaml does). */
export function* decodeStream(input: string | Uint8Array, share?: DocumentShare): Generator<DecodedDocument> {
  let utf8: Utf8Problem[] = []
  let text: string
  if (typeof input === 'string') text = input
  else {
    utf8 = utf8Problems(input)
    text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8')
  }
  const head = text.slice(0, SNIFF)
  const lead = GO_SPACE.exec(head)?.[0].length ?? 0
  let index = 0
  let yamlFrom = 0
  let yamlLine = 1
  let jsonError: string | undefined
  if (head.charCodeAt(lead) === 123) {
    if (share !== undefined && !share(0)) return
    share = undefined
    // JSON values back to back; past two decoded values a failure is final, before it the decoder
    // falls back to YAML from the end of the last value (YAMLOrJSONDecoder.Decode)
    let pos = lead
    let line = countLines(text, 0, pos) + 1
    let count = 0
    for (;;) {
      const ws = skipJSONSpace(text, pos)
      line += countLines(text, pos, ws)
      pos = ws
      if (pos >= text.length) return
      const r = scanJSON(text, pos)
      if (r.error === undefined) {
        const slice = text.slice(pos, r.end)
        try {
          const value = JSON.parse(slice)
          yield { index: index++, line, text: slice, json: true, value }
          count++
          line += countLines(text, pos, r.end)
          pos = r.end
          continue
        } catch (e) {
          r.error = `json: ${(e as Error).message}`
        }
      }
      // in encoding/json's words, as kubectl reports it: YAMLOrJSONDecoder wraps a syntax error with its offset
      // (JSONSyntaxError) where it may still read YAML, and returns the Decoder's own once past two values
      const go = scanGoJSON(text, pos)
      if ('eof' in go) r.error = 'unexpected EOF'
      else if ('error' in go) r.error = count > 1 ? go.error : `json: offset ${go.offset}: ${go.error}`
      if (count > 1) {
        yield { index: index++, line, text: '', json: true, error: { message: r.error as string, line } }
        return
      }
      // consumeWhitespace: up to and including the first newline
      let p = pos
      while (p < text.length && /\s/.test(text[p] as string) && text[p] !== '\n') p++
      if (text[p] === '\n') p++
      yamlFrom = p
      yamlLine = countLines(text, 0, p) + 1
      jsonError = r.error
      break
    }
  }
  for (const chunk of splitYAML(text, yamlFrom, yamlLine)) {
    if (share !== undefined && !share(chunk.start / Math.max(1, text.length))) {
      index++
      continue
    }
    const doc = readYAMLChunk(chunk, index++, utf8)
    if (jsonError !== undefined) {
      // the JSON decoder's error wins where the YAML reading fails too; not over kelp's own refusal of a duplicate
      // key, which go-yaml reads (docs/yaml.md): the key is what the user has to hear of
      if (doc.error !== undefined && !DUPLICATE_KEY.test(doc.error.message))
        yield { ...doc, error: { message: jsonError, line: doc.line } }
      else yield doc
      jsonError = undefined
    } else yield doc
  }
}

function countLines(text: string, from: number, to: number): number {
  let n = 0
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++
  return n
}

/**
 * Line breaks in text[from, to) as go-yaml counts them inside a document (CR LF, LF, and a CR alone), for a
 * position go-yaml's scanner reports; kubectl's YAMLReader cuts the documents at LF lines (countLines).
 */
function countBreaks(text: string, from: number, to: number): number {
  const n = countLines(text, from, to)
  if (!text.includes('\r')) return n
  let lone = 0
  for (let i = text.indexOf('\r', from); i >= 0 && i < to; i = text.indexOf('\r', i + 1))
    if (text.charCodeAt(i + 1) !== 10) lone++
  return n + lone
}

function skipJSONSpace(text: string, pos: number): number {
  while (pos < text.length) {
    const c = text.charCodeAt(pos)
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break
    pos++
  }
  return pos
}

/** The end of the JSON value at pos (strings and nesting respected), or why it cannot be one; Go's depth limit. */
function scanJSON(text: string, pos: number): { end: number; error?: string } {
  const c = text.charCodeAt(pos)
  if (c !== 123 && c !== 91) {
    // a scalar: up to the next delimiter (JSON.parse judges it)
    if (c === 34) {
      let i = pos + 1
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1
      return { end: i + 1 }
    }
    let i = pos
    while (i < text.length && !/[\s{}[\],"]/.test(text[i] as string)) i++
    return i === pos
      ? { end: pos, error: `json: invalid character '${text[pos]}' looking for beginning of value` }
      : { end: i }
  }
  let depth = 0
  for (let i = pos; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 34) {
      i++
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1
    } else if (ch === 123 || ch === 91) {
      if (++depth > MAX_DEPTH) return { end: i, error: `json: exceeded max depth of ${MAX_DEPTH}` }
    } else if (ch === 125 || ch === 93) {
      if (--depth === 0) return { end: i + 1 }
    }
  }
  return { end: text.length, error: 'json: unexpected end of JSON input' }
}

interface Chunk {
  /** Offset of the chunk's first character in the stream's text. */
  readonly start: number
  readonly text: string
  readonly line: number
  /** Last line (1-based) of the chunk. */
  readonly endLine: number
  /** kubectl's YAMLReader refuses a separator with content after it. */
  readonly separatorError?: string
  /** Where a `...` line ended `text`: the text up to the next separator, as YAMLReader gives it to go-yaml. */
  readonly whole?: string
}

/**
 * YAMLReader.Read: documents end at a line starting with `---` (followed by nothing but spaces or a
 * comment; anything else is "invalid Yaml document separator"). A `---` after directives only
 * (`%YAML 1.1`) stays with them as their document start (the fix of kubernetes#135998, which kubectl
 * releases before it refuse). The text after a `...` line is not read (yaml.Unmarshal reads one document).
 */
function* splitYAML(text: string, from: number, firstLine: number): Generator<Chunk> {
  let start = from
  let startLine = firstLine
  let line = firstLine
  let directivesOnly = true // the chunk so far holds only directives, comments and blank lines
  let sawDirective = false
  let ended = -1 // offset of a `...` line ending the chunk's document
  let separatorError: string | undefined
  let pos = from
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos)
    if (nl < 0) nl = text.length
    const c0 = text.charCodeAt(pos)
    if (c0 === 45 && text.charCodeAt(pos + 1) === 45 && text.charCodeAt(pos + 2) === 45) {
      const rest = text.slice(pos + 3, nl).trim()
      const bad = rest.length > 0 && rest[0] !== '#'
      if (!bad && sawDirective && directivesOnly) {
        directivesOnly = false // the directives' document start: keep it in this chunk
      } else {
        if (pos > start || separatorError !== undefined)
          yield chunkOf(text, start, ended >= 0 ? ended : pos, startLine, line - 1, separatorError, pos)
        separatorError = bad ? `invalid Yaml document separator: ${rest}` : undefined
        start = nl + 1
        startLine = line + 1
        directivesOnly = true
        sawDirective = false
        ended = -1
      }
    } else if (c0 === 46 && ended < 0 && /^\.\.\.\s*(#.*)?$/.test(text.slice(pos, nl))) {
      ended = pos
    } else if (directivesOnly) {
      if (c0 === 37) sawDirective = true
      else if (!/^\s*(#.*)?$/.test(text.slice(pos, Math.min(nl, pos + 200)))) directivesOnly = false
    }
    if (nl >= text.length) break
    pos = nl + 1
    line++
  }
  if (start < text.length || separatorError !== undefined)
    yield chunkOf(text, start, ended >= 0 ? ended : text.length, startLine, line, separatorError, text.length)
}

function chunkOf(
  text: string,
  start: number,
  end: number,
  line: number,
  endLine: number,
  separatorError: string | undefined,
  next: number,
): Chunk {
  return {
    start,
    text: start < end ? text.slice(start, end) : '',
    line,
    endLine,
    ...(separatorError ? { separatorError } : {}),
    ...(next > end ? { whole: text.slice(start, next) } : {}),
  }
}

// parserc.go yaml_parser_process_directives: go-yaml v2 reads YAML 1.1 only
const YAML_DIRECTIVE = /^%YAML[ \t]+(\S+)/m

function readYAMLChunk(chunk: Chunk, index: number, utf8: Utf8Problem[]): DecodedDocument {
  const base = { index, line: chunk.line, text: chunk.text, json: false }
  const fail = (message: string, line = chunk.line, column?: number): DecodedDocument => ({
    ...base,
    error: { message, line, ...(column !== undefined ? { column } : {}) },
  })
  if (chunk.separatorError !== undefined) return fail(chunk.separatorError, chunk.line - 1)
  for (const p of utf8) if (p.line >= chunk.line && p.line <= chunk.endLine) return fail(p.problem, p.line)
  if (chunk.text.charCodeAt(0) === 37 || chunk.text.includes('\n%')) {
    const m = YAML_DIRECTIVE.exec(chunk.text)
    if (m !== null && m[1] !== '1.1')
      return fail('found incompatible YAML document', chunk.line + countLines(chunk.text, 0, m.index))
  }
  const boxes = GoScalar.created
  let value: unknown = readSimpleYAML(chunk.text)
  // a scalar JSON holds otherwise than js-yaml (a GoScalar box) is read again below, with its errors
  if (value !== NOT_SIMPLE && GoScalar.created === boxes)
    return { index, line: chunk.line, text: chunk.text, json: false, value }
  // go-yaml's escape `\'` in a double-quoted scalar, which js-yaml refuses: read as `\x27` (same lines)
  const quotes = chunk.text.includes("\\'") ? quoteEscapes(chunk.text) : undefined
  if (quotes?.settled === false)
    return fail(
      `kelp: could not tell in ${MAX_READINGS} readings which \\' are escapes of double-quoted scalars (go-yaml reads one as ')`,
    )
  const text = quotes?.text ?? chunk.text
  const watch = goYAMLWatch(text)
  // go-yaml's own refusal, where its scanner or parser refuses the text: its words, at its token's line and column
  // (goyaml/, run only for a text refused; a decoder's refusal, as a null key, is not its)
  const goRefusal = () => {
    const p = goYAMLProblem(yamlReaderText(chunk.whole ?? chunk.text))
    if (p === undefined) return undefined
    const message = p.problem.length > 0 ? p.problem : 'unknown problem parsing YAML content'
    return fail(message, chunk.line + p.problemMark.line, p.problemMark.column + 1)
  }
  // what kelp's watch saw go-yaml refuse before `before` (js-yaml's error) or at it, if anything (asked after
  // goRefusal: what is left is the decoder's, a null key)
  const refused = (before = Number.POSITIVE_INFINITY) => {
    const r = watch?.refusal()
    return r === undefined || r.at > before ? undefined : fail(r.message, chunk.line + countBreaks(text, 0, r.at))
  }
  try {
    value = jsyaml.load(text, { schema: GOYAML_V2_SCHEMA, ...(watch ? { listener: watch.listener } : {}) })
    // what go-yaml reads otherwise than js-yaml (refusals.ts rereadText: the blanks that end the lines of a
    // multi-line quoted scalar, which go-yaml drops when folding; `?` running into a flow key; an anchor running
    // into another character): the text read again as go-yaml reads it
    const again = watch?.rereadText()
    if (again !== undefined) {
      // its own watch for what the listener changes as it reads (an anchor's node: refusals.ts); its refusals
      // were the first reading's
      const rewatch = goYAMLWatch(again)
      value = jsyaml.load(again, { schema: GOYAML_V2_SCHEMA, ...(rewatch ? { listener: rewatch.listener } : {}) })
    }
  } catch (e) {
    if (e instanceof GoYAMLError) return fail(e.message)
    // go-yaml's words where it refuses the text too; else what kelp's watch saw go-yaml refuse before js-yaml's error
    const go = goRefusal()
    if (go !== undefined) return go
    // content after the document's root that starts no document: go-yaml's yaml.Unmarshal reads the first document
    // and stops, so kubectl sends what precedes the content; read that part
    const first = (e as { reason?: string }).reason === CONTENT_AFTER_ROOT ? firstDocument(chunk) : undefined
    if (first !== undefined) return { ...readYAMLChunk(first, index, utf8), text: chunk.text }
    const r = refused((e as { mark?: { position: number } }).mark?.position)
    if (r !== undefined) return r
    if (e instanceof RangeError) return fail(depthMessage(chunk.text))
    const err = e as { reason?: string; message: string; mark?: { line: number; column: number; position: number } }
    const line = chunk.line + (err.mark?.line ?? 0)
    // (a position of the text read, where it differs: the original's)
    const position = quotes && err.mark ? originalOffset(quotes.at, err.mark.position) : err.mark?.position
    const column =
      quotes && position !== undefined
        ? position - chunk.text.lastIndexOf('\n', position - 1)
        : (err.mark?.column ?? 0) + 1
    if (err.reason === 'duplicated mapping key' && position !== undefined)
      return fail(`key ${goKey(chunk.text, position)} already set in map`, line, column)
    return fail(err.reason ?? err.message.split('\n')[0] ?? 'invalid YAML', line, column)
  }
  // go-yaml refuses what js-yaml read (a quoted scalar's content after it on its line, `:` by a flow indicator, …):
  // its scanner and parser run on every text js-yaml reads (about one reading more; the fast reader's texts, most
  // manifests, never come here)
  const go = goRefusal()
  if (go !== undefined) return go
  const r = refused()
  if (r !== undefined) return r
  // a mapping or sequence as a key (an unrendered template's `{{ … }}`, an explicit `? ` key, `[a]: b`), which go-yaml
  // refuses; js-yaml makes it a text (`a`, `a,b`, `[object Object]`)
  if (
    chunk.text.includes('{{') ||
    (chunk.text.includes('?') && EXPLICIT_KEY.test(chunk.text)) ||
    FLOW_KEY.test(chunk.text)
  ) {
    const k = collectionKey(chunk.text)
    if (k !== undefined) {
      const lineStart = chunk.text.lastIndexOf('\n', k.at - 1) + 1
      return fail(k.message, chunk.line + countLines(chunk.text, 0, k.at), k.at - lineStart + 1)
    }
  }
  try {
    const aliased = typeof value === 'object' && value !== null && chunk.text.includes('*') && checkAliasing(value)
    if (aliased || GoScalar.created !== boxes) value = toJSONTree(value, aliased)
  } catch (e) {
    if (e instanceof GoYAMLError) return fail(e.message)
    if (e instanceof RangeError) return fail(depthMessage(chunk.text))
    throw e
  }
  // a literal, not `{ ...base, value }`: on Node 20's V8 a spread followed by a new key costs ~1 µs
  return { index, line: chunk.line, text: chunk.text, json: false, value }
}

// kelp's refusal of a duplicate key, in go-yaml's strict words (go-yaml's yaml.Unmarshal keeps the last value)
const DUPLICATE_KEY = /^key .* already set in map$/

// js-yaml's error for content after the document's root (` a: 1` then `b: 2`, `{a: 1}` then `}`)
const CONTENT_AFTER_ROOT = 'end of the stream or a document separator is expected'

/**
 * The chunk cut where go-yaml's first document ends, when go-yaml reads the text and content follows its document;
 * undefined otherwise, or for a text whose offsets go-yaml counts otherwise than JavaScript (a CR alone, NEL, LS,
 * PS, a character past U+FFFF, a byte order mark), which keeps kelp's refusal.
 */
function firstDocument(chunk: Chunk): Chunk | undefined {
  const text = chunk.whole ?? chunk.text
  if (/\r(?!\n)|[\u0085\u2028\u2029\ufeff\ud800-\udfff]/.test(text)) return undefined
  const read = goYAMLFirstDocumentEnd(yamlReaderText(text))?.index
  if (read === undefined) return undefined
  // the offset in the text: each CR LF before it was read as a LF (yamlReaderText)
  let end = read
  for (let i = text.indexOf('\r\n'); i >= 0 && i < end; i = text.indexOf('\r\n', i + 2)) end++
  if (end >= chunk.text.length || /^\s*$/.test(chunk.text.slice(end))) return undefined
  return { start: chunk.start, text: chunk.text.slice(0, end), line: chunk.line, endLine: chunk.endLine }
}

/**
 * A document's text as apimachinery's YAMLReader hands it to sigs.k8s.io/yaml: each line read by bufio's ReadLine
 * (a CR before the LF dropped) and ended with a LF (decoder.go LineReader).
 */
function yamlReaderText(text: string): string {
  const lf = text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text
  return lf.endsWith('\n') ? lf : `${lf}\n`
}

/** A key as go-yaml's `%#v` prints it in "key %#v already set in map": strings quoted, numbers and bools bare. */
function goKey(text: string, at: number): string {
  const c = text[at]
  if (c === '"' || c === "'") {
    let i = at + 1
    while (i < text.length && text[i] !== c) i += text[i] === '\\' && c === '"' ? 2 : 1
    const raw = text.slice(at + 1, i)
    return JSON.stringify(c === '"' ? raw.replace(/\\(.)/g, '$1') : raw.replaceAll("''", "'"))
  }
  const m = /^(.*?)\s*(:(\s|$)|[,}\]]|$)/m.exec(text.slice(at, at + 1000))
  const plain = m?.[1] ?? ''
  try {
    const r = resolve('', plain)
    if (typeof r.value === 'number' || typeof r.value === 'boolean' || typeof r.value === 'bigint')
      return String(r.value)
    if (r.value === null) return '<nil>'
  } catch {
    // an unresolvable key prints as its text
  }
  return JSON.stringify(plain)
}
