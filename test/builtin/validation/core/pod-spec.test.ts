import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import { validatePodDNSConfig } from '../../../../src/builtin/validation/core/pod-dns.js'
import { validateReadinessGates, validateSchedulingGates } from '../../../../src/builtin/validation/core/pod-misc.js'
import { errorString, type FieldError, FieldPath } from '../../../../src/kube/field.js'
import { fieldTypes, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go: TestValidatePodSpec,
// TestValidatePodDNSConfig, TestValidatePodDNSConfigWithRelaxedSearchDomain, TestValidatePodReadinessGates,
// TestValidateSchedulingGates, TestValidatePodCreateWithSchedulingGates, TestValidateOverhead,
// TestValidatePodHostName, TestValidateRestartPolicy, TestValidateDNSPolicy and the ValidatePodCreate
// cases of TestValidatePod for the fields around them. Pods are v1 objects decoded and defaulted as
// the apiserver does (SetDefaults_Pod fills hostPort from containerPort under hostNetwork, so the Go
// case "hostPort unspecified" passes through a Pod and fails only in a template).

const ft = (errs: FieldError[]) => errs.map((e) => `${e.field} ${e.type}`)
const txt = (errs: FieldError[]) => errs.map(errorString)

const pod = (spec: O = {}, meta: O = {}): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', ...meta },
  spec: { containers: [{ name: 'ctr', image: 'image' }], ...spec },
})
const template = (spec: O): O => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name: 't', namespace: 'default' },
  template: { spec: { containers: [{ name: 'ctr', image: 'image' }], ...spec } },
})

