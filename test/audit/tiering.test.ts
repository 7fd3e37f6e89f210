import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { JSONObject } from '../../src/kube/values/json.js'

// `kelp audit` reads a listing of unknown length: its first GENERATE_FROM_OBJECTS objects are admitted with CEL on
// the closure evaluator (program.ts withoutGeneratedCode), as a `kelp check` of that many is; the rest generate.

vi.mock('../../src/cel/program.js', async (importOriginal) =>
  (await import('../fixtures/tiering-spy.js')).countingTiering(importOriginal),
)
const { tiering: runs } = await import('../fixtures/tiering-spy.js')

const { audit } = await import('../../src/audit/run.js')
const { GENERATE_FROM_OBJECTS } = await import('../../src/check/admit.js')

const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: data-key}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  validations:
  - expression: "!has(object.data) || !('secret' in object.data)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: data-key}
spec: {policyName: data-key, validationActions: [Deny]}
`

/** A cluster serving `n` ConfigMaps in namespace `default` (one with the key the policy refuses), 500 a page. */
function cluster(n: number) {
  const configMap = (i: number): JSONObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace: 'default' },
    data: i === 7 ? { secret: 'x' } : { k: 'v' },
  })
  return {
    context: 'test',
    server: 'https://test',
    get: async (path: string): Promise<JSONObject> => {
      throw new Error(`unexpected GET ${path}`)
    },
    async *list(path: string): AsyncGenerator<JSONObject[]> {
      if (path === '/api/v1/namespaces') yield [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }]
      else if (path === '/api/v1/configmaps')
        for (let i = 0; i < n; i += 500) yield Array.from({ length: Math.min(500, n - i) }, (_, j) => configMap(i + j))
      else yield []
    },
    write: async () => ({}),
  } as unknown as Parameters<typeof audit>[0]
}

describe('kelp audit keeps CEL on closures for its first GENERATE_FROM_OBJECTS objects', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'kelp-audit-tiering-')), 'policy.yaml')
  writeFileSync(file, POLICY)
  const options = { policies: [file], kubeVersion: '1.37', target: '1.37', keep: 'findings' } as const

  it('a listing shorter than that: every object', async () => {
    runs.without = 0
    const report = await audit(cluster(1_200), options)
    expect(runs.without).toBe(1_200)
    expect(report.summary).toMatchObject({ objects: 1_200, denied: 1 })
  })

  it('a longer one: the first GENERATE_FROM_OBJECTS', { timeout: 60_000 }, async () => {
    runs.without = 0
    const report = await audit(cluster(GENERATE_FROM_OBJECTS + 500), options)
    expect(runs.without).toBe(GENERATE_FROM_OBJECTS)
    expect(report.summary).toMatchObject({ objects: GENERATE_FROM_OBJECTS + 500, denied: 1 })
  })
})
