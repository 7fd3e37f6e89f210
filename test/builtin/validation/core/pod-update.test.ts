import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import { errors, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go TestValidatePodUpdate (and, for 1.30,
// the Pod QoS rule of release-1.30's ValidatePodUpdate). Go builds internal Pods with podtest.MakePod
// (one container "ctr", dnsPolicy ClusterFirst, restartPolicy Always, terminationGracePeriodSeconds 30)
// and asserts a substring of the aggregate; the paths and types here are the ones validation.go reports
// for the whole list (spec validation of the new pod included, which Go repeats: a bad new image or
// toleration is reported by ValidatePodSpec and again by the update rule). Objects are v1, decoded and
// defaulted first (limits are copied into absent requests, ports get protocol TCP).

const ctr = (name: string, extra: O = {}): O => ({
  name,
  image: 'image',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File',
  ...extra,
})
const pod = (spec: O = {}, meta: O = {}, name = 'foo'): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', resourceVersion: '1', ...meta },
  spec: {
    containers: [ctr('ctr')],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    ...spec,
  },
})
const ft = (n: O, o: O, minor = 37) => errors(n, o, minor).map((e) => `${e.field} ${e.type}`)
const res = (cpu: string, memory: string, eph: string): O => {
  const r: O = {}
  if (cpu !== '') r.cpu = cpu
  if (memory !== '') r.memory = memory
  if (eph !== '') r['ephemeral-storage'] = eph
  return r
}
const withResources = (r: O): O => ({ containers: [ctr('container', { resources: r })] })
const req = (key: string, ...values: string[]): O => ({ key, operator: 'In', values })
const required = (...terms: O[]): O => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
})
const preferred = (preference: O): O => ({
  nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference }] },
})
const gated = { schedulingGates: [{ name: 'baz' }] }
const tol = (key: string, value: string, extra: O = {}): O => ({ key, value, ...extra })
const noExec = (key: string, value: string, seconds: number, effect = 'NoExecute'): O =>
  tol(key, value, { operator: 'Equal', effect, tolerationSeconds: seconds })

const FORBIDDEN = 'spec FieldValueForbidden'
const TERMS = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms'

