import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../../src/kube/schema/structural.js'
import { SmdError } from '../../../src/policy/mutating/smd.js'
import { type OpsRow, runOps, yamlObject } from './smd-fixture.js'

// structured-merge-diff v6.4.2 merge/default_keys_test.go and merge/duplicates_test.go "list/merge/*":
// associative lists with keys (kelp's `x-kubernetes-list-type: map` with `x-kubernetes-list-map-keys`),
// multiple keys, key fields with defaults (the schema's `default`), and live lists holding duplicate
// keys (the live object is typed with AllowDuplicates), replayed as MAP merges (smd-fixture.ts).
// Left out: default_keys_test.go "apply_missing_defaulted_key_with_conflict" (its outcome is a
// conflict between two appliers); duplicates_test.go "list/ownership/*" (managed fields only);
// key_test.go TestUpdateAssociativeLists "removing_obsolete_applied_structs" (the re-apply removes the
// item the manager applied before: managed-fields pruning).

// portListParser: the default of key "protocol" is "TCP"
const portList: JSONSchemaProps = {
  type: 'object',
  properties: {
    containerPorts: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      items: {
        type: 'object',
        properties: {
          port: { type: 'number' },
          protocol: { type: 'string', default: 'TCP' },
          name: { type: 'string' },
        },
      },
    },
  },
}

const defaultKeysFlat: OpsRow[] = [
  {
    name: 'apply_missing_defaulted_key_A',
    ops: [['Apply', 'default', 'containerPorts:\n- port: 80']],
    object: 'containerPorts:\n- port: 80',
  },
  {
    name: 'apply_missing_defaulted_key_B',
    ops: [['Apply', 'default', 'containerPorts:\n- port: 80\n- port: 80\n  protocol: UDP']],
    object: 'containerPorts:\n- port: 80\n- port: 80\n  protocol: UDP',
  },
  {
    name: 'apply_missing_undefaulted_defaulted_key',
    ops: [['Apply', 'default', 'containerPorts:\n- protocol: TCP\n  name: A']],
    object: 'containerPorts:\n- protocol: TCP\n  name: A',
  },
]

// the Apply fails (the Go test asserts only that)
const defaultKeysFlatErrors: OpsRow[] = [
  {
    name: 'apply_missing_defaulted_key_ambiguous_A',
    ops: [['Apply', 'default', 'containerPorts:\n- port: 80\n- port: 80']],
    object: '',
  },
  {
    name: 'apply_missing_defaulted_key_ambiguous_B',
    ops: [['Apply', 'default', 'containerPorts:\n- port: 80\n- port: 80\n  protocol: TCP']],
    object: '',
  },
]

// bookParser: defaults chapter 1, section "A", page 2.0, line 3
const book: JSONSchemaProps = {
  type: 'object',
  properties: {
    book: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['chapter', 'section'],
      items: {
        type: 'object',
        properties: {
          chapter: { type: 'number', default: 1 },
          section: { type: 'string', default: 'A' },
          sentences: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['page', 'line'],
            items: {
              type: 'object',
              properties: {
                page: { type: 'number', default: 2.0 },
                line: { type: 'number', default: 3 },
                text: { type: 'string' },
              },
            },
          },
        },
      },
    },
  },
}

const defaultKeysNested: OpsRow[] = [
  {
    name: 'apply_missing_every_key_nested',
    ops: [['Apply', 'default', 'book:\n- sentences:\n  - text: blah']],
    object: 'book:\n- sentences:\n  - text: blah',
  },
  {
    name: 'apply_integer_key_with_float_default',
    ops: [
      ['Apply', 'default', 'book:\n- sentences:\n  - text: blah'],
      ['Apply', 'default', 'book:\n- sentences:\n  - text: blah\n    page: 2'],
    ],
    object: 'book:\n- sentences:\n  - text: blah\n    page: 2',
  },
]

// duplicatesParser (its `list` field and `unrelated`)
const duplicates: JSONSchemaProps = {
  type: 'object',
  properties: {
    list: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, value1: { type: 'number' }, value2: { type: 'number' } },
      },
    },
    unrelated: { type: 'number' },
    set: { type: 'array', items: { type: 'number' }, 'x-kubernetes-list-type': 'set' },
  },
}

const dupList = 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3'
const conflictNote =
  'the Apply before the ForceApply expects a conflict (the updater owns item a) and changes nothing: left out, MAP has no conflicts'

const duplicateLists: OpsRow[] = [
  {
    name: 'list/merge/unrelated_with_duplicated_items',
    ops: [
      ['Update', 'updater', dupList],
      ['ForceApply', 'applier', 'unrelated: 5'],
    ],
    object: `${dupList}\nunrelated: 5`,
  },
  {
    name: 'list/merge/change_duplicated_item',
    note: conflictNote,
    ops: [
      ['Update', 'updater', dupList],
      ['ForceApply', 'applier', 'list:\n- name: a\n  value1: 3'],
    ],
    object: 'list:\n- name: a\n  value1: 3\n- name: b\n  value1: 3',
  },
  {
    name: 'list/merge/unchanged_duplicated_item',
    note: conflictNote,
    ops: [
      ['Update', 'updater', dupList],
      ['ForceApply', 'applier', 'list:\n- name: a\n  value1: 3'],
    ],
    object: 'list:\n- name: a\n  value1: 3\n- name: b\n  value1: 3',
  },
  {
    name: 'list/merge/change_non_duplicated_item',
    ops: [
      ['Update', 'updater', dupList],
      ['ForceApply', 'applier', 'list:\n- name: b\n  value1: 4'],
    ],
    object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 4',
  },
  {
    name: 'list/merge/apply_update_duplicates_apply_without',
    note: 'the re-apply drops item a, which the updater took over by duplicating it: nothing is pruned',
    ops: [
      ['Apply', 'applier', 'list:\n- name: a\n  value1: 1\n- name: b\n  value1: 3'],
      ['Update', 'updater', dupList],
      ['Apply', 'applier', 'list:\n- name: b\n  value1: 3'],
    ],
    object: dupList,
  },
]

const check = (schema: JSONSchemaProps) => (_: string, row: OpsRow) =>
  expect(runOps(row.ops, schema)).toStrictEqual(yamlObject(row.object))

describe('structured-merge-diff v6.4.2 merge/default_keys_test.go', () => {
  describe('TestDefaultKeysFlat', () => {
    it.each(defaultKeysFlat.map((r) => [r.name, r] as const))('%s', check(portList))
  })
  describe('TestDefaultKeysFlatErrors', () => {
    it.each(defaultKeysFlatErrors.map((r) => [r.name, r] as const))('%s', (_, row) => {
      expect(() => runOps(row.ops, portList)).toThrow(SmdError)
    })
  })
  describe('TestDefaultKeysNested', () => {
    it.each(defaultKeysNested.map((r) => [r.name, r] as const))('%s', check(book))
  })
})

describe('structured-merge-diff v6.4.2 merge/duplicates_test.go TestDuplicates (associative lists)', () => {
  it.each(duplicateLists.map((r) => [r.name, r] as const))('%s', check(duplicates))
})
