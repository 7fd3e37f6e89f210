import { describe, expect, it } from 'vitest'
import { getWarningsForPod, getWarningsForPodTemplate } from '../../../src/builtin/warnings/pod.js'
import { FieldPath } from '../../../src/kube/field.js'
import type { JSONObject } from '../../../src/kube/values/json.js'

// Rows of k8s.io/kubernetes v1.37.2 pkg/api/pod/warnings_test.go (TestWarnings, TestTemplateOnlyWarnings),
// the internal Go objects written as their v1 JSON. As there, each row runs as a template (a nil path) and
// as a Pod, and the warnings are compared as sorted lists (cmpopts.SortSlices).

interface Row {
  readonly name: string
  readonly template: JSONObject
  readonly expected: readonly string[]
  /** The release: 1.32 stands for the GitRepoVolumeDriver gate on (Go's test turns it on in its rows). */
  readonly minor?: number
}

const vol = (source: JSONObject): JSONObject => ({ spec: { volumes: [{ name: 's', ...source }] } })
const projected = (sources: JSONObject[]): JSONObject => ({
  spec: { volumes: [{ name: 'foo', projected: { sources } }] },
})
const ports = (...containers: JSONObject[][]): JSONObject => ({
  spec: { containers: containers.map((p, i) => ({ name: `c${i}`, ports: p })) },
})
const fractional = (p: string) => `${p}: fractional byte value "4m" is invalid, must be an integer`
const resources = { cpu: '100m', memory: '4m', 'ephemeral-storage': '4m' }
const deprecatedKeys = [
  'foo',
  'beta.kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'beta.kubernetes.io/instance-type',
]
const deprecatedTexts = [
  'beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
]
const hides = (p: string, n: string) =>
  `${p}: hides previous definition of "${n}", which may be dropped when using apply`
const envRows = (n: string) => [
  { name: n, value: n },
  { name: n, value: n },
  { name: n, value: 'other' },
  { name: n, value: '' },
  { name: n, value: `$(${n})` },
  { name: n, valueFrom: {} },
  { name: n, value: `$(${n}) $(${n})` }, // no warning
]

