import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import {
  validateHandler,
  validateLifecycle,
  validateResizePolicy,
} from '../../../../src/builtin/validation/core/pod-lifecycle.js'
import { errorString, type FieldError, FieldPath } from '../../../../src/kube/field.js'
import { errors, fieldTypes, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go: TestValidateSleepAction,
// TestValidateHandler, TestValidateResizePolicy, TestValidateEphemeralContainers,
// TestValidateContainerRestartPolicy, TestValidatePullPolicy and the lifecycle / sidecar cases of
// TestValidateContainers and TestValidateInitContainers. Functions are called as the Go tests call
// them; containers go through a v1 Pod decoded and defaulted as the apiserver does
// (terminationGracePeriodSeconds 30, imagePullPolicy, terminationMessagePolicy).

const ft = (errs: FieldError[]) => errs.map((e) => `${e.field} ${e.type}`)
const txt = (errs: FieldError[]) => errs.map(errorString)

const pod = (spec: O): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'ctr', image: 'image' }], ...spec },
})
const withCtr = (ctr: O, spec: O = {}) => pod({ containers: [{ name: 'ctr', image: 'image', ...ctr }], ...spec })
const withInit = (ctr: O, spec: O = {}) => pod({ initContainers: [{ name: 'init', image: 'image', ...ctr }], ...spec })

describe('TestValidateSleepAction', () => {
  const R = FieldPath.of('root')
  const sleep = (seconds: number, grace: number, minor = 37) =>
    txt(validateHandler({ sleep: { seconds } }, 'lifecycle', grace, FieldPath.of('h'), minor)).map((s) =>
      s.replace('h.sleep', R.toString()),
    )
  const msg = (g: number) => `must be non-negative and less than terminationGracePeriodSeconds (${g})`
  it('valid setting', () => expect(sleep(5, 30)).toEqual([]))
  it('negative seconds', () => expect(sleep(-1, 30)).toEqual([`root: Invalid value: -1: ${msg(30)}`]))
  it('longer than gracePeriod', () => expect(sleep(5, 3)).toEqual([`root: Invalid value: 5: ${msg(3)}`]))
  it('sleep duration of zero', () => expect(sleep(0, 30)).toEqual([]))
  it('zero grace period duration', () => expect(sleep(0, 0)).toEqual([]))
  it('nil grace period (the Go test passes a pointer to 0)', () =>
    expect(sleep(5, 0)).toEqual([`root: Invalid value: 5: ${msg(0)}`]))
  // PodLifecycleSleepActionAllowZero: beta, on from 1.33; before, 0 is invalid
  it('before 1.33 a zero sleep is invalid', () =>
    expect(sleep(0, 30, 31)).toEqual([
      'root: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30)',
    ]))
  it('through a Pod: preStop sleep longer than the grace period', () =>
    expect(texts(withCtr({ lifecycle: { preStop: { sleep: { seconds: 31 } } } }))).toEqual([
      `spec.containers[0].lifecycle.preStop.sleep: Invalid value: 31: ${msg(30)}`,
    ]))
})

