import { readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import { isMap, isSeq, LineCounter, parseAllDocuments } from 'yaml'
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

/** Parses one file's text into objects (Lists expanded) and parse errors. */
export function parseManifests(text: string, file: string): Loaded {
  const objects: LoadedObject[] = []
  const errors: Finding[] = []
  const lines = new LineCounter()
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false })
  const pos = (offset: number | undefined) => {
    const p = lines.linePos(offset ?? 0)
    return { line: p.line, column: p.col }
  }
  // parseAllDocuments returns an EmptyStream (not an array) for empty input
  const list = Array.isArray(docs) ? docs : []
  list.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      const e = doc.errors[0]
      const at = pos(e?.pos[0])
      errors.push(inputError(file, (e?.message ?? 'invalid YAML').split('\n')[0] as string, at.line, at.column, index))
      return
    }
    let value: unknown
    try {
      value = doc.toJS({ maxAliasCount: 1000 })
    } catch (e) {
      const at = pos(doc.contents?.range?.[0])
      errors.push(inputError(file, (e as Error).message, at.line, at.column, index))
      return
    }
    if (value === null || value === undefined) return // an empty document
    const at = pos(doc.contents?.range?.[0])
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
      // each item at its own position
      const itemsNode = isMap(doc.contents) ? doc.contents.get('items', true) : undefined
      value.items.forEach((item, i) => {
        const node = isSeq(itemsNode) ? itemsNode.items[i] : undefined
        const ip = pos((node as { range?: [number] } | undefined)?.range?.[0] ?? doc.contents?.range?.[0])
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
