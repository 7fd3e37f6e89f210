import { describe, expect, it } from 'vitest'
import { Validator } from '../../src/crd/validator.js'
import { PerCallLimit, RuntimeCELCostBudget } from '../../src/kube/environment.js'
import { ErrorType, errorString, type FieldError, FieldPath } from '../../src/kube/field.js'
import type { JSONSchemaProps, ValidationRule } from '../../src/kube/schema/structural.js'

// Transcriptions of apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go:
// TestCELValidationLimit, TestCELMaxRecursionDepth, TestMessageExpression and TestReasonAndFldPath.
// Schemas are apiextensions v1 JSONSchemaProps as plain JSON (the Go tests build schema.Structural
// with the helpers at the end of validation_test.go; the local helpers below mirror them).
//
// Go's `NewValidator(s, isResourceRoot, perCallLimit)` and the test-only `validator(s, s,
// isResourceRoot, model.SchemaDeclType(s, isResourceRoot), perCallLimit)` are both
// `Validator.create(s, isResourceRoot, { perCallLimit })` here.

type Schema = JSONSchemaProps

const integerType: Schema = { type: 'integer' }
const stringType: Schema = { type: 'string' }
const booleanType: Schema = { type: 'boolean' }

const objectType = (props: Record<string, Schema>): Schema => ({ type: 'object', properties: props })
const withRules = (s: Schema, rules: ValidationRule[]): Schema => ({ ...s, 'x-kubernetes-validations': rules })
const withRule = (s: Schema, rule: string): Schema => withRules(s, [{ rule }])

/** objs(vals...): {val1: v1, val2: v2, ...} */
const objs = (...vals: unknown[]): Record<string, unknown> => Object.fromEntries(vals.map((v, i) => [`val${i + 1}`, v]))
/** schemas(types...): an object whose properties val1, val2, ... have the given schemas. */
const schemas = (...types: Schema[]): Schema => objectType(Object.fromEntries(types.map((t, i) => [`val${i + 1}`, t])))

const root = () => FieldPath.of('root')

function create(s: Schema, isResourceRoot: boolean, perCallLimit: number = PerCallLimit): Validator {
  const v = Validator.create(s, isResourceRoot, { perCallLimit })
  if (v === undefined) throw new Error('expected non nil validator')
  return v
}

/** field.Error.Error() */
const text = (e: FieldError) => errorString(e)

describe('validation_test.go TestCELValidationLimit', () => {
  // case "test limit": obj objs(int64(math.MaxInt64)), schema schemas(integerType)
  const obj = objs(9223372036854775807n)
  const s0 = schemas(integerType)
  for (const validRule of ['self.val1 > 0']) {
    const s = withRule(s0, validRule)

    it(`test limit / ${validRule}: cost budget exceeded`, () => {
      // validator(&s, &s, false, model.SchemaDeclType(&s, false), celconfig.PerCallLimit), budget 0
      const v = create(s, false, PerCallLimit)
      const { errors } = v.validate(root(), obj, undefined, 0)
      let found = false
      for (const err of errors) {
        if (
          err.type === ErrorType.Invalid &&
          text(err).includes(
            'validation failed due to running out of cost budget, no further validation rules will be run',
          )
        )
          found = true
        else expect.fail(`unexpected err: ${text(err)}`)
      }
      expect(found, 'expect cost limit exceed err but did not find').toBe(true)
      expect(errors.length, 'expect to only return cost budget exceed err once').toBeLessThanOrEqual(1)
    })

    it(`test limit / ${validRule}: PerCallLimit exceeded`, () => {
      // NewValidator(&s, true, 0), budget celconfig.RuntimeCELCostBudget
      const v = create(s, true, 0)
      const { errors } = v.validate(root(), obj, undefined, RuntimeCELCostBudget)
      const found = errors.some(
        (err) =>
          err.type === ErrorType.Invalid &&
          text(err).includes('no further validation rules will be run due to call cost exceeds limit for rule'),
      )
      expect(found, `expect PerCostLimit exceed err but did not find: ${errors.map(text)}`).toBe(true)
    })
  }
})

