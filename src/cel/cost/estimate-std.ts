import type { CallExpr, Expr } from '../common/ast.js'
import {
  type AstNode,
  type CallEstimate,
  type CostEstimate,
  RegexStringLengthCostFactor,
  type SizeEstimate,
  StringTraversalCostFactor,
} from './costs.js'
import { add, addSat, minU64, multiply, ONE, scale, UNKNOWN_SIZE, union, wrap64 } from './estimate-size.js'

// The standard library's call estimates (cel-go v0.26 and v0.29 checker/cost.go functionCost, the mirror of
// the run-time tracker's costCall): string traversals, regex matching, list membership, short
// circuits, conditionals, concatenation, comparisons; every other call costs 1 plus its arguments.

/** cel-go's entrySizeEstimate: sizes of a container's keys (indices) and values. */
export interface EntrySize {
  readonly kind: 'list' | 'map' | 'other'
  readonly key: SizeEstimate
  readonly val: SizeEstimate
}

export function unionEntries(a: EntrySize | undefined, b: EntrySize | undefined): EntrySize | undefined {
  if (a === undefined || b === undefined) return undefined
  return { kind: a.kind, key: union(a.key, b.key), val: union(a.val, b.val) }
}

/** The estimator's record of container entry sizes, which conditionals and concatenations update. */
export interface EntrySizes {
  computeEntrySize(e: Expr): EntrySize | undefined
  setEntrySize(e: Expr, size: EntrySize | undefined): void
}

/**
 * The cost of a standard call with no custom estimate: `argSum` is the arguments' cost (the
 * receiver's is added by the caller), sizes are the nodes' computed sizes or unknown.
 */
export function standardCallCost(
  id: string,
  e: CallExpr,
  target: AstNode | undefined,
  args: readonly AstNode[],
  argCosts: readonly CostEstimate[],
  argSum: CostEstimate,
  entries: EntrySizes,
  celGo: number,
): CallEstimate {
  const size = (node: AstNode) => node.computedSize ?? UNKNOWN_SIZE
  switch (id) {
    // O(n) functions
    case 'string_format':
      // The result size is not bounded.
      if (target !== undefined) return { cost: add(scale(size(target), StringTraversalCostFactor), argSum) }
      break
    case 'string_to_bytes':
      if (args.length === 1) {
        const sz = size(args[0]!)
        // At most 4 bytes per code point (Go multiplies without overflow checks).
        const resultSize = { min: sz.min, max: wrap64(sz.max * 4n) }
        return { cost: add(scale(sz, StringTraversalCostFactor), argSum), resultSize }
      }
      break
    case 'bytes_to_string':
      if (args.length === 1) {
        const sz = size(args[0]!)
        const resultSize = { min: sz.min / 4n, max: sz.max }
        return { cost: add(scale(sz, StringTraversalCostFactor), argSum), resultSize }
      }
      break
    case 'strings_quote':
      if (args.length === 1) {
        const sz = size(args[0]!)
        // Every character escaped, plus the two quotes.
        const resultSize = { min: wrap64(sz.min + 2n), max: wrap64(sz.max * 2n + 2n) }
        return { cost: add(scale(sz, StringTraversalCostFactor), argSum), resultSize }
      }
      break
    case 'starts_with_string':
    case 'ends_with_string':
      if (args.length === 1) return { cost: add(scale(size(args[0]!), StringTraversalCostFactor), argSum) }
      break
    case 'in_list':
      // Every list membership test is taken to be O(n), even on constant lists.
      if (args.length === 2) return { cost: add(scale(size(args[1]!), 1), argSum) }
      break
    // O(nm) functions
    case 'matches':
    case 'matches_string': {
      // cel-go v0.29 estimates the global `matches(s, re)` as the member form (v0.26: 1 + arguments).
      let str: AstNode | undefined
      let re: AstNode | undefined
      if (id === 'matches_string' && target !== undefined && args.length === 1) [str, re] = [target, args[0]]
      else if (id === 'matches' && celGo >= 29 && target === undefined && args.length === 2) [str, re] = args
      if (str !== undefined && re !== undefined) {
        // One more than the length, so that an empty string against a costly regex is not free.
        const strCost = scale(add(size(str), ONE), StringTraversalCostFactor)
        const regexCost = scale(size(re), RegexStringLengthCostFactor)
        return { cost: add(multiply(strCost, regexCost), argSum) }
      }
      break
    }
    case 'contains_string':
      if (target !== undefined && args.length === 1) {
        const strCost = scale(size(target), StringTraversalCostFactor)
        const subCost = scale(size(args[0]!), StringTraversalCostFactor)
        return { cost: add(multiply(strCost, subCost), argSum) }
      }
      break
    case 'logical_or':
    case 'logical_and': {
      // Short-circuit: the minimum is the left operand alone.
      const lhs = argCosts[0]!
      const rhs = argCosts[1]!
      return { cost: { min: lhs.min, max: addSat(lhs.max, rhs.max) } }
    }
    case 'conditional': {
      const resultSize = union(size(args[1]!), size(args[2]!))
      entries.setEntrySize(e, unionEntries(entries.computeEntrySize(e.args[1]!), entries.computeEntrySize(e.args[2]!)))
      return { cost: add(argCosts[0]!, union(argCosts[1]!, argCosts[2]!)), resultSize }
    }
    case 'add_string':
    case 'add_bytes':
    case 'add_list':
      if (args.length === 2) {
        const resultSize = add(size(args[0]!), size(args[1]!))
        const entry = unionEntries(entries.computeEntrySize(e.args[0]!), entries.computeEntrySize(e.args[1]!))
        if (entry !== undefined) entries.setEntrySize(e, entry)
        // List concatenation is O(1); it is handled here to track the size.
        if (id === 'add_list') return { cost: add(ONE, argSum), resultSize }
        return { cost: add(scale(resultSize, StringTraversalCostFactor), argSum), resultSize }
      }
      break
    case 'less_string':
    case 'greater_string':
    case 'less_equals_string':
    case 'greater_equals_string':
    case 'less_bytes':
    case 'greater_bytes':
    case 'less_equals_bytes':
    case 'greater_equals_bytes':
    case 'equals':
    case 'not_equals': {
      // Scalars have size 1, so their comparison costs 1.
      const l = size(args[0]!).max
      const r = size(args[1]!).max
      const smallest = minU64(l, r)
      const cost = scale({ min: smallest > 0n ? 1n : 0n, max: smallest }, StringTraversalCostFactor)
      return { cost: add(cost, argSum) }
    }
  }
  // O(1) functions (see the run-time tracker for the measured base cost).
  return { cost: add(ONE, argSum) }
}
