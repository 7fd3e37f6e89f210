import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts, tweak } from '../support.js'

// networking.k8s.io/v1 Ingress and IngressClass: kubernetes v1.37.2
// pkg/apis/networking/validation/validation_test.go TestValidateIngress (expectErrsOnFields, here with
// the types), TestValidateIngressCreate (the cases listed), TestValidateIngressClass and
// TestValidateIngressClassUpdate (full error texts), through the registry's validator.

const svcPort = { name: 'defaultbackend', port: { number: 80 } }
const svcName = { name: 'defaultbackend', port: { name: 'http' } }
const res = { apiGroup: 'example.com', kind: 'foo', name: 'bar' }
// JSON round trip: no shared sub-objects (structuredClone would keep the sharing)
const base: O = JSON.parse(
  JSON.stringify({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'foo', namespace: 'default' },
    spec: {
      defaultBackend: { service: svcPort },
      rules: [
        {
          host: 'foo.bar.com',
          http: { paths: [{ path: '/foo', pathType: 'ImplementationSpecific', backend: { service: svcPort } }] },
        },
      ],
    },
  }),
)
const p0 = (x: O) => x.spec.rules[0].http.paths[0]

describe('validation_test.go TestValidateIngress', () => {
  const cases: [string, (x: O) => void, string[]][] = [
    ['empty path (implementation specific)', (x) => (p0(x).path = ''), []],
    ['valid path', (x) => (p0(x).path = '/valid'), []],
    [
      'backend with no service',
      (x) => (x.spec.defaultBackend.service.name = ''),
      ['spec.defaultBackend.service.name FieldValueRequired'],
    ],
    [
      'invalid path type',
      (x) => (p0(x).pathType = 'foo'),
      ['spec.rules[0].http.paths[0].pathType FieldValueNotSupported'],
    ],
    [
      'empty path (prefix)',
      (x) => {
        p0(x).path = ''
        p0(x).pathType = 'Prefix'
      },
      ['spec.rules[0].http.paths[0].path FieldValueInvalid'],
    ],
    ['no paths', (x) => (x.spec.rules[0].http.paths = []), ['spec.rules[0].http.paths FieldValueRequired']],
    ['no rules', (x) => delete x.spec.rules, []],
    ['no defaultBackend', (x) => delete x.spec.defaultBackend, []],
    [
      'no defaultBackend or rules specified',
      (x) => {
        delete x.spec.defaultBackend
        x.spec.rules = []
      },
      ['spec FieldValueInvalid'],
    ],
    ['invalid host (foobar:80)', (x) => (x.spec.rules[0].host = 'foobar:80'), ['spec.rules[0].host FieldValueInvalid']],
    [
      'invalid host (127.0.0.1)',
      (x) => (x.spec.rules[0].host = '127.0.0.1'),
      // the IP error, then the DNS-1123 check of the same host, as validateIngressRules does
      ['spec.rules[0].host FieldValueInvalid'],
    ],
    ['valid wildcard host', (x) => (x.spec.rules[0].host = '*.bar.com'), []],
    [
      'invalid wildcard host (foo.*.bar.com)',
      (x) => (x.spec.rules[0].host = 'foo.*.bar.com'),
      ['spec.rules[0].host FieldValueInvalid'],
    ],
    ['invalid wildcard host (*)', (x) => (x.spec.rules[0].host = '*'), ['spec.rules[0].host FieldValueInvalid']],
    [
      'path resource backend and service name are not allowed together',
      (x) => (p0(x).backend = { service: svcName, resource: res }),
      ['spec.rules[0].http.paths[0].backend FieldValueInvalid'],
    ],
    [
      'path resource backend and service port are not allowed together',
      (x) => (p0(x).backend = { service: svcPort, resource: res }),
      ['spec.rules[0].http.paths[0].backend FieldValueInvalid'],
    ],
    [
      'spec.backend resource and service name are not allowed together',
      (x) => (x.spec.defaultBackend = { service: svcName, resource: res }),
      ['spec.defaultBackend FieldValueInvalid'],
    ],
    [
      'spec.backend resource and service port are not allowed together',
      (x) => (x.spec.defaultBackend = { service: svcPort, resource: res }),
      ['spec.defaultBackend FieldValueInvalid'],
    ],
  ]
  for (const [name, f, want] of cases) test(name, () => expect(fieldTypes(tweak(base, f))).toEqual(want))
  test('texts', () => {
    expect(texts(tweak(base, (x) => (x.spec.rules[0].host = '127.0.0.1')))).toEqual([
      'spec.rules[0].host: Invalid value: "127.0.0.1": must be a DNS name, not an IP address',
    ])
    expect(texts(tweak(base, (x) => (p0(x).pathType = 'foo')))).toEqual([
      'spec.rules[0].http.paths[0].pathType: Unsupported value: "foo": supported values: "Exact", "ImplementationSpecific", "Prefix"',
    ])
    expect(texts(tweak(base, (x) => (x.spec.defaultBackend = { service: svcPort, resource: res })))).toEqual([
      'spec.defaultBackend: Invalid value: "": cannot set both resource and service backends',
    ])
    expect(
      texts(
        tweak(base, (x) => {
          delete x.spec.defaultBackend
          x.spec.rules = []
        }),
      ),
    ).toEqual(['spec: Invalid value: null: either `defaultBackend` or `rules` must be specified'])
  })
})

