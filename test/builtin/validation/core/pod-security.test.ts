import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import {
  isValidSysctlName,
  validateHostUsers,
  validateOS,
  validatePodSecurityContext,
  validateSecurityContext,
  validateWindowsHostProcessPod,
} from '../../../../src/builtin/validation/core/pod-security.js'
import { errorString, type FieldError, FieldPath } from '../../../../src/kube/field.js'
import { fieldTypes, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go: the security tests
// (TestValidateSecurityContext, TestValidateWindowsSecurityContextOptions, TestIsValidSysctlName,
// TestValidateSysctls, TestValidateLinuxPodSecurityContext, TestValidateWindowsPodSecurityContext,
// TestValidateHostUsers, TestValidateWindowsHostProcessPod, TestValidateSELinuxChangePolicy,
// TestValidateSeccompAnnotationAndField, TestValidateSeccompAnnotationsAndFieldsMatch,
// TestValidateAppArmorProfileFormat and the AppArmor / seccomp / sysctl cases of TestValidatePod).
// The functions are called as the Go tests call them (path `field` or `spec`), and through a v1 Pod
// decoded and defaulted as the apiserver does, for the wiring.

const F = FieldPath.of('field')
const S = FieldPath.of('spec')
const ft = (errs: FieldError[]) => errs.map((e) => `${e.field} ${e.type}`)
const txt = (errs: FieldError[]) => errs.map(errorString)

const pod = (spec: O = {}, annotations?: Record<string, string>): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'ctr', image: 'image' }], ...spec },
})
const withCtr = (ctr: O, spec: O = {}, annotations?: Record<string, string>) =>
  pod({ containers: [{ name: 'ctr', image: 'image', ...ctr }], ...spec }, annotations)

const fullValidSC = (): O => ({
  privileged: false,
  capabilities: { add: ['foo'], drop: ['bar'] },
  seLinuxOptions: { user: 'user', role: 'role', type: 'type', level: 'level' },
  runAsUser: 1,
})

describe('TestValidateSecurityContext', () => {
  const ok: [string, O, boolean][] = [
    ['all settings', fullValidSC(), false],
    ['no capabilities', { ...fullValidSC(), capabilities: undefined }, false],
    ['no selinux', { ...fullValidSC(), seLinuxOptions: undefined }, false],
    ['no priv request', { ...fullValidSC(), privileged: undefined }, false],
    ['no run as user', { ...fullValidSC(), runAsUser: undefined }, false],
    ['proc mount set', { ...fullValidSC(), procMount: 'Default' }, true],
    ['proc mount unmasked', { ...fullValidSC(), procMount: 'Unmasked' }, false],
  ]
  for (const [name, sc, hostUsers] of ok)
    it(`success: ${name}`, () => expect(validateSecurityContext(sc, F, hostUsers)).toEqual([]))

  // "request privileged when capabilities forbids" needs --allow-privileged=false: kelp assumes true
  it('privileged is allowed (cluster policy assumed --allow-privileged=true)', () =>
    expect(validateSecurityContext({ ...fullValidSC(), privileged: true }, F, true)).toEqual([]))
  it('negative RunAsUser', () =>
    expect(txt(validateSecurityContext({ ...fullValidSC(), runAsUser: -1 }, F, true))).toEqual([
      'field.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
    ]))
  it('with CAP_SYS_ADMIN and allowPrivilegeEscalation false', () => {
    const errs = validateSecurityContext(
      { ...fullValidSC(), capabilities: { add: ['CAP_SYS_ADMIN'], drop: ['bar'] }, allowPrivilegeEscalation: false },
      F,
      true,
    )
    expect(ft(errs)).toEqual(['field FieldValueInvalid'])
    expect(errs[0]?.detail).toBe('cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN')
  })
  it('with privileged and allowPrivilegeEscalation false', () => {
    const errs = validateSecurityContext(
      { ...fullValidSC(), privileged: true, allowPrivilegeEscalation: false },
      F,
      true,
    )
    expect(ft(errs)).toEqual(['field FieldValueInvalid'])
    expect(errs[0]?.detail).toBe('cannot set `allowPrivilegeEscalation` to false and `privileged` to true')
    // the bad value is the internal *core.SecurityContext, json.Marshal'ed with Go field names
    expect(errorString(errs[0] as FieldError)).toContain(
      '{"Capabilities":{"Add":["foo"],"Drop":["bar"]},"Privileged":true,',
    )
  })
  it('with unmasked proc mount type and no user namespace', () =>
    expect(txt(validateSecurityContext({ ...fullValidSC(), procMount: 'Unmasked' }, F, true))).toEqual([
      'field.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
    ]))
  it('procMount not supported (ValidateProcMountType)', () =>
    expect(txt(validateSecurityContext({ procMount: 'Other' }, F, false))).toEqual([
      'field.procMount: Unsupported value: "Other": supported values: "Default", "Unmasked"',
    ]))
  it('through a Pod: the container path', () =>
    expect(fieldTypes(withCtr({ securityContext: { runAsGroup: -1 } }))).toEqual([
      'spec.containers[0].securityContext.runAsGroup FieldValueInvalid',
    ]))
})

