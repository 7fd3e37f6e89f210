import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, stored, texts } from '../support.js'

// flowcontrol.apiserver.k8s.io/v1: kubernetes v1.37.2 pkg/apis/flowcontrol/validation/validation_test.go
// (TestFlowSchemaValidation, TestPriorityLevelConfigurationValidation, TestValidateNonResourceURLPath).
// From 1.37 the priority level's union rules are declarative (beta, enforced): the handwritten errors
// marked MarkCoveredByDeclarative in the Go tables are replaced by `Forbidden` / `Required value` without
// detail, after the others (texts checked against the 1.37.2 apiserver). Objects are defaulted first
// (matchingPrecedence 1000; nominalConcurrencyShares 30; queues 64, handSize 8, queueLengthLimit 50).

const fs = (spec: O, name = 'system-foo'): O => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'FlowSchema',
  metadata: { name },
  spec: { priorityLevelConfiguration: { name: 'system-bar' }, matchingPrecedence: 50, ...spec },
})
const user = { kind: 'User', user: { name: 'noxu' } }
const allResources = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }

describe('validation_test.go TestFlowSchemaValidation', () => {
  const cases: [string, O, string[]][] = [
    [
      'missing both resource and non-resource policy-rule should fail',
      fs({ rules: [{ subjects: [user] }] }),
      ['spec.rules[0] FieldValueRequired'],
    ],
    [
      'normal flow-schema w/ * verbs/apiGroups/resources should work',
      fs({ rules: [{ subjects: [user], resourceRules: [allResources] }] }),
      [],
    ],
    [
      'malformed Subject union in ServiceAccount case',
      fs({
        rules: [
          {
            subjects: [{ kind: 'ServiceAccount', user: { name: 'fred' }, group: { name: 'fred' } }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
          },
        ],
      }),
      [
        'spec.rules[0].subjects[0].serviceAccount FieldValueRequired',
        'spec.rules[0].subjects[0].user FieldValueForbidden',
        'spec.rules[0].subjects[0].group FieldValueForbidden',
      ],
    ],
    [
      'non-exempt flow-schema with matchingPrecedence==1 should fail',
      fs({ matchingPrecedence: 1, rules: [{ subjects: [user], resourceRules: [allResources] }] }),
      ['spec.matchingPrecedence FieldValueInvalid'],
    ],
    [
      'flow-schema mixes * verbs/apiGroups/resources should fail',
      fs({
        rules: [
          {
            subjects: [user],
            resourceRules: [
              { verbs: ['*', 'create'], apiGroups: ['*', 'tak'], resources: ['*', 'tok'], namespaces: ['*'] },
            ],
          },
        ],
      }),
      [
        'spec.rules[0].resourceRules[0].verbs FieldValueInvalid',
        'spec.rules[0].resourceRules[0].apiGroups FieldValueInvalid',
        'spec.rules[0].resourceRules[0].resources FieldValueInvalid',
      ],
    ],
    [
      'invalid subject kind should fail',
      fs({ rules: [{ subjects: [{ kind: 'FooKind' }], resourceRules: [allResources] }] }),
      ['spec.rules[0].subjects[0].kind FieldValueNotSupported'],
    ],
    [
      'flow-schema w/ invalid verb should fail',
      fs({ rules: [{ subjects: [user], resourceRules: [{ ...allResources, verbs: ['feed'] }] }] }),
      ['spec.rules[0].resourceRules[0].verbs FieldValueNotSupported'],
    ],
    [
      'flow-schema w/ invalid priority level configuration name should fail',
      fs({
        priorityLevelConfiguration: { name: 'system+++$$' },
        rules: [{ subjects: [user], resourceRules: [allResources] }],
      }),
      ['spec.priorityLevelConfiguration.name FieldValueInvalid'],
    ],
    [
      'flow-schema w/ service-account kind missing namespace should fail',
      fs({
        rules: [
          { subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: 'noxu' } }], resourceRules: [allResources] },
        ],
      }),
      ['spec.rules[0].subjects[0].serviceAccount.namespace FieldValueRequired'],
    ],
    [
      'Omitted ResourceRule.Namespaces should fail',
      fs({ rules: [{ subjects: [user], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] }] }),
      ['spec.rules[0].resourceRules[0].namespaces FieldValueRequired'],
    ],
    [
      'ClusterScope is allowed, with no Namespaces',
      fs({
        rules: [
          {
            subjects: [user],
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true }],
          },
        ],
      }),
      [],
    ],
    [
      'NamespaceEvery may not be combined with particulars',
      fs({ rules: [{ subjects: [user], resourceRules: [{ ...allResources, namespaces: ['*', 'foo'] }] }] }),
      ['spec.rules[0].resourceRules[0].namespaces FieldValueInvalid'],
    ],
    [
      'ResourceRule.Namespaces must be well formed',
      fs({ rules: [{ subjects: [user], resourceRules: [{ ...allResources, namespaces: ['-foo'] }] }] }),
      ['spec.rules[0].resourceRules[0].namespaces[0] FieldValueInvalid'],
    ],
    [
      'MatchingPrecedence must not be greater than 10000',
      fs({ matchingPrecedence: 10001, rules: [{ subjects: [user], resourceRules: [allResources] }] }),
      ['spec.matchingPrecedence FieldValueInvalid'],
    ],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))

  test('the distinguisher method prints the internal struct (apiserver text)', () => {
    expect(texts(fs({ distinguisherMethod: { type: 'ByGroup' } }))).toEqual([
      'spec.distinguisherMethod.type: Unsupported value: {"Type":"ByGroup"}: supported values: "ByNamespace", "ByUser"',
    ])
  })
})

