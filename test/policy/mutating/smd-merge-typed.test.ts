import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../../src/kube/schema/structural.js'
import type { JSONValue } from '../../../src/policy/mutating/jsonpatch.js'
import { mergeTyped } from '../../../src/policy/mutating/smd.js'

// structured-merge-diff v6.4.2 (the version Kubernetes 1.37 pins) typed/merge_test.go TestMerge: every
// case and every (lhs, rhs, out) triplet, in the Go order. MAP's ApplyConfiguration is
// liveObjTyped.Merge(patchObjTyped) (apiserver mutating/patch/smd.go ApplyStructuredMergeDiff), which is
// what these triplets test: `lhs.Merge(rhs)` must equal `out` (value.Equals: lists in order, maps by key).
// Each Go YAML schema is written as the OpenAPI schema kube-openapi's schemaconv turns into it:
// `scalar: numeric` is `type: number`, an `associative` list of scalars `x-kubernetes-list-type: set`,
// one with keys `map` with `x-kubernetes-list-map-keys`, and `__untyped_atomic_` (untyped scalar,
// atomic list, atomic map) a type-less schema with `x-kubernetes-map-type: atomic`.

type Triplet = readonly [lhs: string, rhs: string, out: string]
type Case = { name: string; schema: JSONSchemaProps; triplets: readonly Triplet[] }

const untypedAtomic: JSONSchemaProps = { 'x-kubernetes-map-type': 'atomic' }