describe('TestValidateHandler', () => {
  const F = FieldPath.of('field')
  const ok: O[] = [
    { exec: { command: ['echo'] } },
    { httpGet: { path: '/', port: 1, host: '', scheme: 'HTTP' } },
    { httpGet: { path: '/foo', port: 65535, host: 'host', scheme: 'HTTP' } },
    { httpGet: { path: '/', port: 'port', host: '', scheme: 'HTTP' } },
    {
      httpGet: {
        path: '/',
        port: 'port',
        host: '',
        scheme: 'HTTP',
        httpHeaders: [{ name: 'Host', value: 'foo.example.com' }],
      },
    },
    {
      httpGet: {
        path: '/',
        port: 'port',
        host: '',
        scheme: 'HTTP',
        httpHeaders: [
          { name: 'X-Forwarded-For', value: '1.2.3.4' },
          { name: 'X-Forwarded-For', value: '5.6.7.8' },
        ],
      },
    },
  ]
  const bad: O[] = [
    {},
    { exec: { command: [] } },
    { httpGet: { path: '', port: 0, host: '' } },
    { httpGet: { path: '/foo', port: 65536, host: 'host' } },
    { httpGet: { path: '', port: '', host: '' } },
    {
      httpGet: {
        path: '/',
        port: 'port',
        host: '',
        scheme: 'HTTP',
        httpHeaders: [{ name: 'Host:', value: 'foo.example.com' }],
      },
    },
    {
      httpGet: {
        path: '/',
        port: 'port',
        host: '',
        scheme: 'HTTP',
        httpHeaders: [{ name: 'X_Forwarded_For', value: 'foo.example.com' }],
      },
    },
  ]
  ok.forEach((h, i) => {
    it(`success ${i}`, () => expect(validateHandler(h, 'probe', 30, F, 37)).toEqual([]))
  })
  bad.forEach((h, i) => {
    it(`failure ${i}`, () => expect(validateHandler(h, 'probe', 30, F, 37).length).toBeGreaterThan(0))
  })
  it('lifecycle handlers have sleep, not grpc', () => {
    expect(ft(validateLifecycle({ postStart: { grpc: { port: 1 } } }, 30, F, 37))).toEqual([
      'field.postStart FieldValueRequired',
    ])
    expect(ft(validateLifecycle({ preStop: { exec: { command: ['x'] }, sleep: { seconds: 1 } } }, 30, F, 37))).toEqual([
      'field.preStop.sleep FieldValueForbidden',
    ])
  })
})

describe('TestValidateResizePolicy', () => {
  const F = FieldPath.of('field')
  const rp = (list: [string, string][], pod = 'Always') =>
    txt(
      validateResizePolicy(
        list.map(([resourceName, restartPolicy]) => ({ resourceName, restartPolicy })),
        F,
        pod,
      ),
    )
  const never = "must be 'NotRequired' when pod `restartPolicy` is 'Never'"
  const cases: [string, [string, string][], string, string[]][] = [
    [
      'ValidCPUandMemoryPolicies',
      [
        ['cpu', 'NotRequired'],
        ['memory', 'RestartContainer'],
      ],
      'Always',
      [],
    ],
    ['ValidCPUPolicy', [['cpu', 'RestartContainer']], 'Always', []],
    ['ValidMemoryPolicy', [['memory', 'NotRequired']], 'Always', []],
    ['NoPolicy', [], 'Always', []],
    [
      'ValidCPUandInvalidMemoryPolicy',
      [
        ['cpu', 'NotRequired'],
        ['memory', 'Restarrrt'],
      ],
      'Always',
      ['field: Unsupported value: "Restarrrt": supported values: "NotRequired", "RestartContainer"'],
    ],
    [
      'ValidMemoryandInvalidCPUPolicy',
      [
        ['cpu', 'RestartNotRequirrred'],
        ['memory', 'RestartContainer'],
      ],
      'Always',
      ['field: Unsupported value: "RestartNotRequirrred": supported values: "NotRequired", "RestartContainer"'],
    ],
    [
      'InvalidResourceNameValidPolicy',
      [['cpuuu', 'NotRequired']],
      'Always',
      ['field: Unsupported value: "cpuuu": supported values: "cpu", "memory"'],
    ],
    ['ValidResourceNameMissingPolicy', [['memory', '']], 'Always', ['field: Required value']],
    [
      'RepeatedPolicies',
      [
        ['cpu', 'NotRequired'],
        ['memory', 'RestartContainer'],
        ['cpu', 'RestartContainer'],
      ],
      'Always',
      ['field[2]: Duplicate value: "cpu"'],
    ],
    [
      'InvalidCPUPolicyWithPodRestartPolicy',
      [
        ['cpu', 'NotRequired'],
        ['memory', 'RestartContainer'],
      ],
      'Never',
      [`field: Invalid value: "RestartContainer": ${never}`],
    ],
    [
      'InvalidMemoryPolicyWithPodRestartPolicy',
      [
        ['cpu', 'RestartContainer'],
        ['memory', 'NotRequired'],
      ],
      'Never',
      [`field: Invalid value: "RestartContainer": ${never}`],
    ],
    [
      'InvalidMemoryCPUPolicyWithPodRestartPolicy',
      [
        ['cpu', 'RestartContainer'],
        ['memory', 'RestartContainer'],
      ],
      'Never',
      [`field: Invalid value: "RestartContainer": ${never}`, `field: Invalid value: "RestartContainer": ${never}`],
    ],
    [
      'ValidMemoryCPUPolicyWithPodRestartPolicy',
      [
        ['cpu', 'NotRequired'],
        ['memory', 'NotRequired'],
      ],
      'Never',
      [],
    ],
  ]
  for (const [name, list, podPolicy, want] of cases) it(name, () => expect(rp(list, podPolicy)).toEqual(want))
  it('through a Pod: the container path', () =>
    expect(fieldTypes(withCtr({ resizePolicy: [{ resourceName: 'gpu', restartPolicy: 'NotRequired' }] }))).toEqual([
      'spec.containers[0].resizePolicy FieldValueNotSupported',
    ]))
})

