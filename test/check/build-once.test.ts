import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { check } from '../../src/check/index.js'
import { PolicySet } from '../../src/engine/policy-set.js'

// The policy set is built once per run (issue 27): a run that does not hold its objects after the first pass
// (large inputs; holdObjects 0 here) reads the params its bound policies may name (src/check/prepare.ts
// paramKindsOf) before the build, where it built the set once to learn them and again with them. A candidate kind
// whose only policy the set refuses is left out by building again, so the report is the held run's.

const policy = (
  name: string,
  paramKind: string,
  expression: string,
  resource: string,
) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: ${name}}
spec:
  paramKind: ${paramKind}
  matchConstraints:
    resourceRules:
    - {apiGroups: ["*"], apiVersions: ["*"], operations: [CREATE], resources: [${resource}]}
  validations:
  - expression: ${JSON.stringify(expression)}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: ${name}}
spec:
  policyName: ${name}
  validationActions: [Deny]
  paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}
`
const limit = policy(
  'replicas',
  '{apiVersion: v1, kind: ConfigMap}',
  'object.spec.replicas <= int(params.data.max)',
  'deployments',
)
const refused = policy('refused', '{apiVersion: v1, kind: Secret}', 'object.data.(', 'pods')
const deployment = (i: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d${i}}\nspec:\n  replicas: ${i}\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: "nginx:1.27"}]}\n`
const params = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits, namespace: default}\ndata: {max: "2"}\n'
const secret = 'apiVersion: v1\nkind: Secret\nmetadata: {name: limits, namespace: default}\nstringData: {a: b}\n'

const dir = mkdtempSync(join(tmpdir(), 'kelp-build-once-'))
const write = (name: string, docs: string[]) => {
  const file = join(dir, name)
  writeFileSync(file, docs.join('---\n'))
  return file
}

describe('kelp check builds the policy set once', () => {
  afterEach(() => vi.restoreAllMocks())
  const run = (file: string, holdObjects?: number) => {
    const build = vi.spyOn(PolicySet, 'build')
    const report = check({ paths: [file], kubeVersion: '1.37', ...(holdObjects !== undefined ? { holdObjects } : {}) })
    const builds = build.mock.calls.length
    build.mockRestore()
    return { report, builds }
  }

  it('reads the params before the build when the objects are not held', () => {
    const file = write('params.yaml', [limit, deployment(1), deployment(3), params])
    const streamed = run(file, 0)
    expect(streamed.builds).toBe(1)
    const held = run(file)
    expect(held.builds).toBe(1)
    expect(streamed.report).toEqual(held.report)
    expect(streamed.report.objects.map((o) => o.outcome)).toEqual(['allowed', 'denied', 'allowed'])
  })

  it('a paramKind only a refused policy names leaves the report as the held run gives it', () => {
    const file = write('refused.yaml', [limit, refused, deployment(3), secret, params])
    const streamed = run(file, 0)
    expect(streamed.builds).toBe(2)
    expect(streamed.report).toEqual(run(file).report)
    expect(streamed.report.diagnostics.some((d) => d.rule === 'material/ValidatingAdmissionPolicy')).toBe(true)
  })
})