describe('TestValidateWindowsSecurityContextOptions', () => {
  const w = (o: O | undefined) => validateSecurityContext({ windowsOptions: o }, FieldPath.of('f'), true)
  const cases: [string, O | undefined, string][] = [
    ['a nil pointer', undefined, ''],
    ['an empty struct', {}, ''],
    [
      'a valid input',
      { gmsaCredentialSpecName: 'dummy-gmsa-crep-spec-name', gmsaCredentialSpec: 'dummy-gmsa-crep-spec-contents' },
      '',
    ],
    [
      'a GMSA cred spec name that is not a valid resource name',
      { gmsaCredentialSpecName: 'not_a-valid-gmsa-crep-spec-name' },
      'a lowercase RFC 1123 subdomain',
    ],
    ['empty GMSA cred spec contents', { gmsaCredentialSpec: '' }, 'gmsaCredentialSpec cannot be an empty string'],
    [
      'GMSA cred spec contents that are too long',
      { gmsaCredentialSpec: 'a'.repeat(64 * 1024 + 1) },
      'gmsaCredentialSpec size must be under',
    ],
    ['RunAsUserName is nil', { runAsUserName: undefined }, ''],
    ['a valid RunAsUserName', { runAsUserName: 'Container. User' }, ''],
    ['a valid RunAsUserName with NetBios Domain', { runAsUserName: 'Network Service\\Container. User' }, ''],
    ['a valid RunAsUserName with DNS Domain', { runAsUserName: `${'fOo'.repeat(20)}.liSH\\Container. User` }, ''],
    [
      'a valid RunAsUserName with DNS Domain with a single character segment',
      { runAsUserName: `${'fOo'.repeat(20)}.l\\Container. User` },
      '',
    ],
    [
      'a valid RunAsUserName with a long single segment DNS Domain',
      { runAsUserName: `${'a'.repeat(42)}\\Container. User` },
      '',
    ],
    ['an empty RunAsUserName', { runAsUserName: '' }, 'runAsUserName cannot be an empty string'],
    [
      'RunAsUserName containing a control character',
      { runAsUserName: 'Container\tUser' },
      'runAsUserName cannot contain control characters',
    ],
    [
      'RunAsUserName containing too many backslashes',
      { runAsUserName: 'Container\\Foo\\Lish' },
      'runAsUserName cannot contain more than one backslash',
    ],
    [
      'RunAsUserName containing backslash but empty Domain',
      { runAsUserName: '\\User' },
      "runAsUserName's Domain doesn't match the NetBios nor the DNS format",
    ],
    [
      'RunAsUserName containing backslash but empty User',
      { runAsUserName: 'Container\\' },
      "runAsUserName's User cannot be empty",
    ],
    [
      "RunAsUserName's NetBios Domain is too long",
      { runAsUserName: `NetBios ${'a'.repeat(8)}\\user` },
      "runAsUserName's Domain doesn't match the NetBios",
    ],
    [
      "RunAsUserName's DNS Domain is too long",
      { runAsUserName: `${`${'a'.repeat(63)}.`.repeat(4).slice(0, 253)}.com\\user` },
      "runAsUserName's Domain length must be under",
    ],
    [
      "RunAsUserName's User is too long",
      { runAsUserName: 'a'.repeat(105) },
      "runAsUserName's User length must not be longer than",
    ],
    [
      "RunAsUserName's User cannot contain only spaces or periods",
      { runAsUserName: '... ...' },
      "runAsUserName's User cannot contain only periods or spaces",
    ],
    [
      "RunAsUserName's NetBios Domain cannot start with a dot",
      { runAsUserName: '.FooLish\\User' },
      "runAsUserName's Domain doesn't match the NetBios",
    ],
    [
      "RunAsUserName's NetBios Domain cannot contain invalid characters",
      { runAsUserName: 'Foo? Lish?\\User' },
      "runAsUserName's Domain doesn't match the NetBios",
    ],
    [
      "RunAsUserName's DNS Domain cannot contain invalid characters",
      { runAsUserName: `${'a'.repeat(32)}.com-\\user` },
      "runAsUserName's Domain doesn't match the NetBios nor the DNS format",
    ],
    [
      "RunAsUserName's User cannot contain invalid characters",
      { runAsUserName: 'Container/User' },
      "runAsUserName's User cannot contain the following characters",
    ],
  ]
  for (const [name, o, sub] of cases)
    it(name, () => {
      const errs = w(o)
      if (sub === '') expect(txt(errs)).toEqual([])
      else {
        expect(errs).toHaveLength(1)
        expect(errorString(errs[0] as FieldError)).toContain(sub)
      }
    })
})

