import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import { fieldTypes, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go: TestHugePagesIsolation and
// TestValidateDynamicResourceAllocation (pod resourceClaims and container resources.claims;
// DynamicResourceAllocation is on from 1.34), on v1 Pods decoded and defaulted as the apiserver does.

const pod = (spec: O, meta: O = {}): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: '123', namespace: 'ns', ...meta },
  spec,
})
const ctr = (resources: O, name = 'ctr') => ({ name, image: 'image', resources })

describe('TestHugePagesIsolation', () => {
  const cm = { cpu: '10', memory: '10G' }
  const cases: [string, O, O, boolean][] = [
    ['Valid: request hugepages-2Mi', { ...cm, 'hugepages-2Mi': '1Gi' }, { ...cm, 'hugepages-2Mi': '1Gi' }, false],
    [
      'Valid: request more than one hugepages size',
      { ...cm, 'hugepages-2Mi': '1Gi', 'hugepages-1Gi': '2Gi' },
      { ...cm, 'hugepages-2Mi': '1Gi', 'hugepages-1Gi': '2Gi' },
      false,
    ],
    ['Invalid: not requesting cpu and memory', { 'hugepages-2Mi': '1Gi' }, { 'hugepages-2Mi': '1Gi' }, true],
    [
      'Invalid: request 1Gi hugepages-2Mi but limit 2Gi',
      { ...cm, 'hugepages-2Mi': '1Gi' },
      { ...cm, 'hugepages-2Mi': '2Gi' },
      true,
    ],
  ]
  for (const [name, requests, limits, bad] of cases)
    it(name, () => expect(texts(pod({ containers: [ctr({ requests, limits })] })).length > 0).toBe(bad))
  it('messages', () => {
    expect(
      texts(pod({ containers: [ctr({ requests: { 'hugepages-2Mi': '1Gi' }, limits: { 'hugepages-2Mi': '1Gi' } })] })),
    ).toEqual(['spec.containers[0].resources: Forbidden: HugePages require cpu or memory'])
    // validateResourceQuantityHugePageValue: a multiple of the page size
    expect(
      texts(
        pod({
          containers: [ctr({ requests: { ...cm, 'hugepages-2Mi': '3Mi' }, limits: { ...cm, 'hugepages-2Mi': '3Mi' } })],
        }),
      ),
    ).toEqual([
      'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
      'spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
    ])
  })
})

