import { describe, expect, test } from 'vitest'
import { fieldTypes, type O, texts, tweak } from '../support.js'

// events.k8s.io/v1 Event: kubernetes v1.37.2 pkg/apis/core/validation/events_test.go
// (TestValidateEventForCoreV1Events is core's; TestValidateEventForNewV1beta1Events and
// TestValidateNewEvent's events.k8s.io rows apply to v1 alike), paths in core's internal names.

const ev = (extra: O = {}): O => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'test', namespace: 'default' },
  eventTime: '2026-01-01T00:00:00.000000Z',
  reportingController: 'k8s.io/my-controller',
  reportingInstance: 'node-xyz',
  action: 'Do',
  reason: 'Because',
  type: 'Normal',
  regarding: { namespace: 'default', kind: 'Pod', name: 'p' },
  ...extra,
})

describe('events_test.go TestValidateNewEvent (events.k8s.io)', () => {
  test('valid', () => expect(fieldTypes(ev())).toEqual([]))
  const cases: [string, O, string[]][] = [
    ['no eventTime', tweak(ev(), (e) => delete e.eventTime), ['eventTime FieldValueRequired']],
    [
      'no reportingController etc.',
      ev({ reportingController: '', reportingInstance: '', action: '', reason: '' }),
      [
        'reportingController FieldValueRequired',
        // ValidateQualifiedName(""): `name part must be non-empty`, then the regex
        'reportingController FieldValueInvalid',
        'reportingController FieldValueInvalid',
        'reportingInstance FieldValueRequired',
        'action FieldValueRequired',
        'reason FieldValueRequired',
      ],
    ],
    ['bad type', ev({ type: 'Other' }), ['type FieldValueInvalid']],
    [
      'regarding without a namespace, the event outside default and kube-system',
      tweak(ev({ regarding: { kind: 'Node', name: 'n' } }), (e) => (e.metadata.namespace = 'team')),
      ['involvedObject.namespace FieldValueInvalid'],
    ],
    [
      'regarding in another namespace (not checked once eventTime is set)',
      ev({ regarding: { namespace: 'other', kind: 'Pod', name: 'p' } }),
      [],
    ],
    [
      'deprecated fields set',
      ev({
        deprecatedSource: { component: 'kubelet' },
        deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
        deprecatedLastTimestamp: '2026-01-01T00:00:00Z',
        deprecatedCount: 2,
      }),
      [
        'firstTimestamp FieldValueInvalid',
        'lastTimestamp FieldValueInvalid',
        'count FieldValueInvalid',
        'source FieldValueInvalid',
      ],
    ],
    [
      'series too short',
      ev({ series: { count: 1, lastObservedTime: '2026-01-01T00:00:00.000000Z' } }),
      ['series.count FieldValueInvalid'],
    ],
    ['series without lastObservedTime', ev({ series: { count: 2 } }), ['series.lastObservedTime FieldValueRequired']],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('long note (texts as the apiserver prints them)', () => {
    expect(texts(ev({ note: 'x'.repeat(1025), action: 'a'.repeat(129) }))).toEqual([
      'action: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ])
  })
  test('update: immutable fields by their internal names', () => {
    const old = tweak(ev(), (e) => (e.metadata.resourceVersion = '1'))
    const n = tweak(old, (e) => {
      e.note = 'changed'
      e.reason = 'Other'
    })
    expect(fieldTypes(n, old)).toEqual([
      'reason FieldValueInvalid',
      'message FieldValueInvalid',
      'reason FieldValueInvalid',
    ])
  })
})
