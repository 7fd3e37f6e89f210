import { describe, expect, it } from 'vitest'
import { decodeBuiltin } from '../../src/builtin/index.js'
import { DefaultPodLevelResources } from '../../src/builtin/pod-level-resources.js'
import { mutatePodAffinity, mutateTopologySpreadConstraints, preparePod } from '../../src/builtin/pod-prepare.js'
import { preparedForCreate } from '../../src/builtin/prepared.js'
import { quantity } from '../../src/builtin/validation/core/resources.js'
import { defaultFeatureGates, type FeatureGate, type FeatureGates } from '../../src/kube/feature-gates.js'
import type { JSONObject } from '../../src/kube/values/json.js'

// The Pod strategy's PrepareForCreate / PrepareForUpdate (src/builtin/pod-prepare.ts, pod-level-resources.ts) and the
// decoding-time pod-level defaulting of 1.34–1.36 (src/builtin/defaults.ts SetDefaults_Pod). Expected values: the
// tables of kubernetes v1.37.2 pkg/registry/core/pod/strategy_test.go and pkg/apis/core/v1/defaults_test.go, named
// per block; the real apiserver's answers are the differential group pod-prepare (test/e2e/differential/cases/).

type O = Record<string, any>
const on37 = defaultFeatureGates(37)
/** The 1.37 defaults with some gates set otherwise (featuregatetesting.SetFeatureGateDuringTest). */
const gates =
  (set: Partial<Record<FeatureGate, boolean>>): FeatureGates =>
  (g) =>
    set[g] ?? on37(g)

/** getResourceList(cpu, memory) of strategy_test.go: an empty string leaves the resource out. */
function rl(cpu: string, memory: string): O {
  const out: O = {}
  if (cpu !== '') out.cpu = cpu
  if (memory !== '') out.memory = memory
  return out
}
/** newContainer / newSidecarContainer; a nil list is left out. */
const ctr = (name: string, requests?: O, limits?: O, sidecar = false): O => ({
  name,
  ...(sidecar ? { restartPolicy: 'Always' } : {}),
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
})
/** cmp.Diff on ResourceLists: the same names, each Quantity equal (Quantity's Equal: numerically). */
function expectList(got: unknown, want: O | undefined): void {
  const g = (got ?? {}) as O
  const w = want ?? {}
  expect(Object.keys(g).sort()).toEqual(Object.keys(w).sort())
  for (const k of Object.keys(w)) expect(quantity(g[k])?.cmp(quantity(w[k])!), `${k}: ${g[k]} vs ${w[k]}`).toBe(0)
}

