import { describe, expect, it } from 'vitest'
import { compile, standardEnv } from '../../src/cel/program.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { semverCosts, semverEqualsCost, semverLibrary, semverLibraryV0 } from '../../src/kube/library/semver.js'
import {
  compareSemver,
  parseSemver,
  parseSemverNormalized,
  type Semver,
  SemverValue,
} from '../../src/kube/values/semver.js'

const env = standardEnv().extend({ libraries: [semverLibrary] })
const envV0 = standardEnv().extend({ libraries: [semverLibraryV0] })

function run(expr: string): CelValue {
  return compile(expr, { env }).evaluate({})
}

function parsed(s: string): Semver {
  const v = parseSemver(s)
  if (typeof v === 'string') throw new Error(v)
  return v
}

describe('apiserver pkg/cel/library/semver_test.go TestSemver', () => {
  it('parse', () => {
    const v = run('semver("1.2.3")') as SemverValue
    expect(v).toBeInstanceOf(SemverValue)
    expect(v.typeName).toBe('kubernetes.Semver')
    expect(v.toString()).toBe('1.2.3')
  })
  it('parseInvalidVersion', () => {
    expect(() => run('semver("v1.0")')).toThrow('No Major.Minor.Patch elements found')
  })
  const cases: [string, CelValue][] = [
    ['isSemver("1.2.3-beta.1+build.1")', true],
    ['isSemver("")', false],
    ['isSemver("v1.0.0")', false],
    ['isSemver(" 1.0.0")', false],
    ['isSemver("1. 0.0")', false],
    ['isSemver("1.0.0 ")', false],
    ['isSemver("01.01.01")', false],
    ['isSemver("1")', false],
    ['isSemver("1.1")', false],
    ['isSemver("", true)', false],
    ['isSemver(" 1.0.0", true)', false],
    ['isSemver("1. 0.0", true)', false],
    ['isSemver("1.0.0 ", true)', false],
    ['isSemver("v1.0.0", true)', true],
    ['isSemver("01.01.01", true)', true],
    ['isSemver("1", true)', true],
    ['isSemver("1.1", true)', true],
    ['semver("v01.01", true) == semver("1.1.0")', true],
    ['semver("1.2.3") == semver("1.2.3")', true],
    ['semver("1.2.3") == semver("1.0.0")', false],
    ['semver("1.0.0").isLessThan(semver("1.2.3"))', true],
    ['semver("1.0.0").isLessThan(semver("1.0.0"))', false],
    ['semver("1.2.3").isGreaterThan(semver("1.0.0"))', true],
    ['semver("1.0.0").isGreaterThan(semver("1.0.0"))', false],
    ['semver("1.2.3").compareTo(semver("1.2.3"))', 0],
    ['semver("1.0.0").compareTo(semver("1.2.3"))', -1],
    ['semver("1.2.3").compareTo(semver("1.0.0"))', 1],
    ['semver("1.2.3").major()', 1],
    ['semver("1.2.3").minor()', 2],
    ['semver("1.2.3").patch()', 3],
  ]
  for (const [expr, want] of cases) it(expr, () => expect(run(expr)).toBe(want))

  it('version 0 has no normalize overloads', () => {
    expect(semverLibraryV0.functions.flatMap((f) => f.overloads.map((o) => o.id))).not.toContain(
      'string_bool_to_semver',
    )
    expect(() => compile('isSemver("1", true)', { env: envV0 }).evaluate({})).toThrow()
  })
})

