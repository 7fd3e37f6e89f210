import { describe, expect, test } from 'vitest'
import { dropDisabledFields } from '../../../../src/builtin/strategy.js'
import { defaultFeatureGates } from '../../../../src/kube/feature-gates.js'
import { fieldTypes, type O, stored, texts, tweak } from '../support.js'

// resource.k8s.io/v1 ResourceClaim and ResourceClaimTemplate: kubernetes v1.37.2
// pkg/apis/resource/validation/validation_resourceclaim_test.go (TestValidateClaim) and
// validation_resourceclaimtemplate_test.go; the texts of the declarative rules that replace the
// handwritten errors they cover (k8s.io/api resource/v1 zz_generated.validations.go) are the 1.37.2
// apiserver's (kubectl apply --dry-run=server). The objects are decoded and defaulted first: a v1
// request's allocationMode defaults to ExactCount and count to 1 (pkg/apis/resource/v1/defaults.go).

const badName = '!@#$%^'
const claim = (devices: O): O => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name: 'foo', namespace: 'kube-system' },
  spec: { devices },
})
const exact = (name = 'req-0', extra: O = {}): O => ({ name, exactly: { deviceClassName: 'class', ...extra } })
const valid = claim({ requests: [exact()] })
const firstAvailable = claim({
  requests: [
    {
      name: 'req-0',
      firstAvailable: [
        { name: 'foo', deviceClassName: 'class' },
        { name: 'bar', deviceClassName: 'class' },
      ],
    },
  ],
})

