import { builtinDocumentDefinitions, builtinDocumentPaths } from '../kube/builtin-schemas/index.js'
import { allStructs } from './gotypes.js'
import { FIELDS_NOT_IN_RELEASE_JSON } from './release-fields.generated.js'

// The Go fields an older release does not have (scripts/generate-release-fields.js): its apiserver's
// strict decoder does not know them, so kelp decoding for that release treats them as unknown fields
// (`strict decoding error: unknown field "spec.template.spec.containers[0].restartPolicyRules"`).

/**
 * The OpenAPI definition name of a Go struct id of types.generated.ts: `core/v1.PodSpec` →
 * `io.k8s.api.core.v1.PodSpec`, `apis/meta/v1.ObjectMeta` → `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`.
 */
export function openAPIDefinitionName(id: string): string {
  const dot = id.lastIndexOf('.')
  const pkg = id.slice(0, dot).replaceAll('/', '.')
  const prefix =
    id.startsWith('apis/') || id.startsWith('api/')
      ? 'io.k8s.apimachinery.pkg.'
      : id.startsWith('apiregistration/')
        ? 'io.k8s.kube-aggregator.pkg.apis.' // kube-aggregator's types (gen/main.go)
        : 'io.k8s.api.'
  return `${prefix}${pkg}.${id.slice(dot + 1)}`
}

type Table = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>
let table: Table | undefined
/** The generated table: release → struct id → fields. */
export function fieldsNotInReleaseTable(): Table {
  table ??= JSON.parse(FIELDS_NOT_IN_RELEASE_JSON) as Table
  return table
}

const sets = new Map<string, ReadonlyMap<string, ReadonlySet<string>> | null>()

/** Struct id → the fields `release` (`1.30`) does not have; undefined when it has them all (the newest release). */
export function fieldsNotInRelease(release: string): ReadonlyMap<string, ReadonlySet<string>> | undefined {
  let s = sets.get(release)
  if (s === undefined) {
    const all = fieldsNotInReleaseTable()
    const t = Object.hasOwn(all, release) ? all[release] : undefined
    s = t === undefined ? null : new Map(Object.entries(t).map(([id, fields]) => [id, new Set(fields)]))
    sets.set(release, s)
  }
  return s ?? undefined
}

/**
 * What release-fields.generated.ts holds for `release`, computed from its published definitions
 * (scripts/generate-release-fields.js; the tests check the generated table against it): struct id →
 * the json fields the release's definition of the struct does not list. Types it does not define at
 * all are left out (a field of a newer type is itself new in its parent).
 */
export function computeFieldsNotInRelease(release: string): Record<string, string[]> {
  const defs = new Map<string, Set<string>>()
  for (const path of builtinDocumentPaths(release)) {
    const d = builtinDocumentDefinitions(release, path)
    for (const name of d?.names() ?? []) {
      const props = (d?.schema(name) as { properties?: Record<string, unknown> } | undefined)?.properties
      if (props !== undefined && !defs.has(name)) defs.set(name, new Set(Object.keys(props)))
    }
  }
  const out: Record<string, string[]> = {}
  for (const [id, fields] of allStructs()) {
    const props = defs.get(openAPIDefinitionName(id))
    if (props === undefined) continue
    const gone = fields.filter((f) => !props.has(f))
    if (gone.length > 0) out[id] = gone
  }
  return out
}