describe('TestValidatePodSpec', () => {
  const ok: [string, O][] = [
    ['populate basic fields, leave defaults for most', {}],
    [
      'populate all fields',
      {
        initContainers: [{ name: 'ictr', image: 'image' }],
        volumes: [{ name: 'vol', emptyDir: {} }],
        nodeSelector: { key: 'value' },
        nodeName: 'foobar',
        activeDeadlineSeconds: 2147483647,
        serviceAccountName: 'acct',
      },
    ],
    [
      'populate HostNetwork',
      {
        hostNetwork: true,
        containers: [
          { name: 'ctr', image: 'image', ports: [{ hostPort: 8080, containerPort: 8080, protocol: 'TCP' }] },
        ],
      },
    ],
    [
      'populate RunAsUser SupplementalGroups FSGroup with minID 0',
      { securityContext: { supplementalGroups: [0], runAsUser: 0, fsGroup: 0 } },
    ],
    [
      'populate RunAsUser SupplementalGroups FSGroup with maxID 2147483647',
      { securityContext: { supplementalGroups: [2147483647], runAsUser: 2147483647, fsGroup: 2147483647 } },
    ],
    ['populate HostIPC', { hostIPC: true }],
    ['populate HostPID', { hostPID: true }],
    ['populate HostAliases', { hostAliases: [{ ip: '12.34.56.78', hostnames: ['host1', 'host2'] }] }],
    [
      'populate HostAliases with `foo.bar` hostnames',
      { hostAliases: [{ ip: '12.34.56.78', hostnames: ['host1.foo', 'host2.bar'] }] },
    ],
    [
      'populate HostAliases with HostNetwork',
      { hostNetwork: true, hostAliases: [{ ip: '12.34.56.78', hostnames: ['host1.foo', 'host2.bar'] }] },
    ],
    ['populate PriorityClassName', { priorityClassName: 'valid-name' }],
    ['populate ShareProcessNamespace', { shareProcessNamespace: true }],
    ['HostPID with ShareProcessNamespace disabled', { hostPID: true, shareProcessNamespace: false }],
    ['populate RuntimeClassName', { runtimeClassName: 'valid-sandbox' }],
    ['populate Overhead', { overhead: {} }],
    ['populate FSGroupChangePolicy', { securityContext: { fsGroupChangePolicy: 'Always' } }],
    [
      'resources resize policy for containers',
      {
        containers: [
          { name: 'ctr', image: 'image', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] },
        ],
      },
    ],
    ['populate SupplementalGroupsPolicy', { securityContext: { supplementalGroupsPolicy: 'Strict' } }],
  ]
  for (const [name, spec] of ok) it(`success: ${name}`, () => expect(texts(pod(spec))).toEqual([]))
  it('success: populate HostAliases with legacy IP with legacy validation (1.35: StrictIPCIDRValidation off)', () =>
    expect(
      texts(pod({ hostAliases: [{ ip: '012.034.056.078', hostnames: ['host1', 'host2'] }] }), undefined, 35),
    ).toEqual([]))

  const bad: [string, O, string[]][] = [
    // SetDefaults_Volume gives a v1 volume without a source an emptyDir: only the name is missing
    ['bad volume', { volumes: [{}] }, ['spec.volumes[0].name FieldValueRequired']],
    ['no containers', { containers: [] }, ['spec.containers FieldValueRequired']],
    ['bad DNS policy', { dnsPolicy: 'invalid' }, ['spec.dnsPolicy FieldValueNotSupported']],
    ['bad service account name', { serviceAccountName: 'invalidName' }, ['spec.serviceAccountName FieldValueInvalid']],
    ['bad restart policy', { restartPolicy: 'UnknowPolicy' }, ['spec.restartPolicy FieldValueNotSupported']],
    [
      'with hostNetwork hostPort not equal to containerPort',
      {
        hostNetwork: true,
        containers: [
          { name: 'ctr', image: 'image', ports: [{ hostPort: 8080, containerPort: 2600, protocol: 'TCP' }] },
        ],
      },
      ['spec.containers[0].ports[0].hostPort FieldValueInvalid'],
    ],
    [
      'with hostAliases with invalid IP',
      { hostAliases: [{ ip: '999.999.999.999', hostnames: ['host1', 'host2'] }] },
      ['spec.hostAliases[0].ip FieldValueInvalid'],
    ],
    [
      'with hostAliases with invalid legacy IP with strict IP validation',
      { hostAliases: [{ ip: '001.002.003.004', hostnames: ['host1', 'host2'] }] },
      ['spec.hostAliases[0].ip FieldValueInvalid'],
    ],
    [
      'with hostAliases with invalid hostname',
      { hostAliases: [{ ip: '12.34.56.78', hostnames: ['@#$^#@#$'] }] },
      ['spec.hostAliases[0].hostnames[0] FieldValueInvalid'],
    ],
    [
      'bad supplementalGroups large than math.MaxInt32',
      { securityContext: { supplementalGroups: [2147483648, 1234] } },
      ['spec.securityContext.supplementalGroups[0] FieldValueInvalid'],
    ],
    [
      'bad supplementalGroups less than 0',
      { securityContext: { supplementalGroups: [-1, 1234] } },
      ['spec.securityContext.supplementalGroups[0] FieldValueInvalid'],
    ],
    [
      'bad runAsUser large than math.MaxInt32',
      { securityContext: { runAsUser: 2147483648 } },
      ['spec.securityContext.runAsUser FieldValueInvalid'],
    ],
    [
      'bad runAsUser less than 0',
      { securityContext: { runAsUser: -1 } },
      ['spec.securityContext.runAsUser FieldValueInvalid'],
    ],
    [
      'bad fsGroup large than math.MaxInt32',
      { securityContext: { fsGroup: 2147483648 } },
      ['spec.securityContext.fsGroup FieldValueInvalid'],
    ],
    [
      'bad fsGroup less than 0',
      { securityContext: { fsGroup: -1 } },
      ['spec.securityContext.fsGroup FieldValueInvalid'],
    ],
    ['bad-active-deadline-seconds', { activeDeadlineSeconds: 0 }, ['spec.activeDeadlineSeconds FieldValueInvalid']],
    [
      'active-deadline-seconds-too-large',
      { activeDeadlineSeconds: 2147483648 },
      ['spec.activeDeadlineSeconds FieldValueInvalid'],
    ],
    ['bad nodeName', { nodeName: 'node name' }, ['spec.nodeName FieldValueInvalid']],
    ['bad PriorityClassName', { priorityClassName: 'InvalidName' }, ['spec.priorityClassName FieldValueInvalid']],
    [
      'ShareProcessNamespace and HostPID both set',
      { hostPID: true, shareProcessNamespace: true },
      ['spec.shareProcessNamespace FieldValueInvalid'],
    ],
    ['bad RuntimeClassName', { runtimeClassName: 'invalid/sandbox' }, ['spec.runtimeClassName FieldValueInvalid']],
    [
      'bad empty fsGroupchangepolicy',
      { securityContext: { fsGroupChangePolicy: '' } },
      ['spec.securityContext.fsGroupChangePolicy FieldValueNotSupported'],
    ],
    [
      'bad invalid fsgroupchangepolicy',
      { securityContext: { fsGroupChangePolicy: 'invalid' } },
      ['spec.securityContext.fsGroupChangePolicy FieldValueNotSupported'],
    ],
    [
      'bad empty SupplementalGroupsPolicy',
      { securityContext: { supplementalGroupsPolicy: '' } },
      ['spec.securityContext.supplementalGroupsPolicy FieldValueNotSupported'],
    ],
    [
      'bad invalid SupplementalGroupsPolicy',
      { securityContext: { supplementalGroupsPolicy: 'invalid' } },
      ['spec.securityContext.supplementalGroupsPolicy FieldValueNotSupported'],
    ],
  ]
  for (const [name, spec, want] of bad) it(name, () => expect(fieldTypes(pod(spec))).toEqual(want))

  it('ShareProcessNamespace and HostPID both set: the message', () =>
    expect(texts(pod({ hostPID: true, shareProcessNamespace: true }))).toEqual([
      'spec.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
    ]))
  it('with hostNetwork hostPort unspecified: a template (not ResourceIsPod) allows 0; a Pod is defaulted first', () => {
    const ctrs = [{ name: 'ctr', image: 'image', ports: [{ hostPort: 0, containerPort: 2600, protocol: 'TCP' }] }]
    expect(texts(template({ hostNetwork: true, containers: ctrs }))).toEqual([])
    expect(texts(pod({ hostNetwork: true, containers: ctrs }))).toEqual([])
  })
  it('hostNetwork: a template with a different hostPort', () =>
    expect(
      texts(
        template({
          hostNetwork: true,
          containers: [{ name: 'ctr', image: 'image', ports: [{ hostPort: 1, containerPort: 2600 }] }],
        }),
      ),
    ).toEqual([
      'template.spec.containers[0].ports[0].hostPort: Invalid value: 1: must match `containerPort` when `hostNetwork` is true',
    ]))
  it('preemptionPolicy (ValidatePreemptionPolicy)', () =>
    expect(texts(pod({ preemptionPolicy: 'Sometimes' }))).toEqual([
      'spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
    ]))
})

