import { describe, expect, it } from 'vitest'
import {
  admitRuntimeClass,
  mergeTolerations,
  runtimeClassNotFound,
  validateRuntimeClass,
} from '../../../../src/builtin/admission/runtimeclass.js'
import type { JSONObject } from '../../../../src/kube/values/json.js'

// kubernetes plugin/pkg/admission/runtimeclass/admission_test.go (v1.37.2): TestSetOverhead, TestSetScheduling,
// TestValidateOverhead, TestAdmit (the not-found refusal), with the plugin's texts (admission.go).

const overhead = { cpu: '100m', memory: '1' }
const rc = (o: JSONObject = {}): JSONObject => ({ metadata: { name: 'foo' }, handler: 'bar', ...o })
const overheadPod = (resources: JSONObject, setOverhead: boolean): JSONObject => ({
  metadata: { name: 'p', namespace: 'test' },
  spec: {
    containers: [{ image: 'foo:V0', resources, name: 'foo-0' }],
    ...(setOverhead ? { overhead: { ...overhead } } : {}),
  },
})
const guaranteed = { limits: { cpu: '1', memory: '10' }, requests: { cpu: '1', memory: '10' } }
const schedulingPod = (nodeSelector?: JSONObject, tolerations?: JSONObject[]): JSONObject => ({
  metadata: { name: 'p', namespace: 'test' },
  spec: {
    ...(nodeSelector !== undefined ? { nodeSelector } : {}),
    ...(tolerations !== undefined ? { tolerations } : {}),
  },
})
const MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"

describe('RuntimeClass TestSetOverhead', () => {
  it('overhead, no container requirements', () => {
    const pod = overheadPod({}, false)
    expect(admitRuntimeClass(pod, rc({ overhead: { podFixed: overhead } }))).toBeUndefined()
    expect(pod).toEqual(overheadPod({}, true))
  })
  it('overhead, guaranteed pod', () => {
    const pod = overheadPod(guaranteed, false)
    expect(admitRuntimeClass(pod, rc({ overhead: { podFixed: overhead } }))).toBeUndefined()
    expect((pod.spec as JSONObject).overhead).toEqual(overhead)
  })
  it('overhead, pod with differing overhead already set', () => {
    const pod = overheadPod({}, true)
    expect(admitRuntimeClass(pod, rc({ overhead: { podFixed: { cpu: '10', memory: '10G' } } }))).toBe(MISMATCH)
  })
  it('overhead, pod with same overhead already set', () => {
    expect(admitRuntimeClass(overheadPod({}, true), rc({ overhead: { podFixed: overhead } }))).toBeUndefined()
  })
})

describe('RuntimeClass TestSetScheduling', () => {
  const foo = { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }
  const fizz = { key: 'fizz', operator: 'Equal', value: 'buzz', effect: 'NoSchedule' }
  it.each<[string, JSONObject, JSONObject, JSONObject | string]>([
    ['nil scheduling', rc(), schedulingPod({ foo: 'bar' }, []), schedulingPod({ foo: 'bar' }, [])],
    [
      'conflict node selector',
      rc({ scheduling: { nodeSelector: { foo: 'conflict' } } }),
      schedulingPod({ foo: 'bar' }, []),
      'conflict: runtimeClass.scheduling.nodeSelector[foo] = conflict; pod.spec.nodeSelector[foo] = bar',
    ],
    [
      'nil node selector',
      rc({ scheduling: { nodeSelector: { foo: 'bar' } } }),
      schedulingPod(),
      schedulingPod({ foo: 'bar' }),
    ],
    [
      'node selector with the same key value',
      rc({ scheduling: { nodeSelector: { foo: 'bar' } } }),
      schedulingPod({ foo: 'bar' }),
      schedulingPod({ foo: 'bar' }),
    ],
    [
      'node selector with different key value',
      rc({ scheduling: { nodeSelector: { foo: 'bar', fizz: 'buzz' } } }),
      schedulingPod({ foo: 'bar' }),
      schedulingPod({ foo: 'bar', fizz: 'buzz' }),
    ],
    [
      'multiple tolerations',
      rc({ scheduling: { tolerations: [foo, fizz] } }),
      schedulingPod({ foo: 'bar' }, [foo]),
      schedulingPod({ foo: 'bar' }, [foo, fizz]),
    ],
  ])('scheduling, %s', (_name, runtimeClass, pod, expected) => {
    const refused = admitRuntimeClass(pod, runtimeClass)
    if (typeof expected === 'string') expect(refused).toBe(expected)
    else {
      expect(refused).toBeUndefined()
      expect(pod).toEqual(expected)
    }
  })
})

