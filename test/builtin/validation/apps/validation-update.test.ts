import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/apps/validation.js'
import '../../../../src/builtin/validation/core/pod.js'
import { errors, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/apps/validation/validation_test.go TestValidateStatefulSetUpdate (Go
// compares field and type, sorted, ignoring values and details), and the release differences of
// ValidateStatefulSetUpdate / ValidatePodTemplateSpecForStatefulSet read from release-1.30, 1.33, 1.34 and
// 1.36. Objects are v1, decoded and defaulted first: podManagementPolicy defaults to OrderedReady, so
// Go's "update pod management policy 1" (from "" to OrderedReady) is no change on the wire and is not
// transcribed; the Recreate strategy cases with the (alpha) StatefulSetRecreateStrategy gate on are not
// either.

const labels = { a: 'b' }
const labels2 = { c: 'd' }
const ctr = (name = 'abc', extra: O = {}): O => ({
  name,
  image: 'image',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File',
  ...extra,
})
const template = (l: O = labels, containers: O[] = [ctr()]): O => ({
  metadata: { labels: l },
  spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', containers, terminationGracePeriodSeconds: 30 },
})
const withMounts = (): O => template(labels, [ctr('abc', { volumeMounts: [{ name: 'pvc-abc', mountPath: '/test' }] })])
const pvc = (name: string, storage: string, storageClassName: string, accessModes = ['ReadWriteOnce']): O => ({
  metadata: { name },
  spec: { accessModes, storageClassName, resources: { requests: { storage } } },
})
const sts = (tpl: O, spec: O = {}, meta: O = {}): O => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'abc', namespace: 'default', resourceVersion: '1', ...meta },
  spec: {
    podManagementPolicy: 'OrderedReady',
    selector: { matchLabels: labels },
    template: tpl,
    updateStrategy: { type: 'RollingUpdate' },
    ...spec,
  },
})
const sorted = (n: O, o: O, minor = 37) =>
  errors(n, o, minor)
    .map((e) => `${e.field} ${e.type}`)
    .sort()

const withSub = (k: 'subdomain' | 'hostname') => {
  const t = template()
  t.spec[k] = 'NoUppercaseOrSpecialCharsLike=Equals'
  return t
}
const bad = 'NoUppercaseOrSpecialCharsLike=Equals'

