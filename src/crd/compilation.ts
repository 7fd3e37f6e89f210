import type { CheckedAst } from '../cel/checker/index.js'
import { CelError } from '../cel/common/errors.js'
import type { AstNode, SizeEstimate, SizeEstimator } from '../cel/cost/costs.js'
import type { Env } from '../cel/env.js'
import { compile, type Program } from '../cel/program.js'
import { optionalOf, type Type } from '../cel/types/types.js'
import { estimateKubeCost } from '../kube/cost.js'
import { DEFAULT_KUBE_VERSION, kubeEnv, PerCallLimit } from '../kube/environment.js'
import { type DeclType, MaxRequestSizeBytes, StringKeyDecl } from '../kube/schema/decltype.js'
import { SchemaTypeProvider } from '../kube/schema/provider.js'
import type { JSONSchemaProps, ValidationRule } from '../kube/schema/structural.js'
import { stepsPath, validFieldPath } from './definition/valid-field-path.js'

// Compiling the x-kubernetes-validations rules of one schema node (apiextensions-apiserver
// pkg/apiserver/schema/cel/compilation.go Compile): `self` (and `oldSelf`, optional for
// optionalOldSelf rules) typed from the node's declared type, each rule checked to be a bool,
// messageExpression to be a string, and both cost-estimated with the schema's size limits.

export const ScopedVarName = 'self'
export const OldScopedVarName = 'oldSelf'

/** cel.Error of the apiserver: `invalid` details go to Invalid field errors, `internal` to Internal. */
export interface CompileError {
  readonly type: 'invalid' | 'internal' | 'required'
  readonly detail: string
}

export interface CompilationResult {
  readonly rule: ValidationRule
  readonly program?: Program
  readonly error?: CompileError
  /** The checked rule references oldSelf: a transition rule. */
  readonly usesOldSelf: boolean
  /** Estimated maximum cost of one evaluation (uint64, saturating). */
  readonly maxCost: bigint
  /** MaxRequestSizeBytes / (MinSerializedSize(self) + 1): the cardinality used when an ancestor is unbounded. */
  readonly maxCardinality: bigint
  readonly messageExpression?: Program
  readonly messageExpressionError?: CompileError
  readonly messageExpressionMaxCost: bigint
  /** fieldPath normalised as a field.Path string (`.a.b` → `a.b`, `.m['k']` → `m[k]`), or ''. */
  readonly normalizedRuleFieldPath: string
}

export interface CompileRulesOptions {
  /** Kubernetes version (default DEFAULT_KUBE_VERSION). */
  readonly version?: string
  /**
   * `stored` (what the apiserver uses to evaluate persisted rules, and for rules already in the
   * old CRD) or `new` (what a CRD write may introduce: compatibility version = version − 1).
   */
  readonly expressions?: 'new' | 'stored'
  /**
   * The base environment to declare `self` / `oldSelf` in, instead of kubeEnv(version, expressions):
   * what Compile's baseEnvSet + envLoader select (tests extend the Kubernetes environment with a
   * library, as compilation_test.go's fakeLib does). `version` still decides keyword field names.
   */
  readonly baseEnv?: Env
}

let selfTypeCounter = 0

/**
 * Compile(s, declType): the compilation results of `schema`'s rules (compilation.go), in order.
 * `declType` is the node's declared type (undefined: the node is not visible to CEL, an error).
 */
export function compileRules(
  schema: JSONSchemaProps,
  declType: DeclType | undefined,
  options: CompileRulesOptions = {},
): CompilationResult[] | CompileError {
  const rules = schema['x-kubernetes-validations'] ?? []
  if (rules.length === 0) return []
  if (declType === undefined)
    return { type: 'internal', detail: 'failed to convert to declType for CEL validation rules' }
  const version = options.version ?? DEFAULT_KUBE_VERSION
  const expressions = options.expressions ?? 'stored'
  const base = options.baseEnv ?? kubeEnv({ version, expressions })
  // The apiserver names the root type selfType<nanoseconds>; any unique name serves.
  const provider = new SchemaTypeProvider(recognizeKeywords(version, expressions))
  const selfType = provider.celType(declType, `selfType${++selfTypeCounter}`)
  const envs = {
    plain: base.extend({ variables: { [ScopedVarName]: selfType, [OldScopedVarName]: selfType } }),
    optional: base.extend({ variables: { [ScopedVarName]: selfType, [OldScopedVarName]: optionalOf(selfType) } }),
  }
  const estimator = sizeEstimator(declType)
  const maxCardinality = BigInt(Math.floor(MaxRequestSizeBytes / (declType.minSerializedSize + 1)))
  return rules.map((rule) =>
    compileRule(
      schema,
      rule,
      rule.optionalOldSelf === true ? envs.optional : envs.plain,
      provider,
      estimator,
      maxCardinality,
    ),
  )
}

