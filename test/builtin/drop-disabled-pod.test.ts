import { describe, expect, it } from 'vitest'
import { DropDisabledPodFields } from '../../src/builtin/drop-disabled-pod.js'
import type { FeatureGate, FeatureGates } from '../../src/kube/feature-gates.js'

// Transcribed from kubernetes v1.37.2 pkg/api/pod/util_test.go: each TestDrop* builds pods with and without
// the gated field and, for the gate on and off, every old × new pair: the new pod is unchanged when the
// gate is on or the old pod uses the field, loses the field when only the new one has it, and is unchanged
// otherwise. The gate set is the test's (featuregatetesting.SetFeatureGateDuringTest); the release defaults
// are tested in feature-gates.test.ts.

type JSONObject = Record<string, unknown>
type Pod = JSONObject | null

interface PodInfo {
  readonly description: string
  readonly has: boolean
  readonly pod: () => Pod
}

const gates =
  (gate: FeatureGate, enabled: boolean): FeatureGates =>
  (g) =>
    g === gate ? enabled : true

/** The Go tests' loop: `without` is the new pod expected once the field is dropped. */
function matrix(gate: FeatureGate, podInfo: readonly PodInfo[], without: (newPod: JSONObject) => JSONObject) {
  const cases: [string, boolean, PodInfo, PodInfo][] = []
  for (const enabled of [true, false])
    for (const o of podInfo)
      for (const n of podInfo)
        if (n.pod() !== null)
          cases.push([`feature enabled=${enabled}, old pod ${o.description}, new pod ${n.description}`, enabled, o, n])
  it.each(cases)('%s', (_name, enabled, o, n) => {
    const oldPod = o.pod()
    const newPod = n.pod() as JSONObject
    DropDisabledPodFields(newPod, oldPod ?? undefined, gates(gate, enabled))
    expect(oldPod).toEqual(o.pod())
    if (enabled || o.has) expect(newPod).toEqual(n.pod())
    else if (n.has) expect(newPod).toEqual(without(n.pod() as JSONObject))
    else expect(newPod).toEqual(n.pod())
  })
}

const NIL: PodInfo = { description: 'is nil', has: false, pod: () => null }

describe('TestDropProcMount', () => {
  const pod = (procMount?: string) => ({
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'container1', image: 'testimage', securityContext: procMount ? { procMount } : {} }],
      initContainers: [{ name: 'container1', image: 'testimage', securityContext: procMount ? { procMount } : {} }],
    },
  })
  matrix(
    'ProcMountType',
    [
      { description: 'has ProcMount', has: true, pod: () => pod('Unmasked') },
      { description: 'has default ProcMount', has: false, pod: () => pod('Default') },
      { description: 'does not have ProcMount', has: false, pod: () => pod() },
      NIL,
    ],
    // forced to the default, not dropped (procMountInUse is false after it)
    () => pod('Default'),
  )
})

describe('TestDropHostUsers', () => {
  matrix(
    'UserNamespacesSupport',
    [
      { description: 'with hostUsers=true', has: true, pod: () => ({ spec: { hostUsers: true } }) },
      { description: 'with hostUsers=false', has: true, pod: () => ({ spec: { hostUsers: false } }) },
      { description: 'with hostUsers=nil', has: false, pod: () => null },
    ],
    () => ({ spec: {} }),
  )
})

describe('TestDropInPlacePodVerticalScaling', () => {
  const container = {
    name: 'c1',
    image: 'image',
    resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } },
  }
  const withPolicy = () => ({
    spec: {
      containers: [
        {
          ...container,
          resizePolicy: [
            { resourceName: 'cpu', restartPolicy: 'NotRequired' },
            { resourceName: 'memory', restartPolicy: 'RestartContainer' },
          ],
        },
      ],
    },
  })
  const withoutPolicy = () => ({ spec: { containers: [{ ...container }] } })
  matrix(
    'InPlacePodVerticalScaling',
    [
      { description: 'has in-place vertical scaling enabled with resources', has: true, pod: withPolicy },
      { description: 'has in-place vertical scaling disabled', has: false, pod: withoutPolicy },
      NIL,
    ],
    withoutPolicy,
  )
})

describe('TestDropPodLevelResources', () => {
  const containers = [{ name: 'c1', image: 'image', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }]
  const without = () => ({ spec: { containers } })
  const cases: PodInfo[] = [
    {
      description: 'has pod-level resources',
      has: true,
      pod: () => ({
        spec: {
          resources: { requests: { cpu: '100m', memory: '50Gi' }, limits: { cpu: '100m', memory: '50Gi' } },
          containers,
        },
      }),
    },
    { description: 'does not have pod-level resources', has: false, pod: without },
    NIL,
    { description: 'is empty struct', has: false, pod: () => ({ spec: { resources: {}, containers } }) },
    { description: 'is empty Requests list', has: false, pod: () => ({ spec: { resources: { requests: {} } } }) },
    { description: 'is empty Limits list', has: false, pod: () => ({ spec: { resources: { limits: {} } } }) },
  ]
  // the Go loop's default case expects nil pod-level resources whenever the gate is off and unused
  for (const enabled of [true, false])
    for (const o of cases)
      for (const n of cases) {
        if (n.pod() === null) continue
        it(`feature enabled=${enabled}, old pod ${o.description}, new pod ${n.description}`, () => {
          const newPod = n.pod() as JSONObject
          DropDisabledPodFields(newPod, o.pod() ?? undefined, gates('PodLevelResources', enabled))
          const spec = newPod.spec as JSONObject
          if (enabled || o.has) expect(newPod).toEqual(n.pod())
          else if (n.has) expect(newPod).toEqual(without())
          else expect(spec.resources).toBeUndefined()
        })
      }
})