describe('TestValidateStatefulSetUpdate', () => {
  const two = template(labels, [ctr(), ctr('def', { image: 'image2' })])
  const success: [string, O, O][] = [
    ['update replica count', sts(template()), sts(template(), { replicas: 3 })],
    ['update containers 1', sts(template()), sts(two)],
    ['update containers 2', sts(two), sts(template())],
    [
      'update containers and pvc retention policy 1',
      sts(two),
      sts(template(), { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } }),
    ],
    [
      'update containers and pvc retention policy 2',
      sts(template(), { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Retain' } }),
      sts(template()),
    ],
    ['update update strategy', sts(template()), sts(template(), { updateStrategy: { type: 'OnDelete' } })],
    ['update min ready seconds 1', sts(template()), sts(template(), { minReadySeconds: 10 })],
    ['update min ready seconds 2', sts(template(), { minReadySeconds: 5 }), sts(template(), { minReadySeconds: 10 })],
    [
      'update existing instance with now-invalid name',
      sts(template(), {}, { finalizers: ['final'] }),
      sts(template(), {}, { finalizers: [] }),
    ],
    [
      'update existing instance with .spec.ordinals.start',
      sts(template()),
      sts(template(), { ordinals: { start: 3 } }),
    ],
    [
      'update with invalid .spec.serviceName',
      sts(template(), { serviceName: 'Invalid.Name' }),
      sts(template(), { serviceName: 'Invalid.Name', replicas: 3 }),
    ],
    [
      'invalid old spec (missing volume template) should skip validation',
      sts(withMounts()),
      sts(withMounts(), { replicas: 3 }),
    ],
    [
      'volume mount ',
      sts(template(), { volumeClaimTemplates: [pvc('pvc-abc', '1Gi', 'storage-class1')] }),
      sts(withMounts(), { volumeClaimTemplates: [pvc('pvc-abc', '1Gi', 'storage-class1')], replicas: 3 }),
    ],
    ['valid old spec, invalid subdomain in new spec', sts(template()), sts(withSub('subdomain'))],
    ['valid old spec, invalid hostname in new spec', sts(template()), sts(withSub('hostname'))],
    ['both invalid subdomain', sts(withSub('subdomain')), sts(withSub('subdomain'))],
    ['both invalid hostname', sts(withSub('hostname')), sts(withSub('hostname'))],
    [
      'invalid old spec (missing volume accessModes) should skip validation',
      sts(template(), { volumeClaimTemplates: [pvc('pvc-without-access-modes', '1Gi', 'storage-class1', [])] }),
      sts(template(), {
        volumeClaimTemplates: [pvc('pvc-without-access-modes', '1Gi', 'storage-class1', [])],
        replicas: 3,
      }),
    ],
    [
      'switch from Recreate to RollingUpdate, RecreateFG off',
      sts(template(), { updateStrategy: { type: 'Recreate' } }),
      sts(template(), { updateStrategy: { type: 'RollingUpdate' } }),
    ],
    [
      'switch from Recreate to OnDelete, RecreateFG off',
      sts(template(), { updateStrategy: { type: 'Recreate' } }),
      sts(template(), { updateStrategy: { type: 'OnDelete' } }),
    ],
  ]
  it.each(success)('%s', (_n, old, update) => {
    expect(sorted(update, old)).toEqual([])
  })

  const pvcs = [pvc('pvc-abc', '1Gi', 'storage-class1')]
  const failure: [string, O, O, string[]][] = [
    [
      'update name',
      sts(template(), {}, { name: 'abc' }),
      sts(template(), {}, { name: 'abc2' }),
      ['metadata.name FieldValueInvalid'],
    ],
    [
      'update namespace',
      sts(template(), {}, { namespace: 'default' }),
      sts(template(), {}, { namespace: 'default1' }),
      ['metadata.namespace FieldValueInvalid'],
    ],
    [
      'update selector',
      sts(template(), { selector: { matchLabels: labels } }),
      sts(template(labels2), { selector: { matchLabels: labels2 } }),
      ['spec.selector FieldValueInvalid'],
    ],
    [
      'update service name',
      sts(template(), { serviceName: 'valid-service' }),
      sts(template(), { serviceName: 'other-service' }),
      ['spec.serviceName FieldValueInvalid'],
    ],
    [
      'update pod management policy 2',
      sts(template(), { podManagementPolicy: 'Parallel' }),
      sts(template(), { podManagementPolicy: 'OrderedReady' }),
      ['spec.podManagementPolicy FieldValueInvalid'],
    ],
    [
      'update to negative replicas',
      sts(template()),
      sts(template(), { replicas: -1 }),
      ['spec.replicas FieldValueInvalid'],
    ],
    [
      'update pvc template size',
      sts(template(), { volumeClaimTemplates: pvcs }),
      sts(template(), { volumeClaimTemplates: [pvc('pvc-abc', '2Gi', 'storage-class1')] }),
      ['spec.volumeClaimTemplates FieldValueInvalid'],
    ],
    [
      'update pvc template storage class',
      sts(template(), { volumeClaimTemplates: pvcs }),
      sts(template(), { volumeClaimTemplates: [pvc('pvc-abc', '1Gi', 'storage-class2')] }),
      ['spec.volumeClaimTemplates FieldValueInvalid'],
    ],
    [
      'add new pvc template',
      sts(template(), { volumeClaimTemplates: pvcs }),
      sts(template(), { volumeClaimTemplates: [...pvcs, pvc('pvc-abc2', '2Gi', 'storage-class2')] }),
      ['spec.volumeClaimTemplates FieldValueInvalid'],
    ],
    [
      'valid old spec but invalid new spec',
      sts(template()),
      sts(template({ [bad]: 'b' }, [])),
      [
        'spec.template.labels FieldValueInvalid',
        'spec.template.labels FieldValueInvalid',
        'spec.template.metadata.labels FieldValueInvalid',
        'spec.template.spec.containers FieldValueRequired',
      ],
    ],
    [
      'switch from RollingUpdate to Recreate, RecreateFG off',
      sts(template(), { updateStrategy: { type: 'RollingUpdate' } }),
      sts(template(), { updateStrategy: { type: 'Recreate' } }),
      ['spec.updateStrategy FieldValueInvalid'],
    ],
    [
      'switch from OnDelete to Recreate, RecreateFG off',
      sts(template(), { updateStrategy: { type: 'OnDelete' } }),
      sts(template(), { updateStrategy: { type: 'Recreate' } }),
      ['spec.updateStrategy FieldValueInvalid'],
    ],
  ]
  it.each(failure)('%s', (_n, old, update, want) => {
    expect(sorted(update, old)).toEqual(want)
  })
})

describe('ValidateStatefulSetUpdate before 1.37: one Forbidden on spec', () => {
  const V33 =
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
  const V30 =
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
  it('1.33-1.36: a service name change', () => {
    const o = sts(template(), { serviceName: 'valid-service' })
    const n = sts(template(), { serviceName: 'other-service' })
    expect(texts(n, o, 36)).toEqual([V33])
    expect(texts(n, o, 33)).toEqual([V33])
  })
  it('1.30-1.32: the list has no revisionHistoryLimit, and changing it is forbidden', () => {
    const o = sts(template())
    const n = sts(template(), { revisionHistoryLimit: 3 })
    expect(texts(n, o, 32)).toEqual([V30])
    expect(texts(n, o, 30)).toEqual([V30])
    expect(texts(n, o, 33)).toEqual([])
  })
  it('the updatable fields pass, the others make one error', () => {
    const o = sts(template(), { volumeClaimTemplates: [pvc('pvc-abc', '1Gi', 'storage-class1')] })
    const n = sts(template(labels2), {
      selector: { matchLabels: labels2 },
      replicas: 3,
      minReadySeconds: 4,
      volumeClaimTemplates: [pvc('pvc-abc', '2Gi', 'storage-class1')],
    })
    expect(texts(n, o, 36)).toEqual([V33])
    expect(sorted(n, o, 37)).toEqual(['spec.selector FieldValueInvalid', 'spec.volumeClaimTemplates FieldValueInvalid'])
  })
})

describe('StatefulSet template and serviceName validation per release', () => {
  it('before 1.33 serviceName is not validated; from 1.33 on create only', () => {
    const s = sts(template(), { serviceName: 'Invalid.Name' })
    expect(errors(s, undefined, 32)).toEqual([])
    expect(errors(s, undefined, 33).map((e) => `${e.field} ${e.type}`)).toEqual(['spec.serviceName FieldValueInvalid'])
  })
  it('before 1.34 the pod template spec is not validated (only labels and annotations)', () => {
    const s = sts(template(labels, []))
    expect(errors(s, undefined, 33)).toEqual([])
    expect(errors(s, undefined, 34).map((e) => `${e.field} ${e.type}`)).toEqual([
      'spec.template.spec.containers FieldValueRequired',
    ])
    const l = sts(template({ ...labels, [bad]: 'b' }))
    expect(errors(l, undefined, 33).map((e) => `${e.field} ${e.type}`)).toEqual([
      'spec.template.labels FieldValueInvalid',
    ])
  })
  it('from 1.34, an old spec that does not validate skips the new template pod spec (SkipValidatePodTemplateSpec)', () => {
    expect(sorted(sts(template(labels, [])), sts(withMounts()), 34)).toEqual([])
    expect(sorted(sts(template(labels, [])), sts(template()), 34)).toEqual([
      'spec.template.spec.containers FieldValueRequired',
    ])
  })
})

// TestValidateDeploymentUpdate, TestValidateReplicaSetUpdate, TestValidateDaemonSetUpdate: Go counts the
// errors (expectedErrNum); the fields and types here are the ones validation.go reports. Old objects
// keep resourceVersion 1, updates 2 as in Go (kelp's validators do not compare it).
const podSpec = (containers: O[] = [ctr('ctr')], extra: O = {}): O => ({
  containers,
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  ...extra,
})
const gcePD = { volumes: [{ name: 'gcepd', gcePersistentDisk: { pdName: 'my-PD', fsType: 'ext4', partition: 1 } }] }
const workload = (kind: string, name: string, rv: string, spec: O): O => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name, namespace: 'default', resourceVersion: rv },
  spec,
})
const invalidKey = { [bad]: 'b' }

