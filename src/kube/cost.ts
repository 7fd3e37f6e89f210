import {
  type AstNode,
  type CallEstimate,
  type CallEstimator,
  type CostEstimate,
  type EstimateContext,
  ListCreateBaseCost,
  type RuntimeCost,
  type SizeEstimate,
  type SizeEstimator,
  StringTraversalCostFactor,
} from '../cel/cost/costs.js'
import { add, fixed, MAX_UINT64, multiply, ONE, scale, wrap64, ZERO } from '../cel/cost/estimate-size.js'
import { type Estimable, type EstimateOptions, estimateCost } from '../cel/cost/estimator.js'
import type { Env } from '../cel/env.js'
import type { Library } from '../cel/functions.js'
import type { Type } from '../cel/types/types.js'
import { OpaqueValue } from '../cel/values/values.js'
import { cidrCosts } from './library/cidr.js'
import { formatCosts, formatEqualsCost } from './library/format.js'
import { ipCosts, type CostRange as NumberRange, type OverloadCost } from './library/ip.js'
import { jsonPatchCosts } from './library/jsonpatch.js'
import { type CostOperand, type KubeCost, listsCosts } from './library/lists.js'
import { type LibraryCallCost, quantityCosts } from './library/quantity.js'
import { regexCosts } from './library/regex.js'
import { semverCosts, semverEqualsCost } from './library/semver.js'
import { urlEqualsCost, urlsCosts } from './library/urls.js'

// Kubernetes' static cost overrides: k8s.io/apiserver pkg/cel/library/cost.go
// CostEstimator.EstimateCallCost (1.34-1.36, cel-go v0.26), keyed by function name as cost.go is,
// wired to the static estimator. Per-library tables (src/kube/library/*.ts) answer where they
// cover an overload; the entries no table covers (authz, selectors, string extension, parsing
// functions, `==` on library types) are here. The figures are API: a different estimate changes
// which CRD validation rules are accepted.
//
// cel-go v0.26 passes no target for global calls; the Kubernetes tests of that era pin the parsing
// functions (`ip('192.168.0.1')` = 2, `semver(<32 chars>)` = 4, `isQuantity(self.x)` grows with
// the string) at a traversal of their argument, which is what is ported here.

const TRAVERSAL = StringTraversalCostFactor
const nominal: CallEstimate = Object.freeze({ cost: ONE })

/** cost.go: an authorization check allows only two per expression. */
const CHECK_COST: CallEstimate = Object.freeze({ cost: fixed(350_000n) })

const AUTHZ_NOMINAL = new Set([
  'serviceAccount',
  'path',
  'group',
  'resource',
  'subresource',
  'namespace',
  'name',
  'allowed',
  'reason',
  'error',
  'errored',
])

/** cost.go selectorCostEstimate: the list of requirements (10), the parse, and per half character a requirement (list 10 + struct 40). */
function selectorCost(length: SizeEstimate): SizeEstimate {
  const parse = scale(length, TRAVERSAL)
  const requirements = scale(length, 0.5)
  const requirementCost = scale(requirements, ListCreateBaseCost + 40)
  return add(add(fixed(BigInt(ListCreateBaseCost)), parse), requirementCost)
}

/** cost.go: the addresses compared are 4 (IPv4) to 16 (IPv6) bytes. */
const IP_BYTES: SizeEstimate = { min: 4n, max: 16n }

/**
 * Go's uint64(float64) on amd64 (cost.go's replace): exact below 2^64; above, what the compiler's sequence
 * yields (ssagen floatToUint: the value less 2^63 converted, 0x8000000000000000 when out of range, then
 * combined with 2^63). The toolchain that builds Kubernetes 1.37 (Go 1.26) ORs them: 2^63, as the CEL
 * differential's oracle (go1.26) measures; the older sequence XORed them: 0, kept for 1.34-1.36.
 */
function goFloatToUint64(f: number, celGo: number): bigint {
  if (f < 2 ** 64) return BigInt(f)
  return celGo >= 29 ? 2n ** 63n : 0n
}

