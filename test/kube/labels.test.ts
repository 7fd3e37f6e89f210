import { describe, expect, it } from 'vitest'
import {
  everything,
  LabelSelectorError,
  labelSelectorAsSelector,
  matchesNothing,
  newRequirement,
  newSelector,
  nothing,
  Operator,
  type Requirement,
  type Selector,
  selectorFromSet,
} from '../../src/kube/labels.js'

// Transcribed from k8s.io/apimachinery v0.36.3 pkg/labels/selector_test.go and
// pkg/apis/meta/v1/helpers_test.go (cases that do not need the string parser, labels.Parse).

const req = (key: string, op: string, vals: string[] | null) => newRequirement(key, op, vals)
// sets.NewString(...).List(): sorted
const sorted = (...v: string[]) => [...v].sort()
const sel = (...reqs: Requirement[]): Selector => newSelector().add(...reqs)

describe('TestEverything', () => {
  it('matches and is empty', () => {
    expect(everything().matches({ x: 'y' })).toBe(true)
    expect(everything().empty()).toBe(true)
  })
})

describe('TestSetMatches / TestNilMapIsValid / TestSetIsEmpty', () => {
  const labelset = { foo: 'bar', baz: 'blah' }
  it('SelectorFromSet matches', () => {
    for (const s of [{}, { foo: 'bar' }, { baz: 'blah' }, { foo: 'bar', baz: 'blah' }] as Record<string, string>[])
      expect(selectorFromSet(s).matches(labelset)).toBe(true)
  })
  it('nil and empty sets are empty selectors; NewSelector is empty', () => {
    expect(selectorFromSet(null).empty()).toBe(true)
    expect(selectorFromSet({}).empty()).toBe(true)
    expect(newSelector().empty()).toBe(true)
  })
})

