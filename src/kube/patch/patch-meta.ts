import { type BuiltinKindSchema, schemaFor as builtinSchemaFor } from '../builtin-schemas/index.js'
import type { GroupVersionKind } from '../gvk.js'
import type { OpenAPISchema } from '../openapi.js'
import { isObject } from '../values/json.js'
import { PatchError } from './mergepatch.js'

// The patch metadata of a field (apimachinery pkg/util/strategicpatch meta.go, types.go): the patch
// strategies (`merge`, `replace`, `retainKeys`, or `merge,retainKeys`) and merge key a strategic merge
// patch uses for it, read from the OpenAPI v3 extensions x-kubernetes-patch-strategy /
// x-kubernetes-patch-merge-key that kube-openapi generates from the Go types' patchStrategy /
// patchMergeKey tags. A field's list type (x-kubernetes-list-type, -list-map-keys) is reported too, but
// strategic merge patch never reads it: a list without a patch strategy is replaced whole.
//
// Two lookups:
// - PatchMetaFromOpenAPIV3: kubectl's (buildStrategicMergePatchFromOpenAPIV3), exactly: a field must be
//   a declared property, so a key of a map-typed field (labels, a ConfigMap's data) is an error.
// - PatchMetaFromStructSchema: what the Go types give (PatchMetaFromStruct, the forked encoding/json's
//   LookupPatchMetadataForStruct), read from the same schemas: a map's keys all have its value type.
//   kubectl falls back to the compiled-in types when the OpenAPI lookup fails (patcher.go patchSimple:
//   V3, then V2, then scheme types), and the apiserver applies strategic patches with the Go types
//   (StrategicMergeMapPatch on the versioned object), so this is the lookup a built-in kind gets.

/** PatchMeta: the strategies (comma-split) and merge key of one field. */
export interface PatchMeta {
  readonly patchStrategies: readonly string[]
  readonly patchMergeKey: string
  /** x-kubernetes-list-type of the field, when declared (informative: not read by strategic merge). */
  readonly listType?: string
  readonly listMapKeys?: readonly string[]
}

export const EMPTY_PATCH_META: PatchMeta = { patchStrategies: [], patchMergeKey: '' }

/** LookupPatchMeta: the subschema and patch meta of a field of a map (struct) or a list field's items. */
export interface LookupPatchMeta {
  /** LookupPatchMetadataForStruct(key). @throws PatchError when the field is unknown */
  lookupPatchMetadataForStruct(key: string): readonly [LookupPatchMeta, PatchMeta]
  /** LookupPatchMetadataForSlice(key): the list field's meta, and the schema of its items. */
  lookupPatchMetadataForSlice(key: string): readonly [LookupPatchMeta, PatchMeta]
  /** Name(): the type's name in error messages. */
  name(): string
}

type Schema = OpenAPISchema

/** An extension's value: spec.Extensions keys are lowercased when read. */
function extension(s: Schema, key: string): unknown {
  if (Object.hasOwn(s, key)) return s[key]
  for (const k of Object.keys(s)) if (k.toLowerCase() === key) return s[k]
  return undefined
}

/** parsePatchMetadata: the two extensions (a non-string value is ErrBadArgType). */
function patchMetaOf(s: Schema): PatchMeta {
  const ps = extension(s, 'x-kubernetes-patch-strategy')
  const mk = extension(s, 'x-kubernetes-patch-merge-key')
  if (ps !== undefined && typeof ps !== 'string') throw new PatchError('expected a string, but received a non-string')
  if (mk !== undefined && typeof mk !== 'string') throw new PatchError('expected a string, but received a non-string')
  const lt = extension(s, 'x-kubernetes-list-type')
  const lk = extension(s, 'x-kubernetes-list-map-keys')
  return {
    patchStrategies: ps === undefined ? [] : ps.split(','),
    patchMergeKey: mk ?? '',
    ...(typeof lt === 'string' ? { listType: lt } : {}),
    ...(Array.isArray(lk) ? { listMapKeys: lk.filter((k): k is string => typeof k === 'string') } : {}),
  }
}

/** Resolves a `$ref` (`#/components/schemas/<name>`) to its schema. */
export type RefResolver = (ref: string) => Schema | undefined

