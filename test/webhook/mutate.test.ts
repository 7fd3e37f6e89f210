import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyPatch, type JSONValue } from '../../src/policy/mutating/jsonpatch.js'
import { stringifyExact } from '../../src/webhook/handler.js'
import { startWebhookServer, type WebhookServer } from '../../src/webhook/server.js'
import {
  DEPLOYMENTS,
  deployment,
  hasOpenssl,
  makeCert,
  PODS,
  parseResponses,
  pod,
  review,
  send,
  talk,
  tempDir,
} from './helpers.js'

// POST /mutate over real HTTPS: the MutatingAdmissionPolicies answered as a mutating webhook
// (admission/v1 AdmissionResponse patchType JSONPatch, patch base64), what kube-apiserver's webhook
// dispatcher (webhook/mutating/dispatcher.go callAttrMutatingHook) decodes and applies to the object
// it sent. Cases and expected objects from apiserver pkg/admission/plugin/policy/mutating
// dispatcher_test.go TestDispatcher and patch/json_patch_test.go TestJSONPatch (named per test).

// dispatcher_test.go TestDispatcher "1st policy sets match condition that 2nd policy matches": policy1
// adds environment=production, policy2 (matchCondition prodonly) sees it and adds policy1invoked=true
const LABEL_POLICIES = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: policy1}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: ["*"], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"environment": "production"}}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: policy1-binding}
spec: {policyName: policy1}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: policy2}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: ["*"], resources: [deployments]}
  matchConditions:
  - name: prodonly
    expression: 'object.?metadata.labels["environment"].orValue("") == "production"'
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"policy1invoked": "true"}}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: policy2-binding}
spec: {policyName: policy2}
`

// json_patch_test.go TestJSONPatch "jsonPatch add to end of list" (a container appended), matched only
// while the pod has no such container; "jsonPatch replace end of list with - not allowed" under
// failurePolicy Fail and Ignore, chosen by a label
const POD_POLICIES = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: add-x}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  matchConditions:
  - name: no-x
    expression: '!object.spec.containers.exists(c, c.name == "x")'
  - name: not-a-failure-case
    expression: '!has(object.metadata.labels)'
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "add", path: "/spec/containers/-", value: {"name": "x"}}]'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: add-x-binding}
spec: {policyName: add-x}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: replace-end}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
    objectSelector: {matchLabels: {mode: fail}}
  failurePolicy: Fail
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "replace", path: "/spec/containers/-", value: {"name": "x"}}]'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: replace-end-binding}
spec: {policyName: replace-end}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: replace-end-ignored}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
    objectSelector: {matchLabels: {mode: ignore}}
  failurePolicy: Ignore
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "replace", path: "/spec/containers/-", value: {"name": "x"}}]'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: replace-end-ignored-binding}
spec: {policyName: replace-end-ignored}
`

// a validating policy that needs what policy1 adds: /validate judges the object as sent
const REQUIRE_ENV = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: require-environment}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  validations:
  - expression: 'object.?metadata.labels["environment"].orValue("") != ""'
    message: an environment label is required
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: require-environment-binding}
spec:
  policyName: require-environment
  validationActions: [Deny]
