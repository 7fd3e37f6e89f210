import type { FieldError } from '../kube/field.js'
import type { JSONSchemaProps } from '../kube/schema/structural.js'
import type { CelRuleValidator, CelSchemaInput } from './definition/index.js'
import { CELSchemaContext, celRuleErrors, totalCostErrors } from './rule-checks.js'

// The CEL half of validating a CRD (the hook src/crd/definition calls where the apiserver compiles
// x-kubernetes-validations): each rule-bearing node compiled against its type, per-rule and
// per-schema cost limits. Rules new to the CRD compile in the NewExpressions environment
// (compatibility version = version − 1), rules already stored in the StoredExpressions one.

export interface CrdCelOptions {
  /** Kubernetes version of the apiserver (default DEFAULT_KUBE_VERSION). */
  readonly version?: string
}

/** A CelRuleValidator for validateCustomResourceDefinition. */
export function crdCelRuleValidator(options: CrdCelOptions = {}): CelRuleValidator {
  return (input: CelSchemaInput): FieldError[] => {
    const root = input.root as unknown as JSONSchemaProps
    // On create nothing is stored yet, so every expression is new (NewExpressionsEnvLoader).
    const expressions = input.preexistingRules.size > 0 ? 'stored' : 'new'
    const rootCtx = CELSchemaContext.root(root, {
      ...(options.version ? { version: options.version } : {}),
      expressions,
    })
    const errs: FieldError[] = []
    for (const site of input.sites) {
      let ctx = rootCtx
      let node: JSONSchemaProps | undefined = root
      for (const step of site.steps) {
        if (step.kind === 'property') {
          node = node?.properties?.[step.name]
          ctx = ctx.childProperty(node, step.name)
        } else if (step.kind === 'items') {
          node = node?.items
          ctx = ctx.childItems(node)
        } else {
          const ap: unknown = node?.additionalProperties
          node = typeof ap === 'object' && ap !== null ? (ap as JSONSchemaProps) : undefined
          ctx = ctx.childAdditionalProperties(node)
        }
      }
      errs.push(
        ...celRuleErrors(site.schema as unknown as JSONSchemaProps, site.path, ctx, {
          suppressPerExpressionCost: input.suppressPerExpressionCost,
          ...(site.uncorrelatablePath ? { uncorrelatablePath: site.uncorrelatablePath } : {}),
        }),
      )
    }
    errs.push(...totalCostErrors(rootCtx, input.rootPath))
    return errs
  }
}
