import { describe, expect, test } from 'vitest'
import { type EnvCheckOptions as CheckOptions, envCheck as check } from '../../src/cel/check.js'
import { type CheckedAst, formatType, type TypeProvider } from '../../src/cel/checker/index.js'
import type { Expr, MapEntry, StructField } from '../../src/cel/common/ast.js'
import { CelCompileError } from '../../src/cel/common/errors.js'
import { Env } from '../../src/cel/env.js'
import { fn, type Library, memberOverload, overload } from '../../src/cel/functions.js'
import { celLibraries, standardLibrary } from '../../src/cel/stdlib/index.js'
import { parse, toDebugString } from '../../src/cel/syntax/index.js'
import {
  BoolType,
  BytesType,
  DoubleType,
  DynType,
  IntType,
  listOf,
  mapOf,
  NullType,
  opaque,
  optionalOf,
  StringType,
  struct,
  type Type,
  typeParam,
  UintType,
} from '../../src/cel/types/types.js'

// The table of cel-go v0.26 checker/checker_test.go (TestCheck), where the feature exists in
// kelp. Expected types, checked-AST printouts (checker/printer.go: `~type^reference`) and error
// texts are cel-go's. cel-go's test registers the protobuf test messages; here a TypeProvider
// declares the handful of fields those cases select (names and field types as in
// test/proto3pb/test_all_types.proto), which exercises kelp's declaration API for object types.
// cel-go's TestCheck runs with CrossTypeNumericComparisons(true) unless a case says otherwise,
// with the checker's default of non-homogeneous aggregate literals, and with the standard
// library only (the optional library adds `_[_]` overloads that a dyn operand would also match).

const P3 = 'google.expr.proto3.test.'
const P2 = 'google.expr.proto2.test.'
const FIELDS: Record<string, Record<string, Type>> = {}
for (const p of [P3, P2]) {
  FIELDS[`${p}TestAllTypes`] = {
    single_int32: IntType,
    single_int64: IntType,
    single_value: DynType,
    single_struct: mapOf(StringType, DynType),
    repeated_int32: listOf(IntType),
    repeated_int64: listOf(IntType),
    map_string_string: mapOf(StringType, StringType),
    map_int64_nested_type: mapOf(IntType, struct(`${p}NestedTestAllTypes`)),
    single_nested_message: struct(`${p}TestAllTypes.NestedMessage`),
    repeated_nested_message: listOf(struct(`${p}TestAllTypes.NestedMessage`)),
    nestedgroup: struct(`${p}TestAllTypes.NestedGroup`),
  }
  FIELDS[`${p}TestAllTypes.NestedMessage`] = { bb: IntType }
  FIELDS[`${p}TestAllTypes.NestedGroup`] = { nested_id: IntType }
  FIELDS[`${p}NestedTestAllTypes`] = { child: struct(`${p}NestedTestAllTypes`), payload: struct(`${p}TestAllTypes`) }
}
const testProvider: TypeProvider = {
  findStructType: (name) => (FIELDS[name] ? struct(name) : undefined),
  findFieldType: (t, field) => FIELDS[t.name]?.[field],
  fieldNames: (t) => Object.keys(FIELDS[t.name] ?? {}),
}

const noImpl = () => null
const fnLib = (...functions: Library['functions']): Library => ({ name: 'test', functions })

// checker_test.go testEnvs["default"].
const defaultEnv = {
  vars: { is: StringType, ii: IntType, iu: UintType, iz: BoolType, ib: BytesType, id: DoubleType, ix: NullType },
  lib: fnLib(
    fn('fg_s', overload('fg_s_0', [], StringType, noImpl)),
    fn('fi_s_s', memberOverload('fi_s_s_0', [StringType], StringType, noImpl)),
  ),
}

const setLib = fnLib(
  fn('set', overload('set_list', [listOf(typeParam('T'))], opaque('set', [typeParam('T')]), noImpl, ['T'])),
)

interface Case {
  in: string
  /** The checked AST as cel-go's checker.Print shows it (compared without whitespace). */
  out?: string
  type?: string
  err?: string
  vars?: Record<string, Type>
  lib?: Library
  container?: string
  crossType?: boolean
  /** cel-go's optionalSyntax cases: they run with cel.OptionalTypes() (the others with the standard library only). */
  optional?: boolean
}

const TAT3 = struct(`${P3}TestAllTypes`)

