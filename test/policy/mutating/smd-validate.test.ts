import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../../src/kube/schema/structural.js'
import type { JSONValue } from '../../../src/policy/mutating/jsonpatch.js'
import { typeErrors } from '../../../src/policy/mutating/smd.js'

// structured-merge-diff v6.4.2 typed/validate_test.go TestValidate: every valid, invalid and duplicates
// object of its three cases. This is the typing smd.go gives the ApplyConfiguration before the merge
// (`typeConverter.ObjectToTyped(patch)`, which refuses duplicates, and the live object's, with
// typed.AllowDuplicates). The Go test asserts only that an invalid object fails (and that a duplicates
// object fails without AllowDuplicates and passes with it); so do these. Schemas as in
// smd-merge-typed.test.ts (the same Go YAML ones).

type Case = {
  name: string
  schema: JSONSchemaProps
  valid: readonly string[]
  invalid: readonly string[]
  duplicates?: readonly string[]
}

const untypedAtomic: JSONSchemaProps = { 'x-kubernetes-map-type': 'atomic' }

const cases: Case[] = [
  {
    name: 'simple pair',
    schema: { type: 'object', properties: { key: { type: 'string' }, value: untypedAtomic } },
    valid: [
      '{"key":"foo","value":1}',
      '{"key":"foo","value":{}}',
      '{"key":"foo","value":null}',
      '{"key":"foo"}',
      '{"key":"foo","value":true}',
      '{"key":null}',
    ],
    invalid: [
      '{"key":true,"value":1}',
      '{"key":1,"value":{}}',
      '{"key":false,"value":null}',
      '{"key":[1, 2]}',
      '{"key":{"foo":true}}',
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
    valid: [
      '{"numeric":null}',
      '{"numeric":1}',
      '{"numeric":3.14159}',
      '{"string":null}',
      '{"string":"aoeu"}',
      '{"bool":null}',
      '{"bool":true}',
      '{"bool":false}',
      '{"setStr":["a","b","c"]}',
      '{"setBool":[true,false]}',
      '{"setNumeric":[1,2,3,3.14159]}',
    ],
    invalid: [
      '{"numeric":["foo"]}',
      '{"numeric":{"a":1}}',
      '{"numeric":"foo"}',
      '{"numeric":true}',
      '{"string":1}',
      '{"string":3.5}',
      '{"string":true}',
      '{"string":{"a":1}}',
      '{"string":["foo"]}',
      '{"bool":1}',
      '{"bool":3.5}',
      '{"bool":"aoeu"}',
      '{"bool":{"a":1}}',
      '{"bool":["foo"]}',
      '{"setStr":[1]}',
      '{"setStr":[true]}',
      '{"setStr":[1.5]}',
      '{"setStr":[null]}',
      '{"setStr":[{}]}',
      '{"setStr":[[]]}',
      '{"setBool":[1]}',
      '{"setBool":[1.5]}',
      '{"setBool":[null]}',
      '{"setBool":[{}]}',
      '{"setBool":[[]]}',
      '{"setBool":["a"]}',
      '{"setNumeric":[null]}',
      '{"setNumeric":[true]}',
      '{"setNumeric":["a"]}',
      '{"setNumeric":[[]]}',
      '{"setNumeric":[{}]}',
    ],
    duplicates: ['{"setStr":["a","a"]}', '{"setBool":[true,false,true]}', '{"setNumeric":[1,2,3,3.14159,1]}'],
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
    valid: [
      '{"list":[]}',
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
      '{"list":[{"key":"a","id":1},{"key":"a","id":2},{"key":"b","id":1}]}',
      '{"atomicList":["a","a","a"]}',
      '{"list":[{"key":"x","value":{"a":"a"},"bv":true,"nv":3.14}]}',
    ],
    invalid: [
      '{"key":true,"value":1}',
      '{"list":{"key":true,"value":1}}',
      '{"list":true}',
      'true',
      '{"list":[{"key":true,"value":1}]}',
      '{"list":[{"key":[],"value":1}]}',
      '{"list":[{"key":{},"value":1}]}',
      '{"list":[{"key":1.5,"value":1}]}',
      '{"list":[{"key":1,"value":1}]}',
      '{"list":[{"key":null,"value":1}]}',
      '{"list":[{},{}]}',
      '{"list":[{},null]}',
      '{"list":[[]]}',
      '{"list":[null]}',
      '{"list":[{}]}',
      '{"list":[{"value":{"a":"a"},"bv":true,"nv":3.14}]}',
      '{"list":[{"key":"a","id":1,"value":{"a":1}}]}',
      '{"list":[{"key":"a","id":1,"value":{"a":"a"},"bv":"true","nv":3.14}]}',
      '{"list":[{"key":"a","id":1,"value":{"a":"a"},"bv":true,"nv":false}]}',
    ],
    duplicates: ['{"list":[{"key":"a","id":1},{"key":"a","id":1}]}'],
  },
]

const errorsOf = (c: Case, text: string, allowDuplicates = false) =>
  typeErrors(JSON.parse(text) as JSONValue, c.schema, allowDuplicates)

describe('structured-merge-diff v6.4.2 typed/validate_test.go TestValidate', () => {
  for (const c of cases)
    describe(c.name, () => {
      it.each(c.valid.map((v, i) => [`${c.name}-valid-${i}`, v] as const))('%s', (_, v) => {
        expect(errorsOf(c, v)).toEqual([])
      })
      it.each(c.invalid.map((v, i) => [`${c.name}-invalid-${i}`, v] as const))('%s', (_, v) => {
        expect(errorsOf(c, v)).not.toEqual([])
      })
      if (c.duplicates)
        it.each(c.duplicates.map((v, i) => [`${c.name}-duplicates-${i}`, v] as const))('%s', (_, v) => {
          expect(errorsOf(c, v)).not.toEqual([])
          expect(errorsOf(c, v, true)).toEqual([])
        })
    })
})
