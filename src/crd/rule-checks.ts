import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { type FieldError, type FieldPath, field, GoStruct } from '../kube/field.js'
import { type DeclType, schemaDeclType } from '../kube/schema/decltype.js'
import { escape } from '../kube/schema/escaping.js'
import type { JSONSchemaProps, ValidationRule } from '../kube/schema/structural.js'
import { type CompilationResult, type CompileRulesOptions, compileRules } from './compilation.js'

// The CEL checks a CRD write runs on its x-kubernetes-validations (apiextensions-apiserver
// pkg/apis/apiextensions/validation/cel_validation.go CELSchemaContext, and the rule block of
// validation.go ValidateCustomResourceDefinitionOpenAPISchema): compile every rule against the
// node's type, estimate its cost times the node's cardinality, and total the costs per schema.

/** StaticEstimatedCostLimit: one rule (or messageExpression) × its cardinality. */
export const StaticEstimatedCostLimit = 10_000_000n
/** StaticEstimatedCRDCostLimit: all rules of one schema. */
export const StaticEstimatedCRDCostLimit = 100_000_000n
const MAX_UINT64 = 18446744073709551615n

/** TotalCost: the running total and the (at most 4) most expensive rules contributing ≥ 1%. */
export class TotalCost {
  total = 0n
  mostExpensive: { path: FieldPath; cost: bigint }[] = []

  observe(path: FieldPath, cost: bigint): void {
    this.total = MAX_UINT64 - this.total < cost ? MAX_UINT64 : this.total + cost
    if (cost < StaticEstimatedCRDCostLimit / 100n) return
    this.mostExpensive.push({ path, cost })
    this.mostExpensive.sort((a, b) => (a.cost > b.cost ? -1 : a.cost < b.cost ? 1 : 0))
    if (this.mostExpensive.length > 4) this.mostExpensive.length = 4
  }
}

type Accessor = { kind: 'property'; name: string } | { kind: 'items' } | { kind: 'additionalProperties' }

/**
 * CELSchemaContext: where a schema node sits for CEL: its declared type (from the parent's, so
 * escaping and embedded resources are honoured), whether it is within a rule's scope, and its
 * cardinality (product of maxItems / maxProperties above it; undefined when unbounded).
 */
export class CELSchemaContext {
  private typeInfo: DeclType | null | undefined

  private constructor(
    readonly schema: JSONSchemaProps | undefined,
    readonly withinValidationRuleScope: boolean,
    readonly maxCardinality: bigint | undefined,
    readonly totalCost: TotalCost,
    private readonly parent: CELSchemaContext | undefined,
    private readonly accessor: Accessor | undefined,
    private readonly options: CompileRulesOptions,
  ) {}

  /** RootCELContext(schema). */
  static root(schema: JSONSchemaProps, options: CompileRulesOptions = {}): CELSchemaContext {
    const within = (schema['x-kubernetes-validations']?.length ?? 0) > 0
    return new CELSchemaContext(schema, within, 1n, new TotalCost(), undefined, undefined, options)
  }

  childProperty(schema: JSONSchemaProps | undefined, name: string): CELSchemaContext {
    return this.child(schema, { kind: 'property', name })
  }
  childAdditionalProperties(schema: JSONSchemaProps | undefined): CELSchemaContext {
    return this.child(schema, { kind: 'additionalProperties' })
  }
  childItems(schema: JSONSchemaProps | undefined): CELSchemaContext {
    return this.child(schema, { kind: 'items' })
  }

  private child(schema: JSONSchemaProps | undefined, accessor: Accessor): CELSchemaContext {
    const within = this.withinValidationRuleScope || (schema?.['x-kubernetes-validations']?.length ?? 0) > 0
    let card: bigint | undefined
    if (this.schema !== undefined && this.maxCardinality !== undefined) {
      const max = extractMaxElements(this.schema)
      if (max !== undefined) card = mulGuard(this.maxCardinality, max)
    }
    return new CELSchemaContext(schema, within, card, this.totalCost, this, accessor, this.options)
  }

  /** TypeInfo(): the node's declared type (undefined outside rule scope or when not expressible). */
  declType(): DeclType | undefined {
    if (!this.withinValidationRuleScope) return undefined
    if (this.typeInfo !== undefined) return this.typeInfo ?? undefined
    let t: DeclType | undefined
    const pt = this.parent?.declType()
    if (pt !== undefined && this.accessor !== undefined) {
      const a = this.accessor
      if (a.kind === 'property') {
        if (pt.kind === 'object') {
          const e = escape(a.name)
          if (e !== undefined) t = pt.fields.get(e)?.type
        }
      } else if (pt.kind === 'list' || pt.kind === 'map') t = pt.elem
    }
    if (t === undefined && this.schema !== undefined)
      t = schemaDeclType(
        this.schema,
        this.parent === undefined || this.schema['x-kubernetes-embedded-resource'] === true,
        { capMetadataNames: capNames(this.options.version) },
      )
    this.typeInfo = t ?? null
    return t
  }

  get compileOptions(): CompileRulesOptions {
    return this.options
  }
}

/** WithTypeAndObjectMeta caps metadata.name / generateName from 1.37; no version is the default release. */
function capNames(version: string | undefined): boolean {
  return Number(/^1\.(\d+)$/.exec(version ?? DEFAULT_KUBE_VERSION)?.[1] ?? 0) >= 37
}