describe('TestValidateRestartPolicy / TestValidateDNSPolicy', () => {
  it('valid', () => {
    for (const restartPolicy of ['Always', 'Never', 'OnFailure']) expect(texts(pod({ restartPolicy }))).toEqual([])
    for (const dnsPolicy of ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default'])
      expect(texts(pod({ dnsPolicy }))).toEqual([])
  })
  it('invalid', () => {
    expect(texts(pod({ restartPolicy: 'UnknowPolicy' }))).toEqual([
      'spec.restartPolicy: Unsupported value: "UnknowPolicy": supported values: "Always", "OnFailure", "Never"',
    ])
    expect(texts(pod({ dnsPolicy: 'Other' }))).toEqual([
      'spec.dnsPolicy: Unsupported value: "Other": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ])
  })
})

describe('TestValidatePodDNSConfig', () => {
  const dns = (dnsConfig: O | undefined, dnsPolicy = 'ClusterFirst', minor = 37) =>
    validatePodDNSConfig({ dnsConfig, dnsPolicy }, FieldPath.of('dnsConfig'), minor)
  const a = (n: number) => 'a'.repeat(n)
  const s32 = ['custom', 'mydomain.com', 'local', 'cluster.local', 'svc.cluster.local', 'default.svc.cluster.local.']
  for (let i = 7; i <= 32; i++) s32.push(String(i))
  const cases: [string, O | undefined, boolean, string?, number?][] = [
    ['valid: empty DNSConfig', {}, false],
    ['valid: 1 option', { options: [{ name: 'ndots', value: '2' }] }, false],
    ['valid: 1 nameserver', { nameservers: ['127.0.0.1'] }, false],
    ['valid: DNSNone with 1 nameserver', { nameservers: ['127.0.0.1'] }, false, 'None'],
    ['valid: 1 search path', { searches: ['custom'] }, false],
    ['valid: 1 search path with trailing period', { searches: ['custom.'] }, false],
    [
      'valid: 3 nameservers and 6 search paths(legacy)',
      { nameservers: ['127.0.0.1', '10.0.0.10', '8.8.8.8'], searches: s32.slice(0, 6) },
      false,
    ],
    [
      'valid: 3 nameservers and 32 search paths',
      { nameservers: ['127.0.0.1', '10.0.0.10', '8.8.8.8'], searches: s32 },
      false,
    ],
    [
      'valid: 256 characters in search path list(legacy)',
      { searches: [a(1), a(50), a(50), a(50), a(50), a(50)] },
      false,
    ],
    ['valid: 2048 characters in search path list', { searches: [a(64), ...Array(31).fill(a(63))] }, false],
    ['valid: ipv6 nameserver', { nameservers: ['FE80::0202:B3FF:FE1E:8329'] }, false],
    ['invalid: 4 nameservers', { nameservers: ['127.0.0.1', '10.0.0.10', '8.8.8.8', '1.2.3.4'] }, true],
    [
      'valid: 7 search paths',
      {
        searches: [
          'custom',
          'mydomain.com',
          'local',
          'cluster.local',
          'svc.cluster.local',
          'default.svc.cluster.local',
          'exceeded',
        ],
      },
      false,
    ],
    ['invalid: 33 search paths', { searches: [...s32, '33'] }, true],
    ['valid: 257 characters in search path list', { searches: [a(2), a(50), a(50), a(50), a(50), a(50)] }, false],
    ['invalid: 2049 characters in search path list', { searches: [a(65), ...Array(31).fill(a(63))] }, true],
    ['invalid search path', { searches: ['custom?'] }, true],
    ['invalid nameserver', { nameservers: ['invalid'] }, true],
    [
      'valid legacy IP nameserver with legacy IP validation',
      { nameservers: ['001.002.003.004'] },
      false,
      undefined,
      35,
    ],
    ['invalid legacy IP nameserver with strict IP validation', { nameservers: ['001.002.003.004'] }, true],
    ['invalid empty option name', { options: [{ value: '2' }] }, true],
    ['invalid: DNSNone with 0 nameserver', { searches: ['custom'] }, true, 'None'],
  ]
  for (const [name, cfg, wantErr, policy, minor] of cases)
    it(name, () => expect(dns(cfg, policy, minor).length > 0).toBe(wantErr))

  it('messages', () => {
    expect(txt(dns(undefined, 'None'))).toEqual([
      'dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None',
    ])
    expect(txt(dns({ searches: ['custom'] }, 'None'))).toEqual([
      'dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
    ])
    expect(txt(dns({ nameservers: ['1.1.1.1', '1.1.1.2', '1.1.1.3', '1.1.1.4'] }))).toEqual([
      'dnsConfig.nameservers: Invalid value: ["1.1.1.1","1.1.1.2","1.1.1.3","1.1.1.4"]: must not have more than 3 nameservers',
    ])
    expect(txt(dns({ nameservers: ['invalid'], options: [{}] }))).toEqual([
      'dnsConfig.nameservers[0]: Invalid value: "invalid": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'dnsConfig.options[0]: Required value: must not be empty',
    ])
    expect(ft(dns({ searches: [...s32, '33'] }))).toEqual(['dnsConfig.searches FieldValueInvalid'])
    expect(txt(dns({ searches: ['custom?'] }))).toEqual([
      `dnsConfig.searches[0]: Invalid value: "custom?": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')`,
    ])
  })
  it('through a Pod', () =>
    expect(fieldTypes(pod({ dnsPolicy: 'None' }))).toEqual(['spec.dnsConfig FieldValueRequired']))
})

describe('TestValidatePodDNSConfigWithRelaxedSearchDomain', () => {
  const cases: [string, string, boolean][] = [
    ['beginswith underscore, contains underscore', '_sip._tcp.abc_d.example.com', false],
    ['contains underscore', 'abc_d.example.com', false],
    ['is dot', '.', false],
    ['two dots', '..', true],
    ['underscore and dot', '_.', true],
    ['dash and dot', '-.', true],
    ['two underscore and dot', '__.', true],
    ['dot and two underscore', '.__', true],
    ['dot and underscore', '._', true],
    ['lot of underscores', '____________', true],
    ['a regular name', 'example.com', false],
    ['unicode character', '☃.example.com', true],
  ]
  const dns = (search: string, minor = 37) =>
    validatePodDNSConfig({ dnsConfig: { searches: [search] } }, FieldPath.of('dnsConfig'), minor)
  for (const [name, search, wantErr] of cases) it(name, () => expect(dns(search).length > 0).toBe(wantErr))
  // RelaxedDNSSearchValidation is on from 1.33; before, a plain DNS-1123 subdomain (trailing dot trimmed)
  it('before 1.33: underscores and a lone dot are invalid', () => {
    expect(txt(dns('abc_d.example.com', 32))).toEqual([
      `dnsConfig.searches[0]: Invalid value: "abc_d.example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ])
    expect(ft(dns('.', 32))).toEqual(['dnsConfig.searches[0] FieldValueInvalid'])
    expect(dns('example.com.', 32)).toEqual([])
  })
})

describe('TestValidatePodReadinessGates', () => {
  const F = FieldPath.of('field')
  it('no gate', () => expect(validateReadinessGates([], F)).toEqual([]))
  it('one readiness gate', () =>
    expect(validateReadinessGates([{ conditionType: 'example.com/condition' }], F)).toEqual([]))
  it('two readiness gates', () =>
    expect(
      validateReadinessGates(
        [{ conditionType: 'example.com/condition1' }, { conditionType: 'example.com/condition2' }],
        F,
      ),
    ).toEqual([]))
  it('invalid condition type', () =>
    expect(ft(validateReadinessGates([{ conditionType: 'invalid/condition/type' }], F))).toEqual([
      'field[0].conditionType FieldValueInvalid',
    ]))
  it('through a Pod', () =>
    expect(fieldTypes(pod({ readinessGates: [{ conditionType: 'a/b/c' }] }))).toEqual([
      'spec.readinessGates[0].conditionType FieldValueInvalid',
    ]))
})

describe('TestValidateSchedulingGates', () => {
  const F = FieldPath.of('field')
  const g = (...names: string[]) =>
    validateSchedulingGates(
      names.map((name) => ({ name })),
      F,
    )
  it('nil gates', () => expect(validateSchedulingGates(undefined, F)).toEqual([]))
  it('empty string in gates', () =>
    expect(txt(g('foo', ''))).toEqual([
      'field[1]: Invalid value: "": name part must be non-empty',
      `field[1]: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]))
  it('legal gates', () => expect(g('foo', 'bar')).toEqual([]))
  it('illegal gates', () => expect(ft(g('foo', '\nbar'))).toEqual(['field[1] FieldValueInvalid']))
  it('duplicated gates (single duplication)', () =>
    expect(ft(g('foo', 'bar', 'bar'))).toEqual(['field[2] FieldValueDuplicate']))
  it('duplicated gates (multiple duplications)', () =>
    expect(txt(g('foo', 'bar', 'foo', 'baz', 'foo', 'bar'))).toEqual([
      'field[2]: Duplicate value: "foo"',
      'field[4]: Duplicate value: "foo"',
      'field[5]: Duplicate value: "bar"',
    ]))
})

describe('TestValidatePodCreateWithSchedulingGates', () => {
  it('create a Pod with nodeName and schedulingGates', () =>
    expect(texts(pod({ nodeName: 'node', schedulingGates: [{ name: 'foo' }] }))).toEqual([
      'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared',
    ]))
  it('create a Pod with schedulingGates', () => expect(texts(pod({ schedulingGates: [{ name: 'foo' }] }))).toEqual([]))
})

describe('TestValidateOverhead', () => {
  it('valid overheads', () => {
    expect(texts(pod({ overhead: { cpu: '10', memory: '10G' } }))).toEqual([])
    expect(texts(pod({ overhead: {} }))).toEqual([])
  })
  // validateResourceName, then ValidateContainerResourceName: both messages for a non-standard name
  it('invalid overhead resources', () =>
    expect(texts(pod({ overhead: { 'my.org': '10m' } }))).toEqual([
      'spec.overhead.limits[my.org]: Invalid value: "my.org": must be a standard resource type or fully qualified',
      'spec.overhead.limits[my.org]: Invalid value: "my.org": must be a standard resource for containers',
    ]))
})

describe('TestValidatePodHostName', () => {
  const h = (spec: O) => fieldTypes(pod(spec))
  it('hostnameOverride valid', () => expect(h({ hostnameOverride: 'valid-hostname.example.com' })).toEqual([]))
  it('with setHostnameAsFQDN', () =>
    expect(texts(pod({ hostnameOverride: 'valid', setHostnameAsFQDN: true, subdomain: 's' }))).toEqual([
      'spec.hostnameOverride: Forbidden: may not be specified when setHostnameAsFQDN is true',
    ]))
  it('with hostNetwork', () =>
    expect(h({ hostnameOverride: 'valid', hostNetwork: true })).toEqual(['spec.hostnameOverride FieldValueForbidden']))
  it('too long and not a subdomain', () =>
    expect(h({ hostnameOverride: 'A'.repeat(65) })).toEqual([
      'spec.hostnameOverride FieldValueTooLong',
      'spec.hostnameOverride FieldValueInvalid',
    ]))
})

describe('TestValidatePod: Pod-only rules of validatePodMetadataAndSpec / ValidatePodCreate', () => {
  // the Go case (internal Pod, -1) cannot reach validation through v1: SetDefaults_Pod raises a
  // negative terminationGracePeriodSeconds to 1
  it('negative terminationGracePeriodSeconds is defaulted to 1 first', () =>
    expect(texts(pod({ terminationGracePeriodSeconds: -1 }))).toEqual([]))
  it('image with leading or trailing whitespace (Pod only, not templates)', () => {
    expect(texts(pod({ containers: [{ name: 'ctr', image: ' image' }] }))).toEqual([
      'spec.containers[0].image: Invalid value: " image": must not have leading or trailing whitespace',
    ])
    expect(texts(template({ containers: [{ name: 'ctr', image: ' image' }] }))).toEqual([])
  })
  it('serviceAccountToken projection requires serviceAccountName', () => {
    const volumes = [
      { name: 'v', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }] } },
    ]
    expect(texts(pod({ volumes }))).toEqual([
      'spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set',
    ])
    expect(texts(pod({ volumes, serviceAccountName: 'sa' }))).toEqual([])
  })
  it('ephemeral containers cannot be set on create', () =>
    expect(
      texts(pod({ ephemeralContainers: [{ name: 'debug', image: 'image', targetContainerName: 'ctr' }] })),
    ).toEqual(['spec.ephemeralContainers: Forbidden: cannot be set on create']))
  it('resource claims (DynamicResourceAllocation on from 1.34)', () => {
    expect(texts(pod({ resourceClaims: [{ name: 'a', resourceClaimName: 'c' }] }))).toEqual([])
    expect(
      fieldTypes(
        pod({ resourceClaims: [{ name: 'a' }, { name: 'a', resourceClaimName: 'c', resourceClaimTemplateName: 't' }] }),
      ),
    ).toEqual([
      'spec.resourceClaims[0] FieldValueInvalid',
      'spec.resourceClaims[1].name FieldValueDuplicate',
      'spec.resourceClaims[1] FieldValueInvalid',
    ])
    expect(texts(pod({ resourceClaims: [{ name: 'a' }] }))).toEqual([
      'spec.resourceClaims[0]: Invalid value: {"Name":"a","ResourceClaimName":null,"ResourceClaimTemplateName":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
    ])
  })
})

describe('bad values before 1.34 (ErrorBody %#v of typed slices, kubernetes#132314)', () => {
  it('nameservers: []string', () =>
    expect(
      texts(pod({ dnsConfig: { nameservers: ['1.1.1.1', '1.1.1.2', '1.1.1.3', '1.1.1.4'] } }), undefined, 33),
    ).toEqual([
      'spec.dnsConfig.nameservers: Invalid value: []string{"1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.4"}: must not have more than 3 nameservers',
    ]))
  it('init container resizePolicy before InPlacePodVerticalScaling (1.32)', () =>
    expect(
      texts(
        pod({
          initContainers: [
            { name: 'i', image: 'image', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] },
          ],
        }),
        undefined,
        32,
      ),
    ).toEqual([
      'spec.initContainers[0].resizePolicy: Invalid value: []core.ContainerResizePolicy{core.ContainerResizePolicy{ResourceName:"cpu", RestartPolicy:"NotRequired"}}: must not be set for init containers',
    ]))
})