describe('validation_test.go TestValidateIngressCreate', () => {
  const cases: [string, (x: O) => void, string[]][] = [
    ['class field set', (x) => (x.spec.ingressClassName = 'bar'), []],
    ['class annotation set', (x) => (x.metadata.annotations = { 'kubernetes.io/ingress.class': 'foo' }), []],
    [
      'class field and annotation set with same value',
      (x) => {
        x.spec.ingressClassName = 'foo'
        x.metadata.annotations = { 'kubernetes.io/ingress.class': 'foo' }
      },
      [],
    ],
    [
      'class field and annotation set with different value',
      (x) => {
        x.spec.ingressClassName = 'bar'
        x.metadata.annotations = { 'kubernetes.io/ingress.class': 'foo' }
      },
      ['annotations.kubernetes.io/ingress.class FieldValueInvalid'],
    ],
    [
      'valid regex path',
      (x) => {
        p0(x).path = '/([a-z0-9]*)'
      },
      [],
    ],
    [
      'Exact path with //',
      (x) => {
        p0(x).path = '/foo//bar'
        p0(x).pathType = 'Exact'
      },
      ['spec.rules[0].http.paths[0].path FieldValueInvalid'],
    ],
    ['valid secret', (x) => (x.spec.tls = [{ secretName: 'valid' }]), []],
    [
      'invalid secret',
      (x) => (x.spec.tls = [{ secretName: 'invalid name' }]),
      ['spec.tls[0].secretName FieldValueInvalid'],
    ],
    ['valid rules with wildcard host', (x) => (x.spec.rules[0].host = '*.foo.com'), []],
    [
      'invalid rules with wildcard host',
      (x) => {
        x.spec.rules[0].host = '*.foo.com'
        p0(x).path = 'foo'
        p0(x).pathType = 'Exact'
      },
      ['spec.rules[0].http.paths[0].path FieldValueInvalid'],
    ],
    [
      'relaxed service name (RelaxedServiceNameValidation, 1.36+)',
      (x) => (x.spec.defaultBackend.service.name = '1-service'),
      [],
    ],
  ]
  for (const [name, f, want] of cases) test(name, () => expect(fieldTypes(tweak(base, f))).toEqual(want))
  test('a DNS-1123 label service name before 1.36 is not a DNS-1035 label', () =>
    expect(
      fieldTypes(
        tweak(base, (x) => (x.spec.defaultBackend.service.name = '1-service')),
        undefined,
        35,
      ),
    ).toEqual(['spec.defaultBackend.service.name FieldValueInvalid']))
})

describe('validation_test.go TestValidateIngressUpdate (existing invalid data)', () => {
  const rv = (o: O) => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
  test('an invalid secret name already stored stays allowed', () => {
    const old = rv(tweak(base, (x) => (x.spec.tls = [{ secretName: 'invalid name' }])))
    expect(fieldTypes(old, old)).toEqual([])
  })
  test('a new invalid secret name is not', () => {
    const old = rv(base)
    const n = rv(tweak(base, (x) => (x.spec.tls = [{ secretName: 'invalid name' }])))
    expect(fieldTypes(n, old)).toEqual(['spec.tls[0].secretName FieldValueInvalid'])
  })
  test('an invalid wildcard-host rule already stored stays allowed', () => {
    const old = rv(
      tweak(base, (x) => {
        x.spec.rules[0].host = '*.foo.com'
        p0(x).path = 'foo'
        p0(x).pathType = 'Exact'
      }),
    )
    expect(fieldTypes(old, old)).toEqual([])
  })
})

const ic = (name: string, controller: string, parameters?: O): O => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: { name },
  spec: { controller, ...(parameters ? { parameters } : {}) },
})
const params = (apiGroup: string | undefined, kind: string, name: string, scope?: string, namespace?: string): O => ({
  ...(apiGroup !== undefined ? { apiGroup } : {}),
  kind,
  name,
  ...(scope !== undefined ? { scope } : {}),
  ...(namespace !== undefined ? { namespace } : {}),
})