const cases: Case[] = [
  // Const types
  { in: `"A"`, out: `"A"~string`, type: 'string' },
  { in: `12`, out: `12~int`, type: 'int' },
  { in: `12u`, out: `12u~uint`, type: 'uint' },
  { in: `true`, out: `true~bool`, type: 'bool' },
  { in: `false`, out: `false~bool`, type: 'bool' },
  { in: `12.23`, out: `12.23~double`, type: 'double' },
  { in: `null`, out: `null~null`, type: 'null' },
  { in: `b"ABC"`, out: `b"ABC"~bytes`, type: 'bytes' },
  // Ident types
  ...(['is~string', 'ii~int', 'iu~uint', 'iz~bool', 'id~double', 'ix~null', 'ib~bytes'] as const).map((s) => {
    const [name, type] = s.split('~') as [string, string]
    return { in: name, out: `${name}~${type}^${name}`, type, ...defaultEnv }
  }),
  { in: `[]`, out: `[]~list(dyn)`, type: 'list(dyn)' },
  { in: `[1]`, out: `[1~int]~list(int)`, type: 'list(int)' },
  { in: `[1, "A"]`, out: `[1~int, "A"~string]~list(dyn)`, type: 'list(dyn)' },
  {
    in: `foo`,
    err: `ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')
 | foo
 | ^`,
  },
  // Call resolution
  { in: `fg_s()`, out: `fg_s()~string^fg_s_0`, type: 'string', ...defaultEnv },
  { in: `is.fi_s_s()`, out: `is~string^is.fi_s_s()~string^fi_s_s_0`, type: 'string', ...defaultEnv },
  { in: `1 + 2`, out: `_+_(1~int, 2~int)~int^add_int64`, type: 'int', ...defaultEnv },
  { in: `1 + ii`, out: `_+_(1~int, ii~int^ii)~int^add_int64`, type: 'int', ...defaultEnv },
  { in: `[1] + [2]`, out: `_+_([1~int]~list(int), [2~int]~list(int))~list(int)^add_list`, type: 'list(int)' },
  {
    in: `[] + [1,2,3,] + [4]`,
    out: `_+_(_+_([]~list(int), [1~int, 2~int, 3~int]~list(int))~list(int)^add_list, [4~int]~list(int))~list(int)^add_list`,
    type: 'list(int)',
  },
  {
    in: `[1, 2u] + []`,
    out: `_+_([1~int, 2u~uint]~list(dyn), []~list(dyn))~list(dyn)^add_list`,
    type: 'list(dyn)',
  },
  { in: `{1:2u, 2:3u}`, out: `{1~int : 2u~uint, 2~int : 3u~uint}~map(int, uint)`, type: 'map(int, uint)' },
  { in: `{"a":1, "b":2}.a`, out: `{"a"~string : 1~int, "b"~string : 2~int}~map(string, int).a~int`, type: 'int' },
  { in: `{1:2u, 2u:3}`, out: `{1~int : 2u~uint, 2u~uint : 3~int}~map(dyn, dyn)`, type: 'map(dyn, dyn)' },
  {
    in: `TestAllTypes{single_int32: 1, single_int64: 2}`,
    container: 'google.expr.proto3.test',
    type: `${P3}TestAllTypes`,
  },
  {
    in: `TestAllTypes{single_int32: 1u}`,
    container: 'google.expr.proto3.test',
    err: `ERROR: <input>:1:26: expected type of field 'single_int32' is 'int' but provided type is 'uint'
 | TestAllTypes{single_int32: 1u}
 | .........................^`,
  },
  {
    in: `TestAllTypes{single_int32: 1, undefined: 2}`,
    container: 'google.expr.proto3.test',
    err: `ERROR: <input>:1:40: undefined field 'undefined'
 | TestAllTypes{single_int32: 1, undefined: 2}
 | .......................................^`,
  },
  {
    in: `size(x) == x.size()`,
    out: `_==_(size(x~list(int)^x)~int^size_list, x~list(int)^x.size()~int^list_size)~bool^equals`,
    vars: { x: listOf(IntType) },
    type: 'bool',
  },
  {
    in: `int(1u) + int(uint("1"))`,
    out: `_+_(int(1u~uint)~int^uint64_to_int64, int(uint("1"~string)~uint^string_to_uint64)~int^uint64_to_int64)~int^add_int64`,
    type: 'int',
  },
  {
    in: `false && !true || false ? 2 : 3`,
    out: `_?_:_(_||_(_&&_(false~bool, !_(true~bool)~bool^logical_not)~bool^logical_and, false~bool)~bool^logical_or, 2~int, 3~int)~int^conditional`,
    type: 'int',
  },
  { in: `b"abc" + b"def"`, out: `_+_(b"abc"~bytes, b"def"~bytes)~bytes^add_bytes`, type: 'bytes' },
  {
    in: `1.0 + 2.0 * 3.0 - 1.0 / 2.20202 != 66.6`,
    out: `_!=_(_-_(_+_(1~double, _*_(2~double, 3~double)~double^multiply_double)~double^add_double, _/_(1~double, 2.20202~double)~double^divide_double)~double^subtract_double, 66.6~double)~bool^not_equals`,
    type: 'bool',
  },
  {
    in: `null == null && null != null`,
    out: `_&&_(_==_(null~null, null~null)~bool^equals, _!=_(null~null, null~null)~bool^not_equals)~bool^logical_and`,
    type: 'bool',
  },
  {
    in: `1 + 2 * 3 - 1 / 2 == 6 % 1`,
    out: `_==_(_-_(_+_(1~int, _*_(2~int, 3~int)~int^multiply_int64)~int^add_int64, _/_(1~int, 2~int)~int^divide_int64)~int^subtract_int64, _%_(6~int, 1~int)~int^modulo_int64)~bool^equals`,
    type: 'bool',
  },
  { in: `"abc" + "def"`, out: `_+_("abc"~string, "def"~string)~string^add_string`, type: 'string' },
  {
    in: `x.single_int32 != null`,
    vars: { x: struct(`${P3}Proto2Message`) },
    err: `ERROR: <input>:1:2: unexpected failed resolution of 'google.expr.proto3.test.Proto2Message'
 | x.single_int32 != null
 | .^`,
  },
  {
    in: `x.single_value + 1 / x.single_struct.y == 23`,
    vars: { x: TAT3 },
    out: `_==_(_+_(x~${P3}TestAllTypes^x.single_value~dyn, _/_(1~int, x~${P3}TestAllTypes^x.single_struct~map(string, dyn).y~dyn)~int^divide_int64)~int^add_int64, 23~int)~bool^equals`,
    type: 'bool',
  },
  {
    in: `x.single_value[23] + x.single_struct['y']`,
    vars: { x: TAT3 },
    out: `_+_(_[_](x~${P3}TestAllTypes^x.single_value~dyn, 23~int)~dyn^index_list|index_map, _[_](x~${P3}TestAllTypes^x.single_struct~map(string, dyn), "y"~string)~dyn^index_map)~dyn^add_bytes|add_double|add_duration_duration|add_duration_timestamp|add_int64|add_list|add_string|add_timestamp_duration|add_uint64`,
    type: 'dyn',
  },
  {
    in: `size([] + [1])`,
    out: `size(_+_([]~list(int), [1~int]~list(int))~list(int)^add_list)~int^size_list`,
    type: 'int',
  },
  {
    // cel-go declares x, y, z as google.protobuf.Struct / ListValue / Value: the checker sees
    // them as map(string, dyn), list(dyn) and dyn, which is how kelp declares JSON values.
    in: `x["claims"]["groups"][0].name == "dummy"
		&& x.claims["exp"] == y[1].time
		&& x.claims.structured == {'key': z}
		&& z == 1.0`,
    vars: { x: mapOf(StringType, DynType), y: listOf(DynType), z: DynType },
    out: `_&&_(_&&_(_==_(_[_](_[_](_[_](x~map(string, dyn)^x, "claims"~string)~dyn^index_map, "groups"~string)~list(dyn)^index_map, 0~int)~dyn^index_list.name~dyn, "dummy"~string)~bool^equals,
      _==_(_[_](x~map(string, dyn)^x.claims~dyn, "exp"~string)~dyn^index_map, _[_](y~list(dyn)^y, 1~int)~dyn^index_list.time~dyn)~bool^equals)~bool^logical_and,
      _&&_(_==_(x~map(string, dyn)^x.claims~dyn.structured~dyn, {"key"~string:z~dyn^z}~map(string, dyn))~bool^equals, _==_(z~dyn^z, 1~double)~bool^equals)~bool^logical_and)~bool^logical_and`,
    type: 'bool',
  },
  {
    in: `x + y`,
    vars: { x: listOf(TAT3), y: listOf(IntType) },
    err: `ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(list(google.expr.proto3.test.TestAllTypes), list(int))'
 | x + y
 | ..^`,
  },
  {
    in: `x[1u]`,
    vars: { x: listOf(TAT3) },
    err: `ERROR: <input>:1:2: found no matching overload for '_[_]' applied to '(list(google.expr.proto3.test.TestAllTypes), uint)'
 | x[1u]
 | .^`,
  },
  {
    in: `(x + x)[1].single_int32 == size(x)`,
    vars: { x: listOf(TAT3) },
    out: `_==_(_[_](_+_(x~list(${P3}TestAllTypes)^x, x~list(${P3}TestAllTypes)^x)~list(${P3}TestAllTypes)^add_list, 1~int)~${P3}TestAllTypes^index_list.single_int32~int, size(x~list(${P3}TestAllTypes)^x)~int^size_list)~bool^equals`,
    type: 'bool',
  },
  {
    in: `x.repeated_int64[x.single_int32] == 23`,
    vars: { x: TAT3 },
    out: `_==_(_[_](x~${P3}TestAllTypes^x.repeated_int64~list(int), x~${P3}TestAllTypes^x.single_int32~int)~int^index_list, 23~int)~bool^equals`,
    type: 'bool',
  },
  {
    in: `size(x.map_int64_nested_type) == 0`,
    vars: { x: TAT3 },
    out: `_==_(size(x~${P3}TestAllTypes^x.map_int64_nested_type~map(int, ${P3}NestedTestAllTypes))~int^size_map, 0~int)~bool^equals`,
    type: 'bool',
  },
  {
    in: `x.all(y, y == true)`,
    vars: { x: BoolType },
    err: `ERROR: <input>:1:1: expression of type 'bool' cannot be range of a comprehension (must be list, map, or dynamic)
 | x.all(y, y == true)
 | ^`,
  },
  {
    in: `x.repeated_int64.map(x, double(x))`,
    vars: { x: TAT3 },
    out: `__comprehension__(
		// Variable
		x,
		// Target
		x~${P3}TestAllTypes^x.repeated_int64~list(int),
		// Accumulator
		__result__,
		// Init
		[]~list(double),
		// LoopCondition
		true~bool,
		// LoopStep
		_+_(__result__~list(double)^__result__, [double(x~int^x)~double^int64_to_double]~list(double))~list(double)^add_list,
		// Result
		__result__~list(double)^__result__)~list(double)`,
    type: 'list(double)',
  },
  {
    in: `x.repeated_int64.map(x, x > 0, double(x))`,
    vars: { x: TAT3 },
    out: `__comprehension__(
		// Variable
		x,
		// Target
		x~${P3}TestAllTypes^x.repeated_int64~list(int),
		// Accumulator
		__result__,
		// Init
		[]~list(double),
		// LoopCondition
		true~bool,
		// LoopStep
		_?_:_(_>_(x~int^x, 0~int)~bool^greater_int64,
		  _+_(__result__~list(double)^__result__, [double(x~int^x)~double^int64_to_double]~list(double))~list(double)^add_list,
		  __result__~list(double)^__result__)~list(double)^conditional,
		// Result
		__result__~list(double)^__result__)~list(double)`,
    type: 'list(double)',
  },
  {
    in: `x[2].single_int32 == 23`,
    vars: { x: mapOf(StringType, TAT3) },
    err: `ERROR: <input>:1:2: found no matching overload for '_[_]' applied to '(map(string, google.expr.proto3.test.TestAllTypes), int)'
 | x[2].single_int32 == 23
 | .^`,
  },
  {
    in: `x["a"].single_int32 == 23`,
    vars: { x: mapOf(StringType, TAT3) },
    out: `_==_(_[_](x~map(string, ${P3}TestAllTypes)^x, "a"~string)~${P3}TestAllTypes^index_map.single_int32~int, 23~int)~bool^equals`,
    type: 'bool',
  },
  {
    in: `x.single_nested_message.bb == 43 && has(x.single_nested_message)`,
    vars: { x: TAT3 },
    out: `_&&_(_==_(x~${P3}TestAllTypes^x.single_nested_message~${P3}TestAllTypes.NestedMessage.bb~int, 43~int)~bool^equals,
      x~${P3}TestAllTypes^x.single_nested_message~test-only~~bool)~bool^logical_and`,
    type: 'bool',
  },
  {
    in: `x.single_nested_message.undefined == x.undefined && has(x.single_int32) && has(x.repeated_int32)`,
    vars: { x: TAT3 },
    err: `ERROR: <input>:1:24: undefined field 'undefined'
 | x.single_nested_message.undefined == x.undefined && has(x.single_int32) && has(x.repeated_int32)
 | .......................^
ERROR: <input>:1:39: undefined field 'undefined'
 | x.single_nested_message.undefined == x.undefined && has(x.single_int32) && has(x.repeated_int32)
 | ......................................^`,
  },
  {
    in: `x.single_nested_message != null`,
    vars: { x: TAT3 },
    out: `_!=_(x~${P3}TestAllTypes^x.single_nested_message~${P3}TestAllTypes.NestedMessage, null~null)~bool^not_equals`,
    type: 'bool',
  },
  {
    in: `x.single_int64 != null`,
    vars: { x: TAT3 },
    err: `ERROR: <input>:1:16: found no matching overload for '_!=_' applied to '(int, null)'
 | x.single_int64 != null
 | ...............^`,
  },
  {
    in: `x.repeated_int64.exists(y, y > 10) && y < 5`,
    vars: { x: TAT3 },
    err: `ERROR: <input>:1:39: undeclared reference to 'y' (in container '')
 | x.repeated_int64.exists(y, y > 10) && y < 5
 | ......................................^`,
  },
  {
    in: `x.repeated_int64.all(e, e > 0) && x.repeated_int64.exists(e, e < 0) && x.repeated_int64.exists_one(e, e == 0)`,
    vars: { x: TAT3 },
    out: `_&&_(_&&_(
      __comprehension__(// Variable
        e, // Target
        x~${P3}TestAllTypes^x.repeated_int64~list(int), // Accumulator
        __result__, // Init
        true~bool, // LoopCondition
        @not_strictly_false(__result__~bool^__result__)~bool^not_strictly_false, // LoopStep
        _&&_(__result__~bool^__result__, _>_(e~int^e, 0~int)~bool^greater_int64)~bool^logical_and, // Result
        __result__~bool^__result__)~bool,
      __comprehension__(// Variable
        e, // Target
        x~${P3}TestAllTypes^x.repeated_int64~list(int), // Accumulator
        __result__, // Init
        false~bool, // LoopCondition
        @not_strictly_false(!_(__result__~bool^__result__)~bool^logical_not)~bool^not_strictly_false, // LoopStep
        _||_(__result__~bool^__result__, _<_(e~int^e, 0~int)~bool^less_int64)~bool^logical_or, // Result
        __result__~bool^__result__)~bool)~bool^logical_and,
      __comprehension__(// Variable
        e, // Target
        x~${P3}TestAllTypes^x.repeated_int64~list(int), // Accumulator
        __result__, // Init
        0~int, // LoopCondition
        true~bool, // LoopStep
        _?_:_(_==_(e~int^e, 0~int)~bool^equals, _+_(__result__~int^__result__, 1~int)~int^add_int64, __result__~int^__result__)~int^conditional, // Result
        _==_(__result__~int^__result__, 1~int)~bool^equals)~bool)~bool^logical_and`,
    type: 'bool',
  },
  {
    in: `x.all(e, 0)`,
    vars: { x: TAT3 },
    err: `ERROR: <input>:1:1: expression of type 'google.expr.proto3.test.TestAllTypes' cannot be range of a comprehension (must be list, map, or dynamic)
 | x.all(e, 0)
 | ^
ERROR: <input>:1:10: expected type 'bool' but found 'int'
 | x.all(e, 0)
 | .........^`,
  },
  {
    in: `lists.filter(x, x > 1.5)`,
    vars: { lists: DynType },
    out: `__comprehension__(// Variable
      x, // Target
      lists~dyn^lists, // Accumulator
      __result__, // Init
      []~list(dyn), // LoopCondition
      true~bool, // LoopStep
      _?_:_(_>_(x~dyn^x, 1.5~double)~bool^greater_double|greater_int64_double|greater_uint64_double,
        _+_(__result__~list(dyn)^__result__, [x~dyn^x]~list(dyn))~list(dyn)^add_list,
        __result__~list(dyn)^__result__)~list(dyn)^conditional, // Result
      __result__~list(dyn)^__result__)~list(dyn)`,
    type: 'list(dyn)',
  },
  { in: `.google.expr.proto3.test.TestAllTypes`, type: `type(${P3}TestAllTypes)` },
  { in: `test.TestAllTypes`, container: 'google.expr.proto3', type: `type(${P3}TestAllTypes)` },
  {
    in: `1 + x`,
    err: `ERROR: <input>:1:5: undeclared reference to 'x' (in container '')
 | 1 + x
 | ....^`,
  },
  { in: `x`, container: 'container', vars: { 'container.x': TAT3 }, type: `${P3}TestAllTypes` },
  {
    in: `list == type([1]) && map == type({1:2u})`,
    out: `_&&_(_==_(list~type(list(dyn))^list, type([1~int]~list(int))~type(list(int))^type)~bool^equals,
      _==_(map~type(map(dyn, dyn))^map, type({1~int : 2u~uint}~map(int, uint))~type(map(int, uint))^type)~bool^equals)~bool^logical_and`,
    type: 'bool',
  },
  {
    in: `myfun(1, true, 3u) + 1.myfun(false, 3u).myfun(true, 42u)`,
    lib: fnLib(
      fn(
        'myfun',
        memberOverload('myfun_instance', [IntType, BoolType, UintType], IntType, noImpl),
        overload('myfun_static', [IntType, BoolType, UintType], IntType, noImpl),
      ),
    ),
    out: `_+_(myfun(1~int, true~bool, 3u~uint)~int^myfun_static,
      1~int.myfun(false~bool, 3u~uint)~int^myfun_instance.myfun(true~bool, 42u~uint)~int^myfun_instance)~int^add_int64`,
    type: 'int',
  },
  {
    in: `size(x) > 4`,
    vars: { x: TAT3 },
    lib: fnLib(fn('size', overload('size_message', [TAT3], IntType, noImpl))),
    type: 'bool',
  },
  { in: `1 in [1, 2, 3]`, out: `@in(1~int, [1~int, 2~int, 3~int]~list(int))~bool^in_list`, type: 'bool' },
  {
    in: `1 in dyn([1, 2, 3])`,
    out: `@in(1~int, dyn([1~int, 2~int, 3~int]~list(int))~dyn^to_dyn)~bool^in_list|in_map`,
    type: 'bool',
  },
  {
    in: `type(null) == null_type`,
    out: `_==_(type(null~null)~type(null)^type, null_type~type(null)^null_type)~bool^equals`,
    type: 'bool',
  },
  {
    in: `type(type) == type`,
    out: `_==_(type(type~type(type)^type)~type(type(type))^type, type~type(type)^type)~bool^equals`,
    type: 'bool',
  },
  {
    in: `([[[1]], [[2]], [[3]]][0][0] + [2, 3, {'four': {'five': 'six'}}])[3]`,
    out: `_[_](_+_(_[_](_[_]([[[1~int]~list(int)]~list(list(int)), [[2~int]~list(int)]~list(list(int)), [[3~int]~list(int)]~list(list(int))]~list(list(list(int))), 0~int)~list(list(int))^index_list, 0~int)~list(int)^index_list,
      [2~int, 3~int, {"four"~string:{"five"~string:"six"~string}~map(string, string)}~map(string, map(string, string))]~list(dyn))~list(dyn)^add_list, 3~int)~dyn^index_list`,
    type: 'dyn',
  },
  {
    in: `[1] + [dyn('string')]`,
    out: `_+_([1~int]~list(int), [dyn("string"~string)~dyn^to_dyn]~list(dyn))~list(dyn)^add_list`,
    type: 'list(dyn)',
  },
  {
    in: `[dyn('string')] + [1]`,
    out: `_+_([dyn("string"~string)~dyn^to_dyn]~list(dyn), [1~int]~list(int))~list(dyn)^add_list`,
    type: 'list(dyn)',
  },
  {
    in: `[].map(x, [].map(y, x in y && y in x))`,
    err: `ERROR: <input>:1:33: found no matching overload for '@in' applied to '(list(dyn), dyn)'
 | [].map(x, [].map(y, x in y && y in x))
 | ................................^`,
  },
  {
    in: `args.user["myextension"].customAttributes.filter(x, x.name == "hobbies")`,
    vars: { args: mapOf(StringType, DynType) },
    out: `__comprehension__(// Variable
      x, // Target
      _[_](args~map(string, dyn)^args.user~dyn, "myextension"~string)~dyn^index_map.customAttributes~dyn, // Accumulator
      __result__, // Init
      []~list(dyn), // LoopCondition
      true~bool, // LoopStep
      _?_:_(_==_(x~dyn^x.name~dyn, "hobbies"~string)~bool^equals,
        _+_(__result__~list(dyn)^__result__, [x~dyn^x]~list(dyn))~list(dyn)^add_list,
        __result__~list(dyn)^__result__)~list(dyn)^conditional, // Result
      __result__~list(dyn)^__result__)~list(dyn)`,
    type: 'list(dyn)',
  },
  {
    in: `a.b + 1 == a[0]`,
    vars: { a: typeParam('T') },
    out: `_==_(_+_(a~dyn^a.b~dyn, 1~int)~int^add_int64, _[_](a~dyn^a, 0~int)~dyn^index_list|index_map)~bool^equals`,
    type: 'bool',
  },
  {
    in: `!has(pb2.single_int64)
		&& !has(pb2.repeated_int32)
		&& !has(pb2.map_string_string)
		&& !has(pb3.single_int64)
		&& !has(pb3.repeated_int32)
		&& !has(pb3.map_string_string)`,
    vars: { pb2: struct(`${P2}TestAllTypes`), pb3: TAT3 },
    out: `_&&_(_&&_(_&&_(!_(pb2~${P2}TestAllTypes^pb2.single_int64~test-only~~bool)~bool^logical_not,
      !_(pb2~${P2}TestAllTypes^pb2.repeated_int32~test-only~~bool)~bool^logical_not)~bool^logical_and,
      !_(pb2~${P2}TestAllTypes^pb2.map_string_string~test-only~~bool)~bool^logical_not)~bool^logical_and,
      _&&_(_&&_(!_(pb3~${P3}TestAllTypes^pb3.single_int64~test-only~~bool)~bool^logical_not,
      !_(pb3~${P3}TestAllTypes^pb3.repeated_int32~test-only~~bool)~bool^logical_not)~bool^logical_and,
      !_(pb3~${P3}TestAllTypes^pb3.map_string_string~test-only~~bool)~bool^logical_not)~bool^logical_and)~bool^logical_and`,
    type: 'bool',
  },
  {
    in: `TestAllTypes{}.repeated_nested_message`,
    container: 'google.expr.proto2.test',
    type: `list(${P2}TestAllTypes.NestedMessage)`,
  },
  {
    in: `TestAllTypes{}.repeated_nested_message`,
    container: 'google.expr.proto3.test',
    type: `list(${P3}TestAllTypes.NestedMessage)`,
  },
  {
    in: `base64.encode('hello')`,
    lib: fnLib(fn('base64.encode', overload('base64_encode_string', [StringType], StringType, noImpl))),
    out: `base64.encode("hello"~string)~string^base64_encode_string`,
    type: 'string',
  },
  {
    in: `encode('hello')`,
    container: 'base64',
    lib: fnLib(fn('base64.encode', overload('base64_encode_string', [StringType], StringType, noImpl))),
    type: 'string',
  },
  { in: `{}`, out: `{}~map(dyn, dyn)`, type: 'map(dyn, dyn)' },
  {
    in: `set([1, 2, 3])`,
    lib: setLib,
    out: `set([1~int, 2~int, 3~int]~list(int))~set(int)^set_list`,
    type: 'set(int)',
  },
  {
    in: `set([1, 2]) == set([2, 1])`,
    lib: setLib,
    out: `_==_(set([1~int, 2~int]~list(int))~set(int)^set_list, set([2~int, 1~int]~list(int))~set(int)^set_list)~bool^equals`,
    type: 'bool',
  },
  {
    in: `set([1, 2]) == x`,
    lib: setLib,
    vars: { x: opaque('set', [typeParam('T')]) },
    out: `_==_(set([1~int, 2~int]~list(int))~set(int)^set_list, x~set(int)^x)~bool^equals`,
    type: 'bool',
  },
  {
    in: `int{}`,
    err: `ERROR: <input>:1:4: 'int' is not a message type
 | int{}
 | ...^`,
  },
  {
    in: `Msg{}`,
    err: `ERROR: <input>:1:4: undeclared reference to 'Msg' (in container '')
 | Msg{}
 | ...^`,
  },
  {
    in: `fun()`,
    err: `ERROR: <input>:1:4: undeclared reference to 'fun' (in container '')
 | fun()
 | ...^`,
  },
  {
    in: `'string'.fun()`,
    err: `ERROR: <input>:1:13: undeclared reference to 'fun' (in container '')
 | 'string'.fun()
 | ............^`,
  },
  {
    in: `[].length`,
    err: `ERROR: <input>:1:3: type 'list(_var0)' does not support field selection
 | [].length
 | ..^`,
  },
  {
    in: `1 <= 1.0 && 1u <= 1.0 && 1.0 <= 1 && 1.0 <= 1u && 1 <= 1u && 1u <= 1`,
    crossType: false,
    err: [
      [3, 'int, double'],
      [16, 'uint, double'],
      [30, 'double, int'],
      [42, 'double, uint'],
      [53, 'int, uint'],
      [65, 'uint, int'],
    ]
      .map(
        ([col, args]) =>
          `ERROR: <input>:1:${col}: found no matching overload for '_<=_' applied to '(${args})'
 | 1 <= 1.0 && 1u <= 1.0 && 1.0 <= 1 && 1.0 <= 1u && 1 <= 1u && 1u <= 1
 | ${'.'.repeat((col as number) - 1)}^`,
      )
      .join('\n'),
  },
  ...(
    [
      ['<=', 'less_equals'],
      ['<', 'less'],
      ['>', 'greater'],
      ['>=', 'greater_equals'],
    ] as const
  ).map(([op, id]) => ({
    in: `1 ${op} 1.0 && 1u ${op} 1.0 && 1.0 ${op} 1 && 1.0 ${op} 1u && 1 ${op} 1u && 1u ${op} 1`,
    crossType: true,
    type: 'bool',
    out: `_&&_(_&&_(_&&_(_${op}_(1~int, 1~double)~bool^${id}_int64_double, _${op}_(1u~uint, 1~double)~bool^${id}_uint64_double)~bool^logical_and,
      _${op}_(1~double, 1~int)~bool^${id}_double_int64)~bool^logical_and,
      _&&_(_&&_(_${op}_(1~double, 1u~uint)~bool^${id}_double_uint64, _${op}_(1~int, 1u~uint)~bool^${id}_int64_uint64)~bool^logical_and,
      _${op}_(1u~uint, 1~int)~bool^${id}_uint64_int64)~bool^logical_and)~bool^logical_and`,
  })),
  {
    in: `[1].map(x, [x, x]).map(x, [x, x])`,
    type: 'list(list(list(int)))',
    out: `__comprehension__(// Variable
      x, // Target
      __comprehension__(// Variable
        x, // Target
        [1~int]~list(int), // Accumulator
        __result__, // Init
        []~list(list(int)), // LoopCondition
        true~bool, // LoopStep
        _+_(__result__~list(list(int))^__result__, [[x~int^x, x~int^x]~list(int)]~list(list(int)))~list(list(int))^add_list, // Result
        __result__~list(list(int))^__result__)~list(list(int)), // Accumulator
      __result__, // Init
      []~list(list(list(int))), // LoopCondition
      true~bool, // LoopStep
      _+_(__result__~list(list(list(int)))^__result__, [[x~list(int)^x, x~list(int)^x]~list(list(int))]~list(list(list(int))))~list(list(list(int)))^add_list, // Result
      __result__~list(list(list(int)))^__result__)~list(list(list(int)))`,
  },
  {
    in: `values.filter(i, i.content != "").map(i, i.content)`,
    type: 'list(string)',
    vars: { values: listOf(mapOf(StringType, StringType)) },
    out: `__comprehension__(// Variable
      i, // Target
      __comprehension__(// Variable
        i, // Target
        values~list(map(string, string))^values, // Accumulator
        __result__, // Init
        []~list(map(string, string)), // LoopCondition
        true~bool, // LoopStep
        _?_:_(_!=_(i~map(string, string)^i.content~string, ""~string)~bool^not_equals,
          _+_(__result__~list(map(string, string))^__result__, [i~map(string, string)^i]~list(map(string, string)))~list(map(string, string))^add_list,
          __result__~list(map(string, string))^__result__)~list(map(string, string))^conditional, // Result
        __result__~list(map(string, string))^__result__)~list(map(string, string)), // Accumulator
      __result__, // Init
      []~list(string), // LoopCondition
      true~bool, // LoopStep
      _+_(__result__~list(string)^__result__, [i~map(string, string)^i.content~string]~list(string))~list(string)^add_list, // Result
      __result__~list(string)^__result__)~list(string)`,
  },
  {
    in: `[{}.map(c,c,c)]+[{}.map(c,c,c)]`,
    type: 'list(list(bool))',
    out: `_+_([__comprehension__(// Variable
        c, // Target
        {}~map(bool, dyn), // Accumulator
        __result__, // Init
        []~list(bool), // LoopCondition
        true~bool, // LoopStep
        _?_:_(c~bool^c, _+_(__result__~list(bool)^__result__, [c~bool^c]~list(bool))~list(bool)^add_list, __result__~list(bool)^__result__)~list(bool)^conditional, // Result
        __result__~list(bool)^__result__)~list(bool)]~list(list(bool)),
      [__comprehension__(// Variable
        c, // Target
        {}~map(bool, dyn), // Accumulator
        __result__, // Init
        []~list(bool), // LoopCondition
        true~bool, // LoopStep
        _?_:_(c~bool^c, _+_(__result__~list(bool)^__result__, [c~bool^c]~list(bool))~list(bool)^add_list, __result__~list(bool)^__result__)~list(bool)^conditional, // Result
        __result__~list(bool)^__result__)~list(bool)]~list(list(bool)))~list(list(bool))^add_list`,
  },
  {
    in: 'type(testAllTypes.nestedgroup.nested_id) == int',
    vars: { testAllTypes: struct(`${P2}TestAllTypes`) },
    type: 'bool',
    out: `_==_(type(testAllTypes~${P2}TestAllTypes^testAllTypes.nestedgroup~${P2}TestAllTypes.NestedGroup.nested_id~int)~type(int)^type, int~type(int)^int)~bool^equals`,
  },
  {
    in: `a.?b`,
    optional: true,
    vars: { a: mapOf(StringType, StringType) },
    type: 'optional_type(string)',
    out: `_?._(a~map(string, string)^a, "b")~optional_type(string)^select_optional_field`,
  },
  {
    in: `type(a.?b) == optional_type`,
    optional: true,
    vars: { a: mapOf(StringType, StringType) },
    type: 'bool',
    out: `_==_(type(_?._(a~map(string, string)^a, "b")~optional_type(string)^select_optional_field)~type(optional_type(string))^type,
      optional_type~type(optional_type)^optional_type)~bool^equals`,
  },
  {
    in: `a.b`,
    vars: { a: optionalOf(mapOf(StringType, StringType)) },
    type: 'optional_type(string)',
    out: `a~optional_type(map(string, string))^a.b~optional_type(string)`,
  },
  {
    in: `a.dynamic`,
    vars: { a: optionalOf(DynType) },
    type: 'optional_type(dyn)',
    out: `a~optional_type(dyn)^a.dynamic~optional_type(dyn)`,
  },
  {
    in: `has(a.dynamic)`,
    vars: { a: optionalOf(DynType) },
    type: 'bool',
    out: `a~optional_type(dyn)^a.dynamic~test-only~~bool`,
  },
  {
    in: `has(a.?b.c)`,
    vars: { a: optionalOf(mapOf(StringType, DynType)) },
    type: 'bool',
    out: `_?._(a~optional_type(map(string, dyn))^a, "b")~optional_type(dyn)^select_optional_field.c~test-only~~bool`,
  },
  {
    in: `{?'key': {'a': 'b'}.?value}`,
    optional: true,
    type: 'map(string, string)',
    out: `{?"key"~string:_?._({"a"~string:"b"~string}~map(string, string), "value")~optional_type(string)^select_optional_field}~map(string, string)`,
  },
  {
    in: `{?'key': {'a': 'b'}.?value}.key`,
    optional: true,
    type: 'string',
    out: `{?"key"~string:_?._({"a"~string:"b"~string}~map(string, string), "value")~optional_type(string)^select_optional_field}~map(string, string).key~string`,
  },
  {
    in: `{?'nested': a.b}`,
    optional: true,
    vars: { a: optionalOf(mapOf(StringType, StringType)) },
    type: 'map(string, string)',
    out: `{?"nested"~string:a~optional_type(map(string, string))^a.b~optional_type(string)}~map(string, string)`,
  },
  {
    in: `{?'key': 'hi'}`,
    optional: true,
    err: `ERROR: <input>:1:10: expected type 'optional_type(string)' but found 'string'
 | {?'key': 'hi'}
 | .........^`,
  },
  {
    in: `[?a, ?b, 'world']`,
    optional: true,
    vars: { a: optionalOf(StringType), b: optionalOf(StringType) },
    type: 'list(string)',
    out: `[a~optional_type(string)^a, b~optional_type(string)^b, "world"~string]~list(string)`,
  },
  {
    in: `[?'value']`,
    optional: true,
    err: `ERROR: <input>:1:3: expected type 'optional_type(string)' but found 'string'
 | [?'value']
 | ..^`,
  },
  {
    in: `TestAllTypes{?single_int32: {}.?i}`,
    optional: true,
    container: 'google.expr.proto2.test',
    type: `${P2}TestAllTypes`,
  },
  {
    in: `TestAllTypes{?single_int32: 1}`,
    optional: true,
    container: 'google.expr.proto2.test',
    err: `ERROR: <input>:1:29: expected type 'optional_type(int)' but found 'int'
 | TestAllTypes{?single_int32: 1}
 | ............................^`,
  },
  {
    in: `undef`,
    err: `ERROR: <input>:1:1: undeclared reference to 'undef' (in container '')
 | undef
 | ^`,
  },
  {
    in: `undef()`,
    err: `ERROR: <input>:1:6: undeclared reference to 'undef' (in container '')
 | undef()
 | .....^`,
  },
]