describe('validation_resourceclaim_test.go TestValidateClaim', () => {
  test('good-claim, prioritized-list-valid', () => {
    expect(fieldTypes(valid)).toEqual([])
    expect(fieldTypes(firstAvailable)).toEqual([])
  })
  test('defaults: ExactCount, one device (defaults.go SetDefaults_ExactDeviceRequest)', () => {
    expect(stored(valid).spec.devices.requests[0].exactly).toEqual({
      deviceClassName: 'class',
      allocationMode: 'ExactCount',
      count: 1,
    })
  })
  const bad: [string, O, string[]][] = [
    [
      'bad-classname',
      tweak(valid, (c) => (c.spec.devices.requests[0].exactly.deviceClassName = badName)),
      ['spec.devices.requests[0].exactly.deviceClassName FieldValueInvalid'],
    ],
    [
      'missing-classname',
      tweak(valid, (c) => (c.spec.devices.requests[0].exactly.deviceClassName = '')),
      ['spec.devices.requests[0].exactly.deviceClassName FieldValueRequired'],
    ],
    [
      'invalid-spec (constraints and config referencing a bad request)',
      claim({
        requests: [exact()],
        constraints: [{ requests: ['req-0', badName], matchAttribute: 'missing-domain' }, { matchAttribute: '' }, {}],
        config: [
          {
            requests: ['req-0', badName],
            opaque: { driver: 'dra.example.com', parameters: { kind: 'foo', apiVersion: 'dra.example.com/v1' } },
          },
        ],
      }),
      [
        // handwritten first
        'spec.devices.constraints[0].requests[1] FieldValueInvalid',
        'spec.devices.constraints[0].requests[1] FieldValueInvalid',
        // DRAConsumableCapacity is on in 1.37: the message names both attributes
        'spec.devices.constraints[2] FieldValueRequired',
        'spec.devices.config[0].requests[1] FieldValueInvalid',
        'spec.devices.config[0].requests[1] FieldValueInvalid',
        // then the declarative (format=k8s-resource-fully-qualified-name)
        'spec.devices.constraints[0].matchAttribute FieldValueInvalid',
        'spec.devices.constraints[0].matchAttribute FieldValueInvalid',
        'spec.devices.constraints[1].matchAttribute FieldValueInvalid',
        'spec.devices.constraints[1].matchAttribute FieldValueInvalid',
      ],
    ],
    [
      'allocation-mode',
      claim({
        requests: [
          exact('foo'),
          exact('foo2', { allocationMode: 'All' }),
          exact('foo3', { count: -1 }),
          exact('foo4', { allocationMode: 'other' }),
          exact('foo5', { allocationMode: 'All', count: 2 }),
          exact('foo'),
        ],
      }),
      [
        'spec.devices.requests[2].exactly.count FieldValueInvalid',
        'spec.devices.requests[4].exactly.count FieldValueInvalid',
        // declarative, the list's uniqueness before its items (as the 1.37.2 apiserver orders them)
        'spec.devices.requests[5] FieldValueDuplicate',
        'spec.devices.requests[3].exactly.allocationMode FieldValueNotSupported',
      ],
    ],
    [
      'prioritized-list-both-first-available-and-exactly-set',
      tweak(firstAvailable, (c) => (c.spec.devices.requests[0].exactly = { deviceClassName: 'class' })),
      ['spec.devices.requests[0] FieldValueInvalid'],
    ],
    [
      'prioritized-list-invalid-nested-request (the sub-request defaulted to ExactCount)',
      tweak(firstAvailable, (c) => (c.spec.devices.requests[0].firstAvailable[0] = { name: badName })),
      [
        'spec.devices.requests[0].firstAvailable[0].name FieldValueInvalid',
        'spec.devices.requests[0].firstAvailable[0].deviceClassName FieldValueRequired',
      ],
    ],
    [
      'prioritized-list-nested-requests-same-name',
      tweak(firstAvailable, (c) => (c.spec.devices.requests[0].firstAvailable[1].name = 'foo')),
      ['spec.devices.requests[0].firstAvailable[1] FieldValueDuplicate'],
    ],
    [
      'prioritized-list-too-many-subrequests',
      claim({
        requests: [
          {
            name: 'req-0',
            firstAvailable: Array.from({ length: 9 }, (_, i) => ({ name: `subreq-${i}`, deviceClassName: 'class' })),
          },
        ],
      }),
      ['spec.devices.requests[0].firstAvailable FieldValueTooMany'],
    ],
    [
      'prioritized-list-config-requests-with-invalid-subrequest-reference',
      tweak(firstAvailable, (c) => {
        c.spec.devices.config = [{ requests: ['req-0/baz'], opaque: { driver: 'dra.example.com', parameters: {} } }]
      }),
      ['spec.devices.config[0].requests[0] FieldValueInvalid'],
    ],
    [
      'configuration (no parameters, not an object, no opaque)',
      claim({
        requests: [exact()],
        config: [
          { opaque: { driver: 'dra.example.com' } },
          { opaque: { driver: 'dra.example.com', parameters: 'hello-world' } },
          {},
        ],
      }),
      [
        'spec.devices.config[0].opaque.parameters FieldValueRequired',
        'spec.devices.config[1].opaque.parameters FieldValueInvalid',
        'spec.devices.config[2].opaque FieldValueRequired',
      ],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))

  test('tolerations: validateDeviceToleration and its declarative rules', () => {
    const o = claim({
      requests: [
        exact('req-0', {
          tolerations: [
            { key: 'example.com/a', operator: 'Exists', value: 'x' },
            { key: 'example.com/b', value: 'bad value!' },
            { key: 'bad key', operator: 'Exists', effect: 'Evict' },
            { key: 'example.com/c', operator: 'Matches' },
          ],
        }),
      ],
    })
    expect(texts(o)).toEqual([
      'spec.devices.requests[0].exactly.tolerations[0].value: Invalid value: "x": must be empty for operator `Exists`',
      "spec.devices.requests[0].exactly.tolerations[1].value: Invalid value: \"bad value!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      "spec.devices.requests[0].exactly.tolerations[2].key: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.devices.requests[0].exactly.tolerations[2].effect: Unsupported value: "Evict": supported values: "NoExecute", "NoSchedule", "None"',
      'spec.devices.requests[0].exactly.tolerations[3].operator: Unsupported value: "Matches": supported values: "Equal", "Exists"',
    ])
  })

  test('selectors: CEL compile errors (the apiserver text)', () => {
    const sel = (expression: string) =>
      texts(claim({ requests: [exact('req-0', { selectors: [{ cel: { expression } }] })] }))
    expect(sel('device.driver == "x" && device.attributes["x"].model == "a"')).toEqual([])
    expect(sel('device.allowMultipleAllocations')).toEqual([])
    // newCompiler adds ext.Bindings (k8s.io/dynamic-resource-allocation cel/compile.go)
    expect(sel('cel.bind(x, device.driver, x == "a")')).toEqual([])
    expect(sel('noSuchVar')).toEqual([
      "spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: \"noSuchVar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'noSuchVar' (in container '')\n | noSuchVar\n | ^",
    ])
    expect(sel('1 + 1')).toEqual([
      'spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: "1 + 1": must evaluate to bool or the unknown type, not int',
    ])
    expect(sel('x'.repeat(10 * 1024 + 1))).toEqual([
      'spec.devices.requests[0].exactly.selectors[0].cel.expression: Too long: may not be more than 10240 bytes',
    ])
  })

  test('duplicate request: the declarative rule prints the defaulted item (apiserver text)', () => {
    expect(texts(claim({ requests: [exact('gpu'), exact('gpu')] }))).toEqual([
      'spec.devices.requests[1]: Duplicate value: {"name":"gpu","exactly":{"deviceClassName":"class","allocationMode":"ExactCount","count":1}}',
    ])
  })

  test('invalid-update: the spec is immutable (declarative: no value)', () => {
    const old = tweak(valid, (c) => (c.metadata.resourceVersion = '1'))
    const n = tweak(old, (c) => (c.spec.devices.requests[0].name = 'req-1'))
    expect(texts(n, old)).toEqual(['spec: Invalid value: null: field is immutable'])
    expect(texts(old, old)).toEqual([])
  })

  test('derivedAttributes are dropped on create (DRADerivedAttributes is alpha, off, in 1.37)', () => {
    const o = claim({
      requests: [exact('req-0', { derivedAttributes: [{ name: 'example.com/numa', expression: '1' }] })],
    })
    // without the strategy's prepare the unreferenced name would be refused
    expect(fieldTypes(o)).toEqual(['spec.devices.requests[0].exactly.derivedAttributes[0].name FieldValueInvalid'])
    const prepared = stored(o)
    dropDisabledFields(prepared, undefined, defaultFeatureGates(37))
    expect(prepared.spec.devices.requests[0].exactly.derivedAttributes).toBeUndefined()
  })
})

