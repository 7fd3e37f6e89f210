import { builtinDefinitions, hasBuiltinSchemas, resolvedSchemaFor } from './builtin-schemas/index.js'
import type { GroupVersionKind } from './gvk.js'
import { setOwn } from './own-keys.js'
import type { JSONSchemaProps } from './schema/structural.js'
import { isObject } from './values/json.js'

// The schema of a kind, found as the apiserver finds it for ValidatingAdmissionPolicy type checking
// (apiserver pkg/cel/openapi/resolver): the OpenAPI v3 document of the kind's group-version (as
// `kubectl get --raw /openapi/v3/apis/apps/v1` serves it; ClientDiscoveryResolver), the component
// schema whose `x-kubernetes-group-version-kind` names the kind, every `$ref` (bare or wrapped in
// `allOf: [{$ref}]`) replaced by the schema it names, and a reference back to a schema being
// expanded replaced by `{type: object}` (PopulateRefs). Without a document for the group-version, a
// resolver given a release (1.30 … 1.37) uses that release's published schemas (./builtin-schemas), as
// the apiserver's DefinitionsSchemaResolver uses the definitions compiled into it (before discovery).
// CustomResourceDefinitions are read from their
// manifests: a version's `schema.openAPIV3Schema` with the properties the apiextensions OpenAPI
// builder adds (apiextensions-apiserver pkg/controller/openapi/builder buildKubeNative:
// `apiVersion`, `kind`, `metadata` as ObjectMeta, the same on every `x-kubernetes-embedded-resource`).
//
// The result is a JSONSchemaProps tree (kube/schema/structural.ts) for schemaDeclType, read as the
// apiserver's kube-openapi adaptor (pkg/cel/openapi/adaptor.go, extensions.go) reads spec.Schema:
// `type` is the first of a type list, `format: int-or-string` is x-kubernetes-int-or-string (the
// built-in IntOrString), an `items` array (tuple) is no items, `x-` extension names are lowercased.

/** A kube-openapi spec.Schema as JSON. */
export type OpenAPISchema = Readonly<Record<string, unknown>>

/** An OpenAPI v3 document as /openapi/v3/<path> serves it; only the fields read here are typed. */
export interface OpenAPIV3Document {
  readonly components?: { readonly schemas?: Readonly<Record<string, OpenAPISchema>> }
  readonly paths?: Readonly<Record<string, unknown>>
  readonly [key: string]: unknown
}

/** resolver.ErrSchemaNotFound (wrapped): no schema for the kind; any other Error is internal. */
export class SchemaNotFoundError extends Error {
  constructor(message: string) {
    super(`${message}: schema not found`)
    this.name = 'SchemaNotFoundError'
  }
}

export const RefPrefix = '#/components/schemas/'
const ExtGVK = 'x-kubernetes-group-version-kind'
const ObjectMetaName = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'

/** schema.GroupVersionKind.String(): `apps/v1, Kind=Deployment` (`/v1, Kind=Pod` for core). */
export function gvkString(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`
}

/** resourcePathFromGV: `api/v1` for core, `apis/<group>/<version>` otherwise. */
export function openAPIPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`
}

/** refOf: a `$ref`, or the first found in `allOf` (kube-openapi wraps refs to keep descriptions). */
function refOf(s: OpenAPISchema): string | undefined {
  const r = s['$ref']
  if (typeof r === 'string' && r !== '') return r
  const allOf = s['allOf']
  if (Array.isArray(allOf)) {
    for (const a of allOf) {
      if (!isObject(a)) continue
      const nested = refOf(a)
      if (nested !== undefined) return nested
    }
  }
  return undefined
}

/**
 * PopulateRefs: the schema `rootRef` names with every reference in properties, additionalProperties
 * and items replaced by the schema it names (the whole node: its description and default go), and a
 * reference to a schema already being expanded on the current path replaced by `{type: object}`.
 * Other keywords (allOf, anyOf, …) are left as they are. Unchanged nodes are shared, not copied.
 * @throws SchemaNotFoundError when a reference names no schema
 */