describe('TestIsValidSysctlName', () => {
  const valid = ['a.b.c.d', 'a', 'a_b', 'a-b', 'abc', 'abc.def', 'a/b/c/d', 'a/b.c']
  const invalid = [
    '',
    '*',
    'ä',
    'a_',
    '_',
    '__',
    '_a',
    '_a._b',
    '-',
    '.',
    'a.',
    '.a',
    'a.b.',
    'a*.b',
    'a*b',
    '*a',
    'a.*',
    '*',
    'abc*',
    'a.abc*',
    'a.b.*',
    'Abc',
    '/',
    '/a',
    'a/abc*',
    'a/b/*',
    'a'.repeat(256),
  ]
  it('valid', () => expect(valid.filter((s) => !isValidSysctlName(s))).toEqual([]))
  it('invalid', () => expect(invalid.filter((s) => isValidSysctlName(s))).toEqual([]))
})

describe('TestValidateSysctls', () => {
  const sc = (names: string[], spec: O = {}) =>
    validatePodSecurityContext(
      { ...spec, securityContext: { sysctls: names.map((name) => ({ name })) } },
      FieldPath.of('foo'),
      37,
    )
  it('valid', () =>
    expect(
      sc([
        'net.foo.bar',
        'kernel.shmmax',
        'net.ipv4.conf.enp3s0/200.forwarding',
        'net/ipv4/conf/enp3s0.200/forwarding',
      ]),
    ).toEqual([]))
  it('invalid: 2 errors under foo', () =>
    expect(txt(sc(['i..nvalid', '_invalid']))).toEqual([
      'foo.sysctls[0].name: Invalid value: "i..nvalid": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      'foo.sysctls[1].name: Invalid value: "_invalid": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
    ]))
  it('duplicates', () =>
    expect(ft(sc(['kernel.shmmax', 'kernel.shmmax']))).toEqual(['foo.sysctls[1].name FieldValueDuplicate']))
  it('net sysctls with hostNetwork', () =>
    expect(
      txt(sc(['net.ipv4.conf.enp3s0/200.forwarding', 'net/ipv4/conf/enp3s0.200/forwarding'], { hostNetwork: true })),
    ).toEqual([
      `foo.sysctls[0].name: Invalid value: "net.ipv4.conf.enp3s0/200.forwarding": may not be specified when 'hostNetwork' is true`,
      `foo.sysctls[1].name: Invalid value: "net/ipv4/conf/enp3s0.200/forwarding": may not be specified when 'hostNetwork' is true`,
    ]))
  it('ipc sysctls with hostIPC', () =>
    expect(ft(sc(['kernel.shmmax', 'kernel.msgmax'], { hostIPC: true }))).toEqual([
      'foo.sysctls[0].name FieldValueInvalid',
      'foo.sysctls[1].name FieldValueInvalid',
    ]))
  it('through a Pod (TestValidatePod: invalid sysctl name)', () =>
    expect(
      fieldTypes(
        pod({
          securityContext: {
            sysctls: [
              { name: 'kernel.shm_rmid_forced', value: '1' },
              { name: '', value: '' },
            ],
          },
        }),
      ),
    ).toEqual(['spec.securityContext.sysctls[1].name FieldValueRequired']))
})

