import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../../src/kube/schema/structural.js'
import { type OpsRow, runOps, yamlObject } from './smd-fixture.js'

// structured-merge-diff v6.4.2 structs, granular and atomic maps, scalars: merge/leaf_test.go
// TestUpdateLeaf, merge/nested_test.go TestUpdateNestedType, merge/field_level_overrides_test.go
// TestFieldLevelOverrides, replayed as MAP merges (smd-fixture.ts). Left out:
// - leaf_test.go "apply_twice_remove", "apply_twice_remove_different_version", "apply_remove_empty_set"
//   (the re-apply removes what the manager applied before: managed-fields pruning) and
//   "update_remove_empty_set" (its last operation is an Update, which replaces the object: it checks
//   managed fields only);
// - nested_test.go: all but "struct_apply_update_took_over" (14 rows: each re-apply drops fields the
//   manager applied before, and the pruning removes them);
// - field_level_overrides_test.go "test_override_unspecified_map_with_atomic" and
//   "test_override_associative_list_with_atomic" (their outcome is a conflict between two appliers).
// An operation's APIVersion is left out: SameVersionParser gives every version the one schema.

// leafFieldsParser
const leafFields: JSONSchemaProps = {
  type: 'object',
  properties: { numeric: { type: 'number' }, string: { type: 'string' }, bool: { type: 'boolean' } },
}

const conflictNote =
  'the Apply before the ForceApply expects a conflict on "string" and changes nothing: left out, MAP has no conflicts'

const updateLeaf: OpsRow[] = [
  {
    name: 'apply_twice',
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Apply', 'default', 'numeric: 2\nstring: "string"\nbool: false'],
    ],
    object: 'numeric: 2\nstring: "string"\nbool: false',
  },
  {
    name: 'apply_twice_different_versions',
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Apply', 'default', 'numeric: 2\nstring: "string"\nbool: false'], // APIVersion v2
    ],
    object: 'numeric: 2\nstring: "string"\nbool: false',
  },
  {
    name: 'apply_update_apply_no_conflict',
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Update', 'controller', 'numeric: 1\nstring: "string"\nbool: true'],
      ['Apply', 'default', 'numeric: 2\nstring: "string"'],
    ],
    object: 'numeric: 2\nstring: "string"\nbool: true',
  },
  {
    name: 'apply_update_apply_no_conflict_different_version',
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Update', 'controller', 'numeric: 1\nstring: "string"\nbool: true'], // APIVersion v2
      ['Apply', 'default', 'numeric: 2\nstring: "string"'],
    ],
    object: 'numeric: 2\nstring: "string"\nbool: true',
  },
  {
    name: 'apply_update_apply_with_conflict',
    note: conflictNote,
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Update', 'controller', 'numeric: 1\nstring: "controller string"\nbool: true'],
      ['ForceApply', 'default', 'numeric: 2\nstring: "user string"'],
    ],
    object: 'numeric: 2\nstring: "user string"\nbool: true',
  },
  {
    name: 'apply_update_apply_with_conflict_across_version',
    note: conflictNote,
    ops: [
      ['Apply', 'default', 'numeric: 1\nstring: "string"'],
      ['Update', 'controller', 'numeric: 1\nstring: "controller string"\nbool: true'], // APIVersion v2
      ['ForceApply', 'default', 'numeric: 2\nstring: "user string"'],
    ],
    object: 'numeric: 2\nstring: "user string"\nbool: true',
  },
  {
    name: 'update_apply_omits',
    note: 'the re-apply drops numeric, which the controller took over: nothing is pruned; the empty config is null',
    ops: [
      ['Apply', 'default', 'numeric: 2'],
      ['Update', 'controller', 'numeric: 1'],
      ['Apply', 'default', ''],
    ],
    object: 'numeric: 1',
  },
]

// nestedTypeParser (its `struct` field, the one the transcribed row uses, and the others' shapes)
const stringSet: JSONSchemaProps = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' }
const stringMap: JSONSchemaProps = { type: 'object', additionalProperties: { type: 'string' } }
const nestedType: JSONSchemaProps = {
  type: 'object',
  properties: {
    listOfLists: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string' }, value: stringSet } },
    },
    listOfMaps: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string' }, value: stringMap } },
    },
    mapOfLists: { type: 'object', additionalProperties: stringSet },
    mapOfMaps: { type: 'object', additionalProperties: stringMap },
    struct: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'number' } } },
  },
}

const updateNestedType: OpsRow[] = [
  {
    name: 'struct_apply_update_took_over',
    note: 'the re-apply drops struct.name, which the controller took over: nothing is pruned; `struct:` is null',
    ops: [
      ['Apply', 'default', 'struct:\n  name: a'],
      ['Update', 'controller', 'struct:\n  name: b\n  value: 1'],
      ['Apply', 'default', 'struct:'],
    ],
    object: 'struct:\n  name: b\n  value: 1',
  },
]

// overrideStructTypeParser: a reference's elementRelationship override is, in an OpenAPI schema, the
// referring field's x-kubernetes-map-type (schemaconv makeOpenAPIRef) or list type
const nameValue = { name: { type: 'string' }, value: { type: 'number' } } as const
const overrideStructType: JSONSchemaProps = {
  type: 'object',
  properties: {
    associativeListReference: {
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
      items: { type: 'object', properties: nameValue, 'x-kubernetes-map-type': 'atomic' },
    },
    // an inline atomic list overridden as associative: a set
    separableInlineList: { type: 'array', items: { type: 'number' }, 'x-kubernetes-list-type': 'set' },
    // atomicMap referred to as separable
    separableMapReference: { type: 'object', properties: nameValue, 'x-kubernetes-map-type': 'granular' },
    // unspecifiedMap referred to as atomic
    atomicMapReference: { type: 'object', properties: nameValue, 'x-kubernetes-map-type': 'atomic' },
  },
}

const fieldLevelOverrides: OpsRow[] = [
  {
    name: 'test_override_atomic_map_with_separable',
    ops: [
      ['Apply', 'apply_one', 'separableMapReference:\n  name: a'],
      ['Apply', 'apply_two', 'separableMapReference:\n  value: 2'],
    ],
    object: 'separableMapReference:\n  name: a\n  value: 2',
  },
  {
    name: 'test_override_inline_atomic_list_with_associative',
    ops: [
      ['Apply', 'apply_one', 'separableInlineList:\n- 1'],
      ['Apply', 'apply_two', 'separableInlineList:\n- 2'],
    ],
    object: 'separableInlineList:\n- 1\n- 2',
  },
]

const check = (schema: JSONSchemaProps) => (_: string, row: OpsRow) =>
  expect(runOps(row.ops, schema)).toStrictEqual(yamlObject(row.object))

describe('structured-merge-diff v6.4.2 merge/leaf_test.go TestUpdateLeaf', () => {
  it.each(updateLeaf.map((r) => [r.name, r] as const))('%s', check(leafFields))
})

describe('structured-merge-diff v6.4.2 merge/nested_test.go TestUpdateNestedType', () => {
  it.each(updateNestedType.map((r) => [r.name, r] as const))('%s', check(nestedType))
})

describe('structured-merge-diff v6.4.2 merge/field_level_overrides_test.go TestFieldLevelOverrides', () => {
  it.each(fieldLevelOverrides.map((r) => [r.name, r] as const))('%s', check(overrideStructType))
})
