import { describe, expect, it } from 'vitest'
import { compile, standardEnv } from '../../src/cel/program.js'
import { type CelValue, Double } from '../../src/cel/values/values.js'
import { quantityCosts, quantityLibrary } from '../../src/kube/library/quantity.js'
import { mustParseQuantity, Quantity, QuantityType } from '../../src/kube/values/quantity.js'

// Expected values come from k8s.io/apiserver pkg/cel/library/quantity_test.go (TestQuantity; the
// cases of Kubernetes 1.36, which has no mul/div), the examples in pkg/cel/library/quantity.go's
// doc comment, pkg/cel/library/cost.go with cost_test.go (TestQuantityCost), and — where marked —
// behaviour derived from reading pkg/cel/quantity.go and cel-go v0.26 (types.Equal).

const env = standardEnv().extend({ libraries: [quantityLibrary] })
const run = (expr: string): CelValue => compile(expr, { env }).evaluate({})
const errorOf = (expr: string): string => {
  try {
    run(expr)
  } catch (e) {
    return (e as Error).message
  }
  throw new Error(`no error from ${expr}`)
}

describe('TestQuantity (apiserver quantity_test.go)', () => {
  it('parse', () => {
    const q = run('quantity("12Mi")')
    expect(q).toBeInstanceOf(Quantity)
    expect((q as Quantity).equals(mustParseQuantity('12Mi'))).toBe(true)
  })
  it('parseInvalidSuffix / parseInvalidSuffixPassesRegex', () => {
    expect(errorOf('quantity("10Mo")')).toMatch(/^quantities must match the regular expression/)
    expect(errorOf('quantity("10Mo")')).toBe(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    )
    expect(errorOf('quantity("10Mm")')).toBe("unable to parse quantity's suffix")
  })

  const cases: [string, string, CelValue][] = [
    ['isQuantity', 'isQuantity("20")', true],
    ['isQuantity_megabytes', 'isQuantity("20M")', true],
    ['isQuantity_mebibytes', 'isQuantity("20Mi")', true],
    ['isQuantity_invalidSuffix', 'isQuantity("20Mo")', false],
    ['isQuantity_passingRegex', 'isQuantity("10Mm")', false],
    ['equality_reflexivity', 'quantity("200M") == quantity("200M")', true],
    ['equality_symmetry', 'quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', true],
    [
      'equality_transitivity',
      'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
      true,
    ],
    ['inequality', 'quantity("200M") == quantity("0.3G")', false],
    ['quantity_less', 'quantity("50M").isLessThan(quantity("50Mi"))', true],
    ['quantity_less_obvious', 'quantity("50M").isLessThan(quantity("100M"))', true],
    ['quantity_less_false', 'quantity("100M").isLessThan(quantity("50M"))', false],
    ['quantity_greater', 'quantity("50Mi").isGreaterThan(quantity("50M"))', true],
    ['quantity_greater_obvious', 'quantity("150Mi").isGreaterThan(quantity("100Mi"))', true],
    ['quantity_greater_false', 'quantity("50M").isGreaterThan(quantity("100M"))', false],
    ['compare_equal', 'quantity("200M").compareTo(quantity("0.2G"))', 0],
    ['compare_less', 'quantity("50M").compareTo(quantity("50Mi"))', -1],
    ['compare_greater', 'quantity("50Mi").compareTo(quantity("50M"))', 1],
    ['add_quantity', 'quantity("50k").add(quantity("20")) == quantity("50.02k")', true],
    ['add_int', 'quantity("50k").add(20).isLessThan(quantity("50020"))', false],
    ['sub_quantity', 'quantity("50k").sub(quantity("20")) == quantity("49.98k")', true],
    ['sub_int', 'quantity("50k").sub(20) == quantity("49980")', true],
    ['arith_chain_1', 'quantity("50k").add(20).sub(quantity("100k")).asInteger()', -49980],
    ['arith_chain', 'quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', 20],
    ['as_integer', 'quantity("50k").asInteger()', 50000],
    ['is_integer', 'quantity("9999999999999999999999999999999999999G").isInteger()', false],
    ['is_integer', 'quantity("50").isInteger()', true],
    ['as_float', 'quantity("50.703k").asApproximateFloat()', new Double(50703)],
  ]
  for (const [name, expr, want] of cases) it(`${name}: ${expr}`, () => expect(run(expr)).toEqual(want))

  it('as_integer_error', () => {
    expect(errorOf('quantity("9999999999999999999999999999999999999G").asInteger()')).toBe(
      'cannot convert value to integer',
    )
  })
})

