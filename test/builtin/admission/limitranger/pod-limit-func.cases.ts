// generated from kubernetes plugin/pkg/admission/limitranger/admission_test.go TestPodLimitFunc (v1.37.2):
// the Go rows with the Go helpers' names (helpers.ts), api.ResourceList{} as {}
import {
  createLimitRange,
  getComputeResourceList,
  getLocalStorageResourceList,
  getResourceRequirements,
  type TestCase,
  validPod,
  validPodInit,
  validPodWithPodLevelResources,
  withRestartableInitContainer,
} from './helpers.js'

export const successCases: TestCase[] = [
  {
    pod: validPod(
      'ctr-min-cpu-request',
      1,
      getResourceRequirements(getComputeResourceList('100m', ''), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('50m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-min-cpu-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('100m', ''), getComputeResourceList('200m', '')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('50m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-min-memory-request',
      1,
      getResourceRequirements(getComputeResourceList('', '60Mi'), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('', '50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-min-memory-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', '60Mi'), getComputeResourceList('', '100Mi')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('', '50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-cpu-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('500m', ''), getComputeResourceList('1', '')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-cpu-limit',
      1,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('1', '')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-mem-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', '250Mi'), getComputeResourceList('', '500Mi')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-cpu-ratio',
      1,
      getResourceRequirements(getComputeResourceList('500m', ''), getComputeResourceList('750m', '')),
    ),
    limitRange: createLimitRange('Container', {}, {}, {}, {}, getComputeResourceList('1.5', '')),
  },
  {
    pod: validPod(
      'ctr-max-mem-limit',
      1,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '500Mi')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-cpu-request',
      2,
      getResourceRequirements(getComputeResourceList('75m', ''), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('100m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-cpu-request-limit',
      2,
      getResourceRequirements(getComputeResourceList('75m', ''), getComputeResourceList('200m', '')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('100m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-memory-request',
      2,
      getResourceRequirements(getComputeResourceList('', '60Mi'), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('', '100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-memory-request-limit',
      2,
      getResourceRequirements(getComputeResourceList('', '60Mi'), getComputeResourceList('', '100Mi')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('', '100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPodInit(
      validPod(
        'pod-init-min-memory-request',
        2,
        getResourceRequirements(getComputeResourceList('', '60Mi'), getComputeResourceList('', '')),
      ),
      getResourceRequirements(getComputeResourceList('', '100Mi'), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('', '100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPodInit(
      validPod(
        'pod-init-min-memory-request-limit',
        2,
        getResourceRequirements(getComputeResourceList('', '60Mi'), getComputeResourceList('', '100Mi')),
      ),
      getResourceRequirements(getComputeResourceList('', '80Mi'), getComputeResourceList('', '100Mi')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('', '100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-cpu-request-limit',
      2,
      getResourceRequirements(getComputeResourceList('500m', ''), getComputeResourceList('1', '')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-cpu-limit',
      2,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('1', '')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPodInit(
      validPod(
        'pod-init-max-cpu-request-limit',
        2,
        getResourceRequirements(getComputeResourceList('500m', ''), getComputeResourceList('1', '')),
      ),
      getResourceRequirements(getComputeResourceList('1', ''), getComputeResourceList('2', '')),
      getResourceRequirements(getComputeResourceList('1', ''), getComputeResourceList('1', '')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPodInit(
      validPod(
        'pod-init-max-cpu-limit',
        2,
        getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('1', '')),
      ),
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('2', '')),
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('2', '')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-mem-request-limit',
      2,
      getResourceRequirements(getComputeResourceList('', '250Mi'), getComputeResourceList('', '500Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-mem-limit',
      2,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '500Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-mem-ratio',
      3,
      getResourceRequirements(getComputeResourceList('', '300Mi'), getComputeResourceList('', '450Mi')),
    ),
    limitRange: createLimitRange(
      'Pod',
      {},
      getComputeResourceList('', '2Gi'),
      {},
      {},
      getComputeResourceList('', '1.5'),
    ),
  },
  {
    pod: validPod(
      'ctr-1-min-local-ephemeral-storage-request',
      1,
      getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-1-min-local-ephemeral-storage-request-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('100Mi')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-1-max-local-ephemeral-storage-request-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList('250Mi'), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-1-max-local-ephemeral-storage-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-min-local-ephemeral-storage-request',
      2,
      getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-min-local-ephemeral-storage-request-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('100Mi')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-max-local-ephemeral-storage-request-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList('250Mi'), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('600Mi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-max-local-ephemeral-storage-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('600Mi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-local-ephemeral-storage-request',
      2,
      getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Pod', getLocalStorageResourceList('100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-local-ephemeral-storage-request-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('100Mi')),
    ),
    limitRange: createLimitRange('Pod', getLocalStorageResourceList('100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPodInit(
      validPod(
        'pod-init-min-local-ephemeral-storage-request',
        2,
        getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('')),
      ),
      getResourceRequirements(getLocalStorageResourceList('100Mi'), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Pod', getLocalStorageResourceList('100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPodInit(
      validPod(
        'pod-init-min-local-ephemeral-storage-request-limit',
        2,
        getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('100Mi')),
      ),
      getResourceRequirements(getLocalStorageResourceList('80Mi'), getLocalStorageResourceList('100Mi')),
    ),
    limitRange: createLimitRange('Pod', getLocalStorageResourceList('100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-local-ephemeral-storage-request-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList('250Mi'), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-local-ephemeral-storage-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-local-ephemeral-storage-ratio',
      3,
      getResourceRequirements(getLocalStorageResourceList('300Mi'), getLocalStorageResourceList('450Mi')),
    ),
    limitRange: createLimitRange(
      'Pod',
      {},
      getLocalStorageResourceList('2Gi'),
      {},
      {},
      getLocalStorageResourceList('1.5'),
    ),
  },
  {
    pod: validPodWithPodLevelResources(
      'pod-level-resources-with-min-max',
      3,
      getResourceRequirements(getComputeResourceList('100m', '60Mi'), getComputeResourceList('200m', '100Mi')),
      getResourceRequirements(getComputeResourceList('200m', '180Mi'), getComputeResourceList('400m', '200Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('400m', '200Mi'), {}, {}, {}),
    podLevelResourcesEnabled: true,
  },
  {
    pod: validPodWithPodLevelResources(
      'pod-level-requests-with-min',
      3,
      getResourceRequirements(getComputeResourceList('50m', '60Mi'), getComputeResourceList('', '')),
      getResourceRequirements(getComputeResourceList('160m', '200Mi'), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange(
      'Pod',
      getComputeResourceList('160m', '200Mi'),
      getComputeResourceList('', ''),
      {},
      {},
      {},
    ),
    podLevelResourcesEnabled: true,
  },
  {
    pod: validPodWithPodLevelResources(
      'pod-level-limits-with-max',
      3,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('50m', '60Mi')),
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('160m', '200Mi')),
    ),
    limitRange: createLimitRange(
      'Pod',
      getComputeResourceList('', ''),
      getComputeResourceList('160m', '200Mi'),
      {},
      {},
      {},
    ),
    podLevelResourcesEnabled: true,
  },
]

export const errorCases: TestCase[] = [
  {
    pod: validPod(
      'ctr-min-cpu-request',
      1,
      getResourceRequirements(getComputeResourceList('40m', ''), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('50m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-min-cpu-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('40m', ''), getComputeResourceList('200m', '')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('50m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-min-cpu-no-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('50m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-min-memory-request',
      1,
      getResourceRequirements(getComputeResourceList('', '40Mi'), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('', '50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-min-memory-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', '40Mi'), getComputeResourceList('', '100Mi')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('', '50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-min-memory-no-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Container', getComputeResourceList('', '50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-cpu-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('500m', ''), getComputeResourceList('2500m', '')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-cpu-limit',
      1,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('2500m', '')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-cpu-no-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-cpu-ratio',
      1,
      getResourceRequirements(getComputeResourceList('1250m', ''), getComputeResourceList('2500m', '')),
    ),
    limitRange: createLimitRange('Container', {}, {}, {}, {}, getComputeResourceList('1', '')),
  },
  {
    pod: validPod(
      'ctr-max-mem-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', '250Mi'), getComputeResourceList('', '2Gi')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-mem-limit',
      1,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '2Gi')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-max-mem-no-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Container', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-cpu-request',
      1,
      getResourceRequirements(getComputeResourceList('75m', ''), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('100m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-cpu-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('75m', ''), getComputeResourceList('200m', '')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('100m', ''), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-memory-request',
      1,
      getResourceRequirements(getComputeResourceList('', '60Mi'), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('', '100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-memory-request-limit',
      1,
      getResourceRequirements(getComputeResourceList('', '60Mi'), getComputeResourceList('', '100Mi')),
    ),
    limitRange: createLimitRange('Pod', getComputeResourceList('', '100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-cpu-request-limit',
      3,
      getResourceRequirements(getComputeResourceList('500m', ''), getComputeResourceList('1', '')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-cpu-limit',
      3,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('1', '')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-mem-request-limit',
      3,
      getResourceRequirements(getComputeResourceList('', '250Mi'), getComputeResourceList('', '500Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-mem-limit',
      3,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '500Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPodInit(
      validPod(
        'pod-init-max-mem-limit',
        1,
        getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '500Mi')),
      ),
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('', '1.5Gi')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('', '1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-mem-ratio',
      3,
      getResourceRequirements(getComputeResourceList('', '250Mi'), getComputeResourceList('', '500Mi')),
    ),
    limitRange: createLimitRange(
      'Pod',
      {},
      getComputeResourceList('', '2Gi'),
      {},
      {},
      getComputeResourceList('', '1.5'),
    ),
  },
  {
    pod: validPod(
      'ctr-1-min-local-ephemeral-storage-request',
      1,
      getResourceRequirements(getLocalStorageResourceList('40Mi'), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-1-min-local-ephemeral-storage-request-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList('40Mi'), getLocalStorageResourceList('100Mi')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-1-min-local-ephemeral-storage-no-request-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-1-max-local-ephemeral-storage-request-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList('250Mi'), getLocalStorageResourceList('2Gi')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-1-max-local-ephemeral-storage-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('2Gi')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-1-max-local-ephemeral-storage-no-request-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-min-local-ephemeral-storage-request',
      2,
      getResourceRequirements(getLocalStorageResourceList('40Mi'), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-min-local-ephemeral-storage-request-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList('40Mi'), getLocalStorageResourceList('100Mi')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-min-local-ephemeral-storage-no-request-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Container', getLocalStorageResourceList('50Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-max-local-ephemeral-storage-request-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList('250Mi'), getLocalStorageResourceList('2Gi')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-max-local-ephemeral-storage-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('2Gi')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'ctr-2-max-local-ephemeral-storage-no-request-limit',
      2,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Container', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-local-ephemeral-storage-request',
      1,
      getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('')),
    ),
    limitRange: createLimitRange('Pod', getLocalStorageResourceList('100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-min-local-ephemeral-storage-request-limit',
      1,
      getResourceRequirements(getLocalStorageResourceList('60Mi'), getLocalStorageResourceList('100Mi')),
    ),
    limitRange: createLimitRange('Pod', getLocalStorageResourceList('100Mi'), {}, {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-local-ephemeral-storage-request-limit',
      3,
      getResourceRequirements(getLocalStorageResourceList('250Mi'), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-local-ephemeral-storage-limit',
      3,
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPodInit(
      validPod(
        'pod-init-max-local-ephemeral-storage-limit',
        1,
        getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('500Mi')),
      ),
      getResourceRequirements(getLocalStorageResourceList(''), getLocalStorageResourceList('1.5Gi')),
    ),
    limitRange: createLimitRange('Pod', {}, getLocalStorageResourceList('1Gi'), {}, {}, {}),
  },
  {
    pod: validPod(
      'pod-max-local-ephemeral-storage-ratio',
      3,
      getResourceRequirements(getLocalStorageResourceList('250Mi'), getLocalStorageResourceList('500Mi')),
    ),
    limitRange: createLimitRange(
      'Pod',
      {},
      getLocalStorageResourceList('2Gi'),
      {},
      {},
      getLocalStorageResourceList('1.5'),
    ),
  },
  {
    pod: withRestartableInitContainer(
      getComputeResourceList('1500m', ''),
      {},
      validPod(
        'ctr-max-cpu-limit-restartable-init-container',
        1,
        getResourceRequirements(getComputeResourceList('1000m', ''), getComputeResourceList('1500m', '')),
      ),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('2', ''), {}, {}, {}),
  },
  {
    pod: validPodWithPodLevelResources(
      'pod-level-resources-exceeding-max',
      3,
      getResourceRequirements(getComputeResourceList('100m', '60Mi'), getComputeResourceList('200m', '100Mi')),
      getResourceRequirements(getComputeResourceList('200m', '180Mi'), getComputeResourceList('500m', '280Mi')),
    ),
    limitRange: createLimitRange('Pod', {}, getComputeResourceList('400m', '200Mi'), {}, {}, {}),
    podLevelResourcesEnabled: true,
  },
  {
    pod: validPodWithPodLevelResources(
      'pod-level-requests-less-than-min',
      3,
      getResourceRequirements(getComputeResourceList('50m', '60Mi'), getComputeResourceList('', '')),
      getResourceRequirements(getComputeResourceList('100m', '200Mi'), getComputeResourceList('', '')),
    ),
    limitRange: createLimitRange(
      'Pod',
      getComputeResourceList('160m', '200Mi'),
      getComputeResourceList('', ''),
      {},
      {},
      {},
    ),
    podLevelResourcesEnabled: true,
  },
  {
    pod: validPodWithPodLevelResources(
      'pod-level-limits-exceeding-max',
      3,
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('50m', '60Mi')),
      getResourceRequirements(getComputeResourceList('', ''), getComputeResourceList('160m', '300Mi')),
    ),
    limitRange: createLimitRange(
      'Pod',
      getComputeResourceList('', ''),
      getComputeResourceList('160m', '200Mi'),
      {},
      {},
      {},
    ),
    podLevelResourcesEnabled: true,
  },
]
