import { describe, expect, it } from 'vitest'
import { Validator } from '../../src/crd/validator.js'
import { ErrorType, errorString, FieldPath } from '../../src/kube/field.js'
import type { JSONSchemaProps, ValidationRule } from '../../src/kube/schema/structural.js'

// Transcriptions of apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go
// TestOptionalOldSelf, TestOptionalOldSelfCheckForNull and TestOptionalOldSelfIsOptionalType. The
// Go tests enable the CRDValidationRatcheting feature gate (GA and always on in the versions kelp
// models) and set `optionalOldSelf: true` on every rule of the case's schema; the budget is
// math.MaxInt.

type Schema = JSONSchemaProps

const integerType: Schema = { type: 'integer' }
const numberType: Schema = { type: 'number' }
const stringType: Schema = { type: 'string' }
const booleanType: Schema = { type: 'boolean' }
/** values_test.go stringSchema: a plain string schema */
const stringSchema: Schema = { type: 'string' }

const objectType = (props: Record<string, Schema>): Schema => ({ type: 'object', properties: props })
const withRule = (s: Schema, rule: string): Schema => ({ ...s, 'x-kubernetes-validations': [{ rule }] })
function arrayType(listType: string, keys: string[] | undefined, items: Schema): Schema {
  const s: Record<string, unknown> = { type: 'array', 'x-kubernetes-list-type': listType, items }
  if (keys !== undefined && keys.length > 0 && listType === 'map') s['x-kubernetes-list-map-keys'] = keys
  return s as Schema
}

/** `tt.schema.XValidations[i].OptionalOldSelf = &true` for every rule of the schema node. */
function withOptionalOldSelf(s: Schema): Schema {
  const rules = (s['x-kubernetes-validations'] ?? []).map((r): ValidationRule => ({ ...r, optionalOldSelf: true }))
  return { ...s, 'x-kubernetes-validations': rules }
}

const MaxInt = Number.MAX_SAFE_INTEGER // math.MaxInt: the budget never runs out
const root = () => FieldPath.of('root')

function create(s: Schema, isResourceRoot: boolean): Validator {
  const v = Validator.create(s, isResourceRoot)
  if (v === undefined) throw new Error('expected non nil validator')
  return v
}

/** The error check shared by TestOptionalOldSelf and TestOptionalOldSelfIsOptionalType. */
function expectErrors(errs: ReturnType<Validator['validate']>['errors'], expected: readonly string[]): void {
  const unmatched = new Set(expected)
  for (const err of errs) {
    const text = errorString(err)
    expect(err.type, `expected only ErrorTypeInvalid errors, but got: ${text}`).toBe(ErrorType.Invalid)
    const match = [...unmatched].find((e) => text.includes(e))
    expect(match, `expected error to contain one of ${[...unmatched]}, but got: ${text}`).toBeDefined()
    unmatched.delete(match as string)
  }
  expect([...unmatched], 'expected errors').toEqual([])
}

