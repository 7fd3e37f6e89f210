import { describe, expect, it } from 'vitest'
import { Validator } from '../../src/crd/validator.js'
import { RuntimeCELCostBudget } from '../../src/kube/environment.js'
import { errorString, FieldPath } from '../../src/kube/field.js'
import type { JSONSchemaProps } from '../../src/kube/schema/structural.js'

// CRD validation rules whose calls would build a value from a size the object carries: the rule
// ends with the per-call cost limit, reported in apiextensions-apiserver
// pkg/apiserver/schema/cel/validation.go's words (`'%v': no further validation rules will be run
// due to call cost exceeds limit for rule: %v`, err being cel-go's `operation cancelled: actual cost
// limit exceeded`), or with cel-go v0.29 genRange's error (`%v evaluating rule: %v`).

function validate(rule: string, props: Record<string, JSONSchemaProps>, obj: Record<string, unknown>): string[] {
  const schema: JSONSchemaProps = { type: 'object', properties: props, 'x-kubernetes-validations': [{ rule }] }
  const v = Validator.create(schema, true)
  if (v === undefined) throw new Error('no validator')
  return v.validate(FieldPath.of('spec'), obj, undefined, RuntimeCELCostBudget).errors.map(errorString)
}

describe('CRD rules over sizes the object carries', () => {
  it('lists.range(self.replicas) with a hostile replicas', () => {
    const rule = 'lists.range(self.replicas).all(i, i >= 0)'
    const props = { replicas: { type: 'integer', maximum: 5_000_000_000 } } as const
    expect(validate(rule, props, { replicas: 3037000500 })).toEqual([
      `spec: Invalid value: "object": lists.range: size 3037000500 exceeds maximum allowed (1000000) evaluating rule: ${rule}`,
    ])
    expect(validate(rule, props, { replicas: -1 })).toEqual([
      `spec: Invalid value: "object": lists.range: size must be non-negative, got -1 evaluating rule: ${rule}`,
    ])
    expect(validate(rule, props, { replicas: 1000 })).toEqual([])
  })
  it('a replacement that squares the size of a string field', () => {
    const rule = "self.s.replace('', self.s).size() > 0"
    const props = { s: { type: 'string', maxLength: 4000 } } as const
    expect(validate(rule, props, { s: 'x'.repeat(4000) })).toEqual([
      `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    ])
    expect(validate(rule, props, { s: 'x'.repeat(100) })).toEqual([])
  })
})
