// The helpers of kubernetes plugin/pkg/admission/limitranger/admission_test.go (v1.37.2), as JSON objects of
// the v1 types, so that the Go test rows read as they are written there (pod-limit-func.cases.ts).

import type { JSONObject } from '../../../../src/kube/values/json.js'

export interface TestCase {
  pod: JSONObject
  limitRange: JSONObject
  podLevelResourcesEnabled?: boolean
}

export function getComputeResourceList(cpu: string, memory: string): JSONObject {
  const res: JSONObject = {}
  if (cpu !== '') res.cpu = cpu
  if (memory !== '') res.memory = memory
  return res
}
export function getStorageResourceList(storage: string): JSONObject {
  return storage !== '' ? { storage } : {}
}
export function getLocalStorageResourceList(ephemeralStorage: string): JSONObject {
  return ephemeralStorage !== '' ? { 'ephemeral-storage': ephemeralStorage } : {}
}
export function getResourceRequirements(requests: JSONObject, limits: JSONObject): JSONObject {
  return { requests, limits }
}
export function createLimitRange(
  type: string,
  min: JSONObject,
  max: JSONObject,
  defaultLimit: JSONObject,
  defaultRequest: JSONObject,
  maxLimitRequestRatio: JSONObject,
): JSONObject {
  return {
    metadata: { name: 'abc', namespace: 'test' },
    spec: { limits: [{ type, min, max, default: defaultLimit, defaultRequest, maxLimitRequestRatio }] },
  }
}
export function validPod(name: string, numContainers: number, resources: JSONObject): JSONObject {
  const containers: JSONObject[] = []
  for (let i = 0; i < numContainers; i++)
    containers.push({ image: `foo:V${i}`, resources: structuredClone(resources), name: `foo-${i}` })
  return { metadata: { name, namespace: 'test' }, spec: { containers } }
}
const initContainers = (pod: JSONObject): JSONObject[] => {
  const spec = pod.spec as JSONObject
  spec.initContainers ??= []
  return spec.initContainers as JSONObject[]
}
export function validPodInit(pod: JSONObject, ...resources: JSONObject[]): JSONObject {
  for (let i = 0; i < resources.length; i++)
    initContainers(pod).push({ image: `foo:V${i}`, resources: structuredClone(resources[i]), name: `foo-${i}` })
  return pod
}
export function validPodWithPodLevelResources(
  name: string,
  numContainers: number,
  containerResources: JSONObject,
  podResources: JSONObject,
): JSONObject {
  const pod = validPod(name, numContainers, containerResources)
  ;(pod.spec as JSONObject).resources = podResources
  return pod
}
export function withRestartableInitContainer(requests: JSONObject, limits: JSONObject, pod: JSONObject): JSONObject {
  const list = initContainers(pod)
  list.push({
    restartPolicy: 'Always',
    image: `foo:V${list.length}`,
    resources: getResourceRequirements(requests, limits),
    name: `foo-${list.length}`,
  })
  return pod
}
/** validLimitRange(): a Pod and a Container limit. */
export function validLimitRange(): JSONObject {
  return {
    metadata: { name: 'abc', namespace: 'test' },
    spec: {
      limits: [
        { type: 'Pod', max: getComputeResourceList('200m', '4Gi'), min: getComputeResourceList('50m', '2Mi') },
        {
          type: 'Container',
          max: getComputeResourceList('100m', '2Gi'),
          min: getComputeResourceList('25m', '1Mi'),
          default: getComputeResourceList('75m', '10Mi'),
          defaultRequest: getComputeResourceList('50m', '5Mi'),
        },
      ],
    },
  }
}
export function validPersistentVolumeClaim(name: string, resources: JSONObject): JSONObject {
  return { metadata: { name, namespace: 'test' }, spec: { resources } }
}