describe('TestValidateEphemeralContainers', () => {
  // a Pod carrying ephemeral containers is refused on create (ValidatePodCreate); the spec-level
  // errors of validateEphemeralContainers come first and are the ones compared here
  const base = {
    containers: [{ name: 'ctr', image: 'image' }],
    initContainers: [{ name: 'ictr', image: 'iimage' }],
    volumes: [
      { name: 'blk', persistentVolumeClaim: { claimName: 'pvc' } },
      { name: 'vol', emptyDir: {} },
    ],
    serviceAccountName: 'sa',
  }
  const eph = (...ecs: O[]) =>
    errors(pod({ ...base, ephemeralContainers: ecs }))
      .filter((e) => e.field !== 'spec.ephemeralContainers')
      .map((e) => `${e.field} ${e.type}`)
  const dbg = (o: O = {}) => ({ name: 'debug', image: 'image', ...o })
  it('Empty Ephemeral Containers', () => expect(eph()).toEqual([]))
  it('Single Container', () => expect(eph(dbg())).toEqual([]))
  it('Multiple Containers', () => expect(eph(dbg({ name: 'debug1' }), dbg({ name: 'debug2' }))).toEqual([]))
  it('Single Container with Target', () => expect(eph(dbg({ targetContainerName: 'ctr' }))).toEqual([]))
  it('All allowed fields', () =>
    expect(
      eph(
        dbg({
          command: ['bash'],
          args: ['bash'],
          workingDir: '/',
          envFrom: [{ configMapRef: { name: 'dummy' } }],
          env: [{ name: 'TEST', value: 'TRUE' }],
          volumeMounts: [{ name: 'vol', mountPath: '/vol' }],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          securityContext: { capabilities: { add: ['SYS_ADMIN'] } },
          stdin: true,
          stdinOnce: true,
          tty: true,
        }),
      ),
    ).toEqual([]))
  const cases: [string, O[], string[]][] = [
    [
      'Name Collision with Container.Containers',
      [dbg({ name: 'ctr' }), dbg({ name: 'debug1' })],
      ['spec.ephemeralContainers[0].name FieldValueDuplicate'],
    ],
    [
      'Name Collision with Container.InitContainers',
      [dbg({ name: 'ictr' }), dbg({ name: 'debug1' })],
      ['spec.ephemeralContainers[0].name FieldValueDuplicate'],
    ],
    [
      'Name Collision with EphemeralContainers',
      [dbg({ name: 'debug1' }), dbg({ name: 'debug1' })],
      ['spec.ephemeralContainers[1].name FieldValueDuplicate'],
    ],
    // imagePullPolicy and terminationMessagePolicy are defaulted for a v1 ephemeral container
    [
      'empty Container',
      [{}],
      ['spec.ephemeralContainers[0].name FieldValueRequired', 'spec.ephemeralContainers[0].image FieldValueRequired'],
    ],
    ['empty Container Name', [dbg({ name: '' })], ['spec.ephemeralContainers[0].name FieldValueRequired']],
    [
      'whitespace padded image name',
      [dbg({ image: ' image' })],
      ['spec.ephemeralContainers[0].image FieldValueInvalid'],
    ],
    [
      'invalid image pull policy',
      [dbg({ imagePullPolicy: 'PullThreeTimes' })],
      ['spec.ephemeralContainers[0].imagePullPolicy FieldValueNotSupported'],
    ],
    [
      "TargetContainerName doesn't exist",
      [dbg({ targetContainerName: 'bogus' })],
      ['spec.ephemeralContainers[0].targetContainerName FieldValueNotFound'],
    ],
    [
      'Targets an ephemeral container',
      [dbg(), dbg({ name: 'debugception', targetContainerName: 'debug' })],
      ['spec.ephemeralContainers[1].targetContainerName FieldValueNotFound'],
    ],
    [
      'Container uses disallowed field: Lifecycle',
      [dbg({ lifecycle: { preStop: { exec: { command: ['ls', '-l'] } } } })],
      ['spec.ephemeralContainers[0].lifecycle FieldValueForbidden'],
    ],
    [
      'Container uses disallowed field: LivenessProbe',
      [dbg({ livenessProbe: { tcpSocket: { port: 80 }, successThreshold: 1 } })],
      ['spec.ephemeralContainers[0].livenessProbe FieldValueForbidden'],
    ],
    [
      'Container uses disallowed field: Ports',
      [dbg({ ports: [{ protocol: 'TCP', containerPort: 80 }] })],
      ['spec.ephemeralContainers[0].ports FieldValueForbidden'],
    ],
    [
      'Container uses disallowed field: ReadinessProbe',
      [dbg({ readinessProbe: { tcpSocket: { port: 80 } } })],
      ['spec.ephemeralContainers[0].readinessProbe FieldValueForbidden'],
    ],
    [
      'Container uses disallowed field: StartupProbe',
      [dbg({ startupProbe: { tcpSocket: { port: 80 }, successThreshold: 1 } })],
      ['spec.ephemeralContainers[0].startupProbe FieldValueForbidden'],
    ],
    [
      'Container uses disallowed field: Resources',
      [dbg({ resources: { limits: { cpu: '10' } } })],
      ['spec.ephemeralContainers[0].resources FieldValueForbidden'],
    ],
    [
      'Container uses disallowed field: VolumeMount.SubPath',
      [
        dbg({
          volumeMounts: [
            { name: 'vol', mountPath: '/vol' },
            { name: 'vol', mountPath: '/volsub', subPath: 'foo' },
          ],
        }),
      ],
      ['spec.ephemeralContainers[0].volumeMounts[1].subPath FieldValueForbidden'],
    ],
    [
      'Container uses disallowed field: VolumeMount.SubPathExpr',
      [
        dbg({
          volumeMounts: [
            { name: 'vol', mountPath: '/vol' },
            { name: 'vol', mountPath: '/volsub', subPathExpr: '$(POD_NAME)' },
          ],
        }),
      ],
      ['spec.ephemeralContainers[0].volumeMounts[1].subPathExpr FieldValueForbidden'],
    ],
    [
      'Disallowed field with other errors should only return a single Forbidden',
      [dbg({ lifecycle: { preStop: { exec: { command: [] } } } })],
      ['spec.ephemeralContainers[0].lifecycle FieldValueForbidden'],
    ],
    [
      'Container uses disallowed field: ResizePolicy',
      [dbg({ resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] })],
      ['spec.ephemeralContainers[0].resizePolicy FieldValueForbidden'],
    ],
    ...['Always', 'OnFailure', 'Never', 'invalid', 'empty'].map((p): [string, O[], string[]] => [
      `Forbidden RestartPolicy: ${p}`,
      [dbg({ name: 'foo', restartPolicy: p === 'empty' ? '' : p })],
      ['spec.ephemeralContainers[0].restartPolicy FieldValueForbidden'],
    ]),
  ]
  for (const [name, ecs, want] of cases) it(name, () => expect(eph(...ecs)).toEqual(want))
  it('the create rule', () =>
    expect(texts(pod({ ...base, ephemeralContainers: [dbg()] }))).toEqual([
      'spec.ephemeralContainers: Forbidden: cannot be set on create',
    ]))
})