describe('apiserver pkg/cel/library/semverlib.go documented examples', () => {
  it('semver', () => {
    expect(String(run("semver('0.1.0-alpha.1')"))).toBe('0.1.0-alpha.1')
    for (const bad of ['200K', 'Three', 'Mi']) expect(() => run(`semver('${bad}')`)).toThrow()
    expect(String(run("semver('v1.0.0', true)"))).toBe('1.0.0')
    expect(String(run("semver('1.0', true)"))).toBe('1.0.0')
    expect(String(run("semver('01.01.01', true)"))).toBe('1.1.1')
    expect(run("isSemver('hello')")).toBe(false)
    expect(run("isSemver('v1.0')")).toBe(false)
    expect(run("isSemver('v1.0', true)")).toBe(true)
    expect(run('semver("1.2.3").compareTo(semver("0.1.2"))')).toBe(1)
  })
  it('normalizeAndParse rejects pre-release / build data on a short version', () => {
    expect(() => run("semver('1.0+abc', true)")).toThrow('short version cannot contain PreRelease/Build meta data')
    expect(() => run("semver('1-beta', true)")).toThrow('short version cannot contain PreRelease/Build meta data')
    // SplitN(s, ".", 3) makes '1.0-rc.1' three parts, so strict Parse reports the minor number
    expect(() => run("semver('1.0-rc.1', true)")).toThrow('Invalid character(s) found in minor number "0-rc"')
  })
})

describe('github.com/blang/semver/v4 semver_test.go', () => {
  it('TestParse / TestStringer (formatTests)', () => {
    for (const s of [
      '1.2.3',
      '0.0.1',
      '0.0.1-alpha.preview+123.456',
      '1.2.3-alpha.1+123.456',
      '1.2.3-alpha.1',
      '1.2.3+123.456',
      '1.2.3-alpha.b-eta+123.b-uild',
      '1.2.3+123.b-uild',
      '1.2.3-alpha.b-eta',
    ]) {
      expect(parsed(s).toString()).toBe(s)
    }
  })
  it('TestParseTolerant cases Kubernetes normalization also accepts (it does not trim spaces)', () => {
    const cases: [string, string][] = [
      ['v1.2.3', '1.2.3'],
      ['1.2.0-alpha', '1.2.0-alpha'],
      ['1.2.00', '1.2.0'],
      ['01.02.03', '1.2.3'],
      ['00.0.03', '0.0.3'],
      ['000.0.03', '0.0.3'],
      ['1.2', '1.2.0'],
      ['1', '1.0.0'],
    ]
    for (const [input, want] of cases) expect(String(parseSemverNormalized(input))).toBe(want)
    expect(typeof parseSemverNormalized('\t1.2.3 ')).toBe('string')
  })
  it('TestCompare (compareTests, both directions)', () => {
    const cases: [string, string, number][] = [
      ['1.0.0', '1.0.0', 0],
      ['2.0.0', '1.0.0', 1],
      ['0.2.0', '0.1.0', 1],
      ['0.0.2', '0.0.1', 1],
      ['2.2.4', '1.2.4', 1],
      ['1.3.3', '1.2.3', 1],
      ['1.2.4', '1.2.3', 1],
      ['1.0.0', '2.0.0', -1],
      ['2.0.0', '2.1.0', -1],
      ['2.1.0', '2.1.1', -1],
      ['1.0.0', '1.0.0-alpha', 1],
      ['1.0.0-alpha', '1.0.0-alpha.1', -1],
      ['1.0.0-alpha.1', '1.0.0-alpha.beta', -1],
      ['1.0.0-alpha.beta', '1.0.0-beta', -1],
      ['1.0.0-beta', '1.0.0-beta.2', -1],
      ['1.0.0-beta.2', '1.0.0-beta.11', -1],
      ['1.0.0-beta.11', '1.0.0-rc.1', -1],
      ['1.0.0-rc.1', '1.0.0', -1],
      ['1.0.0+1.2.3', '1.0.0', 0],
    ]
    for (const [a, b, want] of cases) {
      expect(compareSemver(parsed(a), parsed(b)), `${a} vs ${b}`).toBe(want)
      expect(compareSemver(parsed(b), parsed(a)), `${b} vs ${a}`).toBe(-want || 0)
    }
  })
  it('TestWrongFormat (wrongformatTests)', () => {
    for (const s of [
      '',
      '.',
      '1.',
      '.1',
      'a.b.c',
      '1.a.b',
      '1.1.a',
      '1.a.1',
      'a.1.1',
      '..',
      '1..',
      '1.1.',
      '1..1',
      '1.1.+123',
      '1.1.-beta',
      '-1.1.1',
      '1.-1.1',
      '1.1.-1',
      '20000000000000000000.1.1',
      '1.20000000000000000000.1',
      '1.1.20000000000000000000',
      '1.1.1-20000000000000000000',
      '01.1.1',
      '001.1.1',
      '1.01.1',
      '1.001.1',
      '1.1.01',
      '1.1.001',
      '1.1.1-01',
      '1.1.1-001',
      '1.1.1-beta.01',
      '1.1.1-beta.001',
      '0.0.0-!',
      '0.0.0+!',
      '0.0.0-.alpha',
      '0.0.0-alpha+',
      '0.0.0-alpha+test.',
    ]) {
      expect(typeof parseSemver(s), JSON.stringify(s)).toBe('string')
    }
  })
  it('TestWrongTolerantFormat', () => {
    for (const s of ['1.0+abc', '1.0-rc.1']) expect(typeof parseSemverNormalized(s)).toBe('string')
  })
})

