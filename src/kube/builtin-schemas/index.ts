// The OpenAPI v3 schemas of the built-in kinds of every supported release (1.30 … 1.37), as
// Kubernetes publishes them (api/openapi-spec/v3 of k8s.io/kubernetes at each release; the sources,
// module versions and sums, are named in generated.ts and data/builtin-schemas/index.json), shipped
// as compact data in data/builtin-schemas/ (scripts/generate-builtin-schemas.js, docs/builtin-schemas.md)
// and read lazily: a run that meets one kind reads that group-version's manifest and the definition
// files (one per Go package) its schema reaches, nothing else.
//
// API
//
//   BUILTIN_SCHEMA_RELEASES                       '1.30' … '1.37'
//   hasBuiltinSchemas(release)                    whether the release has shipped schemas
//   builtinDocumentPaths(release)                 the documents of a release: 'api/v1', 'apis/apps/v1', … ('api', 'apis/apps', … too)
//   builtinDefinitions(release, group, version)   GroupVersionDefinitions of the group-version's document, or undefined
//     .names()                                    component schema names in document order ('io.k8s.api.apps.v1.Deployment', …)
//     .schema(name)                               the component schema as published but without descriptions (`$ref: '#/components/schemas/<name>'`), undefined when absent
//     .describedSchema(name)                      the same with its descriptions (reads the descriptions file too)
//     .schemaOf(ref)                              the same for a `$ref` ('#/components/schemas/…' or a bare name): populateRefs' resolver
//     .kinds()                                    the kinds of the document's own group-version: 'Deployment', 'DeploymentList', …
//     .kindSchemaName(kind)                       the component declaring it (x-kubernetes-group-version-kind), or undefined
//   schemaFor(release, gvk)                       BuiltinKindSchema: { name, goType, schema, resolve(ref), definitions }, or undefined
//   resolvedSchemaFor(release, gvk)               the kind's schema with refs populated, as JSONSchemaProps (what type checking uses)
//   goTypeName(name)                              'io.k8s.api.apps.v1.DeploymentSpec' → 'DeploymentSpec'
//   builtinDocument(release, path)                the whole document rebuilt (paths included): equal to the published one
//   builtinDocumentText(release, path)            its text, byte for byte the published file
//   builtinSchemaFilesRead()                      the data files read so far (relative to data/builtin-schemas), for tests
//   provideBuiltinSchemaFile(file, bytes)         a data file given (gzip or inflated JSON): how a page without Node's fs holds them
//   missingBuiltinSchemaFiles()                   the files a read needed and nobody provided (a page fetches them, then runs again)
//   prefetchBuiltinSchemas(release, gvks, load)   a page's asynchronous fetch of what the kinds' schemas reach (async: the reads are not)
//
// Schemas are the published JSON: formats (int32, int64, byte, date-time, int-or-string, double), `x-kubernetes-*`
// extensions (group-version-kind, list-type, list-map-keys, map-type, patch-strategy, int-or-string
// as format, unions, validations), `required`, `default`; descriptions (string `description` values)
// are kept apart and read only by describedSchema / builtinDocument. A `$ref` is wrapped in `allOf`
// when the referring property carries its own description or default (kube-openapi). Objects are
// shared between releases and documents (and cached): never mutate them.

import type { GroupVersionKind } from '../gvk.js'
import { nodeModule, requireNodeModule } from '../node-host.js'
import {
  type OpenAPISchema,
  type OpenAPIV3Document,
  openAPIPath,
  populateRefs,
  RefPrefix,
  SchemaNotFoundError,
  toJSONSchemaProps,
} from '../openapi.js'
import type { JSONSchemaProps } from '../schema/structural.js'
import { DOCUMENTS } from './generated.js'

export const BUILTIN_SCHEMA_RELEASES: readonly string[] = Object.keys(DOCUMENTS)

/** The schemas of one document (one group-version) of one release. */
export interface GroupVersionDefinitions {
  readonly release: string
  /** The document's path: `apis/apps/v1`, `api/v1`. */
  readonly path: string
  /** Component schema names, in document order. */
  names(): readonly string[]
  /** The component schema `name`, as published without its descriptions; undefined when the document has none. */
  schema(name: string): OpenAPISchema | undefined
  /** The component schema `name` exactly as published (descriptions included). */
  describedSchema(name: string): OpenAPISchema | undefined
  /** The schema a `$ref` names (`#/components/schemas/<name>` or the bare name). */
  schemaOf(ref: string): OpenAPISchema | undefined
  /** The kinds the document's own group-version declares (x-kubernetes-group-version-kind). */
  kinds(): readonly string[]
  /** The component schema declaring the kind in this group-version. */
  kindSchemaName(kind: string): string | undefined
}

