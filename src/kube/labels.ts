import { goQuote } from '../cel/ext/quote.js'
import { compareStrings } from '../cel/values/strings.js'
import { aggregateString, type FieldError, FieldPath, field } from './field.js'
import { isQualifiedName, isValidLabelValue } from './library/format.js'

// Label selectors, ported from k8s.io/apimachinery v0.36.3:
// - pkg/labels/selector.go: Requirement (NewRequirement's validation and messages, Matches, String),
//   the internal selector (requirements sorted by key, AND of all), Everything() and Nothing();
// - pkg/apis/meta/v1/helpers.go: LabelSelectorAsSelector (nil → Nothing, {} → Everything).
// The string parser (labels.Parse) is not ported: policies carry the structured LabelSelector.

/** A set of labels (labels.Set): `metadata.labels` of an object. */
export type Labels = Readonly<Record<string, string>>

/** selection.Operator values. */
export const Operator = {
  DoesNotExist: '!',
  Equals: '=',
  DoubleEquals: '==',
  In: 'in',
  NotEquals: '!=',
  NotIn: 'notin',
  Exists: 'exists',
  GreaterThan: 'gt',
  LessThan: 'lt',
} as const
export type Operator = (typeof Operator)[keyof typeof Operator]

const VALID_REQUIREMENT_OPERATORS: readonly string[] = [
  // binaryOperators, then unaryOperators (selector.go validRequirementOperators)
  'in',
  'notin',
  '=',
  '==',
  '!=',
  'gt',
  'lt',
  'exists',
  '!',
]

/** metav1.LabelSelector as it appears in JSON. */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>> | null
  readonly matchExpressions?: readonly LabelSelectorRequirement[] | null
}

/** metav1.LabelSelectorRequirement; operator is one of In, NotIn, Exists, DoesNotExist. */
export interface LabelSelectorRequirement {
  readonly key: string
  readonly operator: string
  readonly values?: readonly string[] | null
}

/** The error NewRequirement / LabelSelectorAsSelector return: an aggregate of field errors (or a plain message). */
export class LabelSelectorError extends Error {
  constructor(
    message: string,
    readonly errors: readonly FieldError[] = [],
  ) {
    super(message)
    this.name = 'LabelSelectorError'
  }
}

function lookup(ls: Labels, key: string): string | undefined {
  return Object.hasOwn(ls, key) ? ls[key] : undefined
}

const INT64 = /^[+-]?\d+$/
/** strconv.ParseInt(s, 10, 64) succeeds. */
function parseInt64(s: string): bigint | undefined {
  if (!INT64.test(s)) return undefined
  const v = BigInt(s)
  return v >= -(2n ** 63n) && v < 2n ** 63n ? v : undefined
}

/** A label requirement (labels.Requirement): key, operator and values; build with newRequirement. */
export class Requirement {
  /** @internal use newRequirement, which validates. */
  constructor(
    readonly key: string,
    readonly operator: Operator,
    /** strValues, in the order given (nil in Go is an empty list here). */
    readonly values: readonly string[],
  ) {}

  private hasValue(v: string): boolean {
    return this.values.includes(v)
  }

  /** Requirement.Matches. */
  matches(ls: Labels): boolean {
    switch (this.operator) {
      case Operator.In:
      case Operator.Equals:
      case Operator.DoubleEquals: {
        const v = lookup(ls, this.key)
        return v !== undefined && this.hasValue(v)
      }
      case Operator.NotIn:
      case Operator.NotEquals: {
        const v = lookup(ls, this.key)
        return v === undefined || !this.hasValue(v)
      }
      case Operator.Exists:
        return lookup(ls, this.key) !== undefined
      case Operator.DoesNotExist:
        return lookup(ls, this.key) === undefined
      case Operator.GreaterThan:
      case Operator.LessThan: {
        const v = lookup(ls, this.key)
        if (v === undefined) return false
        const lsValue = parseInt64(v)
        if (lsValue === undefined || this.values.length !== 1) return false
        const rValue = parseInt64(this.values[0]!)
        if (rValue === undefined) return false
        return this.operator === Operator.GreaterThan ? lsValue > rValue : lsValue < rValue
      }
      default:
        return false
    }
  }

