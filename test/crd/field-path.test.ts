import { describe, expect, it } from 'vitest'
import { stepsPath, validFieldPath } from '../../src/crd/definition/valid-field-path.js'
import { FieldPath, pathString } from '../../src/kube/field.js'
import type { JSONSchemaProps } from '../../src/kube/schema/structural.js'

// Transcription of apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go
// TestValidateFieldPath (ValidFieldPath in validation.go). The structural schema `sts` is written as
// apiextensions v1 JSON; Go's `additionalProperties: &StructuralOrBool{Structural: ...}` is an
// `additionalProperties` schema.

const num: JSONSchemaProps = { type: 'number' }

const sts: JSONSchemaProps = {
  type: 'object',
  properties: {
    foo: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { subAdd: num },
      },
    },
    'white space': num,
    "'foo'bar": num,
    a: {
      type: 'object',
      properties: {
        "foo's": num,
        'test\x07': num, // Go "test\a"
        'bb[b': num,
        bbb: {
          type: 'object',
          properties: { c: num, '34': num },
        },
        'bbb.c': {
          type: 'object',
          properties: { "a-b.3'4": num },
        },
      },
    },
    list: {
      type: 'array',
      items: {
        type: 'object',
        properties: { a: num, "a-b.3'4": num },
      },
    },
  },
}

// path := field.NewPath("")
const path = FieldPath.of('')

interface Case {
  name: string
  fieldPath: string
  errDetail?: string
  validFieldPath?: FieldPath
}

// Go string literals are transcribed to the same runtime strings ("\\'" is backslash + quote).
const cases: Case[] = [
  { name: 'Valid .a', fieldPath: '.a', validFieldPath: path.child('a') },
  { name: "Valid 'foo'bar", fieldPath: "['\\'foo\\'bar']", validFieldPath: path.child("'foo'bar") },
  { name: "Invalid 'foo'bar", fieldPath: ".\\'foo\\'bar", errDetail: 'does not refer to a valid field' },
  { name: 'Invalid with whitespace', fieldPath: '. a', errDetail: 'does not refer to a valid field' },
  { name: 'Valid with whitespace inside field', fieldPath: '.white space' },
  { name: 'Valid with whitespace inside field', fieldPath: "['white space']" },
  { name: 'invalid dot annotation', fieldPath: '.a.bb[b', errDetail: 'does not refer to a valid field' },
  { name: 'valid with .', fieldPath: ".a['bbb.c']", validFieldPath: path.child('a', 'bbb.c') },
  { name: 'Unclosed ]', fieldPath: ".a['bbb.c'", errDetail: 'unexpected end of JSON path' },
  { name: 'Unexpected end of JSON path', fieldPath: '.', errDetail: 'unexpected end of JSON path' },
  { name: 'Valid map syntax .a.bbb', fieldPath: ".a['bbb.c']", validFieldPath: path.child('a').child('bbb.c') },
  { name: 'Valid map key', fieldPath: '.foo.subAdd', validFieldPath: path.child('foo').key('subAdd') },
  { name: 'Valid map key', fieldPath: ".foo['subAdd']", validFieldPath: path.child('foo').key('subAdd') },
  { name: 'Invalid', fieldPath: ".a.foo's" },
  { name: 'Escaping', fieldPath: ".a['foo\\'s']", validFieldPath: path.child('a').child("foo's") },
  { name: 'Escaping', fieldPath: ".a['test\\a']", validFieldPath: path.child('a').child('test\x07') },
  { name: 'Invalid map key', fieldPath: '.a.foo', errDetail: 'does not refer to a valid field' },
  { name: 'Malformed map key', fieldPath: '.a.bbb[0]', errDetail: 'expected single quoted string but got 0' },
  { name: 'Valid refer for name has number', fieldPath: '.a.bbb.34' },
  // errDetail: "does not refer to a valid field" is commented out in the Go case
  { name: 'Map syntax for special field names', fieldPath: ".a.bbb['34']" },
  { name: 'Valid .list', fieldPath: '.list', validFieldPath: path.child('list') },
  { name: 'Invalid list index', fieldPath: '.list[0]', errDetail: 'expected single quoted string but got 0' },
  { name: 'Invalid list reference', fieldPath: '.list. a', errDetail: 'does not refer to a valid field' },
  { name: 'Invalid .list.a', fieldPath: ".list['a']", errDetail: 'does not refer to a valid field' },
  { name: 'Missing leading dot', fieldPath: 'a', errDetail: 'expected [ or . but got: a' },
  { name: 'Nonexistent field', fieldPath: '.c', errDetail: 'does not refer to a valid field' },
  { name: 'Duplicate dots', fieldPath: '.a..b', errDetail: 'does not refer to a valid field' },
  { name: 'object of array', fieldPath: '.list.a-b.34', errDetail: 'does not refer to a valid field' },
]

describe('validation_test.go TestValidateFieldPath', () => {
  it('field.NewPath("") renders as Go does (an empty root name prints as "[]")', () => {
    // apimachinery field/path.go String(): a step with an empty name prints `[<index>]`
    expect(path.child('foo').key('subAdd').toString()).toBe('[].foo[subAdd]')
  })
  cases.forEach((tc, i) => {
    it(`#${i} ${tc.name}: ${JSON.stringify(tc.fieldPath)}`, () => {
      const r = validFieldPath(tc.fieldPath, sts)
      const err = r.ok ? undefined : r.error
      const errDetail = tc.errDetail ?? ''
      if (err === undefined) expect(errDetail, `expected err contains: ${errDetail} but get nil`).toBe('')
      else {
        expect(errDetail, `unexpected error: ${err}`).not.toBe('')
        expect(err).toContain(errDetail)
      }
      if (tc.validFieldPath !== undefined) {
        // tc.validFieldPath.String() == path.Child(validField.String()).String()
        const validField = r.ok ? stepsPath(r.steps) : undefined
        expect(path.child(pathString(validField)).toString()).toBe(tc.validFieldPath.toString())
      }
    })
  })
})