describe('validatePodSpecSecurityContext ids and policies (TestValidatePod cases)', () => {
  it('fsGroup, runAsUser, runAsGroup, supplementalGroups out of range', () =>
    expect(
      fieldTypes(
        pod({ securityContext: { fsGroup: -1, runAsUser: 2147483648, runAsGroup: -2, supplementalGroups: [1, -1] } }),
      ),
    ).toEqual([
      'spec.securityContext.fsGroup FieldValueInvalid',
      'spec.securityContext.runAsUser FieldValueInvalid',
      'spec.securityContext.runAsGroup FieldValueInvalid',
      'spec.securityContext.supplementalGroups[1] FieldValueInvalid',
    ]))
  it('fsGroupChangePolicy and supplementalGroupsPolicy', () =>
    expect(
      texts(pod({ securityContext: { fsGroupChangePolicy: 'Sometimes', supplementalGroupsPolicy: 'Loose' } })),
    ).toEqual([
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
      'spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"',
    ]))
  it('seccompProfile: type required, localhost profile rules', () => {
    expect(texts(pod({ securityContext: { seccompProfile: {} } }))).toEqual([
      'spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set',
    ])
    expect(texts(pod({ securityContext: { seccompProfile: { type: 'Localhost' } } }))).toEqual([
      'spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
    ])
    expect(
      texts(pod({ securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: '../x' } } })),
    ).toEqual([`spec.securityContext.seccompProfile.localhostProfile: Invalid value: "../x": must not contain '..'`])
    expect(
      texts(pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'x' } } })),
    ).toEqual([
      'spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"Type":"RuntimeDefault","LocalhostProfile":"x"}: can only be set when seccomp type is Localhost',
    ])
    expect(texts(pod({ securityContext: { seccompProfile: { type: 'Other' } } }))).toEqual([
      'spec.securityContext.seccompProfile.type: Unsupported value: "Other": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
    ])
  })
  it('appArmorProfile (ValidateAppArmorProfileField)', () => {
    expect(
      texts(withCtr({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: ' x ' } } })),
    ).toEqual([
      'spec.containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value: " x ": must not be padded with whitespace',
    ])
    expect(texts(pod({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: '' } } }))).toEqual([
      'spec.securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost',
    ])
    expect(texts(pod({ securityContext: { appArmorProfile: { type: 'Unconfined', localhostProfile: 'x' } } }))).toEqual(
      [
        'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "x": can only be set when AppArmor type is Localhost',
      ],
    )
    expect(texts(pod({ securityContext: { appArmorProfile: {} } }))).toEqual([
      'spec.securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set',
    ])
    expect(
      fieldTypes(
        pod({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'x'.repeat(4096) } } }),
      ),
    ).toEqual(['spec.securityContext.appArmorProfile.localhostProfile FieldValueTooLong'])
  })
})