  /** Requirement.String: `x in (a,b)`, `x notin (a)`, `x=a`, `!x`, `x>1`, … (values sorted for output). */
  toString(): string {
    let s = this.operator === Operator.DoesNotExist ? `!${this.key}` : this.key
    switch (this.operator) {
      case Operator.Equals:
        s += '='
        break
      case Operator.DoubleEquals:
        s += '=='
        break
      case Operator.NotEquals:
        s += '!='
        break
      case Operator.In:
        s += ' in '
        break
      case Operator.NotIn:
        s += ' notin '
        break
      case Operator.GreaterThan:
        s += '>'
        break
      case Operator.LessThan:
        s += '<'
        break
      case Operator.Exists:
      case Operator.DoesNotExist:
        return s
    }
    const paren = this.operator === Operator.In || this.operator === Operator.NotIn
    const vals = this.values.length === 1 ? this.values[0]! : [...this.values].sort(compareStrings).join(',')
    return paren ? `${s}(${vals})` : s + vals
  }

  /** Requirement.Equal. */
  equal(x: Requirement): boolean {
    return (
      this.key === x.key &&
      this.operator === x.operator &&
      this.values.length === x.values.length &&
      this.values.every((v, i) => v === x.values[i])
    )
  }
}

/**
 * labels.NewRequirement: validates the key (a qualified name), the operator, the value count the
 * operator needs, integer values for gt/lt, and every value (a label value). Throws a
 * LabelSelectorError carrying the aggregated field errors.
 *
 * `values` null stands for a nil Go slice (it prints `null` in the error's bad value).
 */
export function newRequirement(key: string, op: string, values: readonly string[] | null): Requirement {
  const errs: FieldError[] = []
  const vals = values ?? []
  const keyErrs = isQualifiedName(key)
  if (keyErrs.length > 0) errs.push(field.invalid(FieldPath.of('key'), key, keyErrs.join('; ')))
  const valuePath = FieldPath.of('values')
  switch (op) {
    case Operator.In:
    case Operator.NotIn:
      if (vals.length === 0)
        errs.push(field.invalid(valuePath, values, "for 'in', 'notin' operators, values set can't be empty"))
      break
    case Operator.Equals:
    case Operator.DoubleEquals:
    case Operator.NotEquals:
      if (vals.length !== 1)
        errs.push(field.invalid(valuePath, values, 'exact-match compatibility requires one single value'))
      break
    case Operator.Exists:
    case Operator.DoesNotExist:
      if (vals.length !== 0)
        errs.push(field.invalid(valuePath, values, 'values set must be empty for exists and does not exist'))
      break
    case Operator.GreaterThan:
    case Operator.LessThan:
      if (vals.length !== 1)
        errs.push(field.invalid(valuePath, values, "for 'Gt', 'Lt' operators, exactly one value is required"))
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined)
          errs.push(field.invalid(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
      })
      break
    default:
      errs.push(field.notSupported(FieldPath.of('operator'), op, VALID_REQUIREMENT_OPERATORS))
  }
  vals.forEach((v, i) => {
    const m = isValidLabelValue(v)
    if (m.length > 0) errs.push(field.invalid(valuePath.index(i).key(key), v, m.join('; ')))
  })
  if (errs.length > 0) throw new LabelSelectorError(aggregateString(errs), errs)
  return new Requirement(key, op as Operator, [...vals])
}

/** labels.Selector. */
export interface Selector {
  /** True when every requirement matches the labels. */
  matches(labels: Labels): boolean
  /** True when the selector does not restrict the selection space (Everything, or no requirements). */
  empty(): boolean
  /** The requirements joined with `,` (Nothing prints as ''). */
  toString(): string
  /** A new selector with the requirements added (sorted by key); Nothing stays Nothing. */
  add(...reqs: Requirement[]): Selector
  /** The requirements, and false for Nothing (which selects nothing). */
  requirements(): [readonly Requirement[], boolean]
  /** Whether the selector requires one exact value for the label (=, ==, or in with one value). */
  requiresExactMatch(label: string): [string, boolean]
}

