import { type FieldError, FieldPath, field, goJSON } from '../../kube/field.js'
import { kindOf } from '../../kube/values/json.js'
import { Code, type OpenAPIError } from './openapi-errors.js'
import { DEFAULT_MINOR, schemaTooLong } from './versions.js'

// apiextensions-apiserver pkg/apiserver/validation/validation.go kubeOpenAPIResultToFieldErrors: a
// kube-openapi error becomes a field error at `fldPath` + its Name (one path element holding the
// whole dotted kube-openapi path). Required, enum, maxLength, maxItems, maxProperties and type
// errors get their own constructors (and lose the kube-openapi text, except type errors); any other
// Validation is Invalid with the kube-openapi text; non-Validation errors (anyOf/allOf/oneOf/not
// summaries, bound range checks) are Invalid at `fldPath` itself, usually `<nil>`, with value "".
// Up to 1.31 a too long string was field.TooLongMaxLength (`may not be longer than N`).

const int64Or = (v: unknown, fallback: number): number =>
  kindOf(v) === 'int64' ? Number(v as number | bigint) : fallback

export function kubeOpenAPIErrorsToFieldErrors(
  fldPath: FieldPath | undefined,
  errs: readonly OpenAPIError[],
  minor: number = DEFAULT_MINOR,
): FieldError[] {
  const out: FieldError[] = []
  for (const err of errs) {
    if (!err.validation) {
      out.push(field.invalid(fldPath, '', err.message))
      continue
    }
    let errPath = fldPath
    if (err.name.length > 0 && err.name !== '.') {
      const name = err.name.startsWith('.') ? err.name.slice(1) : err.name
      errPath = fldPath === undefined ? FieldPath.of(name) : fldPath.child(name)
    }
    const value = err.value ?? ''
    switch (err.code) {
      case Code.RequiredFail:
        out.push(field.required(errPath, ''))
        break
      case Code.EnumFail: {
        const values = (err.values ?? []).map((v) => (typeof v === 'string' ? v : goJSON(v)))
        out.push(field.notSupported(errPath, err.value ?? null, values))
        break
      }
      case Code.TooLongFail:
        out.push(schemaTooLong(errPath, value, int64Or(err.valid, -1), minor))
        break
      case Code.MaxItemsFail:
      case Code.TooManyProperties:
        out.push(field.tooMany(errPath, int64Or(err.value, -1), int64Or(err.valid, -1)))
        break
      case Code.InvalidType:
        out.push(field.typeInvalid(errPath, value, err.message))
        break
      default:
        out.push(field.invalid(errPath, value, err.message))
    }
  }
  return out
}
