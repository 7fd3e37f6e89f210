// npm run bench: the reference expressions measured in one run for kelp, a hand-written JS
// closure, @marcbachmann/cel-js and @bufbuild/cel (method of ../shared/spec/cel-libraries-evaluation.md §7:
// mitata medians, 8 rotated binding objects, results verified before timing). Prints a Markdown
// table to paste into docs/benchmarks.md.
//
// KELP_BENCH_ONLY=compile: only the compile column (see compileOnly: short blocks, the fastest kept, for a
// shared machine), and with KELP_BENCH_BASE=/other/kelp (a checkout with dist/ built) the same expressions
// compiled by that build too, block by block in one process (A/B).
import os from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as buf from '@bufbuild/cel'
import { strings as bufStrings } from '@bufbuild/cel/ext'
import * as marc from '@marcbachmann/cel-js'
import { do_not_optimize, measure } from 'mitata'
import { compile, DynType, StringType, standardEnv } from '../dist/index.js'
import { bindings, cases } from './cases.js'

const toBig = (v) =>
  typeof v === 'number' && Number.isInteger(v)
    ? BigInt(v)
    : Array.isArray(v)
      ? v.map(toBig)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toBig(x)]))
        : v

const decls = { object: DynType, self: DynType, oldSelf: DynType }
// A prepared environment, as an apiserver or webhook has: compile = parse + check + plan (the exact
// evaluator's closures are built at the first evaluation; compileOnly also times compile + one evaluation).
const env = standardEnv().extend({ variables: decls })
const bufEnv = buf.celEnv({ funcs: bufStrings })

async function time(fn, sets) {
  let i = 0
  const stats = await measure(() => do_not_optimize(fn(sets[i++ & 7])), { min_cpu_time: 600e6 })
  return stats.p50
}

function fmt(ns) {
  return ns < 1000 ? `${ns.toFixed(ns < 10 ? 1 : 0)} ns` : `${(ns / 1000).toFixed(ns < 10000 ? 2 : 1)} µs`
}

if (process.env.KELP_BENCH_ONLY === 'compile') {
  await compileOnly()
  process.exit(0)
}

const rows = []
const ratios = { kelp: [], limited: [], marc: [], buf: [] }
for (const c of cases) {
  const plain = bindings(c)
  const big = plain.map(toBig)
  const kelp = compile(c.expr, { declarations: c.id === 'oldSelf' ? { self: StringType, oldSelf: StringType } : decls })
  // The same program without the checker: every call dispatches on its arguments' run-time kinds.
  const unchecked = compile(c.expr, { declarations: decls, disableCheck: true })
  const marcFn = marc.parse(c.expr)
  const bufFn = buf.plan(bufEnv, buf.parse(c.expr))
  const want = c.js(plain[0])
  for (const [name, got] of [
    ['kelp', kelp.evaluate(plain[0])],
    ['marc', marcFn(big[0])],
    ['buf', bufFn(big[0])],
  ]) {
    if (got !== want) throw new Error(`${c.id}: ${name} gave ${String(got)}, expected ${String(want)}`)
  }
  for (let i = 0; i < 100; i++) {
    kelp.evaluate(plain[i & 7]) // past the closure tier
    unchecked.evaluate(plain[i & 7])
  }
  const js = await time(c.js, plain)
  const k = await time((v) => kelp.evaluate(v), plain)
  const u = await time((v) => unchecked.evaluate(v), plain)
  // As Kubernetes runs it: a per-call cost limit, so cost is tracked.
  const limited = { costLimit: 1_000_000 }
  const kl = await time((v) => kelp.evaluate(v, limited), plain)
  const m = await time(marcFn, big)
  const b = await time(bufFn, big)
  const compileNs = await time(() => compile(c.expr, { env }), plain)
  ratios.kelp.push(k / js)
  ratios.limited.push(kl / js)
  ratios.marc.push(m / k)
  ratios.buf.push(b / k)
  rows.push(
    `| ${c.id} | ${fmt(js)} | ${fmt(k)} (${(k / js).toFixed(1)}×) | ${fmt(kl)} (${(kl / js).toFixed(1)}×) | ${fmt(u)} | ${fmt(m)} (${(m / k).toFixed(1)}× kelp) | ${fmt(b)} (${(b / k).toFixed(1)}× kelp) | ${fmt(compileNs)} |`,
  )
}
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length)
console.log(
  `machine: ${os.cpus()[0]?.model} × ${os.cpus().length}, node ${process.version}, ${new Date().toISOString()}`,
)
console.log(
  '| case | hand-written | kelp (× hand-written) | kelp, cost limit 1M (× hand-written) | kelp unchecked | @marcbachmann/cel-js | @bufbuild/cel | kelp compile |',
)
console.log('|---|---|---|---|---|---|---|---|')
for (const r of rows) console.log(r)
console.log(
  `\ngeometric means: kelp / hand-written ${geo(ratios.kelp).toFixed(2)}×; with the cost limit ${geo(ratios.limited).toFixed(2)}×; @marcbachmann/cel-js / kelp ${geo(ratios.marc).toFixed(1)}×; @bufbuild/cel / kelp ${geo(ratios.buf).toFixed(1)}×`,
)