class InternalSelector implements Selector {
  constructor(readonly reqs: readonly Requirement[]) {}
  matches(labels: Labels): boolean {
    for (const r of this.reqs) if (!r.matches(labels)) return false
    return true
  }
  empty(): boolean {
    return this.reqs.length === 0
  }
  toString(): string {
    return this.reqs.map((r) => r.toString()).join(',')
  }
  add(...reqs: Requirement[]): Selector {
    // sort.Sort(ByKey) is not stable; a stable sort gives the same result for distinct keys.
    return new InternalSelector([...this.reqs, ...reqs].sort((a, b) => compareStrings(a.key, b.key)))
  }
  requirements(): [readonly Requirement[], boolean] {
    return [this.reqs, true]
  }
  requiresExactMatch(label: string): [string, boolean] {
    for (const r of this.reqs) {
      if (r.key !== label) continue
      if (
        (r.operator === Operator.Equals || r.operator === Operator.DoubleEquals || r.operator === Operator.In) &&
        r.values.length === 1
      )
        return [r.values[0]!, true]
      return ['', false]
    }
    return ['', false]
  }
}

const NOTHING: Selector = {
  matches: () => false,
  empty: () => false,
  toString: () => '',
  add: () => NOTHING,
  requirements: () => [[], false],
  requiresExactMatch: () => ['', false],
}

const EVERYTHING: Selector = new InternalSelector([])

/** labels.Everything(): matches all labels (empty). */
export function everything(): Selector {
  return EVERYTHING
}

/** labels.Nothing(): matches no labels (and is not empty). */
export function nothing(): Selector {
  return NOTHING
}

/** labels.MatchesNothing: true only for the Nothing() selector. */
export function matchesNothing(s: Selector): boolean {
  return s === NOTHING
}

/** labels.NewSelector(): a selector with no requirements (matches everything). */
export function newSelector(): Selector {
  return new InternalSelector([])
}

/** labels.SelectorFromSet: equality requirements, unvalidated (an empty set selects everything). */
export function selectorFromSet(set: Labels | null | undefined): Selector {
  if (!set) return new InternalSelector([])
  return new InternalSelector(Object.keys(set).map((k) => new Requirement(k, Operator.Equals, [set[k]!]))).add()
}

const SELECTOR_OPS: Readonly<Record<string, Operator>> = {
  In: Operator.In,
  NotIn: Operator.NotIn,
  Exists: Operator.Exists,
  DoesNotExist: Operator.DoesNotExist,
}

/**
 * metav1.LabelSelectorAsSelector: nil selects nothing, `{}` everything; otherwise matchLabels
 * (equality) and matchExpressions, all ANDed. Throws LabelSelectorError for an operator other than
 * In/NotIn/Exists/DoesNotExist (`"X" is not a valid label selector operator`) and for a requirement
 * NewRequirement rejects. Go walks matchLabels in map order (random); here in sorted key order, so
 * the first invalid label reported is deterministic.
 */
export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): Selector {
  if (ps === null || ps === undefined) return NOTHING
  const matchLabels = ps.matchLabels ?? {}
  const matchExpressions = ps.matchExpressions ?? []
  const labelKeys = Object.keys(matchLabels).sort(compareStrings)
  if (labelKeys.length + matchExpressions.length === 0) return EVERYTHING
  const reqs: Requirement[] = []
  for (const k of labelKeys) reqs.push(newRequirement(k, Operator.Equals, [matchLabels[k]!]))
  for (const expr of matchExpressions) {
    const op = Object.hasOwn(SELECTOR_OPS, expr.operator) ? SELECTOR_OPS[expr.operator] : undefined
    if (op === undefined)
      throw new LabelSelectorError(`${goQuote(expr.operator)} is not a valid label selector operator`)
    // append([]string(nil), expr.Values...) is nil when there are no values
    const values = expr.values && expr.values.length > 0 ? [...expr.values] : null
    reqs.push(newRequirement(expr.key, op, values))
  }
  return newSelector().add(...reqs)
}