describe('TestValidateDeploymentUpdate and TestValidateReplicaSetUpdate', () => {
  for (const kind of ['Deployment', 'ReplicaSet']) {
    const strategy = kind === 'Deployment' ? { strategy: { type: 'Recreate' } } : {}
    const spec = (extra: O, tpl: O = { metadata: { labels }, spec: podSpec() }): O => ({
      selector: { matchLabels: labels },
      template: tpl,
      ...strategy,
      ...extra,
    })
    const rw = { metadata: { labels }, spec: podSpec([ctr('ctr')], gcePD) }
    const cases: [string, O, O, string[]][] = [
      [
        'positive replicas',
        workload(kind, 'abc', '1', spec({})),
        workload(kind, 'abc', '2', spec({ replicas: 1 }, rw)),
        [],
      ],
      [
        'Read-write volume verification',
        workload(kind, 'abc', '1', spec({})),
        workload(kind, 'abc', '2', spec({ replicas: 2 }, rw)),
        [],
      ],
      [
        'invalid selector',
        workload(kind, '', '1', spec({})),
        workload(kind, 'abc', '2', spec({ replicas: 2, selector: { matchLabels: invalidKey } })),
        // the key fails LabelSelectorAsSelector too: `invalid label selector`, and no template match
        [
          'metadata.name FieldValueInvalid',
          'spec.selector FieldValueInvalid',
          'spec.selector FieldValueInvalid',
          'spec.selector.matchLabels FieldValueInvalid',
        ],
      ],
      [
        'invalid pod',
        workload(kind, '', '1', spec({})),
        workload(kind, 'abc', '2', spec({ replicas: 2 }, { metadata: { labels: invalidKey }, spec: podSpec([]) })),
        [
          'metadata.name FieldValueInvalid',
          'spec.template.labels FieldValueInvalid',
          'spec.template.metadata.labels FieldValueInvalid',
          'spec.template.spec.containers FieldValueRequired',
        ],
      ],
      [
        'negative replicas',
        workload(kind, 'abc', '1', spec({})),
        workload(kind, 'abc', '2', spec({ replicas: -1 }, rw)),
        ['spec.replicas FieldValueInvalid'],
      ],
    ]
    it.each(cases)(`${kind}: %s`, (_n, old, update, want) => {
      expect(sorted(update, old)).toEqual(want)
    })
  }
})