describe('TestValidateContainerRestartPolicy (regular containers; ContainerRestartRules on from 1.35)', () => {
  const rule = (action: string, operator: string | undefined, values: number[] = [42]) =>
    operator === undefined ? { action } : { action, exitCodes: { operator, values } }
  const c = (restartPolicy: string | undefined, rules?: O[], minor = 37) =>
    fieldTypes(
      withCtr({
        ...(restartPolicy === undefined ? {} : { restartPolicy }),
        ...(rules ? { restartPolicyRules: rules } : {}),
      }),
      undefined,
      minor,
    )
  it('valid policies', () => {
    for (const p of ['Always', 'Never', 'OnFailure']) expect(c(p)).toEqual([])
    expect(c('Never', [rule('Restart', 'In')])).toEqual([])
    // RestartAllContainersOnContainerExits: beta, on from 1.36
    expect(c('Never', [rule('RestartAllContainers', 'In')])).toEqual([])
  })
  const cases: [string, string | undefined, O[] | undefined, string[]][] = [
    ['invalid restartPolicy', 'invalid', undefined, ['spec.containers[0].restartPolicy FieldValueNotSupported']],
    ['empty restartPolicy', '', undefined, ['spec.containers[0].restartPolicy FieldValueNotSupported']],
    [
      'rules without restartPolicy',
      undefined,
      [rule('Restart', 'In')],
      ['spec.containers[0].restartPolicy FieldValueRequired'],
    ],
    [
      'invalid action',
      'Never',
      [rule('invalid', 'In')],
      ['spec.containers[0].restartPolicyRules[0].action FieldValueNotSupported'],
    ],
    [
      'empty action',
      'Never',
      [rule('', 'In')],
      ['spec.containers[0].restartPolicyRules[0].action FieldValueNotSupported'],
    ],
    [
      'missing exitCodes',
      'Never',
      [rule('Restart', undefined)],
      ['spec.containers[0].restartPolicyRules[0].exitCodes FieldValueRequired'],
    ],
    [
      'invalid ExitCodes Operator',
      'Never',
      [rule('Restart', 'invalid')],
      ['spec.containers[0].restartPolicyRules[0].exitCodes.operator FieldValueNotSupported'],
    ],
    [
      'empty ExitCodes Operator',
      'Never',
      [rule('Restart', '')],
      ['spec.containers[0].restartPolicyRules[0].exitCodes.operator FieldValueNotSupported'],
    ],
    [
      'too many exit codes',
      'Never',
      [rule('Restart', 'In', Array(256).fill(0))],
      ['spec.containers[0].restartPolicyRules[0].exitCodes.values FieldValueTooMany'],
    ],
    [
      'too many rules',
      'Never',
      Array(21).fill(rule('Restart', 'In')),
      ['spec.containers[0].restartPolicyRules FieldValueTooMany'],
    ],
  ]
  for (const [name, p, rules, want] of cases) it(name, () => expect(c(p, rules)).toEqual(want))
  it('before 1.35: restartPolicy may not be set for non-init containers', () =>
    expect(texts(withCtr({ restartPolicy: 'Always' }), undefined, 34)).toEqual([
      'spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers',
    ]))
  it('1.35: RestartAllContainers is not an allowed action yet', () =>
    expect(
      texts(
        withCtr({ restartPolicy: 'Never', restartPolicyRules: [rule('RestartAllContainers', 'In')] }),
        undefined,
        35,
      ),
    ).toEqual([
      'spec.containers[0].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"',
    ]))
})

