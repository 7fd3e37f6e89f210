import { describe, expect, it } from 'vitest'
import {
  DefaultPodSecurityConfiguration,
  isSignificantPodUpdate,
  PodSecurityAdmission,
  type PodSecurityConfiguration,
  type PodSecurityRequest,
} from '../../../../src/builtin/admission/podsecurity/admission.js'
import { LatestVersion, majorMinorVersion, type Policy } from '../../../../src/builtin/admission/podsecurity/api.js'
import { errorString } from '../../../../src/kube/field.js'

// k8s.io/pod-security-admission v0.37.2 admission/admission_test.go: TestValidateNamespace (the cases that list no
// existing pods: kelp sees none, so a stricter enforce level warns of none), TestValidatePodAndController (the
// cases whose objects decode: kelp admits decoded objects only) and TestExemptNamespaceWarning.

const P = 'pod-security.kubernetes.io/'

const config = (
  over: Partial<PodSecurityConfiguration['exemptions']> = {},
  defaults?: Policy,
): PodSecurityConfiguration => ({
  defaults: defaults ?? DefaultPodSecurityConfiguration.defaults,
  exemptions: { ...DefaultPodSecurityConfiguration.exemptions, ...over },
})

describe('admission/admission_test.go TestValidateNamespace', () => {
  const ns = (labels: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'test', labels },
  })
  const cases: {
    name: string
    exemptNamespaces?: string[]
    newLabels: Record<string, string>
    oldLabels?: Record<string, string>
    expectAllowed: boolean
    expectError?: string
    expectWarnings?: string[]
  }[] = [
    {
      name: 'create privileged',
      newLabels: { [`${P}enforce`]: 'privileged', [`${P}enforce-version`]: 'v1.0' },
      expectAllowed: true,
    },
    { name: 'create baseline', newLabels: { [`${P}enforce`]: 'baseline' }, expectAllowed: true },
    { name: 'create restricted', newLabels: { [`${P}enforce`]: 'restricted' }, expectAllowed: true },
    {
      name: 'create restricted exempt',
      newLabels: { [`${P}enforce`]: 'restricted' },
      exemptNamespaces: ['test'],
      expectAllowed: true,
      expectWarnings: [
        'namespace "test" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored',
      ],
    },
    {
      name: 'create malformed level',
      newLabels: { [`${P}enforce`]: 'unknown' },
      expectAllowed: false,
      expectError: 'must be one of privileged, baseline, restricted',
    },
    {
      name: 'create malformed version',
      newLabels: { [`${P}enforce`]: 'privileged', [`${P}enforce-version`]: 'unknown' },
      expectAllowed: false,
      expectError: 'must be "latest" or "v1.x"',
    },
    {
      name: 'update no-op',
      newLabels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.0' },
      oldLabels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.0' },
      expectAllowed: true,
    },
    {
      name: 'update no-op malformed level',
      newLabels: { [`${P}enforce`]: 'unknown' },
      oldLabels: { [`${P}enforce`]: 'unknown' },
      expectAllowed: true,
    },
    {
      name: 'update no-op malformed version',
      newLabels: { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'unknown' },
      oldLabels: { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'unknown' },
      expectAllowed: true,
    },
    {
      name: 'update relax level identical version',
      newLabels: { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.0' },
      oldLabels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.0' },
      expectAllowed: true,
    },
    {
      name: 'update relax level explicit latest',
      newLabels: { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'latest' },
      oldLabels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'latest' },
      expectAllowed: true,
    },
    {
      name: 'update relax level implicit latest',
      newLabels: { [`${P}enforce`]: 'baseline' },
      oldLabels: { [`${P}enforce`]: 'restricted' },
      expectAllowed: true,
    },
    {
      name: 'update to explicit privileged',
      newLabels: { [`${P}enforce`]: 'privileged' },
      oldLabels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.0' },
      expectAllowed: true,
    },
    {
      name: 'update to implicit privileged',
      newLabels: {},
      oldLabels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.0' },
      expectAllowed: true,
    },
    {
      name: 'update exempt to restricted',
      exemptNamespaces: ['test'],
      newLabels: {
        [`${P}enforce`]: 'restricted',
        [`${P}enforce-version`]: 'v1.0',
        [`${P}audit`]: 'restricted',
        [`${P}warn`]: 'baseline',
      },
      oldLabels: {},
      expectAllowed: true,
      expectWarnings: [
        'namespace "test" is exempt from Pod Security, and the policy (enforce=restricted:v1.0, audit=restricted:latest, warn=baseline:latest) will be ignored',
      ],
    },
    {
      name: 'update malformed level',
      newLabels: { [`${P}enforce`]: 'unknown' },
      oldLabels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.0' },
      expectAllowed: false,
      expectError: 'must be one of privileged, baseline, restricted',
    },
    {
      name: 'update malformed version',
      newLabels: { [`${P}enforce`]: 'privileged', [`${P}enforce-version`]: 'unknown' },
      oldLabels: { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.0' },
      expectAllowed: false,
      expectError: 'must be "latest" or "v1.x"',
    },
  ]
  for (const tc of cases)
    it(tc.name, () => {
      const a = new PodSecurityAdmission(config({ namespaces: tc.exemptNamespaces ?? [] }))
      const r = a.Validate({
        operation: tc.oldLabels === undefined ? 'CREATE' : 'UPDATE',
        group: '',
        resource: 'namespaces',
        subresource: '',
        namespace: 'test',
        userName: '',
        object: ns(tc.newLabels),
        ...(tc.oldLabels !== undefined ? { oldObject: ns(tc.oldLabels) } : {}),
      })
      expect(r.allowed).toBe(tc.expectAllowed)
      const error = (r.invalid ?? []).map(errorString).join(', ')
      if (tc.expectError === undefined) expect(error).toBe('')
      else expect(error).toContain(tc.expectError)
      expect(r.warnings).toEqual(tc.expectWarnings ?? [])
    })
})