describe('RuntimeClass TestValidateOverhead', () => {
  it.each<[string, JSONObject | undefined, JSONObject, string | undefined]>([
    [
      'Overhead part of RuntimeClass, no Overhead defined in pod',
      rc({ overhead: { podFixed: overhead } }),
      overheadPod({}, false),
      MISMATCH,
    ],
    [
      'No Overhead in RunntimeClass, Overhead set in pod',
      rc(),
      overheadPod(guaranteed, true),
      'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    ],
    [
      'No RunntimeClass, Overhead set in pod',
      undefined,
      overheadPod(guaranteed, true),
      'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    ],
    [
      'Non-matching Overheads',
      rc({ overhead: { podFixed: { cpu: '10', memory: '10G' } } }),
      overheadPod({}, true),
      MISMATCH,
    ],
    ['Matching Overheads', rc({ overhead: { podFixed: overhead } }), overheadPod({}, true), undefined],
  ])('%s', (_name, runtimeClass, pod, expected) => {
    expect(validateRuntimeClass(pod, runtimeClass)).toBe(expected)
  })

  it('compares quantities by value (apiequality.Semantic)', () => {
    const pod = overheadPod({}, false)
    ;(pod.spec as JSONObject).overhead = { cpu: '0.1', memory: '1' }
    expect(validateRuntimeClass(pod, rc({ overhead: { podFixed: overhead } }))).toBeUndefined()
  })
})

describe('RuntimeClass TestAdmit', () => {
  it('runtimeClass not found by lister nor client', () => {
    expect(runtimeClassNotFound('foo')).toBe('pod rejected: RuntimeClass "foo" not found')
  })
})

describe('MergeTolerations (pkg/util/tolerations/tolerations_test.go TestMergeTolerations)', () => {
  const tolerations: Record<string, JSONObject> = {
    all: { operator: 'Exists' },
    'foo-nosched': { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
    'foo-bar-nosched': { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
    'foo-baz-nosched': { key: 'foo', operator: 'Equal', value: 'baz', effect: 'NoSchedule' },
    'faz-baz-nosched': { key: 'faz', operator: 'Equal', value: 'baz', effect: 'NoSchedule' },
    'foo-prefnosched': { key: 'foo', operator: 'Exists', effect: 'PreferNoSchedule' },
    'foo-noexec-10': { key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 },
  }
  const get = (names: string[]) => names.map((n) => structuredClone(tolerations[n] as JSONObject))
  it.each([
    [
      'disjoint',
      ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10'],
      ['foo-prefnosched', 'foo-baz-nosched'],
      ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10', 'foo-prefnosched', 'foo-baz-nosched'],
    ],
    [
      'duplicate',
      ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10'],
      ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10'],
      ['foo-bar-nosched', 'faz-baz-nosched', 'foo-noexec-10'],
    ],
    [
      'merge redundant',
      ['foo-bar-nosched', 'foo-baz-nosched'],
      ['foo-nosched', 'faz-baz-nosched'],
      ['foo-nosched', 'faz-baz-nosched'],
    ],
    ['merge all', ['foo-bar-nosched', 'foo-baz-nosched', 'foo-noexec-10'], ['all'], ['all']],
    ['merge into all', ['all'], ['foo-bar-nosched', 'foo-baz-nosched', 'foo-noexec-10'], ['all']],
  ])('%s', (_name, a, b, expected) => {
    expect(mergeTolerations(get(a), get(b))).toEqual(get(expected))
  })
})
