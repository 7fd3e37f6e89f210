import { describe, expect, it } from 'vitest'
import { type FeatureGate, featureEnabled } from '../../src/kube/feature-gates.js'

// The per-release defaults, read off the versioned specs of kubernetes v1.37.2 pkg/features/kube_features.go
// (e.g. `UserNamespacesSupport: {{1.25, false, Alpha}, {1.30, false, Beta}, {1.33, true, Beta}, {1.36, true,
// GA, LockToDefault}}`): the first release each gate is on by default, or undefined when it is off in all of
// 1.30–1.37.
const FIRST_ON: [FeatureGate, number | undefined][] = [
  ['UserNamespacesSupport', 33],
  ['SupplementalGroupsPolicy', 33],
  ['PodLevelResources', 34],
  ['ProcMountType', 33],
  ['MatchLabelKeysInPodAffinity', 31],
  ['DynamicResourceAllocation', 34],
  ['ClusterTrustBundleProjection', 37],
  ['PodCertificateRequest', 37],
  ['InPlacePodVerticalScaling', 33],
  ['ContainerRestartRules', 35],
  ['RecursiveReadOnlyMounts', 31],
  ['HostnameOverride', 35],
  ['EnvFiles', 35],
  ['ImageVolume', 35],
  ['SELinuxChangePolicy', 33],
  ['JobManagedBy', 32],
  ['VolumeAttributesClass', 34],
  ['MaxUnavailableStatefulSet', 37],
  ['HPAConfigurableTolerance', 35],
  ['PreferSameTrafficDistribution', 34],
  ['MutableCSINodeAllocatableCount', 35],
  ['VolumeLimitScaling', 37],
  ['NodeInclusionPolicyInPodTopologySpread', 30],
  ['MatchLabelKeysInPodTopologySpread', 30],
  ['ContainerStopSignals', undefined],
  ['CrossNamespaceVolumeDataSource', undefined],
  ['AtomicWriteVolumeUserFields', undefined],
  ['EmptyDirVolumeMode', undefined],
  ['VolumeBindMountOptions', undefined],
  ['GRPCContainerProbeTLS', undefined],
  ['H2CContainerProbe', undefined],
  ['EvictionRequestAPI', undefined],
  ['GenericWorkload', undefined],
  ['WorkloadWithJob', undefined],
]

describe('feature gate defaults per release (kube_features.go v1.37.2)', () => {
  it.each(FIRST_ON)('%s', (gate, first) => {
    for (let minor = 30; minor <= 37; minor++)
      expect(featureEnabled(gate, minor), `1.${minor}`).toBe(first !== undefined && minor >= first)
  })
})