describe('TestDropSupplementalGroupsPolicy', () => {
  const pod = (policy?: string) => ({
    spec: { securityContext: policy ? { supplementalGroupsPolicy: policy } : {} },
  })
  matrix(
    'SupplementalGroupsPolicy',
    [
      { description: 'with SupplementalGroupsPolicy and User', has: true, pod: () => pod('Strict') },
      { description: 'with nil', has: false, pod: () => pod() },
      NIL,
    ],
    () => pod(),
  )
})

describe('TestDropDynamicResourceAllocation', () => {
  const withClaims = () => ({
    spec: {
      containers: [{ resources: { claims: [{ name: 'my-claim' }] } }],
      initContainers: [{ resources: { claims: [{ name: 'my-claim' }] } }],
      ephemeralContainers: [{ resources: { claims: [{ name: 'my-claim' }] } }],
      resourceClaims: [{ name: 'my-claim', resourceClaimName: 'my-resource-claim' }],
    },
  })
  const withoutClaims = () => ({
    spec: {
      containers: [{ resources: {} }],
      initContainers: [{ resources: {} }],
      ephemeralContainers: [{ resources: {} }],
    },
  })
  matrix(
    'DynamicResourceAllocation',
    [
      { description: 'has claims', has: true, pod: withClaims },
      { description: 'does not have claims', has: false, pod: withoutClaims },
      NIL,
    ],
    withoutClaims,
  )
})

describe('TestDropContainerStopSignals', () => {
  const pod = (stopSignal?: string) => ({
    spec: {
      os: { name: 'linux' },
      containers: [
        {
          name: 'test-container',
          image: 'nginx',
          lifecycle: stopSignal
            ? { stopSignal, preStop: { exec: { command: ['sleep', '1'] } } }
            : { preStop: { exec: { command: ['sleep', '1'] } } },
        },
      ],
    },
  })
  matrix(
    'ContainerStopSignals',
    [
      { description: 'with stop signal', has: true, pod: () => pod('SIGTERM') },
      { description: 'without stop signal', has: false, pod: () => pod() },
      NIL,
    ],
    () => pod(),
  )
  it('a lifecycle left empty is dropped (wipeLifecycle)', () => {
    const p: JSONObject = { spec: { containers: [{ name: 'c', lifecycle: { stopSignal: 'SIGTERM' } }] } }
    DropDisabledPodFields(p, undefined, gates('ContainerStopSignals', false))
    expect(p).toEqual({ spec: { containers: [{ name: 'c' }] } })
  })
})

describe('TestDropSELinuxChangePolicy', () => {
  const pod = (policy?: string) => ({ spec: { securityContext: policy ? { seLinuxChangePolicy: policy } : {} } })
  matrix(
    'SELinuxChangePolicy',
    [
      { description: 'with Recursive', has: true, pod: () => pod('Recursive') },
      { description: 'with MountOption', has: true, pod: () => pod('MountOption') },
      { description: 'without policy', has: false, pod: () => pod() },
      NIL,
    ],
    () => pod(),
  )
})

describe('TestDropHostnameOverride', () => {
  matrix(
    'HostnameOverride',
    [
      {
        description: 'with HostnameOverride',
        has: true,
        pod: () => ({ spec: { hostnameOverride: 'custom-hostname' } }),
      },
      { description: 'without HostnameOverride', has: false, pod: () => ({ spec: {} }) },
      NIL,
    ],
    () => ({ spec: {} }),
  )
})

describe('TestDropImageVolumes', () => {
  const other = { name: 'volume-other', hostPath: {} }
  const withVolume = () => ({
    spec: {
      volumes: [{ name: 'volume', image: {} }, other],
      containers: [{ volumeMounts: [{ name: 'volume' }, { name: 'volume-other' }] }],
      initContainers: [{ volumeMounts: [{ name: 'volume' }] }],
      ephemeralContainers: [{ volumeMounts: [{ name: 'volume' }] }],
    },
  })
  const withoutVolume = () => ({
    spec: {
      volumes: [other],
      containers: [{ volumeMounts: [{ name: 'volume-other' }] }],
      initContainers: [{}],
      ephemeralContainers: [{}],
    },
  })
  const noPod = () => ({})
  const rows: [string, boolean, (() => JSONObject) | null, () => JSONObject, () => JSONObject][] = [
    ['old with volume / new with volume / disabled', false, withVolume, withVolume, withVolume],
    ['old without volume / new with volume / disabled', false, withoutVolume, withVolume, withoutVolume],
    ['no old pod/ new with volume / disabled', false, noPod, withVolume, withoutVolume],
    ['nil old pod/ new with volume / disabled', false, null, withVolume, withoutVolume],
    ['old with volume / new without volume / disabled', false, withVolume, withoutVolume, withoutVolume],
    ['old without volume / new without volume / disabled', false, withoutVolume, withoutVolume, withoutVolume],
    ['no old pod/ new without volume / disabled', false, noPod, withoutVolume, withoutVolume],
    ['old with volume / new with volume / enabled', true, withVolume, withVolume, withVolume],
    ['old without volume / new with volume / enabled', true, withoutVolume, withVolume, withVolume],
    ['no old pod/ new with volume / enabled', true, noPod, withVolume, withVolume],
    ['old with volume / new without volume / enabled', true, withVolume, withoutVolume, withoutVolume],
    ['old without volume / new without volume / enabled', true, withoutVolume, withoutVolume, withoutVolume],
    ['no old pod/ new without volume / enabled', true, noPod, withoutVolume, withoutVolume],
  ]
  it.each(rows)('%s', (_d, enabled, oldPod, newPod, wantPod) => {
    const got = newPod()
    DropDisabledPodFields(got, oldPod?.(), gates('ImageVolume', enabled))
    expect(got).toEqual(wantPod())
  })
})
