import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkParallel } from '../../src/check/parallel.js'
import { check } from '../../src/check/run.js'

// kelp check with the default admission plugins' inputs among the files (a LimitRange, a ServiceAccount given
// without a namespace: -n's): the same answers on one thread and on several (the workers build their set from
// the inputs the first pass kept), and the plugins without input named once per run. The texts are
// kube-apiserver v1.37.2's (kubectl apply --dry-run=server -n default-plugins with the LimitRange and ServiceAccount created).

const inputs = `apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec:
  limits:
  - type: Container
    max: {cpu: "1"}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: builder}
`
const pods = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `---
apiVersion: v1
kind: Pod
metadata: {name: p${i}}
spec:
  serviceAccountName: ${i % 3 === 0 ? 'ghost' : 'builder'}
  containers: [{name: c, image: nginx, resources: {limits: {cpu: "${(i % 2) + 1}"}}}]
`,
  ).join('')

describe('kelp check with the plugins` inputs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kelp-plugins-'))
  writeFileSync(join(dir, 'a-inputs.yaml'), inputs)
  writeFileSync(join(dir, 'b-pods.yaml'), pods(60))
  const options = { paths: [dir], kubeVersion: '1.37' as const, pack: 'off' as const, namespace: 'default-plugins' }
  const outcomes = (r: ReturnType<typeof check>) =>
    r.objects.map((o) => `${o.name} ${o.outcome} ${o.findings.map((f) => f.message).join(' | ')}`)

  it('answers as the cluster with them, on one thread and on several', async () => {
    const one = check(options)
    const lines = outcomes(one)
    expect(lines[2]).toBe(
      'p0 denied pods "p0" is forbidden: error looking up service account default-plugins/ghost: serviceaccount "ghost" not found',
    )
    expect(lines[3]).toBe('p1 denied pods "p1" is forbidden: maximum cpu usage per Container is 1, but limit is 2')
    expect(lines[4]).toBe('p2 allowed ')
    expect(outcomes(await checkParallel(options, 3))).toEqual(lines)
    // the built command on 3 threads (from the sources there are no workers): 60 Pods, each thread reads a
    // share of them, the inputs are in the first share only
    const cli = join(import.meta.dirname, '../../dist/cli/kelp.cjs')
    const run = (jobs: string) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [cli, 'check', '--pack', 'off', '-n', 'default-plugins', '-j', jobs, '--fail-on', 'none', '-o', 'json', dir],
          { encoding: 'utf8', maxBuffer: 1 << 28 },
        ),
      ) as ReturnType<typeof check>
    expect(outcomes(run('3'))).toEqual(lines)
    // no LimitRange missing, no ServiceAccount of the namespace missing: nothing to say
    expect(one.diagnostics.filter((d) => d.rule.startsWith('admission/not-run/'))).toEqual([])
  })

  it('names a plugin without input once per run', () => {
    const r = check({ ...options, paths: [join(dir, 'b-pods.yaml')] })
    const notes = r.diagnostics.filter((d) => d.rule.startsWith('admission/not-run/')).map((d) => d.rule)
    expect(notes).toEqual(['admission/not-run/LimitRanger', 'admission/not-run/ServiceAccount'])
    expect(r.objects.every((o) => o.findings.every((f) => !f.rule.startsWith('admission/not-run/')))).toBe(true)
  })
})
