import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { PolicySet } from '../../src/engine/policy-set.js'
import { createAdmissionHandler, parseAdmissionReview, webhookAuditAnnotationKey } from '../../src/webhook/handler.js'
import {
  DEPLOYMENTS,
  deployment,
  LATEST_POLICY,
  PODS,
  pod,
  REPLICAS_POLICY,
  review,
  WIDGET_CRD,
  WIDGETS,
  widget,
} from './helpers.js'

// The handler without the network: AdmissionReview v1 in (k8s.io/api admission/v1 types), the
// response kube-apiserver's webhook dispatcher accepts out (webhook/request/admissionreview.go
// VerifyAdmissionResponse: uid echoed, apiVersion/kind admission.k8s.io/v1 AdmissionReview), with the
// engine's documented texts (docs/library.md, docs/crd.md).

const objects = (...yaml: string[]) => yaml.flatMap((y) => parseAllDocuments(y).map((d) => d.toJS()))
const set = PolicySet.build(objects(REPLICAS_POLICY(5), LATEST_POLICY, WIDGET_CRD))
const handler = createAdmissionHandler(() => set)

type Body = { apiVersion: string; kind: string; response: any; message?: string; code?: number; reason?: string }
const call = (body: unknown) => {
  const r = handler.handle(body)
  return { status: r.status, body: r.body as Body, headers: r.headers }
}

describe('webhook handler: handleAll (a batch, stage by stage)', () => {
  it('answers each body as handle() would, in order, with one onAdmit per admitted review', () => {
    const seen: string[] = []
    const h = createAdmissionHandler(() => set, { onAdmit: (e) => seen.push(e.attributes.uid ?? '') })
    const ok = review(deployment(3), DEPLOYMENTS)
    const denied = review(deployment(7), DEPLOYMENTS)
    const warned = review(pod('nginx:latest'), PODS)
    const bodies = [JSON.stringify(ok), '{"apiVersion": ', Buffer.from(JSON.stringify(denied)), warned, '[1]']
    const all = h.handleAll(bodies)
    expect(all.map((r) => r.status)).toEqual([200, 400, 200, 200, 400])
    const responses = all.map((r) => (r.body as Body).response)
    expect(responses[0]).toEqual({ uid: ok.request.uid, allowed: true })
    expect(responses[2]).toMatchObject({ uid: denied.request.uid, allowed: false, status: { code: 422 } })
    expect(responses[3]).toMatchObject({ uid: warned.request.uid, allowed: true, warnings: [expect.any(String)] })
    expect((all[1]?.body as Body | undefined)?.message).toMatch(/^request body is not valid JSON: /)
    expect(all).toEqual(bodies.map((b) => h.handle(b)))
    expect(seen).toEqual([ok, denied, warned, ok, denied, warned].map((r) => r.request.uid))
    expect(createAdmissionHandler(() => undefined).handleAll([JSON.stringify(ok)])[0]?.status).toBe(503)
    expect(h.handleAll([])).toEqual([])
  })
})

