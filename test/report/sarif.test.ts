import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/report/model.js'
import { formatSARIF } from '../../src/report/sarif.js'
import { EMPTY, report, SMALL } from './fixtures.js'
import { sarifValidator } from './schemas.js'

const ONE = report([
  {
    source: { file: 'k8s/app.yaml', line: 4, column: 1, document: 1 },
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'default',
    name: 'web',
    operation: 'CREATE',
    findings: [
      {
        level: 'deny',
        type: 'policy',
        message: "ValidatingAdmissionPolicy 'require-team' with binding 'b' denied request: label team is required",
        policy: 'require-team',
        binding: 'b',
        rule: 'vap/require-team',
      },
    ],
  },
])

const moved = (r: Report, by: number): Report => ({
  ...r,
  objects: r.objects.map((o) => ({
    ...o,
    source: { ...o.source, line: (o.source.line ?? 1) + by },
    findings: o.findings.map((f) =>
      f.source ? { ...f, source: { ...f.source, line: (f.source.line ?? 1) + by } } : f,
    ),
  })),
})

type Log = {
  $schema: string
  version: string
  runs: {
    tool: { driver: { name: string; version: string; informationUri?: string; rules: any[] } }
    invocations: any[]
    results: any[]
  }[]
}

const parse = (s: string) => JSON.parse(s) as Log

