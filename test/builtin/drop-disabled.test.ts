import { describe, expect, it } from 'vitest'
import { dropDisabledPVCFields } from '../../src/builtin/drop-disabled.js'
import { dropDisabledFields } from '../../src/builtin/strategy.js'
import type { FeatureGate, FeatureGates } from '../../src/kube/feature-gates.js'

// The other kinds' drops, transcribed from kubernetes v1.37.2: pkg/api/job/util_test.go
// TestDropDisabledFieldsScheduling, pkg/registry/apps/statefulset/strategy_test.go
// TestDropStatefulSetDisabledFields, pkg/api/persistentvolumeclaim/util_test.go TestDropDisabledVolumeAttributesClass
// and TestDataSourceFilter. The gate set is the test's (SetFeatureGateDuringTest).

type JSONObject = Record<string, unknown>

const only =
  (overrides: Partial<Record<FeatureGate, boolean>>): FeatureGates =>
  (g) =>
    overrides[g] ?? true

describe('TestDropDisabledFieldsScheduling (Job)', () => {
  const scheduling = () => ({ schedulingPolicy: { basic: {} } })
  const job = (s?: JSONObject): JSONObject => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    spec: s === undefined ? {} : { scheduling: s },
  })
  const rows: [string, boolean, JSONObject | undefined, boolean, JSONObject | undefined, boolean][] = [
    // name, enableWorkloadWithJob, jobSpec scheduling, hasOldSpec, oldJobSpec scheduling, wantDropped
    ['feature enabled, create keeps scheduling', true, scheduling(), false, undefined, false],
    ['feature disabled, create drops scheduling', false, scheduling(), false, undefined, true],
    ['feature disabled, create without scheduling stays nil', false, undefined, false, undefined, false],
    ['feature enabled, update keeps scheduling', true, scheduling(), true, scheduling(), false],
    ['feature disabled, update preserves scheduling already in use', false, scheduling(), true, scheduling(), false],
    ['feature disabled, update drops newly added scheduling', false, scheduling(), true, undefined, true],
  ]
  it.each(rows)('%s', (_name, enabled, s, hasOld, oldS, wantDropped) => {
    const o = job(s)
    dropDisabledFields(o, hasOld ? job(oldS) : undefined, only({ WorkloadWithJob: enabled, GenericWorkload: enabled }))
    expect((o.spec as JSONObject).scheduling).toEqual(wantDropped ? undefined : s)
  })
})

describe('TestDropStatefulSetDisabledFields', () => {
  const ss = (maxUnavailable?: number): JSONObject => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    spec: {
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: maxUnavailable === undefined ? {} : { maxUnavailable },
      },
      template: { spec: {} },
    },
  })
  const rows: [string, boolean, JSONObject, JSONObject | undefined, JSONObject][] = [
    ['MaxUnavailable not enabled, field not used', false, ss(), undefined, ss()],
    ['MaxUnavailable not enabled, field used in new, not in old', false, ss(3), undefined, ss()],
    ['MaxUnavailable not enabled, field used in old and new', false, ss(3), ss(3), ss(3)],
    ['MaxUnavailable enabled, field used in new only', true, ss(3), undefined, ss(3)],
    ['MaxUnavailable enabled, field used in both old and new', true, ss(1), ss(3), ss(1)],
  ]
  it.each(rows)('%s', (_name, enabled, o, old, want) => {
    const before = structuredClone(old)
    dropDisabledFields(o, old, only({ MaxUnavailableStatefulSet: enabled }))
    expect(old).toEqual(before)
    expect(o).toEqual(want)
  })
})

describe('TestDropDisabledVolumeAttributesClass', () => {
  const rows: [string, JSONObject, JSONObject | undefined, boolean, string | undefined][] = [
    ['vac disabled with empty vac', {}, {}, false, undefined],
    ['vac disabled with vac', { volumeAttributesClassName: 'foo' }, {}, false, undefined],
    ['vac enabled with empty vac', {}, {}, true, undefined],
    ['vac enabled with vac', { volumeAttributesClassName: 'foo' }, {}, true, 'foo'],
    [
      "vac disabled with vac when vac doesn't exists in oldSpec",
      { volumeAttributesClassName: 'foo' },
      {},
      false,
      undefined,
    ],
    [
      'vac disabled with vac when vac exists in oldSpec',
      { volumeAttributesClassName: 'foo' },
      { volumeAttributesClassName: 'foo' },
      false,
      'foo',
    ],
    ["vac enabled with vac when vac doesn't exists in oldSpec", { volumeAttributesClassName: 'foo' }, {}, true, 'foo'],
    [
      'vac enable with vac when vac exists in oldSpec',
      { volumeAttributesClassName: 'foo' },
      { volumeAttributesClassName: 'foo' },
      true,
      'foo',
    ],
  ]
  it.each(rows)('%s', (_name, spec, oldSpec, enabled, want) => {
    dropDisabledPVCFields(spec, oldSpec, only({ VolumeAttributesClass: enabled }))
    expect(spec.volumeAttributesClassName).toBe(want)
  })
})

describe('TestDataSourceFilter', () => {
  const ds = { apiGroup: '', kind: 'PersistentVolumeClaim', name: 'my-vol' }
  const ref = { apiGroup: '', kind: 'PersistentVolumeClaim', name: 'my-vol' }
  const xnsRef = { ...ref, namespace: 'ns1' }
  const rows: [string, JSONObject, JSONObject, boolean, unknown, unknown][] = [
    // name, spec, oldSpec, xnsEnabled, want dataSource, want dataSourceRef
    ['empty ds', {}, {}, false, undefined, undefined],
    ['volume ds', { dataSource: ds }, {}, false, ds, undefined],
    ['volume ds ref', { dataSourceRef: ref }, {}, false, undefined, ref],
    ['both data sources', { dataSource: ds, dataSourceRef: ref }, {}, false, ds, ref],
    ['xns enabled with xns volume ds', { dataSourceRef: xnsRef }, {}, true, undefined, xnsRef],
    [
      'xns enabled with xns volume ds when xns volume exists in oldSpec',
      { dataSourceRef: xnsRef },
      { dataSourceRef: xnsRef },
      true,
      undefined,
      xnsRef,
    ],
    ['xns volume ds', { dataSourceRef: xnsRef }, {}, false, undefined, undefined],
    [
      'xns volume ds when xns volume exists in oldSpec',
      { dataSourceRef: xnsRef },
      { dataSourceRef: xnsRef },
      false,
      undefined,
      xnsRef,
    ],
    [
      'xns volume ds when volume exists in oldSpec',
      { dataSourceRef: xnsRef },
      { dataSourceRef: ref },
      false,
      undefined,
      xnsRef,
    ],
  ]
  it.each(rows)('%s', (_name, spec, oldSpec, xns, want, wantRef) => {
    dropDisabledPVCFields(spec, oldSpec, only({ CrossNamespaceVolumeDataSource: xns }))
    expect(spec.dataSource).toEqual(want)
    expect(spec.dataSourceRef).toEqual(wantRef)
  })
})