const RefPrefix = '#/components/schemas/'

/** A resolver over a document's `components.schemas`. */
export function componentsResolver(schemas: Readonly<Record<string, unknown>>): RefResolver {
  return (ref) => {
    const name = ref.startsWith(RefPrefix) ? ref.slice(RefPrefix.length) : ref
    const s = Object.hasOwn(schemas, name) ? schemas[name] : undefined
    return isObject(s) ? s : undefined
  }
}

/** The `$ref` of a schema (kube-openapi v3 writes `allOf: [{$ref}]` when the property has its own description or default). */
function refOf(s: Schema): string {
  const r = s['$ref']
  return typeof r === 'string' ? r : ''
}

// ── kubectl's lookup ─────────────────────────────────────────────────────────────────────────────

/** strategicpatch.PatchMetaFromOpenAPIV3: a component schema of a group-version's document. */
export class PatchMetaFromOpenAPIV3 implements LookupPatchMeta {
  constructor(
    readonly schemaList: RefResolver,
    readonly schema: Schema | undefined,
  ) {}

  /** traverse: the property `key` (its own node, extensions included, before any ref is followed). */
  private traverse(key: string): Schema | undefined {
    if (this.schema === undefined) return undefined
    const props = this.schema['properties']
    if (!isObject(props) || Object.keys(props).length === 0 || !Object.hasOwn(props, key) || !isObject(props[key]))
      throw new PatchError(`unable to find api field "${key}"`)
    return props[key] as Schema
  }

  /** resolve: the first allOf entry, then the `$ref` it names. */
  private resolve(s: Schema | undefined): PatchMetaFromOpenAPIV3 {
    if (s === undefined) return new PatchMetaFromOpenAPIV3(this.schemaList, undefined)
    const allOf = s['allOf']
    if (Array.isArray(allOf) && allOf.length > 0) s = isObject(allOf[0]) ? allOf[0] : {}
    const ref = refOf(s)
    if (ref !== '') {
      const target = this.schemaList(ref)
      if (target === undefined) throw new PatchError(`unable to resolve ${ref} in OpenAPI V3`)
      s = target
    }
    return new PatchMetaFromOpenAPIV3(this.schemaList, s)
  }

  lookupPatchMetadataForStruct(key: string): readonly [LookupPatchMeta, PatchMeta] {
    const p = this.traverse(key)
    if (p === undefined) return [new PatchMetaFromOpenAPIV3(this.schemaList, undefined), EMPTY_PATCH_META]
    return [this.resolve(p), patchMetaOf(p)]
  }

  lookupPatchMetadataForSlice(key: string): readonly [LookupPatchMeta, PatchMeta] {
    const p = this.traverse(key)
    if (p === undefined) return [new PatchMetaFromOpenAPIV3(this.schemaList, undefined), EMPTY_PATCH_META]
    const items = p['items']
    return [this.resolve(items === undefined ? p : isObject(items) ? items : undefined), patchMetaOf(p)]
  }

  name(): string {
    const t = this.schema?.['type']
    if (Array.isArray(t) && t.length > 0) return t.join('')
    if (typeof t === 'string' && t !== '') return t
    return 'Struct'
  }
}

// ── the Go types' lookup, from the same schemas ────────────────────────────────────────────────

/** A schema node as a Go type: refs followed, the Go type name kept for error messages. */
interface TypeNode {
  readonly schema: Schema
  readonly typeName: string
}

/** The reflect.Kind a schema node stands for. */
function kindOf(s: Schema): string {
  if (isObject(s['properties'])) return 'struct'
  if (isObject(s['additionalProperties'])) return 'map'
  const t = Array.isArray(s['type']) ? s['type'][0] : s['type']
  switch (t) {
    case 'array':
      return 'slice'
    case 'object':
      return 'struct'
    case 'integer':
      return s['format'] === 'int32' ? 'int32' : 'int64'
    case 'number':
      return 'float64'
    case 'boolean':
      return 'bool'
    case 'string':
      return 'string'
    default:
      return s['items'] !== undefined ? 'slice' : 'struct'
  }
}