const ROWS: readonly Row[] = [
  {
    name: 'photon',
    template: vol({ photonPersistentDisk: { pdID: 'x' } }),
    expected: ['spec.volumes[0].photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+'],
  },
  {
    name: 'gitRepo',
    minor: 32,
    template: vol({ gitRepo: { repository: 'r' } }),
    expected: ['spec.volumes[0].gitRepo: deprecated in v1.11'],
  },
  {
    name: 'gitRepo plugin disabled',
    template: vol({ gitRepo: { repository: 'r' } }),
    expected: ['spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+'],
  },
  {
    name: 'scaleIO',
    template: vol({ scaleIO: {} }),
    expected: ['spec.volumes[0].scaleIO: deprecated in v1.16, non-functional in v1.22+'],
  },
  {
    name: 'flocker',
    template: vol({ flocker: {} }),
    expected: ['spec.volumes[0].flocker: deprecated in v1.22, non-functional in v1.25+'],
  },
  {
    name: 'storageOS',
    // the JSON name is storageos (core/v1 VolumeSource); the warning prints the Go field's name
    template: vol({ storageos: {} }),
    expected: ['spec.volumes[0].storageOS: deprecated in v1.22, non-functional in v1.25+'],
  },
  {
    name: 'quobyte',
    template: vol({ quobyte: {} }),
    expected: ['spec.volumes[0].quobyte: deprecated in v1.22, non-functional in v1.25+'],
  },
  {
    name: 'glusterfs',
    template: vol({ glusterfs: {} }),
    expected: ['spec.volumes[0].glusterfs: deprecated in v1.25, non-functional in v1.26+'],
  },
  {
    name: 'CephFS',
    template: vol({ cephfs: {} }),
    expected: ['spec.volumes[0].cephfs: deprecated in v1.28, non-functional in v1.31+'],
  },
  {
    name: 'rbd',
    template: vol({ rbd: {} }),
    expected: ['spec.volumes[0].rbd: deprecated in v1.28, non-functional in v1.31+'],
  },
  {
    name: 'overlapping paths in a configmap volume',
    template: {
      spec: {
        volumes: [
          {
            name: 'Test',
            configMap: {
              name: 'foo',
              items: [
                { key: 'foo', path: 'test' },
                { key: 'bar', path: 'test' },
              ],
            },
          },
        ],
      },
    },
    expected: ['volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in a configmap volume - try to mount dir path into a file',
    template: {
      spec: {
        volumes: [
          {
            name: 'Test',
            configMap: {
              name: 'foo',
              items: [
                { key: 'foo', path: 'test' },
                { key: 'bar', path: 'test/app' },
              ],
            },
          },
        ],
      },
    },
    expected: ['volume "Test" (ConfigMap "foo"): overlapping paths: "test/app" with "test"'],
  },
  {
    name: 'overlapping paths in a secret volume',
    template: {
      spec: {
        volumes: [
          {
            name: 'Test',
            secret: {
              secretName: 'foo',
              items: [
                { key: 'foo', path: 'test' },
                { key: 'bar', path: 'test' },
              ],
            },
          },
        ],
      },
    },
    expected: ['volume "Test" (Secret "foo"): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in a downward api volume',
    template: {
      spec: {
        volumes: [
          {
            name: 'Test',
            downwardAPI: {
              items: [
                { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' }, path: 'test' },
                { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' }, path: 'test' },
              ],
            },
          },
        ],
      },
    },
    expected: ['volume "Test" (DownwardAPI): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in projected volume - service account dir and config file',
    template: projected([
      { configMap: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } },
      { serviceAccountToken: { path: 'test/file' } },
    ]),
    expected: [
      'volume "foo" (Projected): overlapping paths: "test/file" (ServiceAccountToken) with "test" (ConfigMap "Test")',
    ],
  },
  {
    name: 'overlapping paths in projected volume - service account and cluster trust bundle with signer name',
    template: projected([
      { clusterTrustBundle: { signerName: 'Test', path: 'test' } },
      { serviceAccountToken: { path: 'test' } },
    ]),
    expected: [
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ClusterTrustBundle "Test")',
    ],
  },
  {
    name: 'overlapping paths in projected volume - multiple sources',
    template: projected([
      { clusterTrustBundle: { signerName: 'Test', path: 'test/test' } },
      { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' }, path: 'test' }] } },
      { secret: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } },
      { serviceAccountToken: { path: 'test' } },
    ]),
    expected: [
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test" (DownwardAPI)',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (DownwardAPI)',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (Secret "Test")',
    ],
  },
  {
    name: 'overlapping paths in projected volume - ServiceAccount vs. DownwardAPI',
    template: projected([
      { serviceAccountToken: { path: 'test/test2' } },
      {
        downwardAPI: {
          items: [
            { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' }, path: 'test' },
            { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' }, path: 'test' },
          ],
        },
      },
    ]),
    expected: [
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test2" (ServiceAccountToken)',
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test2" (ServiceAccountToken)',
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test" (DownwardAPI)',
    ],
  },
  {
    name: 'empty sources in projected volume',
    template: projected([{}]),
    expected: ['volume "foo" (Projected) has no sources provided'],
  },
  {
    name: 'duplicate hostAlias',
    template: { spec: { hostAliases: [{ ip: '1.1.1.1' }, { ip: '1.1.1.1' }, { ip: '1.1.1.1' }] } },
    expected: ['spec.hostAliases[1].ip: duplicate ip "1.1.1.1"', 'spec.hostAliases[2].ip: duplicate ip "1.1.1.1"'],
  },
  {
    name: 'duplicate imagePullSecret',
    template: { spec: { imagePullSecrets: [{ name: 'a' }, { name: 'a' }, { name: 'a' }] } },
    expected: [
      'spec.imagePullSecrets[1].name: duplicate name "a"',
      'spec.imagePullSecrets[2].name: duplicate name "a"',
    ],
  },
  {
    name: 'empty imagePullSecret',
    template: { spec: { imagePullSecrets: [{ name: '' }] } },
    expected: ['spec.imagePullSecrets[0].name: invalid empty name ""'],
  },
  {
    name: 'duplicate env',
    template: { spec: { initContainers: [{ env: envRows('a') }], containers: [{ env: envRows('b') }] } },
    expected: [1, 2, 3, 4, 5].flatMap((i) => [
      hides(`spec.initContainers[0].env[${i}]`, 'a'),
      hides(`spec.containers[0].env[${i}]`, 'b'),
    ]),
  },
  {
    name: 'fractional resources',
    template: {
      spec: {
        initContainers: [{ resources: { requests: resources, limits: resources } }],
        containers: [{ resources: { requests: resources, limits: resources } }],
        overhead: resources,
      },
    },
    expected: ['spec.initContainers[0]', 'spec.containers[0]']
      .flatMap((c) =>
        ['requests', 'limits'].flatMap((l) =>
          ['ephemeral-storage', 'memory'].map((r) => fractional(`${c}.resources.${l}[${r}]`)),
        ),
      )
      .concat([fractional('spec.overhead[ephemeral-storage]'), fractional('spec.overhead[memory]')]),
  },
  {
    name: 'node labels in nodeSelector',
    template: { spec: { nodeSelector: Object.fromEntries(deprecatedKeys.slice(1).map((k) => [k, 'true'])) } },
    expected: [
      'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.nodeSelector[beta.kubernetes.io/instance-type]: deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.nodeSelector[failure-domain.beta.kubernetes.io/region]: deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      'spec.nodeSelector[failure-domain.beta.kubernetes.io/zone]: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ],
  },
  {
    name: 'node labels in affinity requiredDuringSchedulingIgnoredDuringExecution',
    template: {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: deprecatedKeys.map((key) => ({ key })) }],
            },
          },
        },
      },
    },
    expected: deprecatedTexts.map(
      (t, i) =>
        `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[${i + 1}].key: ${t}`,
    ),
  },
  {
    name: 'node labels in affinity preferredDuringSchedulingIgnoredDuringExecution',
    template: {
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { preference: { matchExpressions: deprecatedKeys.map((key) => ({ key })) } },
            ],
          },
        },
      },
    },
    expected: deprecatedTexts.map(
      (t, i) =>
        `spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[${i + 1}].key: ${t}`,
    ),
  },
  {
    name: 'node labels in topologySpreadConstraints',
    template: {
      spec: { topologySpreadConstraints: deprecatedKeys.map((topologyKey) => ({ topologyKey, labelSelector: {} })) },
    },
    expected: deprecatedTexts.map((t, i) => `spec.topologySpreadConstraints[${i + 1}].topologyKey: ${t}`),
  },
  {
    name: 'annotations',
    template: {
      metadata: {
        annotations: {
          foo: 'bar',
          'scheduler.alpha.kubernetes.io/critical-pod': 'true',
          'seccomp.security.alpha.kubernetes.io/pod': 'default',
          'container.seccomp.security.alpha.kubernetes.io/foo': 'default',
          'security.alpha.kubernetes.io/sysctls': 'a,b,c',
          'security.alpha.kubernetes.io/unsafe-sysctls': 'd,e,f',
        },
      },
      spec: { containers: [{ name: 'foo' }] },
    },
    expected: [
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/foo]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/unsafe-sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
    ],
  },
  {
    name: 'seccomp fields',
    template: {
      metadata: {
        annotations: {
          'seccomp.security.alpha.kubernetes.io/pod': 'default',
          'container.seccomp.security.alpha.kubernetes.io/foo': 'default',
        },
      },
      spec: {
        securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
        containers: [{ name: 'foo', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }],
      },
    },
    expected: [],
  },
  {
    name: 'pod with ephemeral volume source 200Mi',
    template: vol({ ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '200Mi' } } } } } }),
    expected: [],
  },
  {
    name: 'pod with ephemeral volume source 200m',
    template: vol({ ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '200m' } } } } } }),
    expected: [
      'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "200m" is invalid, must be an integer',
    ],
  },
  {
    name: 'terminationGracePeriodSeconds is negative',
    template: { spec: { terminationGracePeriodSeconds: -1 } },
    expected: [
      'spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    ],
  },
  {
    name: 'null LabelSelector in topologySpreadConstraints',
    template: { spec: { topologySpreadConstraints: [{ labelSelector: {} }, {}] } },
    expected: ['spec.topologySpreadConstraints[1].labelSelector: a null labelSelector results in matching no pod'],
  },
  {
    name: 'null LabelSelector in PodAffinity',
    template: {
      spec: {
        affinity: Object.fromEntries(
          ['podAffinity', 'podAntiAffinity'].map((k) => [
            k,
            {
              requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }, {}],
              preferredDuringSchedulingIgnoredDuringExecution: [
                { podAffinityTerm: { labelSelector: {} } },
                { podAffinityTerm: {} },
              ],
            },
          ]),
        ),
      },
    },
    expected: ['podAffinity', 'podAntiAffinity'].flatMap((k) => [
      `spec.affinity.${k}.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod`,
      `spec.affinity.${k}.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod`,
    ]),
  },
  { name: 'container no ports', template: ports([]), expected: [] },
  {
    name: 'duplicate container ports with same port and protocol',
    template: ports([
      { containerPort: 80, protocol: 'UDP' },
      { containerPort: 80, protocol: 'UDP' },
    ]),
    expected: ['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'one container port hostIP set without host port set',
    template: ports([{ containerPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }]),
    expected: [
      'spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}',
    ],
  },
  {
    name: 'duplicate container ports with one host port set and one without',
    template: ports([
      { containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' },
      { containerPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' },
    ]),
    expected: [
      'spec.containers[0].ports[1]: overlapping port definition with spec.containers[0].ports[0]',
      'spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}',
    ],
  },
  {
    name: 'duplicate container ports without one host IP set and two with',
    template: ports([
      { containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' },
      { containerPort: 80, hostPort: 80, protocol: 'UDP' },
      { containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.2' },
    ]),
    expected: [
      'spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]',
      'spec.containers[0].ports[2]: dangerously ambiguous port definition with spec.containers[0].ports[1]',
    ],
  },
  {
    name: 'duplicate containers with one host port set and one without',
    template: ports(
      [{ containerPort: 80, hostPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }],
      [{ containerPort: 80, protocol: 'UDP', hostIP: '10.0.0.1' }],
    ),
    expected: [
      'spec.containers[1].ports[0]: overlapping port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}',
    ],
  },
  {
    name: 'create duplicate container ports in two containers',
    template: ports(
      [
        { containerPort: 80, hostPort: 80, protocol: 'UDP' },
        { containerPort: 180, hostPort: 80, protocol: 'UDP' },
        { containerPort: 80, hostPort: 80, protocol: 'UDP' },
      ],
      [
        { containerPort: 80, hostPort: 80, protocol: 'UDP' },
        { containerPort: 80, hostPort: 80, protocol: 'UDP' },
      ],
    ),
    expected: [
      'spec.containers[0].ports[2]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[1].ports[0]',
    ],
  },
  {
    name: 'create duplicate container ports name in two containers',
    template: ports(
      [{ containerPort: 80, protocol: 'UDP', name: 'test' }],
      [{ containerPort: 8090, protocol: 'TCP', name: 'test' }],
    ),
    expected: [
      'spec.containers[1].ports[0]: duplicate port name "test" with spec.containers[0].ports[0], services and probes that select ports by name will use spec.containers[0].ports[0]',
    ],
  },
  {
    name: 'creating pod with invalid value in nodeaffinity',
    template: {
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 10, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['-1'] }] } },
            ],
          },
        },
      },
    },
    expected: [
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[0]: -1 is invalid, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  },
  {
    name: 'dubious IP address formats',
    template: {
      spec: { dnsConfig: { nameservers: ['1.2.3.4', '05.06.07.08'] }, hostAliases: [{ ip: '::ffff:1.2.3.4' }] },
    },
    expected: [
      'spec.dnsConfig.nameservers[1]: non-standard IP address "05.06.07.08" is invalid: use "5.6.7.8"',
      'spec.hostAliases[0].ip: non-standard IP address "::ffff:1.2.3.4" is invalid: use "1.2.3.4"',
    ],
  },
]

