import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { check, type PackMode } from '../../src/check/index.js'
import { format } from '../../src/report/index.js'
import { reportValidator } from '../report/schemas.js'

// The bundled pack left out is never silent (issue 26): one admission policy among the inputs turned
// `--pack auto` off, and a privileged Pod went from denied to allowed without a word.

const dir = mkdtempSync(join(tmpdir(), 'kelp-pack-'))
const pod = join(dir, 'pod.yaml')
writeFileSync(
  pod,
  'apiVersion: v1\nkind: Pod\nmetadata: {name: priv}\nspec:\n  containers:\n  - {name: c, image: "nginx:1.27", securityContext: {privileged: true}}\n',
)
const policy = join(dir, 'team.yaml')
writeFileSync(
  policy,
  `# a team's own policy, about ConfigMaps only
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: team-policy}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  validations:
  - {expression: "true"}
`,
)
const run = (pack?: PackMode) => check({ paths: [pod, policy], kubeVersion: '1.37', ...(pack ? { pack } : {}) })
const notes = (r: ReturnType<typeof check>) => r.diagnostics.filter((d) => d.rule === 'pack/not-applied')

describe('kelp check says when the bundled pack is not applied', () => {
  it('auto with a policy among the inputs: a note naming it, `pack` in the report', () => {
    const r = run()
    expect(r.pack).toEqual({ mode: 'auto', applied: false, reason: 'own-policies' })
    expect(notes(r).map((d) => [d.level, d.message])).toEqual([
      [
        'info',
        `the bundled policy pack (policies/) is not applied: the inputs hold admission policies of their own (ValidatingAdmissionPolicy "team-policy", ${policy}:2); --pack add applies it beside them`,
      ],
    ])
    expect(r.objects.find((o) => o.kind === 'Pod')?.outcome).toBe('allowed')
    expect(format(r, 'text', { color: false })).toMatch(
      /^note: the bundled policy pack \(policies\/\) is not applied: /,
    )
    const json = JSON.parse(format(r, 'json'))
    expect(Object.keys(json).slice(0, 4)).toEqual(['schemaVersion', 'kelpVersion', 'kubeVersion', 'pack'])
    expect(reportValidator()(json)).toEqual([])
  })

  it('add keeps it beside the policy: the privileged Pod is denied, nothing to note', () => {
    const r = run('add')
    expect(r.pack).toEqual({ mode: 'add', applied: true })
    expect(notes(r)).toEqual([])
    expect(r.objects.find((o) => o.kind === 'Pod')?.outcome).toBe('denied')
  })

  it('off (and replace, its other name) is recorded, not noted: it was asked for', () => {
    for (const mode of ['off', 'replace'] as const) {
      const r = run(mode)
      expect(r.pack).toEqual({ mode: 'off', applied: false, reason: 'off' })
      expect(notes(r)).toEqual([])
      expect(reportValidator()(JSON.parse(format(r, 'json')))).toEqual([])
    }
  })

  it('auto without policies of the inputs applies it', () => {
    const r = check({ paths: [pod], kubeVersion: '1.37' })
    expect(r.pack).toEqual({ mode: 'auto', applied: true })
    expect(r.objects[0]?.outcome).toBe('denied')
  })
})