describe('admission/admission_test.go TestValidatePodAndController', () => {
  const labelled = (enforce = '', warn = '', audit = '') => {
    const labels: Record<string, string> = {}
    if (enforce !== '') labels[`${P}enforce`] = enforce
    if (warn !== '') labels[`${P}warn`] = warn
    if (audit !== '') labels[`${P}audit`] = audit
    return { apiVersion: 'v1', kind: 'Namespace', metadata: { labels } }
  }
  const namespaces: Record<string, object> = {
    'exempt-ns': labelled('restricted', 'restricted', 'restricted'),
    'implicit-ns': labelled(),
    'privileged-ns': labelled('privileged', 'privileged', 'privileged'),
    'baseline-ns': labelled('baseline', 'baseline', 'baseline'),
    'baseline-warn-ns': labelled('', 'baseline', ''),
    'baseline-audit-ns': labelled('', '', 'baseline'),
    'restricted-ns': labelled('restricted', 'restricted', 'restricted'),
    'invalid-ns': labelled('not-a-valid-level', '', ''),
  }
  const a = new PodSecurityAdmission(
    config({ namespaces: ['exempt-ns'], runtimeClasses: ['exempt-runtimeclass'], usernames: ['exempt-user'] }),
  )
  const objMetadata = { name: 'test-pod', labels: { foo: 'bar' } }
  // test.GetMinimalValidPod(restricted / baseline, v1.23) (test/fixtures.go)
  const pause = 'registry.k8s.io/pause'
  const restrictedSC = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }
  const restrictedPod = {
    metadata: objMetadata,
    spec: {
      initContainers: [{ name: 'initcontainer1', image: pause, securityContext: restrictedSC }],
      containers: [{ name: 'container1', image: pause, securityContext: restrictedSC }],
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    },
  }
  const baselinePod = {
    metadata: objMetadata,
    spec: {
      initContainers: [{ name: 'initcontainer1', image: pause }],
      containers: [{ name: 'container1', image: pause }],
    },
  }
  const privilegedPod = {
    ...baselinePod,
    spec: {
      ...baselinePod.spec,
      containers: [{ name: 'container1', image: pause, securityContext: { privileged: true } }],
    },
  }
  const exemptRCPod = { ...privilegedPod, spec: { ...privilegedPod.spec, runtimeClassName: 'exempt-runtimeclass' } }
  const tolerantPod = { ...privilegedPod, spec: { ...privilegedPod.spec, tolerations: [{ operator: 'Exists' }] } }
  const differentImage = (p: { metadata: object; spec: { containers: object[] } }) => ({
    ...p,
    spec: { ...p.spec, containers: [{ ...p.spec.containers[0], image: 'https://example.com/a-different-image' }] },
  })
  const differentPrivilegedPod = differentImage(privilegedPod)
  const differentRestrictedPod = differentImage(restrictedPod)
  const emptyDeployment = { metadata: objMetadata, spec: {} }

  interface Case {
    desc: string
    namespace: string
    username?: string
    pod?: { metadata: object; spec: object }
    oldPod?: { metadata: object; spec: object }
    obj?: object
    operation?: string
    subresource?: string
    skipPod?: boolean
    skipDeployment?: boolean
    expectAllowed: boolean
    expectExempt?: boolean
    expectError?: boolean
    expectEnforce?: string
    expectWarning?: string
    expectAudit?: string
  }
  const podCases: Case[] = [
    {
      desc: 'ignored subresource',
      namespace: 'restricted-ns',
      pod: privilegedPod,
      subresource: 'status',
      expectAllowed: true,
    },
    { desc: 'exempt namespace', namespace: 'exempt-ns', pod: privilegedPod, expectAllowed: true, expectExempt: true },
    {
      desc: 'exempt user',
      namespace: 'restricted-ns',
      username: 'exempt-user',
      pod: privilegedPod,
      expectAllowed: true,
      expectExempt: true,
    },
    {
      desc: 'exempt runtimeClass',
      namespace: 'restricted-ns',
      pod: exemptRCPod,
      expectAllowed: true,
      expectExempt: true,
    },
    {
      desc: 'short-circuit privileged:latest (implicit)',
      namespace: 'implicit-ns',
      pod: privilegedPod,
      expectAllowed: true,
      expectEnforce: 'privileged',
    },
    {
      desc: 'short-circuit privileged:latest (explicit)',
      namespace: 'privileged-ns',
      pod: privilegedPod,
      expectAllowed: true,
      expectEnforce: 'privileged',
    },
    {
      desc: 'insignificant update',
      namespace: 'restricted-ns',
      operation: 'UPDATE',
      pod: tolerantPod,
      oldPod: privilegedPod,
      expectAllowed: true,
      skipDeployment: true,
    },
    {
      desc: 'significant update denied',
      namespace: 'restricted-ns',
      operation: 'UPDATE',
      pod: differentPrivilegedPod,
      oldPod: privilegedPod,
      expectAllowed: false,
      expectEnforce: 'restricted',
      expectWarning: 'restricted',
      expectAudit: 'restricted',
    },
    {
      desc: 'significant update allowed',
      namespace: 'restricted-ns',
      operation: 'UPDATE',
      pod: differentRestrictedPod,
      oldPod: restrictedPod,
      expectAllowed: true,
      expectEnforce: 'restricted',
    },
    {
      desc: 'invalid namespace labels',
      namespace: 'invalid-ns',
      pod: baselinePod,
      expectAllowed: false,
      expectEnforce: 'restricted',
      expectError: true,
    },
    {
      desc: 'enforce deny',
      namespace: 'restricted-ns',
      pod: privilegedPod,
      expectAllowed: false,
      expectEnforce: 'restricted',
      expectWarning: 'restricted',
      expectAudit: 'restricted',
    },
    {
      desc: 'enforce allow',
      namespace: 'baseline-ns',
      pod: baselinePod,
      expectAllowed: true,
      expectEnforce: 'baseline',
    },
    {
      desc: 'warn deny',
      namespace: 'baseline-warn-ns',
      pod: privilegedPod,
      expectAllowed: true,
      expectEnforce: 'privileged',
      expectWarning: 'baseline',
    },
    {
      desc: 'audit deny',
      namespace: 'baseline-audit-ns',
      pod: privilegedPod,
      expectAllowed: true,
      expectEnforce: 'privileged',
      expectAudit: 'baseline',
    },
    { desc: 'no pod template', namespace: 'restricted-ns', obj: emptyDeployment, expectAllowed: true, skipPod: true },
  ]
  const podToDeployment = (p: { metadata: object; spec: object }) => ({
    metadata: p.metadata,
    spec: { template: { metadata: p.metadata, spec: p.spec } },
  })
  const cases: (Case & { resource: string; group: string })[] = []
  for (const tc of podCases) {
    if (tc.skipPod !== true)
      cases.push({
        ...tc,
        desc: `pod:${tc.desc}`,
        group: '',
        resource: 'pods',
        // warnings only when the request is allowed
        ...(tc.expectAllowed ? {} : { expectWarning: undefined }),
      })
    if (tc.skipDeployment !== true) {
      const { expectEnforce: _e, ...rest } = tc
      cases.push({
        ...rest,
        desc: `deployment:${tc.desc}`,
        group: 'apps',
        resource: 'deployments',
        // PodController validation never enforces
        expectAllowed: true,
        ...(tc.pod !== undefined ? { obj: podToDeployment(tc.pod) } : {}),
        ...(tc.oldPod !== undefined ? { oldPod: podToDeployment(tc.oldPod) as never } : {}),
      })
    }
  }
  for (const tc of cases)
    it(tc.desc, () => {
      const object = (tc.obj ?? tc.pod) as PodSecurityRequest['object']
      const r = a.Validate({
        operation: tc.operation ?? 'CREATE',
        group: tc.group,
        resource: tc.resource,
        subresource: tc.subresource ?? '',
        namespace: tc.namespace,
        userName: tc.username ?? 'test-user',
        object,
        ...(tc.oldPod !== undefined ? { oldObject: tc.oldPod as never } : {}),
        namespaceObject: namespaces[tc.namespace] as never,
      })
      expect(r.allowed).toBe(tc.expectAllowed)
      if (!tc.expectAllowed) expect(r.forbidden).toMatch(/^violates PodSecurity "restricted:latest": /)
      expect(r.warnings.length > 0).toBe(tc.expectWarning !== undefined)
      const keys: string[] = []
      if (tc.expectEnforce !== undefined) keys.push('enforce-policy')
      if (tc.expectAudit !== undefined) keys.push('audit-violations')
      if (tc.expectError === true) keys.push('error')
      if (tc.expectExempt === true) keys.push('exempt')
      expect(Object.keys(r.auditAnnotations).sort()).toEqual(keys.map((k) => P + k).sort())
      if (tc.expectEnforce !== undefined)
        expect(r.auditAnnotations[`${P}enforce-policy`]).toBe(`${tc.expectEnforce}:latest`)
    })

  it('invalid namespace labels: the audit annotation says why (admission.go EvaluatePod)', () => {
    const r = a.Validate({
      operation: 'CREATE',
      group: '',
      resource: 'pods',
      subresource: '',
      namespace: 'invalid-ns',
      userName: '',
      object: baselinePod as never,
      namespaceObject: namespaces['invalid-ns'] as never,
    })
    expect(r.auditAnnotations[`${P}error`]).toBe(
      'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "not-a-valid-level": must be one of privileged, baseline, restricted',
    )
  })
})