const template = (spec: O): O => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  metadata: { name: 'foo', namespace: 'kube-system' },
  spec,
})

describe('validation_resourceclaimtemplate_test.go TestValidateClaimTemplate', () => {
  const goodSpec = { devices: { requests: [exact()] } }
  test('good-claim', () => expect(fieldTypes(template({ spec: goodSpec }))).toEqual([]))
  const bad: [string, O, string[]][] = [
    [
      'bad-labels',
      template({ metadata: { labels: { 'hello-world': 'spaces not allowed' } }, spec: goodSpec }),
      ['spec.metadata.labels FieldValueInvalid'],
    ],
    [
      'bad-annotations',
      template({ metadata: { annotations: { [badName]: 'hello world' } }, spec: goodSpec }),
      ['spec.metadata.annotations FieldValueInvalid'],
    ],
    [
      'name in the template (ValidateTemplateObjectMeta)',
      template({ metadata: { name: 'x' }, spec: goodSpec }),
      ['spec.metadata.name FieldValueForbidden'],
    ],
    [
      'bad-classname',
      template({ spec: { devices: { requests: [exact('req-0', { deviceClassName: badName })] } } }),
      ['spec.spec.devices.requests[0].exactly.deviceClassName FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of bad) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('update: the spec is immutable (handwritten: the new spec as value)', () => {
    const old = tweak(template({ spec: goodSpec }), (c) => (c.metadata.resourceVersion = '1'))
    const n = tweak(old, (c) => (c.spec.spec.devices.requests[0].name = 'req-1'))
    expect(fieldTypes(n, old)).toEqual(['spec FieldValueInvalid'])
  })
  test('update: the value is the internal Go struct (the 1.37.2 apiserver text of a kubectl apply)', () => {
    const old = tweak(template({ spec: goodSpec }), (c) => (c.metadata.resourceVersion = '1'))
    const n = tweak(old, (c) => {
      c.spec.spec.devices.requests[0].exactly = { deviceClassName: 'other.example.com', count: 2 }
    })
    expect(texts(n, old)).toEqual([
      'spec: Invalid value: {"Spec":{"Devices":{"Requests":[{"Name":"req-0","Exactly":{"DeviceClassName":"other.example.com","Selectors":null,"AllocationMode":"ExactCount","Count":2,"AdminAccess":null,"Tolerations":null,"Capacity":null,"DerivedAttributes":null},"FirstAvailable":null}],"Constraints":null,"Config":null}}}: field is immutable',
    ])
  })
})
