import { parse } from 'yaml'
import type { JSONSchemaProps } from '../../../src/kube/schema/structural.js'
import type { JSONValue } from '../../../src/policy/mutating/jsonpatch.js'
import { mergeTyped, SmdError, typeErrors } from '../../../src/policy/mutating/smd.js'

// structured-merge-diff's merge/ tests (internal/fixture TestCase) replayed without managed fields, as
// MAP's ApplyConfiguration sees them: the live object starts null (State.checkInit), an Update replaces
// it with its object, an Apply or ForceApply is live.Merge(config) (merge/update.go Updater.Apply
// before it prunes what the manager applied last time: rows whose re-apply prunes something, or whose
// outcome is a conflict or ownership, are left out). Every object is typed first (FromYAML: the
// fixture refuses what does not validate; an Update's object may repeat keys), and the result is
// compared as CompareLive does (cmp.Diff of the unstructured values: lists in order).

export type Op = readonly [kind: 'Apply' | 'ForceApply' | 'Update', manager: string, object: string]
export type OpsRow = { name: string; ops: readonly Op[]; object: string; note?: string }

/** A YAML object of a Go test (indented in the source): parsed, the empty document null. */
export function yamlObject(text: string): JSONValue {
  const lines = text.split('\n')
  const indent = Math.min(
    ...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length),
    Number.POSITIVE_INFINITY,
  )
  const body = lines.map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n')
  return (parse(body) ?? null) as JSONValue
}

function typed(v: JSONValue, schema: JSONSchemaProps, allowDuplicates: boolean): JSONValue {
  const errs = typeErrors(v, schema, allowDuplicates)
  if (errs.length > 0) throw new SmdError(errs.join('\n'))
  return v
}

/** The live object after the operations. */
export function runOps(ops: readonly Op[], schema: JSONSchemaProps): JSONValue {
  let live: JSONValue = null
  for (const [kind, , text] of ops) {
    // State.Update types its object with AllowDuplicates, State.Apply without
    const v = typed(yamlObject(text), schema, kind === 'Update')
    live = kind === 'Update' ? v : (mergeTyped(live, v, schema) ?? null)
  }
  return live
}