describe('admission/admission_test.go TestExemptNamespaceWarning', () => {
  const privileged = { level: 'privileged' as const, version: LatestVersion }
  const baseline = { level: 'baseline' as const, version: majorMinorVersion(23) }
  const baselinePolicy: Policy = { enforce: baseline, audit: baseline, warn: baseline }
  const tests: { name: string; labels?: Record<string, string>; defaultPolicy?: Policy; contains?: string }[] = [
    { name: 'empty-case' },
    {
      name: 'ignore-privileged',
      labels: { [`${P}enforce`]: 'privileged', [`${P}enforce-version`]: 'v1.24', [`${P}warn-version`]: 'v1.25' },
    },
    { name: 'warn-on-enforce', labels: { [`${P}enforce`]: 'baseline' }, contains: '(enforce=baseline:latest)' },
    { name: 'warn-on-warn', labels: { [`${P}warn`]: 'baseline' }, contains: '(warn=baseline:latest)' },
    { name: 'warn-on-audit', labels: { [`${P}audit`]: 'restricted' }, contains: '(audit=restricted:latest)' },
    { name: 'ignore-default-policy', defaultPolicy: baselinePolicy },
    {
      name: 'warn-versions-default-policy',
      labels: { [`${P}warn-version`]: 'latest' },
      defaultPolicy: baselinePolicy,
      contains: '(warn=baseline:latest)',
    },
  ]
  for (const t of tests)
    it(t.name, () => {
      const defaults = t.defaultPolicy ?? { enforce: privileged, audit: privileged, warn: privileged }
      const a = new PodSecurityAdmission(config({ namespaces: [t.name] }, defaults))
      const labels = { ...t.labels, qqincegidneocgu: 'vpmxkpcjphxrcpx' }
      const r = a.Validate({
        operation: 'CREATE',
        group: '',
        resource: 'namespaces',
        subresource: '',
        namespace: t.name,
        userName: '',
        object: { metadata: { name: t.name, labels } },
      })
      if (t.contains === undefined) {
        expect(r.warnings).toEqual([])
        return
      }
      expect(r.warnings).toHaveLength(1)
      expect(r.warnings[0]).not.toContain('qqincegidneocgu')
      expect(r.warnings[0]).not.toContain('vpmxkpcjphxrcpx')
      expect(r.warnings[0]).toContain(t.contains)
    })
})

