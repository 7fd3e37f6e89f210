import { DEFAULT_KUBE_VERSION, type KubeVersion } from '../../kube/environment.js'
import { ErrorType, type FieldError, type FieldPath, field, pathString } from '../../kube/field.js'

// What changed between the Kubernetes minor versions kelp supports, for the checks of this
// directory. field.ts renders today's texts; the older ones are built here.

/** The minor number of a 1.x version. */
export const minorOf = (v: KubeVersion): number => Number(v.split('.')[1])

export const DEFAULT_MINOR = minorOf(DEFAULT_KUBE_VERSION)

/** A schema maxLength error: field.TooLongMaxLength (`may not be longer than N`) up to 1.31. */
export function schemaTooLong(p: FieldPath | undefined, value: unknown, max: number, minor: number): FieldError {
  if (minor >= 32) return field.tooLong(p, max)
  const detail = max >= 0 ? `may not be longer than ${max}` : 'value is too long'
  return { type: ErrorType.TooLong, field: pathString(p), badValue: value, detail }
}
