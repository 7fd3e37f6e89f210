import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../../src/kube/schema/structural.js'
import type { JSONValue } from '../../../src/policy/mutating/jsonpatch.js'
import { mergeTyped } from '../../../src/policy/mutating/smd.js'
import { type OpsRow, runOps, yamlObject } from './smd-fixture.js'

// structured-merge-diff v6.4.2 deduced and untyped schemas: typed/deduced_test.go TestMergeDeduced
// (every triplet), merge/deduced_test.go TestDeduced and merge/preserve_unknown_test.go
// TestPreserveUnknownFields (replayed as MAP merges, smd-fixture.ts). The deduced type
// (`__untyped_deduced_`: maps merged key by key, lists and scalars replaced) is what schemaconv gives
// the fields of an `x-kubernetes-preserve-unknown-fields` object, so DeducedParseableType is written
// as that schema. Left out of TestDeduced: "leaf_apply_twice_remove", "leaf_apply_remove_empty_set"
// (the re-apply removes what the manager applied before: managed-fields pruning) and
// "leaf_update_remove_empty_set" (its last operation is an Update, which replaces the object: it
// checks managed fields only).

const deduced: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }

const mergeDeduced: readonly (readonly [lhs: string, rhs: string, out: string])[] = [
  ['{"key":"foo","value":{}}', '{"key":"foo","value":1}', '{"key":"foo","value":1}'],
  ['{"key":"foo","value":1}', '{"key":"foo","value":{}}', '{"key":"foo","value":{}}'],
  ['{"key":"foo","value":null}', '{"key":"foo","value":{}}', '{"key":"foo","value":{}}'],
  ['{"key":"foo"}', '{"value":true}', '{"key":"foo","value":true}'],
  ['{}', '{"inner":{}}', '{"inner":{}}'],
  ['{}', '{"inner":null}', '{"inner":null}'],
  ['{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
  ['{"inner":{}}', '{"inner":null}', '{"inner":null}'],
  ['{"inner":{}}', '{"inner":{}}', '{"inner":{}}'],
  ['{}', '{"inner":{}}', '{"inner":{}}'],
  ['{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
  ['{"inner":{}}', '{"inner":null}', '{"inner":null}'],
  ['{}', '{"inner":[]}', '{"inner":[]}'],
  ['{"inner":null}', '{"inner":[]}', '{"inner":[]}'],
  ['{"inner":[]}', '{"inner":null}', '{"inner":null}'],
  ['{"inner":[]}', '{"inner":[]}', '{"inner":[]}'],
  ['{"numeric":1}', '{"numeric":3.14159}', '{"numeric":3.14159}'],
  ['{"numeric":3.14159}', '{"numeric":1}', '{"numeric":1}'],
  ['{"string":"aoeu"}', '{"bool":true}', '{"string":"aoeu","bool":true}'],
  ['{"atomic":["a","b","c"]}', '{"atomic":["a","b"]}', '{"atomic":["a","b"]}'],
  ['{"atomic":["a","b"]}', '{"atomic":["a","b","c"]}', '{"atomic":["a","b","c"]}'],
  ['{"atomic":["a","b","c"]}', '{"atomic":[]}', '{"atomic":[]}'],
  ['{"atomic":[]}', '{"atomic":["a","b","c"]}', '{"atomic":["a","b","c"]}'],
  ['{"":[true]}', '{"setBool":[false]}', '{"":[true],"setBool":[false]}'],
  ['{"atomic":[1,2,3.14159]}', '{"atomic":[1,2,3]}', '{"atomic":[1,2,3]}'],
  [
    '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
    '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
    '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
  ],
  [
    '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
    '{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}',
    '{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}',
  ],
  [
    '{"list":[{"key":"a","id":1},{"key":"b","id":1}]}',
    '{"list":[{"key":"a","id":1},{"key":"a","id":2}]}',
    '{"list":[{"key":"a","id":1},{"key":"a","id":2}]}',
  ],
  ['{"atomicList":["a","a","a"]}', '{"atomicList":null}', '{"atomicList":null}'],
  ['{"atomicList":["a","b","c"]}', '{"atomicList":[]}', '{"atomicList":[]}'],
  ['{"atomicList":["a","a","a"]}', '{"atomicList":["a","a"]}', '{"atomicList":["a","a"]}'],
  [
    '{"a":1,"b":[null],"c":{"id":2,"list":["value"]}}',
    '{"a":2,"b":["value"],"c":{"name":"my_name"}}',
    '{"a":2,"b":["value"],"c":{"id":2,"list":["value"],"name":"my_name"}}',
  ],
]

const nestedFirst = `
a: 1
b:
  c:
    d: 2
    e:
    - 1
    - 2
    - 3
    f:
    - name: n
      value: 1
`
const nestedUpdate = `
a: 1
b:
  c:
    d: 3
    e:
    - 1
    - 2
    - 3
    - 4
    f:
    - name: n
      value: 2
g: 5
`
const nestedApply = `
a: 2
b:
  c:
    d: 2
    e:
    - 3
    - 2
    - 1
    f:
    - name: n
      value: 1
`
const conflictNote =
  'the Apply before the ForceApply expects conflicts with the controller and changes nothing: left out, MAP has no conflicts'

const deducedRows: OpsRow[] = [
  {
    name: 'leaf_apply_twice',
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Apply', 'default', 'numeric: 2\nstring: "string"\nbool: false'],
    ],
    object: 'numeric: 2\nstring: "string"\nbool: false',
  },
  {
    name: 'leaf_apply_update_apply_no_conflict',
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Update', 'controller', 'numeric: 1\nstring: "string"\nbool: true'],
      ['Apply', 'default', 'numeric: 2\nstring: "string"'],
    ],
    object: 'numeric: 2\nstring: "string"\nbool: true',
  },
  {
    name: 'leaf_apply_update_apply_with_conflict',
    note: conflictNote,
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Update', 'controller', 'numeric: 1\nstring: "controller string"\nbool: true'],
      ['ForceApply', 'default', 'numeric: 2\nstring: "user string"'],
    ],
    object: 'numeric: 2\nstring: "user string"\nbool: true',
  },
  {
    name: 'apply_twice_list_is_atomic',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- c'],
      ['Apply', 'default', 'list:\n- a\n- d\n- c\n- b'],
    ],
    object: 'list:\n- a\n- d\n- c\n- b',
  },
  {
    name: 'apply_update_apply_list',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- c'],
      ['Update', 'controller', 'list:\n- a\n- b\n- c\n- d'],
      ['ForceApply', 'default', 'list:\n- a\n- b\n- c'],
    ],
    object: 'list:\n- a\n- b\n- c',
  },
  {
    name: 'apply_update_apply_nested',
    note: conflictNote,
    ops: [
      ['Apply', 'default', nestedFirst],
      ['Update', 'controller', nestedUpdate],
      ['ForceApply', 'default', nestedApply],
    ],
    object: `${nestedApply}g: 5\n`,
  },
  {
    name: 'apply_update_apply_nested_different_version',
    note: `${conflictNote} (APIVersions v1, v2, v3: one deduced schema)`,
    ops: [
      ['Apply', 'default', nestedFirst],
      ['Update', 'controller', nestedUpdate],
      ['ForceApply', 'default', nestedApply],
    ],
    object: `${nestedApply}g: 5\n`,
  },
]

