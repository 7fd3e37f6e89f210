import { goQuote } from '../../cel/ext/quote.js'
import { compareStrings } from '../../cel/values/strings.js'
import { ErrorType, type FieldError, FieldPath, field, pathString } from '../field.js'
import { formatRFC3339, parseRFC3339 } from '../gotime.js'
import { deepEqualJSON } from '../schema/deep-equal.js'
import { isObject, type JSONObject } from '../values/json.js'
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './names.js'
import { utf8Length } from './utf8.js'

// apimachinery pkg/api/validation (objectmeta.go ValidateObjectMeta / ValidateObjectMetaAccessorUpdate,
// generic.go the ValidateNameFuncs) and pkg/apis/meta/v1/validation (ValidateLabels,
// ValidateManagedFields): the one ObjectMeta validation of kelp, for custom resources, built-ins and
// policies (issue 19). The declarative ObjectMeta rules are alpha and not enforced, so only these
// handwritten ones apply. `minor` selects the release: owner references and managedFields operations
// got their current checks in 1.37 (before: Invalid errors on the unindexed list path), their texts
// lost the field name in 1.34, TooLong read `must have at most N bytes` up to 1.31, and the label
// rules' length texts say `bytes` from 1.35. Go walks label and annotation maps in random order;
// here keys are visited in the order they were written.

export const DEFAULT_VALIDATION_MINOR = 37

export interface OwnerReference {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

export interface ManagedFieldsEntry {
  manager: string
  operation: string
  apiVersion: string
  time?: number
  fieldsType: string
  fieldsV1?: unknown
  subresource: string
}

/** metav1.ObjectMeta; times are Unix seconds, optional members are Go nil pointers / maps / slices. */
export interface ObjectMeta {
  name: string
  generateName: string
  namespace: string
  selfLink: string
  uid: string
  resourceVersion: string
  generation: number | bigint
  creationTimestamp?: number
  deletionTimestamp?: number
  deletionGracePeriodSeconds?: number | bigint
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: OwnerReference[]
  finalizers?: string[]
  managedFields?: ManagedFieldsEntry[]
}

export const emptyObjectMeta = (): ObjectMeta => ({
  name: '',
  generateName: '',
  namespace: '',
  selfLink: '',
  uid: '',
  resourceVersion: '',
  generation: 0,
})

/** field.TooLong: `must have at most N bytes` up to 1.31, `may not be more than N bytes` since. */
export function tooLong(p: FieldPath | undefined, max: number, minor: number): FieldError {
  if (minor >= 32) return field.tooLong(p, max)
  return { type: ErrorType.TooLong, field: pathString(p), badValue: '', detail: `must have at most ${max} bytes` }
}

/** A ValidateNameFunc: the messages for a name, or for a generateName prefix. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[]

/** maskTrailingDash, with its Go slicing kept: `abc-` becomes `aba`. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name
}

/** NameIsDNSSubdomain (most kinds; custom resources). */
export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name)

/** NameIsDNSLabel (= ValidateNamespaceName). */
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name)

/** NameIsDNS1035Label (Service names). */
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name)

/** path.ValidatePathSegmentName (content.IsPathSegmentName / Prefix): RBAC kinds, embedded resources. */
export const validatePathSegment: ValidateNameFunc = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`]
  const errs: string[] = []
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`)
  return errs
}

/**
 * validate.LongName through ValidateObjectMetaWithOpts (ReplicationController, DeviceClass): the name is a DNS
 * subdomain; generateName is not checked itself (the name generated from it is).
 */
export const longName: ValidateNameFunc = (name, prefix) => (prefix ? [] : isDNS1123Subdomain(name))

/** A kind whose names are not checked (apimachinery's ValidateNameFunc that accepts everything). */
export const anyName: ValidateNameFunc = () => []

const FINALIZER_ORPHAN = 'orphan'
const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion'
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)

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

/** v1validation.ValidateLabels. */
export function validateLabels(
  labels: Readonly<Record<string, string>> | undefined,
  p: FieldPath,
  minor: number = DEFAULT_VALIDATION_MINOR,
): FieldError[] {
  const errs: FieldError[] = []
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const m of isQualifiedName(k, minor)) errs.push(field.invalid(p, k, m))
    for (const m of isValidLabelValue(v, minor)) errs.push(field.invalid(p, v, m))
  }
  return errs
}

