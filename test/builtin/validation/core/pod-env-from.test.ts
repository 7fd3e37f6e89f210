import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import { type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go TestValidateEnvFrom (its error cases): Go
// reports "must specify one of" and "more than one field" at the list (`field`, here the container's
// `envFrom`), the names at the entry. The texts match a kube-apiserver v1.37.2's.

const E = 'spec.containers[0].envFrom'
const pod = (envFrom: O[]): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'ctr', image: 'image', envFrom }] },
})
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

describe('TestValidateEnvFrom: error cases', () => {
  it('zero-length and invalid names', () => {
    expect(texts(pod([{ configMapRef: { name: '' } }]))).toEqual([`${E}[0].configMapRef.name: Required value`])
    expect(texts(pod([{ secretRef: { name: '' } }]))).toEqual([`${E}[0].secretRef.name: Required value`])
    expect(texts(pod([{ secretRef: { name: '$%^&*#' } }]))).toEqual([
      `${E}[0].secretRef.name: Invalid value: "$%^&*#": ${SUBDOMAIN}`,
    ])
    expect(texts(pod([{ configMapRef: { name: '$%^&*#' } }]))).toEqual([
      `${E}[0].configMapRef.name: Invalid value: "$%^&*#": ${SUBDOMAIN}`,
    ])
  })
  it('no refs', () =>
    expect(texts(pod([{ prefix: 'a' }]))).toEqual([
      `${E}: Invalid value: "": must specify one of: \`configMapRef\` or \`secretRef\``,
    ]))
  it('multiple refs', () =>
    expect(texts(pod([{ prefix: 'a', configMapRef: { name: 'abc' }, secretRef: { name: 'abc' } }]))).toEqual([
      `${E}: Invalid value: "": may not have more than one field specified at a time`,
    ]))
})