/** cost.go `replace`: the result size from the sizes of the string, the old and the new substring. */
function replaceSize(sz: SizeEstimate, old: SizeEstimate, rep: SizeEstimate, celGo: number): SizeEstimate {
  let countMax: bigint
  let retainedMax = 0n
  if (old.min === 0n) {
    // An empty old string surrounds every character with the replacement.
    countMax = sz.max < MAX_UINT64 ? sz.max + 1n : sz.max
    retainedMax = sz.max
  } else if (rep.max <= old.min) {
    countMax = 0n
    retainedMax = sz.max
  } else {
    countMax = goFloatToUint64(Math.ceil(Number(sz.max) / Number(old.min)), celGo)
  }
  let countMin: bigint
  let retainedMin = 0n
  if (old.max === 0n) {
    countMin = sz.min < MAX_UINT64 ? sz.min + 1n : sz.min
    retainedMin = sz.min
  } else if (old.max <= rep.min) {
    countMin = 0n
    retainedMin = sz.min
  } else {
    countMin = goFloatToUint64(Math.ceil(Number(sz.min) / Number(old.max)), celGo)
  }
  return add(multiply({ min: countMin, max: countMax }, rep), { min: retainedMin, max: retainedMax })
}

/** cost.go listElementNode: a node for the element type of a parameterised type, with `@items` appended to the path. */
function elementNode(list: AstNode): AstNode | undefined {
  const elem = list.type.params[0]
  if (elem === undefined) return undefined
  const path = list.path === undefined ? undefined : [...list.path, '@items']
  return { path, type: elem, expr: undefined, computedSize: undefined }
}

/** Adapts an AstNode to the operand shape of the library tables (sizes are computed on demand). */
class Operand implements CostOperand {
  constructor(
    private readonly node: AstNode,
    private readonly ctx: EstimateContext,
  ) {}
  get size(): SizeEstimate {
    return this.ctx.sizeOf(this.node)
  }
  get computedSize(): SizeEstimate | undefined {
    return this.node.computedSize
  }
  get elemKind(): 'string' | 'bytes' | 'other' | undefined {
    const k = this.node.type.params[0]?.typeKind
    return k === undefined ? undefined : k === 'string' ? 'string' : k === 'bytes' ? 'bytes' : 'other'
  }
  get elemSize(): SizeEstimate | undefined {
    const el = elementNode(this.node)
    return el === undefined ? undefined : this.ctx.sizeOf(el)
  }
}

/** Tables whose estimates are bigint ranges over operands (lists, regex, URLs, format, semver). */
const KUBE_TABLE: Readonly<Record<string, KubeCost>> = {
  ...listsCosts,
  ...regexCosts,
  ...urlsCosts,
  ...formatCosts,
  ...semverCosts,
  ...jsonPatchCosts,
}

/** Tables whose estimates are number ranges over receiver-first sizes (IP, CIDR, quantity). */
const NUMBER_TABLE: Readonly<Record<string, OverloadCost | LibraryCallCost>> = {
  ...ipCosts,
  ...cidrCosts,
  ...quantityCosts,
}

function fromNumberRange(r: NumberRange): SizeEstimate {
  const conv = (x: number) => (x >= 2 ** 64 ? MAX_UINT64 : BigInt(Math.ceil(x)))
  return { min: conv(r.min), max: conv(r.max) }
}

function tableEstimate(
  id: string,
  target: AstNode | undefined,
  args: readonly AstNode[],
  ctx: EstimateContext,
): CallEstimate | undefined {
  const k = KUBE_TABLE[id]
  if (k !== undefined) {
    if (k.estimate === undefined) return undefined
    const est = k.estimate(
      target === undefined ? undefined : new Operand(target, ctx),
      args.map((a) => new Operand(a, ctx)),
    )
    return est === undefined ? undefined : { cost: est.cost, ...(est.resultSize ? { resultSize: est.resultSize } : {}) }
  }
  const n = NUMBER_TABLE[id]
  if (n?.estimate === undefined) return undefined
  // These tables only keep constant figures here (the size-dependent overloads are ported below in
  // bigint), so converting the sizes to numbers loses nothing.
  const sizes = (target === undefined ? args : [target, ...args]).map((a) => {
    const s = ctx.sizeOf(a)
    return { min: Number(s.min), max: Number(s.max) }
  })
  return { cost: fromNumberRange(n.estimate(sizes)) }
}

const EQUALITY_ONE = new Set([
  'net.IP',
  'net.CIDR',
  'kubernetes.Quantity',
  'kubernetes.authorization.Authorizer',
  'kubernetes.authorization.PathCheck',
  'kubernetes.authorization.GroupCheck',
  'kubernetes.authorization.ResourceCheck',
  'kubernetes.authorization.Decision',
])

function sameType(a: Type, b: Type): boolean {
  if (a.typeKind !== b.typeKind || a.name !== b.name || a.params.length !== b.params.length) return false
  for (let i = 0; i < a.params.length; i++) if (!sameType(a.params[i]!, b.params[i]!)) return false
  return true
}

