import { describe, expect, it } from 'vitest'
import { fn, overload } from '../../src/cel/functions.js'
import { StringType } from '../../src/cel/types/types.js'
import { type CompilationResult, compileRules } from '../../src/crd/compilation.js'
import { CELSchemaContext, celRuleErrors, TotalCost } from '../../src/crd/rule-checks.js'
import { kubeEnv } from '../../src/kube/environment.js'
import { FieldPath } from '../../src/kube/field.js'
import { schemaDeclType } from '../../src/kube/schema/decltype.js'
import type { JSONSchemaProps, ValidationRule } from '../../src/kube/schema/structural.js'

// Transcriptions of apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go
// (TestCelCompilation, TestCostEstimation, TestMetadataNameCostIsBounded) and of the cardinality /
// per-CRD cost tests of pkg/apis/apiextensions/validation/validation_test.go (TestCostInfo,
// TestPerCRDEstimatedCost), which cover the factor the CRD-time checks multiply a rule's cost by.
//
// Go's Compile(s, model.SchemaDeclType(s, false), PerCallLimit, MustBaseEnvSet(DefaultCompatibilityVersion()),
// loader) is compileRules(s, schemaDeclType(s, false), { expressions }) here: NewExpressionsEnvLoader is
// `expressions: 'new'`, StoredExpressionsEnvLoader `'stored'`. The Kubernetes version is kelp's default
// (1.36) except where the Go test depends on master-only behaviour (TestMetadataNameCostIsBounded: 1.37).

type S = JSONSchemaProps

// ----- helpers of validation_test.go (same package as compilation_test.go) -----

const primitiveType = (type: string, format = ''): S => (format ? { type, format } : { type })
const arrayType = (listType: string, keys: string[] | undefined, items: S): S => ({
  type: 'array',
  'x-kubernetes-list-type': listType,
  ...(keys?.length && listType === 'map' ? { 'x-kubernetes-list-map-keys': keys } : {}),
  items,
})
const objectType = (props: Record<string, S>): S => ({ type: 'object', properties: props })
const intOrStringType = (): S => ({ 'x-kubernetes-int-or-string': true })
const withRule = (s: S, rule: string): S => ({ ...s, 'x-kubernetes-validations': [{ rule }] })
const withMaxLength = (s: S, maxLength: number | undefined): S => (maxLength === undefined ? s : { ...s, maxLength })
const withMaxItems = (s: S, maxItems: number | undefined): S => (maxItems === undefined ? s : { ...s, maxItems })

function compile(s: S, expressions: 'new' | 'stored' = 'new'): CompilationResult[] {
  const r = compileRules(s, schemaDeclType(s, false), { expressions })
  if (!Array.isArray(r)) throw new Error(`Compile returned an error: ${r.detail}`)
  return r
}

// ---------------------------------------------------------------------------------------------
// TestCelCompilation
// ---------------------------------------------------------------------------------------------

type Matcher = { desc: string; ok: (cr: CompilationResult) => boolean }
const noError: Matcher = { desc: 'no error', ok: (cr) => cr.error === undefined }
const invalidError = (contains: string): Matcher => ({
  desc: `has error of type "FieldValueInvalid" containing string ${JSON.stringify(contains)}`,
  ok: (cr) => cr.error?.type === 'invalid' && cr.error.detail.includes(contains),
})
const messageExpressionError = (contains: string): Matcher => ({
  desc: `has messageExpression error containing string ${JSON.stringify(contains)}`,
  ok: (cr) => cr.messageExpressionError?.type === 'invalid' && cr.messageExpressionError.detail.includes(contains),
})
const transitionRule = (t: boolean): Matcher => ({
  desc: t ? 'is a transition rule' : 'is not a transition rule',
  ok: (cr) => cr.usesOldSelf === t,
})
const matchesAll = (...ms: Matcher[]): Matcher => ({
  desc: ms.map((m) => m.desc).join(' and '),
  ok: (cr) => ms.every((m) => m.ok(cr)),
})
const programIsNil: Matcher = { desc: 'program is nil', ok: (cr) => cr.program === undefined }

const opt = (rule: string): ValidationRule => ({ rule, optionalOldSelf: true })

interface CompilationCase {
  name: string
  input: S
  expectedResults: Matcher[]
  unmodified?: boolean
}

const escapingProps: Record<string, S> = {
  namespace: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
  if: { type: 'integer' },
  self: { type: 'integer' },
}

