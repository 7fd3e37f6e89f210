// content.IsPathSegmentName (apimachinery pkg/api/validate/content, formerly
// api/validation/path ValidatePathSegmentName(name, false)): a name that can be a URL path segment.

const MAY_NOT_BE = ['.', '..']
const MAY_NOT_CONTAIN = ['/', '%']

/** IsPathSegmentPrefix. */
export function isPathSegmentPrefix(name: string): string[] {
  const errs: string[] = []
  for (const s of MAY_NOT_CONTAIN) if (name.includes(s)) errs.push(`may not contain '${s}'`)
  return errs
}

/** IsPathSegmentName (no check for empty names or length, as Go). */
export function isPathSegmentName(name: string): string[] {
  for (const s of MAY_NOT_BE) if (name === s) return [`may not be '${s}'`]
  return isPathSegmentPrefix(name)
}
