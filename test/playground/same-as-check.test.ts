import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { check } from '../../src/check/index.js'
import { checkManifests } from '../../src/check-api.js'
import { evaluatePlayground, examples } from '../../src/playground/evaluate/index.js'
import type { PlaygroundState } from '../../src/playground/evaluate/types.js'
import { kubectlLine } from '../../src/report/common.js'
import type { ObjectResult } from '../../src/report/model.js'

// The page answers as `kelp check` does (issue 31): each case through evaluatePlayground and through
// checkManifests (the material as --policies, the object as standard input, the old object as --old, no pack):
// the verdict, kubectl's lines, the warnings and the stored object (check's -o yaml: keep `stored`).

const dir = mkdtempSync(join(tmpdir(), 'kelp-playground-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ACCEPTED = new Set(['allowed', 'warned', 'audited', 'unchanged'])

const base = examples[0]!.state
const cases: { name: string; state: PlaygroundState }[] = [
  ...examples.map((e) => ({ name: e.name, state: e.state })),
  {
    name: 'a Deployment its kind refuses (two causes)',
    state: {
      ...base,
      material: '',
      object: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: -1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: web, image: nginx:1.27}]}
`,
    },
  },
  {
    name: 'a kind no CRD defines',
    state: { ...base, material: '', object: 'apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n' },
  },
  {
    name: 'a version the release no longer serves',
    state: { ...base, material: '', object: 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\n' },
  },
  {
    name: 'a deprecated version',
    state: {
      ...base,
      material: '',
      object: `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
`,
      release: '1.30',
    },
  },
  {
    name: 'an update of the Warn example that changes the image',
    state: {
      ...examples.find((e) => e.name.startsWith('Warn'))!.state,
      oldObject: examples.find((e) => e.name.startsWith('Warn'))!.state.object.replace('2.1.0', '2.0.0'),
      operation: 'UPDATE',
    },
  },
]

function viaCheck(s: PlaygroundState, n: number): { result: ObjectResult; lines: string[]; stored: unknown } {
  const material = join(dir, `material-${n}.yaml`)
  writeFileSync(material, s.material)
  const old = join(dir, `old-${n}.yaml`)
  writeFileSync(old, s.oldObject)
  const options = {
    kubeVersion: '1.37' as const,
    target: s.release,
    policies: [material],
    pack: 'off' as const,
    ...(s.operation === 'UPDATE' ? { old: [old] } : {}),
  }
  const report = checkManifests({ ...options, text: s.object })
  const result = report.objects[0]!
  const lines = result.findings
    .filter((f) => f.level === 'warn' || f.level === 'deny' || f.level === 'error')
    .map((f) => kubectlLine(f, result))
  // check -o yaml: the same run keeping the stored objects
  const stored = check({ ...options, paths: ['-'], stdin: () => s.object }, 'stored').objects[0]?.stored ?? null
  return { result, lines, stored }
}

describe('the playground answers as kelp check does', () => {
  for (const [n, c] of cases.entries())
    it(c.name, async () => {
      const page = await evaluatePlayground(c.state)
      const cli = viaCheck(c.state, n)
      expect(page.allowed).toBe(ACCEPTED.has(cli.result.outcome))
      // kubectl prints the warnings and the first refusal; check reports every refusal
      const refusal = page.kubectl.find((l) => !l.startsWith('Warning: ') && !l.endsWith('(server dry run)'))
      expect(page.kubectl.filter((l) => l.startsWith('Warning: '))).toEqual(
        cli.lines.filter((l) => l.startsWith('Warning: ')),
      )
      const refusals = cli.lines.filter((l) => !l.startsWith('Warning: '))
      const unserved = cli.result.findings.find((f) => f.rule === 'kind/unknown' || f.type === 'not-served')
      // a kind not served: kubectl's own mapping error in the page, kelp check's reason beside it as a note
      if (unserved !== undefined) {
        expect(refusal).toMatch(/^error: resource mapping not found for name: /)
        expect(page.notes).toContain(unserved.message)
      } else if (refusal === undefined) expect(refusals).toEqual([])
      else if (refusal.includes('\n* '))
        expect(refusal).toContain(refusals.map((l) => l.slice(l.indexOf(': ') + 2)).join('\n* '))
      else expect(refusal).toBe(refusals[0])
      expect(page.warnings).toEqual(cli.result.findings.filter((f) => f.level === 'warn').map((f) => f.message))
      expect(page.stored).toEqual(cli.stored)
    })
})