function extractMaxElements(s: JSONSchemaProps): bigint | undefined {
  switch (s.type) {
    case 'object':
      if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
        return s.maxProperties !== undefined ? BigInt(Math.max(0, s.maxProperties)) : undefined
      }
      return 1n
    case 'array':
      return s.maxItems !== undefined ? BigInt(Math.max(0, s.maxItems)) : undefined
    default:
      return 1n
  }
}

function mulGuard(base: bigint, cardinality: bigint): bigint {
  if (base === 0n) return 0n
  const p = base * cardinality
  return p > MAX_UINT64 ? MAX_UINT64 : p
}

/** getCostErrorMessage: `<name> exceeds budget by factor of <F> (try simplifying ...)`. */
export function costErrorMessage(costName: string, cost: bigint, limit: bigint): string {
  const factor = Number(cost) / Number(limit)
  const f = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`
  return `${costName} exceeds budget by factor of ${f} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`
}

/** The internal ValidationRule as the apiserver's json.Marshal prints it in field errors (no JSON tags). */
export function internalRule(rule: ValidationRule): GoStruct {
  return new GoStruct([
    ['Rule', rule.rule ?? ''],
    ['Message', rule.message ?? ''],
    ['MessageExpression', rule.messageExpression ?? ''],
    ['Reason', rule.reason ?? null],
    ['FieldPath', rule.fieldPath ?? ''],
    ['OptionalOldSelf', rule.optionalOldSelf ?? null],
  ])
}

export interface RuleCheckOptions {
  /** The schema is unchanged from the CRD's old version: the per-expression limit is not applied. */
  readonly suppressPerExpressionCost?: boolean
  /** Where oldSelf cannot be used (inside set / atomic list items, or unknown map types), if here. */
  readonly uncorrelatablePath?: FieldPath
}

/**
 * The CEL errors of one schema node's rules (validation.go, after the node's schema errors): rule
 * and messageExpression compile errors, per-expression cost, oldSelf on uncorrelatable nodes,
 * optionalOldSelf without oldSelf. Costs are added to the context's TotalCost.
 */
export function celRuleErrors(
  schema: JSONSchemaProps,
  fldPath: FieldPath,
  ctx: CELSchemaContext,
  options: RuleCheckOptions = {},
): FieldError[] {
  const errs: FieldError[] = []
  const rules = schema['x-kubernetes-validations'] ?? []
  const xv = fldPath.child('x-kubernetes-validations')
  if (rules.length === 0) return errs
  const declType = ctx.declType()
  if (declType === undefined) {
    errs.push(
      field.internal(
        xv,
        'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations',
      ),
    )
    return errs
  }
  const results = compileRules(schema, declType, ctx.compileOptions)
  if (!Array.isArray(results)) {
    errs.push(field.internal(xv, results.detail))
    return errs
  }
  results.forEach((cr: CompilationResult, i) => {
    const rulePath = xv.index(i).child('rule')
    const cost =
      ctx.maxCardinality !== undefined
        ? mulGuard(cr.maxCost, ctx.maxCardinality)
        : mulGuard(cr.maxCost, cr.maxCardinality)
    if (!options.suppressPerExpressionCost && cost > StaticEstimatedCostLimit)
      errs.push(field.forbidden(rulePath, costErrorMessage('estimated rule cost', cost, StaticEstimatedCostLimit)))
    ctx.totalCost.observe(rulePath, cost)
    if (cr.error !== undefined) {
      if (cr.error.type === 'required') errs.push(field.required(rulePath, cr.error.detail))
      else errs.push(field.invalid(rulePath, internalRule(rules[i] as ValidationRule), cr.error.detail))
    }
    const mePath = xv.index(i).child('messageExpression')
    if (cr.messageExpressionError !== undefined) {
      errs.push(field.invalid(mePath, internalRule(rules[i] as ValidationRule), cr.messageExpressionError.detail))
    } else if (cr.messageExpression !== undefined) {
      if (!options.suppressPerExpressionCost && cr.messageExpressionMaxCost > StaticEstimatedCostLimit)
        errs.push(
          field.forbidden(
            mePath,
            costErrorMessage('estimated messageExpression cost', cr.messageExpressionMaxCost, StaticEstimatedCostLimit),
          ),
        )
      ctx.totalCost.observe(mePath, cr.messageExpressionMaxCost)
    }
    if (cr.usesOldSelf) {
      if (options.uncorrelatablePath !== undefined)
        errs.push(
          field.invalid(
            rulePath,
            (rules[i] as ValidationRule).rule,
            `oldSelf cannot be used on the uncorrelatable portion of the schema within ${options.uncorrelatablePath.toString()}`,
          ),
        )
    } else if ((rules[i] as ValidationRule).optionalOldSelf !== undefined) {
      errs.push(
        field.invalid(
          xv.index(i).child('optionalOldSelf'),
          (rules[i] as ValidationRule).optionalOldSelf,
          'may not be set if oldSelf is not used in rule',
        ),
      )
    }
  })
  return errs
}

/** The whole-schema cost errors, once every node was checked (validation.go after the schema walk). */
export function totalCostErrors(ctx: CELSchemaContext, schemaPath: FieldPath): FieldError[] {
  const t = ctx.totalCost
  if (t.total <= StaticEstimatedCRDCostLimit) return []
  const errs = t.mostExpensive.map((e) =>
    field.forbidden(
      e.path,
      'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
    ),
  )
  errs.push(
    field.forbidden(
      schemaPath,
      costErrorMessage(
        'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
        t.total,
        StaticEstimatedCRDCostLimit,
      ),
    ),
  )
  return errs
}
