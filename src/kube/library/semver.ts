import { ErrorValue } from '../../cel/common/errors.js'
import { fn, type Library, memberOverload, overload } from '../../cel/functions.js'
import { BoolType, IntType, opaque, StringType } from '../../cel/types/types.js'
import { mkInt } from '../../cel/values/values.js'
import { compareSemver, parseSemver, parseSemverNormalized, SemverValue } from '../values/semver.js'
import { type KubeCost, one, StringTraversalCostFactor, stringSize } from './lists.js'

// Library `kubernetes.Semver` (k8s.io/apiserver pkg/cel/library/semverlib.go, value pkg/cel/semver.go).
// Kubernetes' base environment has it since 1.33 with SemverVersion(1), which adds the `normalize`
// overloads. Kubernetes declares the type with cel.ObjectType("kubernetes.Semver"); here it is an opaque
// type of the same name.

export const SemverType = opaque('kubernetes.Semver')

function toSemver(s: string, normalize: boolean): SemverValue {
  const v = normalize ? parseSemverNormalized(s) : parseSemver(s)
  if (typeof v === 'string') throw new ErrorValue(v) // types.WrapErr: the error text as is
  return new SemverValue(v)
}

function isSemver(s: string, normalize: boolean): boolean {
  return typeof (normalize ? parseSemverNormalized(s) : parseSemver(s)) !== 'string'
}

/** types.Int(uint64): values above MaxInt64 wrap around, as Go's conversion does. */
function asInt(v: bigint): number | bigint {
  return mkInt(BigInt.asIntN(64, v))
}

const version0 = [
  fn(
    'semver',
    overload('string_to_semver', [StringType], SemverType, (s: string) => toSemver(s, false)),
  ),
  fn(
    'isSemver',
    overload('is_semver_string', [StringType], BoolType, (s: string) => isSemver(s, false)),
  ),
  fn(
    'isGreaterThan',
    memberOverload(
      'semver_is_greater_than',
      [SemverType, SemverType],
      BoolType,
      (a: SemverValue, b: SemverValue) => compareSemver(a.version, b.version) === 1,
    ),
  ),
  fn(
    'isLessThan',
    memberOverload(
      'semver_is_less_than',
      [SemverType, SemverType],
      BoolType,
      (a: SemverValue, b: SemverValue) => compareSemver(a.version, b.version) === -1,
    ),
  ),
  fn(
    'compareTo',
    memberOverload('semver_compare_to', [SemverType, SemverType], IntType, (a: SemverValue, b: SemverValue) =>
      compareSemver(a.version, b.version),
    ),
  ),
  fn(
    'major',
    memberOverload('semver_major', [SemverType], IntType, (v: SemverValue) => asInt(v.version.major)),
  ),
  fn(
    'minor',
    memberOverload('semver_minor', [SemverType], IntType, (v: SemverValue) => asInt(v.version.minor)),
  ),
  fn(
    'patch',
    memberOverload('semver_patch', [SemverType], IntType, (v: SemverValue) => asInt(v.version.patch)),
  ),
]

const version1 = [
  fn('semver', overload('string_bool_to_semver', [StringType, BoolType], SemverType, toSemver)),
  fn('isSemver', overload('is_semver_string_bool', [StringType, BoolType], BoolType, isSemver)),
]

/** `library.SemverLib(library.SemverVersion(0))`. */
export const semverLibraryV0: Library = { name: 'kubernetes.Semver', functions: version0 }

/** `library.SemverLib(library.SemverVersion(1))`, as Kubernetes' base environment has it since 1.33. */
export const semverLibrary: Library = { name: 'kubernetes.Semver', functions: [...version0, ...version1] }

/**
 * cost.go: `semver` / `isSemver` cost ceil(size(str) * 0.1) at run time (size in code points); their
 * estimate case requires a receiver, which these global calls lack, so cel-go's default estimate applies.
 * The accessors and comparisons cost 1.
 */
const parseCost: KubeCost = { actual: ([s]) => Math.ceil(stringSize(s as string) * StringTraversalCostFactor) }

export const semverCosts: Readonly<Record<string, KubeCost>> = {
  string_to_semver: parseCost,
  string_bool_to_semver: parseCost,
  is_semver_string: parseCost,
  is_semver_string_bool: parseCost,
  semver_is_greater_than: one,
  semver_is_less_than: one,
  semver_compare_to: one,
  semver_major: one,
  semver_minor: one,
  semver_patch: one,
}

/** cost.go for `_==_` with kubernetes.Semver operands: 1, estimated and at run time. */
export const semverEqualsCost: KubeCost = one
