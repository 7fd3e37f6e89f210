import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts, tweak } from '../support.js'

// core/v1 PersistentVolumeClaim, LimitRange, ResourceQuota: kubernetes v1.37.2
// pkg/apis/core/validation/validation_test.go testValidatePVC (TestValidatePersistentVolumeClaim),
// TestValidatePersistentVolumeClaimUpdate (the cases listed), TestValidateLimitRange, TestValidateResourceQuota.
// Go checks only failure / success (or a detail substring); the paths and types here are the ones
// validation.go reports. Objects go through v1 decoding and defaulting first (volumeMode defaults to
// Filesystem, so Go's nil-volumeMode update cases do not arise on the wire).

const pvc = (spec: O, extra: O = {}): O => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'foo', namespace: 'ns' },
  spec,
  ...extra,
})
const req = (storage: string) => ({ requests: { storage } })
const good: O = {
  selector: { matchExpressions: [{ key: 'key2', operator: 'Exists' }] },
  accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
  resources: req('10G'),
  storageClassName: 'valid',
  volumeMode: 'Filesystem',
}
const m = (o: O, f: (x: O) => void) => tweak(o, f)

describe('validation_test.go testValidatePVC (TestValidatePersistentVolumeClaim)', () => {
  const cases: [string, O, string[]][] = [
    ['good-claim', pvc(good), []],
    ['missing-name', m(pvc(good), (x) => delete x.metadata.name), ['metadata.name FieldValueRequired']],
    ['missing-namespace', m(pvc(good), (x) => delete x.metadata.namespace), ['metadata.namespace FieldValueRequired']],
    ['with-generate-name', m(pvc(good), (x) => (x.metadata.generateName = 'pvc-')), []],
    ['with-uid', m(pvc(good), (x) => (x.metadata.uid = 'ac051fac-2ead-46d9-b8b4-4e0fbeb7455d')), []],
    ['with-resource-version', m(pvc(good), (x) => (x.metadata.resourceVersion = '1')), []],
    ['with-generation', m(pvc(good), (x) => (x.metadata.generation = 100)), []],
    ['with-creation-timestamp', m(pvc(good), (x) => (x.metadata.creationTimestamp = '2024-01-01T00:00:00Z')), []],
    ['with-deletion-grace-period-seconds', m(pvc(good), (x) => (x.metadata.deletionGracePeriodSeconds = 10)), []],
    [
      'with-owner-references',
      m(
        pvc(good),
        (x) =>
          (x.metadata.ownerReferences = [
            { apiVersion: 'v1', kind: 'pod', name: 'foo', uid: 'ac051fac-2ead-46d9-b8b4-4e0fbeb7455d' },
          ]),
      ),
      [],
    ],
    ['with-finalizers', m(pvc(good), (x) => (x.metadata.finalizers = ['example.com/foo'])), []],
    [
      'with-managed-fields',
      m(
        pvc(good),
        (x) =>
          (x.metadata.managedFields = [
            { fieldsType: 'FieldsV1', operation: 'Apply', apiVersion: 'apps/v1', manager: 'foo' },
          ]),
      ),
      [],
    ],
    ['with-good-labels', m(pvc(good), (x) => (x.metadata.labels = { 'apps.kubernetes.io/name': 'test' })), []],
    [
      'with-bad-labels',
      m(pvc(good), (x) => (x.metadata.labels = { 'hello-world': 'hyphen not allowed' })),
      ['metadata.labels FieldValueInvalid'],
    ],
    ['with-read-write-once-pod', pvc({ accessModes: ['ReadWriteOncePod'], resources: req('10G') }), []],
    [
      'with-read-write-once-pod-and-others',
      pvc({ accessModes: ['ReadWriteOncePod', 'ReadWriteMany'], resources: req('10G') }),
      ['spec.accessModes FieldValueForbidden'],
    ],
    [
      'invalid-claim-zero-capacity',
      pvc({ ...good, resources: req('0G') }),
      ['spec.resources[storage] FieldValueInvalid'],
    ],
    [
      'invalid-label-selector',
      pvc({
        accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
        resources: req('10G'),
        selector: { matchExpressions: [{ key: 'key2', operator: 'InvalidOp', values: ['value1', 'value2'] }] },
      }),
      ['spec.selector.matchExpressions[0].operator FieldValueInvalid'],
    ],
    [
      'invalid-accessmode',
      pvc({ accessModes: ['fakemode'], resources: req('10G') }),
      ['spec.accessModes FieldValueNotSupported'],
    ],
    ['no-access-modes', pvc({ resources: req('10G') }), ['spec.accessModes FieldValueRequired']],
    ['no-resource-requests', pvc({ accessModes: ['ReadWriteOnce'] }), ['spec.resources[storage] FieldValueRequired']],
    [
      'invalid-resource-requests',
      pvc({ accessModes: ['ReadWriteOnce'], resources: { requests: { memory: '10G' } } }),
      ['spec.resources[storage] FieldValueRequired'],
    ],
    [
      'negative-storage-request',
      pvc({ ...good, resources: req('-10G') }),
      ['spec.resources[storage] FieldValueInvalid'],
    ],
    ['zero-storage-request', pvc({ ...good, resources: req('0G') }), ['spec.resources[storage] FieldValueInvalid']],
    [
      'invalid-storage-class-name',
      pvc({ ...good, storageClassName: '-invalid-' }),
      ['spec.storageClassName FieldValueInvalid'],
    ],
    [
      'invalid-volume-mode',
      pvc({ accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], resources: req('10G'), volumeMode: 'fakeVolumeMode' }),
      ['spec.volumeMode FieldValueNotSupported'],
    ],
    [
      'mismatch-data-source-and-ref',
      pvc({
        accessModes: ['ReadWriteOnce'],
        resources: req('10G'),
        dataSource: { kind: 'PersistentVolumeClaim', name: 'pvc1' },
        dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'pvc2' },
      }),
      ['spec FieldValueInvalid'],
    ],
    [
      // the strategy drops a dataSource that is neither a PVC nor a VolumeSnapshot when dataSourceRef is
      // unset (EnforceDataSourceBackwardsCompatibility), before validation: Go's table calls the
      // validator directly and fails; through the apiserver the claim is created without it
      'invalid-apigroup-in-data-source (dropped by PrepareForCreate)',
      pvc({
        accessModes: ['ReadWriteOnce'],
        resources: req('10G'),
        dataSource: { apiGroup: '^invalid', kind: 'Foo', name: 'foo1' },
      }),
      [],
    ],
    [
      'invalid-apigroup-in-data-source-ref',
      pvc({
        accessModes: ['ReadWriteOnce'],
        resources: req('10G'),
        dataSourceRef: { apiGroup: '^invalid', kind: 'Foo', name: 'foo1' },
      }),
      ['spec.dataSource.apiGroup FieldValueInvalid', 'spec.dataSourceRef.apiGroup FieldValueInvalid'],
    ],
    [
      'invalid-volume-attributes-class-name',
      pvc({ ...good, volumeAttributesClassName: '-invalid-' }),
      ['spec.volumeAttributesClassName FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('invalid-volume-attributes-class-name with the gate off (1.33): not checked', () =>
    expect(fieldTypes(pvc({ ...good, volumeAttributesClassName: '-invalid-' }), undefined, 33)).toEqual([]))
  test('texts', () => {
    expect(texts(pvc({ ...good, resources: req('0G') }))).toEqual([
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
    ])
    expect(texts(pvc({ accessModes: ['fakemode'], resources: req('10G') }))).toEqual([
      'spec.accessModes: Unsupported value: "fakemode": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    ])
    expect(
      texts(
        pvc({
          accessModes: ['ReadWriteOnce'],
          resources: req('10G'),
          dataSource: { kind: 'PersistentVolumeClaim', name: 'pvc1' },
          dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'pvc2' },
        }),
      ),
    ).toEqual(['spec: Invalid value: {}: must match dataSourceRef'])
  })
})

describe('validation_test.go TestValidatePersistentVolumeClaimUpdate', () => {
  const spec = (extra: O = {}): O => ({
    accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
    resources: req('10G'),
    ...extra,
  })
  const validClaim = pvc(spec(), { status: { phase: 'Bound' } })
  const validUpdateClaim = pvc(spec({ volumeName: 'volume' }))
  const rv = (o: O) => m(o, (x) => (x.metadata.resourceVersion = '1'))
  const modeClaim = (mode?: string) =>
    pvc({
      accessModes: ['ReadWriteOnce'],
      resources: req('10G'),
      volumeName: 'volume',
      ...(mode ? { volumeMode: mode } : {}),
    })
  const scAnn = (v: string, s: O) =>
    m(pvc(s), (x) => (x.metadata.annotations = { 'volume.beta.kubernetes.io/storage-class': v }))
  const ro = { accessModes: ['ReadOnlyMany'], resources: req('10G') }
  const cases: [string, O, O, string[]][] = [
    ['valid-update-volumeName-only', validClaim, validUpdateClaim, []],
    ['valid-no-op-update', validUpdateClaim, validUpdateClaim, []],
    [
      'invalid-update-change-resources-on-bound-claim',
      validUpdateClaim,
      pvc(spec({ volumeName: 'volume', resources: req('20G') })),
      ['spec FieldValueForbidden'],
    ],
    [
      'invalid-update-change-access-modes-on-bound-claim',
      validUpdateClaim,
      pvc({ accessModes: ['ReadWriteOnce'], resources: req('10G'), volumeName: 'volume' }),
      ['spec FieldValueForbidden'],
    ],
    ['valid-update-volume-mode-block-to-block', modeClaim('Block'), modeClaim('Block'), []],
    ['valid-update-volume-mode-file-to-file', modeClaim('Filesystem'), modeClaim('Filesystem'), []],
    [
      'invalid-update-volume-mode-to-block',
      modeClaim('Filesystem'),
      modeClaim('Block'),
      ['spec FieldValueForbidden', 'volumeMode FieldValueInvalid'],
    ],
    [
      'invalid-update-volume-mode-to-file',
      modeClaim('Block'),
      modeClaim('Filesystem'),
      ['spec FieldValueForbidden', 'volumeMode FieldValueInvalid'],
    ],
    // nil volumeMode defaults to Filesystem in v1: Go's nil-to-file / file-to-nil cases are no change
    ['volume-mode-nil-to-file (defaulted: no change)', modeClaim(), modeClaim('Filesystem'), []],
    [
      'invalid-update-volume-mode-nil-to-block',
      modeClaim(),
      modeClaim('Block'),
      ['spec FieldValueForbidden', 'volumeMode FieldValueInvalid'],
    ],
    [
      'invalid-update-volume-mode-block-to-nil',
      modeClaim('Block'),
      modeClaim(),
      ['spec FieldValueForbidden', 'volumeMode FieldValueInvalid'],
    ],
    [
      'invalid-update-change-storage-class-annotation-after-creation',
      scAnn('fast', ro),
      scAnn('fast2', ro),
      ['metadata.annotations.volume.beta.kubernetes.io/storage-class FieldValueInvalid'],
    ],
    [
      'valid-update-mutable-annotation',
      m(pvc(ro), (x) => (x.metadata.annotations = { description: 'foo-description' })),
      m(pvc(ro), (x) => (x.metadata.annotations = { description: 'updated-or-added-foo-description' })),
      [],
    ],
    [
      'valid-update-add-annotation',
      validClaim,
      m(validClaim, (x) => (x.metadata.annotations = { description: 'x' })),
      [],
    ],
    [
      'valid-size-update-resize-enabled',
      validClaim,
      pvc(spec({ resources: req('15G') }), { status: { phase: 'Bound' } }),
      [],
    ],
    // RecoverVolumeExpansionFailure is on (locked) in 1.37: shrinking down to status.capacity (unset here)
    // passes validation; Go's case runs with the gate off (below, 1.31)
    [
      'invalid-size-update-resize-enabled (gate on)',
      validClaim,
      pvc(spec({ resources: req('5G') }), { status: { phase: 'Bound' } }),
      [],
    ],
    [
      'unbound-size-update-resize-enabled',
      pvc(spec()),
      pvc(spec({ resources: req('15G') })),
      ['spec FieldValueForbidden'],
    ],
    ['valid-upgrade-storage-class-annotation-to-spec', scAnn('fast', ro), pvc({ ...ro, storageClassName: 'fast' }), []],
    ['valid-upgrade-nil-storage-class-spec-to-spec', pvc(ro), pvc({ ...ro, storageClassName: 'fast' }), []],
    [
      'invalid-upgrade-not-nil-storage-class-spec-to-spec',
      pvc({ ...ro, storageClassName: 'fast' }),
      pvc({ ...ro, storageClassName: 'fast2' }),
      ['spec FieldValueForbidden'],
    ],
    [
      'invalid-upgrade-to-nil-storage-class-spec-to-spec',
      pvc({ ...ro, storageClassName: 'fast' }),
      pvc(ro),
      ['spec FieldValueForbidden'],
    ],
    [
      'invalid-downgrade-storage-class-spec-to-annotation',
      pvc({ ...ro, storageClassName: 'fast' }),
      scAnn('fast', ro),
      ['metadata.annotations.volume.beta.kubernetes.io/storage-class FieldValueInvalid', 'spec FieldValueForbidden'],
    ],
    [
      'allow-update-pvc-when-data-source-ref-used',
      pvc({ ...spec(), dataSourceRef: { apiGroup: '^invalid', kind: 'Foo', name: 'foo1' } }),
      pvc({ ...spec(), dataSourceRef: { apiGroup: '^invalid', kind: 'Foo', name: 'foo1' } }),
      [],
    ],
    [
      'invalid-update-volume-attributes-class-to-nil-when-current-vac-set',
      pvc(spec({ volumeAttributesClassName: 'foo' }), { status: { currentVolumeAttributesClassName: 'foo' } }),
      pvc(spec()),
      ['spec FieldValueForbidden', 'spec.volumeAttributesClassName FieldValueForbidden'],
    ],
    [
      'invalid-update-volume-attributes-class-when-claim-not-bound',
      pvc(spec({ volumeAttributesClassName: 'foo' })),
      pvc(spec({ volumeAttributesClassName: 'foo2' })),
      ['spec FieldValueForbidden'],
    ],
    [
      'valid-update-volume-attributes-class (bound)',
      pvc(spec({ volumeAttributesClassName: 'foo' }), { status: { phase: 'Bound' } }),
      pvc(spec({ volumeAttributesClassName: 'foo2' })),
      [],
    ],
  ]
  const shrinkOld = pvc(spec({ resources: req('15G') }), { status: { phase: 'Bound', capacity: { storage: '10G' } } })
  const shrink = (size: string) => pvc(spec({ resources: req(size) }))
  cases.push(
    ['valid-expand-shrink-resize-enabled', shrinkOld, shrink('13G'), []],
    [
      'invalid-expand-shrink-resize-enabled',
      shrinkOld,
      shrink('3G'),
      ['spec.resources.requests.storage FieldValueForbidden'],
    ],
    [
      'invalid-expand-shrink-to-status-resize-enabled',
      shrinkOld,
      shrink('10G'),
      ['spec.resources.requests.storage FieldValueForbidden'],
    ],
    // PrepareForUpdate keeps the old status (Bound): Go's new Pending status does not reach validation
    ['unbound-size-shrink-resize-enabled (status from the old claim)', shrinkOld, shrink('12G'), []],
  )
  for (const [name, old, n, want] of cases) test(name, () => expect(fieldTypes(rv(n), rv(old))).toEqual(want))
  test('invalid-size-update-resize-enabled with RecoverVolumeExpansionFailure off (1.31)', () =>
    expect(texts(rv(pvc(spec({ resources: req('5G') }))), rv(validClaim), 31)).toEqual([
      'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    ]))
  test('invalid-expand-shrink-recover-disabled (1.31)', () =>
    expect(
      fieldTypes(
        rv(pvc(spec({ resources: req('13G') }))),
        rv(pvc(spec({ resources: req('15G') }), { status: { phase: 'Bound', capacity: { storage: '10G' } } })),
        31,
      ),
    ).toEqual(['spec.resources.requests.storage FieldValueForbidden']))
  test('the Forbidden text starts as the apiserver', () => {
    const t = texts(rv(pvc({ ...ro, storageClassName: 'fast2' })), rv(pvc({ ...ro, storageClassName: 'fast' })))
    expect(t[0]).toMatch(
      /^spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n/,
    )
  })
})

const lr = (limits: O[], meta: O = { name: 'abc', namespace: 'foo' }): O => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: meta,
  spec: { limits },
})
const res = (cpu = '', memory = '', eph = '', storage = ''): O => ({
  ...(cpu ? { cpu } : {}),
  ...(memory ? { memory } : {}),
  ...(eph ? { 'ephemeral-storage': eph } : {}),
  ...(storage ? { storage } : {}),
})

describe('validation_test.go TestValidateLimitRange', () => {
  const ok: [string, O[]][] = [
    [
      'all-fields-valid',
      [
        { type: 'Pod', max: res('100m', '10000Mi'), min: res('5m', '100Mi'), maxLimitRequestRatio: res('10') },
        {
          type: 'Container',
          max: res('100m', '10000Mi'),
          min: res('5m', '100Mi'),
          default: res('50m', '500Mi'),
          defaultRequest: res('10m', '200Mi'),
          maxLimitRequestRatio: res('10'),
        },
        { type: 'PersistentVolumeClaim', max: res('', '', '', '10Gi'), min: res('', '', '', '5Gi') },
      ],
    ],
    ['pvc-min-only', [{ type: 'PersistentVolumeClaim', min: res('', '', '', '5Gi') }]],
    ['pvc-max-only', [{ type: 'PersistentVolumeClaim', max: res('', '', '', '10Gi') }]],
    [
      'all-fields-valid-big-numbers',
      [
        {
          type: 'Container',
          max: res('100m', '10000T'),
          min: res('5m', '100Mi'),
          default: res('50m', '500Mi'),
          defaultRequest: res('10m', '200Mi'),
          maxLimitRequestRatio: res('10'),
        },
      ],
    ],
    [
      'thirdparty-fields-all-valid-standard-container-resources',
      [
        {
          type: 'thirdparty.com/foo',
          max: res('100m', '10000T'),
          min: res('5m', '100Mi'),
          default: res('50m', '500Mi'),
          defaultRequest: res('10m', '200Mi'),
          maxLimitRequestRatio: res('10'),
        },
      ],
    ],
    [
      'thirdparty-fields-all-valid-storage-resources',
      [
        {
          type: 'thirdparty.com/foo',
          max: res('', '', '', '10000T'),
          min: res('', '', '', '100Mi'),
          default: res('', '', '', '500Mi'),
          defaultRequest: res('', '', '', '200Mi'),
        },
      ],
    ],
  ]
  for (const [name, limits] of ok) test(name, () => expect(fieldTypes(lr(limits))).toEqual([]))
  const bad: [string, O, string[], string][] = [
    [
      'zero-length-name',
      lr([], { namespace: 'foo' }),
      ['metadata.name FieldValueRequired'],
      'name or generateName is required',
    ],
    ['zero-length-namespace', lr([], { name: 'abc' }), ['metadata.namespace FieldValueRequired'], ''],
    [
      'invalid-name',
      lr([], { name: '^Invalid', namespace: 'foo' }),
      ['metadata.name FieldValueInvalid'],
      'a lowercase RFC 1123 subdomain',
    ],
    [
      'invalid-namespace',
      lr([], { name: 'abc', namespace: '^Invalid' }),
      ['metadata.namespace FieldValueInvalid'],
      'a lowercase RFC 1123 label',
    ],
    [
      'duplicate-limit-type',
      lr([
        { type: 'Pod', max: res('100m', '10000m'), min: res('0m', '100m') },
        { type: 'Pod', min: res('0m', '100m') },
      ]),
      ['spec.limits[1].type FieldValueDuplicate'],
      '',
    ],
    [
      'default-limit-type-pod',
      lr([{ type: 'Pod', max: res('100m', '10000m'), min: res('0m', '100m'), default: res('10m', '100m') }]),
      ['spec.limits[0].default FieldValueForbidden'],
      "may not be specified when `type` is 'Pod'",
    ],
    [
      'default-request-limit-type-pod',
      lr([{ type: 'Pod', max: res('100m', '10000m'), min: res('0m', '100m'), defaultRequest: res('10m', '100m') }]),
      ['spec.limits[0].defaultRequest FieldValueForbidden'],
      "may not be specified when `type` is 'Pod'",
    ],
    [
      'min value 100m is greater than max value 10m',
      lr([{ type: 'Pod', max: res('10m'), min: res('100m') }]),
      ['spec.limits[0].min[cpu] FieldValueInvalid'],
      'min value 100m is greater than max value 10m',
    ],
    [
      'invalid spec default outside range',
      lr([{ type: 'Container', max: res('1'), min: res('100m'), default: res('2000m') }]),
      // v1 defaulting copies default into defaultRequest (SetDefaults_LimitRangeItem) before validation
      ['spec.limits[0].defaultRequest[cpu] FieldValueInvalid', 'spec.limits[0].default[cpu] FieldValueInvalid'],
      'is greater than max value 1',
    ],
    [
      'invalid spec default request outside range',
      lr([{ type: 'Container', max: res('1'), min: res('100m'), defaultRequest: res('2000m') }]),
      // v1 defaulting sets default from max: the request is also above the default limit
      ['spec.limits[0].defaultRequest[cpu] FieldValueInvalid', 'spec.limits[0].defaultRequest[cpu] FieldValueInvalid'],
      'default request value 2 is greater than',
    ],
    [
      'invalid spec default request more than default',
      lr([{ type: 'Container', max: res('2'), min: res('100m'), default: res('500m'), defaultRequest: res('800m') }]),
      ['spec.limits[0].defaultRequest[cpu] FieldValueInvalid'],
      'default request value 800m is greater than default limit value 500m',
    ],
    [
      'invalid spec maxLimitRequestRatio less than 1',
      lr([{ type: 'Pod', maxLimitRequestRatio: res('800m') }]),
      ['spec.limits[0].maxLimitRequestRatio[cpu] FieldValueInvalid'],
      'ratio 800m is less than 1',
    ],
    [
      'invalid spec maxLimitRequestRatio greater than max/min',
      lr([{ type: 'Container', max: res('', '2Gi'), min: res('', '512Mi'), maxLimitRequestRatio: res('', '10') }]),
      ['spec.limits[0].maxLimitRequestRatio[memory] FieldValueInvalid'],
      'ratio 10 is greater than max/min = 4.000000',
    ],
    [
      'invalid non standard limit type',
      lr([
        {
          type: 'foo',
          max: res('', '', '', '10000T'),
          min: res('', '', '', '100Mi'),
          default: res('', '', '', '500Mi'),
          defaultRequest: res('', '', '', '200Mi'),
        },
      ]),
      ['spec.limits[0].type FieldValueInvalid'],
      'must be a standard limit type or fully qualified',
    ],
    [
      'min and max values missing, one required',
      lr([{ type: 'PersistentVolumeClaim' }]),
      ['spec.limits[0].limits FieldValueRequired'],
      'either minimum or maximum storage value is required, but neither was provided',
    ],
    [
      'invalid min greater than max',
      lr([{ type: 'PersistentVolumeClaim', min: res('', '', '', '10Gi'), max: res('', '', '', '1Gi') }]),
      ['spec.limits[0].min[storage] FieldValueInvalid'],
      'min value 10Gi is greater than max value 1Gi',
    ],
  ]
  for (const [name, o, want, detail] of bad)
    test(name, () => {
      expect(fieldTypes(o)).toEqual(want)
      for (const t of texts(o)) expect(t).toContain(detail)
    })
})

const rq = (spec: O, meta: O = { name: 'abc', namespace: 'foo' }): O => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: meta,
  spec,
})