// preserveUnknownParser: a declared field and string-typed unknown ones
const preserveUnknown: JSONSchemaProps = {
  type: 'object',
  properties: { num: { type: 'number' } },
  additionalProperties: { type: 'string' },
}

const preserveUnknownRows: OpsRow[] = [
  {
    name: 'preserve_unknown_fields',
    ops: [
      ['Apply', 'default', 'num: 5\nunknown: value'],
      ['Apply', 'default', 'num: 6\nunknown: new'],
    ],
    object: 'num: 6\nunknown: new',
  },
]

describe('structured-merge-diff v6.4.2 typed/deduced_test.go TestMergeDeduced', () => {
  it.each(mergeDeduced.map((t, i) => [`triplet-${i}`, t] as const))('%s', (_, [lhs, rhs, out]) => {
    const got = mergeTyped(JSON.parse(lhs) as JSONValue, JSON.parse(rhs) as JSONValue, deduced)
    expect(got ?? null).toStrictEqual(JSON.parse(out))
  })
})

describe('structured-merge-diff v6.4.2 merge/deduced_test.go TestDeduced', () => {
  it.each(deducedRows.map((r) => [r.name, r] as const))('%s', (_, row) => {
    expect(runOps(row.ops, deduced)).toStrictEqual(yamlObject(row.object))
  })
})

describe('structured-merge-diff v6.4.2 merge/preserve_unknown_test.go TestPreserveUnknownFields', () => {
  it.each(preserveUnknownRows.map((r) => [r.name, r] as const))('%s', (_, row) => {
    expect(runOps(row.ops, preserveUnknown)).toStrictEqual(yamlObject(row.object))
  })
})
