import { describe, expect, it } from 'vitest'
import { admitServiceAccount } from '../../src/builtin/admission/serviceaccount.js'
import { PolicySet } from '../../src/engine/policy-set.js'

// The ServiceAccount admission plugin's Pod mutation. Cases from kubernetes
// plugin/pkg/admission/serviceaccount/admission_test.go (v1.37.2), and the Pods a real kube-apiserver
// 1.37.2 stored for `kubectl apply --dry-run=server -o json` (the e2e harness's cluster, its default
// ServiceAccount created): the projected volume as it writes it, the mounts of init and regular
// containers, a container that mounts the path itself left alone.

type O = Record<string, any>
const stored = (r: { builtin?: { object?: unknown } }): O => (r.builtin?.object ?? {}) as O
const fixed = () => 'kube-api-access-abcde'
const tokenVolume = {
  name: 'kube-api-access-abcde',
  projected: {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    defaultMode: 420,
  },
}
const tokenMount = {
  name: 'kube-api-access-abcde',
  readOnly: true,
  mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
}
const pod = (spec: O, metadata: O = { name: 'p', namespace: 'myns' }): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata,
  spec,
})
const admitted = (p: O): O => {
  admitServiceAccount(p, fixed)
  return p.spec
}

describe('ServiceAccount admission (plugin/pkg/admission/serviceaccount admission_test.go)', () => {
  it('TestAssignsDefaultServiceAccountAndBoundTokenWithNoSecretTokens / TestAutomountsAPIToken', () => {
    const spec = admitted(pod({ containers: [{ name: 'c' }] }))
    expect(spec.serviceAccountName).toBe('default')
    expect(spec.serviceAccount).toBe('default')
    expect(spec.volumes).toEqual([tokenVolume])
    expect(spec.containers[0].volumeMounts).toEqual([tokenMount])
    const init = admitted(pod({ initContainers: [{ name: 'i' }] }))
    expect(init.volumes).toEqual([tokenVolume])
    expect(init.initContainers[0].volumeMounts).toEqual([tokenMount])
  })

  it('TestRespectsExistingMount: a mount at the token path keeps its own and no volume is added', () => {
    const own = { name: 'my-custom-mount', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }
    for (const key of ['containers', 'initContainers']) {
      const spec = admitted(pod({ [key]: [{ name: 'c', volumeMounts: [own] }] }))
      expect(spec.serviceAccountName).toBe('default')
      expect(spec.volumes).toBeUndefined()
      expect(spec[key][0].volumeMounts).toEqual([own])
    }
  })

  it('TestIgnoresMirrorPod', () => {
    const spec = admitted(
      pod({ containers: [{ name: 'c' }] }, { name: 'p', annotations: { 'kubernetes.io/config.mirror': 'x' } }),
    )
    expect(spec).toEqual({ containers: [{ name: 'c' }] })
  })

  it('automountServiceAccountToken false: the name only (shouldAutomount)', () => {
    const spec = admitted(pod({ automountServiceAccountToken: false, containers: [{ name: 'c' }] }))
    expect(spec.serviceAccountName).toBe('default')
    expect(spec.volumes).toBeUndefined()
    expect(spec.containers[0].volumeMounts).toBeUndefined()
  })

  it('a named ServiceAccount is kept; an existing kube-api-access-* volume is reused', () => {
    const spec = admitted(
      pod({
        serviceAccountName: 'builder',
        containers: [{ name: 'c' }],
        volumes: [{ name: 'kube-api-access-zzzzz', emptyDir: {} }],
      }),
    )
    expect(spec.serviceAccountName).toBe('builder')
    expect(spec.serviceAccount).toBeUndefined()
    expect(spec.volumes).toEqual([{ name: 'kube-api-access-zzzzz', emptyDir: {} }])
    expect(spec.containers[0].volumeMounts).toEqual([{ ...tokenMount, name: 'kube-api-access-zzzzz' }])
  })
})

describe('PolicySet.admit: a Pod as the apiserver stores it after the plugin (kube-apiserver 1.37.2)', () => {
  const set = PolicySet.build([], { generateName: (base) => `${base}abcde` })
  const create = (object: O) => set.validate(object)

  it('a serviceAccountToken projection without serviceAccountName passes native validation', () => {
    // measured: `pod/volumes-ok created (server dry run)`, serviceAccountName default
    const r = create(
      pod({
        containers: [{ name: 'app', image: 'nginx:1.27' }],
        volumes: [{ name: 'e', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }],
      }),
    )
    expect(r.allowed).toBe(true)
    const spec = stored(r).spec
    expect(spec.serviceAccountName).toBe('default')
    expect(spec.volumes.map((v: O) => v.name)).toEqual(['e', 'kube-api-access-abcde'])
  })

  it('the mounts of every container but one that mounts the path itself (measured: sa1, sa3)', () => {
    const r = create(
      pod({
        initContainers: [{ name: 'init', image: 'busybox:1.36' }],
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            volumeMounts: [{ name: 'own', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
          },
          { name: 'b', image: 'nginx:1.27' },
        ],
        volumes: [{ name: 'own', emptyDir: {} }],
      }),
    )
    const spec = stored(r).spec
    expect(spec.containers[0].volumeMounts).toEqual([
      { name: 'own', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
    ])
    expect(spec.containers[1].volumeMounts).toEqual([tokenMount])
    expect(spec.initContainers[0].volumeMounts).toEqual([tokenMount])
    expect(spec.volumes).toEqual([{ name: 'own', emptyDir: {} }, tokenVolume])
  })

  it('workload templates are not mutated (the plugin admits pods only)', () => {
    const r = create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'myns' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    })
    expect(stored(r).spec.template.spec.serviceAccountName).toBeUndefined()
  })
})
