import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import { byteLength, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './names-format.js'
import type { ObjectMeta } from './types.js'

// ValidateObjectMeta on create (apimachinery pkg/api/validation objectmeta.go, generic.go): names,
// namespace, generation, labels, annotations and finalizers. Owner references and managed fields are
// not read (a manifest does not carry them). Go walks label and annotation maps in random order;
// here keys are visited sorted.

/** ValidateNameFunc: error strings for a name, or for a generateName prefix when `prefix`. */
export type NameValidator = (name: string, prefix: boolean) => string[]

/** maskTrailingDash: a prefix may end in '-', the generated suffix follows it. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name
}

/** NameIsDNSSubdomain. */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name)

/** ValidateNamespaceName (NameIsDNSLabel). */
const validateNamespaceName: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name)

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)

/** ValidateObjectMetaAccessor for create. */
export function validateObjectMeta(
  meta: ObjectMeta,
  requiresNamespace: boolean,
  nameFn: NameValidator,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const generateName = meta.generateName ?? ''
  if (generateName.length > 0)
    for (const msg of nameFn(generateName, true))
      errs.push(field.invalid(fldPath.child('generateName'), generateName, msg))
  const name = meta.name ?? ''
  if (name.length === 0) errs.push(field.required(fldPath.child('name'), 'name or generateName is required'))
  else for (const msg of nameFn(name, false)) errs.push(field.invalid(fldPath.child('name'), name, msg))

  const namespace = meta.namespace ?? ''
  if (requiresNamespace) {
    if (namespace.length === 0) errs.push(field.required(fldPath.child('namespace'), ''))
    else
      for (const msg of validateNamespaceName(namespace, false))
        errs.push(field.invalid(fldPath.child('namespace'), namespace, msg))
  } else if (namespace.length > 0) {
    errs.push(field.forbidden(fldPath.child('namespace'), 'not allowed on this type'))
  }
  if ((meta.generation ?? 0) < 0)
    errs.push(field.invalid(fldPath.child('generation'), meta.generation, 'must be greater than or equal to 0'))
  errs.push(...validateLabels(meta.labels, fldPath.child('labels')))
  errs.push(...validateAnnotations(meta.annotations, fldPath.child('annotations')))
  errs.push(...validateFinalizers(meta.finalizers, fldPath.child('finalizers')))
  return errs
}

/** v1validation.ValidateLabels. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  for (const k of Object.keys(labels ?? {}).sort()) {
    for (const msg of isQualifiedName(k)) errs.push(field.invalid(fldPath, k, msg))
    const v = (labels as Record<string, string>)[k] as string
    for (const msg of isValidLabelValue(v)) errs.push(field.invalid(fldPath, v, msg))
  }
  return errs
}

/** ValidateAnnotations: keys are qualified names in any case; keys and values together at most 256 KiB. */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  let total = 0
  for (const k of Object.keys(annotations ?? {}).sort()) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(field.invalid(fldPath, k, msg))
    total += byteLength(k) + byteLength((annotations as Record<string, string>)[k] as string)
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(field.tooLong(fldPath, TOTAL_ANNOTATION_SIZE_LIMIT))
  return errs
}

const FINALIZER_ORPHAN = 'orphan'
const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion'

/** ValidateFinalizers. */
function validateFinalizers(finalizers: readonly string[] | undefined, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (finalizers === undefined) return errs
  for (const f of finalizers) for (const msg of isQualifiedName(f)) errs.push(field.invalid(fldPath, f, msg))
  if (finalizers.includes(FINALIZER_ORPHAN) && finalizers.includes(FINALIZER_DELETE_DEPENDENTS))
    errs.push(
      field.invalid(
        fldPath,
        finalizers,
        `finalizer ${FINALIZER_ORPHAN} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`,
      ),
    )
  return errs
}
