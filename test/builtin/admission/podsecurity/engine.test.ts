import { describe, expect, it } from 'vitest'
import { PodSecurityAdmission } from '../../../../src/builtin/admission/podsecurity/admission.js'
import { podSecurityNotRun } from '../../../../src/engine/admission/pod-security.js'
import { isAdmissionStatus, PolicySet } from '../../../../src/engine/policy-set.js'

// The plugin in kelp's admission (src/engine/admission/pod-security.ts). The expected texts are the shared
// kube-apiserver v1.37.2's answers to `kubectl apply --dry-run=server` of the same objects in a namespace labelled
// as `namespace` below (enforce baseline, warn and audit restricted).

const namespace = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: {
    name: 'ps',
    labels: {
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/warn': 'restricted',
      'pod-security.kubernetes.io/audit': 'restricted',
    },
  },
}
const set = PolicySet.build([namespace])

const pod = (name: string, spec: object) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ps' },
  spec,
})
const plain = pod('p1', { containers: [{ name: 'c', image: 'nginx' }] })
const privileged = pod('p2', {
  hostNetwork: true,
  containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }],
})
const restrictedWarning =
  'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set ' +
  'securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set ' +
  'securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set ' +
  'securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set ' +
  'securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")'

describe('PodSecurity in admission', () => {
  it('enforce: a baseline breaker is refused in the plugin words, 403, no warning', () => {
    const r = set.validate(privileged)
    expect(r.allowed).toBe(false)
    expect(isAdmissionStatus(r.status) && [r.status.code, r.status.reason, r.status.message]).toEqual([
      403,
      'Forbidden',
      'pods "p2" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "c" must not set securityContext.privileged=true)',
    ])
    expect(r.warnings).toEqual([])
    expect(r.auditAnnotations['pod-security.kubernetes.io/enforce-policy']).toBe('baseline:latest')
  })

  it('warn and audit: a restricted breaker is allowed with the warning and the audit annotation', () => {
    const r = set.validate(plain)
    expect(r.allowed).toBe(true)
    expect(r.warnings).toEqual([restrictedWarning])
    expect(r.auditAnnotations).toEqual({
      'pod-security.kubernetes.io/enforce-policy': 'baseline:latest',
      'pod-security.kubernetes.io/audit-violations': restrictedWarning,
    })
  })

  it('a pod controller is warned, never refused', () => {
    const r = set.validate({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd1', namespace: 'ps' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: {
          metadata: { labels: { a: 'b' } },
          spec: { hostPID: true, containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    })
    expect(r.allowed).toBe(true)
    expect(r.warnings).toEqual([
      'would violate PodSecurity "restricted:latest": host namespaces (hostPID=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ])
  })

  it('an update that changes no image is not evaluated (isSignificantPodUpdate)', () => {
    const old = { ...privileged, metadata: { ...privileged.metadata, labels: { a: 'b' } } }
    const r = set.validate(privileged, { oldObject: old, operation: 'UPDATE' })
    expect(isAdmissionStatus(r.status) ? r.status.message : '').not.toMatch(/PodSecurity/)
    expect(r.warnings.join('\n')).not.toMatch(/PodSecurity/)
  })

  it('a namespace not among the inputs is taken as unlabelled: privileged, nothing said', () => {
    const r = set.validate({ ...privileged, metadata: { name: 'p2', namespace: 'elsewhere' } })
    expect([r.allowed, r.warnings, r.auditAnnotations]).toEqual([true, [], {}])
  })

  it('without assumed namespaces, the plugin says it did not run', () => {
    const strict = PolicySet.build([namespace], { namespaces: 'strict' })
    const r = strict.validate({ ...plain, metadata: { name: 'p1', namespace: 'elsewhere' } })
    expect(r.warnings).toEqual([podSecurityNotRun('elsewhere')])
    expect(podSecurityNotRun('elsewhere')).toBe(
      'PodSecurity admission did not run: the Namespace "elsewhere" is not among the inputs',
    )
  })

  it('a Namespace with an invalid level is a 422', () => {
    const r = set.validate({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'ps-ns-bad-level', labels: { 'pod-security.kubernetes.io/enforce': 'strict' } },
    })
    expect(r.allowed).toBe(false)
    expect([r.status?.code, r.status?.message]).toEqual([
      422,
      'Namespace "ps-ns-bad-level" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    ])
  })

  it('hostile keys are data: annotations, labels and containers named __proto__', () => {
    // the plugin itself (the store would refuse these names before it runs)
    const a = new PodSecurityAdmission()
    const r = a.Validate({
      operation: 'CREATE',
      group: '',
      resource: 'pods',
      subresource: '',
      namespace: 'h',
      userName: '',
      object: {
        metadata: JSON.parse(
          '{"name": "x", "annotations": {"__proto__": "y", "container.seccomp.security.alpha.kubernetes.io/__proto__": "unconfined"}}',
        ),
        spec: { containers: [{ name: '__proto__', image: 'nginx', securityContext: { privileged: true } }] },
      },
      namespaceObject: {
        metadata: {
          name: 'h',
          labels: JSON.parse('{"__proto__": "x", "pod-security.kubernetes.io/enforce": "baseline"}'),
        },
      },
    })
    expect([r.allowed, r.forbidden]).toEqual([
      false,
      'violates PodSecurity "baseline:latest": privileged (container "__proto__" must not set securityContext.privileged=true)',
    ])
  })
})
