import type { FieldError, FieldPath } from '../../kube/field.js'
import type { JSONSchemaProps } from './types.js'

// The two places where CustomResourceDefinition validation needs more than the schema's shape:
// compiling x-kubernetes-validations rules (CEL) and validating default values against the schema
// (OpenAPI value validation and CEL). Both live in other modules; the validation calls them exactly
// where ValidateCustomResourceDefinition does, and merges what they return in Go's order.

/** How a schema node is reached from its `openAPIV3Schema` (CELSchemaContext's accessors). */
export type SchemaStep =
  | { readonly kind: 'property'; readonly name: string }
  | { readonly kind: 'additionalProperties' }
  | { readonly kind: 'items' }

/**
 * A schema node whose x-kubernetes-validations the API server compiles: it has rules, it is reached
 * from the root through properties, additionalProperties and items only (no allOf / anyOf / oneOf /
 * not), the schema is structural with valid defaults, and neither the node nor anything below it had
 * a schema error (validation.go: `len(allErrs.SchemaErrors) == 0 && celContext != nil`).
 */
export interface CelRuleSite {
  /** The node (internal JSONSchemaProps under the v1 JSON names); `schema['x-kubernetes-validations']` are its rules. */
  readonly schema: JSONSchemaProps
  /** The node's field path, e.g. `spec.validation.openAPIV3Schema.properties[spec]`; rule i reports at `.x-kubernetes-validations[i].rule`. */
  readonly path: FieldPath
  /** The steps from the root to the node (empty for the root): what CELSchemaContext.TypeInfo follows. */
  readonly steps: readonly SchemaStep[]
  /**
   * CELSchemaContext.MaxCardinality: how many times the node can occur in one object (the product of
   * the maxItems / maxProperties of the enclosing lists and maps, saturating at 2^64-1), or undefined
   * when unbounded (then the rule's own cardinality estimate applies: getExpressionCost).
   */
  readonly maxCardinality: bigint | undefined
  /**
   * specStandardValidator.forbidOldSelfValidations(): the path of the highest enclosing node that
   * cannot be correlated between old and new objects (items of a list that is not
   * `x-kubernetes-list-type: map`, properties of an object with an unknown `x-kubernetes-map-type`),
   * or undefined. A rule using `oldSelf` there fails with
   * `oldSelf cannot be used on the uncorrelatable portion of the schema within <path>`.
   */
  readonly uncorrelatablePath: FieldPath | undefined
}

/** What the CEL rule validator is given for one schema (one validateCustomResourceDefinitionValidation call). */
export interface CelSchemaInput {
  /** The `openAPIV3Schema` (root of the sites' steps). */
  readonly root: JSONSchemaProps
  /** Its field path: `spec.validation.openAPIV3Schema` or `spec.versions[i].schema.openAPIV3Schema`. */
  readonly rootPath: FieldPath
  /** The nodes to compile, in the order the API server compiles them (children before their parent). */
  readonly sites: readonly CelRuleSite[]
  /**
   * validationOptions.suppressPerExpressionCost: skip the per-rule and per-messageExpression cost
   * limit. Always false on create (only an update leaving a version's schema unchanged sets it).
   */
  readonly suppressPerExpressionCost: boolean
  /**
   * Rule and messageExpression strings of the previous CRD (StoredExpressions environment); empty on
   * create, so every expression compiles in the NewExpressions environment.
   */
  readonly preexistingRules: ReadonlySet<string>
  readonly preexistingMessageExpressions: ReadonlySet<string>
}

/**
 * Compiles the rules of one schema and returns the CEL errors (OpenAPISchemaErrorList.CELErrors) in
 * Go's order: for each site in order, for each rule i in order: the per-rule cost error
 * (`…[i].rule: Forbidden: estimated rule cost exceeds budget…`), the rule's compile error
 * (`…[i].rule: Invalid value: <ValidationRule>: compilation failed: …`, Required for
 * ErrorTypeRequired), the messageExpression error or its cost error, then the oldSelf checks
 * (`…[i].rule` uncorrelatable, `…[i].optionalOldSelf: may not be set if oldSelf is not used in rule`).
 * After the last site: when the summed cost exceeds StaticEstimatedCRDCostLimit, one Forbidden per
 * most expensive rule (`contributed to estimated rule cost total exceeding cost limit for entire
 * OpenAPIv3 schema`) and one at `rootPath`. Type-information failures are Internal errors at
 * `<site>.x-kubernetes-validations`. The returned errors are appended right after the schema's
 * structural errors. Use `validationRuleJSON` (gojson.ts) to render a ValidationRule bad value.
 */
export type CelRuleValidator = (input: CelSchemaInput) => FieldError[]

/** A default value the API server validates against its schema node (structuraldefaulting.validate). */
export interface DefaultValueInput {
  /** The path of the `default` keyword, e.g. `…openAPIV3Schema.properties[spec].properties[x].default`. */
  readonly path: FieldPath
  readonly value: unknown
  /** The node carrying the default. */
  readonly schema: JSONSchemaProps
  /** Whether the node is a resource root (the schema root or an x-kubernetes-embedded-resource). */
  readonly isResourceRoot: boolean
  /** What is left of the one RuntimeCELCostBudget (10,000,000) that all defaults of a schema share. */
  readonly remainingCostBudget: number
}

export interface DefaultValueResult {
  readonly errors: readonly FieldError[]
  /** The budget left after the CEL rules ran (the smaller of the two runs); negative stops the walk. */
  readonly remainingCostBudget: number
}

/**
 * Validates one default value, once its pruning and metadata checks passed: first
 * apiservervalidation.ValidateCustomResource(path, value, validator of `schema`); only when that
 * reports nothing, the CEL rules of `schema` and below on the value as new and old object, then as a
 * new object without old one (ratcheting on). Returns those errors, appended in place, and the cost
 * budget left: once it is negative no further default is validated.
 */
export type DefaultValueValidator = (input: DefaultValueInput) => DefaultValueResult

export interface ValidationHooks {
  /** Absent: no rule is compiled (the non-CEL rule checks still run). */
  readonly celRules?: CelRuleValidator
  /** Absent: defaults are checked for pruning and metadata only. */
  readonly defaultValues?: DefaultValueValidator
}
