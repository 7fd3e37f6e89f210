import { FieldPath } from '../../kube/field.js'
import { setOwn } from '../../kube/own-keys.js'
import type { JSONObject } from '../../kube/values/json.js'
import { get, has, obj, objs, str } from './common.js'

// The Pod strategy's AppArmor version skew (k8s.io/kubernetes v1.37.2 pkg/registry/core/pod/strategy.go
// applyAppArmorVersionSkew, called by PrepareForCreate before validation, so after mutating admission and
// before the validating policies): a container's deprecated
// `container.apparmor.security.beta.kubernetes.io/<name>` annotation without a securityContext.appArmorProfile
// is copied into that field, and warned about (the warning is recorded then, so even a write that validation
// then refuses prints it). pkg/api/pod/util.go ApparmorFieldForAnnotation reads the annotation. Up to 1.33 the
// sync also ran the other way (the v1.30.0 to v1.33.0 sources): a container without the annotation got the one
// its field, or else the pod's field, names (appArmorAnnotationForField).

const APPARMOR_CONTAINER = 'container.apparmor.security.beta.kubernetes.io/'
const MAX_LOCALHOST_PROFILE_LENGTH = 4095 // PATH_MAX - 1

/** ApparmorFieldForAnnotation: the profile an annotation value names, or undefined. */
export function apparmorFieldForAnnotation(annotation: string): JSONObject | undefined {
  if (annotation === 'unconfined') return { type: 'Unconfined' }
  if (annotation === 'runtime/default') return { type: 'RuntimeDefault' }
  if (annotation.startsWith('localhost/')) {
    const localhostProfile = annotation.slice('localhost/'.length)
    if (localhostProfile !== '') return { type: 'Localhost', localhostProfile }
  }
  return undefined
}

/** apiequality.Semantic.DeepEqual of two AppArmorProfiles (a nil profile equals none). */
export function sameAppArmorProfile(a: JSONObject | undefined, b: JSONObject | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  const la = typeof a.localhostProfile === 'string' ? a.localhostProfile : undefined
  const lb = typeof b.localhostProfile === 'string' ? b.localhostProfile : undefined
  return str(a.type) === str(b.type) && la === lb
}

/** ValidateAppArmorProfileField passes on a profile ApparmorFieldForAnnotation built. */
function validProfile(p: JSONObject): boolean {
  if (p.type !== 'Localhost') return true
  const local = str(p.localhostProfile)
  return local.trim() === local && local !== '' && Buffer.byteLength(local) <= MAX_LOCALHOST_PROFILE_LENGTH
}

/** appArmorAnnotationForField (1.30 to 1.33): the annotation value a profile names, or ''. */
function appArmorAnnotationForField(p: JSONObject): string {
  if (p.type === 'Unconfined') return 'unconfined'
  if (p.type === 'RuntimeDefault') return 'runtime/default'
  if (p.type === 'Localhost' && typeof p.localhostProfile === 'string') return `localhost/${p.localhostProfile}`
  return ''
}

/** applyAppArmorVersionSkew on a Pod being created, in place; its warnings. */
export function applyAppArmorVersionSkew(pod: JSONObject, minor: number): string[] {
  const spec = obj(pod.spec)
  if (spec === undefined || obj(spec.os)?.name === 'windows') return []
  const podProfile = obj(obj(spec.securityContext)?.appArmorProfile)
  const warnings: string[] = []
  for (const list of ['initContainers', 'containers', 'ephemeralContainers'])
    for (const c of objs(spec[list])) {
      const key = APPARMOR_CONTAINER + str(c.name)
      const annotations = obj(pod.metadata)?.annotations
      const containerProfile = obj(obj(c.securityContext)?.appArmorProfile)
      if (!has(annotations, key)) {
        // up to 1.33: the field synced into the annotation
        const value = minor > 33 ? '' : appArmorAnnotationForField(containerProfile ?? podProfile ?? {})
        if (value !== '') {
          const meta = obj(pod.metadata) ?? (pod.metadata = {})
          const a = obj(meta.annotations) ?? (meta.annotations = {})
          setOwn(a, key, value)
        }
        continue
      }
      if (containerProfile !== undefined) continue
      let field = apparmorFieldForAnnotation(str(get(annotations, key)))
      // an invalid value is not copied
      if (field !== undefined && !validProfile(field)) field = undefined
      // warned when no valid field derives from the annotation, or when the field is copied
      let warn = field === undefined
      // copied only when it differs from the pod's profile
      if (field !== undefined && !sameAppArmorProfile(field, podProfile)) {
        const sc = obj(c.securityContext)
        if (sc === undefined) c.securityContext = { appArmorProfile: field }
        else sc.appArmorProfile = field
        warn = true
      }
      if (warn)
        warnings.push(
          `${FieldPath.of('metadata', 'annotations').key(key)}: deprecated since v1.30; use the "appArmorProfile" field instead`,
        )
    }
  return warnings
}
