import { readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import jsyaml from 'js-yaml'
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml'
import type { Finding, SourceRef } from '../report/model.js'

// Reading manifests: files, directories (recursively: .yaml, .yml, .json), `-` for stdin; every
// YAML document of every file, `kind: List` and `*List` objects expanded into their items, each
// object with the file, line and column it starts at. A document that does not parse is a finding
// with its position; the other documents of the file are still read.

export type JSONObject = Record<string, unknown>

export interface LoadedObject {
  readonly object: JSONObject
  readonly source: SourceRef
}

export interface Loaded {
  readonly objects: LoadedObject[]
  /** Parse errors and unreadable inputs (level error). */
  readonly errors: Finding[]
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json'])

/** The files named by `paths`: files as given, directories walked in name order. */
export function expandPaths(paths: readonly string[]): { files: string[]; errors: Finding[] } {
  const files: string[] = []
  const errors: Finding[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue
      const p = join(dir, name)
      const st = statSync(p)
      if (st.isDirectory()) walk(p)
      else if (MANIFEST_EXTENSIONS.has(extname(name).toLowerCase())) files.push(p)
    }
  }
  for (const p of paths) {
    if (p === '-') {
      files.push('-')
      continue
    }
    try {
      if (statSync(p).isDirectory()) walk(p)
      else files.push(p)
    } catch (e) {
      errors.push(inputError(p, `cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`))
    }
  }
  return { files, errors }
}

function inputError(file: string, message: string, line?: number, column?: number, document?: number): Finding {
  const source: SourceRef = {
    file,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(document !== undefined ? { document } : {}),
  }
  return { level: 'error', type: 'parse', message, source, rule: 'input/parse' }
}

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The YAML schema kubectl's decoding agrees with here: YAML 1.2 core scalars (no timestamps: dates stay
 * strings, as in the JSON the apiserver receives) plus merge keys (`<<: *anchor`), which kubectl honours.
 */
// @types/js-yaml does not declare `types`; js-yaml 4 exports them (types.merge: the `<<` key)
const { merge } = (jsyaml as unknown as { types: { merge: jsyaml.Type } }).types
const SCHEMA = jsyaml.CORE_SCHEMA.extend({ implicit: [merge] })

interface Chunk {
  readonly text: string
  /** 1-based line of the chunk's first line in the file. */
  readonly line: number
}

/**
 * The documents of a stream, split at `---` / `...` marker lines (a marker is at column 0, which a
 * block scalar of an object document cannot be), each with its first line.
 */
function splitDocuments(text: string): Chunk[] {
  const lines = text.split('\n')
  const chunks: Chunk[] = []
  let start = 0
  for (let i = 0; i <= lines.length; i++) {
    const l = i < lines.length ? (lines[i] as string) : undefined
    const marker = l !== undefined && (/^---(\s|$)/.test(l) || /^\.\.\.\s*$/.test(l))
    if (l === undefined || marker) {
      if (i > start || l === undefined) chunks.push({ text: lines.slice(start, i).join('\n'), line: start + 1 })
      start = i + 1
      // content after `--- ` on the marker line belongs to the next document
      if (marker && l !== undefined && /^---\s+\S/.test(l)) {
        lines[i] = l.replace(/^---/, '   ')
        start = i
      }
    }
  }
  return chunks
}

/** The first line that holds content (not blank, not a comment, not a directive): where the object starts. */
function contentStart(chunk: Chunk): { line: number; column: number } {
  const lines = chunk.text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string
    const t = l.trimStart()
    if (t === '' || t.startsWith('#') || t.startsWith('%')) continue
    return { line: chunk.line + i, column: l.length - t.length + 1 }
  }
  return { line: chunk.line, column: 1 }
}

