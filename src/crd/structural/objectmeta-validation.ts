import { type FieldError, FieldPath, field } from '../../kube/field.js'
import { emptyObjectMeta, getObjectMeta } from '../../kube/objectmeta-unstructured.js'
import { isDNS1035Label } from '../../kube/validation/names.js'
import { parseGroupVersion, validateObjectMeta, validatePathSegment } from '../../kube/validation/objectmeta.js'
import { hasKey, isObject, type JSONObject } from '../../kube/values/json.js'
import { asResourceRoot } from './pruning.js'
import {
  additionalPropertiesSchema,
  embeddedResource,
  itemsSchema,
  type JSONSchemaProps,
  propertySchema,
} from './schema.js'
import { DEFAULT_MINOR } from './versions.js'

// ObjectMeta and TypeMeta checks made before CEL:
// - apiextensions-apiserver pkg/apiserver/schema/objectmeta/validation.go Validate: every
//   x-kubernetes-embedded-resource object needs a string apiVersion (a group/version) and kind (a
//   mixed-case DNS-1035 label) and valid metadata (names as path segments);
// - pkg/registry/customresource/validator.go ValidateTypeMeta and the root metadata through
//   apimachinery's ValidateObjectMeta (src/kube/validation/objectmeta.ts).

/** customResourceValidator.ValidateTypeMeta: kind and apiVersion of the CRD version. */
export function validateTypeMeta(obj: JSONObject, group: string, version: string, kind: string): FieldError[] {
  const errs: FieldError[] = []
  const k = typeof obj.kind === 'string' ? obj.kind : ''
  const av = typeof obj.apiVersion === 'string' ? obj.apiVersion : ''
  if (k !== kind) errs.push(field.invalid(FieldPath.of('kind'), k, `must be ${kind}`))
  if (av !== `${group}/${version}`)
    errs.push(field.invalid(FieldPath.of('apiVersion'), av, `must be ${group}/${version}`))
  return errs
}

/** schemaobjectmeta.Validate(ctx, pth, obj, s, isResourceRoot): embedded resources' TypeMeta and ObjectMeta. */
export function validateEmbeddedResources(
  pth: FieldPath | undefined,
  obj: unknown,
  s: JSONSchemaProps | undefined,
  isResourceRoot: boolean,
  minor: number = DEFAULT_MINOR,
): FieldError[] {
  return validateNode(pth, obj, isResourceRoot ? asResourceRoot(s) : s, minor)
}

const child = (p: FieldPath | undefined, k: string) => (p === undefined ? FieldPath.of(k) : p.child(k))

function validateNode(
  pth: FieldPath | undefined,
  x: unknown,
  s: JSONSchemaProps | undefined,
  minor: number,
): FieldError[] {
  if (s === undefined) return []
  const errs: FieldError[] = []
  if (Array.isArray(x)) {
    const items = itemsSchema(s)
    for (let i = 0; i < x.length; i++) {
      errs.push(...validateNode(pth === undefined ? FieldPath.ofKey(String(i)) : pth.index(i), x[i], items, minor))
    }
    return errs
  }
  if (!isObject(x)) return errs
  if (embeddedResource(s)) errs.push(...validateEmbeddedResource(pth, x, minor))
  for (const k of Object.keys(x)) {
    const prop = propertySchema(s, k)
    if (prop !== undefined) errs.push(...validateNode(child(pth, k), x[k], prop, minor))
    else {
      const ap = additionalPropertiesSchema(s)
      if (ap !== undefined)
        errs.push(...validateNode(pth === undefined ? FieldPath.ofKey(k) : pth.key(k), x[k], ap, minor))
    }
  }
  return errs
}

function validateEmbeddedResource(pth: FieldPath | undefined, x: JSONObject, minor: number): FieldError[] {
  const errs: FieldError[] = []
  if (!hasKey(x, 'apiVersion')) errs.push(field.required(child(pth, 'apiVersion'), ''))
  if (!hasKey(x, 'kind')) errs.push(field.required(child(pth, 'kind'), ''))
  for (const k of Object.keys(x)) {
    const v = x[k]
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(field.invalid(child(pth, k), v, 'must be a string'))
      else if (v.length === 0) errs.push(field.invalid(child(pth, k), v, 'must not be empty'))
      else {
        const gv = parseGroupVersion(v)
        if ('error' in gv) errs.push(field.invalid(child(pth, k), v, gv.error))
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(field.invalid(child(pth, k), v, 'must be a string'))
      else if (v.length === 0) errs.push(field.invalid(child(pth, k), v, 'must not be empty'))
      else {
        const msgs = isDNS1035Label(v.toLowerCase())
        if (msgs.length > 0) {
          errs.push(
            field.invalid(child(pth, k), v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`),
          )
        }
      }
    } else if (k === 'metadata') {
      const r = getObjectMeta(x)
      if (r.error !== undefined) errs.push(field.invalid(child(pth, 'metadata'), v, r.error))
      else {
        const m = r.meta ?? emptyObjectMeta()
        if (m.name.length === 0) m.name = 'fakename' // something, to avoid an error
        errs.push(...validateObjectMeta(m, m.namespace.length > 0, validatePathSegment, child(pth, 'metadata'), minor))
      }
    }
  }
  return errs
}