describe('TestValidateSELinuxChangePolicy', () => {
  const p = (v: string | undefined, minor = 37) =>
    texts(pod({ securityContext: v === undefined ? {} : { seLinuxChangePolicy: v } }), undefined, minor)
  it('nil is valid', () => expect(p(undefined)).toEqual([]))
  it('Recursive is always valid', () => expect(p('Recursive', 36)).toEqual([]))
  // AllowOnlyRecursiveSELinuxChangePolicy: SELinuxMount off, before 1.37
  it('MountOption is not valid when AllowOnlyRecursiveSELinuxChangePolicy (1.36)', () =>
    expect(p('MountOption', 36)).toEqual([
      'spec.securityContext.seLinuxChangePolicy: Unsupported value: "MountOption": supported values: "Recursive"',
    ]))
  it('MountOption is valid when not AllowOnlyRecursiveSELinuxChangePolicy (1.37)', () =>
    expect(p('MountOption')).toEqual([]))
  it('invalid value', () =>
    expect(p('InvalidValue')).toEqual([
      'spec.securityContext.seLinuxChangePolicy: Unsupported value: "InvalidValue": supported values: "MountOption", "Recursive"',
    ]))
})

describe('TestValidateLinuxPodSecurityContext / TestValidateWindowsPodSecurityContext (validateLinux, validateWindows)', () => {
  const os = (name: string, spec: O) => validateOS({ os: { name }, ...spec }, FieldPath.of('field'))
  it('valid SC, linux, no error', () =>
    expect(
      os('linux', {
        securityContext: { seLinuxOptions: { user: 'user', role: 'role', type: 'type', level: 'level' }, runAsUser: 1 },
      }),
    ).toEqual([]))
  it('invalid SC, linux, error', () =>
    expect(txt(os('linux', { securityContext: { windowsOptions: { runAsUserName: 'myUser' } } }))).toEqual([
      'field.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
    ]))
  it('valid SC, windows, no error', () =>
    expect(os('windows', { securityContext: { windowsOptions: { runAsUserName: 'dummy' } } })).toEqual([]))
  it('invalid SC(by SELinuxOptions), windows, error', () =>
    expect(txt(os('windows', { securityContext: { seLinuxOptions: { role: 'dummyRole' } } }))).toEqual([
      'field.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod',
    ]))
  it('invalid SC(by SupplementalGroupsPolicy), windows, error', () =>
    expect(ft(os('windows', { securityContext: { supplementalGroupsPolicy: 'Strict' } }))).toEqual([
      'field.securityContext.supplementalGroupsPolicy FieldValueForbidden',
    ]))
  it('TestValidateOS: name required, not supported', () => {
    expect(ft(os('', {}))).toEqual(['field.os.name FieldValueRequired'])
    expect(txt(os('Linux', {}))).toEqual(['field.os: Unsupported value: "Linux": supported values: "linux", "windows"'])
  })
  it('through a Pod: a windows pod with container security fields', () =>
    expect(
      fieldTypes(
        withCtr({ securityContext: { privileged: false, runAsUser: 1 } }, { os: { name: 'windows' }, hostPID: true }),
      ),
    ).toEqual([
      'spec.hostPID FieldValueForbidden',
      'spec.containers[0].securityContext.privileged FieldValueForbidden',
      'spec.containers[0].securityContext.runAsUser FieldValueForbidden',
    ]))
})