const cases: Case[] = [
  {
    name: 'simple pair',
    schema: { type: 'object', properties: { key: { type: 'string' }, value: untypedAtomic } },
    triplets: [
      ['{"key":"foo","value":{}}', '{"key":"foo","value":1}', '{"key":"foo","value":1}'],
      ['{"key":"foo","value":{}}', '{"key":"foo","value":1}', '{"key":"foo","value":1}'],
      ['{"key":"foo","value":1}', '{"key":"foo","value":{}}', '{"key":"foo","value":{}}'],
      ['{"key":"foo","value":null}', '{"key":"foo","value":{}}', '{"key":"foo","value":{}}'],
      ['{"key":"foo"}', '{"value":true}', '{"key":"foo","value":true}'],
    ],
  },
  {
    name: 'null/empty map',
    schema: { type: 'object', properties: { inner: { type: 'object', additionalProperties: untypedAtomic } } },
    triplets: [
      ['{}', '{"inner":{}}', '{"inner":{}}'],
      ['{}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
      ['{"inner":{}}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":{}}', '{"inner":{}}', '{"inner":{}}'],
    ],
  },
  {
    name: 'null/empty struct',
    schema: { type: 'object', properties: { inner: { type: 'object', properties: { value: untypedAtomic } } } },
    triplets: [
      ['{}', '{"inner":{}}', '{"inner":{}}'],
      ['{}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
      ['{"inner":{}}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":{}}', '{"inner":{}}', '{"inner":{}}'],
    ],
  },
  {
    name: 'null/empty list',
    schema: {
      type: 'object',
      properties: { inner: { type: 'array', items: untypedAtomic, 'x-kubernetes-list-type': 'atomic' } },
    },
    triplets: [
      ['{}', '{"inner":[]}', '{"inner":[]}'],
      ['{}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":null}', '{"inner":[]}', '{"inner":[]}'],
      ['{"inner":[]}', '{"inner":null}', '{"inner":null}'],
      ['{"inner":[]}', '{"inner":[]}', '{"inner":[]}'],
    ],
  },
  {
    name: 'struct grab bag',
    schema: {
      type: 'object',
      properties: {
        numeric: { type: 'number' },
        string: { type: 'string' },
        bool: { type: 'boolean' },
        setStr: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        setBool: { type: 'array', items: { type: 'boolean' }, 'x-kubernetes-list-type': 'set' },
        setNumeric: { type: 'array', items: { type: 'number' }, 'x-kubernetes-list-type': 'set' },
      },
    },
    triplets: [
      ['{"numeric":1}', '{"numeric":3.14159}', '{"numeric":3.14159}'],
      ['{"numeric":3.14159}', '{"numeric":1}', '{"numeric":1}'],
      ['{"string":"aoeu"}', '{"bool":true}', '{"string":"aoeu","bool":true}'],
      ['{"setStr":["a","b","c"]}', '{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}'],
      ['{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
      ['{"setStr":["a","b","c"]}', '{"setStr":[]}', '{"setStr":["a","b","c"]}'],
      ['{"setStr":[]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
      ['{"setStr":["a","b"]}', '{"setStr":["b","a"]}', '{"setStr":["b","a"]}'],
      ['{"setStr":["a","b","c"]}', '{"setStr":["d","e","f"]}', '{"setStr":["a","b","c","d","e","f"]}'],
      ['{"setStr":["a","b","c"]}', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","b","c","d","e","f"]}'],
      ['{"setStr":["a","b","c","g","f"]}', '{"setStr":["c","d","e","f"]}', '{"setStr":["a","b","c","g","d","e","f"]}'],
      [
        '{"setStr":["a","b","c"]}',
        '{"setStr":["d","e","f","x","y","z"]}',
        '{"setStr":["a","b","c","d","e","f","x","y","z"]}',
      ],
      ['{"setStr":["c","d","e","f"]}', '{"setStr":["a","c","e"]}', '{"setStr":["a","c","d","e","f"]}'],
      [
        '{"setStr":["a","b","c","x","y","z"]}',
        '{"setStr":["d","e","f"]}',
        '{"setStr":["a","b","c","x","y","z","d","e","f"]}',
      ],
      [
        '{"setStr":["a","b","c","x","y","z"]}',
        '{"setStr":["d","e","f","x","y","z"]}',
        '{"setStr":["a","b","c","d","e","f","x","y","z"]}',
      ],
      ['{"setStr":["c","a","g","f"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
      ['{"setStr":["a","b","c","d"]}', '{"setStr":["d","e","f","a"]}', '{"setStr":["b","c","d","e","f","a"]}'],
      [
        '{"setStr":["c","d","e","f","g","h","i","j"]}',
        '{"setStr":["2","h","3","e","4","k","l"]}',
        '{"setStr":["c","d","f","g","2","h","i","j","3","e","4","k","l"]}',
      ],
      [
        '{"setStr":["a","b","c","d","e","f","g","h","i","j"]}',
        '{"setStr":["1","b","2","h","3","e","4","k","l"]}',
        '{"setStr":["a","1","b","c","d","f","g","2","h","i","j","3","e","4","k","l"]}',
      ],
      // We have a duplicate in LHS
      ['{"setStr":["a","b","b"]}', '{"setStr":["c"]}', '{"setStr":["a","b","b","c"]}'],
      // We have a duplicate in LHS.
      ['{"setStr":["a","b","b"]}', '{"setStr":["b"]}', '{"setStr":["a","b"]}'],
      // We have a duplicate in LHS.
      ['{"setStr":["a","b","b"]}', '{"setStr":["a"]}', '{"setStr":["a","b","b"]}'],
      // We have a duplicate in LHS.
      [
        '{"setStr":["a","b","c","d","e","c"]}',
        '{"setStr":["1","b","2","e","d"]}',
        '{"setStr":["a","1","b","c","2","e","c","d"]}',
      ],
      // We have a duplicate in LHS, also present in RHS, keep only one.
      [
        '{"setStr":["a","b","c","d","e","c"]}',
        '{"setStr":["1","b","2","c","e","d"]}',
        '{"setStr":["a","1","b","2","c","e","d"]}',
      ],
      // We have 2 duplicates in LHS, one is replaced.
      ['{"setStr":["a","a","b","b"]}', '{"setStr":["b","c","d"]}', '{"setStr":["a","a","b","c","d"]}'],
      // We have 2 duplicates in LHS, and nothing on the right
      ['{"setStr":["a","a","b","b"]}', '{"setStr":[]}', '{"setStr":["a","a","b","b"]}'],
      ['{"setBool":[true]}', '{"setBool":[false]}', '{"setBool":[true, false]}'],
      ['{"setNumeric":[1,2,3.14159]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
      ['{"setStr":["c","a","g","f","c","a"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
      ['{"setNumeric":[1,2,3.14159,1,2]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
      ['{"setBool":[true,false,true]}', '{"setBool":[false]}', '{"setBool":[true,false,true]}'],
      ['{"setBool":[true,false,true]}', '{"setBool":[true]}', '{"setBool":[true, false]}'],
    ],
  },
  {
    name: 'associative list',
    schema: {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['key', 'id'],
          items: {
            type: 'object',
            properties: {
              key: { type: 'string' },
              id: { type: 'number' },
              value: { type: 'object', additionalProperties: { type: 'string' } },
              bv: { type: 'boolean' },
              nv: { type: 'number' },
            },
          },
        },
        atomicList: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' },
      },
    },
    triplets: [
      [
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
      ],
      [
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
        '{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}',
        '{"list":[{"key":"a","id":1,"value":{"a":"a"}},{"key":"a","id":2,"value":{"a":"a"}}]}',
      ],
      [
        '{"list":[{"key":"a","id":1},{"key":"b","id":1}]}',
        '{"list":[{"key":"a","id":1},{"key":"a","id":2}]}',
        '{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":2}]}',
      ],
      [
        '{"list":[{"key":"b","id":2}]}',
        '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
        '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
      ],
      [
        '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
        '{"list":[{"key":"c","id":3},{"key":"b","id":2}]}',
        '{"list":[{"key":"a","id":1},{"key":"c","id":3},{"key":"b","id":2}]}',
      ],
      [
        '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
        '{"list":[{"key":"c","id":3},{"key":"a","id":1}]}',
        '{"list":[{"key":"b","id":2},{"key":"c","id":3},{"key":"a","id":1}]}',
      ],
      ['{"atomicList":["a","a","a"]}', '{"atomicList":null}', '{"atomicList":null}'],
      ['{"atomicList":["a","b","c"]}', '{"atomicList":[]}', '{"atomicList":[]}'],
      ['{"atomicList":["a","a","a"]}', '{"atomicList":["a","a"]}', '{"atomicList":["a","a"]}'],
      [
        '{"list":[{"key":"a","id":1,"bv":true},{"key":"b","id":2},{"key":"a","id":1,"bv":false,"nv":2}]}',
        '{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}',
        '{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}',
      ],
      [
        '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
        '{"list":[]}',
        '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
      ],
      [
        '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
        '{}',
        '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
      ],
    ],
  },
]

describe('structured-merge-diff v6.4.2 typed/merge_test.go TestMerge', () => {
  for (const c of cases)
    describe(c.name, () => {
      it.each(c.triplets.map((t, i) => [`${c.name}-valid-${i}`, t] as const))('%s', (_, [lhs, rhs, out]) => {
        const got = mergeTyped(JSON.parse(lhs) as JSONValue, JSON.parse(rhs) as JSONValue, c.schema)
        expect(got ?? null).toStrictEqual(JSON.parse(out))
      })
    })
})
