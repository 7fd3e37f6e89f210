import { describe, expect, it } from 'vitest'
import { type LevelVersion, parseVersion } from '../../../../src/builtin/admission/podsecurity/api.js'
import type { Check } from '../../../../src/builtin/admission/podsecurity/check.js'
import { DefaultChecks, NewEvaluator } from '../../../../src/builtin/admission/podsecurity/registry.js'

// k8s.io/pod-security-admission v0.37.2 policy/registry_test.go: each generated check answers `<id>:<version>` as
// its reason; the evaluator's list for a level and version is the table's.

function generateCheck(id: string, level: Check['level'], versions: string[], overrides?: string[]): Check {
  return {
    id,
    level,
    versions: versions.map((v) => ({
      minimumVersion: parseVersion(v).version.minor,
      checkPod: () => ({ allowed: false, forbiddenReason: `${id}:${v}` }),
      ...(overrides !== undefined ? { overrideCheckIDs: overrides } : {}),
    })),
  }
}

type Case = [LevelVersion['level'], string, string[]]

function run(checks: Check[], cases: Case[]) {
  const reg = NewEvaluator(checks)
  for (const [level, version, expected] of cases)
    it(`${level}:${version}`, () => {
      const results = reg.EvaluatePod({ level, version: parseVersion(version).version }, {}, {})
      expect(results.map((r) => r.forbiddenReason)).toEqual(expected)
    })
}

describe('policy/registry_test.go TestCheckRegistry', () => {
  const multiOverride = generateCheck('i', 'restricted', ['v1.10', 'v1.21'])
  const checks = [
    generateCheck('a', 'baseline', ['v1.0']),
    generateCheck('b', 'baseline', ['v1.10']),
    generateCheck('c', 'baseline', ['v1.0', 'v1.5', 'v1.10']),
    generateCheck('d', 'baseline', ['v1.11', 'v1.15', 'v1.20']),
    generateCheck('e', 'restricted', ['v1.0']),
    generateCheck('f', 'restricted', ['v1.12', 'v1.16', 'v1.21']),
    generateCheck('g', 'restricted', ['v1.10'], ['a']),
    generateCheck('h', 'restricted', ['v1.0'], ['b']),
    {
      ...multiOverride,
      versions: [
        { ...(multiOverride.versions[0] as Check['versions'][number]), overrideCheckIDs: ['c'] },
        { ...(multiOverride.versions[1] as Check['versions'][number]), overrideCheckIDs: ['d'] },
      ],
    },
  ]
  run(checks, [
    ['privileged', 'v1.0', []],
    ['privileged', 'latest', []],
    ['baseline', 'v1.0', ['a:v1.0', 'c:v1.0']],
    ['baseline', 'v1.4', ['a:v1.0', 'c:v1.0']],
    ['baseline', 'v1.5', ['a:v1.0', 'c:v1.5']],
    ['baseline', 'v1.10', ['a:v1.0', 'b:v1.10', 'c:v1.10']],
    ['baseline', 'v1.11', ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.11']],
    ['baseline', 'latest', ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.20']],
    ['restricted', 'v1.0', ['a:v1.0', 'c:v1.0', 'e:v1.0', 'h:v1.0']],
    ['restricted', 'v1.4', ['a:v1.0', 'c:v1.0', 'e:v1.0', 'h:v1.0']],
    ['restricted', 'v1.5', ['a:v1.0', 'c:v1.5', 'e:v1.0', 'h:v1.0']],
    ['restricted', 'v1.10', ['e:v1.0', 'g:v1.10', 'h:v1.0', 'i:v1.10']],
    ['restricted', 'v1.11', ['d:v1.11', 'e:v1.0', 'g:v1.10', 'h:v1.0', 'i:v1.10']],
    ['restricted', 'latest', ['c:v1.10', 'e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0', 'i:v1.21']],
    ['restricted', 'v1.10000', ['c:v1.10', 'e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0', 'i:v1.21']],
  ])
})

describe('policy/registry_test.go TestCheckRegistry_NoBaseline', () => {
  run(
    [
      generateCheck('e', 'restricted', ['v1.0']),
      generateCheck('f', 'restricted', ['v1.12', 'v1.16', 'v1.21']),
      generateCheck('g', 'restricted', ['v1.10'], ['a']),
      generateCheck('h', 'restricted', ['v1.0'], ['b']),
    ],
    [
      ['privileged', 'v1.0', []],
      ['privileged', 'latest', []],
      ['baseline', 'v1.0', []],
      ['baseline', 'v1.10', []],
      ['baseline', 'latest', []],
      ['restricted', 'v1.0', ['e:v1.0', 'h:v1.0']],
      ['restricted', 'v1.10', ['e:v1.0', 'g:v1.10', 'h:v1.0']],
      ['restricted', 'latest', ['e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0']],
      ['restricted', 'v1.10000', ['e:v1.0', 'f:v1.21', 'g:v1.10', 'h:v1.0']],
    ],
  )
})

describe('policy/registry_test.go TestCheckRegistry_NoRestricted', () => {
  const cases: Case[] = [
    ['baseline', 'v1.0', ['a:v1.0', 'c:v1.0']],
    ['baseline', 'v1.4', ['a:v1.0', 'c:v1.0']],
    ['baseline', 'v1.5', ['a:v1.0', 'c:v1.5']],
    ['baseline', 'v1.10', ['a:v1.0', 'b:v1.10', 'c:v1.10']],
    ['baseline', 'v1.11', ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.11']],
    ['baseline', 'latest', ['a:v1.0', 'b:v1.10', 'c:v1.10', 'd:v1.20']],
  ]
  // restricted results identical to baseline
  run(
    [
      generateCheck('a', 'baseline', ['v1.0']),
      generateCheck('b', 'baseline', ['v1.10']),
      generateCheck('c', 'baseline', ['v1.0', 'v1.5', 'v1.10']),
      generateCheck('d', 'baseline', ['v1.11', 'v1.15', 'v1.20']),
    ],
    [...cases, ...cases.map(([, v, e]): Case => ['restricted', v, e])],
  )
})

describe('policy/registry_test.go TestCheckRegistry_Empty', () => {
  run(
    [],
    [
      ['privileged', 'latest', []],
      ['baseline', 'latest', []],
      ['restricted', 'latest', []],
    ],
  )
})

describe('policy/check_hostProbesAndhostLifecycle_test.go TestHostProbesAndHostLifecycleEmulation', () => {
  // a pod whose startup probe names a host: the 1.34 check, absent when the emulated release is 1.33
  const spec = { containers: [{ startupProbe: { httpGet: { host: 'localhost' } } }] }
  const cases: [string, number | undefined, boolean][] = [
    ['no emulation', undefined, true],
    ['emulate 1.34', 34, true],
    ['emulate 1.33', 33, false],
  ]
  for (const [name, emulate, hostCheckActive] of cases)
    it(name, () => {
      const e = NewEvaluator(DefaultChecks(), emulate)
      const allowed = (version: string) =>
        e.EvaluatePod({ level: 'baseline', version: parseVersion(version).version }, {}, spec).every((r) => r.allowed)
      expect(allowed('latest')).toBe(!hostCheckActive)
      expect(allowed('v1.34')).toBe(!hostCheckActive)
      expect(allowed('v1.33')).toBe(true)
    })
})
