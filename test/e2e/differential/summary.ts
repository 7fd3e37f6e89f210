// The differential's figures and differences as text: agreement per population and group, each known
// difference's size, the unexplained differences, then every difference.
import { KNOWN_DIFFERENCES } from './known-differences.js'
import type { Difference, Outcome } from './runner.js'

const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`)

export function summarize(outcomes: Outcome[]): { text: string; unexplained: Difference[] } {
  const lines: string[] = []
  const compared = outcomes.filter((o) => o.kubectl && o.kelp)
  const skipped = outcomes.filter((o) => o.skipped)
  lines.push(`differential: ${outcomes.length} cases, ${compared.length} compared, ${skipped.length} skipped`)
  const row = (label: string, set: Outcome[]) => {
    const verdict = set.filter((o) => !o.differences.some((d) => d.aspect === 'verdict')).length
    const error = set.filter((o) => !o.differences.some((d) => d.aspect === 'verdict' || d.aspect === 'error')).length
    const warnings = set.filter((o) => !o.differences.some((d) => d.aspect === 'warnings')).length
    const all = set.filter((o) => o.differences.length === 0).length
    lines.push(
      `  ${label.padEnd(28)} ${String(set.length).padStart(5)} cases  verdict ${pct(verdict, set.length).padStart(6)}  ` +
        `verdict+error text ${pct(error, set.length).padStart(6)}  warnings ${pct(warnings, set.length).padStart(6)}  ` +
        `all ${pct(all, set.length).padStart(6)}`,
    )
  }
  row('all', compared)
  row(
    'custom resources',
    compared.filter((o) => !o.case.builtIn),
  )
  row(
    'built-in kinds',
    compared.filter((o) => o.case.builtIn),
  )
  for (const g of [...new Set(compared.map((o) => o.case.group))])
    row(
      `group ${g}`,
      compared.filter((o) => o.case.group === g),
    )
  const byEntry = new Map<string, Difference[]>()
  const unexplained: Difference[] = []
  for (const d of compared.flatMap((o) => o.differences)) {
    const entry = KNOWN_DIFFERENCES.find((k) => k.match(d))
    if (entry) byEntry.set(entry.id, [...(byEntry.get(entry.id) ?? []), d])
    else unexplained.push(d)
  }
  for (const k of KNOWN_DIFFERENCES) {
    const ds = byEntry.get(k.id) ?? []
    const cases = new Set(ds.map((d) => d.case.id)).size
    lines.push(`known difference '${k.id}': ${ds.length} differences in ${cases} cases (${k.reason}; ${k.source})`)
  }
  const show = (d: Difference) =>
    [
      `--- ${d.case.id} [${d.aspect}] ${d.case.apiVersion} ${d.case.kind} ${d.case.name} (${d.case.source})`,
      `    kubectl: ${d.kubectl.replace(/\n/g, '\n             ')}`,
      `    kelp:    ${d.kelp.replace(/\n/g, '\n             ')}`,
    ].join('\n')
  lines.push(`unexplained differences: ${unexplained.length}`)
  for (const d of unexplained) lines.push(show(d))
  lines.push('every known difference:')
  for (const [id, ds] of byEntry) {
    lines.push(`=== ${id}`)
    for (const d of ds) lines.push(show(d))
  }
  for (const o of skipped) lines.push(`skipped ${o.case.id}: ${o.skipped}`)
  return { text: lines.join('\n'), unexplained }
}