describe('webhook handler: decisions', () => {
  it('allowed: the uid echoed, no status', () => {
    const rv = review(deployment(3), DEPLOYMENTS)
    const r = call(JSON.stringify(rv))
    expect(r.status).toBe(200)
    expect(r.headers?.['content-type']).toBe('application/json')
    expect(r.body).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: rv.request.uid, allowed: true },
    })
  })

  it('denied: the Status with the policy plugin message, code and reason of the validation', () => {
    const rv = review(deployment(7), DEPLOYMENTS)
    const r = call(Buffer.from(JSON.stringify(rv)))
    expect(r.status).toBe(200)
    expect(r.body.response.uid).toBe(rv.request.uid)
    expect(r.body.response.allowed).toBe(false)
    // kube-apiserver shows: admission webhook "<name>" denied the request: <message>
    expect(r.body.response.status).toMatchObject({
      status: 'Failure',
      code: 422,
      reason: 'Invalid',
      message:
        "ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-binding.example.com' denied request: failed expression: object.spec.replicas <= 5",
    })
    expect(r.body.response.status.details).toMatchObject({ group: 'apps', kind: 'deployments', name: 'web' })
  })

  it('warned and audited: warnings as the apiserver writes them, audit keys a webhook may answer', () => {
    const rv = review(pod('nginx:latest'), PODS)
    const r = call(rv)
    expect(r.body.response.allowed).toBe(true)
    expect(r.body.response.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'no-latest' with binding 'no-latest-binding': image tag latest is not allowed: app",
    ])
    const ann = r.body.response.auditAnnotations
    expect(Object.keys(ann).sort()).toEqual(['no-latest_images', 'validation_failure'])
    expect(ann['no-latest_images']).toBe('nginx:latest')
    expect(JSON.parse(ann.validation_failure)).toEqual([
      {
        message: 'image tag latest is not allowed: app',
        policy: 'no-latest',
        binding: 'no-latest-binding',
        expressionIndex: 0,
        validationActions: ['Warn', 'Audit'],
      },
    ])
    // each key is one qualified-name part: the apiserver records it as <webhook>/<key>
    for (const k of Object.keys(ann)) expect(k).toMatch(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/)
  })

  it('a custom resource against its CRD: the apiextensions Invalid status', () => {
    expect(call(review(widget(2, 3), WIDGETS)).body.response.allowed).toBe(true)
    const r = call(review(widget(5, 3), WIDGETS))
    expect(r.body.response.allowed).toBe(false)
    expect(r.body.response.status).toMatchObject({
      status: 'Failure',
      code: 422,
      reason: 'Invalid',
      message: 'Widget.example.com "w" is invalid: spec: Invalid value: replicas must not exceed maxReplicas',
    })
  })

  it('request fields reach the policy: requestKind, userInfo, dryRun, options, oldObject on UPDATE', () => {
    const p = objects(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: fields}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [UPDATE], resources: [deployments]}
  validations:
  - expression: >-
      request.userInfo.username == 'alice' && request.dryRun &&
      request.requestKind.kind == 'Deployment' && request.options.kind == 'UpdateOptions' &&
      oldObject.spec.replicas == 1 && request.namespace == 'shop'
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: fields}
spec: {policyName: fields, validationActions: [Deny]}
`)
    const fieldsSet = PolicySet.build(p)
    expect(fieldsSet.problems).toEqual([])
    const h = createAdmissionHandler(() => fieldsSet)
    const rv = review(deployment(2), DEPLOYMENTS, {
      uid: 'u-42',
      operation: 'UPDATE',
      oldObject: deployment(1),
      dryRun: true,
      options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' },
    })
    expect((h.handle(rv).body as Body).response).toEqual({ uid: 'u-42', allowed: true })
    const other = review(deployment(2), DEPLOYMENTS, { uid: 'u-42', operation: 'UPDATE', oldObject: deployment(3) })
    expect((h.handle(other).body as Body).response.allowed).toBe(false)
  })

  it("evaluation errors follow the policy's failurePolicy (decided by the engine)", () => {
    const policy = (fp: string) =>
      objects(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: erring}
spec:
  failurePolicy: ${fp}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.paused == true
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: erring}
spec: {policyName: erring, validationActions: [Deny]}
`)
    const rv = review(deployment(1), DEPLOYMENTS)
    const ignore = createAdmissionHandler(() => PolicySet.build(policy('Ignore'))).handle(rv)
    expect((ignore.body as Body).response.allowed).toBe(true)
    const fail = createAdmissionHandler(() => PolicySet.build(policy('Fail'))).handle(rv)
    const resp = (fail.body as Body).response
    expect(resp.allowed).toBe(false)
    expect(resp.status.message).toBe(
      "ValidatingAdmissionPolicy 'erring' with binding 'erring' denied request: expression 'object.spec.paused == true' resulted in error: no such key: paused",
    )
  })
})