describe('TestValidatePod: success cases (ValidatePodCreate)', () => {
  const seccompPod = 'seccomp.security.alpha.kubernetes.io/pod'
  const seccompCtr = 'container.seccomp.security.alpha.kubernetes.io/ctr'
  const apparmorCtr = 'container.apparmor.security.beta.kubernetes.io/ctr'
  const withCtr = (ctr: O, spec: O = {}, meta: O = {}) =>
    pod({ containers: [{ name: 'ctr', image: 'image', ...ctr }], ...spec }, meta)
  const affinityTerm = {
    labelSelector: {
      matchExpressions: [
        { key: 'key', operator: 'NotIn', values: ['value1', 'value2'] },
        { key: 'key2', operator: 'In', values: ['value1'] },
        { key: 'key3', operator: 'NotIn', values: ['value1'] },
      ],
    },
    topologyKey: 'k8s.io/zone',
    matchLabelKeys: ['key2'],
    mismatchLabelKeys: ['key3'],
  }
  const cases: [string, O][] = [
    ['basic fields', pod()],
    ['zero terminationGracePeriodSeconds', pod({ terminationGracePeriodSeconds: 0 })],
    ['runtime default seccomp profile', pod({}, { annotations: { [seccompPod]: 'runtime/default' } })],
    ['docker default seccomp profile', pod({}, { annotations: { [seccompCtr]: 'docker/default' } })],
    ['localhost seccomp profile', pod({}, { annotations: { [seccompPod]: 'localhost/foo' } })],
    ['localhost seccomp profile for a container', pod({}, { annotations: { [seccompCtr]: 'localhost/foo' } })],
    [
      'runtime default seccomp profile for a pod',
      pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }),
    ],
    [
      'runtime default seccomp profile for a container',
      withCtr({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }),
    ],
    ['unconfined seccomp profile for a pod', pod({ securityContext: { seccompProfile: { type: 'Unconfined' } } })],
    [
      'unconfined seccomp profile for a container',
      withCtr({ securityContext: { seccompProfile: { type: 'Unconfined' } } }),
    ],
    [
      'localhost seccomp profile for a pod',
      pod({ securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'filename.json' } } }),
    ],
    [
      'localhost seccomp profile for a container, II',
      withCtr({ securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'filename.json' } } }),
    ],
    ['default AppArmor annotation for a container', pod({}, { annotations: { [apparmorCtr]: 'runtime/default' } })],
    [
      'default AppArmor annotation for an init container',
      pod(
        { initContainers: [{ name: 'init-ctr', image: 'image' }] },
        { annotations: { 'container.apparmor.security.beta.kubernetes.io/init-ctr': 'runtime/default' } },
      ),
    ],
    ['localhost AppArmor annotation for a container', pod({}, { annotations: { [apparmorCtr]: 'localhost/foo' } })],
    [
      'runtime default AppArmor profile for a pod',
      pod({ securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }),
    ],
    [
      'runtime default AppArmor profile for a container',
      withCtr({ securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }),
    ],
    ['unconfined AppArmor profile for a pod', pod({ securityContext: { appArmorProfile: { type: 'Unconfined' } } })],
    [
      'localhost AppArmor profile for a pod',
      pod({
        securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'example-org/application-foo' } },
      }),
    ],
    [
      'localhost AppArmor profile for a container field',
      withCtr({
        securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'example-org/application-foo' } },
      }),
    ],
    [
      'matching AppArmor fields and annotations',
      withCtr(
        { securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'foo' } } },
        {},
        { annotations: { [apparmorCtr]: 'localhost/foo' } },
      ),
    ],
    [
      'matching AppArmor pod field and annotations',
      pod(
        { securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'foo' } } },
        { annotations: { [apparmorCtr]: 'localhost/foo' } },
      ),
    ],
    [
      'syntactically valid sysctls',
      pod({
        securityContext: {
          sysctls: [
            { name: 'kernel.shmmni', value: '32768' },
            { name: 'kernel.shmmax', value: '1000000000' },
            { name: 'knet.ipv4.route.min_pmtu', value: '1000' },
          ],
        },
      }),
    ],
    [
      'valid extended resources for init container',
      pod({
        initContainers: [
          {
            name: 'valid-extended',
            image: 'image',
            resources: { requests: { 'example.com/a': '10' }, limits: { 'example.com/a': '10' } },
          },
        ],
      }),
    ],
    [
      'valid serviceaccount token projected volume with serviceaccount name specified',
      pod({
        serviceAccountName: 'some-service-account',
        volumes: [
          {
            name: 'projected-volume',
            projected: {
              sources: [
                { serviceAccountToken: { audience: 'foo-audience', expirationSeconds: 6000, path: 'foo-path' } },
              ],
            },
          },
        ],
      }),
    ],
    ['negative pod-deletion-cost', pod({}, { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' } })],
    ['positive pod-deletion-cost', pod({}, { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } })],
    [
      'MatchLabelKeys/MismatchLabelKeys in required PodAffinity',
      pod({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [affinityTerm] } } }),
    ],
    [
      'MatchLabelKeys/MismatchLabelKeys in preferred PodAntiAffinity',
      pod({
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: affinityTerm }],
          },
        },
      }),
    ],
    [
      'LabelSelector can have the same key as MismatchLabelKeys',
      pod({
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: {
                  matchExpressions: [
                    { key: 'key', operator: 'NotIn', values: ['value1', 'value2'] },
                    { key: 'key2', operator: 'In', values: ['value1'] },
                    { key: 'key2', operator: 'NotIn', values: ['value1'] },
                  ],
                },
                topologyKey: 'k8s.io/zone',
                mismatchLabelKeys: ['key2'],
              },
            ],
          },
        },
      }),
    ],
  ]
  for (const [name, o] of cases) it(name, () => expect(texts(o)).toEqual([]))
})