describe('github.com/blang/semver/v4 semver.go Parse error texts (wrapped verbatim by types.WrapErr)', () => {
  const cases: [string, string][] = [
    ['', 'Version string empty'],
    ['1.2', 'No Major.Minor.Patch elements found'],
    ['a.1.1', 'Invalid character(s) found in major number "a"'],
    ['01.1.1', 'Major number must not contain leading zeroes "01"'],
    ['1.01.1', 'Minor number must not contain leading zeroes "01"'],
    ['1.1.a', 'Invalid character(s) found in patch number "a"'],
    ['1.1.01', 'Patch number must not contain leading zeroes "01"'],
    ['1..1', 'strconv.ParseUint: parsing "": invalid syntax'],
    ['20000000000000000000.1.1', 'strconv.ParseUint: parsing "20000000000000000000": value out of range'],
    ['1.1.1-', 'Prerelease is empty'],
    ['1.1.1-01', 'Numeric PreRelease version must not contain leading zeroes "01"'],
    ['0.0.0-!', 'Invalid character(s) found in prerelease "!"'],
    ['0.0.0-alpha+', 'Build meta data is empty'],
    ['0.0.0+!', 'Invalid character(s) found in build meta data "!"'],
  ]
  for (const [input, message] of cases) {
    it(JSON.stringify(input), () => {
      expect(parseSemver(input)).toBe(message)
      expect(() => run(`semver(${JSON.stringify(input)})`)).toThrow(message)
    })
  }
  it('major() converts the uint64 with Go int64(...) wrap-around', () => {
    expect(run('semver("18446744073709551615.0.0").major()')).toBe(-1)
    expect(run('semver("9223372036854775807.0.0").major()')).toBe(9223372036854775807n)
  })
})

describe('apiserver pkg/cel/library/cost.go (semver entries)', () => {
  it('semver / isSemver cost ceil(size * 0.1) at run time; accessors and comparisons 1', () => {
    expect(semverCosts.string_to_semver!.actual!(['1.2.3'], null)).toBe(1)
    expect(semverCosts.is_semver_string_bool!.actual!(['10.20.30-alpha.1', true], null)).toBe(2)
    expect(semverCosts.string_to_semver!.estimate).toBeUndefined()
    for (const id of ['semver_major', 'semver_minor', 'semver_patch', 'semver_compare_to', 'semver_is_less_than']) {
      expect(semverCosts[id]!.actual!([], null)).toBe(1)
    }
    expect(semverEqualsCost.actual!([], null)).toBe(1)
  })
  it('has an entry for every overload', () => {
    for (const f of semverLibrary.functions) for (const o of f.overloads) expect(semverCosts[o.id], o.id).toBeDefined()
  })
})
