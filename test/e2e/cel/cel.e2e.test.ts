// The CEL differential: generated expressions (generate.ts) through kelp (kelp-side.ts, in a child process with a
// heap cap) and through Kubernetes 1.37's own CEL environment (oracle/main.go: k8s.io/apiserver v0.37.2, cel-go
// v0.29.2, built by build.sh from the Go module proxy), compared on the compile verdict, the value, the error text,
// the run-time cost and the estimated cost. For each differing case the subexpressions are run on both sides too:
// the smallest one that differs on the same aspect is the difference's root, and its class is (aspect, the function
// or operator at that root, detail). The test fails on a class known-differences.ts does not list, and when an
// aspect's agreement is below the threshold. The report is printed and written to .cache/e2e/cel-differential.json.
//   KELP_CEL_COUNT=10000 KELP_CEL_SEED=1    expressions and their seed (the suite's default: 10,000, a few minutes
//                                           in CI; issue 28's acceptance run is KELP_CEL_COUNT=100000)
//   KELP_CEL_REDUCE=N                       only N differing cases' subexpressions run (default: all)
//   KELP_CEL_MIN_AGREEMENT=99.9             one threshold for every aspect (%), instead of FLOORS
//   KELP_CEL_SHOW=30                        classes printed
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../yaml-corpus.js'
import { ASPECTS, type Aspect, type AspectDifference, compare, type Found, goOutcome } from './compare.js'
import { generateCase, subexpressions } from './generate.js'
import type { Outcome } from './kelp-side.js'
import { KNOWN_CEL_DIFFERENCES, knownCelDifference } from './known-differences.js'
import { type Request, runKelpChild, runOracle } from './sides.js'

const here = dirname(fileURLToPath(import.meta.url))
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const SEED = env('KELP_CEL_SEED', 1)
const COUNT = env('KELP_CEL_COUNT', 10_000)
const REDUCE = env('KELP_CEL_REDUCE', Number.POSITIVE_INFINITY)
const MIN_AGREEMENT = process.env.KELP_CEL_MIN_AGREEMENT === undefined ? undefined : env('KELP_CEL_MIN_AGREEMENT', 99.9)
/**
 * The agreement each aspect must keep (%): issue 28's target, 99.9, for all five (estimate above it). Every aspect
 * agrees on 100 % of seed 1 × 100,000 and of seeds 1, 2 and 3 × 10,000 (branch cel-cost, 2026-12-06: the oracle
 * evaluates a comprehension on a new decoding of the object each time, as the apiserver does per request, and kelp
 * agrees with any outcome those evaluations give; MAP_ORDER_RUNS). The listed classes (known-differences.ts) still
 * count against the agreement. A floor only rises: a run below it is a regression.
 */
const FLOORS: Readonly<Record<Exclude<Aspect, 'crash'>, number>> = {
  compile: 99.9,
  value: 99.9,
  error: 99.9,
  cost: 99.9,
  estimate: 99.95,
}
const SHOW = env('KELP_CEL_SHOW', 30)
/**
 * The oracle's evaluations of a differing case with a comprehension, round by round (Go's random map order;
 * oracle/main.go): a case still differing after a round's runs gets the next round's.
 */
const MAP_ORDER_RUNS = [2048, 32_768] as const
const log = (line: string) => console.log(`[cel-diff] ${line}`)

interface ClassTally {
  readonly signature: string
  readonly known: string | undefined
  count: number
  readonly example: Found
}

/**
 * Go's map order: a request with a comprehension whose outcome differs from kelp's after the oracle's 8
 * evaluations is evaluated again, MAP_ORDER_RUNS[0] times, then MAP_ORDER_RUNS[1] times if it still differs. The
 * oracle decodes the bindings afresh for each evaluation, as the apiserver decodes each request's object, so each
 * evaluation ranges over a new Go map: a JSON object of up to 8 entries in a rotation of its text's order (kelp's
 * order is one), a larger one in an order its new hash seed lays out. Where the outcome depends on which entries
 * come before the first failing one (a transformMap body failing on some values of a 13–15 entry spec), one
 * evaluation gives kelp's outcome with a probability of 0.24 % to 100 % (the 88 such cases of seed 1 × 100,000,
 * 2,048 evaluations each): 2,048 runs miss the rarest with a probability of ~0.7 %, 32,768 with ~1e-34. A case
 * whose outcome Go never gives costs the oracle ~3 s (~80 µs an evaluation).
 */