/**
 * The compile column alone; with KELP_BENCH_BASE, A/B against another build. Measured for a machine
 * shared with other work: blocks of 100 compiles (about 1 ms, shorter than a scheduler's slice), the
 * builds alternating block by block, KELP_BENCH_ROUNDS blocks each (default 301); a case's time is the
 * fastest block of its build (the one no other process interrupted), its ratio that of the two fastest
 * blocks, with the median of the blocks' paired ratios beside it.
 */
async function compileOnly() {
  const baseDir = process.env.KELP_BENCH_BASE
  const rounds = Number(process.env.KELP_BENCH_ROUNDS ?? 301)
  const N = 100
  const builds = [['after', { compile, env }]]
  if (baseDir) {
    const b = await import(pathToFileURL(join(baseDir, 'dist/index.js')).href)
    builds.push(['base', { compile: b.compile, env: b.standardEnv().extend({ variables: decls }) }])
  }
  const times = {}
  // compile, then one evaluation (what a program costs before it has answered once: its closures built)
  const firstRun = {}
  for (let r = 0; r < rounds; r++)
    for (const c of cases) {
      const act = bindings(c)[0]
      for (const [name, b] of r % 2 === 0 ? builds : [...builds].reverse()) {
        for (let i = 0; i < 20; i++) b.compile(c.expr, { env: b.env })
        const t = process.hrtime.bigint()
        for (let i = 0; i < N; i++) b.compile(c.expr, { env: b.env })
        const key = `${c.id}\u0000${name}`
        if (!times[key]) times[key] = []
        times[key].push(Number(process.hrtime.bigint() - t) / N)
        const t2 = process.hrtime.bigint()
        for (let i = 0; i < N; i++) b.compile(c.expr, { env: b.env }).evaluate(act)
        if (!firstRun[key]) firstRun[key] = []
        firstRun[key].push(Number(process.hrtime.bigint() - t2) / N)
      }
    }
  const min = (xs) => Math.min(...xs)
  const med = (xs) => {
    const s = [...xs].sort((x, y) => x - y)
    return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
  }
  console.log(
    `machine: ${os.cpus()[0]?.model} × ${os.cpus().length}, node ${process.version}, ${new Date().toISOString()}, load ${os.loadavg()[0].toFixed(1)}, ${rounds} blocks of ${N} per case and build`,
  )
  console.log(
    baseDir
      ? '| case | base compile | after compile | after / base (fastest blocks; median of paired blocks) |'
      : '| case | kelp compile (fastest block) |',
  )
  console.log(baseDir ? '|---|---|---|---|' : '|---|---|')
  const afterAll = []
  const baseAll = []
  const ratiosAll = []
  for (const c of cases) {
    const a = times[`${c.id}\u0000after`]
    afterAll.push(min(a))
    if (!baseDir) {
      console.log(`| ${c.id} | ${fmt(min(a))} |`)
      continue
    }
    const b = times[`${c.id}\u0000base`]
    const ratio = min(a) / min(b)
    baseAll.push(min(b))
    ratiosAll.push(ratio)
    console.log(
      `| ${c.id} | ${fmt(min(b))} | ${fmt(min(a))} | ${ratio.toFixed(3)}; ${med(a.map((x, i) => x / b[i])).toFixed(3)} |`,
    )
  }
  const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length)
  console.log(
    `\nmedian of the six: after ${fmt(med(afterAll))}${baseDir ? `, base ${fmt(med(baseAll))}; geometric mean of after / base ${geo(ratiosAll).toFixed(3)}` : ''}`,
  )
  const first = (name) => med(cases.map((c) => min(firstRun[`${c.id}\u0000${name}`])))
  console.log(
    `compile + first evaluation, median of the six: after ${fmt(first('after'))}${baseDir ? `, base ${fmt(first('base'))}` : ''}`,
  )
}
