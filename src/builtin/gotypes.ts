import { GO_TYPES_JSON } from './types.generated.js'

// The Go types kube-apiserver decodes built-in objects into (k8s.io/api, read by reflection by
// src/builtin/gen): per struct its Go name and its fields as encoding/json sees them (embedded
// structs flattened, with the Go field names the decoder's error context records), and the field
// defaults of `+default=` markers taken from the release's OpenAPI. Parsed on first use.

/** A type node (see gen/main.go): a struct id, or a tuple. */
export type TypeNode =
  | string
  | readonly ['p', TypeNode]
  | readonly ['l', string, TypeNode]
  | readonly ['b', string]
  | readonly ['m', string, TypeNode, TypeNode]
  | readonly ['i' | 'n' | 'f', string, number]
  | readonly ['str' | 'bool' | 'u', string]
  | readonly ['any']

/** [jsonName, type, flags (1 omitempty, 2 omitzero), embedded Go field names] */
export type FieldRow = readonly [string, TypeNode, number, (readonly string[])?]

interface Table {
  readonly kinds: Readonly<Record<string, string>>
  readonly structs: Readonly<Record<string, readonly [string, readonly FieldRow[]]>>
  readonly defaults: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

let table: Table | undefined
function load(): Table {
  table ??= JSON.parse(GO_TYPES_JSON) as Table
  return table
}

/** The root struct id of `group/version/Kind` (`apps/v1/Deployment`; core: `v1/Pod`), if the table has it. */
export function kindStruct(apiVersion: string, kind: string): string | undefined {
  return load().kinds[`${apiVersion}/${kind}`]
}

let lowercaseKinds: Map<string, string> | undefined
/**
 * The kind whose name in lower case is `kind` (kubectl maps `deployment` to deployments and sends it; the
 * apiserver's scheme knows `Deployment` only and refuses to decode it), undefined for any other spelling.
 */
export function kindOfLowercase(apiVersion: string, kind: string): string | undefined {
  if (lowercaseKinds === undefined) {
    lowercaseKinds = new Map()
    for (const key of Object.keys(load().kinds)) {
      const i = key.lastIndexOf('/')
      const k = key.slice(i + 1)
      if (k !== k.toLowerCase()) lowercaseKinds.set(`${key.slice(0, i)}/${k.toLowerCase()}`, k)
    }
  }
  return lowercaseKinds.get(`${apiVersion}/${kind}`)
}

/** Every struct of the table with its json field names (scripts/generate-release-fields.js). */
export function allStructs(): [string, string[]][] {
  return Object.entries(load().structs).map(([id, [, rows]]) => [id, rows.map((r) => r[0])])
}

export interface StructInfo {
  readonly id: string
  /** The Go type's name (UnmarshalTypeError.Struct). */
  readonly name: string
  /** reflect.Type.String(): `v1.DeploymentSpec`. */
  readonly goType: string
  readonly fields: readonly FieldRow[]
  readonly defaults: Readonly<Record<string, unknown>> | undefined
}

const infos = new Map<string, StructInfo>()
export function structInfo(id: string): StructInfo {
  let info = infos.get(id)
  if (info === undefined) {
    const t = load()
    const s = t.structs[id]
    if (s === undefined) throw new Error(`no Go type ${id}`)
    const pkg = id.slice(0, id.lastIndexOf('.'))
    info = {
      id,
      name: s[0],
      goType: `${pkg.slice(pkg.lastIndexOf('/') + 1)}.${s[0]}`,
      fields: s[1],
      defaults: t.defaults[id],
    }
    infos.set(id, info)
  }
  return info
}

/** reflect.Type.String() of a node (pointers dereferenced, as the decoder reports them). */
export function goTypeString(t: TypeNode): string {
  if (typeof t === 'string') return structInfo(t).goType
  if (t[0] === 'p') return goTypeString(t[1])
  if (t[0] === 'any') return 'interface {}'
  return t[1]
}