export function populateRefs(schemaOf: (ref: string) => OpenAPISchema | undefined, rootRef: string): OpenAPISchema {
  const root = schemaOf(rootRef)
  if (root === undefined)
    throw new SchemaNotFoundError(`internal error: cannot resolve Ref for root schema "${rootRef}"`)
  return populate(schemaOf, new Set([rootRef]), root)
}

function populate(
  schemaOf: (ref: string) => OpenAPISchema | undefined,
  visited: Set<string>,
  schema: OpenAPISchema,
): OpenAPISchema {
  const ref = refOf(schema)
  if (ref === undefined) return populateChildren(schemaOf, visited, schema, schema)
  // for circular ref, return an empty object as placeholder
  if (visited.has(ref)) return { type: ['object'] }
  visited.add(ref)
  try {
    const resolved = schemaOf(ref)
    if (resolved === undefined) throw new SchemaNotFoundError(`internal error: cannot resolve Ref "${ref}"`)
    const r = populateChildren(schemaOf, visited, resolved, schema)
    // the referring node is replaced even when the referred schema needed no change
    return r === schema ? resolved : r
  } finally {
    visited.delete(ref)
  }
}

/** The children of `result` populated; `original` when nothing (not even a ref) changed. */
function populateChildren(
  schemaOf: (ref: string) => OpenAPISchema | undefined,
  visited: Set<string>,
  result: OpenAPISchema,
  original: OpenAPISchema,
): OpenAPISchema {
  let out: Record<string, unknown> | undefined = result === original ? undefined : { ...result }
  const props = result['properties']
  if (isObject(props)) {
    let changed = false
    const populated: Record<string, unknown> = {}
    for (const [name, prop] of Object.entries(props)) {
      if (!isObject(prop)) {
        setOwn(populated, name, prop)
        continue
      }
      const p = populate(schemaOf, visited, prop)
      if (p !== prop) changed = true
      setOwn(populated, name, p)
    }
    if (changed) {
      out ??= { ...result }
      out['properties'] = populated
    }
  }
  const ap = result['additionalProperties']
  if (isObject(ap)) {
    const p = populate(schemaOf, visited, ap)
    if (p !== ap) {
      out ??= { ...result }
      out['additionalProperties'] = p
    }
  }
  const items = result['items']
  if (isObject(items)) {
    const p = populate(schemaOf, visited, items)
    if (p !== items) {
      out ??= { ...result }
      out['items'] = p
    }
  }
  if (out === undefined) return original
  return out
}

const cache = new WeakMap<object, JSONSchemaProps>()

/**
 * A kube-openapi schema (refs already populated) as the JSONSchemaProps the declared-type
 * conversion reads, with the adaptor's readings: first type of a list, `format: int-or-string` as
 * x-kubernetes-int-or-string, tuple `items` dropped, `x-` extension keys lowercased. Keywords the
 * conversion does not read are kept as they are.
 */
export function toJSONSchemaProps(s: OpenAPISchema): JSONSchemaProps {
  const hit = cache.get(s)
  if (hit !== undefined) return hit
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(s)) {
    const key = k.toLowerCase().startsWith('x-') ? k.toLowerCase() : k
    switch (key) {
      case 'type':
        if (Array.isArray(v)) {
          if (typeof v[0] === 'string') out['type'] = v[0]
        } else if (typeof v === 'string' && v !== '') out['type'] = v
        break
      case 'properties':
        if (isObject(v)) {
          const props: Record<string, JSONSchemaProps> = {}
          for (const [name, p] of Object.entries(v)) setOwn(props, name, toJSONSchemaProps(isObject(p) ? p : {}))
          out['properties'] = props
        }
        break
      case 'items':
        if (isObject(v)) out['items'] = toJSONSchemaProps(v)
        break
      case 'additionalProperties':
        if (isObject(v)) out['additionalProperties'] = toJSONSchemaProps(v)
        else if (typeof v === 'boolean') out['additionalProperties'] = v
        break
      case 'not':
        if (isObject(v)) out['not'] = toJSONSchemaProps(v)
        break
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(v)) out[key] = v.map((x) => toJSONSchemaProps(isObject(x) ? x : {}))
        break
      default:
        out[key] = v
    }
  }
  // built-in types carry the IntOrString format, CRDs the extension; the adaptor accepts both
  if (out['format'] === 'int-or-string') out['x-kubernetes-int-or-string'] = true
  const result = out as JSONSchemaProps
  cache.set(s, result)
  return result
}

