// kelp check against the real apiserver on the same files (corpus.ts, runner.ts): agreement figures and every
// difference are printed (and written to .cache/e2e/differential/report.txt); the test fails on a difference
// that known-differences.ts does not list.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useCluster } from '../context.js'
import { buildCorpus, OUT } from './corpus.js'
import { type Outcome, runGroup } from './runner.js'
import { summarize } from './summary.js'

const cluster = useCluster()

describe('differential: kelp check vs kube-apiserver', () => {
  it('agrees on every case outside the known differences', { timeout: 1_800_000 }, async () => {
    const t0 = Date.now()
    // KELP_DIFF_GROUPS=crds,pack: only those groups (while working on one)
    const only = process.env.KELP_DIFF_GROUPS?.split(',')
    const groups = buildCorpus().filter((g) => !only || only.includes(g.id))
    const log = (s: string) => console.log(`[differential] ${s}`)
    for (const g of groups) {
      log(`${g.id}: ${g.cases.length} cases`)
      for (const n of g.notes) log(`  ${n}`)
    }
    const outcomes: Outcome[] = []
    for (const g of groups) outcomes.push(...(await runGroup(cluster, g, log)))
    const { text, unexplained } = summarize(outcomes)
    writeFileSync(join(OUT, 'report.txt'), `${text}\n`)
    // every outcome, to summarize again offline (summary.ts on a changed known-differences.ts)
    writeFileSync(join(OUT, 'outcomes.json'), JSON.stringify(outcomes))
    // the apiserver's verdict per case, for bench/peers.js (outside OUT: buildCorpus empties it)
    writeFileSync(
      join(OUT, '..', 'differential-outcomes.json'),
      JSON.stringify(
        outcomes.map((o) => ({
          id: o.case.id,
          file: o.case.file,
          builtIn: o.case.builtIn,
          kubectlAccepted: o.kubectl?.accepted,
          kelpAccepted: o.kelp?.accepted,
        })),
      ),
    )
    const head = text.split('\nevery known difference:')[0]!
    console.log(
      `${head}\n(full report with every known difference: ${join(OUT, 'report.txt')}; ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    )
    if (!only) {
      expect(outcomes.length).toBeGreaterThanOrEqual(500)
      // issues 18 and 19: at least 1,000 built-in cases, 300 of them objects of real public manifests
      expect(outcomes.filter((o) => o.case.builtIn).length).toBeGreaterThanOrEqual(1000)
      expect(outcomes.filter((o) => o.case.builtIn && o.case.real).length).toBeGreaterThanOrEqual(300)
    }
    expect(unexplained.map((d) => `${d.case.id} [${d.aspect}]`)).toEqual([])
  })
})