describe('TestValidateHostUsers', () => {
  const h = (spec: O) => ft(validateHostUsers(spec, S))
  const cases: [string, O, string[]][] = [
    ['empty', {}, []],
    ['hostUsers unset', { securityContext: {} }, []],
    ['hostUsers=false', { hostUsers: false }, []],
    ['hostUsers=true', { hostUsers: true }, []],
    ['hostUsers=false - stateful volume', { hostUsers: false, volumes: [{ name: 'host-path', hostPath: {} }] }, []],
    [
      'hostUsers=false & HostNetwork',
      { hostUsers: false, hostNetwork: true },
      ['spec.hostNetwork FieldValueForbidden'],
    ],
    ['hostUsers=false & HostPID', { hostUsers: false, hostPID: true }, ['spec.HostPID FieldValueForbidden']],
    ['hostUsers=false & HostIPC', { hostUsers: false, hostIPC: true }, ['spec.HostIPC FieldValueForbidden']],
    [
      'hostUsers=false & container volumeDevice',
      {
        hostUsers: false,
        containers: [
          { name: 'test-container', volumeDevices: [{ name: 'test-volume', devicePath: '/dev/test-device' }] },
        ],
      },
      ['spec.containers[0].volumeDevices FieldValueForbidden'],
    ],
    [
      'hostUsers=false & initContainer volumeDevice',
      {
        hostUsers: false,
        initContainers: [
          { name: 'test-container', volumeDevices: [{ name: 'test-volume', devicePath: '/dev/test-device' }] },
        ],
      },
      ['spec.initContainers[0].volumeDevices FieldValueForbidden'],
    ],
    [
      'hostUsers=false & ephemeralContainer volumeDevice',
      {
        hostUsers: false,
        ephemeralContainers: [
          { name: 'test-container', volumeDevices: [{ name: 'test-volume', devicePath: '/dev/test-device' }] },
        ],
      },
      ['spec.ephemeralContainers[0].volumeDevices FieldValueForbidden'],
    ],
  ]
  for (const [name, spec, want] of cases) it(name, () => expect(h(spec)).toEqual(want))
})

describe('TestValidateWindowsHostProcessPod', () => {
  const hp = (v: boolean | undefined): O | undefined =>
    v === undefined ? undefined : { windowsOptions: { hostProcess: v } }
  const spec = (
    podHP: boolean | undefined,
    hostNetwork: boolean,
    ctrs: (boolean | undefined)[],
    inits: (boolean | undefined)[] = [],
  ): O => ({
    hostNetwork,
    securityContext: hp(podHP),
    containers: ctrs.map((v) => ({ name: 'container', securityContext: hp(v) })),
    initContainers: inits.map((v) => ({ name: 'container', securityContext: hp(v) })),
  })
  const v = (s: O) => ft(validateWindowsHostProcessPod(s, S))
  it('pod-wide HostProcess=true, and HostNetwork unset should not validate', () =>
    expect(v(spec(true, false, [undefined]))).toEqual(['spec.hostNetwork FieldValueInvalid']))
  it('pod-wide HostProcess=true, and HostNetwork set should validate', () =>
    expect(v(spec(true, true, [undefined]))).toEqual([]))
  it('pod-wide HostProcess=true, HostNetwork set, and containers setting HostProcess=true should validate', () =>
    expect(v(spec(true, true, [true], [true]))).toEqual([]))
  it('pod-wide HostProcess=nil, HostNetwork set, and all containers setting HostProcess=true should validate', () =>
    expect(v(spec(undefined, true, [true], [true]))).toEqual([]))
  it('some containers setting HostProcess=true, and others setting HostProcess=false should not validate', () =>
    expect(v(spec(undefined, true, [true], [false]))).toEqual(['spec FieldValueInvalid']))
  it('pod-wide HostProcess=true and a container HostProcess=false should not validate', () =>
    expect(txt(validateWindowsHostProcessPod(spec(true, true, [false]), S))).toEqual([
      'spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true',
    ]))
})