/** The kinds a component schema declares in x-kubernetes-group-version-kind (Go's JSON decoding). */
function gvksOf(name: string, s: OpenAPISchema): GroupVersionKind[] {
  const ext = Object.entries(s).find(([k]) => k.toLowerCase() === ExtGVK)?.[1]
  if (ext === undefined || ext === null) return []
  const bad = () => new Error(`invalid ${ExtGVK} of component schema "${name}"`)
  if (!Array.isArray(ext)) throw bad()
  return ext.map((g) => {
    if (!isObject(g)) throw bad()
    const field = (f: string): string => {
      // encoding/json matches the untagged Group/Version/Kind fields case-insensitively
      const e = Object.entries(g).find(([k]) => k.toLowerCase() === f)
      if (e === undefined || e[1] === null) return ''
      if (typeof e[1] !== 'string') throw bad()
      return e[1]
    }
    return { group: field('group'), version: field('version'), kind: field('kind') }
  })
}

function sameGVK(a: GroupVersionKind, b: GroupVersionKind): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind
}

/** The group-version path of a document: from its `paths`, else from its kinds when they agree. */
function documentPath(doc: OpenAPIV3Document): string | undefined {
  for (const p of Object.keys(doc.paths ?? {})) {
    const core = /^\/api\/([^/]+)(\/|$)/.exec(p)
    if (core) return `api/${core[1]}`
    const m = /^\/apis\/([^/]+)\/([^/]+)(\/|$)/.exec(p)
    if (m) return `apis/${m[1]}/${m[2]}`
  }
  const found = new Set<string>()
  for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) {
    if (!isObject(s)) continue
    for (const g of gvksOf(name, s)) found.add(openAPIPath(g.group, g.version))
  }
  return found.size === 1 ? [...found][0] : undefined
}

/** `/openapi/v3/apis/apps/v1`, `apis/apps/v1`, `/apis/apps/v1` → `apis/apps/v1`. */
function normalizePath(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/^openapi\/v3\//, '')
    .replace(/\?.*$/, '')
    .replace(/\/+$/, '')
}

/** A CRD version's schema, as the apiextensions OpenAPI builder publishes it (before ref population). */
interface CRDVersionSchema {
  readonly schema: JSONSchemaProps | undefined
}

/**
 * Resolves kinds to structural schemas from OpenAPI v3 documents and CRD manifests
 * (resolver.SchemaResolver). Documents come first, as the apiserver's definitions of built-in types
 * come before discovery; a kind in no document is looked up among the CRDs.
 */
export class OpenAPISchemaResolver {
  private readonly documents = new Map<string, OpenAPIV3Document>()
  private readonly crds = new Map<string, CRDVersionSchema>()
  private readonly resolved = new Map<string, JSONSchemaProps>()
  /** The release whose built-in schemas answer for group-versions without a document. */
  private readonly release: string | undefined

  /**
   * @param documents OpenAPI v3 documents (they win over the built-in schemas of their group-version)
   * @param options.release the release (`1.30` … `1.37`) whose built-in schemas are used for the
   *   group-versions no document was given for; without it (or for a release without shipped
   *   schemas) only the documents and CRDs are known
   */
  constructor(
    documents: Iterable<OpenAPIV3Document | { path: string; document: OpenAPIV3Document }> = [],
    options: { readonly release?: string } = {},
  ) {
    this.release = options.release !== undefined && hasBuiltinSchemas(options.release) ? options.release : undefined
    for (const d of documents) {
      if ('document' in d && typeof d.path === 'string') this.addDocument(d.document as OpenAPIV3Document, d.path)
      else this.addDocument(d as OpenAPIV3Document)
    }
  }

  /**
   * Adds (or replaces) the document served at `path` (`apis/apps/v1`, `api/v1`, or the full
   * `/openapi/v3/...` path). Without a path, the group-version is read from the document's `paths`
   * (or from its kinds, when they all share one).
   */
  addDocument(document: OpenAPIV3Document, path?: string): void {
    const p = path !== undefined ? normalizePath(path) : documentPath(document)
    if (p === undefined)
      throw new Error('cannot tell which group-version the OpenAPI document serves: give its path (e.g. apis/apps/v1)')
    this.documents.set(p, document)
    this.resolved.clear()
  }

