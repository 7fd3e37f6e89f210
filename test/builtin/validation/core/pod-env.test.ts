import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import { type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go: the valueFrom cases of TestValidateEnv
// and TestValidateEnvVarValueFromFileKeyRef (validateEnvVarValueFrom), on a v1 Pod decoded and
// defaulted as the apiserver does; the Go test's path `field` is the container's `env` here. The Go
// test runs without AllowEnvFilesValidation; the apiserver sets it from the EnvFiles gate (beta, on
// from 1.35), which adds `fileKeyRef` to the "must specify one of" message.

const E = 'spec.containers[0].env'
const pod = (env: O[]): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'ctr', image: 'image', env }] },
})
const env = (valueFrom: O, extra: O = {}, minor = 37) =>
  texts(pod([{ name: 'abc', valueFrom, ...extra }]), undefined, minor)
const fieldRef = (fieldPath: string) => ({ fieldRef: { apiVersion: 'v1', fieldPath } })
const SUPPORTED =
  'supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"'

describe('TestValidateEnv: valueFrom', () => {
  it('valid sources', () => {
    for (const fp of [
      'metadata.name',
      'metadata.namespace',
      'metadata.uid',
      'spec.nodeName',
      'spec.serviceAccountName',
      'status.hostIP',
      'status.podIPs',
    ])
      expect(env(fieldRef(fp))).toEqual([])
    expect(env(fieldRef("metadata.labels['key']"))).toEqual([])
    expect(env(fieldRef("metadata.annotations['TEST.example.com/key']"))).toEqual([])
    expect(env({ resourceFieldRef: { resource: 'limits.cpu' } })).toEqual([])
    expect(env({ resourceFieldRef: { resource: 'requests.hugepages-2Mi' } })).toEqual([])
    expect(env({ configMapKeyRef: { name: 'some-config-map', key: 'some-key' } })).toEqual([])
    expect(env({ secretKeyRef: { name: 'some-secret', key: 'secret-key' } })).toEqual([])
  })
  it('no source (1.37, EnvFiles on) and before 1.35', () => {
    expect(env({})).toEqual([
      `${E}[0].valueFrom: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\`, \`secretKeyRef\` or \`fileKeyRef\``,
    ])
    expect(env({}, {}, 34)).toEqual([
      `${E}[0].valueFrom: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\` or \`secretKeyRef\``,
    ])
  })
  it('value and valueFrom', () =>
    expect(env(fieldRef('metadata.name'), { value: 'foo' })).toEqual([
      `${E}[0].valueFrom: Invalid value: "": may not be specified when \`value\` is not empty`,
    ]))
  it('valueFrom.fieldRef and valueFrom.secretKeyRef specified', () =>
    expect(env({ ...fieldRef('metadata.name'), secretKeyRef: { name: 'a-secret', key: 'a-key' } })).toEqual([
      `${E}[0].valueFrom: Invalid value: "": may not have more than one field specified at a time`,
    ]))
  it('valueFrom.fieldRef and valueFrom.configMapKeyRef set', () =>
    expect(
      env({ ...fieldRef('metadata.name'), configMapKeyRef: { name: 'some-config-map', key: 'some-key' } }),
    ).toEqual([`${E}[0].valueFrom: Invalid value: "": may not have more than one field specified at a time`]))
  it('valueFrom.secretKeyRef.name invalid', () =>
    expect(env({ secretKeyRef: { name: '$%^&*#', key: 'a-key' } })[0]).toContain(
      `${E}[0].valueFrom.secretKeyRef.name: Invalid value: "$%^&*#"`,
    ))
  it('valueFrom.configMapKeyRef.name invalid', () =>
    expect(env({ configMapKeyRef: { name: '$%^&*#', key: 'some-key' } })[0]).toContain(
      `${E}[0].valueFrom.configMapKeyRef.name: Invalid value: "$%^&*#"`,
    ))
  it('missing FieldPath on ObjectFieldSelector', () =>
    expect(env({ fieldRef: { apiVersion: 'v1' } })).toEqual([`${E}[0].valueFrom.fieldRef.fieldPath: Required value`]))
  // SetDefaults_ObjectFieldSelector fills apiVersion v1 before validation: the Go case cannot fail through v1
  it('missing APIVersion on ObjectFieldSelector is defaulted', () =>
    expect(env({ fieldRef: { fieldPath: 'metadata.name' } })).toEqual([]))
  it('invalid fieldPath', () =>
    expect(env(fieldRef('metadata.whoops'))).toEqual([
      `${E}[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.whoops": error converting fieldPath: field label not supported: metadata.whoops`,
    ]))
  it('metadata.name with subscript', () =>
    expect(env(fieldRef("metadata.name['key']"))).toEqual([
      `${E}[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name['key']": error converting fieldPath: field label does not support subscript: metadata.name['key']`,
    ]))
  it('metadata.labels without subscript', () =>
    expect(env(fieldRef('metadata.labels'))).toEqual([
      `${E}[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": ${SUPPORTED}`,
    ]))
  it('metadata.annotations without subscript', () =>
    expect(env(fieldRef('metadata.annotations'))).toEqual([
      `${E}[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.annotations": ${SUPPORTED}`,
    ]))
  it('metadata.annotations with invalid key', () =>
    expect(env(fieldRef("metadata.annotations['invalid~key']"))[0]).toContain(
      `${E}[0].valueFrom.fieldRef: Invalid value: "invalid~key"`,
    ))
  it('metadata.labels with invalid key', () =>
    expect(env(fieldRef("metadata.labels['Www.k8s.io/test']"))[0]).toContain(
      `${E}[0].valueFrom.fieldRef: Invalid value: "Www.k8s.io/test"`,
    ))
  it('unsupported fieldPath', () =>
    expect(env(fieldRef('status.phase'))).toEqual([
      `${E}[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": ${SUPPORTED}`,
    ]))
  it('resourceFieldRef: resource required, supported, divisor', () => {
    expect(env({ resourceFieldRef: {} })).toEqual([`${E}[0].valueFrom.resourceFieldRef.resource: Required value`])
    expect(env({ resourceFieldRef: { resource: 'limits.gpu' } })[0]).toContain(
      `${E}[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu"`,
    )
    expect(env({ resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } })).toEqual([
      `${E}[0].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
    ])
  })
  it('key selectors: key required, a valid config key', () => {
    expect(env({ configMapKeyRef: { name: 'c' } })).toEqual([`${E}[0].valueFrom.configMapKeyRef.key: Required value`])
    expect(env({ secretKeyRef: { name: 's', key: 'a b' } })[0]).toContain(
      `${E}[0].valueFrom.secretKeyRef.key: Invalid value: "a b": a valid config key`,
    )
  })
})

describe('TestValidateEnvVarValueFromFileKeyRef', () => {
  const fk = (o: O) => env({ fileKeyRef: o })
  const withVolume = (o: O, volume: O) =>
    texts({
      ...pod([{ name: 'abc', valueFrom: { fileKeyRef: o } }]),
      spec: {
        ...pod([]).spec,
        containers: [{ name: 'ctr', image: 'image', env: [{ name: 'abc', valueFrom: { fileKeyRef: o } }] }],
        volumes: [volume],
      },
    })
  it('valid: an emptyDir volume', () =>
    expect(withVolume({ key: 'KEY', volumeName: 'vol', path: 'env.file' }, { name: 'vol', emptyDir: {} })).toEqual([]))
  it('validateFileKeyRefVolumes: the volume must exist and be an emptyDir', () => {
    expect(fk({ key: 'KEY', volumeName: 'vol', path: 'env.file' })).toEqual([
      `${E}[0].valueFrom.fileKeyRef.volumeName: Not found: "vol"`,
    ])
    expect(
      withVolume({ key: 'KEY', volumeName: 'vol', path: 'env.file' }, { name: 'vol', configMap: { name: 'c' } }),
    ).toEqual([
      `${E}[0].valueFrom.fileKeyRef.volumeName: Invalid value: "vol": referenced volume must be of type emptyDir`,
    ])
  })
  it('key, volumeName and path required', () =>
    expect(fk({})).toEqual([
      `${E}[0].valueFrom.fileKeyRef.key: Required value`,
      `${E}[0].valueFrom.fileKeyRef.volumeName: Required value`,
      `${E}[0].valueFrom.fileKeyRef.path: Required value`,
      `${E}[0].valueFrom.fileKeyRef.volumeName: Not found: ""`,
    ]))
  it('path without backsteps, volume name a DNS label', () => {
    const errs = fk({ key: 'KEY', volumeName: 'Vol', path: '../env' })
    expect(errs[0]).toContain(`${E}[0].valueFrom.fileKeyRef.volumeName: Invalid value: "Vol"`)
    expect(errs[1]).toBe(`${E}[0].valueFrom.fileKeyRef.path: Invalid value: "../env": must not contain '..'`)
  })
})
