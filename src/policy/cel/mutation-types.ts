import type { TypeProvider } from '../../cel/checker/index.js'
import { ErrorValue } from '../../cel/common/errors.js'
import { DynType, StringType, struct, type Type } from '../../cel/types/types.js'
import { typeNameOf } from '../../cel/values/typeof.js'
import type { CelValue } from '../../cel/values/values.js'
import type { JSONObject } from '../../kube/values/json.js'

// The types mutating admission policies construct (apiserver pkg/cel/mutation typeresolver.go
// DynamicTypeResolver, dynamic/objects.go ObjectType / ObjectVal, jsonpatch.go JSONPatchType /
// JSONPatchVal): `Object` and every `Object.<field>...` name is an object type whose fields are all
// dyn (no schema: any field name is accepted); `JSONPatch` has `op`, `path`, `from` (string) and
// `value` (dyn).
//
// Values are plain JSON objects (kelp's maps) tagged with their type name under a symbol, so they
// convert to JSON, compare and print as the maps they become; CheckTypeNamesMatchFieldPathNames and
// the JSON Patch conversion read the tag.

export const ObjectTypeName = 'Object'
export const JSONPatchTypeName = 'JSONPatch'

const TYPE_NAME = Symbol('kelp.mutation.typeName')

/** The type name of a value built by `Object…{}` / `JSONPatch{}`, or undefined for any other value. */
export function mutationTypeName(v: unknown): string | undefined {
  return typeof v === 'object' && v !== null ? ((v as { [TYPE_NAME]?: string })[TYPE_NAME] ?? undefined) : undefined
}

function tagged(typeName: string, fields: JSONObject): JSONObject {
  Object.defineProperty(fields, TYPE_NAME, { value: typeName, enumerable: false })
  return fields
}

const isObjectTypeName = (name: string) => name === ObjectTypeName || name.startsWith(`${ObjectTypeName}.`)

/** `JSONPatch` fields and their types (jsonpatch.go JSONPatchType.Field). */
const JSONPATCH_FIELDS: Readonly<Record<string, Type>> = {
  op: StringType,
  from: StringType,
  path: StringType,
  value: DynType,
}

/** Go's %T of a CEL value's Go representation, for JSONPatchType.Val's messages. */
function goTypeOf(v: CelValue): string {
  switch (typeNameOf(v)) {
    case 'int':
      return 'int64'
    case 'uint':
      return 'uint64'
    case 'double':
      return 'float64'
    case 'bool':
      return 'bool'
    case 'bytes':
      return '[]uint8'
    case 'null_type':
      return 'structpb.NullValue'
    case 'list':
      return '[]ref.Val'
    case 'map':
      return 'map[ref.Val]ref.Val'
    default:
      return typeNameOf(v)
  }
}

/** The provider the mutation expressions compile with (DynamicTypeResolver), chained to another. */
export class MutationTypes implements TypeProvider {
  constructor(private readonly next?: TypeProvider) {}

  findStructType(name: string): Type | undefined {
    if (name === JSONPatchTypeName || isObjectTypeName(name)) return struct(name)
    return this.next?.findStructType(name)
  }

  findFieldType(structType: Type, field: string): Type | undefined {
    if (structType.name === JSONPatchTypeName)
      return Object.hasOwn(JSONPATCH_FIELDS, field) ? JSONPATCH_FIELDS[field] : undefined
    if (isObjectTypeName(structType.name)) return DynType
    return this.next?.findFieldType(structType, field)
  }

  fieldNames(structType: Type): string[] {
    if (structType.name === JSONPatchTypeName) return ['op', 'from', 'path', 'value']
    if (isObjectTypeName(structType.name)) return []
    return this.next?.fieldNames?.(structType) ?? []
  }

  newValue(typeName: string, fields: Readonly<Record<string, CelValue>>): CelValue {
    if (typeName === JSONPatchTypeName) {
      const out: JSONObject = {}
      for (const [name, value] of Object.entries(fields)) {
        if (name === 'op' || name === 'path' || name === 'from') {
          if (typeof value !== 'string')
            throw new ErrorValue(`unexpected type ${goTypeOf(value)} for JSONPatchType '${name}' field`)
          out[name] = value
        } else if (name === 'value') out.value = value
        else throw new ErrorValue(`unexpected JSONPatchType field: ${name}`)
      }
      return tagged(JSONPatchTypeName, out) as CelValue
    }
    if (isObjectTypeName(typeName)) return tagged(typeName, { ...fields }) as CelValue
    const next = this.next
    if (next?.newValue !== undefined) return next.newValue(typeName, fields)
    throw new ErrorValue(`unknown type '${typeName}'`)
  }
}

/** `JSONPatch` as a CEL type (the element type a JSONPatch expression's list must have). */
export const JSONPatchType = struct(JSONPatchTypeName)
/** `Object`: an ApplyConfiguration expression's result type. */
export const ObjectType = struct(ObjectTypeName)

/**
 * ObjectVal.CheckTypeNamesMatchFieldPathNames: every `Object…{}` under a field must be named by the
 * field path from the root (`Object.spec{selector: Object.spec.selector{}}`); lists and maps in between
 * are unnamed. The errors joined as Go's errors.Join (one per line), or undefined.
 */
export function checkTypeNamesMatchFieldPathNames(root: unknown): string | undefined {
  const errs: string[] = []
  const walk = (v: unknown, path: string[]) => {
    const tn = mutationTypeName(v)
    if (tn !== undefined && tn !== JSONPatchTypeName) {
      const expected = path.join('.')
      if (tn !== expected)
        errs.push(
          `unexpected type name "${tn}", expected "${expected}", which matches field name path from root Object type`,
        )
      for (const [k, f] of Object.entries(v as JSONObject)) walk(f, [...path, k])
      return
    }
    if (Array.isArray(v)) for (const e of v) walk(e, path)
    else if (
      typeof v === 'object' &&
      v !== null &&
      tn === undefined &&
      [Object.prototype, null].includes(Object.getPrototypeOf(v))
    )
      for (const e of Object.values(v)) walk(e, path)
  }
  const tn = mutationTypeName(root)
  walk(root, [tn ?? ObjectTypeName])
  return errs.length > 0 ? errs.join('\n') : undefined
}
