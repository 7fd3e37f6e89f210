import { describe, expect, it } from 'vitest'
import { Validator } from '../../../src/crd/validator.js'
import { RuntimeCELCostBudget } from '../../../src/kube/environment.js'
import { ErrorType, errorString, FieldPath } from '../../../src/kube/field.js'
import type { JSONSchemaProps, ValidationRule } from '../../../src/kube/schema/structural.js'

// Ports of the schema helpers of apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go
// (primitiveType, listType, objectType, mapType, withRule, …), building apiextensions v1
// JSONSchemaProps as plain JSON instead of schema.Structural, and the runners of
// TestValidationExpressions and TestValidationExpressionsAtSchemaLevels.

export type Schema = JSONSchemaProps

export function primitiveType(type: string, format = ''): Schema {
  return format.length > 0 ? { type, format } : { type }
}

export const integerType = primitiveType('integer')
export const int32Type = primitiveType('integer', 'int32')
export const int64Type = primitiveType('integer', 'int64')
export const numberType = primitiveType('number')
export const floatType = primitiveType('number', 'float')
export const doubleType = primitiveType('number', 'double')
export const stringType = primitiveType('string')
export const byteType = primitiveType('string', 'byte')
export const booleanType = primitiveType('boolean')
export const durationFormat = primitiveType('string', 'duration')
export const dateFormat = primitiveType('string', 'date')
export const dateTimeFormat = primitiveType('string', 'date-time')

export function arrayType(listType: string, keys: readonly string[] | undefined, items: Schema | undefined): Schema {
  const s: Record<string, unknown> = { type: 'array', 'x-kubernetes-list-type': listType }
  if (items !== undefined) s.items = items
  if (keys !== undefined && keys.length > 0 && listType === 'map') s['x-kubernetes-list-map-keys'] = keys
  return s as Schema
}
export const listType = (items: Schema | undefined): Schema => arrayType('atomic', undefined, items)
export const listTypePtr = listType
export const listSetType = (items: Schema | undefined): Schema => arrayType('set', undefined, items)
export const listMapType = (keys: readonly string[], items: Schema | undefined): Schema => arrayType('map', keys, items)
export const listMapTypePtr = listMapType

export function objectType(props: Record<string, Schema>): Schema {
  return { type: 'object', properties: props }
}
export const objectTypePtr = objectType

/** mapType: AdditionalProperties{Bool: true, Structural: valSchema}, i.e. `additionalProperties: valSchema`. */
export function mapType(valSchema: Schema | undefined): Schema {
  return { type: 'object', additionalProperties: valSchema ?? true }
}
export const mapTypePtr = mapType

export function intOrStringType(): Schema {
  return { 'x-kubernetes-int-or-string': true }
}

export function withRule(s: Schema, rule: string): Schema {
  return { ...s, 'x-kubernetes-validations': [{ rule }] }
}
export const withRulePtr = withRule
export const cloneWithRule = withRule

export function withRules(s: Schema, rules: readonly ValidationRule[]): Schema {
  return { ...s, 'x-kubernetes-validations': rules }
}

export function withDefault(dflt: unknown, s: Schema): Schema {
  return { ...s, default: dflt }
}

export function withNullable(nullable: boolean, s: Schema): Schema {
  return nullable ? { ...s, nullable: true } : { ...s }
}
export const withNullablePtr = withNullable

export function ValsEqualThemselvesAndDataLiteral(val1: string, val2: string, dataLiteral: string): string {
  return `${val1} == ${dataLiteral} && ${dataLiteral} == ${val1} && ${val1} == ${val2}`
}

export function objs(...vals: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  vals.forEach((v, i) => {
    out[`val${i + 1}`] = v
  })
  return out
}

export function schemas(...valSchemas: Schema[]): Schema {
  const props: Record<string, Schema> = {}
  valSchemas.forEach((s, i) => {
    props[`val${i + 1}`] = s
  })
  return objectType(props)
}

/** One case of TestValidationExpressions. */
export interface ExpressionsCase {
  readonly name: string
  readonly schema: Schema
  readonly obj: unknown
  readonly oldObj?: unknown
  readonly valid?: readonly string[]
  /** rule → string that the error message must contain */
  readonly errors?: Readonly<Record<string, string>>
  readonly costBudget?: number
  readonly isRoot?: boolean
  readonly expectSkipped?: boolean
  readonly expectedCost?: number
  /**
   * Expressions (valid or errors) that kelp cannot pass yet, each with the reason: they run as
   * `it.fails`, so they are reported and start failing the suite once fixed.
   */
  readonly knownFailures?: Readonly<Record<string, string>>
}