describe('sarif', () => {
  it('prints one run with the rules and one result per finding', () => {
    const expected = {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'kelp',
              informationUri: 'https://example.org/kelp',
              version: '0.1.0',
              semanticVersion: '0.1.0',
              rules: [
                {
                  id: 'vap/require-team',
                  name: 'VapRequireTeam',
                  shortDescription: { text: 'ValidatingAdmissionPolicy require-team' },
                  fullDescription: {
                    text: "Requests the ValidatingAdmissionPolicy 'require-team' denies, warns about or audits (as its bindings' validationActions say).",
                  },
                  helpUri: 'https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/',
                  help: {
                    text: "The ValidatingAdmissionPolicy 'require-team' evaluated the object as kube-apiserver 1.33 would, and one of its validations failed. Change the object so that the validation holds, or change the policy or its binding.",
                  },
                  defaultConfiguration: { level: 'error' },
                  properties: { tags: ['kubernetes', 'policy'], precision: 'very-high' },
                },
              ],
            },
          },
          invocations: [{ executionSuccessful: true, properties: { kubeVersion: '1.33' } }],
          columnKind: 'utf16CodeUnits',
          results: [
            {
              ruleId: 'vap/require-team',
              ruleIndex: 0,
              level: 'error',
              message: {
                text: "Error from server (Forbidden): error when creating \"k8s/app.yaml\": ValidatingAdmissionPolicy 'require-team' with binding 'b' denied request: label team is required",
              },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: 'k8s/app.yaml', uriBaseId: '%SRCROOT%' },
                    region: { startLine: 4, startColumn: 1 },
                  },
                  logicalLocations: [{ name: 'web', fullyQualifiedName: 'Deployment default/web', kind: 'resource' }],
                },
              ],
              partialFingerprints: {
                'kelpFinding/v1': 'd342e73312255cbc0539b831766cd0020dd75d5f5ea67c87ee815761087a6dc3',
              },
              properties: {
                findingType: 'policy',
                kelpLevel: 'deny',
                apiVersion: 'apps/v1',
                kind: 'Deployment',
                namespace: 'default',
                name: 'web',
                operation: 'CREATE',
                policy: 'require-team',
                binding: 'b',
              },
            },
          ],
          properties: { summary: ONE.summary },
        },
      ],
    }
    const out = formatSARIF(ONE, { informationUri: 'https://example.org/kelp' })
    const fp = parse(out).runs[0]!.results[0].partialFingerprints['kelpFinding/v1']
    expect(fp).toBe('d342e73312255cbc0539b831766cd0020dd75d5f5ea67c87ee815761087a6dc3')
    expect(out).toBe(JSON.stringify(expected, null, 2))
  })

  it('validates against the SARIF 2.1.0 schema', () => {
    const validate = sarifValidator()
    for (const r of [SMALL, EMPTY, ONE, moved(SMALL, 3)]) {
      expect(
        validate(JSON.parse(formatSARIF(r, { root: '/repo', informationUri: 'https://example.org/kelp' }))),
      ).toEqual([])
      expect(validate(JSON.parse(formatSARIF(r)))).toEqual([])
    }
    // and the validator does reject a broken log
    const broken = parse(formatSARIF(ONE))
    ;(broken as any).runs[0].results[0].level = 'fatal'
    expect(validate(broken).length).toBeGreaterThan(0)
  })

  it('meets GitHub code scanning requirements', () => {
    const log = parse(formatSARIF(SMALL, { informationUri: 'https://example.org/kelp' }))
    expect(log.version).toBe('2.1.0')
    expect(log.runs).toHaveLength(1)
    const run = log.runs[0]!
    expect(run.tool.driver.name).toBe('kelp')
    expect(run.tool.driver.informationUri).toBe('https://example.org/kelp')
    const ids = run.tool.driver.rules.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const rule of run.tool.driver.rules) {
      expect(rule.shortDescription.text).not.toBe('')
      expect(rule.fullDescription.text).not.toBe('')
      expect(rule.help.text).not.toBe('')
      expect(['error', 'warning', 'note']).toContain(rule.defaultConfiguration.level)
    }
    // every located finding is a result (the stdin diagnostic is a tool notification)
    expect(run.results).toHaveLength(SMALL.objects.flatMap((o) => o.findings).length + 2)
    const fingerprints = new Set<string>()
    for (const r of run.results) {
      expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId)
      expect(['error', 'warning', 'note']).toContain(r.level)
      expect(r.message.text).not.toBe('')
      expect(r.locations.length).toBeGreaterThanOrEqual(1)
      const loc = r.locations[0].physicalLocation
      expect(loc.artifactLocation.uriBaseId).toBe('%SRCROOT%')
      expect(loc.artifactLocation.uri).not.toMatch(/^(\/|\.\.|[a-z]+:)/)
      expect(Number.isInteger(loc.region.startLine) && loc.region.startLine >= 1).toBe(true)
      const fp = r.partialFingerprints['kelpFinding/v1']
      expect(fp).toMatch(/^[0-9a-f]{64}(:\d+)?$/)
      fingerprints.add(fp)
    }
    expect(fingerprints.size).toBe(run.results.length)
    expect(run.results.map((r) => r.level)).toEqual([
      'error',
      'warning',
      'error',
      'warning',
      'error',
      'warning',
      'note',
      'error',
    ])
    expect(run.invocations[0].executionSuccessful).toBe(false)
    expect(run.invocations[0].toolExecutionNotifications).toEqual([
      {
        level: 'error',
        message: { text: 'Implicit map keys need to be followed by map values' },
        descriptor: { id: 'input/yaml' },
      },
    ])
  })

  it('keeps fingerprints when objects move, and tells repeated findings apart', () => {
    const fps = (r: Report) =>
      parse(formatSARIF(r)).runs[0]!.results.map((x) => x.partialFingerprints['kelpFinding/v1'])
    expect(fps(moved(SMALL, 10))).toEqual(fps(SMALL))
    const twice = report([{ ...ONE.objects[0]!, findings: [...ONE.objects[0]!.findings, ...ONE.objects[0]!.findings] }])
    const [a, b] = fps(twice)
    expect(b).toBe(`${a}:2`)
  })

  it('makes paths relative to the root, percent-encoded', () => {
    const at = (file: string, root?: string) => {
      const r = report([{ ...ONE.objects[0]!, source: { file, line: 2 } }])
      return parse(formatSARIF(r, root !== undefined ? { root } : {})).runs[0]!.results[0].locations[0].physicalLocation
    }
    expect(at('/repo/k8s/my app#1.yaml', '/repo')).toEqual({
      artifactLocation: { uri: 'k8s/my%20app%231.yaml', uriBaseId: '%SRCROOT%' },
      region: { startLine: 2 },
    })
    expect(at('./k8s/a.yaml').artifactLocation).toEqual({ uri: 'k8s/a.yaml', uriBaseId: '%SRCROOT%' })
    expect(at('k8s\\a.yaml').artifactLocation).toEqual({ uri: 'k8s/a.yaml', uriBaseId: '%SRCROOT%' })
    expect(at('c:d.yaml').artifactLocation).toEqual({ uri: 'c%3Ad.yaml', uriBaseId: '%SRCROOT%' })
    expect(at('/elsewhere/a b.yaml', '/repo').artifactLocation).toEqual({ uri: 'file:///elsewhere/a%20b.yaml' })
    expect(at('C:\\work\\a.yaml').artifactLocation).toEqual({ uri: 'file:///C:/work/a.yaml' })
  })

  it('starts at line 1 when the source has no line', () => {
    const r = report([{ ...ONE.objects[0]!, source: { file: 'a.yaml' } }])
    const loc = parse(formatSARIF(r)).runs[0]!.results[0].locations[0].physicalLocation
    expect(loc.region).toEqual({ startLine: 1 })
  })
})
