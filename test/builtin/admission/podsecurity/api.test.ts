import { describe, expect, it } from 'vitest'
import {
  LatestVersion,
  type LevelVersion,
  majorMinorVersion,
  type Policy,
  parseVersion,
  policyToEvaluate,
} from '../../../../src/builtin/admission/podsecurity/api.js'
import { errorString } from '../../../../src/kube/field.js'

// k8s.io/pod-security-admission v0.37.2 api/helpers_test.go: TestParseVersion, TestPolicyToEvaluate.

describe('api/helpers_test.go TestParseVersion', () => {
  const successes: [string, string][] = [
    ['latest', 'latest'],
    ['v1.0', 'v1.0'],
    ['v1.1', 'v1.1'],
    ['v1.20', 'v1.20'],
    ['v1.10000', 'v1.10000'],
  ]
  for (const [v, text] of successes)
    it(v, () => {
      const r = parseVersion(v)
      expect(r.err).toBeUndefined()
      expect(r.version.text).toBe(text)
    })
  for (const v of ['foo', '', 'v2.0', 'v1', '1.1', 'v1.01', 'v1.99999999999999999999'])
    it(`refuses ${JSON.stringify(v)}`, () => {
      // the last two: the regexp's no leading zero, strconv.Atoi past int64
      expect(parseVersion(v)).toEqual({ version: LatestVersion, err: 'must be "latest" or "v1.x"' })
    })
})

describe('api/helpers_test.go TestPolicyToEvaluate', () => {
  const lv = (level: LevelVersion['level'], version = LatestVersion): LevelVersion => ({ level, version })
  const privilegedLV = lv('privileged')
  const privilegedPolicy: Policy = { enforce: privilegedLV, warn: privilegedLV, audit: privilegedLV }
  const makeLabels = (...kvs: string[]) => {
    const labels: Record<string, string> = { 'other-label': 'foo-bar' }
    for (let i = 0; i < kvs.length; i += 2) labels[`pod-security.kubernetes.io/${kvs[i]}`] = kvs[i + 1] as string
    return labels
  }
  const v = majorMinorVersion
  const tests: { desc: string; labels: Record<string, string>; expect: Policy; expectErr?: boolean }[] = [
    {
      desc: 'simple enforce',
      labels: makeLabels('enforce', 'baseline'),
      expect: { enforce: lv('baseline'), warn: lv('baseline'), audit: privilegedLV },
    },
    {
      desc: 'simple warn',
      labels: makeLabels('warn', 'restricted'),
      expect: { enforce: privilegedLV, warn: lv('restricted'), audit: privilegedLV },
    },
    {
      desc: 'simple audit',
      labels: makeLabels('audit', 'baseline'),
      expect: { enforce: privilegedLV, warn: privilegedLV, audit: lv('baseline') },
    },
    {
      desc: 'enforce & warn',
      labels: makeLabels('enforce', 'baseline', 'warn', 'restricted'),
      expect: { enforce: lv('baseline'), warn: lv('restricted'), audit: privilegedLV },
    },
    {
      desc: 'enforce version',
      labels: makeLabels('enforce', 'baseline', 'enforce-version', 'v1.22'),
      expect: { enforce: lv('baseline', v(22)), warn: lv('baseline', v(22)), audit: privilegedLV },
    },
    {
      desc: 'enforce version & warn-version',
      labels: makeLabels('enforce', 'baseline', 'enforce-version', 'v1.22', 'warn-version', 'latest'),
      expect: { enforce: lv('baseline', v(22)), warn: lv('baseline'), audit: privilegedLV },
    },
    {
      desc: 'enforce & warn-version',
      labels: makeLabels('enforce', 'baseline', 'warn-version', 'v1.23'),
      expect: { enforce: lv('baseline'), warn: lv('baseline', v(23)), audit: privilegedLV },
    },
    {
      desc: 'fully specd',
      labels: makeLabels(
        'enforce',
        'baseline',
        'enforce-version',
        'v1.20',
        'warn',
        'restricted',
        'warn-version',
        'v1.21',
        'audit',
        'restricted',
        'audit-version',
        'v1.22',
      ),
      expect: { enforce: lv('baseline', v(20)), warn: lv('restricted', v(21)), audit: lv('restricted', v(22)) },
    },
    {
      desc: 'enforce no warn',
      labels: makeLabels('enforce', 'baseline', 'warn', 'privileged'),
      expect: { enforce: lv('baseline'), warn: privilegedLV, audit: privilegedLV },
    },
    {
      desc: 'enforce warn error',
      labels: makeLabels('enforce', 'baseline', 'warn', 'foo'),
      expect: { enforce: lv('baseline'), warn: privilegedLV, audit: privilegedLV },
      expectErr: true,
    },
    {
      desc: 'enforce error',
      labels: makeLabels('enforce', 'foo'),
      expect: { enforce: lv('restricted'), warn: privilegedLV, audit: privilegedLV },
      expectErr: true,
    },
  ]
  for (const t of tests)
    it(t.desc, () => {
      const { policy, errs } = policyToEvaluate(t.labels, privilegedPolicy)
      expect(errs.length > 0).toBe(t.expectErr === true)
      expect(policy).toEqual(t.expect)
    })

  it('an invalid label is field.Invalid at metadata.labels[<key>] (api/helpers.go appendErr)', () => {
    const { errs } = policyToEvaluate(makeLabels('enforce', 'foo', 'audit-version', 'v2'), privilegedPolicy)
    expect(errs.map(errorString)).toEqual([
      'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "foo": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "v2": must be "latest" or "v1.x"',
    ])
  })

  it('a label named __proto__ is data, not the prototype', () => {
    const labels = JSON.parse('{"__proto__": {"pod-security.kubernetes.io/enforce": "restricted"}}')
    expect(policyToEvaluate(labels, privilegedPolicy).policy).toEqual(privilegedPolicy)
  })
})