describe('TestValidateDynamicResourceAllocation', () => {
  const ref = (name: string) => ({ name, resourceClaimName: 'external-claim' })
  const ok: [string, O][] = [
    [
      'resource claim reference',
      { containers: [ctr({ claims: [{ name: 'my-claim-reference' }] })], resourceClaims: [ref('my-claim-reference')] },
    ],
    [
      'resource claim template',
      {
        containers: [ctr({ claims: [{ name: 'my-claim-template' }] })],
        resourceClaims: [{ name: 'my-claim-template', resourceClaimTemplateName: 'external-claim' }],
      },
    ],
    [
      'multiple claims',
      {
        containers: [ctr({ claims: [{ name: 'my-claim' }, { name: 'another-claim' }] })],
        resourceClaims: [ref('my-claim'), ref('another-claim')],
      },
    ],
    [
      'multiple claims with requests',
      {
        containers: [
          ctr({
            claims: [
              { name: 'my-claim', request: 'req-0' },
              { name: 'my-claim', request: 'req-1' },
              { name: 'another-claim' },
            ],
          }),
        ],
        resourceClaims: [ref('my-claim'), ref('another-claim')],
      },
    ],
    [
      'single claim with requests',
      {
        containers: [
          ctr({
            claims: [
              { name: 'my-claim', request: 'req-0' },
              { name: 'my-claim', request: 'req-1' },
            ],
          }),
        ],
        resourceClaims: [ref('my-claim')],
      },
    ],
    [
      'init container',
      {
        containers: [ctr({})],
        initContainers: [ctr({ claims: [{ name: 'my-claim' }] }, 'ctr-init')],
        resourceClaims: [ref('my-claim')],
      },
    ],
  ]
  for (const [name, spec] of ok) it(`success: ${name}`, () => expect(texts(pod(spec))).toEqual([]))

  const bad: [string, O, string[]][] = [
    [
      'pod claim name with prefix',
      { containers: [ctr({})], resourceClaims: [ref('../my-claim')] },
      ['spec.resourceClaims[0].name FieldValueInvalid'],
    ],
    [
      'pod claim name with path',
      { containers: [ctr({})], resourceClaims: [ref('my/claim')] },
      ['spec.resourceClaims[0].name FieldValueInvalid'],
    ],
    [
      'pod claim name empty',
      { containers: [ctr({})], resourceClaims: [ref('')] },
      ['spec.resourceClaims[0].name FieldValueRequired'],
    ],
    [
      'duplicate pod claim entries',
      { containers: [ctr({})], resourceClaims: [ref('my-claim'), ref('my-claim')] },
      ['spec.resourceClaims[1].name FieldValueDuplicate'],
    ],
    [
      'resource claim source empty',
      { containers: [ctr({ claims: [{ name: 'my-claim' }] })], resourceClaims: [{ name: 'my-claim' }] },
      ['spec.resourceClaims[0] FieldValueInvalid'],
    ],
    [
      'resource claim reference and template',
      {
        containers: [ctr({ claims: [{ name: 'my-claim' }] })],
        resourceClaims: [
          { name: 'my-claim', resourceClaimName: 'external-claim', resourceClaimTemplateName: 'external-claim' },
        ],
      },
      ['spec.resourceClaims[0] FieldValueInvalid'],
    ],
    [
      'claim not found',
      { containers: [ctr({ claims: [{ name: 'no-such-claim' }] })], resourceClaims: [ref('my-claim')] },
      ['spec.containers[0].resources.claims[0] FieldValueNotFound'],
    ],
    [
      'claim name empty',
      { containers: [ctr({ claims: [{ name: '' }] })], resourceClaims: [ref('my-claim')] },
      ['spec.containers[0].resources.claims[0] FieldValueRequired'],
    ],
    [
      'pod claim name duplicates',
      {
        containers: [ctr({ claims: [{ name: 'my-claim' }, { name: 'my-claim' }] })],
        resourceClaims: [ref('my-claim')],
      },
      ['spec.containers[0].resources.claims[1] FieldValueDuplicate'],
    ],
    [
      'pod claim name duplicates without and with request',
      {
        containers: [ctr({ claims: [{ name: 'my-claim' }, { name: 'my-claim', request: 'req-0' }] })],
        resourceClaims: [ref('my-claim')],
      },
      ['spec.containers[0].resources.claims[1] FieldValueDuplicate'],
    ],
    [
      'pod claim name duplicates with and without request',
      {
        containers: [ctr({ claims: [{ name: 'my-claim', request: 'req-0' }, { name: 'my-claim' }] })],
        resourceClaims: [ref('my-claim')],
      },
      ['spec.containers[0].resources.claims[1] FieldValueDuplicate'],
    ],
    [
      'pod claim name duplicates with requests',
      {
        containers: [
          ctr({
            claims: [
              { name: 'my-claim', request: 'req-0' },
              { name: 'my-claim', request: 'req-0' },
            ],
          }),
        ],
        resourceClaims: [ref('my-claim')],
      },
      ['spec.containers[0].resources.claims[1] FieldValueDuplicate'],
    ],
    [
      'bad request name',
      { containers: [ctr({ claims: [{ name: 'my-claim', request: '*$@%^' }] })], resourceClaims: [ref('my-claim')] },
      ['spec.containers[0].resources.claims[0].request FieldValueInvalid'],
    ],
    [
      'no claims defined',
      { containers: [ctr({ claims: [{ name: 'my-claim' }] })] },
      ['spec.containers[0].resources.claims[0] FieldValueNotFound'],
    ],
    [
      'invalid claim template name',
      { containers: [ctr({})], resourceClaims: [{ name: 'my-claim', resourceClaimTemplateName: 'foo_bar' }] },
      ['spec.resourceClaims[0].resourceClaimTemplateName FieldValueInvalid'],
    ],
    [
      'invalid claim reference name',
      { containers: [ctr({})], resourceClaims: [{ name: 'my-claim', resourceClaimName: 'foo_bar' }] },
      ['spec.resourceClaims[0].resourceClaimName FieldValueInvalid'],
    ],
  ]
  for (const [name, spec, want] of bad) it(name, () => expect(fieldTypes(pod(spec))).toEqual(want))

  it('not-found detail names the pod claims', () => {
    expect(
      texts(pod({ containers: [ctr({ claims: [{ name: 'no-such-claim' }] })], resourceClaims: [ref('b'), ref('a')] })),
    ).toEqual([
      'spec.containers[0].resources.claims[0]: Not found: "no-such-claim": must be one of the names in pod.spec.resourceClaims: a, b',
    ])
    expect(texts(pod({ containers: [ctr({ claims: [{ name: 'x' }] })] }))).toEqual([
      'spec.containers[0].resources.claims[0]: Not found: "x": must be one of the names in pod.spec.resourceClaims which is empty',
    ])
  })
  it('static pods do not support resource claims', () =>
    expect(
      texts(
        pod(
          {
            nodeName: 'node',
            containers: [ctr({ claims: [{ name: 'my-claim' }] })],
            resourceClaims: [ref('my-claim')],
          },
          { annotations: { 'kubernetes.io/config.mirror': 'x' } },
        ),
      ),
    ).toEqual([': Forbidden: static pods do not support resource claims']))
  it('before 1.34 (DRA off) claims are not checked', () =>
    expect(
      texts(pod({ containers: [ctr({ claims: [{ name: 'x' }] })], resourceClaims: [{ name: 'a' }] }), undefined, 33),
    ).toEqual([]))
})

