import { describe, expect, it } from 'vitest'
import { admitDefaultTolerationSeconds } from '../../../../src/builtin/admission/toleration-seconds.js'
import type { JSONObject } from '../../../../src/kube/values/json.js'

// The rows of kubernetes plugin/pkg/admission/defaulttolerationseconds/admission_test.go TestForgivenessAdmission
// (v1.37.2): the tolerations a Pod has, and the ones it has after Admit (order matters).

const notReady = (s: number): JSONObject => ({
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: s,
})
const unreachable = (s: number): JSONObject => ({
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: s,
})
const foo = { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule', tolerationSeconds: 700 }
const unreachableNoEffect = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 700 }

const rows: [string, JSONObject[] | undefined, JSONObject[]][] = [
  ['pod has no tolerations', undefined, [notReady(300), unreachable(300)]],
  ['none is for not-ready or unreachable', [foo], [foo, notReady(300), unreachable(300)]],
  ['a toleration for not-ready:NoExecute', [notReady(700)], [notReady(700), unreachable(300)]],
  ['a toleration for unreachable:NoExecute', [unreachable(700)], [unreachable(700), notReady(300)]],
  ['both', [notReady(700), unreachable(700)], [notReady(700), unreachable(700)]],
  ['unreachable without effect', [unreachableNoEffect], [unreachableNoEffect, notReady(300)]],
  [
    'wildcard toleration',
    [{ operator: 'Exists', tolerationSeconds: 700 }],
    [{ operator: 'Exists', tolerationSeconds: 700 }],
  ],
]

describe('DefaultTolerationSeconds (defaulttolerationseconds/admission_test.go)', () => {
  it.each(rows)('%s', (_name, given, expected) => {
    const pod: JSONObject = { spec: given === undefined ? {} : { tolerations: structuredClone(given) } }
    admitDefaultTolerationSeconds(pod)
    expect((pod.spec as JSONObject).tolerations).toEqual(expected)
  })
})
