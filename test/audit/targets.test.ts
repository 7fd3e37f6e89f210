import { describe, expect, it } from 'vitest'
import { TokenBucket } from '../../src/audit/rate-limit.js'
import { asCreate } from '../../src/audit/run.js'
import { auditTargets, listPath, rulesOf } from '../../src/audit/targets.js'
import { RESTMapper } from '../../src/kube/resources.js'

const vap = (rules: object[]) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'p' },
  spec: { matchConstraints: { resourceRules: rules } },
})

describe('auditTargets: the resources the policies name for CREATE', () => {
  const mapper = new RESTMapper({ release: '1.37' })
  const names = (rules: object[]) =>
    auditTargets(rulesOf([vap(rules)]), mapper).map((r) => `${r.group}/${r.version}/${r.resource}`)
  it('a named resource, once, in the version the rule matches', () => {
    expect(
      names([{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }]),
    ).toEqual(['apps/v1/deployments'])
  })
  it('wildcards over groups and resources; subresources are never listed', () => {
    const all = names([{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }])
    expect(all).toContain('/v1/secrets')
    expect(all).toContain('apps/v1/deployments')
    expect(all.some((n) => n.includes('/status'))).toBe(false)
    expect(new Set(all.map((n) => n.split('/')[0] + n.split('/')[2])).size).toBe(all.length)
  })
  it('a rule without CREATE lists nothing (an UPDATE-only policy never sees a create)', () => {
    expect(names([{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['secrets'] }])).toEqual(
      [],
    )
  })
  it('listPath: core and group paths, one namespace or all', () => {
    expect(listPath({ group: '', version: 'v1', resource: 'secrets', namespaced: true }, 'a')).toBe(
      '/api/v1/namespaces/a/secrets',
    )
    expect(listPath({ group: 'apps', version: 'v1', resource: 'deployments', namespaced: true })).toBe(
      '/apis/apps/v1/deployments',
    )
    expect(listPath({ group: '', version: 'v1', resource: 'nodes', namespaced: false }, 'a')).toBe('/api/v1/nodes')
  })
})

describe('asCreate: the stored object without the fields the server sets', () => {
  it('drops uid, resourceVersion, creationTimestamp, managedFields, generation; keeps the rest', () => {
    const stored = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'c',
        namespace: 'n',
        uid: 'u',
        resourceVersion: '1',
        generation: 2,
        managedFields: [],
        labels: { a: 'b' },
      },
    }
    expect(asCreate(stored)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'n', labels: { a: 'b' } },
    })
    expect(stored.metadata.uid).toBe('u')
  })
  it('a metadata key `__proto__` stays a key (no prototype changed)', () => {
    const stored = JSON.parse('{"kind":"ConfigMap","metadata":{"name":"c","__proto__":{"polluted":true}}}')
    const o = asCreate(stored)
    const meta = o.metadata as Record<string, unknown>
    expect(Object.hasOwn(meta, '__proto__')).toBe(true)
    expect((meta as { polluted?: unknown }).polluted).toBeUndefined()
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })
})

describe('TokenBucket (client-go flowcontrol token bucket)', () => {
  it('the burst at once, then about qps a second', async () => {
    const b = new TokenBucket(50, 3)
    const t0 = Date.now()
    for (let i = 0; i < 3; i++) await b.take()
    expect(Date.now() - t0).toBeLessThan(15)
    for (let i = 0; i < 5; i++) await b.take()
    // 5 more tokens at 50/s: ~100 ms
    expect(Date.now() - t0).toBeGreaterThanOrEqual(80)
  })
})
