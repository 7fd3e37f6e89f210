import { describe, expect, test } from 'vitest'
import { type EnvCheckOptions as CheckOptions, envCheck as check } from '../../src/cel/check.js'
import { type CheckedAst, formatType, type TypeProvider } from '../../src/cel/checker/index.js'
import { CelCompileError } from '../../src/cel/common/errors.js'
import { Env } from '../../src/cel/env.js'
import { fn, type Library, overload } from '../../src/cel/functions.js'
import { celLibraries, optionalLibrary } from '../../src/cel/stdlib/index.js'
import { parse } from '../../src/cel/syntax/index.js'
import {
  BoolType,
  DynType,
  IntType,
  ListType,
  listOf,
  mapOf,
  StringType,
  struct,
  type Type,
} from '../../src/cel/types/types.js'

// The checker options Kubernetes uses, the declaration API for object types and the shape of
// the result the compiler consumes. Expected texts come from the cel-go / Kubernetes sources
// named at each test.

const noImpl = () => null

function run(expr: string, env: Env, options?: CheckOptions): CheckedAst {
  return check(parse(expr, { macros: env.macros }), env, options)
}

function errorOf(expr: string, env: Env, options?: CheckOptions): string {
  try {
    run(expr, env, options)
  } catch (e) {
    if (e instanceof CelCompileError) return e.message
    throw e
  }
  return '(no error)'
}

describe('HomogeneousAggregateLiterals (cel-go v0.26.0 cel/validator_test.go TestValidateHomogeneousAggregateLiterals)', () => {
  // NewCustomEnv with `name`, two `@in` overloads, OptionalTypes and HomogeneousAggregateLiterals(),
  // which since cel-go #765 is an AST validator run after a successful check (cel/options.go).
  const inLib: Library = {
    name: 'in',
    functions: [
      fn(
        '@in',
        overload('in_list', [StringType, listOf(StringType)], BoolType, noImpl),
        overload('in_map', [StringType, mapOf(StringType, BoolType)], BoolType, noImpl),
      ),
    ],
  }
  const env = new Env({ libraries: [inLib, optionalLibrary], variables: { name: StringType } })
  const options = { homogeneousAggregateLiterals: true }
  test('list', () => {
    expect(
      errorOf(`name in ['hello', 0]`, env, options),
    ).toBe(`ERROR: <input>:1:19: expected type 'string' but found 'int'
 | name in ['hello', 0]
 | ..................^`)
  })
  test('map key', () => {
    expect(
      errorOf(`{'hello':'world', 1:'!'}`, env, options),
    ).toBe(`ERROR: <input>:1:19: expected type 'string' but found 'int'
 | {'hello':'world', 1:'!'}
 | ..................^`)
  })
  test('map value', () => {
    expect(
      errorOf(`name in {'hello':'world', 'goodbye':true}`, env, options),
    ).toBe(`ERROR: <input>:1:37: expected type 'string' but found 'bool'
 | name in {'hello':'world', 'goodbye':true}
 | ....................................^`)
  })
  test('homogeneous literals, optional entries compared by their value type', () => {
    for (const expr of [
      `name in ['hello', 'world']`,
      `name in ['hello', ?optional.ofNonZeroValue('')]`,
      `name in [?optional.ofNonZeroValue(''), 'hello', ?optional.of('')]`,
      `name in {'hello': false, 'world': true}`,
      `{'hello': false, ?'world': optional.ofNonZeroValue(true)}`,
      `{?'hello': optional.ofNonZeroValue(false), 'world': true}`,
    ])
      expect(errorOf(expr, env, options)).toBe('(no error)')
  })
  test('is the default (Kubernetes: apiextensions-apiserver schema/cel/validation_test.go)', () => {
    // "Mixed type lists are not allowed since we have HomogeneousAggregateLiterals enabled".
    const k8s = new Env({ libraries: celLibraries })
    expect(errorOf(`[1, 'a', false].filter(x, string(x) == 'a')`, k8s)).toMatch(
      /^ERROR: <input>:1:5: expected type 'int' but found 'string'\n/,
    )
  })
  test('validators run only after a successful check (cel/env.go Env.Check)', () => {
    // The checker types the mixed map map(dyn, string), which `@in` rejects; the validator never runs.
    expect(
      errorOf(`name in {'hello':'world', 1:'!'}`, env, options),
    ).toBe(`ERROR: <input>:1:6: found no matching overload for '@in' applied to '(string, map(dyn, string))'
 | name in {'hello':'world', 1:'!'}
 | .....^`)
  })
  test('types are compared with Type.IsEquivalentType: dyn differs from int (common/types/types.go)', () => {
    const k8s = new Env({ libraries: celLibraries })
    expect(errorOf(`[1, dyn(2)]`, k8s)).toMatch(/^ERROR: <input>:1:8: expected type 'int' but found 'dyn'\n/)
    expect(errorOf(`[dyn(1), dyn('a')]`, k8s)).toBe('(no error)')
  })
  test('a list stops at its first mismatch; map entries are each compared with the first (cel/validator.go)', () => {
    const k8s = new Env({ libraries: celLibraries })
    expect(errorOf(`[1, 'a', true]`, k8s).match(/^ERROR/gm)).toHaveLength(1)
    expect(
      errorOf(`{'a': 1, 'b': 'x', 'c': true}`, k8s),
    ).toBe(`ERROR: <input>:1:15: expected type 'int' but found 'string'
 | {'a': 1, 'b': 'x', 'c': true}
 | ..............^
ERROR: <input>:1:25: expected type 'int' but found 'bool'
 | {'a': 1, 'b': 'x', 'c': true}
 | ........................^`)
  })
  test('literals inside a `format` call are exempt (ext/formatting.go stringFormatValidator.Configure)', () => {
    // cel-go v0.26.0 ext/formatting_test.go TestStringFormatHeterogeneousLiterals
    const k8s = new Env({ libraries: celLibraries })
    for (const expr of [
      `"list: %s".format([[[1, 2, [3.0, 4]]]])`,
      `"list size: %d".format([[[1, 2, [3.0, 4]]].size()])`,
      `"list element: %s".format([[[1, 2, [3.0, 4]]][0]])`,
    ])
      expect(errorOf(expr, k8s)).toBe('(no error)')
  })
})

