import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { PolicySet } from '../../src/engine/policy-set.js'
import { createAdmissionHandler } from '../../src/webhook/handler.js'
import { parseJSONExact } from '../../src/webhook/json.js'
import { review } from './helpers.js'

// Review decoding with exact integers: what JSON.parse gives, except integer literals beyond
// ±(2^53−1) within int64, which are bigints (kube-apiserver decodes them as int64: apimachinery
// util/json; kelp's CEL values take bigint for them, docs/values.md).

describe('webhook JSON decoding (exact integers)', () => {
  it('is JSON.parse for texts without long integers, and for every other value', () => {
    const texts = [
      '{"a":1,"b":[true,false,null,"x\\"y\\u00e9",-0.5e3,{}],"c":{"d":[]}}',
      '[1234567890123456, "12345678901234567890", 1.2345678901234567e3, 0]',
      ' { "k" : [ 1 , [ [ ] ] , { "z" : "\\\\" } ] } ',
      '"just a string 12345678901234567"',
      '{"a":1,"a":2}',
    ]
    for (const t of texts) expect(parseJSONExact(t)).toEqual(JSON.parse(t))
  })

  it('integers past 2^53 are exact bigints within int64; past int64, doubles (as the apiserver)', () => {
    const v = parseJSONExact(
      '{"x":9007199254740993,"y":-9007199254740993,"s":9007199254740991,"max":9223372036854775807,"over":9223372036854775808,"f":9007199254740993.0}',
    ) as Record<string, unknown>
    expect(v.x).toBe(9007199254740993n)
    expect(v.y).toBe(-9007199254740993n)
    expect(v.s).toBe(9007199254740991)
    expect(v.max).toBe(9223372036854775807n)
    expect(v.over).toBe(2 ** 63)
    expect(v.f).toBe(9007199254740992)
  })

  it('keeps __proto__ as an own key, survives deep nesting, and refuses what JSON.parse refuses', () => {
    const p = parseJSONExact('{"__proto__":{"polluted":1},"n":12345678901234567}') as Record<string, unknown>
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype)
    expect(Object.keys(p)).toEqual(['__proto__', 'n'])
    const deep = `${'['.repeat(100_000)}12345678901234567${']'.repeat(100_000)}`
    let d = parseJSONExact(deep) as unknown
    for (let i = 0; i < 100_000; i++) d = (d as unknown[])[0]
    expect(d).toBe(12345678901234567n)
    expect(() => parseJSONExact('{"a": 12345678901234567')).toThrow(SyntaxError)
  })

  it('a review with a Job activeDeadlineSeconds of 9007199254740993: exact in CEL (odd), allowed', () => {
    // (a Pod's activeDeadlineSeconds is refused past 2^31-1 by the apiserver before admission; a
    // Job's is an int64 with no upper bound)
    const set = PolicySet.build(
      parseAllDocuments(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: odd-deadline}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [batch], apiVersions: [v1], operations: [CREATE], resources: [jobs]}
  validations:
  - expression: object.spec.activeDeadlineSeconds % 2 == 1
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: odd-deadline}
spec: {policyName: odd-deadline, validationActions: [Deny]}
`).map((d) => d.toJS()),
      { builtins: false }, // as kelp serve: the review's object as the apiserver sends it
    )
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'shop' },
      spec: {
        activeDeadlineSeconds: 1,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'a:1' }] } },
      },
    }
    const text = JSON.stringify(review(job, { group: 'batch', version: 'v1', resource: 'jobs' })).replace(
      '"activeDeadlineSeconds":1',
      '"activeDeadlineSeconds":9007199254740993',
    )
    const answer = createAdmissionHandler(() => set).handle(Buffer.from(text))
    expect((answer.body as { response: unknown }).response).toMatchObject({ allowed: true })
  })
})