async function evaluateAgain(
  oracle: string,
  requests: readonly Request[],
  kelp: ReadonlyMap<number, Outcome>,
  go: Map<number, Outcome>,
): Promise<void> {
  let again = requests.filter((r) => (go.get(r.key)!.runs ?? 1) > 1)
  for (const runs of MAP_ORDER_RUNS) {
    again = again.filter((r) => compare(kelp.get(r.key)!, go.get(r.key)!).differences.length > 0)
    if (again.length === 0) return
    const more = await runOracle(
      oracle,
      SEED,
      again.map((r) => ({ ...r, runs })),
    )
    for (const [key, o] of more) go.set(key, o)
    log(`${again.length} differing requests with a comprehension evaluated ${runs} times by the oracle`)
  }
}

/** An outcome in one line for the report. */
function brief(o: Outcome): string {
  if (o.panic !== undefined) return `panic: ${o.panic}`
  if (o.compile !== '') return `refused: ${o.compile.split('\n')[0]}`
  const what = o.error !== undefined ? `error: ${o.error}` : `value: ${JSON.stringify(o.value)}`
  return `${what.slice(0, 200)} (cost ${o.cost}, estimate [${o.estimate?.join(', ')}])`
}

describe('CEL differential: kelp against k8s.io/apiserver v0.37.2 (cel-go v0.29.2)', () => {
  let oracle = ''
  const bundle = join(ROOT, '.cache/e2e-bundle/cel-kelp-child.mjs')

  beforeAll(async () => {
    // the oracle: built when main.go, go.mod or go.sum changed (build.sh's stamp), else reused
    const out = execFileSync('bash', [join(here, 'build.sh')], { stdio: ['ignore', 'pipe', 'inherit'] })
    oracle = out.toString('utf8').trim().split('\n').at(-1)!
    // kelp's child: bundled as test/e2e/run-ts.js bundles (packages external)
    mkdirSync(dirname(bundle), { recursive: true })
    await build({
      input: join(here, 'kelp-child.ts'),
      platform: 'node',
      external: [/^[^./]/],
      resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
      output: { file: bundle, format: 'esm' },
      logLevel: 'warn',
    })
  }, 900_000)

  it(`${COUNT} generated expressions agree on compile verdict, value, error, cost and estimate`, async () => {
    const t0 = Date.now()
    const kelpOptions = { bundle, heapMb: 768, timeoutMs: 20_000, log }
    const requests: Request[] = Array.from({ length: COUNT }, (_, i) => ({ key: i, caseId: i }))
    const [kelp, go] = await Promise.all([runKelpChild(kelpOptions, SEED, requests), runOracle(oracle, SEED, requests)])
    log(`${COUNT} expressions (seed ${SEED}) through both sides in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    await evaluateAgain(oracle, requests, kelp, go)

    const compared = new Map<Aspect, number>(ASPECTS.map((a) => [a, 0]))
    const agreed = new Map<Aspect, number>(ASPECTS.map((a) => [a, 0]))
    const differing: { caseId: number; differences: AspectDifference[] }[] = []
    let compileTexts = 0
    let compileTextsSame = 0
    for (let i = 0; i < COUNT; i++) {
      const k = kelp.get(i)!
      const g = go.get(i)!
      const c = compare(k, g)
      for (const a of c.aspects) {
        compared.set(a, compared.get(a)! + 1)
        if (!c.differences.some((d) => d.aspect === a)) agreed.set(a, agreed.get(a)! + 1)
      }
      if (k.compile !== '' && g.compile !== '') {
        compileTexts++
        if (k.compile === g.compile) compileTextsSame++
      }
      if (c.differences.length > 0) differing.push({ caseId: i, differences: c.differences })
    }

    // the root of each difference: the smallest subexpression differing on the same aspect
    const reduced = differing.filter((d) => !d.differences.some((x) => x.aspect === 'crash')).slice(0, REDUCE)
    const subRequests: Request[] = []
    const subsOf = new Map<number, { key: number; text: string; fn: string }[]>()
    for (const d of reduced) {
      const subs = subexpressions(generateCase(SEED, d.caseId).expr).map((n) => {
        const key = COUNT + subRequests.length
        subRequests.push({ key, caseId: d.caseId, text: n.text })
        return { key, text: n.text, fn: n.fn }
      })
      subsOf.set(d.caseId, subs)
    }
    const t1 = Date.now()
    const [kelpSub, goSub] = await Promise.all([
      runKelpChild(kelpOptions, SEED, subRequests),
      runOracle(oracle, SEED, subRequests),
    ])
    await evaluateAgain(oracle, subRequests, kelpSub, goSub)
    log(
      `${subRequests.length} subexpressions of ${reduced.length} differing cases in ${((Date.now() - t1) / 1000).toFixed(1)} s`,
    )

    const found: Found[] = []
    for (const d of differing) {
      const c = generateCase(SEED, d.caseId)
      const subs = (subsOf.get(d.caseId) ?? []).map((s) => ({
        ...s,
        c: compare(kelpSub.get(s.key)!, goSub.get(s.key)!),
      }))
      for (const x of d.differences) {
        // the value and the error are one outcome: a wrong value inside can be a different error outside
        const family = (a: Aspect) => (a === 'error' ? 'value' : a)
        const root = subs.find((s) => s.c.differences.some((y) => family(y.aspect) === family(x.aspect)))
        found.push({
          caseId: d.caseId,
          aspect: x.aspect,
          detail: x.detail,
          fn: root?.fn ?? c.expr.fn,
          text: root?.text ?? c.expr.text,
          kelp: root ? kelpSub.get(root.key)! : kelp.get(d.caseId)!,
          go: root
            ? goOutcome(kelpSub.get(root.key)!, goSub.get(root.key)!)
            : goOutcome(kelp.get(d.caseId)!, go.get(d.caseId)!),
        })
      }
    }

    const classes = new Map<string, ClassTally>()
    for (const f of found) {
      const signature = `${f.aspect} · ${f.fn} · ${f.detail}`
      const known = knownCelDifference(f)?.id
      const t = classes.get(signature)
      if (t) t.count++
      else classes.set(signature, { signature, known, count: 1, example: f })
    }
    const sorted = [...classes.values()].sort((a, b) => b.count - a.count)
    const pct = (a: Aspect) => (100 * agreed.get(a)!) / Math.max(1, compared.get(a)!)
    log(`agreement per aspect (agreeing / compared):`)
    for (const a of ASPECTS)
      log(`  ${a.padEnd(8)} ${pct(a).toFixed(3).padStart(7)} %  (${agreed.get(a)} / ${compared.get(a)})`)
    log(`  compile error text where both refuse: ${compileTextsSame} / ${compileTexts} identical`)
    const crashes = found.filter((f) => f.aspect === 'crash').length
    log(`  crashes or hangs: ${crashes}`)
    log(`${classes.size} classes of difference; the ${Math.min(SHOW, sorted.length)} largest:`)
    for (const t of sorted.slice(0, SHOW)) {
      log(`  ${String(t.count).padStart(6)}  ${t.signature}  [${t.known ?? 'NOT LISTED'}]`)
      log(`          e.g. case ${t.example.caseId}: ${t.example.text.slice(0, 160)}`)
      log(`          kelp: ${brief(t.example.kelp)}`)
      log(`          go:   ${brief(t.example.go)}`)
    }
    const unlisted = sorted.filter((t) => t.known === undefined)
    const used = new Set(sorted.map((t) => t.known))
    const unused = KNOWN_CEL_DIFFERENCES.filter((k) => !used.has(k.id)).map((k) => k.id)
    if (unused.length > 0) log(`known entries not met in this run: ${unused.join(', ')}`)
    const reportFile = join(ROOT, '.cache/e2e/cel-differential.json')
    mkdirSync(dirname(reportFile), { recursive: true })
    writeFileSync(
      reportFile,
      JSON.stringify(
        {
          seed: SEED,
          count: COUNT,
          agreement: Object.fromEntries(ASPECTS.map((a) => [a, { agreed: agreed.get(a), compared: compared.get(a) }])),
          compileText: { identical: compileTextsSame, bothRefuse: compileTexts },
          classes: sorted,
          // every difference with its root, so that known-differences.ts can be checked against a run offline
          found,
        },
        null,
        1,
      ),
    )
    log(`report: ${reportFile}`)

    expect(
      unlisted.map((t) => `${t.signature} (${t.count}; e.g. ${t.example.text.slice(0, 120)})`),
      'classes of difference known-differences.ts does not list',
    ).toEqual([])
    for (const a of ASPECTS)
      expect(pct(a), `agreement on ${a} (%)`).toBeGreaterThanOrEqual(
        MIN_AGREEMENT ?? FLOORS[a as Exclude<Aspect, 'crash'>],
      )
  }, 3_600_000)
})
