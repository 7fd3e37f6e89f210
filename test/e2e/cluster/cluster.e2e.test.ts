// The harness itself: the pair is up, kubectl reaches it as an admin, the admission chain 1.37 documents is there
// (ValidatingAdmissionPolicy and MutatingAdmissionPolicy served at v1 and enforced), a namespace per test.
import { describe, expect, it } from 'vitest'
import { useCluster, useNamespace } from '../context.js'

const cluster = useCluster()
const ns = useNamespace(cluster, 'smoke')

describe('e2e cluster', () => {
  it('serves the built release to kubectl with the admin credential', async () => {
    const v = await cluster.kubectl(['version', '-o', 'json'])
    expect(v.code, v.stderr).toBe(0)
    const version = JSON.parse(v.stdout)
    expect(version.serverVersion.gitVersion).toBe(cluster.version)
    expect(version.clientVersion.gitVersion).toBe(cluster.version)
    const who = await cluster.kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.groups}'])
    expect(who.stdout).toContain('system:masters')
  })

  it('serves admissionregistration v1 with both admission policy kinds', async () => {
    const r = await cluster.request('GET', '/apis/admissionregistration.k8s.io/v1')
    const names = r.body.resources.map((x: { name: string }) => x.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'validatingadmissionpolicies',
        'validatingadmissionpolicybindings',
        'mutatingadmissionpolicies',
        'mutatingadmissionpolicybindings',
        'validatingwebhookconfigurations',
        'mutatingwebhookconfigurations',
      ]),
    )
  })

  it('enforces a ValidatingAdmissionPolicy and a MutatingAdmissionPolicy in the test namespace', async () => {
    const n = ns.name
    const material = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: smoke-${n}}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ${n}}}
  validations:
  - expression: "!has(object.data) || !('forbidden' in object.data)"
    message: no forbidden key
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: smoke-${n}}
spec: {policyName: smoke-${n}, validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: smoke-${n}}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ${n}}}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'mutated': 'yes'}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: smoke-${n}}
spec: {policyName: smoke-${n}}
`
    const applied = await cluster.kubectl(['apply', '-f', '-'], { input: material })
    expect(applied.code, applied.stderr).toBe(0)
    // policies reach the admission plugins through informers: retry until both answer
    let denied = ''
    let labels: Record<string, string> = {}
    for (let i = 0; i < 60; i++) {
      const bad = await cluster.kubectl(['-n', n, 'create', 'configmap', `bad-${i}`, '--from-literal=forbidden=1'])
      denied = bad.stderr
      const good = await cluster.kubectl([
        '-n',
        n,
        'create',
        'configmap',
        `good-${i}`,
        '--from-literal=a=1',
        '-o',
        'json',
      ])
      labels = good.code === 0 ? (JSON.parse(good.stdout).metadata.labels ?? {}) : {}
      if (bad.code !== 0 && labels.mutated === 'yes') break
      await new Promise((r) => setTimeout(r, 500))
    }
    expect(denied).toContain(
      `ValidatingAdmissionPolicy 'smoke-${n}' with binding 'smoke-${n}' denied request: no forbidden key`,
    )
    expect(labels.mutated).toBe('yes')
    await cluster.kubectl(['delete', '-f', '-'], { input: material })
  })
})
