import type {
  AdmissionAttributes,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
} from '../../../src/policy/attributes.js'

// admission.NewAttributesRecord(object, oldObject, kind, namespace, name, resource, subresource,
// operation, options, dryRun, userInfo), as the Go tests call it.
export function attrs(
  object: Record<string, unknown> | null,
  oldObject: Record<string, unknown> | null,
  kind: GroupVersionKind,
  namespace: string,
  name: string,
  resource: GroupVersionResource,
  subResource: string,
  operation: Operation,
): AdmissionAttributes {
  return { object, oldObject, kind, namespace, name, resource, subResource, operation, userInfo: {}, dryRun: false }
}

export const gvr = (group: string, version: string, resource: string): GroupVersionResource => ({
  group,
  version,
  resource,
})
export const gvk = (group: string, version: string, kind: string): GroupVersionKind => ({ group, version, kind })