describe('TestValidatePodUpdate', () => {
  const cases: [string, O, O, string[]][] = [
    ['nothing', pod(), pod(), []],
    ['ids', pod({}, {}, 'foo'), pod({}, {}, 'bar'), ['metadata.name FieldValueInvalid']],
    ['labels', pod({}, { labels: { foo: 'bar' } }), pod({}, { labels: { bar: 'foo' } }), []],
    ['annotations', pod({}, { annotations: { foo: 'bar' } }), pod({}, { annotations: { bar: 'foo' } }), []],
    [
      'less containers',
      pod({ containers: [ctr('foo', { image: 'foo:V2' })] }),
      pod({ containers: [ctr('foo', { image: 'foo:V1' }), ctr('bar', { image: 'bar:V1' })] }),
      ['spec.containers FieldValueForbidden'],
    ],
    [
      'more containers',
      pod({ containers: [ctr('foo', { image: 'foo:V2' }), ctr('bar', { image: 'bar:V2' })] }),
      pod({ containers: [ctr('foo', { image: 'foo:V1' })] }),
      ['spec.containers FieldValueForbidden'],
    ],
    [
      'more init containers',
      pod({ initContainers: [ctr('foo', { image: 'foo:V2' })] }),
      pod({ initContainers: [ctr('foo', { image: 'foo:V1' }), ctr('bar', { image: 'bar:V1' })] }),
      ['spec.initContainers FieldValueForbidden'],
    ],
    [
      'deletion timestamp removed',
      pod(),
      pod({}, { deletionTimestamp: '2024-01-01T00:00:00Z' }),
      ['metadata.deletionTimestamp FieldValueInvalid'],
    ],
    [
      'deletion timestamp added',
      pod({}, { deletionTimestamp: '2024-01-01T00:00:00Z' }),
      pod(),
      ['metadata.deletionTimestamp FieldValueInvalid'],
    ],
    [
      'deletion grace period seconds changed',
      pod({}, { deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 }),
      pod({}, { deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 31 }),
      ['metadata.deletionGracePeriodSeconds FieldValueInvalid'],
    ],
    [
      'image change',
      pod({ containers: [ctr('container', { image: 'foo:V1' })] }),
      pod({ containers: [ctr('container', { image: 'foo:V2' })] }),
      [],
    ],
    [
      'init container image change',
      pod({ initContainers: [ctr('container', { image: 'foo:V1' })] }),
      pod({ initContainers: [ctr('container', { image: 'foo:V2' })] }),
      [],
    ],
    [
      'image change to empty',
      pod({ containers: [ctr('container', { image: '' })] }),
      pod({ containers: [ctr('container', { image: 'foo:V2' })] }),
      ['spec.containers[0].image FieldValueRequired', 'spec.containers[0].image FieldValueRequired'],
    ],
    [
      'init container image change to empty',
      pod({ initContainers: [ctr('container', { image: '' })] }),
      pod({ initContainers: [ctr('container', { image: 'foo:V2' })] }),
      ['spec.initContainers[0].image FieldValueRequired', 'spec.initContainers[0].image FieldValueRequired'],
    ],
    [
      'ephemeralContainer changes are not allowed via normal pod update',
      pod({
        ephemeralContainers: [
          { name: 'ephemeral', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' },
        ],
      }),
      pod(),
      [FORBIDDEN],
    ],
    ['activeDeadlineSeconds no change, nil', pod(), pod(), []],
    [
      'activeDeadlineSeconds no change, set',
      pod({ activeDeadlineSeconds: 30 }),
      pod({ activeDeadlineSeconds: 30 }),
      [],
    ],
    ['activeDeadlineSeconds change to positive from nil', pod({ activeDeadlineSeconds: 30 }), pod(), []],
    [
      'activeDeadlineSeconds change to smaller positive',
      pod({ activeDeadlineSeconds: 30 }),
      pod({ activeDeadlineSeconds: 31 }),
      [],
    ],
    [
      'activeDeadlineSeconds change to larger positive',
      pod({ activeDeadlineSeconds: 31 }),
      pod({ activeDeadlineSeconds: 30 }),
      ['spec.activeDeadlineSeconds FieldValueInvalid'],
    ],
    [
      'activeDeadlineSeconds change to negative from nil',
      pod({ activeDeadlineSeconds: -30 }),
      pod(),
      ['spec.activeDeadlineSeconds FieldValueInvalid', 'spec.activeDeadlineSeconds FieldValueInvalid'],
    ],
    [
      'activeDeadlineSeconds change to negative from positive',
      pod({ activeDeadlineSeconds: -30 }),
      pod({ activeDeadlineSeconds: 30 }),
      ['spec.activeDeadlineSeconds FieldValueInvalid', 'spec.activeDeadlineSeconds FieldValueInvalid'],
    ],
    [
      'activeDeadlineSeconds change to zero from positive',
      pod({ activeDeadlineSeconds: 0 }),
      pod({ activeDeadlineSeconds: 30 }),
      ['spec.activeDeadlineSeconds FieldValueInvalid'],
    ],
    [
      'activeDeadlineSeconds change to zero from nil',
      pod({ activeDeadlineSeconds: 0 }),
      pod(),
      ['spec.activeDeadlineSeconds FieldValueInvalid'],
    ],
    [
      'activeDeadlineSeconds change to nil from positive',
      pod(),
      pod({ activeDeadlineSeconds: 30 }),
      ['spec.activeDeadlineSeconds FieldValueInvalid'],
    ],
    [
      'cpu limit change',
      pod(withResources({ limits: res('200m', '0', '1Gi') })),
      pod(withResources({ limits: res('100m', '0', '1Gi') })),
      [FORBIDDEN],
    ],
    [
      'memory limit change',
      pod(withResources({ limits: res('100m', '100Mi', '') })),
      pod(withResources({ limits: res('100m', '200Mi', '') })),
      [FORBIDDEN],
    ],
    [
      'storage limit change',
      pod(withResources({ limits: res('100m', '100Mi', '1Gi') })),
      pod(withResources({ limits: res('100m', '100Mi', '2Gi') })),
      [FORBIDDEN],
    ],
    [
      'cpu request change',
      pod(withResources({ requests: res('100m', '0', '') })),
      pod(withResources({ requests: res('200m', '0', '') })),
      [FORBIDDEN],
    ],
    [
      'memory request change',
      pod(withResources({ requests: res('0', '200Mi', '') })),
      pod(withResources({ requests: res('0', '100Mi', '') })),
      [FORBIDDEN],
    ],
    [
      'storage request change',
      pod(withResources({ requests: res('100m', '0', '2Gi') })),
      pod(withResources({ requests: res('100m', '0', '1Gi') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS unchanged, guaranteed -> guaranteed',
      pod(withResources({ limits: res('200m', '400Mi', '1Gi'), requests: res('200m', '400Mi', '1Gi') })),
      pod(withResources({ limits: res('100m', '100Mi', '1Gi'), requests: res('100m', '100Mi', '1Gi') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS change, guaranteed -> burstable',
      pod(withResources({ limits: res('200m', '200Mi', ''), requests: res('100m', '100Mi', '') })),
      pod(withResources({ limits: res('100m', '100Mi', ''), requests: res('100m', '100Mi', '') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS change, besteffort -> burstable',
      pod(withResources({ limits: res('200m', '200Mi', ''), requests: res('100m', '100Mi', '') })),
      pod(),
      [FORBIDDEN],
    ],
    [
      'Pod QoS unchanged, burstable -> burstable',
      pod(withResources({ limits: res('200m', '200Mi', '2Gi'), requests: res('100m', '100Mi', '1Gi') })),
      pod(withResources({ limits: res('400m', '400Mi', '2Gi'), requests: res('200m', '200Mi', '1Gi') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS unchanged, burstable -> burstable, add limits',
      pod(withResources({ limits: res('200m', '200Mi', ''), requests: res('100m', '100Mi', '') })),
      pod(withResources({ requests: res('100m', '100Mi', '') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS unchanged, burstable -> burstable, remove limits',
      pod(withResources({ requests: res('100m', '100Mi', '') })),
      pod(withResources({ limits: res('200m', '200Mi', ''), requests: res('100m', '100Mi', '') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS unchanged, burstable -> burstable, add requests',
      pod(withResources({ limits: res('400m', '', '1Gi'), requests: res('300m', '', '1Gi') })),
      pod(withResources({ limits: res('200m', '500Mi', '1Gi') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS unchanged, burstable -> burstable, remove requests',
      pod(withResources({ limits: res('400m', '500Mi', '2Gi') })),
      pod(withResources({ limits: res('200m', '300Mi', '2Gi'), requests: res('100m', '200Mi', '') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS change, burstable -> guaranteed',
      pod(withResources({ limits: res('100m', '100Mi', ''), requests: res('100m', '100Mi', '') })),
      pod(withResources({ requests: res('100m', '100Mi', '') })),
      [FORBIDDEN],
    ],
    [
      'Pod QoS change, burstable -> besteffort',
      pod(),
      pod(withResources({ limits: res('200m', '200Mi', ''), requests: res('100m', '100Mi', '') })),
      [FORBIDDEN],
    ],
    ['bad label change', pod({}, { labels: { foo: 'bar' } }), pod({}, { labels: { bar: 'foo' } }), []],
    [
      'fsGroupChangePolicy change',
      pod({ securityContext: { fsGroupChangePolicy: 'OnRootMismatch' } }),
      pod({ securityContext: {} }),
      [FORBIDDEN],
    ],
    [
      'port change',
      pod({ containers: [ctr('container', { ports: [{ hostPort: 8080, containerPort: 80 }] })] }),
      pod({ containers: [ctr('container', { ports: [{ hostPort: 8000, containerPort: 80 }] })] }),
      [FORBIDDEN],
    ],
    [
      'existing toleration value modified in pod spec updates',
      pod({ nodeName: 'node1', tolerations: [tol('key1', 'value2')] }),
      pod({ nodeName: 'node1', tolerations: [tol('key1', 'value1')] }),
      ['spec.tolerations FieldValueForbidden'],
    ],
    [
      'existing toleration value modified in pod spec updates with modified tolerationSeconds',
      pod({ nodeName: 'node1', tolerations: [tol('key1', 'value2', { operator: 'Equal', effect: 'NoExecute' })] }),
      pod({ nodeName: 'node1', tolerations: [noExec('key1', 'value1', 10)] }),
      ['spec.tolerations FieldValueForbidden'],
    ],
    [
      'modified tolerationSeconds in existing toleration value in pod spec updates',
      pod({ nodeName: 'node1', tolerations: [noExec('key1', 'value1', 10)] }),
      pod({ nodeName: 'node1', tolerations: [noExec('key1', 'value1', 20)] }),
      [],
    ],
    [
      'toleration modified in updates to an unscheduled pod',
      pod({ tolerations: [tol('key1', 'value2')] }),
      pod({ tolerations: [tol('key1', 'value1')] }),
      ['spec.tolerations FieldValueForbidden'],
    ],
    [
      'tolerations unmodified in updates to a scheduled pod',
      pod({ nodeName: 'node1', tolerations: [tol('key1', 'value1')] }),
      pod({ nodeName: 'node1', tolerations: [tol('key1', 'value1')] }),
      [],
    ],
    [
      'added valid new toleration to existing tolerations in pod spec updates',
      pod({ nodeName: 'node1', tolerations: [noExec('key1', 'value1', 20), noExec('key2', 'value2', 30)] }),
      pod({ nodeName: 'node1', tolerations: [noExec('key1', 'value1', 10)] }),
      [],
    ],
    [
      'added invalid new toleration to existing tolerations in pod spec updates',
      pod({
        nodeName: 'node1',
        tolerations: [noExec('key1', 'value1', 20), noExec('key2', 'value2', 30, 'NoSchedule')],
      }),
      pod({ nodeName: 'node1', tolerations: [noExec('key1', 'value1', 10)] }),
      ['spec.tolerations[1].effect FieldValueInvalid', 'spec.tolerations[1].effect FieldValueInvalid'],
    ],
    ['removed nodeName from pod spec', pod({ nodeName: 'foo' }), pod(), [FORBIDDEN]],
    [
      'added mirror pod annotation',
      pod({ nodeName: 'foo' }, { annotations: { 'kubernetes.io/config.mirror': '' } }),
      pod({ nodeName: 'foo' }),
      ['metadata.annotations[kubernetes.io/config.mirror] FieldValueForbidden'],
    ],
    [
      'removed mirror pod annotation',
      pod({ nodeName: 'foo' }),
      pod({ nodeName: 'foo' }, { annotations: { 'kubernetes.io/config.mirror': '' } }),
      ['metadata.annotations[kubernetes.io/config.mirror] FieldValueForbidden'],
    ],
    [
      'changed mirror pod annotation',
      pod({ nodeName: 'foo' }, { annotations: { 'kubernetes.io/config.mirror': 'foo' } }),
      pod({ nodeName: 'foo' }, { annotations: { 'kubernetes.io/config.mirror': 'bar' } }),
      ['metadata.annotations[kubernetes.io/config.mirror] FieldValueForbidden'],
    ],
    [
      'changed priority class name',
      pod({ nodeName: 'node1', priorityClassName: 'bar-priority' }),
      pod({ nodeName: 'node1', priorityClassName: 'foo-priority' }),
      [FORBIDDEN],
    ],
    [
      'removed priority class name',
      pod({ nodeName: 'node1', priorityClassName: '' }),
      pod({ nodeName: 'node1', priorityClassName: 'foo-priority' }),
      [FORBIDDEN],
    ],
    [
      'update termination grace period seconds',
      pod({ terminationGracePeriodSeconds: 1 }),
      pod({ terminationGracePeriodSeconds: -1 }),
      [],
    ],
    [
      'update termination grace period seconds not 1',
      pod({ terminationGracePeriodSeconds: 0 }),
      pod({ terminationGracePeriodSeconds: -1 }),
      [FORBIDDEN],
    ],
    [
      "pod OS changing from Linux to Windows, IdentifyPodOS featuregate set, we'd get SELinux errors as well",
      pod({ os: { name: 'windows' }, securityContext: { seLinuxOptions: { role: 'dummy' } } }),
      pod({ os: { name: 'linux' }, securityContext: { seLinuxOptions: { role: 'dummy' } } }),
      ['spec.securityContext.seLinuxOptions FieldValueForbidden', FORBIDDEN],
    ],
    [
      'invalid PodOS update, IdentifyPodOS featuregate set',
      pod({ os: { name: 'dummy' } }),
      pod(),
      ['spec.os FieldValueNotSupported', FORBIDDEN],
    ],
    [
      'update pod spec OS to a valid value, featuregate disabled',
      pod({ os: { name: 'linux' } }),
      pod({ os: { name: 'windows' } }),
      [FORBIDDEN],
    ],
    [
      'update pod spec schedulingGates: add new scheduling gate',
      pod({ schedulingGates: [{ name: 'foo' }] }),
      pod(),
      ['spec.schedulingGates[0].name FieldValueForbidden'],
    ],
    [
      'update pod spec schedulingGates: mutating an existing scheduling gate',
      pod({ schedulingGates: [{ name: 'bar' }] }),
      pod({ schedulingGates: [{ name: 'foo' }] }),
      ['spec.schedulingGates[0].name FieldValueForbidden'],
    ],
    [
      'update pod spec schedulingGates: mutating an existing scheduling gate along with deletion',
      pod({ schedulingGates: [{ name: 'baz' }] }),
      pod({ schedulingGates: [{ name: 'foo' }, { name: 'bar' }] }),
      ['spec.schedulingGates[0].name FieldValueForbidden'],
    ],
    ['update pod spec schedulingGates: legal deletion', pod(), pod({ schedulingGates: [{ name: 'foo' }] }), []],
    ['adding node selector is allowed for gated pods', pod({ nodeSelector: { foo: 'bar' }, ...gated }), pod(gated), []],
    [
      'adding node selector is not allowed for non-gated pods',
      pod({ nodeSelector: { foo: 'bar', foo2: 'bar2' } }),
      pod({ nodeSelector: { foo: 'bar' } }),
      [FORBIDDEN],
    ],
    [
      'removing node selector is not allowed for gated pods',
      pod(gated),
      pod({ nodeSelector: { foo: 'bar' }, ...gated }),
      ['spec.nodeSelector FieldValueInvalid'],
    ],
    [
      'removing node selector is not allowed for non-gated pods',
      pod(),
      pod({ nodeSelector: { foo: 'bar' } }),
      [FORBIDDEN],
    ],
    [
      'old pod spec has scheduling gate, new pod spec does not, and node selector is added',
      pod({ nodeSelector: { foo: 'bar', foo2: 'bar2' } }),
      pod({ nodeSelector: { foo: 'bar' }, ...gated }),
      [],
    ],
    [
      'modifying value of existing node selector is not allowed',
      pod({ nodeSelector: { foo: 'new value' }, ...gated }),
      pod({ nodeSelector: { foo: 'bar' }, ...gated }),
      // "new value" is no label value: ValidatePodSpec reports it first
      ['spec.nodeSelector FieldValueInvalid', 'spec.nodeSelector FieldValueInvalid'],
    ],
    [
      'addition to nodeAffinity is allowed for gated pods',
      pod({
        affinity: required({
          matchExpressions: [req('expr', 'foo'), req('expr2', 'foo2')],
          matchFields: [req('metadata.name', 'foo')],
        }),
        ...gated,
      }),
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [],
    ],
    [
      'old RequiredDuringSchedulingIgnoredDuringExecution is non-nil, new RequiredDuringSchedulingIgnoredDuringExecution is nil, pod is gated',
      pod({ affinity: { nodeAffinity: {} }, ...gated }),
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [`${TERMS} FieldValueInvalid`],
    ],
    [
      'addition to nodeAffinity is not allowed for non-gated pods',
      pod({
        affinity: required({
          matchExpressions: [req('expr', 'foo'), req('expr2', 'foo2')],
          matchFields: [req('metadata.name', 'foo')],
        }),
      }),
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }) }),
      [FORBIDDEN],
    ],
    [
      'old pod spec has scheduling gate, new pod spec does not, and node affinity addition occurs',
      pod({
        affinity: required({
          matchExpressions: [req('expr', 'foo'), req('expr2', 'foo2')],
          matchFields: [req('metadata.name', 'foo')],
        }),
      }),
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [],
    ],
    [
      'nodeAffinity deletion from MatchExpressions not allowed',
      pod({ affinity: required({ matchFields: [req('metadata.name', 'foo')] }), ...gated }),
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [`${TERMS}[0] FieldValueInvalid`],
    ],
    [
      'nodeAffinity deletion from MatchFields not allowed',
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      pod({
        affinity: required({ matchExpressions: [req('expr', 'foo')], matchFields: [req('metadata.name', 'foo')] }),
        ...gated,
      }),
      [`${TERMS}[0] FieldValueInvalid`],
    ],
    [
      'nodeAffinity modification of item in MatchExpressions not allowed',
      pod({ affinity: required({ matchExpressions: [req('expr', 'bar')] }), ...gated }),
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [`${TERMS}[0] FieldValueInvalid`],
    ],
    [
      'nodeAffinity modification of item in MatchFields not allowed',
      pod({ affinity: required({ matchFields: [req('metadata.name', 'bar')] }), ...gated }),
      pod({ affinity: required({ matchFields: [req('metadata.name', 'foo')] }), ...gated }),
      [`${TERMS}[0] FieldValueInvalid`],
    ],
    [
      'nodeSelectorTerms addition on gated pod should fail',
      pod({
        affinity: required(
          { matchExpressions: [req('expr', 'foo')], matchFields: [req('metadata.name', 'bar')] },
          { matchExpressions: [req('expr', 'foo2')], matchFields: [req('metadata.name', 'bar2')] },
        ),
        ...gated,
      }),
      pod({
        affinity: required({ matchExpressions: [req('expr', 'foo')], matchFields: [req('metadata.name', 'foo')] }),
        ...gated,
      }),
      [`${TERMS} FieldValueInvalid`],
    ],
    [
      'preferredDuringSchedulingIgnoredDuringExecution can modified for gated pods',
      pod({ affinity: preferred({ matchExpressions: [req('expr', 'foo2')] }), ...gated }),
      pod({ affinity: preferred({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [],
    ],
    [
      'preferredDuringSchedulingIgnoredDuringExecution can have additions for gated pods',
      pod({
        affinity: preferred({
          matchExpressions: [req('expr', 'foo'), req('expr2', 'foo2')],
          matchFields: [req('metadata.name', 'bar')],
        }),
        ...gated,
      }),
      pod({ affinity: preferred({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [],
    ],
    [
      'preferredDuringSchedulingIgnoredDuringExecution can have removals for gated pods',
      pod(gated),
      pod({
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 1, preference: { matchExpressions: [req('expr', 'foo')] } },
            ],
          },
        },
        ...gated,
      }),
      [],
    ],
    [
      'new node affinity is nil',
      pod({ affinity: {}, ...gated }),
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [`${TERMS} FieldValueInvalid`],
    ],
    [
      'empty NodeSelectorTerm (selects nothing) cannot become populated (selects something)',
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      pod({ affinity: required({}), ...gated }),
      [`${TERMS}[0] FieldValueInvalid`],
    ],
    [
      'nil affinity can be mutated for gated pods',
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      pod(gated),
      [],
    ],
    [
      'the podAffinity cannot be updated on gated pods',
      pod({
        affinity: {
          ...required({ matchExpressions: [req('expr', 'foo')] }),
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'foo', labelSelector: { matchLabels: { foo: 'bar' } } },
            ],
          },
        },
        ...gated,
      }),
      pod(gated),
      [FORBIDDEN],
    ],
    [
      'the podAntiAffinity cannot be updated on gated pods',
      pod({
        affinity: {
          ...required({ matchExpressions: [req('expr', 'foo')] }),
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'foo', labelSelector: { matchLabels: { foo: 'bar' } } },
            ],
          },
        },
        ...gated,
      }),
      pod(gated),
      [FORBIDDEN],
    ],
    [
      'not allow update node affinity to an invalid label-value',
      pod({ affinity: required({ matchExpressions: [req('expr', '-1')] }), ...gated }),
      pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      [`${TERMS}[0].matchExpressions[0].values[0] FieldValueInvalid`, `${TERMS}[0] FieldValueInvalid`],
    ],
  ]
  it.each(cases)('%s', (_name, n, o, want) => {
    expect(ft(n, o)).toEqual(want)
  })

  // the message of a kube-apiserver v1.37.2 (kubectl replace --dry-run=server of the Pod it stored for
  // STORED, changed as below): diff.Diff's unified diff of the internal core.PodSpecs as JSON
  const STORED: O = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'fixture', namespace: 'podspec', resourceVersion: '1' },
    spec: {
      automountServiceAccountToken: false,
      containers: [
        {
          env: [{ name: 'A', value: '1' }],
          image: 'image',
          imagePullPolicy: 'Always',
          name: 'ctr',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: 'default',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      tolerations: ['not-ready', 'unreachable'].map((t) => ({
        effect: 'NoExecute',
        key: `node.kubernetes.io/${t}`,
        operator: 'Exists',
        tolerationSeconds: 300,
      })),
    },
  }
  const MESSAGE =
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,' +
    '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
    '`spec.tolerations` (only additions to existing tolerations),' +
    '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n'
  const changed = (f: (spec: O) => void): O => {
    const n = structuredClone(STORED)
    f(n.spec)
    return n
  }
  it('the Forbidden message lists the updatable fields, then the unified diff of the internal specs', () => {
    expect(
      texts(
        changed((s) => void (s.nodeName = 'foo')),
        STORED,
      ),
    ).toEqual([
      `${MESSAGE}@@ -49,7 +49,7 @@
  "ServiceAccountName": "default",
  "DeprecatedServiceAccount": "default",
  "AutomountServiceAccountToken": false,
- "NodeName": "",
+ "NodeName": "foo",
  "HostNetwork": false,
  "HostPID": false,
  "HostIPC": false,
`,
    ])
    expect(
      texts(
        changed((s) => void (s.containers[0].env[0].value = '2')),
        STORED,
      ),
    ).toEqual([
      `${MESSAGE}@@ -13,7 +13,7 @@
    "Env": [
     {
      "Name": "A",
-     "Value": "1",
+     "Value": "2",
      "ValueFrom": null
     }
    ],
`,
    ])
  })
  it('before 1.34 (go-cmp, not reproduced): a line per changed field', () =>
    expect(texts(pod({ nodeName: 'foo' }), pod(), 33)).toEqual([`${MESSAGE}+  nodeName: "foo"`]))

  it('messages of the update rules', () => {
    expect(texts(pod({ activeDeadlineSeconds: 31 }), pod({ activeDeadlineSeconds: 30 }))).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: 31: must be less than or equal to previous value',
    ])
    expect(texts(pod(), pod({ activeDeadlineSeconds: 30 }))).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value',
    ])
    expect(texts(pod({ activeDeadlineSeconds: -30 }), pod())).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: -30: must be between 1 and 2147483647, inclusive',
      'spec.activeDeadlineSeconds: Invalid value: -30: must be between 0 and 2147483647, inclusive',
    ])
    expect(texts(pod({ tolerations: [tol('key1', 'value2')] }), pod({ tolerations: [tol('key1', 'value1')] }))).toEqual(
      ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
    )
    expect(texts(pod({ schedulingGates: [{ name: 'foo' }] }), pod())).toEqual([
      "spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'foo'",
    ])
    expect(texts(pod({ containers: [ctr('a'), ctr('b')] }), pod())).toEqual([
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    ])
    expect(
      texts(pod({ nodeName: 'n' }, { annotations: { 'kubernetes.io/config.mirror': '' } }), pod({ nodeName: 'n' })),
    ).toEqual(['metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not add mirror pod annotation'])
    expect(
      texts(pod({ nodeSelector: { foo: 'x' }, ...gated }), pod({ nodeSelector: { foo: 'bar' }, ...gated })),
    ).toEqual([
      'spec.nodeSelector: Invalid value: {"foo":"x"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
    ])
    expect(
      texts(
        pod({ affinity: required({ matchExpressions: [req('expr', 'bar')] }), ...gated }),
        pod({ affinity: required({ matchExpressions: [req('expr', 'foo')] }), ...gated }),
      ),
    ).toEqual([
      `${TERMS}[0]: Invalid value: {"MatchExpressions":[{"Key":"expr","Operator":"In","Values":["bar"]}],"MatchFields":null}: only additions are allowed (no mutations or deletions)`,
    ])
  })
})

describe('release-1.30 ValidatePodUpdate: Pod QoS is immutable (InPlacePodVerticalScaling off)', () => {
  it('a QoS class change adds the metadata error before the Forbidden one', () => {
    const n = pod(withResources({ limits: res('200m', '200Mi', ''), requests: res('100m', '100Mi', '') }))
    const o = pod(withResources({ limits: res('100m', '100Mi', ''), requests: res('100m', '100Mi', '') }))
    expect(ft(n, o, 30)).toEqual(['metadata FieldValueInvalid', FORBIDDEN])
    expect(texts(n, o, 30)[0]).toBe('metadata: Invalid value: "": Pod QoS is immutable')
    expect(ft(n, o, 32)).toEqual([FORBIDDEN])
  })
  it('no error when the class stays the same', () => {
    const n = pod(withResources({ limits: res('200m', '400Mi', ''), requests: res('200m', '400Mi', '') }))
    const o = pod(withResources({ limits: res('100m', '100Mi', ''), requests: res('100m', '100Mi', '') }))
    expect(ft(n, o, 30)).toEqual([FORBIDDEN])
  })
})
