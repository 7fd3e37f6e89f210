import { nodeModule } from '../kube/node-host.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import { type DocumentShare, decodeStream } from '../kube/yaml/decode.js'
import { yamlPackage } from '../kube/yaml/yaml-package.js'
import type { Finding, SourceRef } from '../report/model.js'

// Manifests from text (no file read here: the page runs it too, src/playground): every YAML document, `kind:
// List` and `*List` objects expanded into their items, each object with the file, line and column it starts at.
// A document that does not parse is a finding with its position; the other documents of the file are still
// read. load.ts reads the files.

/** A JSON object as read (kube/values/json.ts's, the unstructured model's). */
export type { JSONObject }

export interface LoadedObject {
  readonly object: JSONObject
  readonly source: SourceRef
}

export interface Loaded {
  readonly objects: LoadedObject[]
  /** Parse errors and unreadable inputs (level error). */
  readonly errors: Finding[]
}

/** An input that cannot be read or parsed, at its position. */
export function inputError(file: string, message: string, line?: number, column?: number, document?: number): Finding {
  const source: SourceRef = {
    file,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(document !== undefined ? { document } : {}),
  }
  return { level: 'error', type: 'parse', message, source, rule: 'input/parse' }
}

// Node's path functions where there is Node (the file names are the host's); in a page, POSIX's
const hostPath = nodeModule('node:path')
const basename = (p: string): string => {
  if (hostPath !== undefined) return hostPath.basename(p)
  const t = p.replace(/\/+$/, '')
  return t.slice(t.lastIndexOf('/') + 1)
}
const dirname = (p: string): string => {
  if (hostPath !== undefined) return hostPath.dirname(p)
  const t = p.replace(/\/+$/, '')
  const i = t.lastIndexOf('/')
  return i < 0 ? '.' : i === 0 ? '/' : t.slice(0, i)
}

interface Chunk {
  readonly text: string
  /** 1-based line of the chunk's first line in the file. */
  readonly line: number
}