  /**
   * Adds the served versions of a CustomResourceDefinition manifest (apiextensions.k8s.io/v1):
   * each version's `schema.openAPIV3Schema`, or the CRD's top-level `spec.validation` schema.
   */
  addCRD(crd: Readonly<Record<string, unknown>>): void {
    const spec = isObject(crd['spec']) ? crd['spec'] : {}
    const names = isObject(spec['names']) ? spec['names'] : {}
    const group = typeof spec['group'] === 'string' ? spec['group'] : ''
    const kind = typeof names['kind'] === 'string' ? names['kind'] : ''
    const topLevel = isObject(spec['validation']) ? spec['validation'] : undefined
    for (const v of Array.isArray(spec['versions']) ? spec['versions'] : []) {
      if (!isObject(v) || typeof v['name'] !== 'string' || v['served'] === false) continue
      const validation = isObject(v['schema']) ? v['schema'] : topLevel
      const s = validation?.['openAPIV3Schema']
      this.crds.set(gvkKey({ group, version: v['name'], kind }), {
        schema: isObject(s) ? (s as JSONSchemaProps) : undefined,
      })
    }
    this.resolved.clear()
  }

  /**
   * ResolveSchema: the kind's schema, refs populated, as JSONSchemaProps.
   * @throws SchemaNotFoundError when no document or CRD has the kind; Error for broken documents
   */
  resolveSchema(gvk: GroupVersionKind): JSONSchemaProps {
    const key = gvkKey(gvk)
    const hit = this.resolved.get(key)
    if (hit !== undefined) return hit
    const s = this.resolve(gvk)
    this.resolved.set(key, s)
    return s
  }

  /** The kind's schema, or undefined when it is not found (other errors are thrown). */
  schemaFor(gvk: GroupVersionKind): JSONSchemaProps | undefined {
    try {
      return this.resolveSchema(gvk)
    } catch (e) {
      if (e instanceof SchemaNotFoundError) return undefined
      throw e
    }
  }

  private resolve(gvk: GroupVersionKind): JSONSchemaProps {
    const doc = this.documents.get(openAPIPath(gvk.group, gvk.version))
    if (doc !== undefined) {
      const schemas = doc.components?.schemas ?? {}
      for (const [name, s] of Object.entries(schemas)) {
        if (!isObject(s)) continue
        if (gvksOf(name, s).some((g) => sameGVK(g, gvk))) {
          const schemaOf = (ref: string): OpenAPISchema | undefined => {
            const n = ref.startsWith(RefPrefix) ? ref.slice(RefPrefix.length) : ref
            const found = Object.hasOwn(schemas, n) ? schemas[n] : undefined
            return isObject(found) ? found : undefined
          }
          // The root as a reference, so a reference back to it is cut at once: so the apiserver's
          // DefinitionsSchemaResolver (built-in kinds) expands it; its ClientDiscoveryResolver passes
          // the bare component name and so expands the root one level more.
          return toJSONSchemaProps(populateRefs(schemaOf, RefPrefix + name))
        }
      }
    }
    const builtinDefs =
      doc === undefined && this.release !== undefined
        ? builtinDefinitions(this.release, gvk.group, gvk.version)
        : undefined
    if (builtinDefs !== undefined && builtinDefs.kindSchemaName(gvk.kind) !== undefined) {
      const s = resolvedSchemaFor(this.release as string, gvk)
      if (s !== undefined) return s
    }
    const crd = this.crds.get(gvkKey(gvk))
    if (crd !== undefined) return this.crdSchema(crd)
    if (doc === undefined && builtinDefs === undefined)
      throw new SchemaNotFoundError(`cannot resolve group version "${groupVersionString(gvk.group, gvk.version)}"`)
    throw new SchemaNotFoundError(`cannot resolve group version kind "${gvkString(gvk)}"`)
  }