/** cel-go's checker.Print adorner (checker/printer.go): `~type` then `^name` or `^id1|id2` (sorted). */
function checkedAdorner(c: CheckedAst) {
  return (node: Expr | MapEntry | StructField): string => {
    if (!('kind' in node)) return ''
    let out = ''
    const t = c.types.get(node.id)
    if (t) out += `~${formatType(t)}`
    if (node.kind !== 'map' && node.kind !== 'comprehension' && node.kind !== 'literal') {
      const r = c.refs.get(node.id)
      if (r?.kind === 'ident') out += `^${r.name}`
      else if (r) out += `^${[...r.overloadIds].sort().join('|')}`
    }
    return out
  }
}

const squash = (s: string) => s.replace(/\s+/g, '')

function run(
  tc: Case,
  extra: CheckOptions = {},
): { checked?: CheckedAst; error?: CelCompileError; ast: ReturnType<typeof parse> } {
  const env = new Env({
    libraries: [...(tc.optional ? celLibraries : [standardLibrary]), ...(tc.lib ? [tc.lib] : [])],
    variables: tc.vars ?? {},
    container: tc.container ?? '',
  })
  const ast = parse(tc.in, { macros: env.macros, hiddenAccumulatorName: false })
  try {
    const checked = check(ast, env, {
      homogeneousAggregateLiterals: false,
      crossTypeNumericComparisons: tc.crossType ?? true,
      typeProvider: testProvider,
      ...extra,
    })
    return { checked, ast }
  } catch (e) {
    if (e instanceof CelCompileError) return { error: e, ast }
    throw e
  }
}