/** Positions of a List's items: the `- ` lines of its top-level `items:` sequence, or undefined. */
function itemPositions(chunk: Chunk, count: number): { line: number; column: number }[] | undefined {
  const lines = chunk.text.split('\n')
  const at = lines.findIndex((l) => /^items:\s*(#.*)?$/.test(l))
  if (at < 0) return undefined
  let indent: string | undefined
  const out: { line: number; column: number }[] = []
  for (let i = at + 1; i < lines.length; i++) {
    const l = lines[i] as string
    if (/^\S/.test(l) && !l.startsWith('-')) break // the next top-level key
    const m = /^(\s*)- /.exec(l) ?? /^(\s*)-$/.exec(l)
    if (m === null) continue
    indent ??= m[1]
    if (m[1] === indent) out.push({ line: chunk.line + i, column: (indent?.length ?? 0) + 3 })
  }
  return out.length === count ? out : undefined
}

/** The same positions from a full YAML parse (slow; for Lists written unusually, e.g. in flow style). */
function itemPositionsByParse(chunk: Chunk): { line: number; column: number }[] {
  const lines = new LineCounter()
  const doc = parseDocument(chunk.text, { lineCounter: lines })
  const items = isMap(doc.contents) ? doc.contents.get('items', true) : undefined
  if (!isSeq(items)) return []
  return items.items.map((n) => {
    const p = lines.linePos((n as { range?: [number] }).range?.[0] ?? 0)
    return { line: chunk.line + p.line - 1, column: p.col }
  })
}

/** The first document of a file, as a value (any YAML), or the parse error with its position. */
export function parseFirstDocument(text: string, file: string): { value: unknown } | { error: Finding } {
  for (const chunk of splitDocuments(text)) {
    const r = loadChunk(chunk, file, 0)
    if ('error' in r) return r
    if (r.value !== null && r.value !== undefined) return r
  }
  return { error: inputError(file, 'no YAML document') }
}

function loadChunk(chunk: Chunk, file: string, index: number): { value: unknown } | { error: Finding } {
  try {
    return { value: jsyaml.load(chunk.text, { schema: SCHEMA, filename: file }) }
  } catch (e) {
    const err = e as { reason?: string; message: string; mark?: { line: number; column: number } }
    const line = chunk.line + (err.mark?.line ?? 0)
    const message = err.reason ?? err.message.split('\n')[0] ?? 'invalid YAML'
    return { error: inputError(file, message, line, (err.mark?.column ?? 0) + 1, index) }
  }
}

/**
 * Parses one file's text into objects (Lists expanded) and parse errors. js-yaml parses (ten times
 * faster than a position-keeping parser on bulk input: docs/benchmarks.md); positions come from the
 * document markers and, for List items, from their `- ` lines.
 */
export function parseManifests(text: string, file: string): Loaded {
  const objects: LoadedObject[] = []
  const errors: Finding[] = []
  splitDocuments(text).forEach((chunk, index) => {
    let value: unknown
    try {
      value = jsyaml.load(chunk.text, { schema: SCHEMA, filename: file })
    } catch (e) {
      const err = e as { reason?: string; message: string; mark?: { line: number; column: number } }
      const line = chunk.line + (err.mark?.line ?? 0)
      errors.push(
        inputError(
          file,
          err.reason ?? err.message.split('\n')[0] ?? 'invalid YAML',
          line,
          (err.mark?.column ?? 0) + 1,
          index,
        ),
      )
      return
    }
    if (value === null || value === undefined) return // an empty document
    const at = contentStart(chunk)
    if (!isObject(value)) {
      errors.push(
        inputError(
          file,
          `document is not an object (${Array.isArray(value) ? 'a list' : typeof value})`,
          at.line,
          at.column,
          index,
        ),
      )
      return
    }
    const kind = typeof value.kind === 'string' ? value.kind : ''
    if ((kind === 'List' || kind.endsWith('List')) && Array.isArray(value.items)) {
      const items = value.items
      const positions = itemPositions(chunk, items.length) ?? itemPositionsByParse(chunk)
      items.forEach((item, i) => {
        const ip = positions[i] ?? at
        if (!isObject(item)) {
          errors.push(inputError(file, `items[${i}] is not an object`, ip.line, ip.column, index))
          return
        }
        objects.push({ object: item, source: { file, line: ip.line, column: ip.column, document: index } })
      })
      return
    }
    objects.push({ object: value, source: { file, line: at.line, column: at.column, document: index } })
  })
  return { objects, errors }
}

/** Reads and parses every input; `stdin` supplies `-`. */
export function loadManifests(paths: readonly string[], stdin: () => string = () => readFileSync(0, 'utf8')): Loaded {
  const { files, errors } = expandPaths(paths)
  const objects: LoadedObject[] = []
  for (const file of files) {
    let text: string
    try {
      text = file === '-' ? stdin() : readFileSync(file, 'utf8')
    } catch (e) {
      errors.push(inputError(file, `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`))
      continue
    }
    const r = parseManifests(text, file)
    objects.push(...r.objects)
    errors.push(...r.errors)
  }
  return { objects, errors }
}