/** cost.go `_==_`: equality of two values of the same Kubernetes library type. */
function equalityEstimate(args: readonly AstNode[], ctx: EstimateContext): CallEstimate | undefined {
  if (args.length !== 2) return undefined
  const t = args[0]!.type
  if (!sameType(t, args[1]!.type)) return undefined
  if (t.name === 'kubernetes.Semver') return kubeCall(semverEqualsCost, undefined, args, ctx)
  if (EQUALITY_ONE.has(t.name)) return nominal
  if (t.name === 'kubernetes.NamedFormat') return kubeCall(formatEqualsCost, undefined, args, ctx)
  if (t.name === 'kubernetes.URL') return kubeCall(urlEqualsCost, undefined, args, ctx)
  return undefined
}

function kubeCall(
  c: KubeCost,
  target: AstNode | undefined,
  args: readonly AstNode[],
  ctx: EstimateContext,
): CallEstimate | undefined {
  const est = c.estimate?.(
    target === undefined ? undefined : new Operand(target, ctx),
    args.map((a) => new Operand(a, ctx)),
  )
  return est === undefined ? undefined : { cost: est.cost, ...(est.resultSize ? { resultSize: est.resultSize } : {}) }
}

/** A traversal of the first argument: the parsing functions. */
function parseEstimate(args: readonly AstNode[], ctx: EstimateContext, factor = TRAVERSAL): CallEstimate | undefined {
  return args.length >= 1 ? { cost: scale(ctx.sizeOf(args[0]!), factor) } : undefined
}

/**
 * cost.go CostEstimator.EstimateCallCost: the call's own cost (the estimator adds the arguments'),
 * or undefined where cost.go has no figure (cel-go's rules then apply). `celGo`: the environment's
 * cel-go minor version (Features.celGo), which stands for the Go toolchain of its release too.
 */
export function kubeEstimateCallCost(
  fn: string,
  overloadId: string,
  target: AstNode | undefined,
  args: readonly AstNode[],
  ctx: EstimateContext,
  celGo = 26,
): CallEstimate | undefined {
  switch (fn) {
    case 'check':
      return CHECK_COST
    case 'fieldSelector':
    case 'labelSelector':
      return args.length === 1 ? { cost: selectorCost(ctx.sizeOf(args[0]!)) } : undefined
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim': {
      if (target === undefined) return undefined
      const sz = ctx.sizeOf(target)
      return { cost: scale(sz, TRAVERSAL), resultSize: sz }
    }
    case 'replace': {
      if (target === undefined || args.length < 2) return undefined
      const sz = ctx.sizeOf(target)
      // The traversal plus the construction of the result.
      return {
        cost: scale(sz, 2 * TRAVERSAL),
        resultSize: replaceSize(sz, ctx.sizeOf(args[0]!), ctx.sizeOf(args[1]!), celGo),
      }
    }
    case 'split': {
      if (target === undefined) return undefined
      const sz = ctx.sizeOf(target)
      // Worst case: an empty separator splits every character; a literal limit bounds the list.
      let max = sz.max
      const limit = args[1]?.expr
      if (limit?.kind === 'literal' && limit.value.type === 'int') max = wrap64(limit.value.value)
      return { cost: scale(sz, 2 * TRAVERSAL), resultSize: { min: 0n, max } }
    }
    case 'join': {
      if (target === undefined) return undefined
      const listSize = ctx.sizeOf(target)
      const el = elementNode(target)
      let sz = el === undefined ? ZERO : multiply(listSize, ctx.sizeOf(el))
      if (args.length > 0) {
        const separators = {
          min: listSize.min > 0n ? listSize.min - 1n : 0n,
          max: listSize.max > 0n ? listSize.max - 1n : 0n,
        }
        sz = add(sz, multiply(ctx.sizeOf(args[0]!), separators))
      }
      return { cost: scale(sz, TRAVERSAL), resultSize: sz }
    }
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      return parseEstimate(args, ctx)
    case 'ip':
      // CIDR.ip() reads a field; ip(string) parses.
      return overloadId === 'cidr_ip' ? nominal : parseEstimate(args, ctx)
    case 'ip.isCanonical':
      // Parse, then compare the canonical form with the input.
      return parseEstimate(args, ctx, 2 * TRAVERSAL)
    case 'containsIP':
    case 'containsCIDR': {
      if (target === undefined || args.length < 1) return undefined
      // Two byte lists compared (4 or 16 bytes each).
      let cost = scale(add(IP_BYTES, IP_BYTES), TRAVERSAL)
      // containsCIDR masks the base prefix and compares the prefix bits: one more traversal plus 1.
      if (fn === 'containsCIDR') cost = add(add(cost, scale(IP_BYTES, TRAVERSAL)), ONE)
      // A string argument is parsed first.
      if (overloadId === 'cidr_contains_ip_string' || overloadId === 'cidr_contains_cidr_string')
        cost = add(cost, scale(ctx.sizeOf(args[0]!), TRAVERSAL))
      return { cost }
    }
    case '_==_':
      return equalityEstimate(args, ctx)
  }
  if (AUTHZ_NOMINAL.has(fn)) return nominal
  return tableEstimate(overloadId, target, args, ctx)
}

