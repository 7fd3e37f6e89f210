import { describe, expect, it } from 'vitest'
import { NOT_RUN } from '../../src/engine/admission/in-tree.js'
import { type AdmitResult, PolicySet } from '../../src/engine/policy-set.js'

// The default admission plugins through the engine, with what the inputs give of the cluster
// (src/builtin/admission/inputs.ts). Expected texts and stored fields are kube-apiserver v1.37.2's: each case
// was applied with kubectl apply --dry-run=server against it, the LimitRanges, ServiceAccounts and classes
// created for real in a namespace of its own (the rows of serviceaccount/admission_test.go are named where
// they are the same request: TestDeniesInvalidServiceAccount, TestAddImagePullSecrets, TestAutomountsAPIToken).

type JSONObject = Record<string, unknown>
const NS = 'default-plugins'
const pod = (name: string, spec: JSONObject = {}, ns = NS): JSONObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: ns },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
})
const sa = (name: string, extra: JSONObject = {}): JSONObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace: NS },
  ...extra,
})
const specOf = (r: AdmitResult): JSONObject => ((r.builtin?.object ?? {}) as JSONObject).spec as JSONObject
const message = (r: AdmitResult) => r.status?.message

describe('ServiceAccount existence', () => {
  const set = PolicySet.build([
    sa('builder', { imagePullSecrets: [{ name: 'regcred' }] }),
    sa('quiet', { automountServiceAccountToken: false }),
  ])

  it('refuses a Pod naming a ServiceAccount its namespace lacks (TestDeniesInvalidServiceAccount)', () => {
    const r = set.validate(pod('p', { serviceAccountName: 'missing' }))
    expect(r.allowed).toBe(false)
    expect(r.status?.code).toBe(403)
    expect(message(r)).toBe(
      'pods "p" is forbidden: error looking up service account default-plugins/missing: serviceaccount "missing" not found',
    )
    expect(r.admissionPlugin).toBe('ServiceAccount')
  })

  it("copies the ServiceAccount's imagePullSecrets (TestAddImagePullSecrets) and honours its automount", () => {
    const r = set.validate(pod('p', { serviceAccountName: 'builder' }))
    expect(r.allowed).toBe(true)
    expect(specOf(r).imagePullSecrets).toEqual([{ name: 'regcred' }])
    const quiet = specOf(set.validate(pod('q', { serviceAccountName: 'quiet' })))
    expect(quiet.volumes).toBeUndefined()
    expect((quiet.containers as JSONObject[])[0]?.volumeMounts).toBeUndefined()
  })

  it('takes `default` as existing (the controller-manager creates it in every namespace)', () => {
    expect(set.validate(pod('p')).allowed).toBe(true)
  })

  it('without ServiceAccounts of the namespace, takes the named one as existing and says so once', () => {
    const r = PolicySet.build([]).validate(pod('p', { serviceAccountName: 'missing' }))
    expect(r.allowed).toBe(true)
    expect(r.pluginsNotRun).toContain(NOT_RUN.ServiceAccount)
    // a ServiceAccount of another namespace says nothing of this one
    expect(PolicySet.build([sa('x')]).validate(pod('p', { serviceAccountName: 'y' }, 'other')).allowed).toBe(true)
  })
})

describe('Priority and DefaultTolerationSeconds on every Pod', () => {
  it('stores priority 0, PreemptLowerPriority and the two 300 s tolerations', () => {
    const spec = specOf(PolicySet.build([]).validate(pod('p')))
    expect(spec.priority).toBe(0)
    expect(spec.preemptionPolicy).toBe('PreemptLowerPriority')
    expect(spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ])
  })
  it('resolves a PriorityClass of the inputs, refuses one that is not there', () => {
    const high = {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high' },
      value: 1000,
      preemptionPolicy: 'Never',
    }
    const set = PolicySet.build([high])
    const spec = specOf(set.validate(pod('p', { priorityClassName: 'high' })))
    expect([spec.priority, spec.preemptionPolicy]).toEqual([1000, 'Never'])
    expect(message(set.validate(pod('p', { priorityClassName: 'low' })))).toBe(
      'pods "p" is forbidden: no PriorityClass with name low was found',
    )
    expect(message(set.validate(pod('p', { priorityClassName: 'high', priority: 5 })))).toBe(
      'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    )
  })
})