const celCompilationCases: CompilationCase[] = [
  {
    name: 'optional primitive transition rule type checking',
    input: {
      type: 'integer',
      'x-kubernetes-validations': [
        opt('self >= oldSelf.value()'),
        opt('self >= oldSelf.orValue(1)'),
        opt('oldSelf.hasValue() ? self >= oldSelf.value() : true'),
        opt('self >= oldSelf'),
        opt("self >= oldSelf.orValue('')"),
      ],
    },
    expectedResults: [
      matchesAll(noError, transitionRule(true)),
      matchesAll(noError, transitionRule(true)),
      matchesAll(noError, transitionRule(true)),
      matchesAll(invalidError('optional')),
      matchesAll(invalidError('orValue')),
    ],
  },
  {
    name: 'optional complex transition rule type checking',
    input: {
      type: 'object',
      properties: {
        i: { type: 'integer' },
        b: { type: 'boolean' },
        s: { type: 'string' },
        a: { type: 'array', items: { type: 'integer' } },
        o: {
          type: 'object',
          properties: {
            i: { type: 'integer' },
            b: { type: 'boolean' },
            s: { type: 'string' },
            a: { type: 'array', items: { type: 'integer' } },
            o: { type: 'object' },
          },
        },
      },
      'x-kubernetes-validations': [
        opt('self.i >= oldSelf.i.value()'),
        opt('self.s == oldSelf.s.value()'),
        opt('self.b == oldSelf.b.value()'),
        opt('self.o == oldSelf.o.value()'),
        opt('self.o.i >= oldSelf.o.i.value()'),
        opt('self.o.s == oldSelf.o.s.value()'),
        opt('self.o.b == oldSelf.o.b.value()'),
        opt('self.o.o == oldSelf.o.o.value()'),
        opt('self.o.i >= oldSelf.o.i.orValue(1)'),
        opt('oldSelf.hasValue() ? self.o.i >= oldSelf.o.i.value() : true'),
        opt('self.o.i >= oldSelf.o.i'),
        opt('self.o.i >= oldSelf.o.s.orValue(0)'),
      ],
    },
    expectedResults: [
      ...Array.from({ length: 10 }, () => matchesAll(noError, transitionRule(true))),
      matchesAll(invalidError('optional')),
      matchesAll(invalidError('orValue')),
    ],
  },
  {
    name: 'valid object',
    input: {
      type: 'object',
      properties: { minReplicas: { type: 'integer' }, maxReplicas: { type: 'integer' } },
      'x-kubernetes-validations': [
        { rule: 'self.minReplicas < self.maxReplicas', message: 'minReplicas should be smaller than maxReplicas' },
      ],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid for string',
    input: {
      type: 'string',
      'x-kubernetes-validations': [{ rule: "self.startsWith('s')", message: "scoped field should start with 's'" }],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid for byte',
    input: {
      type: 'string',
      format: 'byte',
      'x-kubernetes-validations': [{ rule: "string(self).endsWith('s')", message: "scoped field should end with 's'" }],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid for boolean',
    input: {
      type: 'boolean',
      'x-kubernetes-validations': [{ rule: 'self == true', message: 'scoped field should be true' }],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid for integer',
    input: {
      type: 'integer',
      'x-kubernetes-validations': [{ rule: 'self > 0', message: 'scoped field should be greater than 0' }],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid for number',
    input: {
      type: 'number',
      'x-kubernetes-validations': [{ rule: 'self > 1.0', message: 'scoped field should be greater than 1.0' }],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid nested object of object',
    input: {
      type: 'object',
      properties: {
        nestedObj: { type: 'object', properties: { val: { type: 'integer', format: 'int64' } } },
      },
      'x-kubernetes-validations': [{ rule: 'self.nestedObj.val == 10', message: 'val should be equal to 10' }],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid nested object of array',
    input: {
      type: 'object',
      properties: {
        nestedObj: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
      },
      'x-kubernetes-validations': [
        { rule: 'size(self.nestedObj[0]) == 10', message: 'size of first element in nestedObj should be equal to 10' },
      ],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid nested array of array',
    input: {
      type: 'array',
      items: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
      'x-kubernetes-validations': [
        {
          rule: 'size(self[0][0]) == 10',
          message: 'size of items under items of scoped field should be equal to 10',
        },
      ],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid nested array of object',
    input: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          nestedObj: { type: 'object', properties: { val: { type: 'integer', format: 'int64' } } },
        },
      },
      'x-kubernetes-validations': [
        {
          rule: 'self[0].nestedObj.val == 10',
          message: 'val under nestedObj under properties under items should be equal to 10',
        },
      ],
    },
    expectedResults: [noError],
  },
  {
    name: 'valid map',
    input: {
      type: 'object',
      additionalProperties: { type: 'boolean', nullable: false },
      'x-kubernetes-validations': [
        { rule: 'size(self) > 0', message: 'size of scoped field should be greater than 0' },
      ],
    },
    expectedResults: [noError],
  },
  {
    name: 'invalid checking for number',
    input: {
      type: 'number',
      'x-kubernetes-validations': [{ rule: 'size(self) == 10', message: 'size of scoped field should be equal to 10' }],
    },
    expectedResults: [invalidError('compilation failed')],
  },
  {
    name: 'compilation failure',
    input: {
      type: 'integer',
      'x-kubernetes-validations': [{ rule: 'size(self) == 10', message: 'size of scoped field should be equal to 10' }],
    },
    expectedResults: [invalidError('compilation failed')],
  },
  {
    name: 'valid for escaping',
    input: {
      type: 'object',
      properties: escapingProps,
      'x-kubernetes-validations': [
        {
          rule: 'size(self.__namespace__[0]) == 10',
          message: 'size of first element in nestedObj should be equal to 10',
        },
        { rule: 'self.__if__ == 10' },
        { rule: 'self.self == 10' },
      ],
    },
    expectedResults: [noError, noError, noError],
  },
  {
    name: 'invalid for escaping',
    input: {
      type: 'object',
      properties: escapingProps,
      'x-kubernetes-validations': [
        { rule: 'size(self.namespace[0]) == 10', message: 'size of first element in nestedObj should be equal to 10' },
        { rule: 'self.if == 10' },
        { rule: 'self == 10' },
      ],
    },
    // starting 1.32, the preserved keyword as field name would be supported.
    expectedResults: [noError, noError, invalidError('found no matching overload')],
  },
  {
    name: 'transition rule identified',
    input: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }, { rule: 'self >= oldSelf' }] },
    expectedResults: [matchesAll(noError, transitionRule(false)), matchesAll(noError, transitionRule(true))],
  },
  {
    name: 'whitespace-only rule',
    input: { type: 'object', 'x-kubernetes-validations': [{ rule: ' \t' }] },
    expectedResults: [matchesAll(noError, programIsNil)],
  },
  {
    name: 'expression must evaluate to bool',
    input: { type: 'object', 'x-kubernetes-validations': [{ rule: '42' }] },
    expectedResults: [invalidError('must evaluate to a bool')],
  },
  {
    name: 'messageExpression inclusion',
    input: {
      type: 'string',
      'x-kubernetes-validations': [
        { rule: "self.startsWith('s')", messageExpression: `"scoped field should start with 's'"` },
      ],
    },
    expectedResults: [noError],
  },
  {
    name: 'messageExpression must evaluate to a string',
    input: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == 5', messageExpression: '42' }] },
    expectedResults: [messageExpressionError('must evaluate to a string')],
  },
  {
    name: 'messageExpression syntax error',
    input: { type: 'number', 'x-kubernetes-validations': [{ rule: 'self < 32.0', messageExpression: '"abc' }] },
    expectedResults: [messageExpressionError('messageExpression compilation failed')],
  },
  {
    name: 'unmodified expression may use CEL environment features planned to be added in future releases',
    input: { type: 'object', 'x-kubernetes-validations': [{ rule: "fakeFunction('abc') == 'ABC'" }] },
    unmodified: true,
    expectedResults: [noError],
  },
  {
    name: 'modified expressions may not use CEL environment features planned to be added in future releases',
    input: { type: 'object', 'x-kubernetes-validations': [{ rule: "fakeFunction('abc') == 'ABC'" }] },
    unmodified: false,
    expectedResults: [invalidError("undeclared reference to 'fakeFunction'")],
  },
]

// The Go test extends the base EnvSet with fakeLib at IntroducedVersion 1.999: StoredExpressions has
// it (every option not removed), NewExpressions does not (introduced after the compatibility version).
const fakeLib = {
  name: 'fakeLib',
  functions: [
    fn(
      'fakeFunction',
      overload('fakeFunction', [StringType], StringType, (s: string) => s.toUpperCase()),
    ),
  ],
}
const envWithFakeLib = (expressions: 'new' | 'stored') =>
  expressions === 'stored' ? kubeEnv({ expressions }).extend({ libraries: [fakeLib] }) : kubeEnv({ expressions })

describe('compilation_test.go TestCelCompilation', () => {
  for (const tt of celCompilationCases) {
    it(tt.name, () => {
      const expressions = tt.unmodified ? 'stored' : 'new'
      const results = compileRules(tt.input, schemaDeclType(tt.input, false), {
        expressions,
        baseEnv: envWithFakeLib(expressions),
      })
      if (!Array.isArray(results)) throw new Error(`Expected no error, but got: ${results.detail}`)
      expect(results.length, 'compilation did not produce one result per rule').toBe(
        tt.input['x-kubernetes-validations']?.length,
      )
      expect(results.length, 'one test expectation per rule is required').toBe(tt.expectedResults.length)
      tt.expectedResults.forEach((m, i) => {
        const cr = results[i] as CompilationResult
        expect(
          m.ok(cr),
          `result ${i + 1} does not match expectation: ${m.desc} (got ${JSON.stringify(cr.error)})`,
        ).toBe(true)
      })
    })
  }
})

// ---------------------------------------------------------------------------------------------
// TestCostEstimation
// ---------------------------------------------------------------------------------------------

/** parseRuleType: type, format and x-kubernetes-int-or-string of a rule type name. */
function itemSchema(ruleType: string): S {
  if (ruleType === 'duration' || ruleType === 'date' || ruleType === 'date-time')
    return { type: 'string', format: ruleType }
  if (ruleType === 'int-or-string') return { 'x-kubernetes-int-or-string': true }
  return { type: ruleType }
}

type Gen = (max: number | undefined) => S
const rule1 = (s: S, rule: string): S => ({ ...s, 'x-kubernetes-validations': [{ rule }] })
const maxItems = (max: number | undefined) => (max === undefined ? {} : { maxItems: max })
const maxProperties = (max: number | undefined) => (max === undefined ? {} : { maxProperties: max })
const maxLength = (max: number | undefined) => (max === undefined ? {} : { maxLength: max })

const genArrayWithRule =
  (arrayType: string, rule: string): Gen =>
  (max) =>
    rule1({ type: 'array', items: itemSchema(arrayType), ...maxItems(max) }, rule)
const genArrayOfArraysWithRule =
  (arrayType: string, rule: string): Gen =>
  (max) =>
    rule1({ type: 'array', items: { type: 'array', items: { type: arrayType } }, ...maxItems(max) }, rule)
const requiredOptional = (): S => ({
  type: 'object',
  properties: { required: { type: 'string' }, optional: { type: 'string' } },
  required: ['required'],
})
const genObjectArrayWithRule =
  (rule: string): Gen =>
  (max) =>
    rule1({ type: 'array', items: requiredOptional(), ...maxItems(max) }, rule)
const getMapArrayWithRule =
  (mapType: string, rule: string): Gen =>
  (max) =>
    rule1({ type: 'array', items: { type: 'object', additionalProperties: { type: mapType } }, ...maxItems(max) }, rule)
const genMapWithRule =
  (mapType: string, rule: string): Gen =>
  (max) =>
    rule1({ type: 'object', additionalProperties: itemSchema(mapType), ...maxProperties(max) }, rule)
const genStringWithRule =
  (rule: string): Gen =>
  (max) =>
    rule1({ type: 'string', ...maxLength(max) }, rule)
const genEnumWithRuleAndValues =
  (rule: string, ...values: string[]): Gen =>
  (max) =>
    rule1({ type: 'string', ...maxLength(max), enum: values }, rule)
const genBytesWithRule =
  (rule: string): Gen =>
  (max) =>
    rule1({ type: 'string', ...maxLength(max), format: 'byte' }, rule)
const genNestedSpecWithRule =
  (rule: string): Gen =>
  (max) =>
    rule1({ type: 'object', additionalProperties: { type: 'string', ...maxLength(max) }, ...maxProperties(max) }, rule)
const genAllMaxNestedSpecWithRootRule =
  (rule: string): Gen =>
  (max) =>
    rule1(
      {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: { ...requiredOptional(), ...maxProperties(max) },
          ...maxProperties(max),
        },
        ...maxItems(max),
      },
      rule,
    )
const genOneMaxNestedSpecWithRootRule =
  (rule: string): Gen =>
  (max) =>
    rule1(
      {
        type: 'array',
        items: { type: 'object', additionalProperties: requiredOptional(), ...maxProperties(max) },
      },
      rule,
    )
const genObjectForMap = (): S => requiredOptional()
const genArrayForMap = (): S => ({ type: 'array', items: { type: 'number' } })
const genMapForMap = (): S => ({ type: 'object', additionalProperties: { type: 'number' } })
const genMapWithCustomItemRule =
  (item: S, rule: string): Gen =>
  (max) =>
    rule1({ type: 'object', additionalProperties: item, ...maxProperties(max) }, rule)

const costLimit = 100_000_000

interface CostCase {
  name: string
  schemaGenerator: Gen
  setMaxElements: number
  expectedCalcCost?: number
  expectCalcCostExceedsLimit?: number
  expectedSetCost?: number
  expectedSetCostExceedsLimit?: number
}

const costCases: CostCase[] = [
  {
    name: 'number array with all',
    schemaGenerator: genArrayWithRule('number', 'self.all(x, true)'),
    expectedCalcCost: 4718591,
    setMaxElements: 10,
    expectedSetCost: 32,
  },
  {
    name: 'string array with all',
    schemaGenerator: genArrayWithRule('string', 'self.all(x, true)'),
    expectedCalcCost: 3145727,
    setMaxElements: 20,
    expectedSetCost: 62,
  },
  {
    name: 'boolean array with all',
    schemaGenerator: genArrayWithRule('boolean', 'self.all(x, true)'),
    expectedCalcCost: 1887437,
    setMaxElements: 5,
    expectedSetCost: 17,
  },
  // all array-of-array tests should have the same expected cost along the same expression,
  // since arrays-of-arrays are serialized the same in minimized form regardless of item type
  // of the subarray ([[], [], ...])
  {
    name: 'array of number arrays with all',
    schemaGenerator: genArrayOfArraysWithRule('number', 'self.all(x, true)'),
    expectedCalcCost: 3145727,
    setMaxElements: 100,
    expectedSetCost: 302,
  },
  {
    name: 'array of objects with all',
    schemaGenerator: genObjectArrayWithRule('self.all(x, true)'),
    expectedCalcCost: 555128,
    setMaxElements: 50,
    expectedSetCost: 152,
  },
  {
    name: 'map of numbers with all',
    schemaGenerator: genMapWithRule('number', 'self.all(x, true)'),
    expectedCalcCost: 1348169,
    setMaxElements: 10,
    expectedSetCost: 32,
  },
  {
    name: 'map of numbers with has',
    schemaGenerator: genMapWithRule('number', 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 100,
    expectedSetCost: 0,
  },
  {
    name: 'map of strings with all',
    schemaGenerator: genMapWithRule('string', 'self.all(x, true)'),
    expectedCalcCost: 1179647,
    setMaxElements: 3,
    expectedSetCost: 11,
  },
  {
    name: 'map of strings with has',
    schemaGenerator: genMapWithRule('string', 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 550,
    expectedSetCost: 0,
  },
  {
    name: 'map of booleans with all',
    schemaGenerator: genMapWithRule('boolean', 'self.all(x, true)'),
    expectedCalcCost: 943718,
    setMaxElements: 100,
    expectedSetCost: 302,
  },
  {
    name: 'map of booleans with has',
    schemaGenerator: genMapWithRule('boolean', 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 1024,
    expectedSetCost: 0,
  },
  {
    name: 'string with contains',
    schemaGenerator: genStringWithRule("self.contains('test')"),
    expectedCalcCost: 314574,
    setMaxElements: 10,
    expectedSetCost: 5,
  },
  {
    name: 'string with startsWith',
    schemaGenerator: genStringWithRule("self.startsWith('test')"),
    expectedCalcCost: 2,
    setMaxElements: 15,
    expectedSetCost: 2,
  },
  {
    name: 'string with endsWith',
    schemaGenerator: genStringWithRule("self.endsWith('test')"),
    expectedCalcCost: 2,
    setMaxElements: 30,
    expectedSetCost: 2,
  },
  {
    name: 'concat string',
    schemaGenerator: genStringWithRule('size(self + "hello") > size("hello")'),
    expectedCalcCost: 314578,
    setMaxElements: 4,
    expectedSetCost: 7,
  },
  {
    name: 'index of array with numbers',
    schemaGenerator: genArrayWithRule('number', 'self[1] == 0.0'),
    expectedCalcCost: 2,
    setMaxElements: 5000,
    expectedSetCost: 2,
  },
  {
    name: 'index of array with strings',
    schemaGenerator: genArrayWithRule('string', 'self[1] == self[1]'),
    expectedCalcCost: 314577,
    setMaxElements: 8,
    expectedSetCost: 314577,
  },
  {
    name: 'O(n^2) loop with numbers',
    schemaGenerator: genArrayWithRule('number', 'self.all(x, self.all(y, true))'),
    expectCalcCostExceedsLimit: costLimit,
    setMaxElements: 10,
    expectedSetCost: 352,
  },
  {
    name: 'O(n^3) loop with numbers',
    schemaGenerator: genArrayWithRule('number', 'self.all(x, self.all(y, self.all(z, true)))'),
    expectCalcCostExceedsLimit: costLimit,
    setMaxElements: 10,
    expectedSetCost: 3552,
  },
  {
    name: 'regex matches simple',
    schemaGenerator: genStringWithRule('self.matches("x")'),
    expectedCalcCost: 314574,
    setMaxElements: 50,
    expectedSetCost: 22,
  },
  {
    name: 'regex matches empty string',
    schemaGenerator: genStringWithRule('"".matches("(((((((((())))))))))[0-9]")'),
    expectedCalcCost: 7,
    setMaxElements: 10,
    expectedSetCost: 7,
  },
  {
    name: 'regex matches empty regex',
    schemaGenerator: genStringWithRule('self.matches("")'),
    expectedCalcCost: 1,
    setMaxElements: 100,
    expectedSetCost: 1,
  },
  {
    name: 'map of strings with value length',
    schemaGenerator: genNestedSpecWithRule('self.all(x, x.contains(self[x]))'),
    expectedCalcCost: 2752507,
    setMaxElements: 10,
    expectedSetCost: 72,
  },
  {
    name: 'set array maxLength to zero',
    schemaGenerator: genArrayWithRule('number', 'self[3] == 0.0'),
    expectedCalcCost: 2,
    setMaxElements: 0,
    expectedSetCost: 2,
  },
  {
    name: 'set map maxLength to zero',
    schemaGenerator: genMapWithRule('number', 'self["x"] == 0.0'),
    expectedCalcCost: 2,
    setMaxElements: 0,
    expectedSetCost: 2,
  },
  {
    name: 'set string maxLength to zero',
    schemaGenerator: genStringWithRule('self == "x"'),
    expectedCalcCost: 2,
    setMaxElements: 0,
    expectedSetCost: 1,
  },
  {
    name: 'set bytes maxLength to zero',
    schemaGenerator: genBytesWithRule('self == b"x"'),
    expectedCalcCost: 2,
    setMaxElements: 0,
    expectedSetCost: 1,
  },
  {
    name: 'set maxLength greater than estimated maxLength',
    schemaGenerator: genArrayWithRule('number', 'self.all(x, x == 0.0)'),
    expectedCalcCost: 6291454,
    setMaxElements: 3 * 1024 * 2048,
    expectedSetCost: 25165826,
  },
  {
    name: 'nested types with root rule with all supporting maxLength',
    schemaGenerator: genAllMaxNestedSpecWithRootRule('self.all(x, x["y"].required == "z")'),
    expectedCalcCost: 7340027,
    setMaxElements: 10,
    expectedSetCost: 72,
  },
  {
    name: 'nested types with root rule with one supporting maxLength',
    schemaGenerator: genOneMaxNestedSpecWithRootRule('self.all(x, x["y"].required == "z")'),
    expectedCalcCost: 7340027,
    setMaxElements: 10,
    expectedSetCost: 7340027,
  },
  {
    name: 'int-or-string array with all',
    schemaGenerator: genArrayWithRule('int-or-string', 'self.all(x, true)'),
    expectedCalcCost: 4718591,
    setMaxElements: 10,
    expectedSetCost: 32,
  },
  {
    name: 'index of array with int-or-strings',
    schemaGenerator: genArrayWithRule('int-or-string', 'self[0] == 5'),
    expectedCalcCost: 3,
    setMaxElements: 10,
    expectedSetCost: 3,
  },
  {
    name: 'index of array with booleans',
    schemaGenerator: genArrayWithRule('boolean', 'self[0] == false'),
    expectedCalcCost: 2,
    setMaxElements: 25,
    expectedSetCost: 2,
  },
  {
    name: 'index of array of objects',
    schemaGenerator: genObjectArrayWithRule('self[0] == null'),
    expectedCalcCost: 2,
    setMaxElements: 422,
    expectedSetCost: 2,
  },
  {
    name: 'index of array of array of numnbers',
    schemaGenerator: genArrayOfArraysWithRule('number', 'self[0][0] == -1.0'),
    expectedCalcCost: 3,
    setMaxElements: 51,
    expectedSetCost: 3,
  },
  {
    name: 'array of number maps with all',
    schemaGenerator: getMapArrayWithRule('number', 'self.all(x, x.y == 25.2)'),
    expectedCalcCost: 6291452,
    setMaxElements: 12,
    expectedSetCost: 74,
  },
  {
    name: 'index of array of number maps',
    schemaGenerator: getMapArrayWithRule('number', 'self[0].x > 2.0'),
    expectedCalcCost: 4,
    setMaxElements: 3000,
    expectedSetCost: 4,
  },
  {
    name: 'duration array with all',
    schemaGenerator: genArrayWithRule('duration', 'self.all(x, true)'),
    expectedCalcCost: 2359295,
    setMaxElements: 5,
    expectedSetCost: 17,
  },
  {
    name: 'index of duration array',
    schemaGenerator: genArrayWithRule('duration', 'self[0].getHours() == 2'),
    expectedCalcCost: 4,
    setMaxElements: 525,
    expectedSetCost: 4,
  },
  {
    name: 'date array with all',
    schemaGenerator: genArrayWithRule('date', 'self.all(x, true)'),
    expectedCalcCost: 725936,
    setMaxElements: 15,
    expectedSetCost: 47,
  },
  {
    name: 'index of date array',
    schemaGenerator: genArrayWithRule('date', 'self[2].getDayOfMonth() == 13'),
    expectedCalcCost: 4,
    setMaxElements: 42,
    expectedSetCost: 4,
  },
  {
    name: 'date-time array with all',
    schemaGenerator: genArrayWithRule('date-time', 'self.all(x, true)'),
    expectedCalcCost: 428963,
    setMaxElements: 25,
    expectedSetCost: 77,
  },
  {
    name: 'index of date-time array',
    schemaGenerator: genArrayWithRule('date-time', 'self[2].getMinutes() == 45'),
    expectedCalcCost: 4,
    setMaxElements: 99,
    expectedSetCost: 4,
  },
  {
    name: 'map of int-or-strings with all',
    schemaGenerator: genMapWithRule('int-or-string', 'self.all(x, true)'),
    expectedCalcCost: 1348169,
    setMaxElements: 15,
    expectedSetCost: 47,
  },
  {
    name: 'map of int-or-strings with has',
    schemaGenerator: genMapWithRule('int-or-string', 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 5000,
    expectedSetCost: 0,
  },
  {
    name: 'map of objects with all',
    schemaGenerator: genMapWithCustomItemRule(genObjectForMap(), 'self.all(x, true)'),
    expectedCalcCost: 428963,
    setMaxElements: 20,
    expectedSetCost: 62,
  },
  {
    name: 'map of objects with has',
    schemaGenerator: genMapWithCustomItemRule(genObjectForMap(), 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 9001,
    expectedSetCost: 0,
  },
  {
    name: 'map of number maps with all',
    schemaGenerator: genMapWithCustomItemRule(genMapForMap(), 'self.all(x, true)'),
    expectedCalcCost: 1179647,
    setMaxElements: 10,
    expectedSetCost: 32,
  },
  {
    name: 'map of number maps with has',
    schemaGenerator: genMapWithCustomItemRule(genMapForMap(), 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 101,
    expectedSetCost: 0,
  },
  {
    name: 'map of number arrays with all',
    schemaGenerator: genMapWithCustomItemRule(genArrayForMap(), 'self.all(x, true)'),
    expectedCalcCost: 1179647,
    setMaxElements: 25,
    expectedSetCost: 77,
  },
  {
    name: 'map of number arrays with has',
    schemaGenerator: genMapWithCustomItemRule(genArrayForMap(), 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 40000,
    expectedSetCost: 0,
  },
  {
    name: 'map of durations with all',
    schemaGenerator: genMapWithRule('duration', 'self.all(x, true)'),
    expectedCalcCost: 1048577,
    setMaxElements: 5,
    expectedSetCost: 17,
  },
  {
    name: 'map of durations with has',
    schemaGenerator: genMapWithRule('duration', 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 256,
    expectedSetCost: 0,
  },
  {
    name: 'map of dates with all',
    schemaGenerator: genMapWithRule('date', 'self.all(x, true)'),
    expectedCalcCost: 524288,
    setMaxElements: 10,
    expectedSetCost: 32,
  },
  {
    name: 'map of dates with has',
    schemaGenerator: genMapWithRule('date', 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 65536,
    expectedSetCost: 0,
  },
  {
    name: 'map of date-times with all',
    schemaGenerator: genMapWithRule('date-time', 'self.all(x, true)'),
    expectedCalcCost: 349526,
    setMaxElements: 25,
    expectedSetCost: 77,
  },
  {
    name: 'map of date-times with has',
    schemaGenerator: genMapWithRule('date-time', 'has(self.x)'),
    expectedCalcCost: 0,
    setMaxElements: 490,
    expectedSetCost: 0,
  },
  // Ensure library functions are integrated with size estimates by testing the interesting cases.
  {
    name: 'extended library regex find',
    schemaGenerator: genStringWithRule("self.find('[0-9]+') == ''"),
    expectedCalcCost: 629147,
    setMaxElements: 10,
    expectedSetCost: 11,
  },
  {
    name: 'extended library join',
    schemaGenerator: (max) => {
      const strType = withMaxLength(primitiveType('string'), max)
      return withRule(withMaxItems(arrayType('atomic', undefined, strType), max), "self.join(' ') == 'aa bb'")
    },
    expectedCalcCost: 329853068905,
    setMaxElements: 10,
    expectedSetCost: 43,
  },
  {
    name: 'extended library isSorted',
    schemaGenerator: (max) => {
      const strType = withMaxLength(primitiveType('string'), max)
      return withRule(withMaxItems(arrayType('atomic', undefined, strType), max), 'self.isSorted() == true')
    },
    expectedCalcCost: 329854432052,
    setMaxElements: 10,
    expectedSetCost: 52,
  },
  {
    name: 'extended library replace',
    schemaGenerator: (max) => {
      const strType = withMaxLength(primitiveType('string'), max)
      const objType = objectType({
        str: strType,
        before: withMaxLength(primitiveType('string'), 2),
        after: withMaxLength(primitiveType('string'), 4),
      })
      return withRule(objType, "self.str.replace(self.before, self.after) == 'does not matter'")
    },
    expectedCalcCost: 629154, // cost is based on the result size of the replace() call
    setMaxElements: 4,
    expectedSetCost: 12,
  },
  {
    name: 'extended library split',
    schemaGenerator: (max) => {
      const strType = withMaxLength(primitiveType('string'), max)
      return withRule(objectType({ str: strType, separator: strType }), 'self.str.split(self.separator) == []')
    },
    expectedCalcCost: 629160,
    setMaxElements: 10,
    expectedSetCost: 22,
  },
  {
    name: 'extended library lowerAscii',
    schemaGenerator: (max) => withRule(withMaxLength(primitiveType('string'), max), "self.lowerAscii() == 'lower!'"),
    expectedCalcCost: 314575,
    setMaxElements: 10,
    expectedSetCost: 6,
  },
  {
    name: 'check cost of size call',
    schemaGenerator: genMapWithRule('integer', 'oldSelf.size() == self.size()'),
    expectedCalcCost: 5,
    setMaxElements: 10,
    expectedSetCost: 5,
  },
  {
    name: 'check cost of timestamp comparison',
    schemaGenerator: genMapWithRule('date-time', 'self["a"] == self["b"]'),
    expectedCalcCost: 8,
    setMaxElements: 7,
    expectedSetCost: 8,
  },
  {
    name: 'check cost of duration comparison',
    schemaGenerator: genMapWithRule('duration', 'self["c"] == self["d"]'),
    expectedCalcCost: 8,
    setMaxElements: 42,
    expectedSetCost: 8,
  },
  {
    name: 'enums with maxLength equals to the longest possible value',
    schemaGenerator: genEnumWithRuleAndValues("self.contains('A')", 'A', 'B', 'C', 'LongValue'),
    expectedCalcCost: 2,
    setMaxElements: 1000,
    expectedSetCost: 401,
  },
  {
    name: 'IntOrString type with quantity rule',
    schemaGenerator: (max) => withMaxLength(withRule(intOrStringType(), 'isQuantity(self)'), max),
    expectedCalcCost: 314574,
    setMaxElements: 20,
    expectedSetCost: 9,
  },
]

/**
 * schemaChecker: exactly one rule, no compile error, MaxCost equal to expectedCost when that is
 * non-zero, at least expectedCostExceedsLimit when that is non-zero (zero: not checked, as in Go).
 * The CRD-time figure (validation.go getExpressionCost) is the cost times the node's cardinality;
 * these rules sit at the schema root (RootCELContext: cardinality 1), so it must equal MaxCost.
 */
function schemaChecker(schema: S, expectedCost = 0, expectedCostExceedsLimit = 0): void {
  const results = compile(schema, 'new')
  expect(results.length, 'Expected one rule').toBe(1)
  const result = results[0] as CompilationResult
  expect(result.error, 'Expected no compile-time error').toBeUndefined()
  if (expectedCost > 0) expect(result.maxCost, 'Wrong cost').toBe(BigInt(expectedCost))
  if (expectedCostExceedsLimit > 0) expect(result.maxCost >= BigInt(expectedCostExceedsLimit)).toBe(true)
  const ctx = CELSchemaContext.root(schema, { expressions: 'new' })
  celRuleErrors(schema, FieldPath.of('openAPIV3Schema'), ctx, { suppressPerExpressionCost: true })
  expect(ctx.maxCardinality).toBe(1n)
  expect(ctx.totalCost.total, 'cardinality-multiplied cost (getExpressionCost) at the root').toBe(result.maxCost)
}

describe('compilation_test.go TestCostEstimation', () => {
  for (const tc of costCases) {
    describe(tc.name, () => {
      it('calc maxLength', () =>
        schemaChecker(tc.schemaGenerator(undefined), tc.expectedCalcCost, tc.expectCalcCostExceedsLimit))
      it('set maxLength', () =>
        schemaChecker(tc.schemaGenerator(tc.setMaxElements), tc.expectedSetCost, tc.expectedSetCostExceedsLimit))
    })
  }
})

// ---------------------------------------------------------------------------------------------
// TestMetadataNameCostIsBounded (master, i.e. Kubernetes 1.37: WithTypeAndObjectMeta caps
// metadata.name at 253 and generateName at 252 characters; 1.36 leaves them unbounded).
// ---------------------------------------------------------------------------------------------

describe('compilation_test.go TestMetadataNameCostIsBounded (Kubernetes 1.37, as master encodes it)', () => {
  const boundedCeiling = 10000n
  const cases = [
    { name: 'name rule', rule: "self.metadata.name.contains('x')" },
    { name: 'generateName rule', rule: "self.metadata.generateName.contains('x')" },
  ]
  for (const tc of cases) {
    it(tc.name, () => {
      const s: S = { type: 'object', 'x-kubernetes-validations': [{ rule: tc.rule }] }
      const results = compileRules(s, schemaDeclType(s, true, { capMetadataNames: true }), {
        version: '1.37',
        expressions: 'stored',
      })
      if (!Array.isArray(results)) throw new Error(`unexpected error: ${results.detail}`)
      expect(results.length).toBe(1)
      const r = results[0] as CompilationResult
      expect(r.error, 'unexpected compile error').toBeUndefined()
      expect(r.maxCost, `${tc.name}: expected a non-zero cost`).not.toBe(0n)
      expect(r.maxCost <= boundedCeiling, `${tc.name} MaxCost = ${r.maxCost}, expected it bounded`).toBe(true)
    })
    // The same through the CRD-time checks, which derive the cap from the version.
    it(`${tc.name} (CELSchemaContext at 1.37)`, () => {
      const s: S = { type: 'object', 'x-kubernetes-validations': [{ rule: tc.rule }] }
      const ctx = CELSchemaContext.root(s, { version: '1.37', expressions: 'stored' })
      const errs = celRuleErrors(s, FieldPath.of('openAPIV3Schema'), ctx)
      expect(errs).toEqual([])
      expect(ctx.totalCost.total > 0n && ctx.totalCost.total <= boundedCeiling).toBe(true)
    })
    // Without a version the CRD-time checks are those of the default release, 1.37: capped too.
    it(`${tc.name} (CELSchemaContext without a version: the default, 1.37)`, () => {
      const s: S = { type: 'object', 'x-kubernetes-validations': [{ rule: tc.rule }] }
      const ctx = CELSchemaContext.root(s, { expressions: 'stored' })
      expect(celRuleErrors(s, FieldPath.of('openAPIV3Schema'), ctx)).toEqual([])
      expect(ctx.totalCost.total > 0n && ctx.totalCost.total <= boundedCeiling).toBe(true)
    })
    // The premise of the Go test ("an unbounded name would cost far more") holds for 1.36, which
    // has no cap: the estimate is above the ceiling there.
    it(`${tc.name} (Kubernetes 1.36: unbounded)`, () => {
      const s: S = { type: 'object', 'x-kubernetes-validations': [{ rule: tc.rule }] }
      const results = compileRules(s, schemaDeclType(s, true), { version: '1.36', expressions: 'stored' })
      if (!Array.isArray(results)) throw new Error(results.detail)
      expect((results[0] as CompilationResult).maxCost > boundedCeiling).toBe(true)
    })
  }
})

// ---------------------------------------------------------------------------------------------
// validation_test.go TestCostInfo: the cardinality CELSchemaContext computes for nested nodes.
// ---------------------------------------------------------------------------------------------

describe('pkg/apis/apiextensions/validation/validation_test.go TestCostInfo', () => {
  const genObjectSchema = (): S => ({ type: 'object' })
  const genArraySchema = (max?: number): S => ({ type: 'array', ...(max === undefined ? {} : { maxItems: max }) })
  const genMapSchema = (max?: number): S => ({
    type: 'object',
    additionalProperties: { type: 'string' },
    ...(max === undefined ? {} : { maxProperties: max }),
  })
  const MaxUint64 = 18446744073709551615n
  const tests: { name: string; schema: S[]; expectedMaxCardinality: bigint | undefined }[] = [
    { name: 'object', schema: [genObjectSchema()], expectedMaxCardinality: 1n },
    { name: 'array', schema: [genArraySchema(5)], expectedMaxCardinality: 5n },
    { name: 'unbounded array', schema: [genArraySchema()], expectedMaxCardinality: undefined },
    { name: 'map', schema: [genMapSchema(10)], expectedMaxCardinality: 10n },
    { name: 'unbounded map', schema: [genMapSchema()], expectedMaxCardinality: undefined },
    { name: 'array inside map', schema: [genMapSchema(5), genArraySchema(5)], expectedMaxCardinality: 25n },
    {
      name: 'unbounded array inside bounded map',
      schema: [genMapSchema(5), genArraySchema()],
      expectedMaxCardinality: undefined,
    },
    { name: 'object inside array', schema: [genArraySchema(3), genObjectSchema()], expectedMaxCardinality: 3n },
    {
      name: 'map inside object inside array',
      schema: [genArraySchema(2), genObjectSchema(), genMapSchema(4)],
      expectedMaxCardinality: 8n,
    },
    {
      // math.MaxInt is not a JS number; 2^63 (its nearest double, what a JSON decoder reads) overflows alike
      name: 'integer overflow bounds check',
      schema: [genArraySchema(2 ** 63), genArraySchema(100)],
      expectedMaxCardinality: MaxUint64,
    },
  ]
  for (const tt of tests) {
    it(tt.name, () => {
      // simulate the recursive validation calls
      const schemas = [...tt.schema, { type: 'string' }] // append a leaf type
      let cur = CELSchemaContext.root(schemas[0] as S)
      for (let i = 1; i < schemas.length; i++) cur = cur.childProperty(schemas[i], 'x')
      expect(cur.maxCardinality).toBe(tt.expectedMaxCardinality)
    })
  }
})

describe('pkg/apis/apiextensions/validation/validation_test.go TestPerCRDEstimatedCost', () => {
  const MaxUint64 = 18446744073709551615n
  const tests: { name: string; costs: bigint[]; expectedExpensive: bigint[]; expectedTotal: bigint }[] = [
    { name: 'no costs', costs: [], expectedExpensive: [], expectedTotal: 0n },
    { name: 'one cost', costs: [1000000n], expectedExpensive: [1000000n], expectedTotal: 1000000n },
    // costs < 1% of the per-CRD cost limit are not considered expensive
    { name: 'one cost, ignored', costs: [900000n], expectedExpensive: [], expectedTotal: 900000n },
    {
      name: '2 costs',
      costs: [5000000n, 25000000n],
      expectedExpensive: [25000000n, 5000000n],
      expectedTotal: 30000000n,
    },
    {
      name: '3 costs, one ignored',
      costs: [5000000n, 25000000n, 900000n],
      expectedExpensive: [25000000n, 5000000n],
      expectedTotal: 30900000n,
    },
    {
      name: '4 costs',
      costs: [16000000n, 50000000n, 34000000n, 50000000n],
      expectedExpensive: [50000000n, 50000000n, 34000000n, 16000000n],
      expectedTotal: 150000000n,
    },
    {
      // only the top 4 most expensive are tracked
      name: '5 costs, one trimmed, one ignored',
      costs: [16000000n, 50000000n, 900000n, 34000000n, 50000000n, 50000001n],
      expectedExpensive: [50000001n, 50000000n, 50000000n, 34000000n],
      expectedTotal: 200900001n,
    },
    {
      name: 'costs do not overflow',
      costs: [MaxUint64 / 2n, MaxUint64 / 2n, 1n, 10n, 100n, 1000n],
      expectedExpensive: [MaxUint64 / 2n, MaxUint64 / 2n],
      expectedTotal: MaxUint64,
    },
  ]
  for (const tt of tests) {
    it(tt.name, () => {
      const crdCost = new TotalCost()
      for (const cost of tt.costs) crdCost.observe(FieldPath.of('x'), cost)
      expect(crdCost.mostExpensive.map((e) => e.cost)).toEqual(tt.expectedExpensive)
      expect(crdCost.total).toBe(tt.expectedTotal)
    })
  }
})