describe('doc examples (apiserver pkg/cel/library/quantity.go)', () => {
  const cases: [string, CelValue][] = [
    ['isQuantity("1.3G")', true],
    ['isQuantity("1.3Gi")', true],
    ['isQuantity("1,3G")', false],
    ['isQuantity("10000k")', true],
    ['isQuantity("200K")', false],
    ['isQuantity("Three")', false],
    ['quantity("50000000G").isInteger()', true],
    ['quantity("50k").isInteger()', true],
    ['quantity("9999999999999999999999999999999999999G").isInteger()', false],
    ['quantity("50k").asInteger() == 50000', true],
    ['quantity("50k").sub(20000).asApproximateFloat() == 30000.0', true],
    ['quantity("50k").add(20) == quantity("50020")', true],
    ['quantity("50k").sub(20000) == quantity("30k")', true],
    ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")', true],
    ['quantity("50M").isLessThan(quantity("100M"))', true],
    ['quantity("100M").isLessThan(quantity("50M"))', false],
    ['quantity("50Mi").isGreaterThan(quantity("100Mi"))', false],
  ]
  for (const [expr, want] of cases) it(expr, () => expect(run(expr)).toEqual(want))
  it('errors', () => {
    expect(errorOf("quantity('200K')")).toBe("unable to parse quantity's suffix")
    expect(errorOf("quantity('Three')")).toMatch(/^quantities must match/)
    expect(errorOf('quantity("9999999999999999999999999999999999999G").asInteger()')).toBe(
      'cannot convert value to integer',
    )
  })
})

describe('sign (global overload quantity_sign)', () => {
  it('returns -1, 0, 1', () => {
    expect(run('sign(quantity("-1.5Gi"))')).toBe(-1)
    expect(run('sign(quantity("0"))')).toBe(0)
    expect(run('sign(quantity("1n"))')).toBe(1)
  })
})

describe('values and types', () => {
  it('type(quantity(...)) is kubernetes.Quantity', () => {
    expect(String(run('type(quantity("1"))'))).toBe('kubernetes.Quantity')
    expect(QuantityType.name).toBe('kubernetes.Quantity')
  })
  it('asInteger returns an int, asApproximateFloat a double', () => {
    expect(run('quantity("7Ti").asInteger()')).toBe(7 * 2 ** 40)
    expect(run('quantity("9223372036854775807").asApproximateFloat()')).toBe(2 ** 63)
    // "8Ei" is capped at MaxInt64 and held as inf.Dec (ParseQuantity's slow path): not an integer.
    expect(run('quantity("8Ei").isInteger()')).toBe(false)
    expect(run('quantity("1E").asInteger()')).toBe(1000000000000000000n)
    expect(run('quantity("1.5").asApproximateFloat()')).toBe(1.5)
    expect(run('quantity("1E").asInteger() == 1000000000000000000')).toBe(true)
  })
  it('add and sub leave the receiver alone (master: add_does_not_mutate_receiver)', () => {
    expect(
      run('[quantity("1.5Gi")].all(q, q.add(quantity("1Gi")) == quantity("2.5Gi") && q == quantity("1.5Gi"))'),
    ).toBe(true)
    expect(run('[quantity("1.5Gi")].all(q, q.sub(1) != quantity("1.5Gi") && q == quantity("1.5Gi"))')).toBe(true)
  })
})

describe('Kubernetes quirks derived from code (spec §B.4, §K)', () => {
  it('a computed Quantity on the right of == is no such overload (Equal asserts the value type)', () => {
    expect(run('quantity("50k").add(quantity("20k")) == quantity("70k")')).toBe(true)
    expect(errorOf('quantity("70k") == quantity("50k").add(quantity("20k"))')).toBe('no such overload')
    // but `!=` is true: cel-go's evalNe is `Equal(l, r) != True` (the differential's oracle answers true)
    expect(run('quantity("70k") != quantity("50k").sub(1)')).toBe(true)
  })
  it('compareTo / isGreaterThan / isLessThan move the receiver to inf.Dec (resource.Quantity.Cmp)', () => {
    expect(run('[quantity("1")].map(q, [q.isInteger(), q.compareTo(quantity("1.5Gi")), q.isInteger()])')).toEqual([
      [true, -1, false],
    ])
  })
  it('isQuantity("Mi") is true: ParseQuantity reads a bare suffix as zero (the godoc says false)', () => {
    expect(run('isQuantity("Mi")')).toBe(true)
    expect(run('quantity("Mi") == quantity("0")')).toBe(true)
  })
  it('x - mostNegative wraps on the int64 path (released amount.go Sub; the differential oracle, v0.37.2)', () => {
    expect(run('quantity("0").sub(-9223372036854775808).isInteger()')).toBe(true)
    expect(run('quantity("0").sub(-9223372036854775808).asInteger()')).toBe(-9223372036854775808n)
    expect(run('quantity("0").sub(-9223372036854775808) == quantity("9223372036854775808")')).toBe(false)
    expect(run('quantity("1").sub(-9223372036854775808).asApproximateFloat()')).toBe(-(2 ** 63))
    expect(run('quantity("1e1").sub(-9223372036854775808).asInteger()')).toBe(-9223372036854775798n)
    // an overflow of the int64 path goes to inf.Dec with the operand itself: exact
    expect(run('quantity("1m").sub(-9223372036854775808).asApproximateFloat()')).toBe(2 ** 63)
    expect(run('quantity("1").sub(quantity("-9223372036854775808")).asApproximateFloat()')).toBe(2 ** 63)
  })
})