describe('LimitRanger', () => {
  const lr = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'lr', namespace: NS },
    spec: { limits: [{ type: 'Container', max: { cpu: '1' }, defaultRequest: { memory: '64Mi' } }] },
  }
  const set = PolicySet.build([lr])
  it('refuses over the maximum, after the validation of the Pod', () => {
    const r = set.validate(
      pod('p1', { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '2' } } }] }),
    )
    expect(message(r)).toBe('pods "p1" is forbidden: maximum cpu usage per Container is 1, but limit is 2')
    expect(r.admissionPlugin).toBe('LimitRanger')
  })
  it('defaults the limits from max (SetDefaults_LimitRangeItem) and the requests, with the annotation', () => {
    const r = set.validate(pod('p2'))
    expect(r.allowed).toBe(true)
    const o = r.builtin?.object as JSONObject
    expect(((o.spec as JSONObject).containers as JSONObject[])[0]?.resources).toEqual({
      limits: { cpu: '1' },
      requests: { cpu: '1', memory: '64Mi' },
    })
    expect((o.metadata as JSONObject).annotations).toEqual({
      'kubernetes.io/limit-ranger':
        'LimitRanger plugin set: cpu, memory request for container c; cpu limit for container c',
    })
  })
  it('applies to the namespace of the LimitRange only; without any, says it did not run', () => {
    expect(set.validate(pod('p', {}, 'other')).pluginsNotRun).toBeUndefined()
    expect(PolicySet.build([]).validate(pod('p')).pluginsNotRun).toEqual([NOT_RUN.LimitRanger])
  })
})

describe('RuntimeClass', () => {
  const rc = {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: 'gvisor' },
    handler: 'runsc',
    overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: {
      nodeSelector: { sandbox: 'true' },
      tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }],
    },
  }
  const set = PolicySet.build([rc])
  it('sets the overhead and merges the scheduling', () => {
    const spec = specOf(set.validate(pod('p', { runtimeClassName: 'gvisor' })))
    expect(spec.overhead).toEqual({ cpu: '250m', memory: '120Mi' })
    expect(spec.nodeSelector).toEqual({ sandbox: 'true' })
    expect((spec.tolerations as JSONObject[]).map((t) => t.key)).toEqual([
      'node.kubernetes.io/not-ready',
      'node.kubernetes.io/unreachable',
      'sandbox',
    ])
  })
  it('refuses a class that is not among the given ones, and only then', () => {
    expect(message(set.validate(pod('p', { runtimeClassName: 'kata' })))).toBe(
      'pods "p" is forbidden: pod rejected: RuntimeClass "kata" not found',
    )
    const r = PolicySet.build([]).validate(pod('p', { runtimeClassName: 'kata' }))
    expect(r.allowed).toBe(true)
    expect(r.pluginsNotRun).toContain(NOT_RUN.RuntimeClass)
  })
  it('refuses a Pod whose overhead is not the class', () => {
    expect(message(set.validate(pod('p', { runtimeClassName: 'gvisor', overhead: { cpu: '1' } })))).toBe(
      "pods \"p\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
    )
  })
})

describe('DefaultStorageClass and DefaultIngressClass', () => {
  const sc = (name: string, isDefault: boolean) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name,
      ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}),
    },
    provisioner: 'example.com/x',
  })
  const pvc = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'c', namespace: NS },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  }
  it('gives a claim without a class the default one', () => {
    expect(specOf(PolicySet.build([sc('slow', false), sc('fast', true)]).validate(pvc)).storageClassName).toBe('fast')
    expect(specOf(PolicySet.build([sc('slow', false)]).validate(pvc)).storageClassName).toBeUndefined()
    expect(PolicySet.build([]).validate(pvc).pluginsNotRun).toContain(NOT_RUN.DefaultStorageClass)
  })
  it('gives an Ingress without a class the default one', () => {
    const ic = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
      spec: { controller: 'k8s.io/ingress-nginx' },
    }
    const ing = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'i', namespace: NS },
      spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } },
    }
    expect(specOf(PolicySet.build([ic]).validate(ing)).ingressClassName).toBe('nginx')
  })
})

describe('NamespaceLifecycle', () => {
  it('answers the NotFound of a namespace that cannot exist, before the validation', () => {
    const r = PolicySet.build([]).validate(pod('p', {}, 'Bad_NS'))
    expect(r.status).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "Bad_NS" not found' })
  })
})

describe('hostile inputs', () => {
  it('holds names such as constructor and __proto__ as data', () => {
    const set = PolicySet.build([
      sa('constructor'),
      { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'constructor' }, handler: 'h' },
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'lr', namespace: NS },
        spec: { limits: [{ type: 'Container', default: JSON.parse('{"__proto__":"1"}') }] },
      },
    ])
    expect(set.validate(pod('p', { serviceAccountName: 'constructor' })).allowed).toBe(true)
    expect(message(set.validate(pod('p', { serviceAccountName: 'tostring' })))).toContain(
      'serviceaccount "tostring" not found',
    )
    expect(set.validate(pod('p', { runtimeClassName: 'constructor' })).allowed).toBe(true)
    expect(message(set.validate(pod('p', { runtimeClassName: 'hasownproperty' })))).toContain('not found')
    // a LimitRange naming a resource `__proto__` is refused by its validation, as the cluster refuses it: none left
    expect(set.validate(pod('p', { serviceAccountName: 'constructor' })).pluginsNotRun).toEqual([NOT_RUN.LimitRanger])
    expect(Object.getPrototypeOf({})).toBe(Object.prototype)
    expect(({} as JSONObject).polluted).toBeUndefined()
  })
})
