import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import { itemsJSON, marshaled, marshaledString } from './gojson.js'
import type { CelRuleSite, SchemaStep } from './hooks.js'
import { newStructuralError, sortedKeys } from './structural.js'
import type { JSONSchemaProps } from './types.js'
import { validFieldPath } from './valid-field-path.js'

// ValidateCustomResourceDefinitionOpenAPISchema and specStandardValidatorV3 (validation.go): the
// keywords a CRD schema may use, the x-kubernetes-* extension rules, and the non-CEL checks of each
// x-kubernetes-validations rule. Where Go would compile a node's rules, the node is recorded as a
// CelRuleSite instead, under the same condition: no schema error at the node or below it.

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string']
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion'])
const SUPPORTED_VALIDATION_REASONS = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
]
const NEWLINES = /[\n\r]+/

/** specStandardValidatorV3's state as it is passed down (each with* returns a copy). */
interface StandardValidator {
  readonly allowDefaults: boolean
  readonly disallowDefaultsReason: string
  readonly insideResourceMeta: boolean
  readonly requireValidPropertyType: boolean
  /** forbidOldSelfValidations(): the highest uncorrelatable ancestor. */
  readonly uncorrelatablePath: FieldPath | undefined
}

/** CELSchemaContext as far as the walk needs it: how the node is reached and its cardinality. */
interface CelContext {
  readonly steps: readonly SchemaStep[]
  /** undefined: unbounded. */
  readonly maxCardinality: bigint | undefined
}

export interface OpenAPISchemaResult {
  readonly schemaErrors: FieldError[]
  readonly celSites: CelRuleSite[]
}

export interface OpenAPISchemaOptions {
  readonly allowDefaults: boolean
  readonly requireValidPropertyType: boolean
  readonly requireAtomicSetType: boolean
  readonly requireMapListKeysMapSetValidation: boolean
}

/**
 * Validates a schema from its root. `celEnabled` is Go's non-nil celContext: the schema is
 * structural and its defaults are valid.
 */
export function validateOpenAPISchema(
  schema: JSONSchemaProps,
  fldPath: FieldPath,
  opts: OpenAPISchemaOptions,
  celEnabled: boolean,
): OpenAPISchemaResult {
  const ssv: StandardValidator = {
    allowDefaults: opts.allowDefaults,
    disallowDefaultsReason: '',
    insideResourceMeta: false,
    requireValidPropertyType: opts.requireValidPropertyType,
    uncorrelatablePath: undefined,
  }
  const out: OpenAPISchemaResult = { schemaErrors: [], celSites: [] }
  walk(schema, fldPath, ssv, true, opts, celEnabled ? { steps: [], maxCardinality: 1n } : undefined, out)
  return out
}

const UINT64_MAX = (1n << 64n) - 1n

/** extractMaxElements: how many children a node of this schema has at most (undefined: unbounded). */
function maxElements(s: JSONSchemaProps): bigint | undefined {
  switch (s.type) {
    case 'object':
      if (s.additionalProperties !== undefined)
        return s.maxProperties === undefined ? undefined : BigInt(Math.max(0, Math.trunc(s.maxProperties)))
      return 1n
    case 'array':
      return s.maxItems === undefined ? undefined : BigInt(Math.max(0, Math.trunc(s.maxItems)))
    default:
      return 1n
  }
}

/** CELSchemaContext.childContext. */
function childContext(parent: CelContext | undefined, parentSchema: JSONSchemaProps, step: SchemaStep) {
  if (parent === undefined) return undefined
  let maxCardinality: bigint | undefined
  const m = maxElements(parentSchema)
  if (parent.maxCardinality !== undefined && m !== undefined) {
    // multiplyWithOverflowGuard
    const p = parent.maxCardinality * m
    maxCardinality = p > UINT64_MAX ? UINT64_MAX : p
  }
  return { steps: [...parent.steps, step], maxCardinality }
}

