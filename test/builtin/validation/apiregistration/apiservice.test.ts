import { describe, expect, test } from 'vitest'
import { decodeBuiltin } from '../../../../src/builtin/index.js'
import { beforeCreate, beforeUpdate } from '../../../../src/builtin/strategy.js'
import { type O, stored, texts, tweak } from '../support.js'

// apiregistration.k8s.io/v1 APIService (kube-aggregator v0.37.2 pkg/apis/apiregistration/validation/validation.go
// ValidateAPIService, v1/defaults.go, pkg/registry/apiservice/strategy.go). kube-aggregator ships no table test for
// ValidateAPIService: the expected texts are what the real kube-apiserver v1.37.2 answered to
// `kubectl create --dry-run=server` of each object.

const apiService = (spec: O, metadata: O = { name: 'v1.a.example.com' }): O => ({
  apiVersion: 'apiregistration.k8s.io/v1',
  kind: 'APIService',
  metadata,
  spec: { group: 'a.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1, ...spec },
})
const service = { namespace: 'n', name: 's' }
const DNS1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"

describe('APIService: ValidateAPIService (texts of the real apiserver v1.37.2)', () => {
  test('valid: a local one, one behind a service (port defaulted to 443), the legacy group', () => {
    expect(texts(apiService({}))).toEqual([])
    expect(texts(apiService({ service }))).toEqual([])
    expect(stored(apiService({ service })).spec.service).toEqual({ ...service, port: 443 })
    expect(texts(apiService({ group: '' }, { name: 'v1.' }))).toEqual([])
  })

  test('the name must be <version>.<group>, a path segment first', () => {
    expect(
      texts(
        apiService(
          {
            group: '',
            version: 'v2',
            groupPriorityMinimum: 0,
            versionPriority: 1001,
            caBundle: 'aGVsbG8=',
            insecureSkipTLSVerify: true,
          },
          { name: 'v1.wrong' },
        ),
      ),
    ).toEqual([
      'metadata.name: Invalid value: "v1.wrong": must be `spec.version+"."+spec.group`: "v2."',
      'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
      'spec.caBundle: Invalid value: "5 bytes": local APIServices may not have a caBundle',
      'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
    ])
    expect(texts(apiService({ group: 'a/b' }, { name: 'v1.a/b' }))).toEqual([
      `metadata.name: Invalid value: "v1.a/b": may not contain '/'`,
      `spec.group: Invalid value: "a/b": ${DNS1123}`,
    ])
    expect(texts(apiService({ group: '', version: '' }, { name: '..' }))).toEqual([
      `metadata.name: Invalid value: "..": may not be '..'`,
      'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
      `spec.version: Invalid value: "": ${DNS1035}`,
    ])
  })

  test('group and version formats', () => {
    expect(texts(apiService({ group: 'Foo_bar', version: '1v' }, { name: '1v.Foo_bar' }))).toEqual([
      `spec.group: Invalid value: "Foo_bar": ${DNS1123}`,
      `spec.version: Invalid value: "1v": ${DNS1035}`,
    ])
  })

  test('the service reference', () => {
    expect(texts(apiService({ service: {} }))).toEqual([
      'spec.service.namespace: Required value',
      'spec.service.name: Required value',
    ])
    expect(
      texts(apiService({ groupPriorityMinimum: 20000, versionPriority: 1000, service: { ...service, port: 0 } })),
    ).toEqual(['spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive'])
    expect(
      texts(
        apiService({
          groupPriorityMinimum: 20001,
          versionPriority: -1,
          service: { ...service, port: 70000 },
          insecureSkipTLSVerify: true,
          caBundle: 'aGVsbG8=',
        }),
      ),
    ).toEqual([
      'spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: -1: must be positive and less than 1000',
      'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
    ])
  })

  test('decoding: strict, Go types of kube-aggregator', () => {
    const r = decodeBuiltin(apiService({ service: { ...service, port: 'x' } }))
    expect(r?.decodeError).toBe(
      'json: cannot unmarshal string into Go struct field ServiceReference.spec.service.port of type int32',
    )
    expect(decodeBuiltin(apiService({ bogus: 1 }))?.decodeError).toBe(
      'strict decoding error: unknown field "spec.bogus"',
    )
  })

  test('update: ValidateObjectMetaUpdate, then the create rules on the new object', () => {
    const old = tweak(apiService({ service }), (x) => (x.metadata.resourceVersion = '1'))
    const now = tweak(old, (x) => (x.spec.versionPriority = 0))
    expect(texts(now, old)).toEqual(['spec.versionPriority: Invalid value: 0: must be positive and less than 1000'])
  })
})

describe('APIService: the strategy (PrepareForCreate / PrepareForUpdate)', () => {
  const request = { namespaced: false, namespace: '', minor: 37 }
  const decoded = (o: O) => decodeBuiltin(o, { keepEmpty: true })!

  test('create: the status wiped; a local APIService is Available at once (as the apiserver stored it)', () => {
    const given = { conditions: [{ type: 'Available', status: 'False' }] }
    const remote = beforeCreate(decoded({ ...apiService({ service }), status: given }), request)
    expect(remote.allowed).toBe(true)
    expect((remote.object as O).status).toEqual({})
    const local = beforeCreate(decoded({ ...apiService({}), status: given }), request)
    const [c] = (local.object as O).status.conditions
    expect(c).toEqual({
      type: 'Available',
      status: 'True',
      lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      reason: 'Local',
      message: 'Local APIServices are always available',
    })
  })

  test('update: the old status is kept', () => {
    const old = {
      ...apiService({ service }),
      status: { conditions: [{ type: 'Available', status: 'False', reason: 'X' }] },
    }
    const now = { ...apiService({ service }), status: {} }
    const r = beforeUpdate(decoded(now), stored(old), request)
    // as decoded: a zero metav1.Time marshals as null
    expect((r.object as O).status).toEqual({ conditions: [{ ...old.status.conditions[0], lastTransitionTime: null }] })
  })
})