/** ValidateAnnotations: keys are qualified names in any case; keys and values together at most 256 KiB. */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  p: FieldPath,
  minor: number = DEFAULT_VALIDATION_MINOR,
): FieldError[] {
  const errs: FieldError[] = []
  let total = 0
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase(), minor)) errs.push(field.invalid(p, k, m))
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

/** ValidateOwnerReferences. */
export function validateOwnerReferences(
  refs: readonly OwnerReference[] | undefined,
  p: FieldPath,
  minor: number = DEFAULT_VALIDATION_MINOR,
): FieldError[] {
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

/** ValidateFinalizers. */
export function validateFinalizers(
  finalizers: readonly string[] | undefined,
  p: FieldPath,
  minor: number = DEFAULT_VALIDATION_MINOR,
): FieldError[] {
  const errs: FieldError[] = []
  let orphan = false
  let foreground = false
  for (const f of finalizers ?? []) {
    for (const m of isQualifiedName(f, minor)) errs.push(field.invalid(p, f, m))
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

/** v1validation.ValidateManagedFields. */
export function validateManagedFields(
  entries: ObjectMeta['managedFields'],
  p: FieldPath,
  minor: number = DEFAULT_VALIDATION_MINOR,
): FieldError[] {
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
  errs.push(...validateLabels(m.labels, p.child('labels'), minor))
  errs.push(...validateAnnotations(m.annotations, p.child('annotations'), minor))
  errs.push(...validateOwnerReferences(m.ownerReferences, p.child('ownerReferences'), minor))
  errs.push(...validateFinalizers(m.finalizers, p.child('finalizers'), minor))
  errs.push(...validateManagedFields(m.managedFields, p.child('managedFields'), minor))
  return errs
}

/** ValidateObjectMeta / ValidateObjectMetaAccessor (create). */
export function validateObjectMeta(
  m: ObjectMeta,
  requiresNamespace: boolean,
  nameFn: ValidateNameFunc,
  p: FieldPath,
  minor: number = DEFAULT_VALIDATION_MINOR,
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
  deepEqualJSON(nv ?? null, ov ?? null) ? [] : [field.invalid(p, nv ?? null, 'field is immutable')]

/** ValidateObjectMetaUpdate / ValidateObjectMetaAccessorUpdate. */
export function validateObjectMetaUpdate(
  m: ObjectMeta,
  old: ObjectMeta,
  p: FieldPath,
  minor: number = DEFAULT_VALIDATION_MINOR,
): FieldError[] {
  const errs: FieldError[] = []
  if (old.deletionTimestamp !== undefined) {
    const oldSet = new Set(old.finalizers ?? [])
    // sets.List: sorted as Go sorts strings
    const extra = [...new Set(m.finalizers ?? [])].filter((f) => !oldSet.has(f)).sort(compareStrings)
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
  errs.push(...validateLabels(m.labels, p.child('labels'), minor))
  errs.push(...validateAnnotations(m.annotations, p.child('annotations'), minor))
  errs.push(...validateOwnerReferences(m.ownerReferences, p.child('ownerReferences'), minor))
  errs.push(...validateManagedFields(m.managedFields, p.child('managedFields'), minor))
  return errs
}

/** A metav1.Time as a bad value (its JSON: RFC 3339, or null when zero). */
const timeValue = (t: number | undefined) => (t === undefined ? null : formatRFC3339(t))

const str = (v: unknown) => (typeof v === 'string' ? v : '')
function strMap(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined
  // a loop, not Object.fromEntries(entries.map): this runs for every object's labels and annotations
  const out: Record<string, string> = {}
  for (const k of Object.keys(v)) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: str(v[k]), enumerable: true, writable: true })
    else out[k] = str(v[k])
  }
  return out
}
const time = (v: unknown): number | undefined => {
  if (typeof v !== 'string') return undefined
  const t = parseRFC3339(v)
  return 'unixSeconds' in t ? t.unixSeconds : undefined
}

/**
 * metav1.ObjectMeta of an object already decoded as its Go type (a built-in after src/builtin's
 * decoder: times are RFC 3339 strings, numbers integers).
 */
export function objectMetaFromJSON(metadata: unknown): ObjectMeta {
  const m = isObject(metadata) ? metadata : {}
  const out = emptyObjectMeta()
  out.name = str(m.name)
  out.generateName = str(m.generateName)
  out.namespace = str(m.namespace)
  out.selfLink = str(m.selfLink)
  out.uid = str(m.uid)
  out.resourceVersion = str(m.resourceVersion)
  if (typeof m.generation === 'number' || typeof m.generation === 'bigint') out.generation = m.generation
  const ct = time(m.creationTimestamp)
  if (ct !== undefined) out.creationTimestamp = ct
  const dt = time(m.deletionTimestamp)
  if (dt !== undefined) out.deletionTimestamp = dt
  if (typeof m.deletionGracePeriodSeconds === 'number' || typeof m.deletionGracePeriodSeconds === 'bigint')
    out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds
  const labels = strMap(m.labels)
  if (labels !== undefined) out.labels = labels
  const annotations = strMap(m.annotations)
  if (annotations !== undefined) out.annotations = annotations
  if (Array.isArray(m.ownerReferences)) {
    out.ownerReferences = m.ownerReferences.filter(isObject).map((r) => ({
      apiVersion: str(r.apiVersion),
      kind: str(r.kind),
      name: str(r.name),
      uid: str(r.uid),
      ...(typeof r.controller === 'boolean' ? { controller: r.controller } : {}),
      ...(typeof r.blockOwnerDeletion === 'boolean' ? { blockOwnerDeletion: r.blockOwnerDeletion } : {}),
    }))
  }
  if (Array.isArray(m.finalizers)) out.finalizers = m.finalizers.map(str)
  if (Array.isArray(m.managedFields)) {
    out.managedFields = m.managedFields.filter(isObject).map((e) => {
      const t = time(e.time)
      return {
        manager: str(e.manager),
        operation: str(e.operation),
        apiVersion: str(e.apiVersion),
        ...(t !== undefined ? { time: t } : {}),
        fieldsType: str(e.fieldsType),
        ...(e.fieldsV1 !== undefined ? { fieldsV1: e.fieldsV1 } : {}),
        subresource: str(e.subresource),
      }
    })
  }
  return out
}

export interface ObjectMetaForOptions {
  /** The kind's scope: namespaced kinds need metadata.namespace (the request's, filled before validation). */
  readonly namespaced: boolean
  /** The kind's name rule (nameIsDNSSubdomain, nameIsDNSLabel, nameIsDNS1035Label, validatePathSegment, anyName). */
  readonly nameFn: ValidateNameFunc
  /** The target release's minor (default 37). */
  readonly minor?: number
  /** On UPDATE: the old object; ValidateObjectMetaUpdate then runs instead of the create rules. */
  readonly oldObject?: JSONObject
  /** The path of the metadata (default `metadata`; a template's is `spec.template.metadata`). */
  readonly path?: FieldPath
}

/**
 * The ObjectMeta validation a built-in kind's strategy runs, on a decoded object: on create
 * ValidateObjectMeta(&obj.ObjectMeta, namespaced, nameFn, field.NewPath("metadata")); on update
 * ValidateObjectMetaUpdate(&new.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata")) (which the
 * kinds' ValidateXUpdate call; their create rules do not run again on update).
 */
export function validateObjectMetaFor(object: JSONObject, options: ObjectMetaForOptions): FieldError[] {
  const minor = options.minor ?? DEFAULT_VALIDATION_MINOR
  const p = options.path ?? FieldPath.of('metadata')
  const m = objectMetaFromJSON(object.metadata)
  if (options.oldObject !== undefined)
    return validateObjectMetaUpdate(m, objectMetaFromJSON(options.oldObject.metadata), p, minor)
  return validateObjectMeta(m, options.namespaced, options.nameFn, p, minor)
}

/**
 * ValidateObjectMetaAccessor for create, on metadata as JSON (the API objects kelp validates itself: CRDs,
 * admission policies and bindings).
 */
export function validateObjectMetaJSON(
  meta: unknown,
  requiresNamespace: boolean,
  nameFn: ValidateNameFunc,
  fldPath: FieldPath,
): FieldError[] {
  return validateObjectMeta(objectMetaFromJSON(meta), requiresNamespace, nameFn, fldPath)
}
