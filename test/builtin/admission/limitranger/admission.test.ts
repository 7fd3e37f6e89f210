import { describe, expect, it } from 'vitest'
import {
  admitLimitRanger,
  aggregate,
  podValidateLimit,
  pvcValidateLimit,
  scaledValue,
  validateLimitRanger,
} from '../../../../src/builtin/admission/limitranger.js'
import type { JSONObject } from '../../../../src/kube/values/json.js'
import { mustParseQuantity } from '../../../../src/kube/values/quantity.js'
import {
  createLimitRange,
  getComputeResourceList,
  getResourceRequirements,
  getStorageResourceList,
  validLimitRange,
  validPersistentVolumeClaim,
  validPod,
  validPodInit,
} from './helpers.js'
import { errorCases, successCases } from './pod-limit-func.cases.js'

// kubernetes plugin/pkg/admission/limitranger/admission_test.go (v1.37.2): TestPodLimitFunc (every row:
// PodMutateLimitFunc then PodValidateLimitFunc; pod-limit-func.cases.ts), TestMergePodResourceRequirements,
// TestPersistentVolumeClaimLimitFunc. The error texts, which the Go tests do not compare, are the real
// kube-apiserver v1.37.2's answers (kubectl apply --dry-run=server with the LimitRange created).

const name = (pod: JSONObject) => (pod.metadata as JSONObject).name as string
const minor = (c: { podLevelResourcesEnabled?: boolean }) => (c.podLevelResourcesEnabled === true ? 37 : 33)

describe('LimitRanger TestPodLimitFunc', () => {
  it.each(successCases.map((c) => [name(c.pod), c] as const))('accepts %s', (_n, c) => {
    const pod = structuredClone(c.pod)
    admitLimitRanger(pod, [c.limitRange])
    expect(podValidateLimit(c.limitRange, pod, minor(c))).toBeUndefined()
  })
  it.each(errorCases.map((c) => [name(c.pod), c] as const))('refuses %s', (_n, c) => {
    const pod = structuredClone(c.pod)
    admitLimitRanger(pod, [c.limitRange])
    expect(podValidateLimit(c.limitRange, pod, minor(c))).toBeTypeOf('string')
  })
})

describe('LimitRanger TestMergePodResourceRequirements', () => {
  const containers = (pod: JSONObject, k = 'containers') => (pod.spec as JSONObject)[k] as JSONObject[]
  const annotation = (pod: JSONObject) =>
    ((pod.metadata as JSONObject).annotations as JSONObject | undefined)?.['kubernetes.io/limit-ranger']

  it('fills a container without resources from the defaults', () => {
    const pod = validPod('empty-resources', 1, getResourceRequirements({}, {}))
    admitLimitRanger(pod, [validLimitRange()])
    expect(containers(pod)[0]?.resources).toEqual({
      limits: { cpu: '75m', memory: '10Mi' },
      requests: { cpu: '50m', memory: '5Mi' },
    })
    expect(annotation(pod)).toBe(
      'LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0',
    )
  })

  it('merges only what is missing, into init containers too', () => {
    const input = getResourceRequirements(getComputeResourceList('', '512Mi'), getComputeResourceList('', ''))
    const pod = validPodInit(validPod('limit-memory', 1, input), input)
    admitLimitRanger(pod, [validLimitRange()])
    const expected = { limits: { cpu: '75m', memory: '10Mi' }, requests: { cpu: '50m', memory: '512Mi' } }
    expect(containers(pod)[0]?.resources).toEqual(expected)
    expect(containers(pod, 'initContainers')[0]?.resources).toEqual(expected)
    // the Go test expects the containers' words only: its pod's container and init container share one
    // Requests map, already filled when the init container is merged; a decoded Pod's maps are its own, and
    // kube-apiserver v1.37.2 says both (checked with kubectl apply --dry-run=server)
    expect(annotation(pod)).toBe(
      'LimitRanger plugin set: cpu request for container foo-0; cpu, memory limit for container foo-0; cpu request for init container foo-0; cpu, memory limit for init container foo-0',
    )
  })

  it('leaves a pod with every resource given as it is', () => {
    const input = getResourceRequirements(getComputeResourceList('100m', '512Mi'), getComputeResourceList('200m', '1G'))
    const init = getResourceRequirements(getComputeResourceList('200m', '1G'), getComputeResourceList('400m', '2G'))
    const pod = validPodInit(validPod('limit-memory', 1, input), init)
    admitLimitRanger(pod, [validLimitRange()])
    expect(containers(pod)[0]?.resources).toEqual(input)
    expect(containers(pod, 'initContainers')[0]?.resources).toEqual(init)
    expect(annotation(pod)).toBeUndefined()
  })
})

