import { goQuote } from '../../cel/ext/quote.js'
import { type FieldError, FieldPath, field } from '../../kube/field.js'
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../../kube/library/format.js'
import { utf8Length } from './formats-net.js'
import { formatRFC3339 } from './gotime.js'
import { emptyObjectMeta, getObjectMeta, type ObjectMeta, type OwnerReference } from './objectmeta.js'
import { asResourceRoot } from './pruning.js'
import {
  additionalPropertiesSchema,
  embeddedResource,
  itemsSchema,
  type JSONSchemaProps,
  propertySchema,
} from './schema.js'
import { deepEqual, hasKey, isObject, type JSONObject } from './values.js'
import { DEFAULT_MINOR, tooLong } from './versions.js'

// ObjectMeta and TypeMeta checks made before CEL:
// - apiextensions-apiserver pkg/apiserver/schema/objectmeta/validation.go Validate: every
//   x-kubernetes-embedded-resource object needs a string apiVersion (a group/version) and kind (a
//   mixed-case DNS-1035 label) and valid metadata (names as path segments);
// - pkg/registry/customresource/validator.go ValidateTypeMeta and the root metadata through
//   apimachinery pkg/api/validation/objectmeta.go ValidateObjectMeta (create, names as DNS
//   subdomains) or ValidateObjectMetaUpdate (update: immutable fields). The declarative ObjectMeta
//   rules are alpha, not enforced, so only these handwritten ones apply.
// `minor` selects the version: owner references and managedFields operations got their current
// checks in 1.37 (before: Invalid errors on the unindexed list path), their texts lost the field
// name in 1.34, and TooLong read `must have at most N bytes` up to 1.31.

/** A ValidateNameFunc: the messages for a name, or for a generateName prefix. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[]

/** maskTrailingDash, with its Go slicing kept: `abc-` becomes `aba`. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name
}

/** NameIsDNSSubdomain: the rule for custom resource names. */
export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name)

/** NameIsDNSLabel (= ValidateNamespaceName). */
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name)

/** content.IsPathSegmentName / IsPathSegmentPrefix: embedded resources' names. */
export const validatePathSegment: ValidateNameFunc = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`]
  const errs: string[] = []
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`)
  return errs
}

const FINALIZER_ORPHAN = 'orphan'
const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion'
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)

/** schema.ParseGroupVersion: the group/version, or Go's error. */
export function parseGroupVersion(gv: string): { group: string; version: string } | { error: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' }
  const slashes = gv.split('/').length - 1
  if (slashes === 0) return { group: '', version: gv }
  if (slashes === 1) {
    const i = gv.indexOf('/')
    return { group: gv.slice(0, i), version: gv.slice(i + 1) }
  }
  return { error: `unexpected GroupVersion string: ${gv}` }
}

function validateLabels(labels: Record<string, string> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(field.invalid(p, k, m))
    for (const m of isValidLabelValue(v)) errs.push(field.invalid(p, v, m))
  }
  return errs
}

function validateAnnotations(
  annotations: Record<string, string> | undefined,
  p: FieldPath,
  minor: number,
): FieldError[] {
  const errs: FieldError[] = []
  let total = 0
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(field.invalid(p, k, m))
    total += utf8Length(k) + utf8Length(v)
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(p, TOTAL_ANNOTATION_SIZE_LIMIT, minor))
  return errs
}

/** An OwnerReference as encoding/json renders it (the bad value of owner errors). */
const ownerRefJSON = (r: OwnerReference) => ({
  apiVersion: r.apiVersion,
  kind: r.kind,
  name: r.name,
  uid: r.uid,
  ...(r.controller !== undefined ? { controller: r.controller } : {}),
  ...(r.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: r.blockOwnerDeletion } : {}),
})

