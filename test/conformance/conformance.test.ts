import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type CompileOptions, compile, Type } from '../../src/cel/index.js'
import { CAUSES, KNOWN_FAILURES } from './known-failures.js'
import { formatSummary, summarize } from './report.js'
import { type CaseResult, type Engine, runCases } from './runner.js'
import { KUBERNETES_FILES, loadCases } from './suite.js'

// The cel-spec simple conformance tests (via @bufbuild/cel-spec) against kelp's public API.
// Set CONFORMANCE_DUMP=<file> to write every failure with its message (for triage).

/** The floor: raise it as kelp passes more (the lead owns this number). */
const MIN_PASS = 1379

/** Runnable tests in the 17 Kubernetes files: 1,398 in the earlier evaluation, minus the 6 backtick tests, plus 3 timestamps tests it skipped (docs/conformance.md). */
const KUBERNETES_RUNNABLE = 1395

const engine: Engine = {
  compile: (expr, options) => compile(expr, options as CompileOptions),
}

/** Deduced types are compared once programs report their checked type (cel-go's OutputType). */
const verifyTypes = (() => {
  try {
    return (compile('1') as { outputType?: unknown }).outputType instanceof Type
  } catch {
    return false
  }
})()

const cases = loadCases()
const results = runCases(engine, cases, { verifyTypes })
const summary = summarize(results)

function describeFailure(r: CaseResult): string {
  const o = r.outcome
  return o.status === 'fail' ? `${r.case.id} [${o.stage}] ${r.case.test.expr} → ${o.message}` : r.case.id
}

const dump = process.env.CONFORMANCE_DUMP
if (dump)
  writeFileSync(
    dump,
    `${results
      .filter((r) => r.outcome.status === 'fail')
      .map(describeFailure)
      .join('\n')}\n`,
  )

describe('cel-spec conformance', () => {
  it('prints the summary', () => {
    const fixed = Object.keys(KNOWN_FAILURES).filter((id) =>
      results.some((r) => r.case.id === id && r.outcome.status === 'pass'),
    )
    const byCause = new Map<string, number>()
    for (const r of results)
      if (r.outcome.status === 'fail' && r.case.id in KNOWN_FAILURES) {
        const cause = KNOWN_FAILURES[r.case.id]!
        byCause.set(cause, (byCause.get(cause) ?? 0) + 1)
      }
    const lines = [formatSummary(summary), '', 'known failures, by cause (test/conformance/known-failures.ts):']
    for (const [cause, n] of byCause)
      lines.push(`  ${String(n).padStart(5)}  ${cause} [${CAUSES[cause as keyof typeof CAUSES].kind}]`)
    if (fixed.length) lines.push(`known failures now passing (remove them): ${fixed.join(', ')}`)
    console.log(lines.join('\n'))
    expect(summary.total.pass + summary.total.fail + summary.total.skip).toBe(cases.length)
  })

  it(`runs ${KUBERNETES_RUNNABLE} tests in the Kubernetes files (plus check_only ones once types are verified)`, () => {
    const checkOnlyRun = results.filter(
      (r) => KUBERNETES_FILES.includes(r.case.file) && r.case.test.checkOnly && r.outcome.status !== 'skip',
    ).length
    expect(summary.kubernetes.pass + summary.kubernetes.fail).toBe(KUBERNETES_RUNNABLE + checkOnlyRun)
  })

  it(`passes at least MIN_PASS (${MIN_PASS}) tests`, () => {
    expect(summary.total.pass).toBeGreaterThanOrEqual(MIN_PASS)
  })

  it('lists only real test ids in known-failures.ts', () => {
    const ids = new Set(cases.map((c) => c.id))
    expect(Object.keys(KNOWN_FAILURES).filter((id) => !ids.has(id))).toEqual([])
  })

  const files = [...new Set(cases.map((c) => c.file))]
  it.each(files)('%s: no failure outside known-failures.ts', (file) => {
    const unexpected = results.filter(
      (r) => r.case.file === file && r.outcome.status === 'fail' && !(r.case.id in KNOWN_FAILURES),
    )
    expect(unexpected.map(describeFailure)).toEqual([])
  })

  it('gets the same outcomes from the generated-JavaScript back end', () => {
    const js: Engine = { compile: (expr, options) => compile(expr, { ...(options as CompileOptions), backend: 'js' }) }
    const differ = runCases(js, cases, { verifyTypes })
      .filter((r, i) => JSON.stringify(r.outcome) !== JSON.stringify(results[i]!.outcome))
      .map(
        (r) =>
          `${r.case.id}: js ${JSON.stringify(r.outcome)}, closures ${JSON.stringify(results.find((x) => x.case === r.case)?.outcome)}`,
      )
    expect(differ).toEqual([])
  })

  it('covers every Kubernetes file', () => {
    expect(KUBERNETES_FILES.filter((f) => !files.includes(f))).toEqual([])
  })
})
