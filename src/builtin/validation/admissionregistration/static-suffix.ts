import { type FieldError, FieldPath, field } from '../../../kube/field.js'

// kubernetes pkg/apis/admissionregistration/validation/static_suffix.go: from 1.37 (the
// ManifestBasedAdmissionControlConfig gate, beta and on) the strategies of the six admission kinds refuse on
// create a name the apiserver keeps for the configurations it loads from manifest files.

export const STATIC_CONFIG_SUFFIX = '.static.k8s.io'

/** ValidateStaticSuffix on `metadata.name`, as the strategies' Validate calls it when the gate is on. */
export function validateStaticSuffix(name: unknown, minor: number): FieldError[] {
  if (minor < 37 || typeof name !== 'string' || !name.endsWith(STATIC_CONFIG_SUFFIX)) return []
  return [
    field.invalid(
      FieldPath.of('metadata', 'name'),
      name,
      `names ending with "${STATIC_CONFIG_SUFFIX}" are reserved for static manifest-based configurations and cannot be managed via the API`,
    ),
  ]
}