`

type J = Record<string, unknown>
const decodePatch = (response: { patchType?: string; patch?: string }) => {
  expect(response.patchType).toBe('JSONPatch')
  return JSON.parse(Buffer.from(String(response.patch), 'base64').toString('utf8')) as J[]
}
/** What the apiserver does with the answer: the decoded patch applied to the object it sent. */
const patched = (object: J, response: { patchType?: string; patch?: string }) =>
  applyPatch(structuredClone(object) as JSONValue, decodePatch(response) as never) as J

describe('stringifyExact', () => {
  it('writes int64s read as bigint back as integer literals', () => {
    expect(stringifyExact([{ op: 'add', path: '/spec/x', value: { n: 9007199254740993n, s: 'a' } }])).toBe(
      '[{"op":"add","path":"/spec/x","value":{"n":9007199254740993,"s":"a"}}]',
    )
    expect(stringifyExact({ s: 'kelp-bigint-x:1' })).toBe('{"s":"kelp-bigint-x:1"}')
  })
})

describe.skipIf(!hasOpenssl)('kelp serve: POST /mutate', () => {
  let tls: ReturnType<typeof makeCert>
  let srv: WebhookServer
  const mutate = (body: unknown) => send(srv.port, tls.cert, { path: '/mutate', body: body as object })
  const validate = (body: unknown) => send(srv.port, tls.cert, { path: '/validate', body: body as object })

  beforeAll(async () => {
    const dir = tempDir()
    tls = makeCert(dir)
    const policies = join(dir, 'policies')
    mkdirSync(policies)
    writeFileSync(join(policies, 'labels.yaml'), LABEL_POLICIES)
    writeFileSync(join(policies, 'pods.yaml'), POD_POLICIES)
    writeFileSync(join(policies, 'require-env.yaml'), REQUIRE_ENV)
    srv = await startWebhookServer({
      policies: [policies],
      tlsCert: tls.certFile,
      tlsKey: tls.keyFile,
      port: 0,
      address: '127.0.0.1',
      logger: { debug() {}, info() {}, warn() {}, error() {}, enabled: () => false },
      watch: false,
    })
  })
  afterAll(async () => {
    await srv?.close()
  })

  it('ApplyConfiguration (TestDispatcher "1st policy sets match condition that 2nd policy matches"): the patch gives the mutated object', async () => {
    const object = deployment(3)
    const rv = review(object, DEPLOYMENTS)
    const r = await mutate(rv)
    expect(r.status).toBe(200)
    const { response } = r.json()
    expect(response).toMatchObject({ uid: rv.request.uid, allowed: true, patchType: 'JSONPatch' })
    expect(Object.keys(response).sort()).toEqual(['allowed', 'patch', 'patchType', 'uid'])
    expect(decodePatch(response)).toEqual([
      { op: 'add', path: '/metadata/labels', value: { environment: 'production', policy1invoked: 'true' } },
    ])
    const mutated = patched(object, response)
    expect(mutated).toEqual({
      ...object,
      metadata: { name: 'web', namespace: 'shop', labels: { environment: 'production', policy1invoked: 'true' } },
    })
    // /validate takes the object as sent, without the mutations: the apiserver sends it the mutated one
    const before = (await validate(rv)).json().response
    expect(before.allowed).toBe(false)
    expect(before.status.message).toContain('an environment label is required')
    const after = (await validate(review(mutated, DEPLOYMENTS))).json().response
    expect(after).toEqual({ uid: expect.any(String), allowed: true })
    // and /mutate runs no validating policy (the denial above is /validate's alone)
    expect(srv.policySet()?.policies.map((p) => p.policy.metadata?.name)).toEqual(['require-environment'])
  })

  it('existing labels: only the missing ones are added', async () => {
    const object = { ...deployment(3), metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } } }
    const { response } = (await mutate(review(object, DEPLOYMENTS))).json()
    expect(decodePatch(response)).toEqual([
      { op: 'add', path: '/metadata/labels/environment', value: 'production' },
      { op: 'add', path: '/metadata/labels/policy1invoked', value: 'true' },
    ])
    expect((patched(object, response).metadata as J).labels).toEqual({
      app: 'web',
      environment: 'production',
      policy1invoked: 'true',
    })
  })

  it('JSONPatch (TestJSONPatch "jsonPatch add to end of list")', async () => {
    const object = pod('nginx:1.27')
    const { response } = (await mutate(review(object, PODS))).json()
    expect(response.allowed).toBe(true)
    // the patch from the request's object (diff.ts: a list of another length is replaced whole)
    expect(decodePatch(response)).toEqual([
      { op: 'replace', path: '/spec/containers', value: [{ name: 'app', image: 'nginx:1.27' }, { name: 'x' }] },
    ])
    expect((patched(object, response).spec as J).containers).toEqual([
      { name: 'app', image: 'nginx:1.27' },
      { name: 'x' },
    ])
  })

  it('no patch when nothing changes', async () => {
    // the container is there already: add-x does not match; a deployment already labelled
    const withX = { ...pod('nginx:1.27'), spec: { containers: [{ name: 'x', image: 'busybox' }] } }
    const rv = review(withX, PODS)
    expect((await mutate(rv)).json().response).toEqual({ uid: rv.request.uid, allowed: true })
    const labelled = {
      ...deployment(3),
      metadata: { name: 'web', namespace: 'shop', labels: { environment: 'production', policy1invoked: 'true' } },
    }
    const rd = review(labelled, DEPLOYMENTS)
    expect((await mutate(rd)).json().response).toEqual({ uid: rd.request.uid, allowed: true })
    // nothing matches a ConfigMap
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'shop' }, data: { a: '1' } }
    const rc = review(cm, { group: '', version: 'v1', resource: 'configmaps' })
    expect((await mutate(rc)).json().response).toEqual({ uid: rc.request.uid, allowed: true })
  })

  it('failurePolicy Fail: the plugin denial (TestJSONPatch "jsonPatch replace end of list with - not allowed"); Ignore: admitted unchanged', async () => {
    const failing = { ...pod('nginx:1.27'), metadata: { name: 'p', namespace: 'shop', labels: { mode: 'fail' } } }
    const rv = review(failing, PODS)
    const { response } = (await mutate(rv)).json()
    const message =
      "policy 'replace-end' with binding 'replace-end-binding' denied request: JSON Patch: replace operation does not apply: doc is missing key: /spec/containers/-: missing value"
    expect(response).toEqual({
      uid: rv.request.uid,
      allowed: false,
      status: {
        status: 'Failure',
        code: 403,
        reason: 'Invalid',
        message,
        details: { kind: 'pods', name: 'p', causes: [{ message }] },
      },
    })
    const ignored = { ...failing, metadata: { ...failing.metadata, labels: { mode: 'ignore' } } }
    const ri = review(ignored, PODS)
    expect((await mutate(ri)).json().response).toEqual({ uid: ri.request.uid, allowed: true })
  })

  it('a batch of /mutate and /validate reviews pipelined on one connection: each answered by its endpoint', async () => {
    const bodies = [
      ['/mutate', review(deployment(1, 'a'), DEPLOYMENTS)],
      ['/validate', review(deployment(1, 'b'), DEPLOYMENTS)],
      ['/mutate', review(pod('nginx:1.27'), PODS)],
      [
        '/validate',
        review({ ...deployment(1, 'c'), metadata: { name: 'c', labels: { environment: 'x' } } }, DEPLOYMENTS),
      ],
      ['/mutate', { nope: true }],
    ] as const
    const raw = bodies.map(([path, body]) => {
      const text = JSON.stringify(body)
      return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`
    })
    const { text } = await talk(srv.port, tls.cert, [raw.join('')], (t) => parseResponses(t).length >= bodies.length)
    const answers = parseResponses(text)
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 400])
    const json = answers.map((a) => JSON.parse(a.body))
    const uid = (i: number) => ((bodies[i] as readonly unknown[])[1] as { request: { uid: string } }).request.uid
    expect(json[0].response).toMatchObject({ uid: uid(0), allowed: true, patchType: 'JSONPatch' })
    expect(json[1].response).toMatchObject({ uid: uid(1), allowed: false })
    expect(json[1].response.patch).toBeUndefined()
    expect(decodePatch(json[2].response)).toEqual([
      { op: 'replace', path: '/spec/containers', value: [{ name: 'app', image: 'nginx:1.27' }, { name: 'x' }] },
    ])
    expect(json[3].response).toEqual({ uid: uid(3), allowed: true })
    expect(json[4].kind).toBe('Status')
  })

  it('metrics: per policy and binding, and per /mutate review', async () => {
    const m = await send(srv.port, tls.cert, { method: 'GET', path: '/metrics' })
    expect(m.text).toMatch(/^kelp_mutating_policies_loaded 5$/m)
    expect(m.text).toMatch(/^kelp_policies_loaded 1$/m)
    expect(m.text).toMatch(/^kelp_mutations_total\{policy="policy1",binding="policy1-binding",result="applied"\} 3$/m)
    expect(m.text).toMatch(/^kelp_mutations_total\{policy="policy2",binding="policy2-binding",result="applied"\} 3$/m)
    expect(m.text).toMatch(/^kelp_mutations_total\{policy="add-x",binding="add-x-binding",result="applied"\} 2$/m)
    expect(m.text).toMatch(
      /^kelp_mutations_total\{policy="replace-end",binding="replace-end-binding",result="error"\} 1$/m,
    )
    expect(m.text).not.toMatch(/replace-end-ignored/)
    expect(m.text).toMatch(/^kelp_mutation_reviews_total\{allowed="true",operation="CREATE",patched="true"\} 5$/m)
    expect(m.text).toMatch(/^kelp_mutation_reviews_total\{allowed="true",operation="CREATE",patched="false"\} 4$/m)
    expect(m.text).toMatch(/^kelp_mutation_reviews_total\{allowed="false",operation="CREATE",patched="false"\} 1$/m)
    expect(m.text).toMatch(/^kelp_http_requests_total\{path="\/mutate",code="200"\} \d+$/m)
    expect(m.text).toMatch(/^kelp_http_requests_total\{path="\/mutate",code="400"\} 1$/m)
    // /validate reviews only in kelp_admission_reviews_total
    expect(m.text).toMatch(/^kelp_admission_reviews_total\{allowed="false",operation="CREATE"\} 2$/m)
    expect(m.text).toMatch(/^kelp_admission_reviews_total\{allowed="true",operation="CREATE"\} 2$/m)
  })
})
