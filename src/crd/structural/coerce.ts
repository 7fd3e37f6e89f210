import { type FieldError, FieldPath, field } from '../../kube/field.js'
import { getObjectMeta, setObjectMeta } from '../../kube/objectmeta-unstructured.js'
import { compareGoStrings, isObject } from '../../kube/values/json.js'
import { asResourceRoot } from './pruning.js'
import {
  additionalPropertiesSchema,
  embeddedResource,
  itemsSchema,
  type JSONSchemaProps,
  propertySchema,
} from './schema.js'

// apiextensions-apiserver pkg/apiserver/schema/objectmeta/algorithm.go CoerceWithOptions: inside
// x-kubernetes-embedded-resource objects (and the root when asked), apiVersion and kind must be
// strings and metadata is decoded as ObjectMeta and written back normalized (unknown fields gone,
// a zero creationTimestamp removed). The first failure is returned (decoding fails with it) unless
// malformed fields are to be dropped (reading stored objects). Mutates obj.

export interface CoerceOptions {
  readonly dropInvalidFields?: boolean
  readonly returnUnknownFieldPaths?: boolean
}

export interface CoerceResult {
  readonly error?: FieldError
  /** `<path>.metadata.<field>`, sorted. */
  readonly unknownFields: string[]
}

const child = (p: FieldPath | undefined, k: string) => (p === undefined ? FieldPath.of(k) : p.child(k))

export function coerce(
  pth: FieldPath | undefined,
  obj: unknown,
  s: JSONSchemaProps | undefined,
  isResourceRoot: boolean,
  opts: CoerceOptions = {},
): CoerceResult {
  const unknown: string[] = []
  const error = coerceNode(pth, obj, isResourceRoot ? asResourceRoot(s) : s, opts, unknown)
  return { error, unknownFields: unknown.sort(compareGoStrings) }
}

function coerceNode(
  pth: FieldPath | undefined,
  x: unknown,
  s: JSONSchemaProps | undefined,
  opts: CoerceOptions,
  unknown: string[],
): FieldError | undefined {
  if (s === undefined) return undefined
  if (Array.isArray(x)) {
    const items = itemsSchema(s)
    for (let i = 0; i < x.length; i++) {
      const e = coerceNode(pth === undefined ? FieldPath.ofKey(String(i)) : pth.index(i), x[i], items, opts, unknown)
      if (e !== undefined) return e
    }
    return undefined
  }
  if (!isObject(x)) return undefined
  for (const k of Object.keys(x)) {
    const v = x[k]
    if (embeddedResource(s)) {
      if (k === 'apiVersion' || k === 'kind') {
        if (typeof v !== 'string') {
          if (opts.dropInvalidFields) delete x[k]
          else return field.invalid(child(pth, k), v, 'must be a string')
        }
      } else if (k === 'metadata') {
        const r = getObjectMeta(x, {
          dropMalformedFields: opts.dropInvalidFields,
          returnUnknownFieldPaths: opts.returnUnknownFieldPaths,
          parentPath: pth,
        })
        unknown.push(...r.unknownFields)
        if (r.error !== undefined) {
          if (!opts.dropInvalidFields) return field.invalid(child(pth, 'metadata'), v, r.error)
        } else if (r.found) setObjectMeta(x, r.meta)
      }
    }
    const prop = propertySchema(s, k)
    if (prop !== undefined) {
      const e = coerceNode(child(pth, k), x[k], prop, opts, unknown)
      if (e !== undefined) return e
    } else {
      const ap = additionalPropertiesSchema(s)
      if (ap !== undefined) {
        const e = coerceNode(pth === undefined ? FieldPath.ofKey(k) : pth.key(k), x[k], ap, opts, unknown)
        if (e !== undefined) return e
      }
    }
  }
  return undefined
}
