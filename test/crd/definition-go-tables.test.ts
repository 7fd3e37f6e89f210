import { describe, expect, it } from 'vitest'
import { validateCustomResourceDefinitionValidation } from '../../src/crd/definition/custom-resource-validation.js'
import { validateInternalCustomResourceDefinition } from '../../src/crd/definition/index.js'
import { ErrorType, FieldPath } from '../../src/kube/field.js'
import { compare, crdFromGo, type Match, validationFromGo, withWebhookDefaults } from './definition-go.js'
import {
  testSelectableFields,
  testValidateCustomResourceDefinition,
  testValidateCustomResourceDefinitionValidation,
} from './definition-go-tables.js'

// The tables of k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation_test.go,
// run against kelp with the Go tests' matching rule (type and path, each error matched once). The
// errors that only CEL compilation produces (rule compile errors, costs, oldSelf checks) belong to
// the CEL hook, which is absent here: those expectations are set aside and the rest must match
// exactly, so the gating of the hook is tested by the absence of unexpected errors.

/** An error only the CEL rule validator (hook) reports. */
function fromCel(m: Match): boolean {
  if (/\.x-kubernetes-validations\[\d+\]\.(rule|messageExpression|optionalOldSelf)$/.test(m.field))
    return m.type === ErrorType.Invalid || m.type === ErrorType.Forbidden
  if (m.field.endsWith('.x-kubernetes-validations')) return m.type === ErrorType.Internal
  // the cost total of the whole schema
  return m.field.endsWith('openAPIV3Schema') && m.type === ErrorType.Forbidden
}

const S = 'spec.validation.openAPIV3Schema'

/**
 * Expectations the defaults hook (DefaultValueValidator: OpenAPI value validation and CEL rules of
 * default values) reports, by case: set aside like the CEL ones.
 */
const FROM_DEFAULTS_HOOK: Record<string, (m: Match) => boolean> = {
  // type mismatch and pattern of a default
  'invalid defaults with enabled feature gate, structural schema': (m) =>
    m.field === `${S}.properties[c].default.foo` || m.field === `${S}.properties[d].default.bad`,
  // rules evaluated on defaults
  'invalid default with x-kubernetes-validations': (m) => m.field.endsWith('.default'),
  // enum and maxLength constraints on defaults
  'embedded metadata defaults': (m) => m.type === ErrorType.NotSupported,
}

const kelpChecks = (name: string, m: Match) => !fromCel(m) && !(FROM_DEFAULTS_HOOK[name]?.(m) ?? false)

describe('validation_test.go TestValidateCustomResourceDefinition', () => {
  for (const tc of testValidateCustomResourceDefinition) {
    it(tc.name, () => {
      const errs = validateInternalCustomResourceDefinition(crdFromGo(withWebhookDefaults(tc.resource)))
      const expected = (tc.errors ?? []).filter((m) => kelpChecks(tc.name, m))
      expect(compare(expected, errs)).toEqual({ missing: [], unexpected: [] })
    })
  }
})

describe('validation_test.go TestSelectableFields', () => {
  for (const tc of testSelectableFields) {
    it(tc.name, () => {
      const errs = validateInternalCustomResourceDefinition(crdFromGo(withWebhookDefaults(tc.resource)))
      expect(compare(tc.errors ?? [], errs)).toEqual({ missing: [], unexpected: [] })
    })
  }
})

describe('validation_test.go TestValidateCustomResourceDefinitionValidation', () => {
  for (const tc of testValidateCustomResourceDefinitionValidation) {
    it(tc.name, () => {
      const o = tc.opts ?? {}
      const errs = validateCustomResourceDefinitionValidation(
        validationFromGo(tc.input),
        tc.statusEnabled === true,
        {
          allowDefaults: o.allowDefaults === true,
          requireValidPropertyType: o.requireValidPropertyType === true,
          requireStructuralSchema: o.requireStructuralSchema === true,
          requirePrunedDefaults: o.requirePrunedDefaults === true,
          requireAtomicSetType: o.requireAtomicSetType === true,
          requireMapListKeysMapSetValidation: o.requireMapListKeysMapSetValidation === true,
          suppressPerExpressionCost: false,
        },
        {},
        FieldPath.of('spec', 'validation'),
      )
      const expected = (tc.expectedErrors ?? []).filter((m) => kelpChecks(tc.name, m))
      expect(compare(expected, errs)).toEqual({ missing: [], unexpected: [] })
    })
  }
})
