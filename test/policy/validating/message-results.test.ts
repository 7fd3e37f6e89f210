import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Program } from '../../../src/cel/program.js'
import type { ValidatingAdmissionPolicy } from '../../../src/kube/admissionregistration/types.js'
import { PolicyValidator } from '../../../src/policy/validating/validator.js'
import { newValidAttribute } from '../helpers.js'

// A denying validation's messageExpression that reads only `variables`, each the value its last
// evaluation read, takes that evaluation's result instead of running again (message-batch.ts). The
// apiserver evaluates every message afresh (k8s.io/apiserver pkg/admission/plugin/policy/validating/
// validator.go Validate); the decisions must be the same: each request below is compared with a
// validator that never saw a request before, and the texts are the messageExpressions' own.

afterEach(() => vi.restoreAllMocks())

function validator(spec: NonNullable<ValidatingAdmissionPolicy['spec']>): PolicyValidator {
  return new PolicyValidator({ metadata: { name: 'p' }, spec })
}

const request = (v: PolicyValidator, object: Record<string, unknown>) =>
  v.validate({
    matchedResource: { group: '', version: '', resource: '' },
    attributes: newValidAttribute(object, false),
    params: null,
    authorize: () => ({ decision: 'NoOpinion' }),
  })

/** The compiled messageExpression programs of a validator (after its first validate). */
function messagePrograms(v: PolicyValidator): Program[] {
  const c = (v as unknown as { c: { messageExpressions: ({ program?: Program } | undefined)[] } }).c
  return c.messageExpressions.flatMap((m) => (m?.program === undefined ? [] : [m.program]))
}

const spec = {
  variables: [
    { name: 'names', expression: 'object.spec.containers.map(c, c.name)' },
    { name: 'image', expression: "object.spec.containers[0].?image.orValue('none')" },
  ],
  validations: [
    { expression: 'size(variables.names) == 0', messageExpression: "'containers: ' + variables.names.join(', ')" },
    { expression: 'true', messageExpression: "'image ' + variables.image" },
  ],
}

const pod = (names: string[], image = 'nginx') => ({ spec: { containers: names.map((name) => ({ name, image })) } })

describe('a denying validation whose message reads the same variables as last time', () => {
  it('takes the traced text without evaluating; another value is evaluated', () => {
    const v = validator(spec)
    const first = request(v, pod(['a', 'b']))
    expect(first.decisions[0]?.message).toBe('containers: a, b')
    const spies = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRunInto'))
    // another object (another image, read by no denying message), the same names: not evaluated
    const same = request(v, pod(['a', 'b'], 'redis'))
    expect(same).toEqual(request(validator(spec), pod(['a', 'b'], 'redis')))
    expect(same.decisions[0]?.message).toBe('containers: a, b')
    expect(spies[0]).not.toHaveBeenCalled()
    // one name differs: evaluated, its own text
    const other = request(v, pod(['a', 'c']))
    expect(other.decisions[0]?.message).toBe('containers: a, c')
    expect(spies[0]).toHaveBeenCalledTimes(1)
    expect(other).toEqual(request(validator(spec), pod(['a', 'c'])))
  })

  it('compares maps by own keys, `__proto__` and `constructor` included', () => {
    const s = {
      variables: [{ name: 'labels', expression: 'object.metadata.labels' }],
      validations: [
        {
          expression: 'false',
          messageExpression: "'labels ' + variables.labels.map(k, k + '=' + variables.labels[k]).join(',')",
        },
      ],
    }
    const v = validator(s)
    const withLabels = (json: string) => ({ metadata: JSON.parse(json) })
    const objects = [
      '{"labels": {"__proto__": "x", "constructor": "y"}}',
      '{"labels": {"__proto__": "z", "constructor": "y"}}',
      '{"labels": {"__proto__": "z", "constructor": "w"}}',
      '{"labels": {"__proto__": "z"}}',
      '{"labels": {"__proto__": "z"}}',
    ]
    const texts = objects.map((json) => {
      const got = request(v, withLabels(json))
      expect(got).toEqual(request(validator(s), withLabels(json)))
      return got.decisions[0]?.message
    })
    expect(texts).toEqual([
      'labels __proto__=x,constructor=y',
      'labels __proto__=z,constructor=y',
      'labels __proto__=z,constructor=w',
      'labels __proto__=z',
      'labels __proto__=z',
    ])
  })

  it('a value nested deeper than the comparison follows is evaluated again, not compared', () => {
    const s = {
      variables: [{ name: 'deep', expression: 'object.spec.deep' }],
      validations: [{ expression: 'false', messageExpression: "'deep: ' + string(size(variables.deep))" }],
    }
    // two objects alike (not the same one) 5,000 levels deep
    const deep = () => {
      let d: unknown = { leaf: 1 }
      for (let i = 0; i < 5000; i++) d = { d }
      return d
    }
    const v = validator(s)
    expect(request(v, { spec: { deep: deep() } }).decisions[0]?.message).toBe('deep: 1')
    const [spy] = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRunInto'))
    expect(request(v, { spec: { deep: deep() } }).decisions[0]?.message).toBe('deep: 1')
    expect(spy).toHaveBeenCalledTimes(1)
    // a shallow one: evaluated; then another alike: compared, not evaluated
    expect(request(v, { spec: { deep: { d: 1 } } }).decisions[0]?.message).toBe('deep: 1')
    expect(request(v, { spec: { deep: { d: 1 } } }).decisions[0]?.message).toBe('deep: 1')
    expect(spy).toHaveBeenCalledTimes(2)
  })

  it('a message whose variable failed is evaluated again, with the same error', () => {
    const s = {
      variables: [{ name: 'first', expression: 'object.spec.xs[0]' }],
      validations: [{ expression: 'false', message: 'fallback', messageExpression: "'first ' + variables.first" }],
    }
    const v = validator(s)
    for (const xs of [[], [], ['a'], ['a'], []]) {
      const got = request(v, { spec: { xs } })
      expect(got).toEqual(request(validator(s), { spec: { xs } }))
      expect(got.decisions[0]?.message).toBe(xs.length === 0 ? 'fallback' : 'first a')
    }
  })

  it('variables costly beyond the budget left but read by no message: the traced text, no evaluation', () => {
    // nine variables of 600,002 each (filter over 300,000) charged in the validations' batch and kept:
    // 5.4M, more than the 4.6M left, so the bound (every kept variable) does not fit; the messages read
    // only `n`, whose cost does
    const bigs = Array.from({ length: 9 }, (_, k) => ({
      name: `big${k}`,
      expression: 'object.spec.xs.filter(x, x < 0)',
    }))
    const s = {
      variables: [...bigs, { name: 'n', expression: 'object.metadata.name' }],
      validations: [
        { expression: bigs.map((b) => `size(variables.${b.name}) == 0`).join(' && '), messageExpression: "'big'" },
        { expression: "variables.n == ''", messageExpression: "'name ' + variables.n" },
      ],
    }
    const xs = Array.from({ length: 300_000 }, (_, i) => i)
    const object = { metadata: { name: 'x' }, spec: { xs } }
    const v = validator(s)
    expect(request(v, object).decisions[1]?.message).toBe('name x')
    const spies = messagePrograms(v).map((p) => vi.spyOn(p, 'tryRunInto'))
    const again = request(v, object)
    expect(again.decisions[1]?.message).toBe('name x')
    for (const spy of spies) expect(spy).not.toHaveBeenCalled()
    expect(again).toEqual(request(validator(s), object))
  })
})