/**
 * PatchMetaFromStruct over the schemas of the Go types: a struct's fields are its properties, a map's
 * values its additionalProperties, a slice's elements its items.
 */
export class PatchMetaFromStructSchema implements LookupPatchMeta {
  constructor(
    readonly resolveRef: RefResolver,
    /** undefined: an interface{} value, whose fields have no patch meta. */
    readonly node: TypeNode | undefined,
  ) {}

  /** The type a property or items schema names: allOf[0], then its $ref. */
  private typeOf(s: Schema, fallbackName: string): TypeNode {
    const allOf = s['allOf']
    const inner = Array.isArray(allOf) && allOf.length > 0 && isObject(allOf[0]) ? allOf[0] : s
    const ref = refOf(inner)
    if (ref === '') return { schema: inner, typeName: fallbackName }
    const target = this.resolveRef(ref)
    if (target === undefined) throw new PatchError(`unable to resolve ${ref} in OpenAPI V3`)
    return { schema: target, typeName: ref.slice(ref.lastIndexOf('.') + 1) }
  }

  lookupPatchMetadataForStruct(key: string): readonly [LookupPatchMeta, PatchMeta] {
    if (this.node === undefined) return [this, EMPTY_PATCH_META]
    const s = this.node.schema
    const kind = kindOf(s)
    if (kind === 'map') {
      // a map's elements: no tags
      const v = s['additionalProperties'] as Schema
      return [new PatchMetaFromStructSchema(this.resolveRef, this.typeOf(v, '')), EMPTY_PATCH_META]
    }
    if (kind !== 'struct')
      throw new PatchError(`merging an object in json but data type is not map or struct, instead is: ${kind}`)
    const props = s['properties']
    const p = isObject(props) && Object.hasOwn(props, key) && isObject(props[key]) ? (props[key] as Schema) : undefined
    if (p === undefined)
      throw new PatchError(`unable to find api field in struct ${this.node.typeName} for the json field "${key}"`)
    return [new PatchMetaFromStructSchema(this.resolveRef, this.typeOf(p, '')), patchMetaOf(p)]
  }

  lookupPatchMetadataForSlice(key: string): readonly [LookupPatchMeta, PatchMeta] {
    const [sub, meta] = this.lookupPatchMetadataForStruct(key)
    const node = (sub as PatchMetaFromStructSchema).node
    if (node === undefined) return [sub, meta]
    const items = node.schema['items']
    // a pointer field (OpenAPI cannot tell *T from T) stands for its element type, as the Go lookup's
    // reflect.Pointer case does
    if (kindOf(node.schema) !== 'slice' || !isObject(items)) return [sub, meta]
    if (isObject(items['items']) || items['type'] === 'array') throw new PatchError('unexpected slice of slice')
    return [new PatchMetaFromStructSchema(this.resolveRef, this.typeOf(items, '')), meta]
  }

  name(): string {
    return this.node === undefined ? 'interface' : kindOf(this.node.schema)
  }
}

/** The patch meta of a built-in kind in a release (1.30 …), from its published OpenAPI v3 schemas; undefined when the release does not serve the kind. */
export function builtinPatchMeta(release: string, gvk: GroupVersionKind): LookupPatchMeta | undefined {
  const k: BuiltinKindSchema | undefined = builtinSchemaFor(release, gvk)
  if (k === undefined) return undefined
  return new PatchMetaFromStructSchema(k.resolve, { schema: k.schema, typeName: k.goType })
}

/** kubectl's own lookup for a built-in kind (PatchMetaFromOpenAPIV3 over the release's document). */
export function builtinPatchMetaFromOpenAPIV3(release: string, gvk: GroupVersionKind): LookupPatchMeta | undefined {
  const k = builtinSchemaFor(release, gvk)
  return k === undefined ? undefined : new PatchMetaFromOpenAPIV3(k.resolve, k.schema)
}

/** The lookup kubectlApplyPatch takes for a release: built-in kinds get their patch meta, others (custom resources) none. */
export function builtinPatchSchemaFor(release: string): (gvk: GroupVersionKind) => LookupPatchMeta | undefined {
  return (gvk) => builtinPatchMeta(release, gvk)
}