/** By the environment's functions, then its cel-go version. */
const byEnv = new WeakMap<ReadonlyMap<string, unknown>, Map<number, Readonly<Record<string, CallEstimator>>>>()

const kubeEstimator = (celGo: number): CallEstimator => {
  return (target, args, ctx) => kubeEstimateCallCost(ctx.function, ctx.overloadId, target, args, ctx, celGo)
}

/**
 * The Kubernetes estimates for every overload an environment declares, for
 * `estimateCost(checked, env, { callEstimators })`. The environment's extension estimators
 * (ext.Sets, ext.Lists) still come first, as in cel-go.
 */
export function kubeCallEstimators(env: Env): Readonly<Record<string, CallEstimator>> {
  const celGo = env.features.celGo
  let cached = byEnv.get(env.functions)
  if (cached === undefined) byEnv.set(env.functions, (cached = new Map()))
  let r = cached.get(celGo)
  if (r === undefined) {
    const out: Record<string, CallEstimator> = {}
    const estimator = kubeEstimator(celGo)
    for (const f of env.functions.values()) for (const o of f.overloads) out[o.id] = estimator
    r = Object.freeze(out)
    cached.set(celGo, r)
  }
  return r
}

/**
 * The estimate options Kubernetes uses: its call estimates, `has()` costing 0
 * (PresenceTestHasCost(false)), and the sizes of the declared variables (CRDs: from the schema).
 */
export function kubeCostOptions(env: Env, sizeEstimator?: SizeEstimator): EstimateOptions {
  return {
    callEstimators: kubeCallEstimators(env),
    presenceTestHasCost: false,
    ...(sizeEstimator ? { sizeEstimator } : {}),
  }
}

/**
 * The static cost estimate Kubernetes computes for an expression (apiserver's CostEstimator over
 * cel-go's env.EstimateCost): `estimateCost` with `kubeCostOptions`. `compiled` is a Program compiled
 * in `env` (a `kubeEnv()`), or its checked AST; `sizeEstimator` bounds the sizes of the variables,
 * as the apiserver does from a CRD schema's maxLength / maxItems / maxProperties (without one,
 * variable-sized values are unbounded). Kubernetes rejects a rule whose max exceeds its limits
 * (PerCallLimit per expression, and the CRD-wide budget).
 *
 * @example
 * const env = kubeEnv()
 * estimateKubeCost(compile("'ABCDEFGHIJ abcdefghij'.lowerAscii()", { env }), env) // { min: 3n, max: 3n }
 */
export function estimateKubeCost(compiled: Estimable, env: Env, sizeEstimator?: SizeEstimator): CostEstimate {
  return estimateCost(compiled, env, kubeCostOptions(env, sizeEstimator))
}

/** The Go types cost.go CallCost charges 1 for `_==_` (left operand), by their CEL type names. */
const KUBE_VALUE_TYPES = new Set([
  'kubernetes.Quantity',
  'net.IP',
  'net.CIDR',
  'kubernetes.NamedFormat',
  'kubernetes.URL',
  'kubernetes.Semver',
  'kubernetes.authorization.Authorizer',
  'kubernetes.authorization.PathCheck',
  'kubernetes.authorization.GroupCheck',
  'kubernetes.authorization.ResourceCheck',
  'kubernetes.authorization.Decision',
])

/**
 * cost.go CallCost entries no library table holds: `_==_` whose left operand is a Kubernetes library
 * value costs 1 (cel-go's default would charge a traversal of the smaller size, 2 for two IPv6
 * addresses or CIDRs, whose size is their byte length); anything else falls through to cel-go's figure.
 */
export const kubeRuntimeCosts: Readonly<Record<string, RuntimeCost>> = {
  '_==_': ([lhs]) => (lhs instanceof OpaqueValue && KUBE_VALUE_TYPES.has(lhs.typeName) ? 1 : undefined),
}

/** The run-time side of cost.go's CostEstimator (base.go StrictCostOpt) that is not tied to a library. */
export const kubeCostLibrary: Library = { name: 'kubernetes.cost', functions: [], runtimeCosts: kubeRuntimeCosts }
