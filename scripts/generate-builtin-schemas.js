// Generates data/builtin-schemas/ and src/kube/builtin-schemas/generated.ts from the
// OpenAPI v3 documents Kubernetes publishes (api/openapi-spec/v3/*.json of k8s.io/kubernetes at each
// release, fetched from the Go module proxy with `go mod download -json`).
//
//   node scripts/generate-builtin-schemas.js            # the module versions of SOURCES below
//   KELP_K8S_DIRS=1.37=/path/to/kubernetes ... node …    # (or module directories already extracted)
//
// Layout (docs/builtin-schemas.md):
//   index.json                  sources (module, version, go.sum hash), sha256 of each published file
//   defs/<package>.json.gz      content-addressed component schemas of one Go package (hash of the
//                               published schema → the schema without its descriptions), every
//                               release's versions of them stored once
//   descriptions/<package>.json.gz  hash → the descriptions taken out: [object ordinal (pre-order),
//                               key position, text] (read only to rebuild documents)
//   gv/<document>.json.gz       per document (`apis__apps__v1`), per release: the skeleton (info, openapi,
//                               securitySchemes), [component name, hash] in document order, and the kinds
//                               (`group/version/Kind` → component name) of the document's own group-version
//   paths/<document>.json.gz    per document: path items (hash → item) and per release [path, hash] in order
// The runtime reads index.json, one gv/ file and the defs/ files of the packages a schema reaches;
// paths/ is read only to rebuild whole documents (round-trip tests).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'data/builtin-schemas')

/** The newest patch of each supported minor that the Go module proxy has (go list -m -versions k8s.io/kubernetes). */
export const SOURCES = [
  ['1.30', 'v1.30.14'],
  ['1.31', 'v1.31.14'],
  ['1.32', 'v1.32.13'],
  ['1.33', 'v1.33.13'],
  ['1.34', 'v1.34.4'],
  ['1.35', 'v1.35.4'],
  ['1.36', 'v1.36.3'],
  ['1.37', 'v1.37.2'],
]

function download(version) {
  const json = execFileSync('go', ['mod', 'download', '-json', `k8s.io/kubernetes@${version}`], {
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
    maxBuffer: 1 << 24,
  })
  const info = JSON.parse(json)
  if (info.Error) throw new Error(`go mod download k8s.io/kubernetes@${version}: ${info.Error}`)
  return { dir: info.Dir, sum: info.Sum }
}

/**
 * The schema without its `description` strings, and where they were: [ordinal of the object in
 * pre-order, position of the key in it, text]. Only string values named description are taken (a
 * property named description is a schema, an object).
 */
export function stripDescriptions(schema) {
  const descriptions = []
  let ordinal = 0
  const walk = (v) => {
    if (Array.isArray(v)) return v.map(walk)
    if (v === null || typeof v !== 'object') return v
    const mine = ordinal++
    const out = {}
    let pos = 0
    for (const [k, x] of Object.entries(v)) {
      if (k === 'description' && typeof x === 'string') descriptions.push([mine, pos, x])
      else out[k] = walk(x)
      pos++
    }
    return out
  }
  return { stripped: walk(schema), descriptions }
}

const hashOf = (text) => createHash('sha256').update(text).digest('base64url').slice(0, 12)

/** The defs/ file of a component name: its Go package; all of apimachinery in one. */
export function shardOf(name) {
  if (name.startsWith('io.k8s.apimachinery.')) return 'io.k8s.apimachinery'
  const i = name.lastIndexOf('.')
  return i < 0 ? '_' : name.slice(0, i)
}

/** `apis__apps__v1_openapi.json` → `apis/apps/v1`. */
const docPath = (file) =>
  file
    .replace(/_openapi\.json$/, '')
    .split('__')
    .join('/')
/** The data file name of a document path: `apis/apps/v1` → `apis__apps__v1` (a leading dot kept out: `_.well-known__…`). */
export const docFile = (path) => path.split('/').join('__').replace(/^\./, '_.')

function gvOfPath(path) {
  const core = /^api\/([^/]+)$/.exec(path)
  if (core) return { group: '', version: core[1] }
  const m = /^apis\/([^/]+)\/([^/]+)$/.exec(path)
  return m ? { group: m[1], version: m[2] } : undefined
}

const OPS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']