const root = () => FieldPath.of('root')

/** The t.Run body of TestValidationExpressions for one case: one test per valid rule and per error rule. */
export function expressionsCase(tt: ExpressionsCase): void {
  const costBudget = tt.costBudget === undefined || tt.costBudget === 0 ? RuntimeCELCostBudget : tt.costBudget
  const test = (rule: string) => (tt.knownFailures?.[rule] !== undefined ? it.fails : it)
  describe(tt.name, () => {
    for (const validRule of tt.valid ?? []) {
      test(validRule)(`${tt.name}: ${validRule}`, () => {
        const s = withRule(tt.schema, validRule)
        // validator(&s, &s, tt.isRoot, model.SchemaDeclType(&s, tt.isRoot), celconfig.PerCallLimit)
        const celValidator = Validator.build(s, tt.isRoot === true)
        expect(celValidator, 'expected non nil validator').toBeDefined()
        const { errors, remainingBudget } = celValidator!.validate(root(), tt.obj, tt.oldObj, costBudget)
        expect(errors.map(errorString), 'unexpected errors').toEqual([])
        if (tt.expectedCost !== undefined && tt.expectedCost !== 0) {
          expect(costBudget - remainingBudget, 'cost').toBe(tt.expectedCost)
          return
        }
        if (tt.expectSkipped === true) {
          // Skipped validations should have no cost.
          expect(remainingBudget, 'expected no cost expended for skipped validation').toBe(costBudget)
        }
      })
    }
    for (const [rule, expectErrToContain] of Object.entries(tt.errors ?? {})) {
      test(rule)(`${tt.name}: ${rule}`, () => {
        const s = withRule(tt.schema, rule)
        // NewValidator(&s, true, celconfig.PerCallLimit)
        const celValidator = Validator.create(s, true)
        expect(celValidator, 'expected non nil validator').toBeDefined()
        const { errors } = celValidator!.validate(root(), tt.obj, tt.oldObj, costBudget)
        expect(errors.length, 'expected validation errors but got none').toBeGreaterThan(0)
        for (const err of errors) {
          expect(err.type).toBe(ErrorType.Invalid)
          expect(errorString(err)).toContain(expectErrToContain)
        }
      })
    }
  })
}

/** One case of TestValidationExpressionsAtSchemaLevels. */
export interface SchemaLevelsCase {
  readonly name: string
  readonly schema: Schema
  readonly obj: unknown
  readonly oldObj?: unknown
  /** strings that error messages must contain */
  readonly errors?: readonly string[]
  /**
   * The case's errors in the test at release-1.32, where they differ (a failed rule's bad value was
   * the schema type before kubernetes#132798 / #133832): the case runs again as a 1.32 apiserver.
   */
  readonly release132Errors?: readonly string[]
  readonly knownFailure?: string
}

/** The t.Run body of TestValidationExpressionsAtSchemaLevels. */
export function schemaLevelsCase(tt: SchemaLevelsCase): void {
  ;(tt.knownFailure !== undefined ? it.fails : it)(tt.name, () => schemaLevelsRun(tt, tt.errors))
  const old = tt.release132Errors
  if (old !== undefined) it(`${tt.name} (release-1.32)`, () => schemaLevelsRun(tt, old, '1.32'))
}

function schemaLevelsRun(tt: SchemaLevelsCase, expectedErrors: readonly string[] | undefined, version?: '1.32') {
  // validator(tt.schema, tt.schema, true, model.SchemaDeclType(tt.schema, true), celconfig.PerCallLimit)
  const celValidator = Validator.build(tt.schema, true, version ? { version } : {})
  expect(celValidator, 'expected non nil validator').toBeDefined()
  // math.MaxInt: a budget that cannot run out
  const { errors } = celValidator!.validate(root(), tt.obj, tt.oldObj, Number.MAX_SAFE_INTEGER)
  const unmatched = new Set(expectedErrors ?? [])
  const problems: string[] = []
  for (const err of errors) {
    const text = errorString(err)
    if (err.type !== ErrorType.Invalid) {
      problems.push(`expected only ErrorTypeInvalid errors, but got: ${text}`)
      continue
    }
    let matched = false
    for (const expected of unmatched) {
      if (text.includes(expected)) {
        unmatched.delete(expected)
        matched = true
        break
      }
    }
    if (!matched) problems.push(`expected error to contain one of ${JSON.stringify([...unmatched])}, but got: ${text}`)
  }
  if (unmatched.size > 0) problems.push(`expected errors ${JSON.stringify([...unmatched])}`)
  expect(problems).toEqual([])
}