describe('validation_test.go TestCELValidationContextCancellation', () => {
  // Go runs the rule once with a live context (no errors expected), then with a cancelled context
  // and expects "operation interrupted". kelp evaluates synchronously and takes no context, so only
  // the first half has a counterpart; the cancellation half is not transcribed.
  it('test cel validation with context cancellation (live context half)', () => {
    const items = Array.from({ length: 1000 }, (_, i) => i)
    const s = withRule(
      objectType({ array: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: integerType } }),
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)',
    )
    // NewValidator(&s, true, celconfig.PerCallLimit)
    const { errors } = create(s, true).validate(root(), { array: items }, undefined, RuntimeCELCostBudget)
    expect(errors.map(text)).toEqual([])
  })
})

describe('validation_test.go TestCELMaxRecursionDepth', () => {
  // kelp's parser enforces cel-go's default maxRecursionDepth (250) the way ANTLR's visitor does,
  // so this test is meaningful: 250 `self.val1 ==` operands compile, 251 do not.
  const maxValidDepth = 250
  const obj = objs(true)
  const s0 = schemas(booleanType)
  const valid = [`${'self.val1 == '.repeat(maxValidDepth - 1)}self.val1`]
  const errors: Record<string, string> = {
    [`${'self.val1 == '.repeat(maxValidDepth)}self.val1`]: 'max recursion depth exceeded',
  }

  for (const validRule of valid) {
    it(`test CEL maxRecursionDepth / valid: ${validRule.slice(0, 60)}…`, () => {
      // validator(&s, &s, tt.isRoot=false, model.SchemaDeclType(&s, false), celconfig.PerCallLimit)
      const s = withRule(s0, validRule)
      const v = create(s, false)
      const r = v.validate(root(), obj, undefined, RuntimeCELCostBudget)
      expect(r.errors.map(text)).toEqual([])
    })
  }
  for (const [rule, expectErrToContain] of Object.entries(errors)) {
    it(`test CEL maxRecursionDepth / error: ${rule.slice(0, 60)}…`, () => {
      // NewValidator(&s, true, celconfig.PerCallLimit)
      const s = withRule(s0, rule)
      const v = create(s, true)
      const r = v.validate(root(), obj, undefined, RuntimeCELCostBudget)
      expect(r.errors.length, 'expected validation errors but got none').toBeGreaterThan(0)
      for (const err of r.errors) {
        expect(err.type).toBe(ErrorType.Invalid)
        expect(text(err)).toContain(expectErrToContain)
      }
    })
  }
})