describe('admission/admission.go isSignificantPodUpdate', () => {
  const spec = (extra: object = {}) => ({
    spec: { initContainers: [{ name: 'i', image: 'a' }], containers: [{ name: 'c', image: 'b' }], ...extra },
  })
  const cases: [string, object, object, boolean][] = [
    ['nothing but metadata', { ...spec(), metadata: { labels: { x: 'y' } } }, spec(), false],
    ['a container image', { spec: { ...spec().spec, containers: [{ name: 'c', image: 'b2' }] } }, spec(), true],
    [
      'an init container image',
      { spec: { ...spec().spec, initContainers: [{ name: 'i', image: 'a2' }] } },
      spec(),
      true,
    ],
    [
      'a container added',
      { spec: { ...spec().spec, containers: [{ name: 'c', image: 'b' }, { name: 'd' }] } },
      spec(),
      true,
    ],
    ['an ephemeral container added', spec({ ephemeralContainers: [{ name: 'e', image: 'x' }] }), spec(), true],
    [
      'an ephemeral container unchanged',
      spec({ ephemeralContainers: [{ name: 'e', image: 'x' }] }),
      spec({ ephemeralContainers: [{ name: 'e', image: 'x' }] }),
      false,
    ],
    [
      "an ephemeral container's image",
      spec({ ephemeralContainers: [{ name: 'e', image: 'y' }] }),
      spec({ ephemeralContainers: [{ name: 'e', image: 'x' }] }),
      true,
    ],
    ['a removed ephemeral container is not looked at', spec(), spec({ ephemeralContainers: [{ name: 'e' }] }), false],
    ['a toleration', spec({ tolerations: [{ operator: 'Exists' }] }), spec(), false],
  ]
  for (const [name, pod, old, significant] of cases)
    it(name, () => expect(isSignificantPodUpdate(pod as never, old as never)).toBe(significant))
})