describe('TestValidateInitContainers: sidecars and init container rules', () => {
  it('a sidecar (restartPolicy Always) may carry probes and lifecycle', () =>
    expect(
      texts(
        withInit({
          restartPolicy: 'Always',
          lifecycle: { postStart: { exec: { command: ['x'] } }, preStop: { sleep: { seconds: 1 } } },
          livenessProbe: { exec: { command: ['x'] } },
          readinessProbe: { exec: { command: ['x'] } },
          startupProbe: { exec: { command: ['x'] } },
        }),
      ),
    ).toEqual([]))
  it('a sidecar probe is validated', () =>
    expect(
      texts(withInit({ restartPolicy: 'Always', livenessProbe: { exec: { command: ['x'] }, successThreshold: 2 } })),
    ).toEqual(['spec.initContainers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1']))
  it('a regular init container may not carry probes or lifecycle', () =>
    expect(
      texts(
        withInit({
          lifecycle: { postStart: { exec: { command: ['x'] } } },
          livenessProbe: { exec: { command: ['x'] } },
          readinessProbe: { exec: { command: ['x'] } },
          startupProbe: { exec: { command: ['x'] } },
        }),
      ),
    ).toEqual([
      'spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
    ]))
  it('init container restartPolicy (validateInitContainerRestartPolicy)', () => {
    expect(texts(withInit({ restartPolicy: 'Never' }))).toEqual([])
    expect(texts(withInit({ restartPolicy: 'Never' }), undefined, 34)).toEqual([
      'spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ])
    expect(
      fieldTypes(
        withInit({
          restartPolicy: 'Always',
          restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [1] } }],
        }),
        undefined,
        35,
      ),
    ).toEqual(['spec.initContainers[0].restartPolicyRules FieldValueForbidden'])
  })
  it("a non-sidecar init container's resizePolicy may not be RestartContainer", () =>
    expect(texts(withInit({ resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }))).toEqual([
      `spec.initContainers[0].resizePolicy[0].restartPolicy: Invalid value: "RestartContainer": must not be set to 'RestartContainer' for non-sidecar initContainers`,
    ]))
  it('names are unique across init and regular containers', () =>
    expect(fieldTypes(withInit({ name: 'ctr' }))).toEqual(['spec.initContainers[0].name FieldValueDuplicate']))
  it('host port conflicts: each init container alone, the path indexed 0 (AccumulateUniqueHostPorts)', () =>
    expect(
      texts(
        pod({
          initContainers: [
            { name: 'a', image: 'i', ports: [{ containerPort: 80, hostPort: 80 }] },
            {
              name: 'b',
              image: 'i',
              ports: [
                { containerPort: 80, hostPort: 80 },
                { containerPort: 81, hostPort: 80 },
              ],
            },
          ],
        }),
      ),
    ).toEqual(['spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//80"']))
  it('host port conflicts across regular containers', () =>
    expect(
      fieldTypes(
        pod({
          containers: [
            { name: 'a', image: 'i', ports: [{ containerPort: 80, hostPort: 80 }] },
            { name: 'b', image: 'i', ports: [{ containerPort: 81, hostPort: 80 }] },
          ],
        }),
      ),
    ).toEqual(['spec.containers[1].ports[0].hostPort FieldValueDuplicate']))
})

