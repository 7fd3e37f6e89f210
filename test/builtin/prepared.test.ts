import { describe, expect, it } from 'vitest'
import { decodeBuiltin } from '../../src/builtin/index.js'
import { preparedForCreate, preparedForUpdate } from '../../src/builtin/prepared.js'
import { PLACEHOLDER_UID } from '../../src/kube/system-fields.js'
import type { JSONObject } from '../../src/kube/values/json.js'

// The object validating admission sees (src/builtin/prepared.ts). Expected values: what a ValidatingAdmissionPolicy
// printed of the object on kube-apiserver v1.37.2 (test/e2e/differential/cases/prepared/policy.yaml, whose cases the
// differential asks the apiserver again each run), and the Go source named per case.

const decoded = (o: JSONObject): JSONObject => decodeBuiltin(o, { minor: 37 })!.object as JSONObject
const onCreate = { namespace: 'ns', namespaced: true, minor: 37 }

describe('preparedForCreate', () => {
  const deployment = decoded({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', generation: 7, uid: 'given', selfLink: '/x' },
    spec: {
      selector: { matchLabels: { app: 'a' } },
      template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
    status: { replicas: 5 },
  })

  it('a Deployment: generation 1, the server uid and creationTimestamp, the status reset to {} (apps deployment strategy.go PrepareForCreate; rest.FillObjectMetaSystemFields)', () => {
    const p = preparedForCreate(deployment, onCreate)
    const meta = p.metadata as JSONObject
    expect(meta.generation).toBe(1)
    expect(meta.uid).toBe(PLACEHOLDER_UID)
    expect(meta.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(meta.selfLink).toBeUndefined()
    expect(meta.namespace).toBe('ns')
    expect(p.status).toEqual({})
  })

  it('copies on write: the given object is not changed, its spec is shared', () => {
    const before = structuredClone(deployment)
    const p = preparedForCreate(deployment, onCreate)
    expect(deployment).toEqual(before)
    expect(p.spec).toBe(deployment.spec)
  })

  it('a claim: its status the zero value, not defaulted (phase Pending comes with the read-back), the pvc-protection finalizer', () => {
    const p = preparedForCreate(
      decoded({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'c' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        status: { phase: 'Bound' },
      }),
      onCreate,
    )
    expect(p.status).toEqual({})
    expect((p.metadata as JSONObject).finalizers).toEqual(['kubernetes.io/pvc-protection'])
    expect((p.metadata as JSONObject).generation).toBeUndefined()
  })

  it('a Pod: phase Pending and its QoS class, generation 1 (core pod strategy.go PrepareForCreate)', () => {
    const p = preparedForCreate(
      decoded({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx',
              resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } },
            },
          ],
        },
        status: { phase: 'Running' },
      }),
      onCreate,
    )
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' })
    expect((p.metadata as JSONObject).generation).toBe(1)
  })

  it('a DaemonSet: the templateGeneration annotation 1; a ConfigMap: no status, no generation', () => {
    const ds = preparedForCreate(
      decoded({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'ds' },
        spec: {
          selector: { matchLabels: { app: 'a' } },
          template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      }),
      onCreate,
    )
    expect((ds.metadata as JSONObject).annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' })
    const cm = preparedForCreate(decoded({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }), onCreate)
    expect(cm.status).toBeUndefined()
    expect((cm.metadata as JSONObject).generation).toBeUndefined()
    expect((cm.metadata as JSONObject).uid).toBe(PLACEHOLDER_UID)
  })

  it('a __proto__ annotation key stays an own key of the copy (a DaemonSet: its annotations are copied)', () => {
    const ds = decoded({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'ds' },
      spec: {
        selector: { matchLabels: { app: 'a' } },
        template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    })
    ;(ds.metadata as JSONObject).annotations = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": "b"}')
    const p = preparedForCreate(ds, onCreate)
    const annotations = (p.metadata as JSONObject).annotations as JSONObject
    expect(Object.hasOwn(annotations, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(annotations)).toBe(Object.prototype)
    expect(Object.keys(annotations)).toEqual(['__proto__', 'a', 'deprecated.daemonset.template.generation'])
    expect(({} as JSONObject).polluted).toBeUndefined()
  })
})

describe('preparedForUpdate', () => {
  const spec = (image: string) => ({
    selector: { matchLabels: { app: 'a' } },
    template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image }] } },
  })
  const old = decoded({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', generation: 1, uid: 'u-1', creationTimestamp: '2026-12-06T19:00:00Z' },
    spec: spec('nginx:1'),
    status: { observedGeneration: 1, replicas: 1 },
  })

  it('a changed spec counts a generation; the old status, uid and creationTimestamp are kept (rest.BeforeUpdate, PrepareForUpdate)', () => {
    const p = preparedForUpdate(
      decoded({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', creationTimestamp: '2000-01-01T00:00:00Z' },
        spec: spec('nginx:2'),
        status: { replicas: 9 },
      }),
      old,
    )
    expect(p.metadata).toMatchObject({ generation: 2, uid: 'u-1', creationTimestamp: '2026-12-06T19:00:00Z' })
    expect(p.status).toEqual({ observedGeneration: 1, replicas: 1 })
  })

  it('an unchanged spec keeps the generation', () => {
    const p = preparedForUpdate(
      decoded({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: spec('nginx:1') }),
      old,
    )
    expect((p.metadata as JSONObject).generation).toBe(1)
  })
})