/** The first line that holds content (not blank, not a comment, not a directive): where the object starts. */
function contentStart(chunk: Chunk): { line: number; column: number } {
  let line = chunk.line
  let pos = 0
  const t = chunk.text
  while (pos <= t.length) {
    let nl = t.indexOf('\n', pos)
    if (nl < 0) nl = t.length
    let i = pos
    while (i < nl && (t[i] === ' ' || t[i] === '\t' || t[i] === '\r')) i++
    const c = t[i]
    if (i < nl && c !== '#' && c !== '%' && !(i === pos && t.startsWith('---', pos)))
      return { line, column: i - pos + 1 }
    pos = nl + 1
    line++
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

/** The same positions from a full YAML parse (slow; for Lists written unusually, e.g. in flow style or JSON). */
function itemPositionsByParse(chunk: Chunk): { line: number; column: number }[] {
  // the position-keeping parser is loaded only for such Lists: it costs ~25 ms to load at every start
  const { isMap, isSeq, LineCounter, parseDocument } = yamlPackage()
  const lines = new LineCounter()
  const doc = parseDocument(chunk.text, { lineCounter: lines, uniqueKeys: false })
  const items = isMap(doc.contents) ? doc.contents.get('items', true) : undefined
  if (!isSeq(items)) return []
  return items.items.map((n) => {
    const p = lines.linePos((n as { range?: [number] }).range?.[0] ?? 0)
    return { line: chunk.line + p.line - 1, column: p.col }
  })
}

/**
 * Why a document is no manifest: a kustomize configuration (`kustomize.config.k8s.io`), a Helm chart's
 * Chart.yaml, or a mapping with neither apiVersion nor kind (values.yaml, a dashboard, any other data).
 */
export type NotManifest = 'kustomize' | 'chart' | 'data'

/**
 * One step of {@link iterateManifests}: an object with its position, or an error finding (with `notManifest`
 * when the document is no Kubernetes object at all: {@link manifestFile} decides what the file is).
 */
export type ManifestItem = LoadedObject | { readonly error: Finding; readonly notManifest?: NotManifest }

/** The first document of a file, as a value (any YAML), or the parse error with its position. */
export function parseFirstDocument(text: string | Buffer, file: string): { value: unknown } | { error: Finding } {
  for (const d of decodeStream(text)) {
    if (d.error !== undefined)
      return { error: inputError(file, d.error.message, d.error.line, d.error.column, d.index) }
    if (d.value !== null && d.value !== undefined) return { value: d.value }
  }
  return { error: inputError(file, 'no YAML document') }
}

// kubectl's client-side validation (kubectl/pkg/validation schema.go ValidateBytes) on a document
// without them: "error validating data: [apiVersion not set, kind not set]"
function notAnObject(o: JSONObject): string | undefined {
  const missing: string[] = []
  if (o.apiVersion === undefined || o.apiVersion === null) missing.push('apiVersion not set')
  else if (typeof o.apiVersion !== 'string') missing.push("apiVersion isn't string type")
  if (o.kind === undefined || o.kind === null) missing.push('kind not set')
  else if (typeof o.kind !== 'string') missing.push("kind isn't string type")
  return missing.length === 0 ? undefined : `not a Kubernetes object: error validating data: [${missing.join(', ')}]`
}

/**
 * The objects and errors of one file, one document at a time (Lists expanded into their items),
 * without holding the file's documents or lines: what `kelp check` streams through. A document that
 * does not parse, is not an object, or has no apiVersion / kind is an error with its position; the
 * other documents are still read. A file with `{{` that does not read as manifests is a Helm
 * template: one error for the whole file.
 */
export function* iterateManifests(
  input: string | Buffer,
  file: string,
  share?: DocumentShare,
): Generator<ManifestItem> {
  const text = typeof input === 'string' ? input : undefined
  const braces = text !== undefined ? text.indexOf('{{') : input.indexOf('{{')
  if (braces >= 0) {
    // a possible template is one share: the first document's (its error is the whole file's)
    if (share !== undefined && !share(0)) return
    // a template is told only when it fails to read as YAML or JSON (a dashboard's `{{pod}}` in a JSON
    // string reads); hold this (rare) file's items to decide
    const decoding = { failed: false }
    const items = [...documents(input, file, undefined, decoding)]
    if (decoding.failed) {
      const before = text !== undefined ? text.slice(0, braces) : (input as Buffer).subarray(0, braces).toString('utf8')
      const line = before.split('\n').length
      yield {
        error: inputError(
          file,
          `looks like a Helm template ({{ at line ${line}): render it first (helm template)`,
          line,
          undefined,
        ),
      }
      return
    }
    yield* items
    return
  }
  yield* documents(input, file, share)
}

function* documents(
  input: string | Buffer,
  file: string,
  share?: DocumentShare,
  decoding?: { failed: boolean },
): Generator<ManifestItem> {
  // the names helm and kustomize read these files by (a kustomization may omit apiVersion and kind)
  const chart = basename(file) === 'Chart.yaml'
  const kustomization = KUSTOMIZATION_NAMES.has(basename(file))
  for (const d of decodeStream(input, share)) {
    const index = d.index
    if (d.error !== undefined) {
      if (decoding !== undefined) decoding.failed = true
      yield { error: inputError(file, d.error.message, d.error.line, d.error.column, index) }
      continue
    }
    const value = d.value
    if (value === null || value === undefined) continue // an empty document
    const chunk: Chunk = { text: d.text, line: d.line }
    const at = d.json ? { line: d.line, column: 1 } : contentStart(chunk)
    if (!isObject(value)) {
      const what = Array.isArray(value) ? 'a list' : typeof value
      yield { error: inputError(file, `document is not an object (${what})`, at.line, at.column, index) }
      continue
    }
    const kind = typeof value.kind === 'string' ? value.kind : ''
    if ((kind === 'List' || kind.endsWith('List')) && Array.isArray(value.items)) {
      const items = value.items
      const positions = (d.json ? undefined : itemPositions(chunk, items.length)) ?? itemPositionsByParse(chunk)
      for (let i = 0; i < items.length; i++) {
        const item = items[i]
        const ip = positions[i] ?? at
        const bad = !isObject(item) ? `items[${i}] is not an object` : notAnObject(item)
        if (bad !== undefined) yield { error: inputError(file, bad, ip.line, ip.column, index) }
        else yield { object: item as JSONObject, source: { file, line: ip.line, column: ip.column, document: index } }
      }
      continue
    }
    if (isKustomize(value)) {
      // kustomize's own configuration, never sent to a cluster (kubectl apply -f: `no matches for kind`)
      const what = `a kustomize ${String(value.kind)} (${String(value.apiVersion)}), not a Kubernetes object: not checked`
      yield { error: inputNote(file, what, at.line, at.column, index), notManifest: 'kustomize' }
      continue
    }
    const bad = notAnObject(value)
    if (bad !== undefined) {
      const none = value.apiVersion === undefined && value.kind === undefined
      const notManifest =
        chart && value.kind === undefined ? 'chart' : none ? (kustomization ? 'kustomize' : 'data') : undefined
      const error = inputError(file, bad, at.line, at.column, index)
      yield notManifest !== undefined ? { error, notManifest } : { error }
      continue
    }
    yield { object: value, source: { file, line: at.line, column: at.column, document: index } }
  }
}

// kustomize's file names (konfig.RecognizedKustomizationFileNames)
const KUSTOMIZATION_NAMES: ReadonlySet<string> = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization'])

const isKustomize = (o: JSONObject): boolean =>
  typeof o.apiVersion === 'string' && o.apiVersion.startsWith('kustomize.config.k8s.io/')

/** A note about an input (level info: no error, the run goes on). */
function inputNote(file: string, message: string, line?: number, column?: number, document?: number): Finding {
  return { ...inputError(file, message, line, column, document), level: 'info', rule: 'input/not-a-manifest' }
}

/**
 * A file's items with its non-manifest documents judged on the whole file: a file none of whose documents is a
 * Kubernetes object, every one of them kustomize's configuration, a Helm Chart.yaml or data with neither
 * apiVersion nor kind (values.yaml, a Grafana dashboard), is one note and no object: it is no manifest
 * (kubectl apply -f refuses it; a CI job checking a directory expects it passed over, not failed). In a file
 * that holds objects or other errors too, such documents stay errors as kubectl's validation words them
 * (likely a broken manifest), kustomize's a note each.
 */
export function* manifestFile(items: Iterable<ManifestItem>, file: string): Generator<ManifestItem> {
  let pending: { readonly error: Finding; readonly notManifest?: NotManifest }[] | undefined = []
  for (const item of items) {
    if (pending !== undefined) {
      if ('error' in item && item.notManifest !== undefined) {
        pending.push(item)
        continue
      }
      for (const p of pending) yield p
      pending = undefined
    }
    yield item
  }
  if (pending === undefined || pending.length === 0) return
  const kinds = new Set(pending.map((p) => p.notManifest))
  const dir = dirname(file)
  const what =
    kinds.size === 1 && kinds.has('kustomize')
      ? `kustomize's configuration, not a manifest: not checked (render it: kubectl kustomize ${dir} | kelp check -)`
      : kinds.size === 1 && kinds.has('chart')
        ? `a Helm chart's Chart.yaml, not a manifest: not checked (render the chart: helm template ${dir} | kelp check -)`
        : 'no document has apiVersion and kind: not a Kubernetes manifest, not checked (kubectl apply -f refuses it: error validating data: [apiVersion not set, kind not set])'
  yield { error: inputNote(file, what) }
}

/**
 * Parses one file's text into objects (Lists expanded) and parse errors: {@link iterateManifests},
 * collected. Values are read as kubectl reads them (src/kube/yaml: go-yaml v2 resolution, JSON
 * streams, go-yaml's limits); positions come from the document markers and List items' `- ` lines.
 */
export function parseManifests(text: string | Buffer, file: string): Loaded {
  const objects: LoadedObject[] = []
  const errors: Finding[] = []
  for (const item of iterateManifests(text, file)) {
    if ('error' in item) errors.push(item.error)
    else objects.push(item)
  }
  return { objects, errors }
}