describe('CrossTypeNumericComparisons (cel-go cel/cel_test.go TestCrossTypeNumericComparisons)', () => {
  const env = new Env({ libraries: celLibraries })
  test('double_less_than_int_err', () => {
    expect(
      errorOf('1.0 < 2', env, { crossTypeNumericComparisons: false }),
    ).toBe(`ERROR: <input>:1:5: found no matching overload for '_<_' applied to '(double, int)'
 | 1.0 < 2
 | ....^`)
  })
  test('double_less_than_int_success (the default, as in Kubernetes)', () => {
    expect(run('1.0 < 2', env).refs.get(2)).toEqual({
      kind: 'function',
      name: '_<_',
      overloadIds: ['less_double_int64'],
    })
  })
  test('dyn_less_than_int_success, both settings', () => {
    for (const crossTypeNumericComparisons of [false, true])
      expect(formatType(run('dyn(1.0) < 2', env, { crossTypeNumericComparisons }).outputType)).toBe('bool')
  })
  test('the filter is lost once a comprehension scope is entered (cel-go checker/env.go enterScope/exitScope)', () => {
    // cel-go keeps the disabled overload ids on its checker Env; enterScope/exitScope build a new
    // Env without them, so comparisons checked after the first comprehension accept mixed types.
    const off = { crossTypeNumericComparisons: false }
    expect(errorOf('1 < 1.0 && [1].exists(x, x > 0)', env, off)).toMatch(/found no matching overload for '_<_'/)
    expect(formatType(run('[1].exists(x, x > 0) && 1 < 1.0', env, off).outputType)).toBe('bool')
    expect(formatType(run('[1].exists(x, x < 1.5)', env, off).outputType)).toBe('bool')
  })
})

describe('object types declared through a TypeProvider (as Kubernetes schemas will be)', () => {
  const fields: Record<string, Record<string, Type>> = {
    Deployment: { spec: struct('Deployment.spec'), metadata: mapOf(StringType, DynType) },
    'Deployment.spec': { replicas: IntType, selector: mapOf(StringType, StringType), template: DynType },
  }
  const typeProvider: TypeProvider = {
    findStructType: (name) => (fields[name] ? struct(name) : undefined),
    findFieldType: (t, f) => fields[t.name]?.[f],
    fieldNames: (t) => Object.keys(fields[t.name] ?? {}),
  }
  const env = new Env({ libraries: celLibraries, variables: { object: struct('Deployment') } })
  test('typed field selection', () => {
    const c = run('object.spec.replicas > 1 && object.spec.selector.app == "x"', env, { typeProvider })
    expect(formatType(c.outputType)).toBe('bool')
    const gt = c.expr.kind === 'call' ? c.expr.args[0]! : c.expr
    expect(c.refs.get(gt.id)).toEqual({ kind: 'function', name: '_>_', overloadIds: ['greater_int64'] })
    expect(formatType(c.types.get(gt.kind === 'call' ? gt.args[0]!.id : 0)!)).toBe('int')
  })
  test('an undefined field (cel-go checker/errors.go undefinedField, at the select)', () => {
    expect(
      errorOf('object.spec.replicsa > 1', env, { typeProvider }),
    ).toBe(`ERROR: <input>:1:12: undefined field 'replicsa'
 | object.spec.replicsa > 1
 | ...........^`)
  })
  test('has() on a struct field uses the provider too', () => {
    expect(formatType(run('has(object.spec.replicas)', env, { typeProvider }).outputType)).toBe('bool')
    // Reported at the presence test, which the has() macro places at the call (`has(`).
    expect(errorOf('has(object.spec.nope)', env, { typeProvider })).toMatch(
      /^ERROR: <input>:1:4: undefined field 'nope'/,
    )
  })
  test('dyn fields and map values select to dyn', () => {
    expect(formatType(run('object.spec.template.anything.at.all', env, { typeProvider }).outputType)).toBe('dyn')
    expect(formatType(run('object.metadata.name', env, { typeProvider }).outputType)).toBe('dyn')
  })
  test('a type the provider does not know (checker_test.go: unexpected failed resolution)', () => {
    expect(errorOf('object.spec', env)).toMatch(/^ERROR: <input>:1:7: unexpected failed resolution of 'Deployment'/)
  })
  test('type names resolve through the provider to type(T)', () => {
    expect(formatType(run('Deployment', env, { typeProvider }).outputType)).toBe('type(Deployment)')
  })
})