describe('validation_test.go TestValidateNonResourceURLPath', () => {
  const paths: [string, boolean][] = [
    ['', true],
    ['foo', true],
    ['/', false],
    ['//', true],
    ['/foo', false],
    ['/////', true],
    ['/apis/', false],
    ['/healthz/*', false],
    ['/healthz/*/foo', true],
    ['/healthz/foo bar', true],
    ['/health*', true],
    ['/health*/foo', true],
    ['/*/*', true],
  ]
  for (const [path, bad] of paths)
    test(JSON.stringify(path), () => {
      const o = fs({ rules: [{ subjects: [user], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [path] }] }] })
      expect(fieldTypes(o)).toEqual(
        bad ? ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0] FieldValueInvalid'] : [],
      )
    })
})

const plc = (spec: O, name = 'system-foo', annotations?: O): O => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'PriorityLevelConfiguration',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec,
})
const queue = (q: O): O => ({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: q } } })

describe('validation_test.go TestPriorityLevelConfigurationValidation', () => {
  const cases: [string, O, string[]][] = [
    [
      'limited must not set exempt priority level configuration for borrowing',
      plc({ type: 'Limited', exempt: {} }, 'broken-limited'),
      ['spec.exempt: Forbidden', 'spec.limited: Required value'],
    ],
    ['limited requires more details', plc({ type: 'Limited' }, 'broken-limited'), ['spec.limited: Required value']],
    [
      'max-in-flight should work',
      plc(
        { type: 'Limited', limited: { nominalConcurrencyShares: 42, limitResponse: { type: 'Reject' } } },
        'max-in-flight',
      ),
      [],
    ],
    [
      'forbid queuing details when not queuing',
      plc({
        type: 'Limited',
        limited: { limitResponse: { type: 'Reject', queuing: { queues: 512, handSize: 4, queueLengthLimit: 100 } } },
      }),
      ['spec.limited.limitResponse.queuing: Forbidden'],
    ],
    [
      'customized priority level w/ overflowing handSize/queues should fail 1',
      plc(queue({ queueLengthLimit: 100, queues: 512, handSize: 8 })),
      [
        'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60',
      ],
    ],
    [
      'customized priority level w/ handSize=2 and queues=10^7 should work',
      plc(queue({ queueLengthLimit: 100, queues: 10_000_000, handSize: 2 })),
      [],
    ],
    [
      'customized priority level w/ handSize greater than queues should fail',
      plc(queue({ queueLengthLimit: 100, queues: 7, handSize: 8 })),
      ['spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (7)'],
    ],
    [
      'the roundtrip annotation is forbidden',
      plc({ type: 'Limited', limited: { limitResponse: { type: 'Reject' } } }, 'with-forbidden-annotation', {
        'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares': '',
      }),
      [
        "metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden",
      ],
    ],
    ['spec.type empty should fail with required', plc({}), ['spec.type: Required value']],
    [
      'spec.limited.limitResponse.type empty should fail with required',
      plc({ type: 'Limited', limited: { limitResponse: {} } }),
      ['spec.limited.limitResponse.type: Required value'],
    ],
    [
      'exempt type with a name other than exempt',
      plc({ type: 'Exempt', exempt: {} }, 'not-exempt'),
      ["spec.type: Invalid value: \"Exempt\": must be 'Exempt' if and only if `name` is 'exempt'"],
    ],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(texts(o)).toEqual(want))

  test('before 1.37 the handwritten texts (validation.go)', () => {
    expect(texts(plc({ type: 'Limited', exempt: {} }, 'broken-limited'), undefined, 36)).toEqual([
      'spec.exempt: Forbidden: must be nil if the type is Limited',
      'spec.limited: Required value: must not be empty when type is Limited',
    ])
  })
})

describe('defaults (pkg/apis/flowcontrol/v1/defaults.go, as the 1.37.2 apiserver stores them)', () => {
  test('FlowSchema: matchingPrecedence 1000', () => {
    const o = { ...fs({}), spec: { priorityLevelConfiguration: { name: 'workload-low' } } }
    expect(stored(o).spec.matchingPrecedence).toBe(1000)
  })
  test('PriorityLevelConfiguration: shares 30, lendablePercent 0, queuing 64 / 8 / 50; exempt 0 / 0', () => {
    const limited = stored(plc({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } }))
    expect(limited.spec.limited).toEqual({
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    })
    const exempt = stored(plc({ type: 'Exempt', exempt: {} }, 'exempt'))
    expect(exempt.spec.exempt).toEqual({ nominalConcurrencyShares: 0, lendablePercent: 0 })
  })
})