describe('TestValidateSeccompAnnotationAndField / TestValidateSeccompAnnotationsAndFieldsMatch (ValidatePodCreate)', () => {
  const podAnn = 'seccomp.security.alpha.kubernetes.io/pod'
  const ctrAnn = 'container.seccomp.security.alpha.kubernetes.io/ctr'
  it('annotation and field match', () => {
    expect(
      texts(pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }, { [podAnn]: 'runtime/default' })),
    ).toEqual([])
    expect(
      texts(pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }, { [podAnn]: 'docker/default' })),
    ).toEqual([])
    expect(
      texts(
        withCtr(
          { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'a/b' } } },
          {},
          { [ctrAnn]: 'localhost/a/b' },
        ),
      ),
    ).toEqual([])
  })
  it('pod type mismatch', () =>
    expect(
      texts(pod({ securityContext: { seccompProfile: { type: 'Unconfined' } } }, { [podAnn]: 'runtime/default' })),
    ).toEqual(['spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match']))
  it('container localhost profile mismatch', () =>
    expect(
      texts(
        withCtr(
          { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'a' } } },
          {},
          { [ctrAnn]: 'localhost/b' },
        ),
      ),
    ).toEqual([
      'spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match',
    ]))
  it('annotation value must be a valid seccomp profile (ValidateSeccompPodAnnotations)', () =>
    expect(texts(pod({}, { [podAnn]: 'foo', [ctrAnn]: 'localhost/../x' }))).toEqual([
      'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "foo": must be a valid seccomp profile',
      `metadata.annotations.container.seccomp.security.alpha.kubernetes.io/ctr: Invalid value: "../x": must not contain '..'`,
    ]))
  it('pod template (TestValidatePodTemplateSpecSeccomp): the template paths', () =>
    expect(
      fieldTypes({
        apiVersion: 'v1',
        kind: 'PodTemplate',
        metadata: { name: 't', namespace: 'default' },
        template: {
          metadata: { annotations: { [podAnn]: 'localhost/foo' } },
          spec: {
            containers: [{ name: 'ctr', image: 'image' }],
            securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          },
        },
      }),
    ).toEqual(['template.spec.securityContext.seccompProfile.type FieldValueForbidden']))
})

describe('TestValidateAppArmorProfileFormat and the AppArmor cases of TestValidatePod', () => {
  const key = 'container.apparmor.security.beta.kubernetes.io/ctr'
  it('valid annotation values', () => {
    for (const v of ['', 'runtime/default', 'unconfined', 'localhost/foo-bar'])
      expect(texts(pod({}, { [key]: v }))).toEqual([])
  })
  it('invalid profile name', () =>
    expect(texts(pod({}, { [key]: 'foo-bar' }))).toEqual([
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/ctr]: Invalid value: "foo-bar": invalid AppArmor profile name: "foo-bar"',
    ]))
  it('container not found', () =>
    expect(texts(pod({}, { 'container.apparmor.security.beta.kubernetes.io/other': 'runtime/default' }))).toEqual([
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/other]: Invalid value: "other": container not found',
    ]))
  it('annotation and field must match (validateAppArmorAnnotationsAndFieldsMatchOnCreate)', () => {
    expect(
      texts(pod({ securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }, { [key]: 'unconfined' })),
    ).toEqual([
      'spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match',
    ])
    expect(
      texts(
        withCtr(
          { securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'a' } } },
          {},
          { [key]: 'localhost/b' },
        ),
      ),
    ).toEqual([
      'spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match',
    ])
    // windows pods skip the check
    expect(texts(pod({ os: { name: 'windows' } }, { [key]: 'unconfined' }))).toEqual([])
  })
})

describe('ValidatePodSpecificAnnotations: pod-deletion-cost and mirror pods (TestValidatePod)', () => {
  const cost = 'controller.kubernetes.io/pod-deletion-cost'
  it('valid costs', () => {
    for (const v of ['10', '-10', '0', '2147483647']) expect(texts(pod({}, { [cost]: v }))).toEqual([])
  })
  it('invalid costs', () => {
    for (const v of ['text', '+10', '010', '2147483648', ''])
      expect(texts(pod({}, { [cost]: v }))).toEqual([
        `metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "${v}": must be a 32bit integer`,
      ])
  })
  it('mirror pod without nodeName', () =>
    expect(fieldTypes(pod({}, { 'kubernetes.io/config.mirror': 'x' }))).toEqual([
      'metadata.annotations[kubernetes.io/config.mirror] FieldValueInvalid',
    ]))
})