/** A kind's schema: its component, with the document's definitions to resolve refs. */
export interface BuiltinKindSchema {
  readonly release: string
  readonly gvk: GroupVersionKind
  /** The component name: `io.k8s.api.apps.v1.Deployment`. */
  readonly name: string
  /** The Go type name: `Deployment`. */
  readonly goType: string
  /** The component schema as published, without descriptions ($refs unresolved). */
  readonly schema: OpenAPISchema
  /** Resolves a `$ref` of this schema or of any schema it reaches. */
  resolve(ref: string): OpenAPISchema | undefined
  readonly definitions: GroupVersionDefinitions
}

/** The Go type name of a component name: its last dotted segment. */
export function goTypeName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1)
}

export function hasBuiltinSchemas(release: string): boolean {
  return Object.hasOwn(DOCUMENTS, release)
}

/** The published documents of a release (their /openapi/v3/ paths); empty for a release without data. */
export function builtinDocumentPaths(release: string): readonly string[] {
  return hasBuiltinSchemas(release) ? (DOCUMENTS[release] as readonly string[]) : []
}

// ── data files ──────────────────────────────────────────────────────────────────────────────────

let dataDir: string | undefined
/** data/builtin-schemas of the package: found upwards from this module (src/, dist/, or a bundle chunk). */
function dir(): string {
  if (dataDir !== undefined) return dataDir
  const { existsSync } = requireNodeModule('node:fs', 'reading data/builtin-schemas')
  const { dirname, join } = requireNodeModule('node:path', 'reading data/builtin-schemas')
  const { fileURLToPath } = requireNodeModule('node:url', 'reading data/builtin-schemas')
  let d = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++) {
    const candidate = join(d, 'data', 'builtin-schemas')
    if (existsSync(join(candidate, 'index.json'))) return (dataDir = candidate)
    const up = dirname(d)
    if (up === d) break
    d = up
  }
  throw new Error('kelp: data/builtin-schemas not found next to the package')
}

const filesRead: string[] = []
/** The data files read so far, relative to data/builtin-schemas, in order. */
export function builtinSchemaFilesRead(): readonly string[] {
  return filesRead
}

/** Why a read found no data: a page that has not fetched the file (missingBuiltinSchemaFiles lists it). */
export class BuiltinSchemaFileMissing extends Error {
  constructor(readonly file: string) {
    super(`kelp: data/builtin-schemas/${file} was not provided`)
  }
}

// the files given rather than read (a page: fetched by prefetchBuiltinSchemas or its caller), parsed
const provided = new Map<string, unknown>()
const missing = new Set<string>()

/** Gives a data file (relative to data/builtin-schemas): its gzip bytes as shipped, or the inflated JSON's bytes. */
export function provideBuiltinSchemaFile(file: string, bytes: Uint8Array): void {
  provided.set(file, bytes)
  missing.delete(file)
}

/** Whether a data file is there to read without waiting: provided, or on Node's file system. */
export function hasBuiltinSchemaFile(file: string): boolean {
  return provided.has(file) || nodeModule('node:fs') !== undefined
}

/** The files reads asked for that nobody provided since the last call (a page fetches them and evaluates again). */
export function missingBuiltinSchemaFiles(): string[] {
  const out = [...missing]
  missing.clear()
  return out
}

const GZIP = (b: Uint8Array): boolean => b[0] === 0x1f && b[1] === 0x8b

function readGz<T>(rel: string): T {
  filesRead.push(rel)
  const given = provided.get(rel)
  if (given !== undefined) {
    if (!(given instanceof Uint8Array)) return given as T
    // parsed once, then kept as parsed; a gzip file needs Node's zlib (a page inflates before providing it)
    const bytes = GZIP(given) ? requireNodeModule('node:zlib', 'inflating a schema file').gunzipSync(given) : given
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as T
    provided.set(rel, parsed)
    return parsed
  }
  const fs = nodeModule('node:fs')
  if (fs === undefined) {
    missing.add(rel)
    throw new BuiltinSchemaFileMissing(rel)
  }
  const { gunzipSync } = requireNodeModule('node:zlib', 'reading data/builtin-schemas')
  const { join } = requireNodeModule('node:path', 'reading data/builtin-schemas')
  return JSON.parse(gunzipSync(fs.readFileSync(join(dir(), rel))).toString('utf8')) as T
}