describe('TestValidateContainers: lifecycle cases', () => {
  it('valid lifecycle handlers', () =>
    expect(
      texts(
        withCtr({
          lifecycle: {
            postStart: { httpGet: { path: '/', port: 80 } },
            preStop: { tcpSocket: { port: 'http' } },
          },
        }),
      ),
    ).toEqual([]))
  it('invalid lifecycle, no exec command', () =>
    expect(fieldTypes(withCtr({ lifecycle: { preStop: { exec: {} } } }))).toEqual([
      'spec.containers[0].lifecycle.preStop.exec.command FieldValueRequired',
    ]))
  it('invalid lifecycle, no http path is defaulted', () =>
    expect(texts(withCtr({ lifecycle: { preStop: { httpGet: { port: 80 } } } }))).toEqual([]))
  it('invalid lifecycle, no action', () =>
    expect(texts(withCtr({ lifecycle: { preStop: {} } }))).toEqual([
      'spec.containers[0].lifecycle.preStop: Required value: must specify a handler type',
    ]))
  it('invalid lifecycle, invalid tcp port', () =>
    expect(fieldTypes(withCtr({ lifecycle: { postStart: { tcpSocket: { port: 0 } } } }))).toEqual([
      'spec.containers[0].lifecycle.postStart.tcpSocket.port FieldValueInvalid',
    ]))
  it('stopSignal is dropped in every supported release (ContainerStopSignals alpha): not validated', () =>
    expect(texts(withCtr({ lifecycle: { stopSignal: 'SIGHUP' } }))).toEqual([]))
})

describe('TestValidatePullPolicy', () => {
  it('valid', () => {
    for (const imagePullPolicy of ['Never', 'IfNotPresent', 'Always'])
      expect(texts(withCtr({ imagePullPolicy }))).toEqual([])
  })
  it('invalid', () =>
    expect(texts(withCtr({ imagePullPolicy: 'Sometimes' }))).toEqual([
      'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    ]))
})
