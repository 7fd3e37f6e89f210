import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/report/log.js'
import { DEEP_NESTING, MAX_REVIEW_NESTING } from '../../src/webhook/deep.js'
import { jsonShape } from '../../src/webhook/json.js'
import { startWebhookServer, type WebhookServer } from '../../src/webhook/server.js'
import { hasOpenssl, makeCert, send, tempDir } from './helpers.js'

// Reviews as deep as kube-apiserver sends them (issue 25): the apiserver decodes an object up to Go's
// encoding/json limit of 10,000 nested levels (sigs.k8s.io/json) and sends it to the webhooks as it is.
// Before the deep lane (src/webhook/deep.ts), an UPDATE nested ~3,000 deep was a CEL "max recursion
// depth exceeded" denial and ~5,000 deep a 500 (the stack of node's main thread). Expected answers are
// what the apiserver's own policy plugin gives: CEL equality of equal maps is true; a failed validation
// without a message is `ValidatingAdmissionPolicy '<p>' with binding '<b>' denied request: failed
// expression: <expr>` (validating/dispatcher.go); the ApplyConfiguration adds the label and nothing else.

const MATERIAL = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: spec-frozen}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [UPDATE], resources: [widgets]}
  validations:
  - expression: object.spec == oldObject.spec
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: spec-frozen-binding}
spec: {policyName: spec-frozen, validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: label}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [UPDATE], resources: [widgets]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'checked': 'yes'}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: label-binding}
spec: {policyName: label}
`

/** `{"a":{"a":…{"leaf":"x"}…}}`, `depth` objects deep, written as text (JSON.stringify recurses per level). */
const nested = (depth: number, leaf: string) => `${'{"a":'.repeat(depth - 1)}{"leaf":"${leaf}"}${'}'.repeat(depth - 1)}`

const widget = (spec: string) =>
  `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":${spec}}`

const updateReview = (object: string, oldObject: string) =>
  `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"deep-1",` +
  `"kind":{"group":"example.com","version":"v1","kind":"Widget"},` +
  `"resource":{"group":"example.com","version":"v1","resource":"widgets"},` +
  `"name":"w","namespace":"default","operation":"UPDATE","userInfo":{"username":"u"},` +
  `"object":${object},"oldObject":${oldObject},"dryRun":false,"options":{}}}`

describe('jsonShape: nesting', () => {
  it('counts [ and { outside strings, escapes included', () => {
    const nesting = (t: string) => jsonShape(Buffer.from(t)).nesting
    expect(nesting('{}')).toBe(1)
    expect(nesting('[[{"a":[1]}],{}]')).toBe(4)
    expect(nesting('{"a":"{[{[\\"{{"}')).toBe(1)
    expect(nesting('"x"')).toBe(0)
    expect(nesting(nested(5000, 'x'))).toBe(5000)
  })
})

describe.skipIf(!hasOpenssl)('kelp serve: reviews nested as deep as the apiserver sends them', () => {
  let srv: WebhookServer
  let ca: string
  beforeAll(async () => {
    const dir = tempDir()
    const tls = makeCert(dir)
    ca = tls.cert
    writeFileSync(join(dir, 'policies.yaml'), MATERIAL)
    srv = await startWebhookServer({
      policies: [join(dir, 'policies.yaml')],
      tlsCert: tls.certFile,
      tlsKey: tls.keyFile,
      port: 0,
      address: '127.0.0.1',
      watch: false,
      processMetrics: false,
      logger: createLogger({ level: 'error', write: () => {} }),
    })
  })
  afterAll(async () => {
    await srv?.close()
  })

  // 9,995 + the review's and object's own levels: the apiserver's 10,000 for the object
  for (const depth of [50, DEEP_NESTING + 1, 3000, 9995]) {
    it(`/validate: equal specs ${depth} deep are allowed, a changed leaf is denied`, async () => {
      const same = await send(srv.port, ca, {
        body: updateReview(widget(nested(depth, 'x')), widget(nested(depth, 'x'))),
      })
      expect(same.status).toBe(200)
      expect(same.json().response).toEqual({ uid: 'deep-1', allowed: true })
      const changed = await send(srv.port, ca, {
        body: updateReview(widget(nested(depth, 'y')), widget(nested(depth, 'x'))),
      })
      expect(changed.status).toBe(200)
      const r = changed.json().response
      expect(r.allowed).toBe(false)
      expect(r.status.message).toBe(
        "ValidatingAdmissionPolicy 'spec-frozen' with binding 'spec-frozen-binding' denied request: " +
          'failed expression: object.spec == oldObject.spec',
      )
    })

    it(`/mutate: the label is added to a widget ${depth} deep, nothing else is patched`, async () => {
      const res = await send(srv.port, ca, {
        path: '/mutate',
        body: updateReview(widget(nested(depth, 'x')), widget(nested(depth, 'x'))),
      })
      expect(res.status).toBe(200)
      const r = res.json().response
      expect(r.allowed).toBe(true)
      expect(r.patchType).toBe('JSONPatch')
      const ops = JSON.parse(Buffer.from(r.patch, 'base64').toString('utf8'))
      expect(ops).toEqual([{ op: 'add', path: '/metadata/labels', value: { checked: 'yes' } }])
    })
  }

  it('refuses a review nested deeper than any the apiserver sends (400), and answers on', async () => {
    const tooDeep = await send(srv.port, ca, {
      body: updateReview(widget(nested(MAX_REVIEW_NESTING, 'x')), widget(nested(3, 'x'))),
    })
    expect(tooDeep.status).toBe(400)
    expect(tooDeep.json().message).toBe(
      'request body nests more than 10002 levels: kube-apiserver decodes objects of at most 10000',
    )
    const after = await send(srv.port, ca, { body: updateReview(widget(nested(3, 'x')), widget(nested(3, 'x'))) })
    expect(after.json().response).toEqual({ uid: 'deep-1', allowed: true })
  })
})
