import { ErrorValue } from '../../cel/common/errors.js'
import { compileRegex } from '../../cel/stdlib/regex.js'
import { compareStrings } from '../../cel/values/strings.js'
import { errorString, type FieldError, type FieldPath, field } from '../../kube/field.js'
import { deepEqual } from './equality.js'
import { additionalPropertiesSchema, sortedKeys, structuralItems, structuralProperties } from './structural.js'
import type { JSONSchemaProps } from './types.js'

// ValidateStructural (apiextensions pkg/apiserver/schema/validation.go, complete.go) over a schema
// NewStructural accepts: types where values are specified, metadata restricted to name and
// generateName at resource roots, no types, defaults, descriptions or extensions under allOf /
// anyOf / oneOf / not except the two int-or-string patterns, value validations only on specified
// fields. Go sorts the errors by their text; so does this.

type Level = 'root' | 'item' | 'field'

/** ValidateStructural with the CRD options (no nested additionalProperties or x-kubernetes-validations). */
export function validateStructural(fldPath: FieldPath, s: JSONSchemaProps): FieldError[] {
  const errs = [...validateStructuralInvariants(s, 'root', fldPath), ...validateStructuralCompleteness(s, fldPath)]
  return errs.sort((a, b) => compareStrings(errorString(a), errorString(b)))
}

/**
 * A NestedValueValidation as NewStructural builds it, for equality: empty enum / allOf / anyOf /
 * oneOf lists, `additionalProperties: false` and an empty `items` list become nil there.
 */
function nestedForm(s: JSONSchemaProps): JSONSchemaProps {
  const out: Record<string, unknown> = { ...s }
  for (const k of ['enum', 'allOf', 'anyOf', 'oneOf'] as const) if ((s[k]?.length ?? 1) === 0) delete out[k]
  if (s.additionalProperties === false) delete out.additionalProperties
  if (Array.isArray(s.items) && s.items.length === 0) delete out.items
  return out as JSONSchemaProps
}

const INT_OR_STRING_ANY_OF: JSONSchemaProps[] = [{ type: 'integer' }, { type: 'string' }]

function isIntOrStringAnyOf(anyOf: readonly JSONSchemaProps[] | undefined): boolean {
  return anyOf !== undefined && anyOf.length === 2 && deepEqual(anyOf.map(nestedForm), INT_OR_STRING_ANY_OF)
}

