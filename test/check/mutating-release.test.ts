import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { check } from '../../src/check/index.js'
import { PolicySet } from '../../src/engine/policy-set.js'
import type { KubeVersion } from '../../src/kube/environment.js'

// MutatingAdmissionPolicy by target release, as a default kube-apiserver of that release serves it. The
// MutatingAdmissionPolicy feature gate (apiserver pkg/features/kube_features.go): 1.32 alpha, 1.34 beta,
// both Default: false; GA from 1.36. Its API versions (pkg/controlplane/apiserver/options, the
// admissionregistration storage; ../shared/spec/api-deprecations.md §5): v1alpha1 from 1.32 and v1beta1
// from 1.34, both off by default (--runtime-config=…=true), v1 from 1.36. A 1.37.2 apiserver with default
// flags lists only admissionregistration.k8s.io/v1 (kubectl api-versions, test/e2e). A kind the target does
// not serve is refused by kubectl apply (`no matches for kind …`) and runs no policy.

const mutating = (v: string) => `
apiVersion: admissionregistration.k8s.io/${v}
kind: MutatingAdmissionPolicy
metadata: { name: add-label }
spec:
  matchConstraints:
    resourceRules: [{ apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps] }]
  reinvocationPolicy: Never
  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"added": "yes"}}}' }
---
apiVersion: admissionregistration.k8s.io/${v}
kind: MutatingAdmissionPolicyBinding
metadata: { name: add-label }
spec: { policyName: add-label }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: cm, namespace: default }
`

function run(v: string, release: string) {
  const dir = mkdtempSync(join(tmpdir(), 'kelp-map-release-'))
  writeFileSync(join(dir, 'all.yaml'), mutating(v))
  const kubeVersion = (Number(release.split('.')[1]) < 30 ? '1.30' : release) as KubeVersion
  return check({ paths: [dir], kubeVersion, target: release, pack: 'off' }, 'stored')
}
const byKind = (r: ReturnType<typeof run>, kind: string) => r.objects.filter((o) => o.kind === kind)

describe('MutatingAdmissionPolicy served by release (kelp check --kube-version)', () => {
  const cases: [string, string, string | undefined][] = [
    // [apiVersion, release, why not served (undefined: served)]
    ['v1', '1.37', undefined],
    ['v1', '1.36', undefined],
    ['v1', '1.35', 'introduced in v1.36'],
    ['v1', '1.31', 'introduced in v1.36'],
    ['v1beta1', '1.37', 'not served by default: --runtime-config=admissionregistration.k8s.io/v1beta1=true'],
    ['v1beta1', '1.34', 'not served by default: --runtime-config=admissionregistration.k8s.io/v1beta1=true'],
    ['v1beta1', '1.33', 'introduced in v1.34'],
    ['v1alpha1', '1.32', 'not served by default: --runtime-config=admissionregistration.k8s.io/v1alpha1=true'],
    ['v1alpha1', '1.37', 'not served by default: --runtime-config=admissionregistration.k8s.io/v1alpha1=true'],
  ]
  it.each(cases)('%s at %s', (v, release, why) => {
    const r = run(v, release)
    const cm = byKind(r, 'ConfigMap')[0]
    if (why === undefined) {
      expect(byKind(r, 'MutatingAdmissionPolicy')).toEqual([])
      expect(((cm?.stored?.metadata as Record<string, unknown>)?.labels as Record<string, string>)?.added).toBe('yes')
      return
    }
    // the policy and binding are objects the cluster refuses, the ConfigMap is stored unchanged
    for (const kind of ['MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding']) {
      const o = byKind(r, kind)[0]
      expect(o?.outcome).toBe('not-served')
      expect(o?.findings[0]?.message).toBe(
        `no matches for kind "${kind}" in version "admissionregistration.k8s.io/${v}" (${why})`,
      )
    }
    expect(cm?.outcome).toBe('allowed')
    expect((cm?.stored?.metadata as Record<string, unknown>)?.labels).toBeUndefined()
  })
})

describe('PolicySet.build: a MutatingAdmissionPolicy the release does not serve is a problem, not a policy', () => {
  it('v1 at 1.35', () => {
    const set = PolicySet.build(
      [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingAdmissionPolicyBinding',
          metadata: { name: 'b' },
          spec: { policyName: 'p' },
        },
      ],
      { release: '1.35' },
    )
    expect(set.problems.map((p) => p.message)).toEqual([
      'no matches for kind "MutatingAdmissionPolicyBinding" in version "admissionregistration.k8s.io/v1" (introduced in v1.36)',
    ])
  })
})

describe('kelp check at a release without MutatingAdmissionPolicy', () => {
  it('the inputs policies are still their own: the bundled pack is not applied beside them (--pack auto)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-map-release-'))
    writeFileSync(join(dir, 'all.yaml'), mutating('v1'))
    const r = check({ paths: [dir], kubeVersion: '1.35' as KubeVersion, target: '1.35' }, 'stored')
    expect(r.objects.map((o) => [o.kind, o.outcome])).toEqual([
      ['MutatingAdmissionPolicy', 'not-served'],
      ['MutatingAdmissionPolicyBinding', 'not-served'],
      ['ConfigMap', 'allowed'],
    ])
    expect(r.diagnostics.filter((d) => d.level === 'error')).toEqual([])
  })
  it('with -p, a policy the target does not serve is a refused policy (an error, exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-map-release-'))
    const [policyDocs, cm] = [
      mutating('v1').split('---\napiVersion: v1\n')[0] ?? '',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: cm, namespace: default }\n',
    ]
    writeFileSync(join(dir, 'policies.yaml'), policyDocs)
    writeFileSync(join(dir, 'cm.yaml'), cm)
    const r = check(
      {
        paths: [join(dir, 'cm.yaml')],
        policies: [join(dir, 'policies.yaml')],
        kubeVersion: '1.35' as KubeVersion,
        target: '1.35',
      },
      'stored',
    )
    expect(r.objects.map((o) => [o.kind, o.outcome])).toEqual([['ConfigMap', 'allowed']])
    expect(r.diagnostics.filter((d) => d.level === 'error').map((d) => d.message)).toEqual([
      'no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1" (introduced in v1.36)',
      'no matches for kind "MutatingAdmissionPolicyBinding" in version "admissionregistration.k8s.io/v1" (introduced in v1.36)',
    ])
  })
})
