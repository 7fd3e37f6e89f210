import { isDeepStrictEqual } from 'node:util'
import type { Authorize, AuthzAttributes } from '../../src/kube/authz/authorizer.js'
import type { AdmissionAttributes } from '../../src/policy/attributes.js'

// Shared fixtures for the transcriptions of apiserver pkg/admission/plugin/cel/*_test.go: the
// typed Go objects written as the JSON the unstructured converter gives (typed ObjectMeta carries
// `creationTimestamp: null`), and the fake authorizers as kelp Authorize callbacks.

const none = { group: '', version: '', kind: '' }
const noResource = { group: '', version: '', resource: '' }

/** corev1.Endpoints with one subset (condition_test.go newValidAttribute / endpointCreateAttributes). */
export const endpoints = (name?: string, typeMeta = false): Record<string, unknown> => ({
  ...(typeMeta ? { kind: 'Endpoints', apiVersion: 'v1' } : {}),
  metadata: { ...(name === undefined ? {} : { name }), creationTimestamp: null },
  subsets: [{ addresses: [{ ip: '127.0.0.0' }] }],
})

/**
 * newValidAttribute: NewAttributesRecord(object, oldObject, GVK{}, "default", "foo", GVR{}, "",
 * Create, &CreateOptions{}, false, nil). On delete the object is nil and oldObject an unnamed Endpoints.
 */
export function newValidAttribute(object: Record<string, unknown> | undefined, isDelete: boolean): AdmissionAttributes {
  return {
    kind: none,
    resource: noResource,
    subResource: '',
    name: 'foo',
    namespace: 'default',
    operation: 'CREATE',
    object: isDelete ? null : (object ?? endpoints('endpoints1')),
    oldObject: isDelete ? endpoints() : null,
    options: {},
    userInfo: {},
    dryRun: false,
  }
}

/** endpointCreateAttributes: CREATE of v1 endpoints `default/endpoints1`. */
export function endpointCreateAttributes(): AdmissionAttributes {
  return {
    kind: { group: '', version: 'v1', kind: 'Endpoints' },
    resource: { group: '', version: 'v1', resource: 'endpoints' },
    subResource: '',
    name: 'endpoints1',
    namespace: 'default',
    operation: 'CREATE',
    object: endpoints('endpoints1', true),
    oldObject: null,
    options: {},
    userInfo: {},
    dryRun: false,
  }
}

/** endpointStatusUpdateAttributes: UPDATE of the `status` subresource, object and oldObject the same. */
export function endpointStatusUpdateAttributes(): AdmissionAttributes {
  const a = endpointCreateAttributes()
  return { ...a, oldObject: a.object, subResource: 'status', operation: 'UPDATE', options: {} }
}

/** corev1.Pod{name: foo, spec.nodeName: testnode} as unstructured JSON. */
export const podObject = {
  metadata: { name: 'foo', creationTimestamp: null },
  spec: { containers: null, nodeName: 'testnode' },
  status: {},
}

/** corev1.ConfigMap{name: foo, data.fakeString: fake}. */
export const configMapParams = { metadata: { name: 'foo', creationTimestamp: null }, data: { fakeString: 'fake' } }
export const crdParams = { spec: { testSize: 10 } }

/**
 * authorizer.AttributesRecord compared with reflect.DeepEqual: every field, zero values included
 * (a nil User compares equal to the request's nil user, which kelp passes as '' and no groups).
 * kelp's Authorize gets selectors as their text (parsing them is the callback's business), where
 * the Go record holds parsed requirements or the parse error.
 */
function record(a: Partial<AuthzAttributes>) {
  return {
    user: a.user ?? '',
    groups: [...(a.groups ?? [])],
    verb: a.verb ?? '',
    resourceRequest: a.resourceRequest ?? false,
    apiGroup: a.apiGroup ?? '',
    apiVersion: a.apiVersion ?? '',
    resource: a.resource ?? '',
    subresource: a.subresource ?? '',
    namespace: a.namespace ?? '',
    name: a.name ?? '',
    fieldSelector: a.fieldSelector ?? '',
    labelSelector: a.labelSelector ?? '',
    path: a.path ?? '',
  }
}

/** newAuthzAllowMatch: Allow for exactly `match`, Deny (no reason) for anything else. */
export function newAuthzAllowMatch(match: Partial<AuthzAttributes>): Authorize {
  const want = record(match)
  return (a) =>
    isDeepStrictEqual(record(a), want) ? { decision: 'Allow', reason: '' } : { decision: 'Deny', reason: '' }
}

/** denyAll: Deny with reason `fake reason`. */
export const denyAll: Authorize = () => ({ decision: 'Deny', reason: 'fake reason' })
/** errorAll: NoOpinion with the error `fake authz error`. */
export const errorAll: Authorize = () => ({ decision: 'NoOpinion', reason: '', error: 'fake authz error' })