/** The resources of one group-version document, from its paths (see docs/builtin-schemas.md). */
function resourcesOf(path, doc) {
  const gv = gvOfPath(path)
  if (gv === undefined) return []
  const prefix = `/${path}/`
  const byResource = new Map()
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    if (!p.startsWith(prefix)) continue
    let segs = p.slice(prefix.length).split('/').filter(Boolean)
    if (segs.length === 0 || segs[0] === 'watch') continue
    let namespaced = false
    if (segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length > 2) {
      namespaced = true
      segs = segs.slice(2)
    }
    const resource = segs[0]
    if (segs.length > 1 && segs[1] !== '{name}') throw new Error(`${p}: unexpected path shape`)
    const sub = segs[2]
    const gvk = OPS.map((o) => item[o]?.['x-kubernetes-group-version-kind']).find((g) => g !== undefined)
    let r = byResource.get(resource)
    if (r === undefined) byResource.set(resource, (r = { resource, namespaced: false, kind: undefined, subs: {} }))
    if (namespaced) r.namespaced = true
    if (gvk === undefined) continue
    if (sub === undefined) {
      if (r.kind === undefined) r.kind = gvk.kind
      else if (r.kind !== gvk.kind && segs.length === 2) r.kind = gvk.kind
    } else if (segs.length === 3 && r.subs[sub] === undefined) r.subs[sub] = gvk
  }
  const rows = []
  for (const r of [...byResource.values()].sort((a, b) => (a.resource < b.resource ? -1 : 1))) {
    if (r.kind === undefined) throw new Error(`${path} ${r.resource}: no kind`)
    const subs = Object.keys(r.subs)
      .sort()
      .map((s) => {
        const k = r.subs[s]
        if (k.group === gv.group && k.version === gv.version && k.kind === r.kind) return s
        return `${s}=${k.group === '' ? '' : `${k.group}/`}${k.version}/${k.kind}`
      })
    const gvs = gv.group === '' ? gv.version : `${gv.group}/${gv.version}`
    rows.push([gvs, r.kind, r.resource, r.namespaced, subs.join(' ')])
  }
  return rows
}

function main() {
  const dirs = new Map(
    (process.env.KELP_K8S_DIRS ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => kv.split('=')),
  )
  const sources = []
  const defs = new Map() // shard → Map(hash → schema)
  const gvs = new Map() // path → { releases: {} }
  const paths = new Map() // path → { items: Map(hash → item), releases: {} }
  const releases = {}
  const digests = {} // release → path → sha256 of the published file
  const mapping = {} // release → rows
  for (const [release, version] of SOURCES) {
    const src = dirs.has(release) ? { dir: dirs.get(release), sum: 'local' } : download(version)
    sources.push({ release, module: 'k8s.io/kubernetes', version, sum: src.sum })
    const specDir = join(src.dir, 'api/openapi-spec/v3')
    const files = readdirSync(specDir)
      .filter((f) => f.endsWith('_openapi.json'))
      .sort()
    releases[release] = []
    digests[release] = {}
    mapping[release] = []
    for (const f of files) {
      const text = readFileSync(join(specDir, f), 'utf8')
      const doc = JSON.parse(text)
      const trailing = text.endsWith('\n')
      if (JSON.stringify(doc, null, 2) + (trailing ? '\n' : '') !== text)
        throw new Error(`${f}: not JSON.stringify(_, null, 2)`)
      const path = docPath(f)
      releases[release].push(path)
      digests[release][path] = createHash('sha256').update(text).digest('hex')
      const schemas = doc.components?.schemas ?? {}
      const list = []
      const kinds = {}
      const gv = gvOfPath(path)
      for (const [name, s] of Object.entries(schemas)) {
        const t = JSON.stringify(s)
        const h = hashOf(t)
        const shard = shardOf(name)
        let table = defs.get(shard)
        if (table === undefined) defs.set(shard, (table = new Map()))
        if (table.has(h) && JSON.stringify(table.get(h)) !== t) throw new Error(`hash collision ${name} ${h}`)
        table.set(h, s)
        list.push([name, h])
        for (const g of s['x-kubernetes-group-version-kind'] ?? []) {
          if (gv === undefined || g.group !== gv.group || g.version !== gv.version) continue
          const key = `${g.group}/${g.version}/${g.kind}`
          kinds[key] ??= name
        }
      }
      // the skeleton: every key in order, with schemas and paths left for the manifests
      const skeleton = {}
      for (const [k, v] of Object.entries(doc)) {
        if (k === 'components') {
          const c = {}
          for (const [ck, cv] of Object.entries(v)) c[ck] = ck === 'schemas' ? null : cv
          skeleton[k] = c
        } else skeleton[k] = k === 'paths' ? null : v
      }
      let g = gvs.get(path)
      if (g === undefined) gvs.set(path, (g = { path, releases: {} }))
      g.releases[release] = { skeleton, trailing, schemas: list, kinds }
      let pt = paths.get(path)
      if (pt === undefined) paths.set(path, (pt = { items: new Map(), releases: {} }))
      pt.releases[release] = Object.entries(doc.paths ?? {}).map(([p, item]) => {
        const h = hashOf(JSON.stringify(item))
        pt.items.set(h, item)
        return [p, h]
      })
      mapping[release].push(...resourcesOf(path, doc))
    }
  }

  rmSync(out, { recursive: true, force: true })
  mkdirSync(join(out, 'defs'), { recursive: true })
  mkdirSync(join(out, 'gv'), { recursive: true })
  mkdirSync(join(out, 'paths'), { recursive: true })
  const gz = (file, value) => writeFileSync(file, gzipSync(JSON.stringify(value), { level: 9 }))
  mkdirSync(join(out, 'descriptions'), { recursive: true })
  for (const [shard, table] of defs) {
    const stripped = {}
    const described = {}
    for (const [h, schema] of table) {
      const { stripped: st, descriptions } = stripDescriptions(schema)
      stripped[h] = st
      if (descriptions.length > 0) described[h] = descriptions
    }
    gz(join(out, 'defs', `${shard}.json.gz`), stripped)
    gz(join(out, 'descriptions', `${shard}.json.gz`), described)
  }
  for (const [path, g] of gvs) gz(join(out, 'gv', `${docFile(path)}.json.gz`), g)
  for (const [path, pt] of paths)
    gz(join(out, 'paths', `${docFile(path)}.json.gz`), { items: Object.fromEntries(pt.items), releases: pt.releases })
  const index = {
    generator: 'scripts/generate-builtin-schemas.js',
    source: 'api/openapi-spec/v3/*.json of the Go module k8s.io/kubernetes (proxy.golang.org)',
    sources,
    sha256: digests,
  }
  writeFileSync(join(out, 'index.json'), `${JSON.stringify(index, null, 2)}\n`)
  writeMapping(sources, mapping, releases)
  console.log(`${defs.size} definition files, ${gvs.size} documents, ${SOURCES.length} releases`)
}