describe('the checked result (references as cel-go ast.ReferenceInfo)', () => {
  test('a dotted variable gets an ident reference on the select node (cel-go cel_test.go TestCustomEnv)', () => {
    const env = new Env({ libraries: celLibraries, variables: { 'a.b.c': BoolType } })
    const c = run('a.b.c', env)
    expect(c.refs.get(c.expr.id)).toEqual({ kind: 'ident', name: 'a.b.c' })
    expect(formatType(c.outputType)).toBe('bool')
  })
  test('container resolution names the qualified variable (checker_test.go `x` in container `container`)', () => {
    const env = new Env({ libraries: celLibraries, variables: { 'container.x': IntType }, container: 'container' })
    expect(run('x', env).refs.get(1)).toEqual({ kind: 'ident', name: 'container.x' })
  })
  test('a call lists every overload that may apply (checker_test.go `1 in dyn([1, 2, 3])` → in_list|in_map)', () => {
    const env = new Env({ libraries: celLibraries })
    const c = run('1 in dyn([1, 2, 3])', env)
    const ref = c.refs.get(c.expr.id)
    expect(ref?.kind === 'function' && [...ref.overloadIds].sort()).toEqual(['in_list', 'in_map'])
  })
  test('types of every node, type parameters resolved (checker_test.go `[] + [1,2,3,] + [4]`)', () => {
    const env = new Env({ libraries: celLibraries })
    const c = run('[] + [1,2,3,] + [4]', env)
    expect(formatType(c.types.get(1)!)).toBe('list(int)') // the empty list
    expect([...c.types.values()].every((t) => !formatType(t).includes('_var'))).toBe(true)
  })
  test('a namespaced function or a container-resolved name is the reference name (cel-go rewrites the call)', () => {
    // checker_test.go: `base64.encode('hello')` and, in container `base64`, `encode('hello')` both
    // print as `base64.encode("hello"~string)~string^base64_encode_string`.
    const lib: Library = {
      name: 'b64',
      functions: [fn('base64.encode', overload('base64_encode_string', [StringType], StringType, noImpl))],
    }
    for (const [expr, container] of [
      [`base64.encode('hello')`, ''],
      [`encode('hello')`, 'base64'],
    ] as const) {
      const c = run(expr, new Env({ libraries: [...celLibraries, lib], container }))
      expect(c.refs.get(c.expr.id)).toEqual({
        kind: 'function',
        name: 'base64.encode',
        overloadIds: ['base64_encode_string'],
      })
    }
  })
  test('the CheckedAst keeps the parse result', () => {
    const env = new Env({ libraries: celLibraries })
    const ast = parse('1 + 2', { macros: env.macros })
    const c = check(ast, env)
    expect(c.expr).toBe(ast.expr)
    expect(c.sourceInfo).toBe(ast.sourceInfo)
    expect(c.source.text).toBe('1 + 2')
  })
  test('an expected result type', () => {
    const env = new Env({ libraries: celLibraries, variables: { x: ListType } })
    expect(formatType(run('x.size() > 0', env, { expectedType: BoolType }).outputType)).toBe('bool')
    expect(formatType(run('x[0]', env, { expectedType: BoolType }).outputType)).toBe('dyn')
    expect(errorOf('x.size()', env, { expectedType: BoolType })).toMatch(/expected type 'bool' but found 'int'/)
  })
  test('environments are reusable: the same AST checks the same way twice', () => {
    const env = new Env({ libraries: celLibraries, variables: { x: listOf(IntType) } })
    const ast = parse('x.map(y, [y, y]).filter(l, l[0] > 1)', { macros: env.macros })
    const a = check(ast, env)
    const b = check(ast, env)
    expect([...a.types].map(([k, t]) => [k, formatType(t)])).toEqual([...b.types].map(([k, t]) => [k, formatType(t)]))
    expect(formatType(a.outputType)).toBe('list(list(int))')
  })
})