describe('validation_test.go TestValidateIngressClass', () => {
  const cases: [string, O, string[]][] = [
    ['valid name, valid controller', ic('test123', 'foo.co/bar'), []],
    [
      'invalid name, valid controller',
      ic('test*123', 'foo.co/bar'),
      [
        "metadata.name: Invalid value: \"test*123\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ['valid name, empty controller', ic('test123', ''), ['spec.controller: Required value']],
    ['valid name, controller max length', ic('test123', `foo.co/${'a'.repeat(243)}`), []],
    [
      'valid name, controller too long',
      ic('test123', `foo.co/${'a'.repeat(244)}`),
      ['spec.controller: Too long: may not be more than 250 bytes'],
    ],
    [
      'valid name, valid controller, valid params',
      ic('test123', 'foo.co/bar', params('example.com', 'foo', 'bar', 'Cluster')),
      [],
    ],
    [
      'valid name, valid controller, invalid params (no kind)',
      ic('test123', 'foo.co/bar', params('example.com', '', 'bar', 'Cluster')),
      ['spec.parameters.kind: Required value'],
    ],
    [
      'valid name, valid controller, invalid params (no name)',
      ic('test123', 'foo.co/bar', params('example.com', 'foo', '', 'Cluster')),
      ['spec.parameters.name: Required value'],
    ],
    [
      'valid name, valid controller, invalid params (bad kind)',
      ic('test123', 'foo.co/bar', params(undefined, 'foo/', 'bar', 'Cluster')),
      ['spec.parameters.kind: Invalid value: "foo/": may not contain \'/\''],
    ],
    [
      'valid name, valid controller, invalid params (bad scope)',
      ic('test123', 'foo.co/bar', params(undefined, 'foo', 'bar', 'bad-scope')),
      ['spec.parameters.scope: Unsupported value: "bad-scope": supported values: "Cluster", "Namespace"'],
    ],
    [
      'valid name, valid controller, valid Namespace scope',
      ic('test123', 'foo.co/bar', params(undefined, 'foo', 'bar', 'Namespace', 'foo-ns')),
      [],
    ],
    [
      'valid name, valid controller, valid scope, invalid namespace',
      ic('test123', 'foo.co/bar', params(undefined, 'foo', 'bar', 'Namespace', 'foo_ns')),
      [
        "spec.parameters.namespace: Invalid value: \"foo_ns\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'valid name, valid controller, valid Cluster scope',
      ic('test123', 'foo.co/bar', params(undefined, 'foo', 'bar', 'Cluster')),
      [],
    ],
    [
      // v1 defaults scope to Cluster (SetDefaults_IngressClass) before validation: Go's internal-type
      // case (scope nil: Required) becomes the Cluster case with a namespace
      'valid name, valid controller, invalid scope (scope defaulted to Cluster)',
      ic('test123', 'foo.co/bar', params(undefined, 'foo', 'bar', undefined, 'foo_ns')),
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
    [
      'namespace not set when scope is Namespace',
      ic('test123', 'foo.co/bar', params(undefined, 'foo', 'bar', 'Namespace')),
      ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
    ],
    [
      'namespace is forbidden when scope is Cluster',
      ic('test123', 'foo.co/bar', params(undefined, 'foo', 'bar', 'Cluster', 'foo-ns')),
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
    [
      'empty namespace is forbidden when scope is Cluster',
      ic('test123', 'foo.co/bar', params(undefined, 'foo', 'bar', 'Cluster', '')),
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(texts(o)).toEqual(want))
  test('the declarative Required of kind (beta, 1.37) comes after the other errors', () =>
    expect(texts(ic('test123', 'foo.co/bar', params('^bad', '', 'bar', 'Cluster')))).toEqual([
      expect.stringMatching(/^spec.parameters.apiGroup: Invalid value: "\^bad"/),
      'spec.parameters.kind: Required value',
    ]))
  test('before 1.37 the handwritten Required is in place', () =>
    expect(fieldTypes(ic('test123', 'foo.co/bar', params('^bad', '', 'bar', 'Cluster')), undefined, 36)).toEqual([
      'spec.parameters.apiGroup FieldValueInvalid',
      'spec.parameters.kind FieldValueRequired',
    ]))
})

describe('validation_test.go TestValidateIngressClassUpdate', () => {
  const rv = (o: O, v: string) => tweak(o, (x) => (x.metadata.resourceVersion = v))
  test('name change', () =>
    expect(texts(rv(ic('test123', 'foo.co/bar'), '2'), rv(ic('test123', 'foo.co/different'), '1'))).toEqual([
      'spec.controller: Invalid value: "foo.co/bar": field is immutable',
    ]))
  test('parameters change', () =>
    expect(
      texts(
        rv(ic('test123', 'foo.co/bar', params('v1', 'ConfigMap', 'foo', 'Namespace', 'bar')), '2'),
        rv(ic('test123', 'foo.co/bar'), '1'),
      ),
    ).toEqual([]))
})