describe('declarations (apiserver pkg/cel/library/quantity.go quantityLibraryDecls)', () => {
  it('names the overloads as Kubernetes does', () => {
    const decls = Object.fromEntries(
      quantityLibrary.functions.map((f) => [
        f.name,
        f.overloads.map((o) => `${o.id}:${o.member ? 'member' : 'global'}(${o.params.join(',')})->${o.result}`),
      ]),
    )
    expect(decls).toEqual({
      quantity: ['string_to_quantity:global(string)->kubernetes.Quantity'],
      isQuantity: ['is_quantity_string:global(string)->bool'],
      sign: ['quantity_sign:global(kubernetes.Quantity)->int'],
      isGreaterThan: ['quantity_is_greater_than:member(kubernetes.Quantity,kubernetes.Quantity)->bool'],
      isLessThan: ['quantity_is_less_than:member(kubernetes.Quantity,kubernetes.Quantity)->bool'],
      compareTo: ['quantity_compare_to:member(kubernetes.Quantity,kubernetes.Quantity)->int'],
      asApproximateFloat: ['quantity_get_float:member(kubernetes.Quantity)->double'],
      asInteger: ['quantity_get_int:member(kubernetes.Quantity)->int'],
      isInteger: ['quantity_is_integer:member(kubernetes.Quantity)->bool'],
      add: [
        'quantity_add:member(kubernetes.Quantity,kubernetes.Quantity)->kubernetes.Quantity',
        'quantity_add_int:member(kubernetes.Quantity,int)->kubernetes.Quantity',
      ],
      sub: [
        'quantity_sub:member(kubernetes.Quantity,kubernetes.Quantity)->kubernetes.Quantity',
        'quantity_sub_int:member(kubernetes.Quantity,int)->kubernetes.Quantity',
      ],
    })
    expect(quantityLibrary.name).toBe('kubernetes.quantity')
  })
})

describe('costs (cost.go CallCost / EstimateCallCost; cost_test.go TestQuantityCost)', () => {
  const q = mustParseQuantity('1')
  it('parsing costs ceil(code points × 0.1); the estimate falls back to 1', () => {
    // quantity("12Mi") and isQuantity("20M") cost 1 (TestQuantityCost)
    expect(quantityCosts.string_to_quantity!.actual!(['12Mi'], q)).toBe(1)
    expect(quantityCosts.is_quantity_string!.actual!(['20M'], true)).toBe(1)
    expect(quantityCosts.string_to_quantity!.actual!(['1234567890.5'], q)).toBe(2)
    expect(quantityCosts.string_to_quantity!.estimate).toBeUndefined()
    expect(quantityCosts.is_quantity_string!.estimate).toBeUndefined()
  })
  it('everything else is nominal', () => {
    for (const id of [
      'quantity_sign',
      'quantity_is_greater_than',
      'quantity_is_less_than',
      'quantity_compare_to',
      'quantity_get_float',
      'quantity_get_int',
      'quantity_is_integer',
      'quantity_add',
      'quantity_add_int',
      'quantity_sub',
      'quantity_sub_int',
    ]) {
      expect(quantityCosts[id]!.actual!([q, q], q)).toBe(1)
      expect(quantityCosts[id]!.estimate!([])).toEqual({ min: 1, max: 1 })
    }
    const ids = quantityLibrary.functions.flatMap((f) => f.overloads.map((o) => o.id)).sort()
    expect(Object.keys(quantityCosts).sort()).toEqual(ids)
  })
})