describe('validation_test.go TestOptionalOldSelf', () => {
  interface Case {
    name: string
    schema: Schema
    obj: unknown
    oldObj?: unknown
    errors?: string[]
  }
  const minRule = 'self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)'
  const cases: Case[] = [
    {
      name: 'allow new value if old value is null',
      obj: { foo: 'bar' },
      schema: withRule(objectType({ foo: stringType }), "self.foo == 'not bar' || !oldSelf.hasValue()"),
    },
    {
      name: 'block new value if old value is not null',
      obj: { foo: 'invalid' },
      oldObj: { foo: 'bar' },
      schema: withRule(objectType({ foo: stringType }), "self.foo == 'valid' || !oldSelf.hasValue()"),
      errors: ['failed rule'],
    },
    {
      name: 'allow invalid new value if old value is also invalid',
      obj: { foo: 'invalid again' },
      oldObj: { foo: 'invalid' },
      schema: withRule(
        objectType({ foo: stringType }),
        "self.foo == 'valid' || (oldSelf.hasValue() && oldSelf.value().foo != 'valid')",
      ),
    },
    {
      name: 'allow invalid new value if old value is also invalid with chained optionals',
      obj: { foo: 'invalid again' },
      oldObj: { foo: 'invalid' },
      schema: withRule(objectType({ foo: stringType }), "self.foo == 'valid' || oldSelf.foo.orValue('') != 'valid'"),
    },
    {
      name: 'block invalid new value if old value is valid',
      obj: { foo: 'invalid' },
      oldObj: { foo: 'valid' },
      schema: withRule(
        objectType({ foo: stringType }),
        "self.foo == 'valid' || (oldSelf.hasValue() && oldSelf.value().foo != 'valid')",
      ),
      errors: ['failed rule'],
    },
    { name: 'create: new min or allow higher than oldValue', obj: 10, schema: withRule(integerType, minRule) },
    {
      name: 'block create: new min or allow higher than oldValue',
      obj: 9,
      // Can't use != null because type is integer and no overload
      // workaround by comparing type, but kinda hacky
      schema: withRule(integerType, minRule),
      errors: ['failed rule'],
    },
    {
      name: 'update: new min or allow higher than oldValue',
      obj: 10,
      oldObj: 5,
      schema: withRule(integerType, minRule),
    },
    {
      name: 'ratchet update: new min or allow higher than oldValue',
      obj: 9,
      oldObj: 5,
      schema: withRule(integerType, minRule),
    },
    {
      name: 'ratchet noop update: new min or allow higher than oldValue',
      obj: 5,
      oldObj: 5,
      schema: withRule(integerType, minRule),
    },
    {
      name: 'block update: new min or allow higher than oldValue',
      obj: 4,
      oldObj: 5,
      schema: withRule(integerType, minRule),
      errors: ['failed rule'],
    },
  ]

  for (const tt of cases) {
    it(tt.name, () => {
      // validator(tt.schema, tt.schema, true, model.SchemaDeclType(tt.schema, false), PerCallLimit):
      // a resource-root validator compiled against the non-root declared type. kelp's
      // Validator.create(s, true) also declares apiVersion / kind / metadata on `self`; no rule here
      // reads them and the objects carry none, so compilation and results are the same.
      const s = withOptionalOldSelf(tt.schema)
      const { errors } = create(s, true).validate(root(), tt.obj, tt.oldObj, MaxInt)
      expectErrors(errors, tt.errors ?? [])
    })
  }
})

