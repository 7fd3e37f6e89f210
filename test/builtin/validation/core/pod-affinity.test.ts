import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/apps/validation.js'
import '../../../../src/builtin/validation/core/pod.js'
import { validateTopologySpreadConstraints } from '../../../../src/builtin/validation/core/pod-affinity.js'
import { aggregateString, type FieldError, FieldPath } from '../../../../src/kube/field.js'
import { errors, fieldTypes, type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go: TestValidateTopologySpreadConstraints
// (validateTopologySpreadConstraints called on path `field`; the SelectorMerge options map to the
// release: MatchLabelKeysInPodTopologySpreadSelectorMerge is on from 1.34) and the affinity and
// topology-spread cases of TestValidatePod (ValidatePodCreate, the aggregate text must contain the
// expected string), on a v1 Pod decoded and defaulted as the apiserver does.

const F = FieldPath.of('field')
const ft = (errs: FieldError[]) => errs.map((e) => `${e.field} ${e.type}`)

const pod = (spec: O = {}, labels?: Record<string, string>): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: '123', namespace: 'ns', ...(labels ? { labels } : {}) },
  spec: { containers: [{ name: 'ctr', image: 'image' }], ...spec },
})
const aggregate = (o: O) => aggregateString(errors(o))

describe('TestValidateTopologySpreadConstraints', () => {
  const tsc = (c: O[], minor = 37) => ft(validateTopologySpreadConstraints(c, F, minor))
  const zone = { maxSkew: 1, topologyKey: 'k8s.io/zone', whenUnsatisfiable: 'DoNotSchedule' }
  const dupSelector = {
    matchExpressions: [
      { key: 'foo', operator: 'NotIn', values: ['value1'] },
      { key: 'foo', operator: 'NotIn', values: ['value2', 'value3'] },
    ],
  }
  const oneSelector = { matchExpressions: [{ key: 'foo', operator: 'NotIn', values: ['value1'] }] }
  const cases: [string, O[], string[], number?][] = [
    ['all required fields ok', [{ ...zone, minDomains: 3 }], []],
    [
      'missing MaxSkew',
      [{ topologyKey: 'k8s.io/zone', whenUnsatisfiable: 'DoNotSchedule' }],
      ['field[0].maxSkew FieldValueInvalid'],
    ],
    ['negative MaxSkew', [{ ...zone, maxSkew: -1 }], ['field[0].maxSkew FieldValueInvalid']],
    [
      'can use MinDomains with ScheduleAnyway, when MinDomains = nil',
      [{ ...zone, whenUnsatisfiable: 'ScheduleAnyway' }],
      [],
    ],
    ['negative minDomains is invalid', [{ ...zone, minDomains: -1 }], ['field[0].minDomains FieldValueInvalid']],
    [
      'cannot use non-nil MinDomains with ScheduleAnyway',
      [{ ...zone, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 10 }],
      ['field[0].minDomains FieldValueInvalid'],
    ],
    [
      'use negative MinDomains with ScheduleAnyway(invalid)',
      [{ ...zone, whenUnsatisfiable: 'ScheduleAnyway', minDomains: -1 }],
      ['field[0].minDomains FieldValueInvalid', 'field[0].minDomains FieldValueInvalid'],
    ],
    [
      'missing TopologyKey',
      [{ maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' }],
      ['field[0].topologyKey FieldValueRequired'],
    ],
    [
      'missing scheduling mode',
      [{ maxSkew: 1, topologyKey: 'k8s.io/zone' }],
      ['field[0].whenUnsatisfiable FieldValueNotSupported'],
    ],
    [
      'unsupported scheduling mode',
      [{ ...zone, whenUnsatisfiable: 'N/A' }],
      ['field[0].whenUnsatisfiable FieldValueNotSupported'],
    ],
    [
      'multiple constraints ok with all required fields',
      [zone, { maxSkew: 2, topologyKey: 'k8s.io/node', whenUnsatisfiable: 'ScheduleAnyway' }],
      [],
    ],
    [
      'multiple constraints missing TopologyKey on partial ones',
      [
        { maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' },
        { ...zone, maxSkew: 2 },
      ],
      ['field[0].topologyKey FieldValueRequired'],
    ],
    [
      'duplicate constraints',
      [zone, { ...zone, maxSkew: 2 }],
      ['field[0].{topologyKey, whenUnsatisfiable} FieldValueDuplicate'],
    ],
    [
      'supported policy name set on NodeAffinityPolicy and NodeTaintsPolicy',
      [{ ...zone, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' }],
      [],
    ],
    [
      'unsupported policy name set on NodeAffinityPolicy',
      [{ ...zone, nodeAffinityPolicy: 'Unknown', nodeTaintsPolicy: 'Ignore' }],
      ['field[0].nodeAffinityPolicy FieldValueNotSupported'],
    ],
    [
      'unsupported policy name set on NodeTaintsPolicy',
      [{ ...zone, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Unknown' }],
      ['field[0].nodeTaintsPolicy FieldValueNotSupported'],
    ],
    [
      "key in MatchLabelKeys isn't correctly defined",
      [{ ...zone, labelSelector: {}, matchLabelKeys: ['/simple'] }],
      ['field[0].matchLabelKeys[0] FieldValueInvalid'],
    ],
    [
      "key in MatchLabelKeys isn't correctly defined when AllowMatchLabelKeysInPodTopologySpreadSelectorMerge is false",
      [{ ...zone, labelSelector: {}, matchLabelKeys: ['/simple'] }],
      ['field[0].matchLabelKeys[0] FieldValueInvalid'],
      33,
    ],
    // the Go test marks this path "not perfect" (kubernetes#129900): the index hangs on the constraint
    [
      'key exists in both MatchLabelKeys and LabelSelector',
      [{ ...zone, matchLabelKeys: ['foo'], labelSelector: dupSelector }],
      ['field[0][0] FieldValueInvalid'],
    ],
    [
      'key exists in both MatchLabelKeys and LabelSelector when AllowMatchLabelKeysInPodTopologySpreadSelectorMerge is false',
      [
        {
          ...zone,
          matchLabelKeys: ['foo'],
          labelSelector: { matchExpressions: [{ key: 'foo', operator: 'NotIn', values: ['value1', 'value2'] }] },
        },
      ],
      ['field[0].matchLabelKeys[0] FieldValueInvalid'],
      33,
    ],
    [
      'key in MatchLabelKeys is forbidden to be specified when LabelSelector is not set',
      [{ ...zone, matchLabelKeys: ['foo'] }],
      ['field[0].matchLabelKeys FieldValueForbidden'],
    ],
    [
      'key in MatchLabelKeys is forbidden to be specified when LabelSelector is not set and AllowMatchLabelKeysInPodTopologySpreadSelectorMerge is false',
      [{ ...zone, matchLabelKeys: ['foo'] }],
      ['field[0].matchLabelKeys FieldValueForbidden'],
      33,
    ],
    [
      'invalid MatchLabels set on LabelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is false',
      [{ ...zone, labelSelector: { matchLabels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'foo' } } }],
      ['field[0].labelSelector.matchLabels FieldValueInvalid'],
    ],
    [
      'valid MatchLabels set on LabelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is false',
      [{ ...zone, labelSelector: { matchLabels: { foo: 'foo' } } }],
      [],
    ],
    [
      'invalid MatchLabelKeys when OldPodViolatesMatchLabelKeysValidation is false',
      [{ ...zone, matchLabelKeys: ['foo'], labelSelector: dupSelector }],
      ['field[0][0] FieldValueInvalid'],
    ],
    [
      'valid MatchLabelKeys when OldPodViolatesMatchLabelKeysValidation is false',
      [{ ...zone, matchLabelKeys: ['foo'], labelSelector: oneSelector }],
      [],
    ],
    [
      'invalid MatchLabelKeys when AllowMatchLabelKeysInPodTopologySpreadSelectorMerge is false and OldPodViolatesLegacyMatchLabelKeysValidation is false',
      [{ ...zone, matchLabelKeys: ['foo'], labelSelector: oneSelector }],
      ['field[0].matchLabelKeys[0] FieldValueInvalid'],
      33,
    ],
    [
      'valid MatchLabelKeys when AllowMatchLabelKeysInPodTopologySpreadSelectorMerge is false and OldPodViolatesLegacyMatchLabelKeysValidation is false',
      [{ ...zone, matchLabelKeys: ['foo'], labelSelector: { matchExpressions: [] } }],
      [],
      33,
    ],
  ]
  for (const [name, c, want, minor] of cases) it(name, () => expect(tsc(c, minor)).toEqual(want))

  it('messages', () =>
    expect(
      texts(
        pod({
          topologySpreadConstraints: [
            { maxSkew: 0, topologyKey: 'z', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 },
            { maxSkew: 1, topologyKey: 'z', whenUnsatisfiable: 'ScheduleAnyway' },
          ],
        }),
      ),
    ).toEqual([
      'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{z, ScheduleAnyway}"',
      'spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
    ]))
})

const required = (terms: O[]) => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
})
const term = (labelSelector: O, extra: O = {}): O => ({ labelSelector, topologyKey: 'k8s.io/zone', ...extra })
const exprs = (...e: O[]) => ({ matchExpressions: e })
/** The four places a pod affinity term can sit (hard / soft, affinity / anti-affinity). */
const placements: [string, (t: O) => O][] = [
  [
    'soft pod affinity',
    (t) => ({ podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: t }] } }),
  ],
  ['hard pod affinity', (t) => ({ podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [t] } })],
  [
    'soft pod anti-affinity',
    (t) => ({
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: t }] },
    }),
  ],
  ['hard pod anti-affinity', (t) => ({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [t] } })],
]