  /** buildKubeNative: the CRD schema with apiVersion, kind and ObjectMeta metadata (also on embedded resources). */
  private crdSchema(crd: CRDVersionSchema): JSONSchemaProps {
    if (crd.schema === undefined) return { type: 'object' }
    const meta = this.objectMeta()
    const str: JSONSchemaProps = { type: 'string' }
    const addEmbedded = (s: JSONSchemaProps): JSONSchemaProps => {
      let out: Record<string, unknown> = { ...s }
      if (s.properties !== undefined) {
        const props: Record<string, JSONSchemaProps> = {}
        for (const [k, v] of Object.entries(s.properties)) setOwn(props, k, addEmbedded(v))
        out['properties'] = props
      }
      if (s.items !== undefined && isObject(s.items)) out['items'] = addEmbedded(s.items)
      if (isObject(s.additionalProperties)) out['additionalProperties'] = addEmbedded(s.additionalProperties)
      if (s['x-kubernetes-embedded-resource'] === true) {
        out = {
          ...out,
          properties: { ...(out['properties'] as object | undefined), apiVersion: str, kind: str, metadata: meta },
        }
        const required = [...(s.required ?? [])]
        if (!required.includes('kind')) required.push('kind')
        if (!required.includes('apiVersion')) required.push('apiVersion')
        out['required'] = required
      }
      return out as JSONSchemaProps
    }
    const root = addEmbedded(toJSONSchemaProps(crd.schema as OpenAPISchema))
    return { ...root, properties: { ...root.properties, metadata: meta, apiVersion: str, kind: str } }
  }

  /** ObjectMeta from a loaded document (refs populated), else the release's, else the built-in 1.36 ObjectMeta. */
  private objectMeta(): JSONSchemaProps {
    for (const doc of this.documents.values()) {
      const schemas = doc.components?.schemas ?? {}
      if (!isObject(schemas[ObjectMetaName])) continue
      const schemaOf = (ref: string): OpenAPISchema | undefined => {
        const n = ref.startsWith(RefPrefix) ? ref.slice(RefPrefix.length) : ref
        const found = Object.hasOwn(schemas, n) ? schemas[n] : undefined
        return isObject(found) ? found : undefined
      }
      try {
        return toJSONSchemaProps(populateRefs(schemaOf, RefPrefix + ObjectMetaName))
      } catch {
        // a trimmed document without ObjectMeta's dependencies: use the built-in one
      }
    }
    const core = this.release !== undefined ? builtinDefinitions(this.release, '', 'v1') : undefined
    if (core?.schema(ObjectMetaName) !== undefined)
      return toJSONSchemaProps(populateRefs(core.schemaOf, RefPrefix + ObjectMetaName))
    return OBJECT_META
  }
}

function gvkKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`
}

function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`
}

const str: JSONSchemaProps = { type: 'string' }
const time: JSONSchemaProps = { type: 'string', format: 'date-time' }
const int64: JSONSchemaProps = { type: 'integer', format: 'int64' }
const stringMap: JSONSchemaProps = { type: 'object', additionalProperties: { type: 'string', default: '' } }

/**
 * io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta of Kubernetes 1.36 with refs populated (its
 * structure only: no descriptions), for CRD schemas when no loaded document carries ObjectMeta.
 */
export const OBJECT_META: JSONSchemaProps = {
  type: 'object',
  properties: {
    annotations: stringMap,
    creationTimestamp: time,
    deletionGracePeriodSeconds: int64,
    deletionTimestamp: time,
    finalizers: {
      type: 'array',
      items: { type: 'string', default: '' },
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    },
    generateName: str,
    generation: int64,
    labels: stringMap,
    managedFields: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          apiVersion: str,
          fieldsType: str,
          fieldsV1: { type: 'object' },
          manager: str,
          operation: str,
          subresource: str,
          time,
        },
      },
      'x-kubernetes-list-type': 'atomic',
    },
    name: str,
    namespace: str,
    ownerReferences: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          apiVersion: { type: 'string', default: '' },
          blockOwnerDeletion: { type: 'boolean' },
          controller: { type: 'boolean' },
          kind: { type: 'string', default: '' },
          name: { type: 'string', default: '' },
          uid: { type: 'string', default: '' },
        },
        required: ['apiVersion', 'kind', 'name', 'uid'],
        'x-kubernetes-map-type': 'atomic',
      },
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    },
    resourceVersion: str,
    selfLink: str,
    uid: str,
  },
}