/** The file name of a document path (scripts/generate-builtin-schemas.js docFile). */
function docFile(path: string): string {
  return path.split('/').join('__').replace(/^\./, '_.')
}

/** The defs/ file of a component name (scripts/generate-builtin-schemas.js shardOf). */
function shardOf(name: string): string {
  if (name.startsWith('io.k8s.apimachinery.')) return 'io.k8s.apimachinery'
  const i = name.lastIndexOf('.')
  return i < 0 ? '_' : name.slice(0, i)
}

interface ReleaseManifest {
  readonly skeleton: Record<string, unknown>
  readonly trailing: boolean
  readonly schemas: readonly (readonly [string, string])[]
  readonly kinds: Readonly<Record<string, string>>
}
interface DocumentManifest {
  readonly path: string
  readonly releases: Readonly<Record<string, ReleaseManifest>>
}

const manifests = new Map<string, DocumentManifest>()
function manifest(path: string): DocumentManifest {
  let m = manifests.get(path)
  if (m === undefined) manifests.set(path, (m = readGz<DocumentManifest>(`gv/${docFile(path)}.json.gz`)))
  return m
}

const shards = new Map<string, Readonly<Record<string, OpenAPISchema>>>()
function definition(name: string, hash: string): OpenAPISchema | undefined {
  const s = shardOf(name)
  let table = shards.get(s)
  if (table === undefined) shards.set(s, (table = readGz<Record<string, OpenAPISchema>>(`defs/${s}.json.gz`)))
  return Object.hasOwn(table, hash) ? table[hash] : undefined
}

type Descriptions = readonly (readonly [number, number, string])[]
const descriptionShards = new Map<string, Readonly<Record<string, Descriptions>>>()
const described = new Map<string, OpenAPISchema>()
/** The definition with its descriptions put back where they were (scripts/generate-builtin-schemas.js stripDescriptions). */
function describedDefinition(name: string, hash: string): OpenAPISchema | undefined {
  const plain = definition(name, hash)
  if (plain === undefined) return undefined
  const s = shardOf(name)
  const key = `${s} ${hash}`
  const hit = described.get(key)
  if (hit !== undefined) return hit
  let table = descriptionShards.get(s)
  if (table === undefined)
    descriptionShards.set(s, (table = readGz<Record<string, Descriptions>>(`descriptions/${s}.json.gz`)))
  const at = new Map<number, readonly [number, string]>()
  for (const [ordinal, pos, text] of Object.hasOwn(table, hash) ? (table[hash] as Descriptions) : [])
    at.set(ordinal, [pos, text])
  let ordinal = 0
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk)
    if (v === null || typeof v !== 'object') return v
    const d = at.get(ordinal++)
    const entries = Object.entries(v).map(([k, x]): [string, unknown] => [k, walk(x)])
    if (d !== undefined) entries.splice(d[0], 0, ['description', d[1]])
    return Object.fromEntries(entries)
  }
  const out = walk(plain) as OpenAPISchema
  described.set(key, out)
  return out
}

// ── definitions ─────────────────────────────────────────────────────────────────────────────────

class Definitions implements GroupVersionDefinitions {
  private readonly hashes: Map<string, string>
  private readonly byKind = new Map<string, string>()
  constructor(
    readonly release: string,
    readonly path: string,
    private readonly m: ReleaseManifest,
  ) {
    this.hashes = new Map(m.schemas.map(([n, h]) => [n, h]))
    for (const [gvk, name] of Object.entries(m.kinds)) this.byKind.set(gvk.slice(gvk.lastIndexOf('/') + 1), name)
  }
  names(): readonly string[] {
    return this.m.schemas.map(([n]) => n)
  }
  schema(name: string): OpenAPISchema | undefined {
    const h = this.hashes.get(name)
    return h === undefined ? undefined : definition(name, h)
  }
  describedSchema(name: string): OpenAPISchema | undefined {
    const h = this.hashes.get(name)
    return h === undefined ? undefined : describedDefinition(name, h)
  }
  schemaOf = (ref: string): OpenAPISchema | undefined =>
    this.schema(ref.startsWith(RefPrefix) ? ref.slice(RefPrefix.length) : ref)
  kinds(): readonly string[] {
    return [...this.byKind.keys()]
  }
  kindSchemaName(kind: string): string | undefined {
    return this.byKind.get(kind)
  }
}