function validateOwnerReferences(refs: OwnerReference[] | undefined, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  let firstController = ''
  ;(refs ?? []).forEach((ref, i) => {
    errs.push(...(minor >= 37 ? validateOwnerReference(ref, p.index(i)) : validateOwnerReferenceLegacy(ref, p, minor)))
    if (ref.controller === true) {
      const cur = `${ref.kind}/${ref.name}`
      if (firstController !== '') {
        errs.push(
          field.invalid(
            p,
            (refs ?? []).map(ownerRefJSON),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`,
          ),
        )
      } else firstController = cur
    }
  })
  return errs
}

/** BannedOwners: core/v1 Event; GroupVersionKind.String() is `/v1, Kind=Event`. */
const bannedOwner = (group: string, version: string, kind: string) =>
  group === '' && version === 'v1' && kind === 'Event'

/** validateOwnerReference since 1.37. */
function validateOwnerReference(ref: OwnerReference, rp: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const gv = parseGroupVersion(ref.apiVersion)
  if (ref.apiVersion.length === 0) errs.push(field.required(rp.child('apiVersion'), 'must not be empty'))
  else if ('error' in gv || gv.version.length === 0) {
    errs.push(field.invalid(rp.child('apiVersion'), ref.apiVersion, 'must be <group>/<version> or <version>'))
  }
  if (ref.kind.length === 0) errs.push(field.required(rp.child('kind'), 'must not be empty'))
  if (ref.name.length === 0) errs.push(field.required(rp.child('name'), 'must not be empty'))
  if (ref.uid.length === 0) errs.push(field.required(rp.child('uid'), 'must not be empty'))
  const g = 'error' in gv ? { group: '', version: '' } : gv
  if (bannedOwner(g.group, g.version, ref.kind)) {
    errs.push(field.invalid(rp, ownerRefJSON(ref), '/v1, Kind=Event is disallowed from being an owner'))
  }
  return errs
}

/** validateOwnerReference up to 1.36: schema.FromAPIVersionAndKind, errors on the list's path. */
function validateOwnerReferenceLegacy(ref: OwnerReference, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const parsed = parseGroupVersion(ref.apiVersion)
  const gv = 'error' in parsed ? { group: '', version: '' } : parsed
  const named = (what: string) => (minor >= 34 ? 'must not be empty' : `${what} must not be empty`)
  if (gv.version.length === 0)
    errs.push(field.invalid(p.child('apiVersion'), ref.apiVersion, 'version must not be empty'))
  if (ref.kind.length === 0) errs.push(field.invalid(p.child('kind'), ref.kind, named('kind')))
  if (ref.name.length === 0) errs.push(field.invalid(p.child('name'), ref.name, named('name')))
  if (ref.uid.length === 0) errs.push(field.invalid(p.child('uid'), ref.uid, named('uid')))
  if (bannedOwner(gv.group, gv.version, ref.kind)) {
    errs.push(field.invalid(p, ownerRefJSON(ref), '/v1, Kind=Event is disallowed from being an owner'))
  }
  return errs
}

function validateFinalizers(finalizers: string[] | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  let orphan = false
  let foreground = false
  for (const f of finalizers ?? []) {
    for (const m of isQualifiedName(f)) errs.push(field.invalid(p, f, m))
    if (f === FINALIZER_ORPHAN) orphan = true
    if (f === FINALIZER_DELETE_DEPENDENTS) foreground = true
  }
  if (orphan && foreground) {
    errs.push(
      field.invalid(
        p,
        finalizers,
        `finalizer ${FINALIZER_ORPHAN} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`,
      ),
    )
  }
  return errs
}

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const isPrint = (ch: string) => ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)

/** `%#U`: `U+0009` then, when printable, ` 'c'`. */
function goSharpU(cp: number, ch: string): string {
  const u = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
  return isPrint(ch) ? `${u} '${ch}'` : u
}

function validateManagedFields(entries: ObjectMeta['managedFields'], p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  ;(entries ?? []).forEach((e, i) => {
    const ep = p.index(i)
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      if (minor < 37) errs.push(field.invalid(ep.child('operation'), e.operation, 'must be `Apply` or `Update`'))
      else if (e.operation === '') errs.push(field.required(ep.child('operation'), 'must not be empty'))
      else errs.push(field.notSupported(ep.child('operation'), e.operation, ['Apply', 'Update']))
    }
    if (e.fieldsType.length > 0 && e.fieldsType !== 'FieldsV1') {
      errs.push(field.invalid(ep.child('fieldsType'), e.fieldsType, 'must be `FieldsV1`'))
    }
    // ValidateFieldManager
    if (utf8Length(e.manager) > 128) errs.push(tooLong(ep.child('manager'), 128, minor))
    let pos = 0
    for (const ch of e.manager) {
      const cp = ch.codePointAt(0) as number
      if (!isPrint(ch)) {
        errs.push(
          field.invalid(ep.child('manager'), e.manager, `invalid character ${goSharpU(cp, ch)} (at position ${pos})`),
        )
      }
      pos += utf8Length(ch)
    }
    if (utf8Length(e.subresource) > 256) errs.push(tooLong(ep.child('subresource'), 256, minor))
  })
  return errs
}

/** validateObjectMetaAccessorWithOptsCommon. */
function validateCommon(m: ObjectMeta, isNamespaced: boolean, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  if (isNamespaced) {
    if (m.namespace.length === 0) errs.push(field.required(p.child('namespace'), ''))
    else
      for (const msg of nameIsDNSLabel(m.namespace, false))
        errs.push(field.invalid(p.child('namespace'), m.namespace, msg))
  } else if (m.namespace.length !== 0) errs.push(field.forbidden(p.child('namespace'), 'not allowed on this type'))
  if (Number(m.generation) < 0)
    errs.push(field.invalid(p.child('generation'), m.generation, 'must be greater than or equal to 0'))
  errs.push(...validateLabels(m.labels, p.child('labels')))
  errs.push(...validateAnnotations(m.annotations, p.child('annotations'), minor))
  errs.push(...validateOwnerReferences(m.ownerReferences, p.child('ownerReferences'), minor))
  errs.push(...validateFinalizers(m.finalizers, p.child('finalizers')))
  errs.push(...validateManagedFields(m.managedFields, p.child('managedFields'), minor))
  return errs
}

/** ValidateObjectMeta / ValidateObjectMetaAccessor (create). */
export function validateObjectMeta(
  m: ObjectMeta,
  requiresNamespace: boolean,
  nameFn: ValidateNameFunc,
  p: FieldPath,
  minor: number = DEFAULT_MINOR,
): FieldError[] {
  const errs: FieldError[] = []
  if (m.generateName.length !== 0) {
    for (const msg of nameFn(m.generateName, true))
      errs.push(field.invalid(p.child('generateName'), m.generateName, msg))
  }
  if (m.name.length === 0) errs.push(field.required(p.child('name'), 'name or generateName is required'))
  else for (const msg of nameFn(m.name, false)) errs.push(field.invalid(p.child('name'), m.name, msg))
  return [...errs, ...validateCommon(m, requiresNamespace, p, minor)]
}

const immutable = (nv: unknown, ov: unknown, p: FieldPath): FieldError[] =>
  deepEqual(nv ?? null, ov ?? null) ? [] : [field.invalid(p, nv ?? null, 'field is immutable')]

/** ValidateObjectMetaUpdate / ValidateObjectMetaAccessorUpdate. */
export function validateObjectMetaUpdate(
  m: ObjectMeta,
  old: ObjectMeta,
  p: FieldPath,
  minor: number = DEFAULT_MINOR,
): FieldError[] {
  const errs: FieldError[] = []
  if (old.deletionTimestamp !== undefined) {
    const oldSet = new Set(old.finalizers ?? [])
    const extra = [...new Set(m.finalizers ?? [])].filter((f) => !oldSet.has(f)).sort()
    if (extra.length !== 0) {
      errs.push(
        field.forbidden(
          p.child('finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map(goQuote).join(', ')}}`,
        ),
      )
    }
  }
  if (m.resourceVersion.length === 0) {
    errs.push(field.invalid(p.child('resourceVersion'), m.resourceVersion, 'must be specified for an update'))
  }
  if (Number(m.generation) < 0)
    errs.push(field.invalid(p.child('generation'), m.generation, 'must be greater than or equal to 0'))
  if (Number(m.generation) < Number(old.generation)) {
    errs.push(field.invalid(p.child('generation'), m.generation, 'must not be decremented'))
  }
  errs.push(...immutable(m.name, old.name, p.child('name')))
  errs.push(...immutable(m.namespace, old.namespace, p.child('namespace')))
  errs.push(...immutable(m.uid, old.uid, p.child('uid')))
  errs.push(
    ...immutable(timeValue(m.creationTimestamp), timeValue(old.creationTimestamp), p.child('creationTimestamp')),
  )
  errs.push(
    ...immutable(timeValue(m.deletionTimestamp), timeValue(old.deletionTimestamp), p.child('deletionTimestamp')),
  )
  errs.push(
    ...immutable(m.deletionGracePeriodSeconds, old.deletionGracePeriodSeconds, p.child('deletionGracePeriodSeconds')),
  )
  errs.push(...validateLabels(m.labels, p.child('labels')))
  errs.push(...validateAnnotations(m.annotations, p.child('annotations'), minor))
  errs.push(...validateOwnerReferences(m.ownerReferences, p.child('ownerReferences'), minor))
  errs.push(...validateManagedFields(m.managedFields, p.child('managedFields'), minor))
  return errs
}

/** A metav1.Time as a bad value (its JSON: RFC 3339, or null when zero). */
const timeValue = (t: number | undefined) => (t === undefined ? null : formatRFC3339(t))

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
