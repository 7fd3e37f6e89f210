import { describe, expect, it } from 'vitest'
import { coerce } from '../../src/crd/structural/coerce.js'
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from '../../src/crd/structural/defaulting.js'
import { validateListSetsAndMaps } from '../../src/crd/structural/listtype.js'
import { prune } from '../../src/crd/structural/pruning.js'
import type { JSONSchemaProps } from '../../src/crd/structural/schema.js'
import { FieldPath } from '../../src/kube/field.js'
import { COERCE, DEFAULT, LISTTYPE, PRUNE, PRUNE_NULLS } from './structural-go-fixtures.js'

// The table-driven Go tests of apiextensions-apiserver pkg/apiserver/schema, run case by case over
// the transcribed tables of structural-go-fixtures.ts.

const schemaOf = (s: unknown) => (s ?? undefined) as JSONSchemaProps | undefined

describe('pruning/algorithm_test.go TestPrune', () => {
  for (const c of PRUNE) {
    it(c.name, () => {
      const obj = JSON.parse(c.json)
      const pruned = prune(
        obj,
        schemaOf('schema' in c ? c.schema : undefined),
        'isResourceRoot' in c && c.isResourceRoot === true,
      )
      expect(obj).toEqual(JSON.parse(c.expectedObject))
      expect(pruned).toEqual('expectedPruned' in c ? c.expectedPruned : [])
    })
  }
})

describe('defaulting/algorithm_test.go TestDefault', () => {
  for (const c of DEFAULT) {
    it(c.name, () => {
      const obj = JSON.parse(c.json)
      applyDefaults(obj, schemaOf('schema' in c ? c.schema : undefined))
      expect(obj).toEqual(JSON.parse(c.expected))
    })
  }
})

describe('defaulting/prunenulls_test.go TestPruneNonNullableNullsWithoutDefaults', () => {
  for (const c of PRUNE_NULLS) {
    it(c.name, () => {
      const obj = JSON.parse(c.json)
      pruneNonNullableNullsWithoutDefaults(obj, schemaOf('schema' in c ? c.schema : undefined))
      expect(obj).toEqual(JSON.parse(c.expected))
    })
  }
})

describe('listtype/validation_test.go TestValidateListSetsAndMaps', () => {
  for (const c of LISTTYPE) {
    it(c.name, () => {
      const obj = 'obj' in c ? (c.obj as Record<string, unknown>) : undefined
      const errs = validateListSetsAndMaps(FieldPath.of('root'), schemaOf('schema' in c ? c.schema : undefined), obj)
      const got = errs.map((e) => `${e.type} ${e.field}`).sort()
      const want = ('errors' in c ? c.errors : [])
        .map((m) => `${m.type === 'duplicate' ? 'FieldValueDuplicate' : 'FieldValueInvalid'} ${m.path}`)
        .sort()
      expect(got).toEqual(want)
    })
  }
})

describe('objectmeta/algorithm_test.go TestCoerce', () => {
  for (const c of COERCE) {
    it(c.name, () => {
      const obj = JSON.parse(c.json)
      const r = coerce(
        undefined,
        obj,
        schemaOf('schema' in c ? c.schema : undefined),
        'includeRoot' in c && c.includeRoot === true,
        {
          dropInvalidFields: 'dropInvalidFields' in c && c.dropInvalidFields === true,
          returnUnknownFieldPaths: true,
        },
      )
      expect(r.error !== undefined).toBe('expectedError' in c && c.expectedError === true)
      expect(obj).toEqual(JSON.parse(c.expected))
      expect(r.unknownFields).toEqual('expectedUnknownFields' in c ? c.expectedUnknownFields : [])
    })
  }
})
