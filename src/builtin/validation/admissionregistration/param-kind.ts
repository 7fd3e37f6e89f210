import type { ParamKind } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { isDNS1035Label, isDNS1123Subdomain } from '../../../kube/validation/names.js'

// validateParamKind and parseGroupVersion (admissionregistration validation.go).

interface GroupVersion {
  readonly group: string
  readonly version: string
}

/** parseGroupVersion: `group/version`, `version`, or an error for more than one `/`. */
export function parseGroupVersion(gv: string): GroupVersion | Error {
  if (gv.length === 0 || gv === '/') return { group: '', version: '' }
  const slashes = gv.split('/').length - 1
  if (slashes === 0) return { group: '', version: gv }
  if (slashes === 1) {
    const i = gv.indexOf('/')
    return { group: gv.slice(0, i), version: gv.slice(i + 1) }
  }
  return new Error(`unexpected GroupVersion string: ${gv}`)
}

/** validateParamKind: apiVersion as an APIService group / version, kind a DNS-1035 label in any case. */
export function validateParamKind(gvk: ParamKind, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const apiVersion = gvk.apiVersion ?? ''
  const kind = gvk.kind ?? ''
  if (apiVersion.length === 0) errs.push(field.required(fldPath.child('apiVersion'), ''))
  else {
    const gv = parseGroupVersion(apiVersion)
    if (gv instanceof Error) errs.push(field.invalid(fldPath.child('apiVersion'), apiVersion, gv.message))
    else {
      // this matches the APIService group field validation
      if (gv.group.length > 0) {
        const e = isDNS1123Subdomain(gv.group)
        if (e.length > 0) errs.push(field.invalid(fldPath.child('apiVersion'), gv.group, e.join(',')))
      }
      // this matches the APIService version field validation
      if (gv.version.length === 0)
        errs.push(field.invalid(fldPath.child('apiVersion'), apiVersion, 'version must be specified'))
      else {
        const e = isDNS1035Label(gv.version)
        if (e.length > 0) errs.push(field.invalid(fldPath.child('apiVersion'), gv.version, e.join(',')))
      }
    }
  }
  if (kind.length === 0) errs.push(field.required(fldPath.child('kind'), ''))
  else {
    const e = isDNS1035Label(kind.toLowerCase())
    if (e.length > 0)
      errs.push(
        field.invalid(fldPath.child('kind'), kind, `may have mixed case, but should otherwise match: ${e.join(',')}`),
      )
  }
  return errs
}
