import { describe, expect, it } from 'vitest'
import { admitPriority, admitPriorityUpdate } from '../../../../src/builtin/admission/priority.js'
import type { JSONObject } from '../../../../src/kube/values/json.js'

// The rows of kubernetes plugin/pkg/admission/priority/admission_test.go TestPodAdmission (v1.37.2): the
// PriorityClasses that exist, the Pod, the priority Admit computes or its refusal. The classes are those of the
// test file (defaultClass1 …, preemptionPolicyClass); the refusals' texts are admitPod's.

const pc = (name: string, value: number, globalDefault = false, preemptionPolicy?: string): JSONObject => ({
  metadata: { name },
  value,
  ...(globalDefault ? { globalDefault } : {}),
  ...(preemptionPolicy !== undefined ? { preemptionPolicy } : {}),
})
const defaultClass1 = pc('default1', 1000, true)
const defaultClass2 = pc('default2', 2000, true)
const nondefaultClass1 = pc('nondefault1', 2000)
const systemClusterCritical = pc('system-cluster-critical', 2000000000, true)
const preemptionPolicyClass = pc('nopreemptionpolicy', 2000, true, 'PreemptLowerPriority')
const classes = (...l: JSONObject[]) => new Map(l.map((c) => [(c.metadata as JSONObject).name as string, c]))

const intPriority = 1000
interface Row {
  name: string
  classes: JSONObject[]
  spec: JSONObject
  priority?: number
  error?: string
  preemptionPolicy?: string
}
const rows: Row[] = [
  {
    name: 'Pod with priority class',
    classes: [defaultClass1, nondefaultClass1],
    spec: { priorityClassName: 'default1' },
    priority: 1000,
  },
  { name: 'Pod without priority class', classes: [defaultClass1], spec: {}, priority: 1000 },
  { name: 'pod without priority class and no existing priority class', classes: [], spec: {}, priority: 0 },
  { name: 'pod without priority class and no default class', classes: [nondefaultClass1], spec: {}, priority: 0 },
  {
    name: 'pod with a system priority class',
    classes: [systemClusterCritical],
    spec: { priorityClassName: 'system-cluster-critical' },
    priority: 2000000000,
  },
  {
    name: 'Pod with non-existing priority class',
    classes: [defaultClass1, nondefaultClass1],
    spec: { priorityClassName: 'non-existing' },
    error: 'no PriorityClass with name non-existing was found',
  },
  {
    name: 'pod with integer priority',
    classes: [],
    spec: { priorityClassName: 'default1', priority: intPriority },
    error: 'no PriorityClass with name default1 was found',
  },
  {
    name: 'pod with priority that matches computed priority',
    classes: [nondefaultClass1],
    spec: { priority: 0 },
    priority: 0,
  },
  {
    name: 'pod with priority that matches default priority',
    classes: [defaultClass2],
    spec: { priority: 2000 },
    priority: 2000,
  },
  {
    name: 'pod with priority that matches resolved priority',
    classes: [systemClusterCritical],
    spec: { priorityClassName: 'system-cluster-critical', priority: 2000000000 },
    priority: 2000000000,
  },
  {
    name: 'pod with nil preemtpion policy',
    classes: [preemptionPolicyClass],
    spec: { priorityClassName: 'nopreemptionpolicy', priority: 2000 },
    priority: 2000,
    preemptionPolicy: 'PreemptLowerPriority',
  },
  {
    name: 'pod with preemtpion policy that matches resolved preemtpion policy',
    classes: [preemptionPolicyClass],
    spec: { priorityClassName: 'nopreemptionpolicy', priority: 2000, preemptionPolicy: 'PreemptLowerPriority' },
    priority: 2000,
    preemptionPolicy: 'PreemptLowerPriority',
  },
  {
    name: "pod with preemtpion policy that does't matches resolved preemtpion policy",
    classes: [preemptionPolicyClass],
    spec: { priorityClassName: 'nopreemptionpolicy', priority: 2000, preemptionPolicy: 'Never' },
    error:
      'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
  },
]

describe('Priority (priority/admission_test.go TestPodAdmission)', () => {
  it.each(rows)('$name', (row) => {
    const pod: JSONObject = { spec: structuredClone(row.spec) }
    const r = admitPriority(pod, classes(...row.classes))
    if (row.error !== undefined) {
      expect(r).toEqual({ error: row.error })
      return
    }
    expect(r).toBeUndefined()
    expect((pod.spec as JSONObject).priority).toBe(row.priority)
    if (row.preemptionPolicy !== undefined) expect((pod.spec as JSONObject).preemptionPolicy).toBe(row.preemptionPolicy)
  })

  it('refuses a priority that differs from the computed one (admitPod)', () => {
    const pod: JSONObject = { spec: { priorityClassName: 'nondefault1', priority: 7 } }
    expect(admitPriority(pod, classes(nondefaultClass1))).toEqual({
      error:
        'the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 2000 from the given PriorityClass name',
    })
  })

  it('knows the system classes without any class given; an unknown one is left to the report', () => {
    const pod: JSONObject = { spec: { priorityClassName: 'system-node-critical' } }
    expect(admitPriority(pod, undefined)).toBeUndefined()
    expect(pod.spec).toEqual({
      priorityClassName: 'system-node-critical',
      priority: 2000001000,
      preemptionPolicy: 'PreemptLowerPriority',
    })
    const other: JSONObject = { spec: { priorityClassName: 'high' } }
    expect(admitPriority(other, undefined)).toEqual({ unknown: 'high' })
    expect(other.spec).toEqual({ priorityClassName: 'high' })
  })

  it('keeps the old priority on update (admitPod, Update)', () => {
    const pod: JSONObject = { spec: {} }
    admitPriorityUpdate(pod, { spec: { priority: 5, preemptionPolicy: 'Never' } })
    expect(pod.spec).toEqual({ priority: 5, preemptionPolicy: 'Never' })
  })
})