describe('validation_test.go TestMessageExpression', () => {
  // Go also captures klog output and checks `expectedLogErr` (e.g. "messageExpression evaluation
  // failed due to: index out of bounds: 4"). kelp logs nothing: that text is not part of what it
  // exposes, so only the field error, the error count and the remaining budget are asserted here.
  interface Case {
    name: string
    costBudget: number
    perCallLimit?: number
    message?: string
    messageExpression: string
    expectedValidationErr: string
    expectedRemainingBudget?: number
  }
  const cases: Case[] = [
    {
      name: 'no cost error expected',
      messageExpression: `"static string"`,
      expectedValidationErr: 'static string',
      costBudget: 300,
      expectedRemainingBudget: 300,
    },
    {
      name: 'messageExpression takes precedence over message',
      message: 'invisible',
      messageExpression: `"this is messageExpression"`,
      costBudget: RuntimeCELCostBudget,
      expectedValidationErr: 'this is messageExpression',
    },
    {
      name: 'default rule message used if messageExpression does not eval to string',
      messageExpression: 'true',
      costBudget: RuntimeCELCostBudget,
      expectedValidationErr: 'failed rule',
      expectedRemainingBudget: RuntimeCELCostBudget,
    },
    {
      name: 'limit exceeded',
      messageExpression: `"string 1" + "string 2" + "string 3"`,
      costBudget: 1,
      expectedValidationErr: 'messageExpression evaluation failed due to running out of cost budget',
      expectedRemainingBudget: -1,
    },
    {
      name: 'messageExpression budget (str concat)',
      messageExpression: `"str1 " + self.str`,
      costBudget: 50,
      expectedValidationErr: 'str1 a string',
      expectedRemainingBudget: 46,
    },
    {
      // expectedLogErr: "messageExpression evaluation failed due to: index out of bounds: 4"
      name: 'runtime cost preserved if messageExpression fails during evaluation',
      message: 'message not messageExpression',
      messageExpression: `"str1 " + ["a", "b", "c", "d"][4]`,
      costBudget: 50,
      expectedValidationErr: 'message not messageExpression',
      expectedRemainingBudget: 47,
    },
    {
      // expectedLogErr: "messageExpression evaluation failed due to: index out of bounds: 4"
      name: 'runtime cost preserved if messageExpression fails during evaluation (no message set)',
      messageExpression: `"str1 " + ["a", "b", "c", "d"][4]`,
      costBudget: 50,
      expectedValidationErr: 'failed rule',
      expectedRemainingBudget: 47,
    },
    {
      name: 'per-call limit exceeded during messageExpression execution',
      messageExpression: `"string 1" + "string 2" + "string 3"`,
      costBudget: RuntimeCELCostBudget,
      perCallLimit: 1,
      expectedValidationErr: 'call cost exceeds limit for messageExpression',
      expectedRemainingBudget: -1,
    },
    {
      // expectedLogErr: "messageExpression should not contain line breaks"
      name: 'messageExpression is not allowed to generate a string with newlines',
      message: 'message not messageExpression',
      messageExpression: `"str with \\na newline"`,
      costBudget: RuntimeCELCostBudget,
      expectedValidationErr: 'message not messageExpression',
    },
    {
      // expectedLogErr: "messageExpression beyond allowable length of 5120"
      name: 'messageExpression is not allowed to generate messages >5000 characters',
      message: 'message not messageExpression',
      messageExpression: `"${'a'.repeat(5121)}"`,
      costBudget: RuntimeCELCostBudget,
      expectedValidationErr: 'message not messageExpression',
    },
    {
      // expectedLogErr: "messageExpression should evaluate to a non-empty string"
      name: 'messageExpression is not allowed to generate an empty string',
      message: 'message not messageExpression',
      messageExpression: 'string("")',
      costBudget: RuntimeCELCostBudget,
      expectedValidationErr: 'message not messageExpression',
    },
    {
      // expectedLogErr: "messageExpression should evaluate to a non-empty string"
      name: 'messageExpression is not allowed to generate a string with only spaces',
      message: 'message not messageExpression',
      messageExpression: 'string("     ")',
      costBudget: RuntimeCELCostBudget,
      expectedValidationErr: 'message not messageExpression',
    },
  ]

  // The failing messageExpression still spends 3 (cel-go's cost tracker observes the failing steps):
  // the relative attribute of the list literal and its constant qualifier `[4]` (1 + 1), and the
  // `_+_` whose argument is an error (ceil((5 + 1) * 0.1) = 1).
  for (const tt of cases) {
    it(tt.name, () => {
      const base = objectType({ str: stringType })
      // withRuleMessageAndMessageExpression / withRuleAndMessageExpression, rule "false"
      const rule: ValidationRule =
        tt.message !== undefined && tt.message !== ''
          ? { rule: 'false', message: tt.message, messageExpression: tt.messageExpression }
          : { rule: 'false', messageExpression: tt.messageExpression }
      const s = withRules(base, [rule])
      const obj = { str: 'a string' }
      const callLimit = tt.perCallLimit !== undefined && tt.perCallLimit !== 0 ? tt.perCallLimit : PerCallLimit
      const v = create(s, false, callLimit)
      const { errors, remainingBudget } = v.validate(root(), obj, undefined, tt.costBudget)
      expect(errors.length, `errors: ${errors.map(text)}`).toBe(1)
      if (tt.expectedValidationErr !== '') expect(text(errors[0] as FieldError)).toContain(tt.expectedValidationErr)
      if (tt.expectedRemainingBudget !== undefined && tt.expectedRemainingBudget !== 0)
        expect(remainingBudget).toBe(tt.expectedRemainingBudget)
    })
  }
})