describe('TestRequirementConstructor', () => {
  // [key, op, values, wanted field errors (type, field, badValue)]
  const cases: [string, string, string[], [string, string, unknown][]?][] = [
    ['x1', 'in', [], [['FieldValueInvalid', 'values', []]]],
    ['x2', 'notin', [], [['FieldValueInvalid', 'values', []]]],
    ['x3', 'in', ['foo']],
    ['x4', 'notin', ['foo']],
    ['x5', '=', sorted('foo', 'bar'), [['FieldValueInvalid', 'values', ['bar', 'foo']]]],
    ['x6', 'exists', []],
    ['x7', '!', []],
    ['x8', 'exists', ['foo'], [['FieldValueInvalid', 'values', ['foo']]]],
    ['x9', 'in', ['bar']],
    ['x10', 'in', ['bar']],
    ['x11', 'gt', ['1']],
    ['x12', 'lt', ['6']],
    ['x13', 'gt', [], [['FieldValueInvalid', 'values', []]]],
    ['x14', 'gt', ['bar'], [['FieldValueInvalid', 'values[0]', 'bar']]],
    ['x15', 'lt', ['bar'], [['FieldValueInvalid', 'values[0]', 'bar']]],
    ['a'.repeat(254), 'exists', [], [['FieldValueInvalid', 'key', 'a'.repeat(254)]]],
    ['x16', '=', ['a'.repeat(254)], [['FieldValueInvalid', 'values[0][x16]', 'a'.repeat(254)]]],
    ['x17', '=', ['a b'], [['FieldValueInvalid', 'values[0][x17]', 'a b']]],
    ['x18', 'unsupportedOp', [], [['FieldValueNotSupported', 'operator', 'unsupportedOp']]],
  ]
  for (const [key, op, vals, want] of cases) {
    it(key.length > 20 ? `${key.slice(0, 5)}…(${key.length})` : key, () => {
      if (!want) {
        expect(() => req(key, op, vals)).not.toThrow()
        return
      }
      try {
        req(key, op, vals)
        expect.unreachable()
      } catch (e) {
        expect(e).toBeInstanceOf(LabelSelectorError)
        expect((e as LabelSelectorError).errors.map((x) => [x.type, x.field, x.badValue])).toEqual(want)
      }
    })
  }

  it('messages read as apimachinery prints them', () => {
    expect(() => req('x1', 'in', [])).toThrow(
      "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty",
    )
    expect(() => req('x18', 'unsupportedOp', [])).toThrow(
      'operator: Unsupported value: "unsupportedOp": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    )
    expect(() => req('x17', '=', ['a b'])).toThrow(
      `values[0][x17]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    )
    // several errors aggregate as [e1, e2]
    expect(() => req('a b', 'gt', ['x'])).toThrow(
      /^\[key: Invalid value: "a b": .*, values\[0\]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer\]$/,
    )
  })
})

describe('TestToString', () => {
  const cases: [Selector, string][] = [
    [
      sel(req('x', 'in', sorted('abc', 'def')), req('y', 'notin', ['jkl']), req('z', 'exists', [])),
      'x in (abc,def),y notin (jkl),z',
    ],
    [
      sel(req('x', 'notin', sorted('abc', 'def')), req('y', '!=', ['jkl']), req('z', '!', [])),
      'x notin (abc,def),y!=jkl,!z',
    ],
    [
      sel(req('x', 'notin', ['abc']), req('y', 'in', sorted('jkl', 'mno')), req('z', 'notin', [''])),
      'x notin (abc),y in (jkl,mno),z notin ()',
    ],
    [
      sel(req('x', '=', ['abc']), req('y', '==', ['jkl']), req('z', '!=', ['a']), req('z', 'exists', [])),
      'x=abc,y==jkl,z!=a,z',
    ],
    [sel(req('x', 'gt', ['2']), req('y', 'lt', ['8']), req('z', 'exists', [])), 'x>2,y<8,z'],
  ]
  for (const [i, [s, out]] of cases.entries()) it(`case ${i}`, () => expect(s.toString()).toBe(out))
  it('values print sorted without reordering the requirement', () => {
    const r = req('x', 'in', ['b', 'a'])
    expect(r.toString()).toBe('x in (a,b)')
    expect(r.values).toEqual(['b', 'a'])
  })
})

describe('TestRequirementSelectorMatching', () => {
  const cases: [Record<string, string>, Selector, boolean][] = [
    [{ x: 'foo', y: 'baz' }, sel(req('x', 'in', ['foo']), req('y', 'notin', ['alpha'])), true],
    [{ x: 'foo', y: 'baz' }, sel(req('x', 'in', ['foo']), req('y', 'in', ['alpha'])), false],
    [{ y: '' }, sel(req('x', 'notin', ['']), req('y', 'exists', [])), true],
    [{ y: '' }, sel(req('x', '!', []), req('y', 'exists', [])), true],
    [{ y: '' }, sel(req('x', 'notin', ['']), req('y', '!', [])), false],
    [{ y: 'baz' }, sel(req('x', 'in', [''])), false],
    [{ z: '2' }, sel(req('z', 'gt', ['1'])), true],
    [{ z: 'v2' }, sel(req('z', 'gt', ['1'])), false],
  ]
  for (const [i, [set, s, want]] of cases.entries()) it(`case ${i}: ${s}`, () => expect(s.matches(set)).toBe(want))
})

describe('TestSelectorMatches (as requirements; the Go test parses strings)', () => {
  const m = (s: Selector, set: Record<string, string>) => s.matches(set)
  it('matches', () => {
    expect(m(newSelector(), { x: 'y' })).toBe(true)
    expect(m(sel(req('x', '=', ['y'])), { x: 'y' })).toBe(true)
    expect(m(sel(req('x', '=', ['y']), req('z', '=', ['w'])), { x: 'y', z: 'w' })).toBe(true)
    expect(m(sel(req('x', '!=', ['y']), req('z', '!=', ['w'])), { x: 'z', z: 'a' })).toBe(true)
    expect(m(sel(req('notin', '=', ['in'])), { notin: 'in' })).toBe(true)
    expect(m(sel(req('x', 'exists', [])), { x: 'z' })).toBe(true)
    expect(m(sel(req('x', '!', [])), { y: 'z' })).toBe(true)
    expect(m(sel(req('x', 'gt', ['1'])), { x: '2' })).toBe(true)
    expect(m(sel(req('x', 'lt', ['1'])), { x: '0' })).toBe(true)
  })
  it('does not match', () => {
    expect(m(sel(req('x', '=', ['z'])), {})).toBe(false)
    expect(m(sel(req('x', '=', ['y'])), { x: 'z' })).toBe(false)
    expect(m(sel(req('x', '=', ['y']), req('z', '=', ['w'])), { x: 'w', z: 'w' })).toBe(false)
    expect(m(sel(req('x', '!=', ['y']), req('z', '!=', ['w'])), { x: 'z', z: 'w' })).toBe(false)
    expect(m(sel(req('x', 'exists', [])), { y: 'z' })).toBe(false)
    expect(m(sel(req('x', '!', [])), { x: 'z' })).toBe(false)
    expect(m(sel(req('x', 'gt', ['1'])), { x: '0' })).toBe(false)
    expect(m(sel(req('x', 'lt', ['1'])), { x: '2' })).toBe(false)
  })
  it('only own labels count (no prototype keys)', () => {
    expect(m(sel(req('constructor', 'exists', [])), {})).toBe(false)
    expect(m(sel(req('toString', 'notin', ['x'])), {})).toBe(true)
  })
})

describe('TestAdd', () => {
  it('keyInOperator / keyEqualsOperator: sorted by key', () => {
    const s1 = newSelector().add(req('key', 'in', ['value']))
    expect(s1.toString()).toBe('key in (value)')
    const s2 = s1.add(req('key2', '=', ['value2']))
    expect(s2.requirements()[0].map((r) => [r.key, r.operator, r.values])).toEqual([
      ['key', 'in', ['value']],
      ['key2', '=', ['value2']],
    ])
    expect(
      newSelector()
        .add(req('b', 'exists', []), req('a', 'exists', []))
        .toString(),
    ).toBe('a,b')
  })
})

describe('TestRequiresExactMatch', () => {
  it('=, == and single-value in', () => {
    expect(sel(req('x', '=', ['a'])).requiresExactMatch('x')).toEqual(['a', true])
    expect(sel(req('x', '==', ['a'])).requiresExactMatch('x')).toEqual(['a', true])
    expect(sel(req('x', 'in', ['a'])).requiresExactMatch('x')).toEqual(['a', true])
    expect(sel(req('x', 'in', ['a', 'b'])).requiresExactMatch('x')).toEqual(['', false])
    expect(sel(req('x', '!=', ['a'])).requiresExactMatch('x')).toEqual(['', false])
    expect(sel(req('x', '=', ['a'])).requiresExactMatch('y')).toEqual(['', false])
  })
})

describe('TestMatchesNothing', () => {
  it('only Nothing()', () => {
    expect(matchesNothing(nothing())).toBe(true)
    expect(matchesNothing(everything())).toBe(false)
    expect(matchesNothing(selectorFromSet({}))).toBe(false)
    expect(matchesNothing(selectorFromSet({ key: 'value' }))).toBe(false)
    expect(matchesNothing(sel(req('a', 'exists', []), req('a', '!', [])))).toBe(false)
    expect(nothing().matches({})).toBe(false)
    expect(nothing().empty()).toBe(false)
    expect(nothing().add(req('a', 'exists', []))).toBe(nothing())
  })
})

describe('TestLabelSelectorAsSelector (helpers_test.go)', () => {
  const matchLabels = { foo: 'bar' }
  const matchExpressions = [{ key: 'baz', operator: 'In', values: ['qux', 'norf'] }]
  const cases: [Parameters<typeof labelSelectorAsSelector>[0], string | null][] = [
    [null, ''],
    [{}, ''],
    [{ matchLabels }, 'foo=bar'],
    [{ matchExpressions }, 'baz in (norf,qux)'],
    [{ matchLabels, matchExpressions }, 'baz in (norf,qux),foo=bar'],
    [{ matchExpressions: [{ key: 'baz', operator: 'Exists', values: ['qux', 'norf'] }] }, null],
  ]
  for (const [i, [input, out]] of cases.entries()) {
    it(`case ${i}`, () => {
      const copy = structuredClone(input)
      if (out === null) expect(() => labelSelectorAsSelector(input)).toThrow(LabelSelectorError)
      else expect(labelSelectorAsSelector(input).toString()).toBe(out)
      expect(input).toEqual(copy) // the input is not modified
    })
  }
  it('nil selects nothing, {} everything', () => {
    expect(labelSelectorAsSelector(null)).toBe(nothing())
    expect(labelSelectorAsSelector(undefined).matches({})).toBe(false)
    expect(labelSelectorAsSelector({}).empty()).toBe(true)
    expect(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }).matches({ a: 'b' })).toBe(true)
  })
  it('operators are the LabelSelectorOperator names; others are rejected', () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'in', values: ['b'] }] })).toThrow(
      '"in" is not a valid label selector operator',
    )
    const s = labelSelectorAsSelector({
      matchExpressions: [
        { key: 'a', operator: 'NotIn', values: ['x'] },
        { key: 'b', operator: 'DoesNotExist' },
        { key: 'c', operator: 'Exists' },
      ],
    })
    expect(s.toString()).toBe('a notin (x),!b,c')
    expect(s.requirements()[0].map((r) => r.operator)).toEqual([Operator.NotIn, Operator.DoesNotExist, Operator.Exists])
    expect(s.matches({ c: '' })).toBe(true)
    expect(s.matches({ a: 'x', c: '' })).toBe(false)
  })
  it('In without values: the nil slice prints as null', () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In' }] })).toThrow(
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    )
  })
})