describe('TestValidatePod: the affinity cases', () => {
  const cases: [string, O, string][] = [
    [
      "invalid node selector requirement in node affinity, operator can't be null",
      required([{ matchExpressions: [{ key: 'key1' }] }]),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator',
    ],
    [
      'invalid node selector requirement in node affinity, key is invalid',
      required([{ matchExpressions: [{ key: 'invalid key ___@#', operator: 'Exists' }] }]),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key',
    ],
    [
      'invalid node field selector requirement in node affinity, more values for field selector',
      required([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host1', 'host2'] }] }]),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values',
    ],
    [
      'invalid node field selector requirement in node affinity, invalid operator',
      required([{ matchFields: [{ key: 'metadata.name', operator: 'Exists' }] }]),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].operator',
    ],
    [
      'invalid node field selector requirement in node affinity, invalid key',
      required([{ matchFields: [{ key: 'metadata.namespace', operator: 'In', values: ['ns1'] }] }]),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key',
    ],
    [
      'invalid preferredSchedulingTerm in node affinity, weight should be in range 1-100',
      {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 199, preference: exprs({ key: 'foo', operator: 'In', values: ['bar'] }) },
          ],
        },
      },
      'must be in the range 1-100',
    ],
    [
      'invalid requiredDuringSchedulingIgnoredDuringExecution node selector, nodeSelectorTerms must have at least one term',
      required([]),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms',
    ],
    [
      'invalid weight in preferredDuringSchedulingIgnoredDuringExecution in pod affinity annotations, weight should be in range 1-100',
      {
        podAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 109,
              podAffinityTerm: {
                labelSelector: exprs({ key: 'key2', operator: 'NotIn', values: ['value1', 'value2'] }),
                namespaces: ['ns'],
                topologyKey: 'region',
              },
            },
          ],
        },
      },
      'must be in the range 1-100',
    ],
    [
      'invalid labelSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity annotations, values should be empty if the operator is Exists',
      {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              podAffinityTerm: {
                labelSelector: exprs({ key: 'key2', operator: 'Exists', values: ['value1', 'value2'] }),
                namespaces: ['ns'],
                topologyKey: 'region',
              },
            },
          ],
        },
      },
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.matchExpressions[0].values',
    ],
    [
      'invalid namespaceSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity, In operator must include Values',
      {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              podAffinityTerm: {
                namespaceSelector: exprs({ key: 'key2', operator: 'In' }),
                namespaces: ['ns'],
                topologyKey: 'region',
              },
            },
          ],
        },
      },
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector.matchExpressions[0].values',
    ],
    [
      'invalid namespaceSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity, Exists operator can not have values',
      {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              podAffinityTerm: {
                namespaceSelector: exprs({ key: 'key2', operator: 'Exists', values: ['value1', 'value2'] }),
                namespaces: ['ns'],
                topologyKey: 'region',
              },
            },
          ],
        },
      },
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector.matchExpressions[0].values',
    ],
    [
      'invalid name space in preferredDuringSchedulingIgnoredDuringExecution in podaffinity annotations, namespace should be valid',
      {
        podAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              podAffinityTerm: {
                labelSelector: exprs({ key: 'key2', operator: 'Exists' }),
                namespaces: ['INVALID_NAMESPACE'],
                topologyKey: 'region',
              },
            },
          ],
        },
      },
      'spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespace',
    ],
    [
      'invalid required node affinity, value of NodeSelectorRequirement should be a valid label value',
      required([{ matchExpressions: [{ key: 'foo', operator: 'In', values: ['invalid value ___@#'] }] }]),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: "invalid value ___@#"',
    ],
  ]
  for (const [kind, place] of placements) {
    const sel = exprs({ key: 'key2', operator: 'In', values: ['value1', 'value2'] })
    cases.push([
      `invalid ${kind}, empty topologyKey is not allowed for ${kind}`,
      place({ labelSelector: sel, namespaces: ['ns'] }),
      'can not be empty',
    ])
    cases.push([
      `invalid ${kind}, key in MatchLabelKeys isn't correctly defined`,
      place(term(sel, { matchLabelKeys: ['/simple'] })),
      'prefix part must be non-empty',
    ])
    cases.push([
      `invalid ${kind}, key in MismatchLabelKeys isn't correctly defined`,
      place(term(sel, { mismatchLabelKeys: ['/simple'] })),
      'prefix part must be non-empty',
    ])
    // the Go cases carry the expression the strategy would have merged from matchLabelKeys
    cases.push([
      `invalid ${kind}, key exists in both matchLabelKeys and labelSelector`,
      place(
        term(
          exprs(
            { key: 'key', operator: 'In', values: ['value1'] },
            { key: 'key', operator: 'NotIn', values: ['value2'] },
          ),
          { matchLabelKeys: ['key'] },
        ),
      ),
      'exists in both matchLabelKeys and labelSelector',
    ])
    cases.push([
      `invalid ${kind}, key exists in both MatchLabelKeys and MismatchLabelKeys`,
      place(term(sel, { matchLabelKeys: ['samekey'], mismatchLabelKeys: ['samekey'] })),
      'exists in both matchLabelKeys and mismatchLabelKeys',
    ])
  }
  for (const [name, affinity, want] of cases) it(name, () => expect(aggregate(pod({ affinity }))).toContain(want))

  it('valid affinity (TestValidatePod success cases)', () =>
    expect(
      texts(
        pod({
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'key2', operator: 'In', values: ['value1', 'value2'] }] },
                  { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['host1'] }] },
                  { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] },
                ],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 10, preference: exprs({ key: 'foo', operator: 'In', values: ['bar'] }) },
              ],
            },
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                term(exprs({ key: 'key2', operator: 'In', values: ['value1'] }), {
                  namespaces: ['ns'],
                  matchLabelKeys: ['x'],
                  mismatchLabelKeys: ['y'],
                }),
              ],
            },
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 100, podAffinityTerm: term(exprs({ key: 'k', operator: 'Exists' })) },
              ],
            },
          },
        }),
      ),
    ).toEqual([]))

  it('full messages of node selector requirements', () =>
    expect(
      texts(
        pod({
          affinity: required([
            {
              matchExpressions: [
                { key: 'a', operator: 'In' },
                { key: 'b', operator: 'Lt', values: ['1', '2'] },
                { key: 'c', operator: 'Exists', values: ['x'] },
                { key: 'd', operator: 'Foo' },
              ],
            },
          ]),
        }),
      ),
    ).toEqual([
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].operator: Invalid value: "Foo": not a valid selector operator',
    ]))

  it('invalid label values are allowed in preferred node affinity terms (ValidatePreferredSchedulingTerms)', () =>
    expect(
      texts(
        pod({
          affinity: {
            nodeAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 1, preference: exprs({ key: 'foo', operator: 'In', values: ['bad value'] }) },
              ],
            },
          },
        }),
      ),
    ).toEqual([]))

  it('matchLabelKeys without a labelSelector is forbidden (validateLabelKeys)', () =>
    expect(
      fieldTypes(
        pod({
          affinity: {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'z', matchLabelKeys: ['a'] }],
            },
          },
        }),
      ),
    ).toEqual([
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys FieldValueForbidden',
    ]))

  it('in a workload template: the template path', () =>
    expect(
      fieldTypes({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', namespace: 'ns' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: {
            metadata: { labels: { a: 'b' } },
            spec: { containers: [{ name: 'c', image: 'i' }], affinity: required([]) },
          },
        },
      }),
    ).toEqual([
      'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms FieldValueRequired',
    ]))
})