describe('DefaultPodLevelResources (strategy_test.go TestApplyPodLevelResourceDefaults)', () => {
  // [name, plrEnabled, plrFixEnabled, containers, initContainers, pod resources, wantRequests, wantLimits]
  const cases: [string, boolean, boolean, O[], O[], O | undefined, O | undefined, O | undefined][] = [
    [
      'nil resources struct',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))],
      [],
      undefined,
      undefined,
      undefined,
    ],
    [
      'empty resources struct',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))],
      [],
      {},
      undefined,
      undefined,
    ],
    [
      'empty requests map',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))],
      [],
      { requests: {} },
      undefined,
      undefined,
    ],
    [
      'empty limits map',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))],
      [],
      { limits: {} },
      undefined,
      undefined,
    ],
    [
      'empty requests and limits maps',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))],
      [],
      { requests: {}, limits: {} },
      undefined,
      undefined,
    ],
    [
      'memory request set, container limits set for CPU',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '')), ctr('c2', rl('200m', '128Mi'), rl('200m', ''))],
      [],
      { requests: rl('', '256Mi') },
      rl('300m', '256Mi'),
      rl('300m', ''),
    ],
    [
      'memory request set, container limits set for memory',
      true,
      true,
      [ctr('c1', rl('', '128Mi'), rl('', '128Mi')), ctr('c2', rl('', '128Mi'), rl('', '128Mi'))],
      [],
      { requests: rl('', '256Mi') },
      rl('', '256Mi'),
      rl('', '256Mi'),
    ],
    [
      'memory request set, containers have CPU reqs (5m, 6m) and limits (9m, 10m)',
      true,
      true,
      [ctr('c1', rl('5m', ''), rl('9m', '')), ctr('c2', rl('6m', ''), rl('10m', ''))],
      [],
      { requests: rl('', '256Mi') },
      rl('11m', '256Mi'),
      rl('19m', ''),
    ],
    [
      'pod-level CPU request set, containers have memory requests (128Mi, 128Mi) and limits (256Mi, 256Mi)',
      true,
      true,
      [ctr('c1', rl('', '128Mi'), rl('', '256Mi')), ctr('c2', rl('', '128Mi'), rl('', '256Mi'))],
      [],
      { requests: rl('200m', '') },
      rl('200m', '256Mi'),
      rl('', '512Mi'),
    ],
    [
      'limits defaulted from container limits when requests set',
      true,
      true,
      [ctr('c1', rl('', ''), rl('100m', '128Mi')), ctr('c2', rl('', ''), rl('100m', '128Mi'))],
      [],
      { requests: rl('200m', '256Mi') },
      rl('200m', '256Mi'),
      rl('200m', '256Mi'),
    ],
    [
      'limits not defaulted when container missing limits',
      true,
      true,
      [ctr('c1', rl('50m', '64Mi'), rl('100m', '128Mi')), ctr('c2', rl('50m', '64Mi'), rl('', ''))],
      [],
      { requests: rl('200m', '256Mi') },
      rl('200m', '256Mi'),
      undefined,
    ],
    [
      'partial limit defaulting - cpu set, memory not',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi')), ctr('c2', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [],
      { requests: rl('200m', '256Mi'), limits: rl('200m', '') },
      rl('200m', '256Mi'),
      rl('200m', '256Mi'),
    ],
    [
      'pod memory limit set, CPU limit defaulted from containers',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi')), ctr('c2', rl('80m', '128Mi'), rl('100m', '128Mi'))],
      [],
      { requests: rl('', '256Mi'), limits: rl('', '256Mi') },
      rl('180m', '256Mi'),
      rl('200m', '256Mi'),
    ],
    [
      'both limits already set - no defaulting',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [],
      { requests: rl('100m', '128Mi'), limits: rl('500m', '512Mi') },
      rl('100m', '128Mi'),
      rl('500m', '512Mi'),
    ],
    [
      'CPU limit defaulted, memory limit skipped when container missing memory limit',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi')), ctr('c2', rl('100m', '128Mi'), rl('100m', ''))],
      [],
      { requests: rl('', '256Mi') },
      rl('200m', '256Mi'),
      rl('200m', ''),
    ],
    [
      'CPU limit defaulted when all containers set CPU limit and none set memory limit',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '')), ctr('c2', rl('100m', '128Mi'), rl('100m', ''))],
      [],
      { requests: rl('200m', '256Mi') },
      rl('200m', '256Mi'),
      rl('200m', ''),
    ],
    [
      'memory limit defaulted, CPU limit skipped when container missing CPU limit',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi')), ctr('c2', rl('100m', '128Mi'), rl('', '128Mi'))],
      [],
      { requests: rl('200m', '256Mi') },
      rl('200m', '256Mi'),
      rl('', '256Mi'),
    ],
    [
      'init container with limits included in defaulting',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [ctr('init1', rl('200m', '256Mi'), rl('200m', '256Mi'))],
      { requests: rl('200m', '256Mi') },
      rl('200m', '256Mi'),
      rl('200m', '256Mi'),
    ],
    [
      'init container missing limits - no limit defaulting',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [ctr('init1', rl('200m', '256Mi'), rl('', ''))],
      { requests: rl('200m', '256Mi') },
      rl('200m', '256Mi'),
      undefined,
    ],
    [
      'sidecar container with limits included in defaulting',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [ctr('sidecar', rl('50m', '64Mi'), rl('50m', '64Mi'), true)],
      { requests: rl('150m', '192Mi') },
      rl('150m', '192Mi'),
      rl('150m', '192Mi'),
    ],
    [
      'sidecar container missing limits - no limit defaulting',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [ctr('sidecar', rl('50m', '64Mi'), rl('', ''), true)],
      { requests: rl('150m', '192Mi') },
      rl('150m', '192Mi'),
      undefined,
    ],
    [
      'limit raised to pod request when aggr limit less than request',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [],
      { requests: rl('500m', '512Mi') },
      rl('500m', '512Mi'),
      rl('500m', '512Mi'),
    ],
    [
      'single container limit defaulting',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))],
      [],
      { requests: rl('100m', '128Mi') },
      rl('100m', '128Mi'),
      rl('200m', '256Mi'),
    ],
    [
      'pod requests defaulted from container requests when limits set',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))],
      [],
      { limits: rl('500m', '512Mi') },
      rl('100m', '128Mi'),
      rl('500m', '512Mi'),
    ],
    [
      'pod requests not defaulted from containers when gate off',
      true,
      false,
      [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))],
      [],
      { limits: rl('500m', '512Mi') },
      undefined,
      rl('500m', '512Mi'),
    ],
    [
      'feature gate PodLevelResourcesFixDefaulting off - no limit defaulting',
      true,
      false,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [],
      { requests: rl('100m', '128Mi') },
      rl('100m', '128Mi'),
      undefined,
    ],
    [
      'main feature gate PodLevelResources off - no limit defaulting',
      false,
      false,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [],
      { requests: rl('100m', '128Mi') },
      rl('100m', '128Mi'),
      undefined,
    ],
    [
      'spec.resources is nil - noop',
      true,
      true,
      [ctr('c1', rl('100m', '128Mi'), rl('100m', '128Mi'))],
      [],
      undefined,
      undefined,
      undefined,
    ],
    [
      'unsupported resources ignored in limit defaulting',
      true,
      true,
      [ctr('c1', { 'example.com/gpu': '1' }, { 'example.com/gpu': '1' })],
      [],
      { requests: { 'example.com/gpu': '1' } },
      { 'example.com/gpu': '1' },
      undefined,
    ],
  ]
  it.each(cases)('%s', (_name, plr, fix, containers, initContainers, resources, wantRequests, wantLimits) => {
    const spec: O = { containers, ...(initContainers.length > 0 ? { initContainers } : {}) }
    if (resources !== undefined) spec.resources = structuredClone(resources)
    const pod: O = { spec }
    DefaultPodLevelResources(pod, gates({ PodLevelResources: plr, PodLevelResourcesFixDefaulting: fix }))
    expectList(pod.spec.resources?.requests, wantRequests)
    expectList(pod.spec.resources?.limits, wantLimits)
  })
})

