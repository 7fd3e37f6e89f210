import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type Level, parseVersion } from '../../../../src/builtin/admission/podsecurity/api.js'
import { aggregateCheckResults, forbiddenDetail } from '../../../../src/builtin/admission/podsecurity/check.js'
import { DefaultChecks, NewEvaluator } from '../../../../src/builtin/admission/podsecurity/registry.js'

// The pass and fail pods of k8s.io/pod-security-admission v0.37.2 test/testdata/<level>/v1.<n>/{pass,fail}/*.yaml
// (rendered from test/fixtures_*.go; the pods the upstream integration test creates) at v1.0 and v1.37, each as
// JSON with the upstream evaluator's answer for its level and version (policy.AggregateCheckResults of
// NewEvaluator(DefaultChecks()).EvaluatePod: Allowed and ForbiddenDetail()). Three `pass` restrictedvolumes0 pods
// are refused here: their volume0 has no source, which the apiserver's defaulting makes an emptyDir first.

interface Fixture {
  source: string
  level: Level
  version: string
  pod: { metadata?: object; spec?: object }
  allowed: boolean
  detail: string
}

const fixtures: Fixture[] = JSON.parse(readFileSync(new URL('./fixtures.json', import.meta.url), 'utf8'))
const evaluator = NewEvaluator(DefaultChecks())

describe('pod-security-admission test/testdata', () => {
  it('holds the fixtures of both levels, both versions, pass and fail', () => {
    expect(fixtures.length).toBe(255)
    expect(new Set(fixtures.map((f) => `${f.level}:${f.version}:${f.source.split('/').at(-2)}`)).size).toBe(8)
  })
  for (const f of fixtures)
    it(`${f.source} at ${f.level}:${f.version}`, () => {
      const r = aggregateCheckResults(
        evaluator.EvaluatePod(
          { level: f.level, version: parseVersion(f.version).version },
          (f.pod.metadata ?? {}) as never,
          (f.pod.spec ?? {}) as never,
        ),
      )
      expect({ allowed: r.allowed, detail: forbiddenDetail(r) }).toEqual({ allowed: f.allowed, detail: f.detail })
    })
})
