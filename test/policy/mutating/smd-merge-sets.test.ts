import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../../src/kube/schema/structural.js'
import { type OpsRow, runOps, yamlObject } from './smd-fixture.js'

// structured-merge-diff v6.4.2 merge/set_test.go TestUpdateSet and merge/duplicates_test.go
// TestDuplicates "sets/merging/*": sets (`elementRelationship: associative` without keys, kelp's
// `x-kubernetes-list-type: set`) merged by successive applies, replayed as MAP merges (smd-fixture.ts).
// Left out: set_test.go "apply_twice_remove", "apply_twice_remove_across_versions" (the re-apply
// removes what the manager applied before: managed-fields pruning, not part of typed.Merge);
// duplicates_test.go "sets/ownership/*" (they check managed fields only). The APIVersion of an
// operation is left out: the fixture's SameVersionParser gives every version the one schema.

// setFieldsParser
const setSchema: JSONSchemaProps = {
  type: 'object',
  properties: { list: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } },
}

const updateSet: OpsRow[] = [
  {
    name: 'apply_twice',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- c'],
      ['Apply', 'default', 'list:\n- a\n- b\n- c\n- d'],
    ],
    object: 'list:\n- a\n- b\n- c\n- d',
  },
  {
    name: 'apply_update_apply_no_overlap',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- c'],
      ['Update', 'controller', 'list:\n- a\n- b\n- c\n- d'],
      ['Apply', 'default', 'list:\n- a\n- aprime\n- c\n- cprime'],
    ],
    object: 'list:\n- a\n- b\n- aprime\n- c\n- d\n- cprime',
  },
  {
    name: 'apply_update_apply_no_overlap_and_different_version',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- c'],
      ['Update', 'controller', 'list:\n- a\n- b\n- c\n- d'], // APIVersion v2
      ['Apply', 'default', 'list:\n- a\n- aprime\n- c\n- cprime'],
    ],
    object: 'list:\n- a\n- b\n- aprime\n- c\n- d\n- cprime',
  },
  {
    name: 'apply_update_apply_with_overlap',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- c'],
      ['Update', 'controller', 'list:\n- a\n- b\n- c\n- d'],
      ['Apply', 'default', 'list:\n- a\n- b\n- c'],
    ],
    object: 'list:\n- a\n- b\n- c\n- d',
  },
  {
    name: 'apply_update_apply_with_overlap_and_different_version',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- c'],
      ['Update', 'controller', 'list:\n- a\n- b\n- c\n- d'], // APIVersion v2
      ['Apply', 'default', 'list:\n- a\n- b\n- c'],
    ],
    object: 'list:\n- a\n- b\n- c\n- d',
  },
  {
    name: 'apply_twice_reorder',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- b\n- c\n- d'],
      ['Apply', 'default', 'list:\n- a\n- d\n- c\n- b'],
    ],
    object: 'list:\n- a\n- d\n- c\n- b',
  },
  {
    name: 'apply_update_apply_reorder',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- b\n- c\n- d'],
      ['Update', 'controller', 'list:\n- a\n- d\n- c\n- b'],
      ['Apply', 'default', 'list:\n- a\n- b\n- c\n- d'],
    ],
    object: 'list:\n- a\n- b\n- c\n- d',
  },
  {
    name: 'apply_update_apply_reorder_across_versions',
    ops: [
      ['Apply', 'default', 'list:\n- a\n- b\n- c\n- d'],
      ['Update', 'controller', 'list:\n- a\n- d\n- c\n- b'],
      ['Apply', 'default', 'list:\n- a\n- b\n- c\n- d'], // APIVersion v2
    ],
    object: 'list:\n- a\n- b\n- c\n- d',
  },
]

// duplicatesParser (its `set` field; `list` is in smd-merge-assoc-lists.test.ts)
const duplicatesSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    unrelated: { type: 'number' },
    set: { type: 'array', items: { type: 'number' }, 'x-kubernetes-list-type': 'set' },
  },
}

const duplicateSets: OpsRow[] = [
  {
    name: 'sets/merging/remove_duplicate',
    note: 'the Apply before the ForceApply expects a conflict (the updater owns 1) and changes nothing: left out, MAP has no conflicts',
    ops: [
      ['Update', 'updater', 'set: [1, 1, 3, 4]'],
      ['ForceApply', 'applier', 'set: [1]'],
    ],
    object: 'set: [1, 3, 4]',
  },
  {
    name: 'sets/merging/ignore_duplicate',
    ops: [
      ['Update', 'updater', 'set: [1, 1, 3, 4]'],
      ['Apply', 'applier', 'set: [5]'],
    ],
    object: 'set: [1, 1, 3, 4, 5]',
  },
]

describe('structured-merge-diff v6.4.2 merge/set_test.go TestUpdateSet', () => {
  it.each(updateSet.map((r) => [r.name, r] as const))('%s', (_, row) => {
    expect(runOps(row.ops, setSchema)).toStrictEqual(yamlObject(row.object))
  })
})

describe('structured-merge-diff v6.4.2 merge/duplicates_test.go TestDuplicates (sets)', () => {
  it.each(duplicateSets.map((r) => [r.name, r] as const))('%s', (_, row) => {
    expect(runOps(row.ops, duplicatesSchema)).toStrictEqual(yamlObject(row.object))
  })
})
