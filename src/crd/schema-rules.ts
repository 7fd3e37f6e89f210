import { type FieldError, FieldPath } from '../kube/field.js'
import { additionalPropertiesSchema, type JSONSchemaProps } from '../kube/schema/structural.js'
import type { CompileRulesOptions } from './compilation.js'
import { CELSchemaContext, celRuleErrors, totalCostErrors } from './rule-checks.js'

// The CEL checks of one whole openAPIV3Schema, in the order the apiserver's schema walk reaches
// them (validation.go ValidateCustomResourceDefinitionOpenAPISchema: additionalProperties,
// properties, items, then the node's own rules), and the schema's total cost at the end.

export interface SchemaRuleOptions extends CompileRulesOptions {
  /** Paths of schema nodes (field.Path strings) that had structural errors: CEL checks skip them and their ancestors. */
  readonly nodesWithSchemaErrors?: ReadonlySet<string>
  /** The schema equals the old CRD's: per-expression cost limits are not applied. */
  readonly suppressPerExpressionCost?: boolean
}

/** Every CEL error of a version's openAPIV3Schema at `path` (…`.openAPIV3Schema`). */
export function schemaRuleErrors(
  schema: JSONSchemaProps,
  path: FieldPath,
  options: SchemaRuleOptions = {},
): FieldError[] {
  const ctx = CELSchemaContext.root(schema, options)
  const errs: FieldError[] = []
  walk(schema, path, ctx, undefined, options, errs)
  errs.push(...totalCostErrors(ctx, path))
  return errs
}

/** Returns whether the node or a descendant had schema errors (then CEL checks above it are skipped). */
function walk(
  schema: JSONSchemaProps,
  path: FieldPath,
  ctx: CELSchemaContext,
  uncorrelatable: FieldPath | undefined,
  options: SchemaRuleOptions,
  errs: FieldError[],
): boolean {
  let schemaErrors = options.nodesWithSchemaErrors?.has(path.toString()) ?? false
  const ap = additionalPropertiesSchema(schema)
  if (ap !== undefined)
    schemaErrors =
      walk(ap, path.child('additionalProperties'), ctx.childAdditionalProperties(ap), uncorrelatable, options, errs) ||
      schemaErrors
  const mapType = schema['x-kubernetes-map-type']
  const mapCorrelatable = mapType === undefined || mapType === 'granular' || mapType === 'atomic'
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const u = uncorrelatable ?? (mapCorrelatable ? undefined : path)
    schemaErrors =
      walk(prop, path.child('properties').key(name), ctx.childProperty(prop, name), u, options, errs) || schemaErrors
  }
  if (schema.items !== undefined) {
    const u = uncorrelatable ?? (schema['x-kubernetes-list-type'] !== 'map' ? path : undefined)
    schemaErrors =
      walk(schema.items, path.child('items'), ctx.childItems(schema.items), u, options, errs) || schemaErrors
  }
  if (!schemaErrors && (schema['x-kubernetes-validations']?.length ?? 0) > 0) {
    errs.push(
      ...celRuleErrors(schema, path, ctx, {
        ...(options.suppressPerExpressionCost ? { suppressPerExpressionCost: true } : {}),
        ...(uncorrelatable ? { uncorrelatablePath: uncorrelatable } : {}),
      }),
    )
  }
  return schemaErrors
}

export { FieldPath }