describe('PrepareForUpdate (strategy_test.go TestPrepareForUpdatePodLevelResources, the rows of the pod strategy)', () => {
  // the rows through ResizeStrategy are the resize subresource's, which kelp does not write
  const containers = [ctr('c1', rl('100m', '128Mi'), rl('200m', '256Mi'))]
  const pod = (resources?: O): O => ({
    metadata: { name: 'plr-update' },
    spec: { containers: structuredClone(containers), ...(resources ? { resources } : {}) },
  })
  it('client omits spec.resources on update (nil) for non-resize strategy - preserves old PLR', () => {
    const old = pod({ requests: rl('200m', '256Mi'), limits: rl('200m', '256Mi') })
    const next = pod()
    preparePod(next, old, on37)
    expectList(next.spec.resources.requests, rl('200m', '256Mi'))
    expectList(next.spec.resources.limits, rl('200m', '256Mi'))
    // a copy: the old object is not shared
    expect(next.spec.resources).not.toBe(old.spec.resources)
  })
  it('PLR-aware client explicitly updates spec.resources', () => {
    const next = pod({ requests: rl('300m', '512Mi'), limits: rl('300m', '512Mi') })
    preparePod(next, pod({ requests: rl('200m', '256Mi'), limits: rl('200m', '256Mi') }), on37)
    expectList(next.spec.resources.requests, rl('300m', '512Mi'))
    expectList(next.spec.resources.limits, rl('300m', '512Mi'))
  })
  it('before 1.37 (PodLevelResourcesFixDefaulting off) an omitted spec.resources stays omitted', () => {
    const next = pod()
    preparePod(next, pod({ requests: rl('200m', '256Mi') }), defaultFeatureGates(36))
    expect(next.spec.resources).toBeUndefined()
  })
})

