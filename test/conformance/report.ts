import type { CaseResult } from './runner.js'
import { SKIP_REASONS, type SkipReason } from './skip-policy.js'
import { KUBERNETES_FILES } from './suite.js'

// Tallies and the printed summary of a conformance run.

export interface Tally {
  pass: number
  fail: number
  skip: number
}

export interface Summary {
  /** Per file, in suite order. */
  readonly files: ReadonlyMap<string, Tally>
  readonly total: Tally
  /** The Kubernetes-relevant files only (suite.ts KUBERNETES_FILES). */
  readonly kubernetes: Tally
  readonly skipReasons: ReadonlyMap<SkipReason, number>
  /** Expected-error tests that passed because kelp's checker rejected the expression (cel-go fails at eval). */
  readonly passedByCheckError: number
  /** typed_result tests whose value passed but whose deduced type was not compared. */
  readonly typeUnverified: number
}

export function summarize(results: readonly CaseResult[]): Summary {
  const files = new Map<string, Tally>()
  const total: Tally = { pass: 0, fail: 0, skip: 0 }
  const kubernetes: Tally = { pass: 0, fail: 0, skip: 0 }
  const skipReasons = new Map<SkipReason, number>()
  let passedByCheckError = 0
  let typeUnverified = 0
  for (const r of results) {
    let t = files.get(r.case.file)
    if (!t) files.set(r.case.file, (t = { pass: 0, fail: 0, skip: 0 }))
    const o = r.outcome
    const key = o.status
    t[key]++
    total[key]++
    if (KUBERNETES_FILES.includes(r.case.file)) kubernetes[key]++
    if (o.status === 'skip') skipReasons.set(o.reason, (skipReasons.get(o.reason) ?? 0) + 1)
    if (o.status === 'pass' && o.error?.stage === 'check') passedByCheckError++
    if (o.status === 'pass' && o.typeUnverified) typeUnverified++
  }
  return { files, total, kubernetes, skipReasons, passedByCheckError, typeUnverified }
}

/** The `file  pass  fail  skip` table, totals and skip reasons, as plain text. */
export function formatSummary(s: Summary): string {
  const rows: string[][] = [['file', 'pass', 'fail', 'skip', '']]
  for (const [file, t] of s.files) rows.push([file, ...counts(t), KUBERNETES_FILES.includes(file) ? 'k8s' : ''])
  rows.push(['total (k8s files)', ...counts(s.kubernetes), ''])
  rows.push(['total (all files)', ...counts(s.total), ''])
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  )
  lines.push('', 'skipped, by reason:')
  for (const [reason, n] of [...s.skipReasons].sort((a, b) => b[1] - a[1]))
    lines.push(`  ${String(n).padStart(5)}  ${reason}: ${SKIP_REASONS[reason]}`)
  lines.push(
    '',
    `runnable in the k8s files: ${s.kubernetes.pass + s.kubernetes.fail}`,
    `expected-error tests passed by a check error (cel-go errs at eval): ${s.passedByCheckError}`,
    `typed_result tests run for their value, type not verified (needs checker): ${s.typeUnverified}`,
  )
  return lines.join('\n')
}

function counts(t: Tally): string[] {
  return [String(t.pass), String(t.fail), String(t.skip)]
}