describe('validation_test.go TestOptionalOldSelfCheckForNull', () => {
  interface Case {
    name: string
    schema: Schema
    obj: unknown
    oldObj: unknown
  }
  const cases: Case[] = [
    {
      name: 'object',
      obj: { foo: 'bar' },
      oldObj: { foo: 'baz' },
      schema: withRule(objectType({ foo: stringType }), '!oldSelf.hasValue() || self.foo == "bar"'),
    },
    {
      name: 'object - conditional field',
      obj: { foo: 'bar' },
      oldObj: { foo: 'baz' },
      schema: withRule(objectType({ foo: stringType }), 'self.foo != "bar" || oldSelf.?foo.orValue("baz") == "baz"'),
    },
    {
      name: 'string',
      obj: 'bar',
      oldObj: 'baz',
      schema: withRule(stringType, '\n\t\t\t\t!oldSelf.hasValue() || self == "bar"\n\t\t\t'),
    },
    {
      name: 'integer',
      obj: 1,
      oldObj: 2,
      schema: withRule(integerType, '\n\t\t\t\t!oldSelf.hasValue() || self == 1\n\t\t\t'),
    },
    {
      name: 'number',
      obj: 1.1,
      oldObj: 2.2,
      schema: withRule(numberType, '\n\t\t\t\t!oldSelf.hasValue() || self == 1.1\n\t\t\t'),
    },
    {
      name: 'boolean',
      obj: true,
      oldObj: false,
      schema: withRule(booleanType, '\n\t\t\t\t!oldSelf.hasValue() || self == true\n\t\t\t'),
    },
    {
      name: 'array',
      obj: ['bar'],
      oldObj: ['baz'],
      schema: withRule(
        arrayType('', undefined, stringSchema),
        '\n\t\t\t\t!oldSelf.hasValue() || self[0] == "bar"\n\t\t\t',
      ),
    },
    {
      name: 'array - conditional index',
      obj: [],
      oldObj: ['baz'],
      schema: withRule(
        arrayType('', undefined, stringSchema),
        '\n\t\t\t\tself.size() > 0 || oldSelf[?0].orValue("baz") == "baz"\n\t\t\t',
      ),
    },
    {
      name: 'set-array',
      obj: ['bar'],
      oldObj: ['baz'],
      schema: withRule(
        arrayType('set', undefined, stringSchema),
        '\n\t\t\t\t!oldSelf.hasValue() || self[0] == "bar"\n\t\t\t',
      ),
    },
    {
      name: 'map-array',
      obj: [{ key: 'foo', value: 'bar' }],
      oldObj: [{ key: 'foo', value: 'baz' }],
      schema: withRule(
        arrayType('map', ['key'], objectType({ key: stringType, value: stringType })),
        '\n\t\t\t\t!oldSelf.hasValue() || self[0].value == "bar"\n\t\t\t',
      ),
    },
  ]

  for (const tt of cases) {
    describe(tt.name, () => {
      // validator(&tt.schema, &tt.schema, false, model.SchemaDeclType(&tt.schema, false), PerCallLimit)
      const s = withOptionalOldSelf(tt.schema)
      it('null old', () => {
        const { errors } = create(s, false).validate(root(), tt.obj, undefined, MaxInt)
        expect(errors.map(errorString), 'expected no errors').toEqual([])
      })
      it('non-null old', () => {
        const { errors } = create(s, false).validate(root(), tt.obj, tt.oldObj, MaxInt)
        expect(errors.map(errorString), 'expected no errors').toEqual([])
      })
    })
  }
})

describe('validation_test.go TestOptionalOldSelfIsOptionalType', () => {
  interface Case {
    name: string
    schema: Schema
    obj: unknown
    errors: string[]
  }
  const cases: Case[] = [
    {
      name: 'forbid direct usage of optional integer',
      schema: withRule(integerType, '\n\t\t\t\toldSelf + self > 5\n\t\t\t'),
      obj: 5,
      errors: ["no matching overload for '_+_' applied to '(optional_type(int), int)"],
    },
    {
      name: 'forbid direct usage of optional string',
      schema: withRule(stringType, '\n\t\t\t\toldSelf == "foo"\n\t\t\t'),
      obj: 'bar',
      errors: ["no matching overload for '_==_' applied to '(optional_type(string), string)"],
    },
    {
      name: 'forbid direct usage of optional array',
      schema: withRule(arrayType('', undefined, stringSchema), '\n\t\t\t\toldSelf.all(x, x == x)\n\t\t\t'),
      obj: ['bar'],
      errors: ["expression of type 'optional_type(list(string))' cannot be range of a comprehension"],
    },
    {
      name: 'forbid direct usage of optional array element',
      schema: withRule(arrayType('', undefined, stringSchema), '\n\t\t\t\toldSelf[0] == "foo"\n\t\t\t'),
      obj: ['bar'],
      errors: ["found no matching overload for '_==_' applied to '(optional_type(string), string)"],
    },
    {
      name: 'forbid direct usage of optional struct',
      schema: withRule(
        arrayType('map', ['key'], objectType({ key: stringType, value: stringType })),
        'oldSelf.key == "foo"',
      ),
      obj: [{ key: 'bar', value: 'baz' }],
      errors: ['does not support field selection'],
    },
  ]

  for (const tt of cases) {
    it(tt.name, () => {
      // validator(&tt.schema, &tt.schema, false, model.SchemaDeclType(&tt.schema, false), PerCallLimit)
      const s = withOptionalOldSelf(tt.schema)
      const { errors } = create(s, false).validate(root(), tt.obj, tt.obj, MaxInt)
      expectErrors(errors, tt.errors)
    })
  }
})
