import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import { type O, texts, tweak } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go (TestValidateProbe, the probe cases of
// TestValidateContainers), on a v1 Pod decoded and defaulted as the apiserver does first.

const pod = (probe: O, kind = 'livenessProbe'): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'ctr', image: 'image', [kind]: probe }] },
})
const P = 'spec.containers[0].livenessProbe'

describe('TestValidateProbe / probes of TestValidateContainers', () => {
  it('valid probes', () => {
    expect(texts(pod({ exec: { command: ['true'] } }))).toEqual([])
    expect(texts(pod({ httpGet: { path: '/', port: 80 } }, 'readinessProbe'))).toEqual([])
    expect(texts(pod({ tcpSocket: { port: 'http' } }, 'startupProbe'))).toEqual([])
    expect(texts(pod({ grpc: { port: 8080 } }))).toEqual([])
  })
  it('no handler', () => expect(texts(pod({}))).toEqual([`${P}: Required value: must specify a handler type`]))
  it('more than one handler', () =>
    expect(texts(pod({ exec: { command: ['x'] }, tcpSocket: { port: 80 } }))).toEqual([
      `${P}.tcpSocket: Forbidden: may not specify more than 1 handler type`,
    ]))
  it('exec without command', () => expect(texts(pod({ exec: {} }))).toEqual([`${P}.exec.command: Required value`]))
  // SetDefaults_HTTPGetAction fills path '/' before validation: no Required path through the apiserver
  it('httpGet port, header', () =>
    expect(texts(pod({ httpGet: { port: 0, httpHeaders: [{ name: 'bad name', value: 'v' }] } }))).toEqual([
      `${P}.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`,
      `${P}.httpGet.httpHeaders: Invalid value: "bad name": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
    ]))
  it('negative fields', () =>
    expect(texts(pod({ exec: { command: ['x'] }, initialDelaySeconds: -1, periodSeconds: -1 }))).toEqual([
      `${P}.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`,
      `${P}.periodSeconds: Invalid value: -1: must be greater than or equal to 0`,
    ]))
  it('successThreshold must be 1 for liveness and startup', () => {
    expect(texts(pod({ exec: { command: ['x'] }, successThreshold: 2 }))).toEqual([
      `${P}.successThreshold: Invalid value: 2: must be 1`,
    ])
    expect(texts(pod({ exec: { command: ['x'] }, successThreshold: 2 }, 'readinessProbe'))).toEqual([])
  })
  it('terminationGracePeriodSeconds', () => {
    expect(texts(pod({ exec: { command: ['x'] }, terminationGracePeriodSeconds: 0 }))).toEqual([
      `${P}.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`,
    ])
    expect(texts(pod({ exec: { command: ['x'] }, terminationGracePeriodSeconds: 10 }, 'readinessProbe'))).toEqual([
      'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes',
    ])
  })
  it('grpc mode', () =>
    expect(
      texts(tweak(pod({ grpc: { port: 1 } }), (p) => (p.spec.containers[0].livenessProbe.grpc.mode = 'X'))),
    ).toEqual(expect.arrayContaining([expect.stringContaining(`${P}.grpc`)])))
})
