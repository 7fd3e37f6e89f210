import { describe, expect, it } from 'vitest'
import { decodeBuiltin } from '../../src/builtin/index.js'
import { STRATEGIES } from '../../src/builtin/strategies.js'
import { beforeCreate, beforeUpdate, strategyFor, validatorFor } from '../../src/builtin/strategy.js'

// The table of built-in strategies (src/builtin/strategies.ts) and the registry steps that run a row
// (src/builtin/strategy.ts): what the engine calls between mutating and validating admission.

type O = Record<string, unknown>

describe('the table', () => {
  it('answers which kinds kelp validates natively', () => {
    const validated = STRATEGIES.filter((s) => s.validate !== undefined).flatMap((s) =>
      s.versions.map((v) => `${s.group === '' ? '' : `${s.group}/`}${v}/${s.kind}`),
    )
    expect(validated.sort()).toEqual(
      [
        'v1/Pod',
        'v1/PodTemplate',
        'v1/Service',
        'v1/PersistentVolumeClaim',
        'v1/PersistentVolume',
        'v1/ReplicationController',
        'v1/Endpoints',
        'discovery.k8s.io/v1/EndpointSlice',
        'autoscaling/v1/HorizontalPodAutoscaler',
        'v1/ConfigMap',
        'v1/Secret',
        'v1/Namespace',
        'v1/ServiceAccount',
        'v1/LimitRange',
        'v1/ResourceQuota',
        'v1/Node',
        'apps/v1/Deployment',
        'apps/v1/ReplicaSet',
        'apps/v1/DaemonSet',
        'apps/v1/StatefulSet',
        'apps/v1/ControllerRevision',
        'batch/v1/Job',
        'batch/v1/CronJob',
        'autoscaling/v2/HorizontalPodAutoscaler',
        'networking.k8s.io/v1/NetworkPolicy',
        'networking.k8s.io/v1/Ingress',
        'networking.k8s.io/v1/IngressClass',
        'networking.k8s.io/v1/ServiceCIDR',
        'networking.k8s.io/v1/IPAddress',
        'policy/v1/PodDisruptionBudget',
        'rbac.authorization.k8s.io/v1/Role',
        'rbac.authorization.k8s.io/v1/ClusterRole',
        'rbac.authorization.k8s.io/v1/RoleBinding',
        'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
        'scheduling.k8s.io/v1/PriorityClass',
        'apiregistration.k8s.io/v1/APIService',
        'storage.k8s.io/v1/StorageClass',
        'storage.k8s.io/v1/CSIDriver',
        'storage.k8s.io/v1/CSINode',
        'storage.k8s.io/v1/VolumeAttachment',
        'storage.k8s.io/v1/CSIStorageCapacity',
        'storage.k8s.io/v1/VolumeAttributesClass',
        'coordination.k8s.io/v1/Lease',
        'node.k8s.io/v1/RuntimeClass',
        'certificates.k8s.io/v1/CertificateSigningRequest',
        'certificates.k8s.io/v1/ClusterTrustBundle',
        'certificates.k8s.io/v1/PodCertificateRequest',
        'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration',
        'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration',
        'resource.k8s.io/v1/ResourceClaim',
        'resource.k8s.io/v1/ResourceClaimTemplate',
        'resource.k8s.io/v1/DeviceClass',
        'resource.k8s.io/v1/ResourceSlice',
        'resource.k8s.io/v1/DeviceTaintRule',
        'flowcontrol.apiserver.k8s.io/v1/FlowSchema',
        'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration',
        'events.k8s.io/v1/Event',
      ].sort(),
    )
  })

  it('has create and update validation together, and one row per group/version/kind', () => {
    for (const s of STRATEGIES) expect(s.validate === undefined).toBe(s.validateUpdate === undefined)
    const keys = STRATEGIES.flatMap((s) => s.versions.map((v) => `${s.group}/${v}/${s.kind}`))
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('looks a kind up by group, version and kind', () => {
    expect(validatorFor('apps', 'v1', 'Deployment')).toBeTypeOf('function')
    expect(validatorFor('autoscaling', 'v1', 'HorizontalPodAutoscaler')).toBeTypeOf('function')
    expect(strategyFor('autoscaling', 'v1', 'HorizontalPodAutoscaler')?.prepare).toBeTypeOf('function')
    expect(strategyFor('', 'v1', 'Node')?.validate).toBeTypeOf('function')
    expect(strategyFor('', 'v1', 'Endpoints')?.validate).toBeTypeOf('function')
    expect(strategyFor('', 'v1', 'ComponentStatus')).toBeUndefined()
  })
})

const decoded = (o: O, minor = 37) => {
  const b = decodeBuiltin(o, { minor, keepEmpty: true })
  if (b?.object === undefined) throw new Error('not decoded')
  return b
}

const deployment = (replicas: number): O => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
})

describe('beforeCreate / beforeUpdate', () => {
  const request = { namespaced: true, namespace: 'default', minor: 37 }

  it('validates: a refused object is a 422 Invalid', () => {
    const r = beforeCreate(decoded(deployment(-1)), request)
    expect(r.allowed).toBe(false)
    expect(r.nativeValidation).toBe('validated')
    expect(r.status).toMatchObject({ code: 422, reason: 'Invalid' })
    expect(r.message).toBe(
      'The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    )
  })

  it('validates an update against the old object', () => {
    const old = decoded(deployment(1)).object as O
    const changed = deployment(1)
    ;(changed.spec as O).selector = { matchLabels: { app: 'api' } }
    const r = beforeUpdate(decoded(changed), old, request)
    expect(r.allowed).toBe(false)
    expect(r.errors.map((e) => e.field)).toContain('spec.selector')
  })

  it('marks kinds it does not cover', () => {
    // core/v1 Event: the generic registry's rules only
    const event = decoded({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
    })
    const r = beforeCreate(event, request)
    expect(r).toMatchObject({ allowed: true, nativeValidation: 'not-covered' })
  })

  it('prepares (PrepareForCreate drops a disabled field) before validating', () => {
    const job = decoded(
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j', namespace: 'default' },
        spec: {
          managedBy: 'example.com/controller',
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      },
      30,
    )
    const r = beforeCreate(job, { ...request, minor: 30 })
    expect(r.allowed).toBe(true)
    expect(((r.object as O).spec as O).managedBy).toBeUndefined()
  })

  it('marshals the object: the given-empty lists go and keptEmpty with them', () => {
    const d = deployment(1)
    ;((d.spec as O).template as O).spec = { containers: [{ name: 'c', image: 'nginx', args: [] }] }
    const b = decoded(d)
    expect(b.keptEmpty).toBe(true)
    const r = beforeCreate(b, request)
    expect(r.keptEmpty).toBeUndefined()
    expect(r.object).toBe(b.object)
    const c = (((((r.object as O).spec as O).template as O).spec as O).containers as O[])[0] as O
    expect(c.args).toBeUndefined()
  })
})