function validateStructuralInvariants(s: JSONSchemaProps | undefined, lvl: Level, fldPath: FieldPath): FieldError[] {
  if (s === undefined) return []
  const errs: FieldError[] = []
  const items = structuralItems(s)
  if (s.type === 'array' && items === undefined) errs.push(field.required(fldPath.child('items'), 'must be specified'))
  errs.push(...validateStructuralInvariants(items, 'item', fldPath.child('items')))
  const props = structuralProperties(s)
  for (const k of sortedKeys(props))
    errs.push(...validateStructuralInvariants(props?.[k], 'field', fldPath.child('properties').key(k)))
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root')
      errs.push(field.forbidden(fldPath.child('additionalProperties'), 'must not be used at the root'))
    const ap = additionalPropertiesSchema(s)
    if (ap !== undefined) errs.push(...validateStructuralInvariants(ap, 'field', fldPath.child('additionalProperties')))
  }

  const intOrString = s['x-kubernetes-int-or-string'] === true
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true
  const embedded = s['x-kubernetes-embedded-resource'] === true
  // validateExtensions
  if (intOrString && preserve)
    errs.push(
      field.invalid(
        fldPath.child('x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    )
  if (intOrString && embedded)
    errs.push(
      field.invalid(
        fldPath.child('x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    )

  const skipAnyOf = isIntOrStringAnyOf(s.anyOf)
  const skipFirstAllOfAnyOf = (s.allOf?.length ?? 0) >= 1 && isIntOrStringAnyOf(s.allOf?.[0]?.anyOf)
  errs.push(...validateValueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, fldPath))

  const checkMetadata = lvl === 'root' || embedded
  const type = s.type ?? ''
  if (embedded && type !== 'object') {
    if (type.length === 0)
      errs.push(field.required(fldPath.child('type'), 'must be object if x-kubernetes-embedded-resource is true'))
    else
      errs.push(field.invalid(fldPath.child('type'), type, 'must be object if x-kubernetes-embedded-resource is true'))
  } else if (type.length === 0 && !intOrString && !preserve) {
    const detail =
      lvl === 'root'
        ? 'must not be empty at the root'
        : lvl === 'item'
          ? 'must not be empty for specified array items'
          : 'must not be empty for specified object fields'
    errs.push(field.required(fldPath.child('type'), detail))
  }
  if (embedded && s.additionalProperties !== undefined)
    errs.push(
      field.forbidden(
        fldPath.child('additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    )
  if (lvl === 'root' && type.length > 0 && type !== 'object')
    errs.push(field.invalid(fldPath.child('type'), type, 'must be object at the root'))

  for (const meta of ['kind', 'apiVersion'] as const) {
    const p = props?.[meta]
    if (p !== undefined && checkMetadata && p.type !== 'string')
      errs.push(field.invalid(fldPath.child('properties').key(meta).child('type'), p.type ?? '', 'must be string'))
  }
  const metadata = props?.metadata
  if (metadata !== undefined)
    errs.push(
      ...validateStructuralMetadataInvariants(
        metadata,
        checkMetadata,
        lvl,
        fldPath.child('properties').key('metadata'),
      ),
    )

  if (embedded && !preserve && props === undefined)
    errs.push(
      field.required(
        fldPath.child('properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    )
  return errs
}

/**
 * At the root, metadata may only carry `type` (object), a default (checked elsewhere) and the
 * properties `name` and `generateName`: anything else restricts the metadata every object has.
 */
function validateStructuralMetadataInvariants(
  s: JSONSchemaProps,
  checkMetadata: boolean,
  lvl: Level,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  if (checkMetadata && s.type !== 'object')
    errs.push(field.invalid(fldPath.child('type'), s.type ?? '', 'must be object'))
  if (lvl === 'root') {
    const props = structuralProperties(s)
    const keys = Object.keys(props ?? {})
    const onlyNames =
      props === undefined ||
      (keys.length === 2 && keys.includes('name') && keys.includes('generateName')) ||
      (keys.length === 1 && (keys[0] === 'name' || keys[0] === 'generateName'))
    // what is left of the Structural once type, default and the name properties are cleared must
    // be zero; NewStructural turns empty enum / allOf / anyOf / oneOf lists and an empty items list
    // into nil, but keeps additionalProperties: false
    const rest: Record<string, unknown> = { ...s }
    for (const k of ['enum', 'allOf', 'anyOf', 'oneOf'] as const) if ((s[k]?.length ?? 1) === 0) delete rest[k]
    if (Array.isArray(s.items) && s.items.length === 0) delete rest.items
    delete rest.type
    delete rest.default
    if (onlyNames) delete rest.properties
    if (Object.keys(rest).some((k) => rest[k] !== undefined))
      errs.push(
        field.forbidden(
          fldPath,
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      )
  }
  return errs
}

/** validateValueValidation: the junctors' contents, and a pattern that must compile (Go regexp). */
function validateValueValidation(
  v: JSONSchemaProps,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  lvl: Level,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  if (!skipAnyOf)
    v.anyOf?.forEach((x, i) => {
      errs.push(...validateNestedValueValidation(x, false, lvl, fldPath.child('anyOf').index(i)))
    })
  v.allOf?.forEach((x, i) => {
    errs.push(...validateNestedValueValidation(x, skipFirstAllOfAnyOf && i === 0, lvl, fldPath.child('allOf').index(i)))
  })
  v.oneOf?.forEach((x, i) => {
    errs.push(...validateNestedValueValidation(x, false, lvl, fldPath.child('oneOf').index(i)))
  })
  errs.push(...validateNestedValueValidation(v.not, false, lvl, fldPath.child('not')))
  const pattern = v.pattern ?? ''
  if (pattern.length > 0) {
    const err = regexpError(pattern)
    if (err !== undefined)
      errs.push(
        field.invalid(fldPath.child('pattern'), pattern, `must be a valid regular expression, but isn't: ${err}`),
      )
  }
  return errs
}

/** Go regexp.Compile's error text, or undefined when the pattern compiles. */
function regexpError(pattern: string): string | undefined {
  try {
    compileRegex(pattern)
    return undefined
  } catch (e) {
    if (e instanceof ErrorValue) return e.message
    throw e
  }
}

/** validateNestedValueValidation: under a junctor only value validations are allowed. */
function validateNestedValueValidation(
  v: JSONSchemaProps | undefined,
  skipAnyOf: boolean,
  lvl: Level,
  fldPath: FieldPath,
): FieldError[] {
  if (v === undefined) return []
  const errs: FieldError[] = []
  errs.push(...validateValueValidation(v, skipAnyOf, false, lvl, fldPath))
  errs.push(...validateNestedValueValidation(structuralItems(v), false, lvl, fldPath.child('items')))
  for (const k of sortedKeys(v.properties))
    errs.push(...validateNestedValueValidation(v.properties?.[k], false, 'field', fldPath.child('properties').key(k)))
  if ((v.type ?? '').length > 0) errs.push(field.forbidden(fldPath.child('type'), 'must be empty to be structural'))
  // additionalProperties: false is no NestedValueValidation at all
  if (v.additionalProperties !== undefined && v.additionalProperties !== false)
    errs.push(field.forbidden(fldPath.child('additionalProperties'), 'must be undefined to be structural'))
  if (v.default !== undefined)
    errs.push(field.forbidden(fldPath.child('default'), 'must be undefined to be structural'))
  if ((v.title ?? '').length > 0) errs.push(field.forbidden(fldPath.child('title'), 'must be empty to be structural'))
  if ((v.description ?? '').length > 0)
    errs.push(field.forbidden(fldPath.child('description'), 'must be empty to be structural'))
  if (v.nullable === true) errs.push(field.forbidden(fldPath.child('nullable'), 'must be false to be structural'))
  if (v['x-kubernetes-preserve-unknown-fields'] === true)
    errs.push(field.forbidden(fldPath.child('x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'))
  if (v['x-kubernetes-embedded-resource'] === true)
    errs.push(field.forbidden(fldPath.child('x-kubernetes-embedded-resource'), 'must be false to be structural'))
  if (v['x-kubernetes-int-or-string'] === true)
    errs.push(field.forbidden(fldPath.child('x-kubernetes-int-or-string'), 'must be false to be structural'))
  if ((v['x-kubernetes-list-map-keys']?.length ?? 0) > 0)
    errs.push(field.forbidden(fldPath.child('x-kubernetes-list-map-keys'), 'must be empty to be structural'))
  if (v['x-kubernetes-list-type'] !== undefined)
    errs.push(field.forbidden(fldPath.child('x-kubernetes-list-type'), 'must be undefined to be structural'))
  if (v['x-kubernetes-map-type'] !== undefined)
    errs.push(field.forbidden(fldPath.child('x-kubernetes-map-type'), 'must be undefined to be structural'))
  if ((v['x-kubernetes-validations']?.length ?? 0) > 0)
    errs.push(field.forbidden(fldPath.child('x-kubernetes-validations'), 'must be empty to be structural'))
  // forbid reasoning about metadata because it can lead to metadata restrictions we don't want
  if (v.properties !== undefined && Object.hasOwn(v.properties, 'metadata'))
    errs.push(field.forbidden(fldPath.child('properties').key('metadata'), 'must not be specified in a nested context'))
  return errs
}

/** validateStructuralCompleteness: properties and items validated under the root's junctors must be specified. */
function validateStructuralCompleteness(s: JSONSchemaProps, fldPath: FieldPath): FieldError[] {
  return valueValidationCompleteness(s, s, fldPath, fldPath)
}

function valueValidationCompleteness(
  v: JSONSchemaProps,
  s: JSONSchemaProps | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldError[] {
  if (s === undefined) return [field.required(sPath, `because it is defined in ${vPath.toString()}`)]
  const errs: FieldError[] = []
  errs.push(...nestedCompleteness(v.not, s, sPath, vPath.child('not')))
  v.allOf?.forEach((x, i) => {
    errs.push(...nestedCompleteness(x, s, sPath, vPath.child('allOf').index(i)))
  })
  v.anyOf?.forEach((x, i) => {
    errs.push(...nestedCompleteness(x, s, sPath, vPath.child('anyOf').index(i)))
  })
  v.oneOf?.forEach((x, i) => {
    errs.push(...nestedCompleteness(x, s, sPath, vPath.child('oneOf').index(i)))
  })
  return errs
}

function nestedCompleteness(
  v: JSONSchemaProps | undefined,
  s: JSONSchemaProps | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldError[] {
  if (v === undefined) return []
  if (s === undefined) return [field.required(sPath, `because it is defined in ${vPath.toString()}`)]
  const errs: FieldError[] = []
  errs.push(...valueValidationCompleteness(v, s, sPath, vPath))
  errs.push(...nestedCompleteness(structuralItems(v), structuralItems(s), sPath.child('items'), vPath.child('items')))
  const sProps = structuralProperties(s)
  for (const k of sortedKeys(v.properties)) {
    const sFld = sProps?.[k]
    const vFld = v.properties?.[k]
    if (sFld === undefined || !Object.hasOwn(sProps ?? {}, k))
      errs.push(
        field.required(
          sPath.child('properties').key(k),
          `because it is defined in ${vPath.child('properties').key(k).toString()}`,
        ),
      )
    else
      errs.push(...nestedCompleteness(vFld, sFld, sPath.child('properties').key(k), vPath.child('properties').key(k)))
  }
  return errs
}