describe('validation_test.go TestValidateResourceQuota', () => {
  const spec = {
    hard: {
      cpu: '100',
      memory: '10000',
      'requests.cpu': '100',
      'requests.memory': '10000',
      'limits.cpu': '100',
      'limits.memory': '10000',
      pods: '10',
      services: '0',
      replicationcontrollers: '10',
      resourcequotas: '10',
      configmaps: '10',
      secrets: '10',
      'count/resourceclaims.resource.k8s.io': '1',
      'gold.deviceclass.resource.k8s.io/devices': '1',
    },
  }
  const cases: [string, O, string[], string][] = [
    ['no-scope', rq(spec), [], ''],
    ['fractional-compute-spec', rq({ hard: { cpu: '100m' } }), [], ''],
    ['terminating-spec', rq({ hard: { cpu: '100', 'limits.cpu': '200' }, scopes: ['Terminating'] }), [], ''],
    ['non-terminating-spec', rq({ hard: { cpu: '100' }, scopes: ['NotTerminating'] }), [], ''],
    ['best-effort-spec', rq({ hard: { pods: '100' }, scopes: ['BestEffort'] }), [], ''],
    [
      'cross-namespace-affinity-spec',
      rq({ hard: { cpu: '100', 'limits.cpu': '200' }, scopes: ['CrossNamespacePodAffinity'] }),
      [],
      '',
    ],
    [
      'scope-selector-spec',
      rq({
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }],
        },
      }),
      [],
      '',
    ],
    ['non-best-effort-spec', rq({ hard: { cpu: '100' }, scopes: ['NotBestEffort'] }), [], ''],
    [
      'zero-length Name',
      rq(spec, { namespace: 'foo' }),
      ['metadata.name FieldValueRequired'],
      'name or generateName is required',
    ],
    ['zero-length Namespace', rq(spec, { name: 'abc' }), ['metadata.namespace FieldValueRequired'], ''],
    [
      'invalid Name',
      rq(spec, { name: '^Invalid', namespace: 'foo' }),
      ['metadata.name FieldValueInvalid'],
      'RFC 1123 subdomain',
    ],
    [
      'invalid Namespace',
      rq(spec, { name: 'abc', namespace: '^Invalid' }),
      ['metadata.namespace FieldValueInvalid'],
      'RFC 1123 label',
    ],
    [
      'negative-limits',
      rq({
        hard: {
          cpu: '-100',
          memory: '-10000',
          pods: '-10',
          services: '-10',
          replicationcontrollers: '-10',
          resourcequotas: '-10',
          configmaps: '-10',
          secrets: '-10',
        },
      }),
      [
        'spec.hard[configmaps] FieldValueInvalid',
        'spec.hard[cpu] FieldValueInvalid',
        'spec.hard[memory] FieldValueInvalid',
        'spec.hard[pods] FieldValueInvalid',
        'spec.hard[replicationcontrollers] FieldValueInvalid',
        'spec.hard[resourcequotas] FieldValueInvalid',
        'spec.hard[secrets] FieldValueInvalid',
        'spec.hard[services] FieldValueInvalid',
      ],
      'must be greater than or equal to 0',
    ],
    [
      'fractional-api-resource',
      rq({ hard: { pods: '.1', services: '.5', replicationcontrollers: '1.25', resourcequotas: '2.5' } }),
      [
        'spec.hard[pods] FieldValueInvalid',
        'spec.hard[replicationcontrollers] FieldValueInvalid',
        'spec.hard[resourcequotas] FieldValueInvalid',
        'spec.hard[services] FieldValueInvalid',
      ],
      'must be an integer',
    ],
    [
      'invalid-quota-resource',
      rq({ hard: { storage: '10' } }),
      ['spec.hard[storage] FieldValueInvalid'],
      'must be a standard resource for quota',
    ],
    [
      'invalid-quota-terminating-pair',
      rq({ hard: { cpu: '100' }, scopes: ['Terminating', 'NotTerminating'] }),
      ['spec.scopes FieldValueInvalid'],
      'conflicting scopes',
    ],
    [
      'invalid-quota-besteffort-pair',
      rq({ hard: { pods: '100' }, scopes: ['BestEffort', 'NotBestEffort'] }),
      ['spec.scopes FieldValueInvalid'],
      'conflicting scopes',
    ],
    [
      'invalid-quota-scope-name',
      rq({ hard: { cpu: '100' }, scopes: ['foo'] }),
      ['spec.scopes FieldValueInvalid'],
      'unsupported scope',
    ],
    [
      'invalid-cross-namespace-affinity',
      rq({
        scopeSelector: {
          matchExpressions: [{ scopeName: 'CrossNamespacePodAffinity', operator: 'In', values: ['cluster-services'] }],
        },
      }),
      ['spec.scopeSelector.matchExpressions.operator FieldValueInvalid'],
      "must be 'Exists' when scope is any of",
    ],
  ]
  for (const [name, o, want, detail] of cases)
    test(name, () => {
      expect(fieldTypes(o)).toEqual(want)
      for (const t of texts(o)) expect(t).toContain(detail)
    })
  test('scopes are immutable (ValidateResourceQuotaUpdate)', () => {
    const old = m(rq({ hard: { cpu: '100' }, scopes: ['NotTerminating'] }), (x) => (x.metadata.resourceVersion = '1'))
    const n = m(old, (x) => (x.spec.scopes = ['NotBestEffort']))
    expect(texts(n, old)).toEqual(['spec.scopes: Invalid value: ["NotBestEffort"]: field is immutable'])
  })
})