describe('TestValidateDaemonSetUpdate', () => {
  // templateGeneration is internal (apps/v1 has none; the strategy's PrepareForUpdate bumps it on a
  // template change), so Go's templateGeneration cases cannot arise from v1 objects and are left out
  const tpl = (l: O, spec: O): O => ({ metadata: { labels: l }, spec })
  const abc = tpl(labels, podSpec([ctr('abc')]))
  const ds = (name: string, rv: string, t: O, extra: O = {}): O =>
    workload('DaemonSet', name, rv, {
      selector: { matchLabels: labels },
      template: t,
      updateStrategy: { type: 'OnDelete' },
      ...extra,
    })
  const success: [string, O, O][] = [
    ['no change', ds('abc', '1', abc), ds('abc', '2', abc)],
    [
      'change template',
      ds('abc', '1', abc),
      ds('abc', '2', tpl(labels, podSpec([ctr('ctr')], { nodeSelector: labels, nodeName: 'xyz' }))),
    ],
    ['change container image name', ds('abc', '1', abc), ds('abc', '2', tpl(labels, podSpec([ctr('def')])))],
    ['change update strategy', ds('abc', '1', abc), ds('abc', '2', abc, { updateStrategy: { type: 'RollingUpdate' } })],
    [
      'unchanged templateGeneration upon semantically equal template update',
      ds('abc', '1', abc),
      ds('abc', '2', tpl(labels, podSpec([ctr('abc')], { imagePullSecrets: [] }))),
    ],
    ['Read-write volume verification', ds('abc', '1', abc), ds('abc', '2', tpl(labels, podSpec([ctr('ctr')], gcePD)))],
  ]
  it.each(success)('%s', (_n, old, update) => {
    expect(sorted(update, old)).toEqual([])
  })
  const failure: [string, O, O, string[]][] = [
    ['change daemon name', ds('', '1', abc), ds('abc', '2', abc), ['metadata.name FieldValueInvalid']],
    [
      'change selector',
      ds('abc', '1', abc),
      ds('abc', '2', tpl(labels2, podSpec([ctr('def')])), { selector: { matchLabels: labels2 } }),
      ['spec.selector FieldValueInvalid'],
    ],
    [
      'invalid selector',
      ds('abc', '1', abc),
      ds('abc', '2', abc, { selector: { matchLabels: invalidKey } }),
      ['spec.selector FieldValueInvalid', 'spec.selector.matchLabels FieldValueInvalid'],
    ],
    [
      'invalid pod',
      ds('abc', '1', abc),
      ds('abc', '2', tpl(labels, podSpec([]))),
      ['spec.template.spec.containers FieldValueRequired'],
    ],
    [
      'invalid update strategy',
      ds('abc', '1', abc),
      ds('abc', '2', abc, { updateStrategy: { type: 'Random' } }),
      ['spec.updateStrategy FieldValueNotSupported'],
    ],
  ]
  it.each(failure)('%s', (_n, old, update, want) => {
    expect(sorted(update, old)).toEqual(want)
  })
})

