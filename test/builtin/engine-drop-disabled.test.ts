import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../src/engine/policy-set.js'
import type { KubeVersion } from '../../src/kube/environment.js'

// The drop as the engine applies it: after decoding, defaulting and mutating admission, before the strategy's
// validation and the validating policies (rest.BeforeCreate / BeforeUpdate run PrepareForCreate /
// PrepareForUpdate, then Validate; createValidation runs after). The rules are kubernetes v1.37.2's
// (pkg/api/pod/util.go dropDisabledFields, pkg/registry/batch/job, pkg/registry/apps/statefulset); the gates'
// defaults per release are pkg/features/kube_features.go's versioned specs (test/kube/feature-gates.test.ts).
// What 1.37.2 drops itself (ContainerStopSignals, WorkloadWithJob, … off) is asked of the real apiserver by the
// differential corpus's gates/* mutations.

type JSONObject = Record<string, unknown>

/** The value at a path of keys and indexes (undefined past a missing step). */
const at = (v: unknown, ...keys: (string | number)[]): unknown =>
  keys.reduce<unknown>(
    (x, k) => (typeof x === 'object' && x !== null ? (x as Record<string, unknown>)[k] : undefined),
    v,
  )

/** A policy that sees the object and reports the fields given (`has(...)` is true). */
const seen = (name: string, resource: string, group: string, checks: Record<string, string>) => [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: {
        resourceRules: [
          { apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: [resource] },
        ],
      },
      validations: Object.entries(checks).map(([message, expression]) => ({ expression, message })),
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: name, validationActions: ['Deny'] },
  },
]

const pod = (spec: JSONObject): JSONObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...spec },
})

const podSet = (version: KubeVersion, checks: Record<string, string>) =>
  PolicySet.build(seen('pod-fields', 'pods', '', checks), { version })

describe('Pod fields behind a gate off in the target release', () => {
  it('1.30: hostUsers (UserNamespacesSupport off until 1.33) is dropped before the policies', () => {
    const checks = { 'hostUsers seen': '!has(object.spec.hostUsers)' }
    expect(podSet('1.30', checks).validate(pod({ hostUsers: false })).allowed).toBe(true)
    const r = podSet('1.33', checks).validate(pod({ hostUsers: false }))
    expect(r.violations.map((v) => v.message)).toEqual(['hostUsers seen'])
  })
  it('1.32: an unmasked procMount (ProcMountType off until 1.33) is forced to Default', () => {
    const checks = {
      'procMount not Default': "object.spec.containers.all(c, c.securityContext.procMount == 'Default')",
    }
    // an unmasked /proc needs a user namespace (hostUsers: false; dropped as well in 1.32)
    const p = pod({
      hostUsers: false,
      containers: [{ name: 'c', image: 'nginx:1.27', securityContext: { procMount: 'Unmasked' } }],
    })
    const r = podSet('1.32', checks).validate(p)
    expect(r.allowed).toBe(true)
    expect(at(r.builtin?.object, 'spec', 'containers', 0, 'securityContext', 'procMount')).toBe('Default')
    expect(
      podSet('1.33', checks)
        .validate(p)
        .violations.map((v) => v.message),
    ).toEqual(['procMount not Default'])
  })
  it('1.32: a sidecar resizePolicy (InPlacePodVerticalScaling off) is dropped, not refused', () => {
    const p = pod({
      initContainers: [
        {
          name: 'side',
          image: 'nginx:1.27',
          restartPolicy: 'Always',
          resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
        },
      ],
    })
    const r = podSet('1.32', { 'resizePolicy seen': '!has(object.spec.initContainers[0].resizePolicy)' }).validate(p)
    expect(r.builtin?.allowed).toBe(true)
    expect(r.allowed).toBe(true)
  })
  it('1.33: pod resourceClaims and the containers’ claims (DynamicResourceAllocation off until 1.34)', () => {
    const p = pod({
      resourceClaims: [{ name: 'gpu', resourceClaimName: 'gpu-claim' }],
      containers: [{ name: 'c', image: 'nginx:1.27', resources: { claims: [{ name: 'gpu' }] } }],
    })
    const checks = {
      'claims seen': '!has(object.spec.resourceClaims) && !has(object.spec.containers[0].resources.claims)',
    }
    expect(podSet('1.33', checks).validate(p).allowed).toBe(true)
    expect(
      podSet('1.34', checks)
        .validate(p)
        .violations.map((v) => v.message),
    ).toEqual(['claims seen'])
  })
  it('1.34: container restartPolicy and restartPolicyRules (ContainerRestartRules off until 1.35)', () => {
    const p = pod({
      restartPolicy: 'Never',
      containers: [
        {
          name: 'c',
          image: 'nginx:1.27',
          restartPolicy: 'Never',
          restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }],
        },
      ],
    })
    const r = podSet('1.34', {
      'rules seen':
        '!has(object.spec.containers[0].restartPolicy) && !has(object.spec.containers[0].restartPolicyRules)',
    }).validate(p)
    expect(r.allowed).toBe(true)
  })
  it('update: a field the old object uses is kept (hostUsersInUse)', () => {
    const set = podSet('1.30', { 'hostUsers seen': '!has(object.spec.hostUsers)' })
    const r = set.validate(pod({ hostUsers: false }), { oldObject: pod({ hostUsers: false }) })
    expect(r.violations.map((v) => v.message)).toEqual(['hostUsers seen'])
  })
})

describe('workload templates and the other kinds', () => {
  it('1.36: a Deployment template’s image volume is kept (ImageVolume on from 1.35), 1.34 drops it and its mounts', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'a' } },
        template: {
          metadata: { labels: { app: 'a' } },
          spec: {
            containers: [{ name: 'c', image: 'nginx:1.27', volumeMounts: [{ name: 'img', mountPath: '/img' }] }],
            volumes: [{ name: 'img', image: { reference: 'registry.example/data:1' } }],
          },
        },
      },
    }
    const checks = { 'image volume seen': '!has(object.spec.template.spec.volumes)' }
    const set = (version: KubeVersion) => PolicySet.build(seen('dep', 'deployments', 'apps', checks), { version })
    expect(set('1.34').validate(deployment).allowed).toBe(true)
    expect(
      set('1.36')
        .validate(deployment)
        .violations.map((v) => v.message),
    ).toEqual(['image volume seen'])
  })
  it('1.36: a StatefulSet’s maxUnavailable (MaxUnavailableStatefulSet off until 1.37) is dropped', () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'a' } },
        serviceName: 's',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
        template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      },
    }
    const r = PolicySet.build([], { version: '1.36' }).validate(sts)
    expect(r.allowed).toBe(true)
    expect(at(r.builtin?.object, 'spec', 'updateStrategy', 'rollingUpdate')).toEqual({ partition: 0 })
  })
  it('1.31: a Job’s managedBy (JobManagedBy off until 1.32) is dropped on create', () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'default' },
      spec: {
        managedBy: 'example.com/not-a-valid-controller-name-because-of-the-UPPER-case',
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      },
    }
    const r = PolicySet.build([], { version: '1.31' }).validate(job)
    expect(r.builtin?.message).toBeUndefined()
    expect(at(r.builtin?.object, 'spec', 'managedBy')).toBeUndefined()
    expect(PolicySet.build([], { version: '1.32' }).validate(job).allowed).toBe(false)
  })
})