function withForbidOldSelf(v: StandardValidator, path: FieldPath): StandardValidator {
  // keep the highest-level path causing oldSelf validations to be forbidden
  return v.uncorrelatablePath !== undefined ? v : { ...v, uncorrelatablePath: path }
}

function withForbiddenDefaults(v: StandardValidator, reason: string): StandardValidator {
  return { ...v, allowDefaults: false, disallowDefaultsReason: reason }
}

function walk(
  schema: JSONSchemaProps | undefined,
  fldPath: FieldPath,
  ssv: StandardValidator,
  isRoot: boolean,
  opts: OpenAPISchemaOptions,
  cel: CelContext | undefined,
  out: OpenAPISchemaResult,
): void {
  if (schema === undefined) return
  // errors of this node and its subtree, for the CEL gate
  const errorsBefore = out.schemaErrors.length
  const errs = out.schemaErrors
  errs.push(...standardValidate(ssv, schema, fldPath))

  if (schema.uniqueItems === true)
    errs.push(
      field.forbidden(
        fldPath.child('uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    )

  // additionalProperties and properties are mutually exclusive: Kubernetes ignores unknown fields of
  // structs (properties) and holds maps (additionalProperties)
  const hasProperties = schema.properties !== undefined && Object.keys(schema.properties).length > 0
  if (schema.additionalProperties !== undefined) {
    const ap = schema.additionalProperties
    if (hasProperties && (ap === false || typeof ap === 'object'))
      errs.push(
        field.forbidden(
          fldPath.child('additionalProperties'),
          'additionalProperties and properties are mutual exclusive',
        ),
      )
    // defaults inside additionalProperties of metadata cannot be pruned without a value
    const sub = ssv.insideResourceMeta
      ? withForbiddenDefaults(ssv, 'inside additionalProperties applying to object metadata')
      : ssv
    const apSchema = typeof ap === 'object' ? ap : undefined
    walk(
      apSchema,
      fldPath.child('additionalProperties'),
      sub,
      false,
      opts,
      childContext(cel, schema, { kind: 'additionalProperties' }),
      out,
    )
  }

  if (hasProperties) {
    for (const property of sortedKeys(schema.properties)) {
      let sub = ssv
      const mapType = schema['x-kubernetes-map-type']
      if (!(mapType === undefined || mapType === 'granular' || mapType === 'atomic'))
        sub = withForbidOldSelf(sub, fldPath)
      if ((isRoot || schema['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(property)) {
        // the schema applies to ObjectMeta / TypeMeta
        sub = { ...sub, insideResourceMeta: true }
        if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${property}`)
      }
      walk(
        schema.properties?.[property],
        fldPath.child('properties').key(property),
        sub,
        false,
        opts,
        childContext(cel, schema, { kind: 'property', name: property }),
        out,
      )
    }
  }

  walk(schema.not, fldPath.child('not'), ssv, false, opts, undefined, out)
  schema.allOf?.forEach((s, i) => {
    walk(s, fldPath.child('allOf').index(i), ssv, false, opts, undefined, out)
  })
  schema.oneOf?.forEach((s, i) => {
    walk(s, fldPath.child('oneOf').index(i), ssv, false, opts, undefined, out)
  })
  schema.anyOf?.forEach((s, i) => {
    walk(s, fldPath.child('anyOf').index(i), ssv, false, opts, undefined, out)
  })
  for (const d of sortedKeys(schema.definitions))
    walk(schema.definitions?.[d], fldPath.child('definitions').key(d), ssv, false, opts, undefined, out)

  if (schema.items !== undefined) {
    // old and new items correlate only in map lists (sets are not correlated by identity for CEL)
    const sub = schema['x-kubernetes-list-type'] !== 'map' ? withForbidOldSelf(ssv, fldPath) : ssv
    if (Array.isArray(schema.items)) {
      ;(schema.items as readonly JSONSchemaProps[]).forEach((s, i) => {
        walk(s, fldPath.child('items').index(i), sub, false, opts, childContext(cel, schema, { kind: 'items' }), out)
      })
    } else {
      walk(
        schema.items as JSONSchemaProps,
        fldPath.child('items'),
        sub,
        false,
        opts,
        childContext(cel, schema, { kind: 'items' }),
        out,
      )
    }
  }

  for (const d of sortedKeys(schema.dependencies)) {
    const dep = schema.dependencies?.[d]
    if (dep !== undefined && !Array.isArray(dep))
      walk(dep as JSONSchemaProps, fldPath.child('dependencies').key(d), ssv, false, opts, undefined, out)
  }

  errs.push(...extensionErrors(schema, fldPath, opts))
  if (opts.requireMapListKeysMapSetValidation) errs.push(...validateMapListKeysMapSet(schema, fldPath))

  const rules = schema['x-kubernetes-validations']
  if (rules !== undefined && rules.length > 0) {
    errs.push(...validationRuleErrors(schema, fldPath))
    // invalid schemas do not always convert to CEL types, and CEL errors about them would not be
    // actionable: rules compile only when nothing at this level or below is wrong
    if (out.schemaErrors.length === errorsBefore && cel !== undefined)
      out.celSites.push({
        schema,
        path: fldPath,
        steps: cel.steps,
        maxCardinality: cel.maxCardinality,
        uncorrelatablePath: ssv.uncorrelatablePath,
      })
  }
}

/** specStandardValidatorV3.validate: keywords kelp's apiserver does not support. */
function standardValidate(v: StandardValidator, schema: JSONSchemaProps, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const type = schema.type ?? ''
  if (v.requireValidPropertyType && type.length > 0 && !OPENAPI_V3_TYPES.includes(type))
    errs.push(field.notSupported(fldPath.child('type'), type, OPENAPI_V3_TYPES))
  if (schema.default !== undefined && !v.allowDefaults) {
    const detail =
      v.disallowDefaultsReason.length > 0 ? `must not be set ${v.disallowDefaultsReason}` : 'must not be set'
    errs.push(field.forbidden(fldPath.child('default'), detail))
  }
  if ((schema.id ?? '').length > 0) errs.push(field.forbidden(fldPath.child('id'), 'id is not supported'))
  if (schema.additionalItems !== undefined)
    errs.push(field.forbidden(fldPath.child('additionalItems'), 'additionalItems is not supported'))
  if (Object.keys(schema.patternProperties ?? {}).length > 0)
    errs.push(field.forbidden(fldPath.child('patternProperties'), 'patternProperties is not supported'))
  if (Object.keys(schema.definitions ?? {}).length > 0)
    errs.push(field.forbidden(fldPath.child('definitions'), 'definitions is not supported'))
  // a non-nil map, even empty
  if (schema.dependencies !== undefined)
    errs.push(field.forbidden(fldPath.child('dependencies'), 'dependencies is not supported'))
  if (schema.$ref !== undefined) errs.push(field.forbidden(fldPath.child('$ref'), '$ref is not supported'))
  if (type === 'null')
    errs.push(field.forbidden(fldPath.child('type'), 'type cannot be set to null, use nullable as an alternative'))
  if (Array.isArray(schema.items) && schema.items.length > 0)
    errs.push(field.forbidden(fldPath.child('items'), 'items must be a schema object and not an array'))
  if (v.insideResourceMeta && schema['x-kubernetes-embedded-resource'] === true)
    errs.push(
      field.forbidden(fldPath.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'),
    )
  return errs
}

/** x-kubernetes-preserve-unknown-fields, -map-type, -list-type and -list-map-keys. */
function extensionErrors(schema: JSONSchemaProps, fldPath: FieldPath, opts: OpenAPISchemaOptions): FieldError[] {
  const errs: FieldError[] = []
  const type = schema.type ?? ''
  if (schema['x-kubernetes-preserve-unknown-fields'] === false)
    errs.push(field.invalid(fldPath.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'))

  const mapType = schema['x-kubernetes-map-type']
  if (mapType !== undefined && type !== 'object') {
    if (type.length === 0)
      errs.push(field.required(fldPath.child('type'), 'must be object if x-kubernetes-map-type is specified'))
    else errs.push(field.invalid(fldPath.child('type'), type, 'must be object if x-kubernetes-map-type is specified'))
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular')
    errs.push(field.notSupported(fldPath.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']))

  const listType = schema['x-kubernetes-list-type']
  const itemSchema = Array.isArray(schema.items) ? undefined : (schema.items as JSONSchemaProps | undefined)
  if (listType !== undefined && type !== 'array') {
    if (type.length === 0)
      errs.push(field.required(fldPath.child('type'), 'must be array if x-kubernetes-list-type is specified'))
    else errs.push(field.invalid(fldPath.child('type'), type, 'must be array if x-kubernetes-list-type is specified'))
  } else if (opts.requireAtomicSetType && listType === 'set' && itemSchema !== undefined) {
    const itemListType = itemSchema['x-kubernetes-list-type']
    if (itemSchema.type === 'array') {
      // atomic is the default when unset
      if (itemListType !== undefined && itemListType !== 'atomic')
        errs.push(
          field.invalid(
            fldPath.child('items').child('x-kubernetes-list-type'),
            marshaledString(itemListType),
            'must be atomic as item of a list with x-kubernetes-list-type=set',
          ),
        )
    } else if (itemSchema.type === 'object') {
      // granular is the default when unset; Go reports the items' list type as the bad value
      const itemMapType = itemSchema['x-kubernetes-map-type']
      if (itemMapType !== 'atomic')
        errs.push(
          field.invalid(
            fldPath.child('items').child('x-kubernetes-map-type'),
            marshaledString(itemListType),
            'must be atomic as item of a list with x-kubernetes-list-type=set',
          ),
        )
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map')
    errs.push(field.notSupported(fldPath.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']))

  const mapKeys = schema['x-kubernetes-list-map-keys'] ?? []
  if (mapKeys.length > 0) {
    if (listType === undefined)
      errs.push(
        field.required(
          fldPath.child('x-kubernetes-list-type'),
          'must be map if x-kubernetes-list-map-keys is non-empty',
        ),
      )
    else if (listType !== 'map')
      errs.push(
        field.invalid(
          fldPath.child('x-kubernetes-list-type'),
          listType,
          'must be map if x-kubernetes-list-map-keys is non-empty',
        ),
      )
  }
  if (listType === 'map') {
    if (mapKeys.length === 0)
      errs.push(
        field.required(
          fldPath.child('x-kubernetes-list-map-keys'),
          'must not be empty if x-kubernetes-list-type is map',
        ),
      )
    if (schema.items === undefined)
      errs.push(field.required(fldPath.child('items'), 'must have a schema if x-kubernetes-list-type is map'))
    if (schema.items !== undefined && itemSchema === undefined)
      errs.push(
        field.invalid(
          fldPath.child('items'),
          marshaled(itemsJSON(schema.items)),
          'must only have a single schema if x-kubernetes-list-type is map',
        ),
      )
    if (itemSchema !== undefined && itemSchema.type !== 'object')
      errs.push(
        field.invalid(
          fldPath.child('items').child('type'),
          itemSchema.type ?? '',
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      )
    if (itemSchema !== undefined && itemSchema.type === 'object') {
      const seen = new Set<string>()
      for (const k of mapKeys) {
        const props = itemSchema.properties ?? {}
        if (Object.hasOwn(props, k)) {
          const t = props[k]?.type
          if (t === 'array' || t === 'object')
            // Go reports the item's type (object), not the key's
            errs.push(
              field.invalid(
                fldPath.child('items').child('properties').key(k).child('type'),
                itemSchema.type,
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            )
        } else {
          errs.push(
            field.invalid(
              fldPath.child('x-kubernetes-list-map-keys'),
              mapKeys,
              'entries must all be names of item properties',
            ),
          )
        }
        if (seen.has(k))
          errs.push(
            field.invalid(fldPath.child('x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'),
          )
        seen.add(k)
      }
    }
  }
  return errs
}

/**
 * validateMapListKeysMapSet: items of set and map lists are not nullable; map keys are required or
 * defaulted, and not nullable.
 */
export function validateMapListKeysMapSet(schema: JSONSchemaProps, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (schema.items === undefined || Array.isArray(schema.items)) return errs
  const listType = schema['x-kubernetes-list-type']
  if (listType !== 'set' && listType !== 'map') return errs
  const items = schema.items as JSONSchemaProps
  if (items.nullable === true)
    errs.push(
      field.forbidden(
        fldPath.child('items').child('nullable'),
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    )
  if (listType === 'map') {
    const required = new Set(items.required ?? [])
    for (const k of schema['x-kubernetes-list-map-keys'] ?? []) {
      const props = items.properties ?? {}
      // keys that are not properties are reported by the list-map-keys check
      if (!Object.hasOwn(props, k)) continue
      const obj = props[k] as JSONSchemaProps
      if (!required.has(k) && obj.default === undefined)
        errs.push(
          field.required(
            fldPath.child('items').child('properties').key(k).child('default'),
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        )
      if (obj.nullable === true)
        errs.push(
          field.forbidden(
            fldPath.child('items').child('properties').key(k).child('nullable'),
            'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
          ),
        )
    }
  }
  return errs
}

/** The checks of each x-kubernetes-validations rule that need no CEL. */
function validationRuleErrors(schema: JSONSchemaProps, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const rulesPath = fldPath.child('x-kubernetes-validations')
  ;(schema['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const p = rulesPath.index(i)
    const ruleText = rule.rule ?? ''
    const message = rule.message ?? ''
    const trimmedRule = goTrimSpace(ruleText)
    const trimmedMsg = goTrimSpace(message)
    if (trimmedRule.length === 0) errs.push(field.required(p.child('rule'), 'rule is not specified'))
    else if (message.length > 0 && trimmedMsg.length === 0)
      errs.push(field.invalid(p.child('message'), message, 'must be non-empty if specified'))
    else if (NEWLINES.test(trimmedMsg))
      errs.push(field.invalid(p.child('message'), message, 'must not contain line breaks'))
    else if (NEWLINES.test(trimmedRule) && trimmedMsg.length === 0)
      errs.push(field.required(p.child('message'), 'message must be specified if rule contains line breaks'))
    const messageExpression = rule.messageExpression ?? ''
    if (messageExpression.length > 0 && goTrimSpace(messageExpression).length === 0)
      errs.push(field.required(p.child('messageExpression'), 'messageExpression must be non-empty if specified'))
    if (rule.reason !== undefined && !SUPPORTED_VALIDATION_REASONS.includes(rule.reason))
      errs.push(field.notSupported(p.child('reason'), rule.reason, SUPPORTED_VALIDATION_REASONS))
    const fieldPath = rule.fieldPath ?? ''
    if (fieldPath.length > 0 && goTrimSpace(fieldPath).length === 0)
      errs.push(field.invalid(p.child('fieldPath'), fieldPath, 'must be non-empty if specified'))
    if (NEWLINES.test(fieldPath))
      errs.push(field.invalid(p.child('fieldPath'), fieldPath, 'must not contain line breaks'))
    if (fieldPath.length > 0 && !pathValid(schema, fieldPath))
      errs.push(field.invalid(p.child('fieldPath'), fieldPath, 'must be a valid path'))
  })
  return errs
}

/** pathValid: a fieldPath must exist in the node's schema (any path passes if the schema is not structural). */
function pathValid(schema: JSONSchemaProps, path: string): boolean {
  if (newStructuralError(schema) !== undefined) return true
  return validFieldPath(path, schema).ok
}

/** Go's strings.TrimSpace: Unicode White_Space at both ends. */
export function goTrimSpace(s: string): string {
  return s
    .replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u, '')
    .replace(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u, '')
}