describe('cel-go checker/checker_test.go TestCheck', () => {
  for (const [i, tc] of cases.entries()) {
    test(`${i} ${tc.in.replace(/\s+/g, ' ')}`, () => {
      const { checked, error } = run(tc)
      if (tc.err !== undefined) {
        expect(error?.message).toBe(tc.err)
        expect(error?.stage).toBe('check')
        return
      }
      expect(error?.message).toBeUndefined()
      expect(formatType(checked!.outputType)).toBe(tc.type)
      if (tc.out !== undefined)
        expect(squash(toDebugString(checked!.expr, checkedAdorner(checked!)))).toBe(squash(tc.out))
    })
  }
})

describe('error reporting limit (cel-go common/errors_test.go TestErrorsReportingLimit)', () => {
  test('reports the first 100 issues and then how many more were truncated', async () => {
    const { compile } = await import('../../src/cel/program.js')
    // 120 undeclared identifiers: 120 issues.
    const expr = Array.from({ length: 120 }, (_, i) => `x${i}`).join(' + ')
    let message = ''
    try {
      compile(expr)
    } catch (e) {
      message = (e as Error).message
    }
    const lines = message.split('\n')
    expect(lines.filter((l) => l.startsWith('ERROR: ')).length).toBe(100)
    expect(lines[lines.length - 1]).toBe('20 more errors were truncated')
  })
})