describe('TestValidatePod: container resources', () => {
  const one = (requests: O, limits: O, init = false) =>
    texts(
      pod(
        init
          ? { containers: [ctr({})], initContainers: [ctr({ requests, limits }, 'invalid')] }
          : { containers: [ctr({ requests, limits }, 'invalid')] },
      ),
    )
  it('invalid extended resource name in container request', () =>
    expect(one({ 'invalid-name': '2' }, { 'invalid-name': '2' }).join('\n')).toContain(
      'must be a standard resource for containers',
    ))
  it('invalid extended resource requirement: request must be == limit', () =>
    expect(one({ 'example.com/a': '2' }, { 'example.com/a': '1' })).toEqual([
      'spec.containers[0].resources.requests: Invalid value: "2": must be equal to example.com/a limit of 1',
    ]))
  it('invalid extended resource requirement without limit', () =>
    expect(texts(pod({ containers: [ctr({ requests: { 'example.com/a': '2' } }, 'invalid')] }))).toEqual([
      'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ]))
  it('invalid fractional extended resource in container request', () =>
    expect(texts(pod({ containers: [ctr({ requests: { 'example.com/a': '500m' } }, 'invalid')] }))).toEqual([
      'spec.containers[0].resources.requests[example.com/a]: Invalid value: "500m": must be an integer',
      'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ]))
  it('invalid fractional extended resource in init container request', () =>
    expect(one({ 'example.com/a': '500m' }, { 'example.com/a': '500m' }, true)).toEqual([
      'spec.initContainers[0].resources.limits[example.com/a]: Invalid value: "500m": must be an integer',
      'spec.initContainers[0].resources.requests[example.com/a]: Invalid value: "500m": must be an integer',
    ]))
  it('invalid fractional extended resource in container limit', () =>
    expect(one({ 'example.com/a': '5' }, { 'example.com/a': '2.5' })).toEqual([
      'spec.containers[0].resources.limits[example.com/a]: Invalid value: "2500m": must be an integer',
      'spec.containers[0].resources.requests: Invalid value: "5": must be equal to example.com/a limit of 2500m',
    ]))
})

// PodTemplate: SetDefaults_Pod (requests from limits) does not run on templates, so the containers
// carry exactly what the Go tables give them
const template = (spec: O): O => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name: 't', namespace: 'ns' },
  template: { spec },
})
const R = (cpu: string, memory: string, extra: O = {}) => ({ cpu, memory, ...extra })

describe('TestValidatePodResources (PodLevelResources, on from 1.34)', () => {
  const res = { requests: R('10', '10Mi'), limits: R('20', '20Mi', { 'hugepages-2Mi': '100Mi' }) }
  const spec = (os: string, resources: O) => ({
    os: { name: os },
    resources,
    resourceClaims: [{ name: 'resource-claim', resourceClaimName: 'c' }],
    containers: [{ name: 'ctr', image: 'image' }],
  })
  it('supported os', () => expect(texts(template(spec('linux', res)))).toEqual([]))
  it('unsupported os', () =>
    expect(texts(template(spec('windows', res)))).toEqual([
      'template.spec.resources: Forbidden: may not be set for a windows pod',
    ]))
  it('unsupported resource claims at pod level resources', () =>
    expect(texts(template(spec('linux', { ...res, claims: [{ name: 'resource-claim' }] })))).toEqual([
      'template.spec.resources.claims: Forbidden: claims may not be set for Resources at pod-level',
    ]))
  it('before 1.34 spec.resources is not validated', () =>
    expect(texts(template(spec('windows', res)), undefined, 33)).toEqual([]))
})

describe('TestValidatePodResourceConsistency', () => {
  const run = (resources: O, containers: O[], initContainers: O[] = []) =>
    texts(
      template({
        resources,
        containers: containers.map((r, i) => ({ name: `c${i}`, image: 'image', resources: r })),
        initContainers: initContainers.map((r, i) => ({ name: `i${i}`, image: 'image', ...r })),
      }),
    )
  const cases: [string, O, O[], string[]][] = [
    [
      'aggregate container requests less than pod requests',
      { requests: R('10', '10Mi') },
      [{ requests: R('5', '5Mi') }, { requests: R('4', '3Mi') }],
      [],
    ],
    [
      'aggregate container requests equal to pod requests',
      { requests: R('10', '10Mi') },
      [{ requests: R('5', '5Mi') }, { requests: R('5', '5Mi') }],
      [],
    ],
    [
      'aggregate container requests greater than pod requests',
      { requests: R('10', '10Mi') },
      [{ requests: R('6', '5Mi') }, { requests: R('8', '7Mi') }],
      [
        'template.spec.resources.requests[cpu]: Invalid value: "10": must be greater than or equal to aggregate container requests of 14',
        'template.spec.resources.requests[memory]: Invalid value: "10Mi": must be greater than or equal to aggregate container requests of 12Mi',
      ],
    ],
    [
      'container requests with resources unsupported at pod-level',
      { requests: R('10', '10Mi') },
      [
        { requests: R('6', '5Mi', { 'ephemeral-storage': '10Gi' }) },
        { requests: R('4', '3Mi', { 'ephemeral-storage': '5Gi' }) },
      ],
      [],
    ],
    [
      'aggregate container limits less than pod limits',
      { limits: R('10', '10Mi', { 'hugepages-2Mi': '10Mi' }) },
      [{ limits: R('5', '5Mi', { 'hugepages-2Mi': '4Mi' }) }, { limits: R('4', '3Mi', { 'hugepages-2Mi': '4Mi' }) }],
      [],
    ],
    [
      'aggregate container limits equal to pod limits',
      { limits: R('10', '10Mi', { 'hugepages-2Mi': '8Mi' }) },
      [{ limits: R('5', '5Mi', { 'hugepages-2Mi': '4Mi' }) }, { limits: R('5', '5Mi', { 'hugepages-2Mi': '4Mi' }) }],
      [],
    ],
    [
      'aggregate container limits greater than pod limits',
      { limits: R('10', '10Mi') },
      [{ limits: R('5', '5Mi') }, { limits: R('6', '9Mi') }],
      [],
    ],
    [
      'hugepage aggregate container limits greater than pod limits',
      { limits: { cpu: '10', 'hugepages-2Mi': '4Mi' } },
      [{ limits: { cpu: '6', 'hugepages-2Mi': '4Mi' } }, { limits: { cpu: '6', 'hugepages-2Mi': '4Mi' } }],
      [
        'template.spec.resources.limits[hugepages-2Mi]: Invalid value: "4Mi": must be greater than or equal to aggregate container limits of 8Mi',
      ],
    ],
    [
      'individual container limits greater than pod limits',
      { limits: R('10', '10Mi', { 'hugepages-2Mi': '2Mi' }) },
      [{ limits: R('11', '12Mi', { 'hugepages-2Mi': '4Mi' }) }],
      [
        'template.spec.resources.limits[hugepages-2Mi]: Invalid value: "2Mi": must be greater than or equal to aggregate container limits of 4Mi',
        'template.spec.resources.containers[0][cpu].limits: Invalid value: "11": must be less than or equal to pod limits of 10',
        'template.spec.resources.containers[0][hugepages-2Mi].limits: Invalid value: "4Mi": must be less than or equal to pod limits of 2Mi',
        'template.spec.resources.containers[0][memory].limits: Invalid value: "12Mi": must be less than or equal to pod limits of 10Mi',
      ],
    ],
  ]
  for (const [name, resources, containers, want] of cases)
    it(name, () => expect(run(resources, containers)).toEqual(want))
  it('init containers and sidecars (AggregateContainerRequests)', () => {
    // a sidecar adds to the containers; a plain init container only sets a floor (with the sidecars before it)
    expect(
      run(
        { requests: R('10', '10Mi') },
        [{ requests: R('4', '1Mi') }],
        [{ restartPolicy: 'Always', resources: { requests: R('5', '1Mi') } }],
      ),
    ).toEqual([])
    expect(
      run({ requests: R('10', '10Mi') }, [{ requests: R('4', '1Mi') }], [{ resources: { requests: R('11', '1Mi') } }]),
    ).toEqual([
      'template.spec.resources.requests[cpu]: Invalid value: "10": must be greater than or equal to aggregate container requests of 11',
    ])
  })
})

describe('TestValidatePodResourceNames (pod-level)', () => {
  const names: [string, boolean][] = [
    ['memory', false],
    ['cpu', false],
    ['storage', true],
    ['hugepages-2Mi', false],
    ['hugepages-1Gi', false],
    ['requests.cpu', true],
    ['requests.memory', true],
    ['requests.storage', true],
    ['limits.cpu', true],
    ['limits.memory', true],
    ['limits.storage', true],
    ['network', true],
    ['disk', true],
    ['my.favorite.app.co/12345', true],
    ['my.favorite.app.co/_12345', true],
    ['my.favorite.app.co/12345_', true],
    ['kubernetes.io/..', true],
    [`kubernetes.io/${'a'.repeat(64)}`, true],
    ['kubernetes.io/cpu', true],
  ]
  for (const [name, bad] of names)
    it(name, () =>
      expect(
        fieldTypes(
          template({ resources: { limits: { cpu: '1', [name]: '2Gi' } }, containers: [{ name: 'c', image: 'i' }] }),
        ).length > 0,
      ).toBe(bad),
    )
  it('a standard resource pod-level resources do not support', () =>
    expect(
      texts(template({ resources: { limits: { storage: '1Gi' } }, containers: [{ name: 'c', image: 'i' }] })),
    ).toEqual([
      'template.spec.resources.limits[storage]: Unsupported value: "storage": supported values: "cpu", "hugepages-", "memory"',
    ]))
})