describe('webhook handler: requests it cannot answer', () => {
  const expectError = (body: unknown, code: number, message: string | RegExp) => {
    const r = call(body)
    expect(r.status).toBe(code)
    expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code })
    if (typeof message === 'string') expect(r.body.message).toBe(message)
    else expect(r.body.message).toMatch(message)
  }
  const base = review(deployment(1), DEPLOYMENTS)

  it('malformed JSON, empty bodies, non-objects, bad UTF-8: 400', () => {
    expectError('{"apiVersion": ', 400, /^request body is not valid JSON: /)
    expectError('', 400, 'request body is empty: expected an AdmissionReview')
    expectError(undefined, 400, 'request body is empty: expected an AdmissionReview')
    expectError('[1]', 400, 'request body is not a JSON object: expected an AdmissionReview')
    expectError(Buffer.from([0x7b, 0xff, 0x7d]), 400, 'request body is not valid UTF-8')
  })

  it('wrong apiVersion or kind: 400', () => {
    expectError(
      { ...base, apiVersion: 'admission.k8s.io/v1beta1' },
      400,
      'expected admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview (kelp answers admission.k8s.io/v1 only: set admissionReviewVersions: ["v1"])',
    )
    expectError(
      { ...base, kind: 'TokenReview' },
      400,
      'expected admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1, Kind=TokenReview',
    )
    expectError({ request: base.request }, 400, /got <no apiVersion>, Kind=<no kind>$/)
  })

  it('no request, no uid, bad fields: 400', () => {
    expectError({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }, 400, 'AdmissionReview has no request')
    expectError({ ...base, request: { ...base.request, uid: '' } }, 400, 'request.uid is required')
    expectError({ ...base, request: { ...base.request, uid: undefined } }, 400, 'request.uid is required')
    expectError(
      { ...base, request: { ...base.request, operation: 'PATCH' } },
      400,
      'request.operation: unsupported value "PATCH": supported values: "CREATE", "UPDATE", "DELETE", "CONNECT"',
    )
    expectError({ ...base, request: { ...base.request, kind: undefined } }, 400, /^request.kind is required/)
    expectError({ ...base, request: { ...base.request, object: 'x' } }, 400, 'request.object must be a JSON object')
    expectError(
      { ...base, request: { ...base.request, userInfo: { groups: 'a' } } },
      400,
      'request.userInfo.groups must be a list of strings',
    )
  })

  it('no policy set loaded: 503; an engine failure: 500', () => {
    const none = createAdmissionHandler(() => undefined).handle(base)
    expect(none.status).toBe(503)
    expect(none.body).toMatchObject({ reason: 'ServiceUnavailable', message: 'no policy set is loaded yet' })
    const broken = {
      admit: () => {
        throw new Error('boom')
      },
    } as unknown as PolicySet
    const r = createAdmissionHandler(() => broken).handle(base)
    expect(r.status).toBe(500)
    expect(r.body).toMatchObject({ reason: 'InternalError', message: 'internal error evaluating the request: boom' })
  })

  it('DELETE has no object; the attributes carry oldObject', () => {
    const { attributes } = parseAdmissionReview({
      ...base,
      request: { ...base.request, operation: 'DELETE', object: null, oldObject: deployment(2) },
    })
    expect(attributes.operation).toBe('DELETE')
    expect(attributes.object).toBeNull()
    expect(attributes.oldObject).toEqual(deployment(2))
  })
})

describe('webhook audit annotation keys', () => {
  it('one name part of at most 63 characters, stable and distinct per policy', () => {
    expect(webhookAuditAnnotationKey('validation.policy.admission.k8s.io/validation_failure')).toBe(
      'validation_failure',
    )
    expect(webhookAuditAnnotationKey('p.example.com/key')).toBe('p.example.com_key')
    const long = 'a-very-long-policy-name.with.many.segments.of.a.domain.example.com'
    const k1 = webhookAuditAnnotationKey(`${long}/replicas`)
    const k2 = webhookAuditAnnotationKey(`${long}x/replicas`)
    expect(k1).toMatch(/^replicas-[0-9a-f]{8}$/)
    expect(k1).not.toBe(k2)
    expect(webhookAuditAnnotationKey(`${long}/${'k'.repeat(63)}`).length).toBeLessThanOrEqual(63)
  })
})

describe('webhook handler: built-in objects refused by a set that decodes them', () => {
  it("answers the engine's Status (400 for an object that does not decode), not a generic denial", () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' }, spec: { containers: 'x' } }
    const rv = review(pod, PODS)
    const result = set.admit(parseAdmissionReview(rv).attributes)
    expect(result.builtin?.status).toBeDefined() // the engine refused it before any policy
    const r = call(rv)
    expect(r.body.response).toMatchObject({
      allowed: false,
      status: {
        code: result.builtin?.status?.code,
        reason: result.builtin?.status?.reason,
        message: result.builtin?.status?.message,
      },
    })
    expect(r.body.response.status.code).toBe(400)
  })
})