const definitionsCache = new Map<string, Definitions | null>()

/** The definitions of the document of `path` (`apis/apps/v1`, `api/v1`, `apis/apps`, `api`, …) in `release`. */
export function builtinDocumentDefinitions(release: string, path: string): GroupVersionDefinitions | undefined {
  const key = `${release} ${path}`
  const hit = definitionsCache.get(key)
  if (hit !== undefined) return hit ?? undefined
  let d: Definitions | null = null
  if (builtinDocumentPaths(release).includes(path)) {
    const m = manifest(path).releases[release]
    if (m !== undefined) d = new Definitions(release, path, m)
  }
  definitionsCache.set(key, d)
  return d ?? undefined
}

/** The definitions of the group-version's document in `release`; undefined when the release does not publish it. */
export function builtinDefinitions(
  release: string,
  group: string,
  version: string,
): GroupVersionDefinitions | undefined {
  return builtinDocumentDefinitions(release, openAPIPath(group, version))
}

/** The kind's schema in `release`: undefined when the release's documents do not declare it. */
export function schemaFor(release: string, gvk: GroupVersionKind): BuiltinKindSchema | undefined {
  const defs = builtinDefinitions(release, gvk.group, gvk.version)
  const name = defs?.kindSchemaName(gvk.kind)
  if (defs === undefined || name === undefined) return undefined
  const schema = defs.schema(name)
  if (schema === undefined) return undefined
  return { release, gvk, name, goType: goTypeName(name), schema, resolve: defs.schemaOf, definitions: defs }
}

const resolvedCache = new Map<string, JSONSchemaProps | null>()

/**
 * The kind's schema with every ref populated (openapi.ts populateRefs, as the apiserver's
 * DefinitionsSchemaResolver) as JSONSchemaProps: what type checking declares `object` with.
 */
export function resolvedSchemaFor(release: string, gvk: GroupVersionKind): JSONSchemaProps | undefined {
  const key = `${release} ${gvk.group}/${gvk.version}/${gvk.kind}`
  const hit = resolvedCache.get(key)
  if (hit !== undefined) return hit ?? undefined
  const k = schemaFor(release, gvk)
  let out: JSONSchemaProps | null = null
  if (k !== undefined) {
    try {
      out = toJSONSchemaProps(populateRefs(k.resolve, RefPrefix + k.name))
    } catch (e) {
      if (!(e instanceof SchemaNotFoundError)) throw e
    }
  }
  resolvedCache.set(key, out)
  return out ?? undefined
}

// ── whole documents (round trip) ────────────────────────────────────────────────────────────────

interface PathsFile {
  readonly items: Readonly<Record<string, unknown>>
  readonly releases: Readonly<Record<string, readonly (readonly [string, string])[]>>
}

/** The document as published (components and paths), rebuilt from the data; undefined when not published. */
export function builtinDocument(release: string, path: string): OpenAPIV3Document | undefined {
  const defs = builtinDocumentDefinitions(release, path)
  if (defs === undefined) return undefined
  const m = manifest(path).releases[release] as ReleaseManifest
  const pf = readGz<PathsFile>(`paths/${docFile(path)}.json.gz`)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(m.skeleton)) {
    if (k === 'components' && v !== null && typeof v === 'object') {
      const c: Record<string, unknown> = {}
      for (const [ck, cv] of Object.entries(v)) {
        if (ck !== 'schemas') c[ck] = cv
        else c[ck] = Object.fromEntries(defs.names().map((n) => [n, defs.describedSchema(n)]))
      }
      out[k] = c
    } else if (k === 'paths') {
      out[k] = Object.fromEntries((pf.releases[release] ?? []).map(([p, h]) => [p, pf.items[h]]))
    } else out[k] = v
  }
  return out as OpenAPIV3Document
}

/** The published file's text. */
export function builtinDocumentText(release: string, path: string): string | undefined {
  const doc = builtinDocument(release, path)
  if (doc === undefined) return undefined
  const m = manifest(path).releases[release] as ReleaseManifest
  return JSON.stringify(doc, null, 2) + (m.trailing ? '\n' : '')
}
