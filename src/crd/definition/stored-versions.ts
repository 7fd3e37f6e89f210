import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import type { CustomResourceDefinitionVersion } from './types.js'

// ValidateCustomResourceDefinitionStoredVersions (validation.go): status.storedVersions holds the
// storage version, and only versions still in spec.versions (on create: the storage version alone).

/** ValidateCustomResourceDefinitionStoredVersions. */
export function validateStoredVersions(
  storedVersions: readonly string[] | undefined,
  versions: readonly CustomResourceDefinitionVersion[],
  fldPath: FieldPath,
): FieldError[] {
  if (storedVersions === undefined || storedVersions.length === 0)
    return [field.invalid(fldPath, storedVersions ?? null, 'must have at least one stored version')]
  const errs: FieldError[] = []
  const stored = new Map<string, number>()
  storedVersions.forEach((v, i) => {
    stored.set(v, i)
  })
  for (const v of versions) {
    const name = v.name ?? ''
    const has = stored.has(name)
    if (v.storage && !has) errs.push(field.invalid(fldPath, storedVersions, `must have the storage version ${name}`))
    if (has) stored.delete(name)
  }
  for (const [v, i] of stored)
    errs.push(
      field.invalid(
        fldPath.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    )
  return errs
}