/** The REST mapping of every release as rows shared between releases. */
function writeMapping(sources, mapping, documents) {
  const rows = []
  const ids = new Map()
  const perRelease = {}
  for (const [release, list] of Object.entries(mapping)) {
    perRelease[release] = list.map((r) => {
      const key = JSON.stringify(r)
      let id = ids.get(key)
      if (id === undefined) {
        id = rows.length
        ids.set(key, id)
        rows.push(r)
      }
      return id
    })
  }
  const lines = [
    '// Generated by scripts/generate-builtin-schemas.js: do not edit.',
    '// The resources each release serves with every API enabled, read from the paths of its OpenAPI v3',
    '// documents (api/openapi-spec/v3) in:',
    ...sources.map((s) => `//   ${s.module}@${s.version} ${s.sum}`),
    '// ROWS: [groupVersion, kind, resource, namespaced, subresources] (a subresource is `name`, of the',
    "// resource's own kind, or `name=group/version/Kind`); RELEASES: the rows of each release, in document",
    '// order (group-versions by file name, resources by name). DOCUMENTS: the documents of each release',
    '// (data/builtin-schemas/gv/<path with / as __>.json.gz).',
    '',
    'export type GeneratedRow = readonly [string, string, string, boolean, string]',
    '',
    '// biome-ignore format: generated data',
    'export const ROWS: readonly GeneratedRow[] = [',
    ...rows.map((r) => `  ${JSON.stringify(r).replace(/'/g, "\\'").replace(/"/g, "'")},`),
    ']',
    '',
    '// biome-ignore format: generated data',
    'export const RELEASES: Readonly<Record<string, readonly number[]>> = {',
    ...Object.entries(perRelease).map(([r, ids]) => `  '${r}': [${ids.join(', ')}],`),
    '}',
    '',
    '// biome-ignore format: generated data',
    'export const DOCUMENTS: Readonly<Record<string, readonly string[]>> = {',
    ...Object.entries(documents).map(([r, ps]) => `  '${r}': [${ps.map((p) => `'${p}'`).join(', ')}],`),
    '}',
    '',
  ]
  writeFileSync(join(root, 'src/kube/builtin-schemas/generated.ts'), lines.join('\n'))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