describe('mutatePodAffinity (strategy_test.go Test_mutatePodAffinity)', () => {
  const term = (o: O = {}): O => ({
    labelSelector: { matchLabels: { region: 'Asia' } },
    matchLabelKeys: ['country'],
    mismatchLabelKeys: ['city'],
    ...o,
  })
  const affinity = (t: () => O): O => ({
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [t()],
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: t() }],
    },
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [t()],
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: t() }],
    },
  })
  const pod = (t: () => O, labels: O = { country: 'Japan', city: 'Kyoto' }): O => ({
    metadata: { labels },
    spec: { affinity: affinity(t) },
  })
  const merged = [
    { key: 'country', operator: 'In', values: ['Japan'] },
    { key: 'city', operator: 'NotIn', values: ['Kyoto'] },
  ]

  it('matchLabelKeys are merged into labelSelector with In and mismatchLabelKeys are merged with NotIn', () => {
    const p = pod(term)
    mutatePodAffinity(p, on37)
    expect(p.spec.affinity).toEqual(
      affinity(() => term({ labelSelector: { matchLabels: { region: 'Asia' }, matchExpressions: merged } })),
    )
  })
  it('keys, which are not found in Pod labels, are ignored', () => {
    const p = pod(term, {})
    mutatePodAffinity(p, on37)
    expect(p.spec.affinity).toEqual(affinity(term))
  })
  it('matchLabelKeys is ignored if the labelSelector is nil', () => {
    const bare = () => ({ matchLabelKeys: ['country'], mismatchLabelKeys: ['city'] })
    const p = pod(bare)
    mutatePodAffinity(p, on37)
    expect(p.spec.affinity).toEqual(affinity(bare))
  })
  it('the feature gate is disabled and matchLabelKeys is ignored', () => {
    const p = pod(term)
    mutatePodAffinity(p, gates({ MatchLabelKeysInPodAffinity: false }))
    expect(p.spec.affinity).toEqual(affinity(term))
  })
})

describe('mutateTopologySpreadConstraints (strategy_test.go Test_mutateTopologySpreadConstraints)', () => {
  const constraint = (o: O = {}): O => ({
    labelSelector: { matchLabels: { region: 'Asia' } },
    matchLabelKeys: ['country'],
    ...o,
  })
  const pod = (c: O, labels: O = { country: 'Japan', city: 'Kyoto' }): O => ({
    metadata: { labels },
    spec: { topologySpreadConstraints: [c] },
  })
  it('matchLabelKeys are merged into labelSelector with In', () => {
    const p = pod(constraint())
    mutateTopologySpreadConstraints(p, on37)
    expect(p.spec.topologySpreadConstraints).toEqual([
      constraint({
        labelSelector: {
          matchLabels: { region: 'Asia' },
          matchExpressions: [{ key: 'country', operator: 'In', values: ['Japan'] }],
        },
      }),
    ])
  })
  it('keys, which are not found in Pod labels, are ignored', () => {
    const p = pod(constraint(), {})
    mutateTopologySpreadConstraints(p, on37)
    expect(p.spec.topologySpreadConstraints).toEqual([constraint()])
  })
  it('matchLabelKeys is ignored if the labelSelector is nil', () => {
    const p = pod({ matchLabelKeys: ['country'] })
    mutateTopologySpreadConstraints(p, on37)
    expect(p.spec.topologySpreadConstraints).toEqual([{ matchLabelKeys: ['country'] }])
  })
  it('matchLabelKeys are not merged into labelSelector when MatchLabelKeysInPodTopologySpreadSelectorMerge is false', () => {
    const p = pod(constraint())
    mutateTopologySpreadConstraints(p, gates({ MatchLabelKeysInPodTopologySpreadSelectorMerge: false }))
    expect(p.spec.topologySpreadConstraints).toEqual([constraint()])
  })
  it('per release: merged from 1.34 (the SelectorMerge gate), not in 1.33', () => {
    for (const [minor, merged] of [
      [33, false],
      [34, true],
      [37, true],
    ] as const) {
      const p = pod(constraint())
      mutateTopologySpreadConstraints(p, defaultFeatureGates(minor))
      expect(p.spec.topologySpreadConstraints[0].labelSelector.matchExpressions !== undefined, `1.${minor}`).toBe(
        merged,
      )
    }
  })
  it('a `__proto__` label key is an own label like any other (hostile input)', () => {
    const labels = JSON.parse('{"__proto__": "x"}') as O
    const p = pod(constraint({ matchLabelKeys: ['__proto__', 'constructor', 'toString'] }), labels)
    mutateTopologySpreadConstraints(p, on37)
    expect(p.spec.topologySpreadConstraints[0].labelSelector.matchExpressions).toEqual([
      { key: '__proto__', operator: 'In', values: ['x'] },
    ])
  })
})

