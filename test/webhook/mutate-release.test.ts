import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeVersion } from '../../src/kube/environment.js'
import { applyPatch, type JSONValue } from '../../src/policy/mutating/jsonpatch.js'
import { createLogger } from '../../src/report/log.js'
import { startWebhookServer, type WebhookServer } from '../../src/webhook/server.js'
import { DEPLOYMENTS, deployment, hasOpenssl, makeCert, review, send, tempDir } from './helpers.js'

// kelp serve's /mutate stands in for clusters that do not serve MutatingAdmissionPolicies (issue 26):
// before 1.36 a default kube-apiserver serves none (v1alpha1 1.32 and v1beta1 1.34 are off by default,
// v1 is GA in 1.36: api/admissionregistration/*/zz_generated.prerelease-lifecycle.go), so `kelp serve
// --kube-version 1.35` with such policies was refused as a whole and never became ready. The policy is
// dispatcher_test.go TestDispatcher's policy1 (adds environment=production).

const policy = (apiVersion: string) => `
apiVersion: ${apiVersion}
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
apiVersion: ${apiVersion}
kind: MutatingAdmissionPolicyBinding
metadata: {name: policy1-binding}
spec: {policyName: policy1}
`

const cases: [KubeVersion, string][] = [
  ['1.35', 'admissionregistration.k8s.io/v1'],
  ['1.35', 'admissionregistration.k8s.io/v1beta1'],
  ['1.33', 'admissionregistration.k8s.io/v1alpha1'],
]

describe.skipIf(!hasOpenssl).each(cases)(
  'kelp serve --kube-version %s with %s MutatingAdmissionPolicies',
  (version, apiVersion) => {
    let srv: WebhookServer
    let ca: string
    beforeAll(async () => {
      const dir = tempDir()
      const tls = makeCert(dir)
      ca = tls.cert
      writeFileSync(join(dir, 'policies.yaml'), policy(apiVersion))
      srv = await startWebhookServer({
        policies: [join(dir, 'policies.yaml')],
        tlsCert: tls.certFile,
        tlsKey: tls.keyFile,
        port: 0,
        address: '127.0.0.1',
        watch: false,
        processMetrics: false,
        policySetOptions: { version },
        logger: createLogger({ level: 'error', write: () => {} }),
      })
    })
    afterAll(async () => {
      await srv?.close()
    })

    it('is ready and /mutate adds the label', async () => {
      expect((await send(srv.port, ca, { method: 'GET', path: '/readyz' })).status).toBe(200)
      const res = await send(srv.port, ca, { path: '/mutate', body: review(deployment(1), DEPLOYMENTS) })
      const r = res.json().response
      expect(r.allowed).toBe(true)
      const ops = JSON.parse(Buffer.from(r.patch, 'base64').toString('utf8'))
      const patched = applyPatch(deployment(1) as JSONValue, ops) as { metadata: { labels?: Record<string, string> } }
      expect(patched.metadata.labels?.environment).toBe('production')
    })
  },
)