describe('validation_test.go TestReasonAndFldPath', () => {
  const withReasonAndFldPath = (s: Schema, rule: string, jsonPath: string, reason: string | undefined): Schema =>
    withRules(s, [
      {
        rule,
        ...(jsonPath !== '' ? { fieldPath: jsonPath } : {}),
        ...(reason !== undefined ? { reason } : {}),
      },
    ])
  const forbiddenReason = 'FieldValueForbidden'

  interface Case {
    name: string
    schema: Schema
    obj: unknown
    errors: { type: string; field: string }[]
  }
  const cases: Case[] = [
    {
      name: 'Return error based on input reason',
      obj: { f: { m: 1 } },
      schema: withRule(
        objectType({ f: withReasonAndFldPath(objectType({ m: integerType }), 'self.m == 2', '', forbiddenReason) }),
        '1 == 1',
      ),
      errors: [{ type: ErrorType.Forbidden, field: 'root.f' }],
    },
    {
      name: 'Return error default is invalid',
      obj: { f: { m: 1 } },
      schema: withRule(
        objectType({ f: withReasonAndFldPath(objectType({ m: integerType }), 'self.m == 2', '', undefined) }),
        '1 == 1',
      ),
      errors: [{ type: ErrorType.Invalid, field: 'root.f' }],
    },
    {
      name: 'Return error based on input fieldPath',
      obj: { f: { m: 1 } },
      schema: withRule(
        objectType({ f: withReasonAndFldPath(objectType({ m: integerType }), 'self.m == 2', '.m', forbiddenReason) }),
        '1 == 1',
      ),
      errors: [{ type: ErrorType.Forbidden, field: 'root.f.m' }],
    },
    {
      name: 'multiple rules with custom reason and field path',
      obj: { field1: 'value1', field2: 'value2', field3: 'value3' },
      schema: withRules(objectType({ field1: stringType, field2: stringType, field3: stringType }), [
        { rule: `self.field2 != "value2"`, reason: 'FieldValueDuplicate', fieldPath: '.field2' },
        { rule: `self.field3 != "value3"`, reason: 'FieldValueRequired', fieldPath: '.field3' },
        { rule: `self.field1 != "value1"`, reason: 'FieldValueForbidden', fieldPath: '.field1' },
      ]),
      errors: [
        { type: ErrorType.Duplicate, field: 'root.field2' },
        { type: ErrorType.Required, field: 'root.field3' },
        { type: ErrorType.Forbidden, field: 'root.field1' },
      ],
    },
  ]

  const key = (e: { type: string; field: string }) => `${e.type} ${e.field}`
  for (const tt of cases) {
    it(tt.name, () => {
      // validator(tt.schema, tt.schema, true, model.SchemaDeclType(tt.schema, true), celconfig.PerCallLimit)
      const v = create(tt.schema, true)
      const { errors } = v.validate(root(), tt.obj, undefined, RuntimeCELCostBudget)
      // Detail and BadValue are ignored; require.ElementsMatch compares as multisets
      const got = errors.map((e) => ({ type: e.type, field: e.field })).sort((a, b) => key(a).localeCompare(key(b)))
      const want = [...tt.errors].sort((a, b) => key(a).localeCompare(key(b)))
      expect(got).toEqual(want)
    })
  }
})

describe('exact texts of the cost-limit errors (validation.go format strings, spec §D.4)', () => {
  // The Go tests above only check substrings; these pin the whole field error text that
  // validation.go builds for the same inputs: field.Invalid(fldPath, sts.Type, <detail>).
  const s = withRule(schemas(integerType), 'self.val1 > 0')
  const obj = objs(9223372036854775807n)

  it('TestCELValidationLimit inputs: budget exhausted before the rule', () => {
    const { errors, remainingBudget } = create(s, false).validate(root(), obj, undefined, 0)
    expect(errors.map(text)).toEqual([
      'root: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ])
    expect(remainingBudget).toBe(-1)
  })

  it('TestCELValidationLimit inputs: per-call limit', () => {
    const { errors, remainingBudget } = create(s, true, 0).validate(root(), obj, undefined, RuntimeCELCostBudget)
    expect(errors.map(text)).toEqual([
      `root: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.val1 > 0`,
    ])
    expect(remainingBudget).toBe(-1)
  })

  const msgSchema = withRules(objectType({ str: stringType }), [
    { rule: 'false', messageExpression: `"string 1" + "string 2" + "string 3"` },
  ])
  it('TestMessageExpression inputs: messageExpression out of budget', () => {
    const { errors } = create(msgSchema, false).validate(root(), { str: 'a string' }, undefined, 1)
    expect(errors.map(text)).toEqual([
      'root: Invalid value: "object": messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
    ])
  })
  it('TestMessageExpression inputs: messageExpression per-call limit (%q of the expression)', () => {
    const { errors } = create(msgSchema, false, 1).validate(
      root(),
      { str: 'a string' },
      undefined,
      RuntimeCELCostBudget,
    )
    expect(errors.map(text)).toEqual([
      'root: Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: "\\"string 1\\" + \\"string 2\\" + \\"string 3\\""',
    ])
  })
})