/** environment.go: from compatibility version 1.31 `self.namespace` resolves `__namespace__`. */
function recognizeKeywords(version: string, expressions: 'new' | 'stored'): boolean {
  if (expressions === 'stored') return true
  const minor = Number(/^1\.(\d+)$/.exec(version)?.[1] ?? 36)
  return minor - 1 >= 31
}

function compileRule(
  schema: JSONSchemaProps,
  rule: ValidationRule,
  env: Env,
  provider: SchemaTypeProvider,
  estimator: SizeEstimator,
  maxCardinality: bigint,
): CompilationResult {
  const empty = {
    rule,
    usesOldSelf: false,
    maxCost: 0n,
    maxCardinality: 0n,
    messageExpressionMaxCost: 0n,
    normalizedRuleFieldPath: '',
  }
  if (typeof rule.rule !== 'string' || rule.rule.trim() === '') return empty
  const compiled = compileExpression(rule.rule, env, provider, 'bool')
  if ('error' in compiled) {
    const detail =
      compiled.error === 'type'
        ? 'cel expression must evaluate to a bool'
        : compiled.error.replace(/^program:/, 'program instantiation failed:')
    return { ...empty, error: { type: 'invalid', detail } }
  }
  const program = compiled.program
  const ast = program.ast as CheckedAst
  const usesOldSelf = [...ast.refs.values()].some((r) => r.kind === 'ident' && r.name === OldScopedVarName)
  const maxCost = estimateKubeCost(ast, env, estimator).max
  let result: CompilationResult = { ...empty, program, usesOldSelf, maxCost, maxCardinality }
  if (rule.messageExpression !== undefined && rule.messageExpression !== '') {
    const m = compileExpression(rule.messageExpression, env, provider, 'string')
    if ('error' in m) {
      const detail =
        m.error === 'type'
          ? 'messageExpression must evaluate to a string'
          : m.error.startsWith('program:')
            ? m.error.replace(/^program:/, 'messageExpression instantiation failed:')
            : `messageExpression ${m.error}`
      return { ...result, messageExpressionError: { type: 'invalid', detail } }
    }
    result = {
      ...result,
      messageExpression: m.program,
      messageExpressionMaxCost: estimateKubeCost(m.program.ast as CheckedAst, env, estimator).max,
    }
  }
  if (rule.fieldPath !== undefined && rule.fieldPath !== '') {
    const p = validFieldPath(rule.fieldPath, schema)
    if (p.ok) result = { ...result, normalizedRuleFieldPath: stepsPath(p.steps)?.toString() ?? '' }
  }
  return result
}

/**
 * Parse, check and plan one expression; the error is `compilation failed: <issues>`, `type` when
 * the result type is not the one required, or `program: <err>` when the program cannot be made.
 */
function compileExpression(
  expression: string,
  env: Env,
  provider: SchemaTypeProvider,
  expected: 'bool' | 'string',
): { program: Program } | { error: string } {
  let program: Program
  try {
    program = compile(expression, { env, typeProvider: provider, costLimit: PerCallLimit })
  } catch (e) {
    if (e instanceof CelError && (e.stage === 'parse' || e.stage === 'check')) {
      // CelCompileError carries cel-go's Issues.String(); other check-stage errors come from program creation
      return 'issues' in e ? { error: `compilation failed: ${e.message}` } : { error: `program: ${e.message}` }
    }
    throw e
  }
  const t: Type = program.outputType
  if (t.typeKind !== expected) return { error: 'type' }
  return { program }
}

/**
 * compilation.go sizeEstimator: walks the node path from the root variable through field names,
 * `@items` / `@values` (element type) and `@keys` (key type) to the declared type, whose
 * MaxElements bounds the size.
 */
export function sizeEstimator(root: DeclType): SizeEstimator {
  return {
    estimateSize(node: AstNode): SizeEstimate | undefined {
      const path = node.path
      if (path === undefined || path.length === 0) return undefined
      let cur: DeclType = root
      for (let i = 1; i < path.length; i++) {
        const name = path[i] as string
        if (name === '@items' || name === '@values') {
          if (cur.kind !== 'list' && cur.kind !== 'map') return undefined
          cur = cur.elem
        } else if (name === '@keys') {
          if (cur.kind !== 'map') return undefined
          cur = StringKeyDecl
        } else {
          if (cur.kind !== 'object') return undefined
          const f = cur.fields.get(name)
          if (f === undefined) return undefined
          cur = f.type
        }
      }
      return { min: 0n, max: BigInt(cur.maxElements) }
    },
  }
}