const sorted = (a: readonly string[]) => [...a].sort()

describe('pkg/api/pod/warnings_test.go TestWarnings', () => {
  for (const row of ROWS) {
    it(`podspec_${row.name}`, () => {
      expect(sorted(getWarningsForPodTemplate(undefined, row.template, row.minor ?? 37))).toEqual(sorted(row.expected))
    })
    it(`pod_${row.name}`, () => {
      expect(sorted(getWarningsForPod(row.template, row.minor ?? 37))).toEqual(sorted(row.expected))
    })
  }
  it('null: no template, no warnings', () => {
    expect(getWarningsForPodTemplate(undefined, undefined, 37)).toEqual([])
  })
})

// TestTemplateOnlyWarnings: the AppArmor annotation is warned about in a template (path `template`), never by
// GetWarningsForPod (a Pod's: the strategy's applyAppArmorVersionSkew).
const APPARMOR = 'container.apparmor.security.beta.kubernetes.io/foo'
const APPARMOR_WARNING = `template.metadata.annotations[${APPARMOR}]: deprecated since v1.30; use the "appArmorProfile" field instead`
const TEMPLATE_ONLY: readonly Row[] = [
  {
    name: 'AppArmor annotations',
    template: { metadata: { annotations: { [APPARMOR]: 'unconfined' } }, spec: { containers: [{ name: 'foo' }] } },
    expected: [APPARMOR_WARNING],
  },
  {
    name: 'AppArmor matching pod field',
    template: {
      metadata: { annotations: { [APPARMOR]: 'unconfined' } },
      spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [{ name: 'foo' }] },
    },
    expected: [],
  },
  {
    name: 'AppArmor different pod field',
    template: {
      metadata: { annotations: { [APPARMOR]: 'localhost/foo' } },
      spec: {
        securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'bar' } },
        containers: [{ name: 'foo' }],
      },
    },
    expected: [APPARMOR_WARNING],
  },
  {
    name: 'AppArmor container field',
    template: {
      metadata: { annotations: { [APPARMOR]: 'unconfined' } },
      spec: { containers: [{ name: 'foo', securityContext: { appArmorProfile: { type: 'Unconfined' } } }] },
    },
    expected: [],
  },
]

describe('pkg/api/pod/warnings_test.go TestTemplateOnlyWarnings', () => {
  for (const row of TEMPLATE_ONLY) {
    it(`podspec_${row.name}`, () => {
      expect(sorted(getWarningsForPodTemplate(FieldPath.of('template'), row.template, 37))).toEqual(
        sorted(row.expected),
      )
    })
    it(`pod_${row.name}`, () => {
      expect(getWarningsForPod(row.template, 37)).toEqual([])
    })
  }
})

describe('hostile input', () => {
  it('reads __proto__ keys as data and wrong types as absent', () => {
    const template = JSON.parse(
      '{"metadata":{"annotations":{"__proto__":"x"}},"spec":{"nodeSelector":{"__proto__":"x"},"containers":[7,{"name":"__proto__","env":"x","ports":[{"containerPort":"80"}]}],"volumes":{"length":3}}}',
    )
    expect(getWarningsForPod(template, 37)).toEqual([])
  })
})