describe('label selector messages follow the target release (characters before 1.35, bytes from 1.35)', () => {
  const long = 'a'.repeat(64)
  const d = (v: string, rv: string) =>
    workload('Deployment', 'abc', rv, {
      selector: { matchLabels: { a: v } },
      template: { metadata: { labels: { a: v } }, spec: podSpec() },
    })
  const selectorText = (minor: number) =>
    texts(d(long, '2'), d(long, '1'), minor).find((t) => t.startsWith('spec.selector.matchLabels'))
  it('1.34: characters', () => expect(selectorText(34)).toContain('must be no more than 63 characters'))
  it('1.35: bytes', () => expect(selectorText(35)).toContain('must be no more than 63 bytes'))
})

describe('ReplicaSet / DaemonSet update before 1.34: create validation first (release-1.33 strategies)', () => {
  const noContainers = (kind: string, rv: string, extra: O = {}) =>
    workload(kind, 'abc', rv, {
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: podSpec([]) },
      ...(kind === 'DaemonSet' ? { updateStrategy: { type: 'OnDelete' } } : {}),
      ...extra,
    })
  const valid = (kind: string) =>
    workload(kind, 'abc', '1', {
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: podSpec() },
      ...(kind === 'DaemonSet' ? { updateStrategy: { type: 'OnDelete' } } : {}),
    })
  for (const kind of ['ReplicaSet', 'DaemonSet']) {
    it(`${kind}: the spec errors twice at 1.33, once at 1.34`, () => {
      const ft = (minor: number) =>
        errors(noContainers(kind, '2'), valid(kind), minor).map((e) => `${e.field} ${e.type}`)
      expect(ft(33)).toEqual([
        'spec.template.spec.containers FieldValueRequired',
        'spec.template.spec.containers FieldValueRequired',
      ])
      expect(ft(34)).toEqual(['spec.template.spec.containers FieldValueRequired'])
    })
  }
  it('DaemonSet: the selector immutability after the spec at 1.33, before it from 1.34', () => {
    const n = noContainers('DaemonSet', '2', {
      selector: { matchLabels: labels2 },
      template: { metadata: { labels: labels2 }, spec: podSpec([]) },
    })
    const ft = (minor: number) => errors(n, valid('DaemonSet'), minor).map((e) => `${e.field} ${e.type}`)
    expect(ft(33)).toEqual([
      'spec.template.spec.containers FieldValueRequired',
      'spec.template.spec.containers FieldValueRequired',
      'spec.selector FieldValueInvalid',
    ])
    expect(ft(34)).toEqual(['spec.selector FieldValueInvalid', 'spec.template.spec.containers FieldValueRequired'])
  })
})