describe('LimitRanger TestPersistentVolumeClaimLimitFunc', () => {
  const pvc = (n: string, storage: string) =>
    validPersistentVolumeClaim(n, getResourceRequirements(getStorageResourceList(storage), {}))
  const lr = (min: string, max: string) =>
    createLimitRange('PersistentVolumeClaim', getStorageResourceList(min), getStorageResourceList(max), {}, {}, {})
  it.each([
    ['pvc-is-min-storage-request', '1Gi', lr('1Gi', '')],
    ['pvc-is-max-storage-request', '1Gi', lr('', '1Gi')],
    ['pvc-no-minmax-storage-request', '100Gi', lr('', '')],
    ['pvc-within-minmax-storage-request', '5Gi', lr('1Gi', '10Gi')],
  ])('accepts %s', (n, storage, limitRange) => {
    expect(pvcValidateLimit(limitRange, pvc(n, storage))).toBeUndefined()
  })
  it.each([
    [
      'pvc-below-min-storage-request',
      '500Mi',
      lr('1Gi', ''),
      'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
    ],
    [
      'pvc-exceeds-max-storage-request',
      '100Gi',
      lr('1Gi', '1Gi'),
      'maximum storage usage per PersistentVolumeClaim is 1Gi, but request is 100Gi',
    ],
  ])('refuses %s', (n, storage, limitRange, text) => {
    expect(pvcValidateLimit(limitRange, pvc(n, storage))).toBe(text)
  })
})

describe('LimitRanger texts (kube-apiserver v1.37.2)', () => {
  const lr = (limits: JSONObject[]): JSONObject => ({ spec: { limits } })
  const pod = (resources: JSONObject): JSONObject => ({ spec: { containers: [{ name: 'c', resources }] } })

  it('says every failure of a LimitRange in one aggregate', () => {
    const limitRange = lr([{ type: 'Container', max: { cpu: '1', memory: '1Gi' } }])
    expect(validateLimitRanger('pods', pod({ limits: { cpu: '2', memory: '2Gi' } }), [limitRange], 37)).toBe(
      '[maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]',
    )
  })
  it('words the missing request or limit, and the ratio with %f', () => {
    expect(validateLimitRanger('pods', pod({}), [lr([{ type: 'Container', min: { cpu: '100m' } }])], 37)).toBe(
      'minimum cpu usage per Container is 100m.  No request is specified',
    )
    expect(validateLimitRanger('pods', pod({}), [lr([{ type: 'Container', max: { cpu: '1' } }])], 37)).toBe(
      'maximum cpu usage per Container is 1.  No limit is specified',
    )
    const ratio = lr([{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }])
    expect(validateLimitRanger('pods', pod({ requests: { cpu: '100m' }, limits: { cpu: '300m' } }), [ratio], 37)).toBe(
      'cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000',
    )
  })
  it('sums a Pod limit over the containers', () => {
    const two: JSONObject = {
      spec: {
        containers: [
          { name: 'a', resources: { limits: { cpu: '600m' }, requests: { cpu: '600m' } } },
          { name: 'b', resources: { limits: { cpu: '600m' }, requests: { cpu: '600m' } } },
        ],
      },
    }
    expect(validateLimitRanger('pods', two, [lr([{ type: 'Pod', max: { cpu: '1' } }])], 37)).toBe(
      'maximum cpu usage per Pod is 1, but limit is 1200m',
    )
  })
})

describe('LimitRanger helpers', () => {
  it('ScaledValue rounds up (resource.Quantity)', () => {
    expect(scaledValue(mustParseQuantity('1500m'), 0)).toBe(2n)
    expect(scaledValue(mustParseQuantity('1Gi'), -3)).toBe(1073741824000n)
    expect(scaledValue(mustParseQuantity('1.5'), -3)).toBe(1500n)
  })
  it('aggregates as utilerrors.NewAggregate', () => {
    expect(aggregate([])).toBeUndefined()
    expect(aggregate(['a'])).toBe('a')
    expect(aggregate(['a', 'a'])).toBe('a')
    expect(aggregate(['a', 'b', 'a'])).toBe('[a, b]')
  })
})