describe('the SchedulingGated condition and the QoS class (strategy_test.go TestSchedulingGatedCondition)', () => {
  const decoded = (spec: O): JSONObject =>
    decodeBuiltin({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }, { minor: 37 })!.object as JSONObject
  const prepared = (spec: O): O => {
    const pod = decoded(spec)
    preparePod(pod, undefined, on37)
    return preparedForCreate(pod, { namespace: 'ns', namespaced: true, minor: 37 }) as O
  }
  it('pod without .spec.schedulingGates: no condition', () => {
    expect(prepared({ containers: [{ name: 'c', image: 'i' }] }).status.conditions).toBeUndefined()
  })
  it('pod with .spec.schedulingGates: PodScheduled False, SchedulingGated, with a transition time', () => {
    const c = prepared({ schedulingGates: [{ name: 'foo' }], containers: [{ name: 'c', image: 'i' }] }).status
      .conditions
    expect(c).toHaveLength(1)
    expect(c[0]).toMatchObject({
      type: 'PodScheduled',
      status: 'False',
      reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
    })
    expect(c[0].lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })
  it('the QoS class of the defaulted pod-level resources (apiserver 1.37.2: pp-plr-requests is Guaranteed)', () => {
    // requests only at pod level; the containers' limits sum to them, so the defaulted limits equal the requests
    const status = prepared({
      resources: { requests: { cpu: '1', memory: '256Mi' } },
      containers: [
        { name: 'a', image: 'i', resources: { limits: { cpu: '500m', memory: '128Mi' } } },
        { name: 'b', image: 'i', resources: { limits: { cpu: '250m', memory: '64Mi' } } },
      ],
    }).status
    expect(status.qosClass).toBe('Guaranteed')
  })
})

describe('the QoS class per release (pkg/apis/core/helper/qos ComputePodQOS)', () => {
  const qos = (minor: number, spec: O): string => {
    const pod = decodeBuiltin({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }, { minor })!
      .object as JSONObject
    preparePod(pod, undefined, defaultFeatureGates(minor))
    return (preparedForCreate(pod, { namespace: 'ns', namespaced: true, minor }) as O).status.qosClass
  }
  const guaranteed = [{ name: 'a', image: 'i', resources: { limits: { cpu: '100m', memory: '64Mi' } } }]
  it("`resources: {}`: the containers' class in 1.37 (IsPodLevelResourcesSet; apiserver 1.37.2: Guaranteed)", () => {
    expect(qos(37, { resources: {}, containers: guaranteed })).toBe('Guaranteed')
  })
  it('`resources: {}`: pod-level and empty in 1.34–1.36 (PodLevelResourcesFixKubeletQOSClass off: v1.36.0 qos.go)', () => {
    for (const minor of [34, 35, 36])
      expect(qos(minor, { resources: {}, containers: guaranteed }), `1.${minor}`).toBe('BestEffort')
  })
  it('before 1.34 (PodLevelResources off) the containers decide', () => {
    expect(qos(33, { resources: {}, containers: guaranteed })).toBe('Guaranteed')
  })
})

describe('pod-level requests at decoding before PodLevelResourcesFixDefaulting (defaults_test.go TestPodResourcesDefaults)', () => {
  const spec = (minor: number, s: O): O =>
    (decodeBuiltin({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: s }, { minor })!.object as O).spec
  const two = [
    { name: 'a', image: 'i', resources: { requests: rl('1m', '1Mi'), limits: rl('2m', '1Mi') } },
    { name: 'b', image: 'i', resources: { requests: rl('1m', '2Mi'), limits: rl('1m', '5Mi') } },
  ]
  it("pod requests=unset limits=set, container requests=set limits=set: the containers' sum (1.34–1.36)", () => {
    for (const minor of [34, 35, 36]) {
      const s = spec(minor, { resources: { limits: rl('4m', '8Mi') }, containers: two })
      expectList(s.resources.requests, rl('2m', '3Mi'))
      expectList(s.resources.limits, rl('4m', '8Mi'))
    }
  })
  it('not at decoding in 1.37 (the strategy does it) nor before 1.34 (PodLevelResources off)', () => {
    for (const minor of [33, 37]) {
      const s = spec(minor, { resources: { limits: rl('4m', '8Mi') }, containers: two })
      expect(s.resources.requests, `1.${minor}`).toBeUndefined()
    }
  })
  it('pod has cpu limit with hugepages requests=unset limits=unset, container hugepages requests=unset limits=set', () => {
    const s = spec(36, {
      resources: { limits: { cpu: '5m' } },
      containers: [
        { name: 'a', image: 'i', resources: { limits: { cpu: '2m', 'hugepages-2Mi': '4Mi' } } },
        { name: 'b', image: 'i', resources: { limits: { cpu: '1m', 'hugepages-2Mi': '2Mi' } } },
      ],
    })
    expectList(s.resources.requests, { cpu: '3m', 'hugepages-2Mi': '6Mi' })
    expectList(s.resources.limits, { cpu: '5m', 'hugepages-2Mi': '6Mi' })
  })
  it('pod has cpu request with hugepages requests=unset limits=unset, container hugepages requests=unset limits=set', () => {
    const s = spec(36, {
      resources: { requests: { cpu: '5m' } },
      containers: [
        { name: 'a', image: 'i', resources: { limits: { cpu: '2m', 'hugepages-2Mi': '4Mi' } } },
        { name: 'b', image: 'i', resources: { limits: { cpu: '1m', 'hugepages-2Mi': '2Mi' } } },
      ],
    })
    expectList(s.resources.requests, { cpu: '5m', 'hugepages-2Mi': '6Mi' })
  })
  it('pod limits=set, container unsupported requests=set limits=set: only the supported ones', () => {
    const s = spec(36, {
      resources: { limits: rl('2m', '1Mi') },
      containers: [
        { name: 'a', image: 'i', resources: { requests: { storage: '1Mi' }, limits: { 'ephemeral-storage': '5Mi' } } },
      ],
    })
    expectList(s.resources.requests, rl('2m', '1Mi'))
  })
})

describe('the object written back', () => {
  it("sums are written as Go marshals the Quantity (the first operand's format), keys in Go's map order", () => {
    // apiserver 1.37.2 (differential case pp-plr-memory-only): 10Mi + 20M is "30485760"
    const pod: O = {
      spec: {
        resources: { limits: { memory: '100Mi' } },
        containers: [ctr('a', { memory: '10Mi', cpu: '10m' }), ctr('b', { memory: '20M' })],
      },
    }
    DefaultPodLevelResources(pod, on37)
    expect(pod.spec.resources.requests).toEqual({ cpu: '10m', memory: '30485760' })
    expect(Object.keys(pod.spec.resources.requests)).toEqual(['cpu', 'memory'])
  })
  it('a `__proto__` resource name is held as an own key (hostile input)', () => {
    const limits = JSON.parse('{"__proto__": "1", "cpu": "1"}') as O
    const pod: O = { spec: { resources: { limits }, containers: [ctr('a', JSON.parse('{"__proto__": "2"}'))] } }
    DefaultPodLevelResources(pod, on37)
    const requests = pod.spec.resources.requests as O
    expect(Object.hasOwn(requests, '__proto__')).toBe(false)
    expect(requests.cpu).toBe('1')
    expect(Object.getPrototypeOf(requests)).toBe(Object.prototype)
  })
})
