import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../src/crd/definition/types.js'
import { stepsString, validFieldPath } from '../../src/crd/definition/valid-field-path.js'

// ValidFieldPath (pkg/apiserver/schema/cel/validation.go), with the cases of
// pkg/apis/apiextensions/validation/validation_test.go TestValidateFieldPath.

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    foo: { type: 'object', additionalProperties: { type: 'object', properties: { f1: { type: 'number' } } } },
    a: {
      type: 'object',
      properties: {
        bbb: { type: 'object', properties: { c: { type: 'number' }, '34': { type: 'number' } } },
        'bbb.c': { type: 'object', properties: { 'a-b34': { type: 'number' } } },
      },
    },
    list: {
      type: 'array',
      items: { type: 'object', properties: { a: { type: 'number' }, 'a-b.34': { type: 'number' } } },
    },
  },
}

// [name, fieldPath, error substring ('' when valid)]
const cases: [string, string, string][] = [
  ['Valid .a', '.a', ''],
  ['Valid .a.b', '.a.bbb', ''],
  ['Valid .foo.f1', '.foo.f1', ''],
  ['Invalid map syntax .a.b', ".a['bbb']", ''],
  ["Valid .a['bbb.c']", ".a['bbb.c']", ''],
  ["Valid .a['bbb.c'].a-b34", ".a['bbb.c'].a-b34", ''],
  ["Valid .a['bbb.c']['a-b34']", ".a['bbb.c']['a-b34']", ''],
  ['Valid .a.bbb.c', '.a.bbb.c', ''],
  ['Valid .a.bbb.34', ".a.bbb['34']", ''],
  ['Invalid map key', '.a.foo', 'does not refer to a valid field'],
  ['Malformed map key', '.a.bbb[0]', 'expected single quoted string but got 0'],
  ['number in field names', '.a.bbb.34', ''],
  ['Special field names', ".a.bbb['34']", ''],
  ['Valid .list', '.list', ''],
  ['Invalid .list[1]', '.list[1]', 'expected single quoted string but got 1'],
  ['Unsopported .list.a', '.list.a', 'does not refer to a valid field'],
  ["Unsupported .list['a-b.34']", ".list['a-b.34']", 'does not refer to a valid field'],
  ['Invalid .list.a-b.34', '.list.a-b.34', 'does not refer to a valid field'],
  ['Missing leading dot', 'a', 'expected [ or . but got: a'],
  ['Nonexistent field', '.c', 'does not refer to a valid field'],
  ['Duplicate dots', '.a..b', 'does not refer to a valid field'],
  ['Negative array index', '.list[-1]', 'expected single quoted string but got -1'],
  ['Floating-point array index', '.list[1.0]', 'expected single quoted string but got 1'],
]

describe('validation_test.go TestValidateFieldPath', () => {
  for (const [name, fieldPath, errMsg] of cases) {
    it(name, () => {
      const r = validFieldPath(fieldPath, schema)
      if (errMsg === '') expect(r.ok).toBe(true)
      else {
        expect(r.ok).toBe(false)
        if (!r.ok) expect(r.error).toContain(errMsg)
      }
    })
  }
})

describe('ValidFieldPath results (cel/validation.go)', () => {
  it('a map step is a key of the path, a quoted name is unescaped', () => {
    const r = validFieldPath(".foo['x\\'y'].f1", schema)
    expect(r.ok && stepsString(r.steps)).toBe("foo[x'y].f1")
    expect(r.ok && r.schema).toEqual({ type: 'number' })
  })
  it('an unknown escape is an invalid string literal', () => {
    const r = validFieldPath(".foo['\\q']", schema)
    expect(r.ok ? '' : r.error).toBe('invalid string literal: invalid escape char \\q')
  })
  it('of several unknown escapes, the last is reported (Go assigns err on each)', () => {
    const r = validFieldPath(".foo['\\q\\z']", schema)
    expect(r.ok ? '' : r.error).toBe('invalid string literal: invalid escape char \\z')
  })
  it('an empty properties map is nil in a structural schema: map keys are read from additionalProperties', () => {
    const s: JSONSchemaProps = { properties: { m: { properties: {}, additionalProperties: { type: 'string' } } } }
    const r = validFieldPath('.m.k', s)
    expect(r.ok && stepsString(r.steps)).toBe('m[k]')
  })
  it('array notation can be forbidden (selectableFields)', () => {
    const r = validFieldPath(".a['bbb']", schema, false)
    expect(r.ok ? '' : r.error).toBe('array notation is not allowed')
  })
  it('a path ending in a bracket is unexpected end', () => {
    const r = validFieldPath('.a[', schema)
    expect(r.ok ? '' : r.error).toBe('unexpected end of JSON path')
  })
})
