// The differential's figures and differences as text: agreement per population and group, each known
// difference's size, the unexplained differences, then every difference.
import { KNOWN_DIFFERENCES } from './known-differences.js'
import type { Difference, Outcome } from './runner.js'

const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`)

const has = (o: Outcome, aspects: Difference['aspect'][]) => o.differences.some((d) => aspects.includes(d.aspect))

/** The figures of issues 18 and 19: built-in cases, real manifests, verdict, error text, stored objects. */
function builtInFigures(compared: Outcome[]): string[] {
  const b = compared.filter((o) => o.case.builtIn)
  const real = b.filter((o) => o.case.real)
  const rejected = b.filter((o) => !o.kubectl!.accepted && !has(o, ['verdict']))
  // decoding (400 BadRequest) and strict field validation (unknown or duplicate fields): either side said so
  const decoding = (a: string) =>
    /cannot be handled as a|strict decoding error|unknown field "|duplicate field "/.test(a)
  const decodingCases = real.filter((o) => decoding(o.kubectl!.error) || decoding(o.kelp!.error))
  const storedCases = b.filter((o) => !o.case.old && o.kubectl!.accepted && o.kelp!.accepted && o.kubectl!.stored)
  const storedKinds = new Map<string, [number, number]>()
  for (const o of storedCases) {
    const k = storedKinds.get(o.case.kind) ?? [0, 0]
    k[0]++
    if (!has(o, ['stored'])) k[1]++
    storedKinds.set(o.case.kind, k)
  }
  const files = new Set(real.map((o) => o.case.source)).size
  const repos = new Set(real.map((o) => /public\/([^/]+)\//.exec(o.case.source)?.[1])).size
  return [
    `built-in kinds: ${b.length} cases (${real.length} objects of ${files} real public manifest files of ${repos} ` +
      `repositories, ${b.filter((o) => o.case.mutation).length} one-rule-broken mutations, ` +
      `${b.length - real.length - b.filter((o) => o.case.mutation).length} other)`,
    `  verdict agreement ${pct(b.filter((o) => !has(o, ['verdict'])).length, b.length)}; identical error text ` +
      `${pct(rejected.filter((o) => !has(o, ['error'])).length, rejected.length)} of the ${rejected.length} both reject; ` +
      `verdict+text ${pct(b.filter((o) => !has(o, ['verdict', 'error'])).length, b.length)} of all`,
    `  real manifests: decoding and strict-field verdicts agree in ` +
      `${decodingCases.filter((o) => !has(o, ['verdict'])).length} of ${decodingCases.length}; text agrees in ` +
      `${pct(real.filter((o) => !has(o, ['verdict', 'error'])).length, real.length)}`,
    `  stored objects (CREATEs both accept): ${storedCases.filter((o) => !has(o, ['stored'])).length} of ` +
      `${storedCases.length} agree field for field (${pct(storedCases.filter((o) => !has(o, ['stored'])).length, storedCases.length)}); ` +
      `per kind: ${[...storedKinds]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, [n, ok]]) => `${k} ${ok}/${n}`)
        .join(', ')}`,
  ]
}

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
  row(
    'built-in: real manifests',
    compared.filter((o) => o.case.builtIn && o.case.real),
  )
  row(
    'built-in: mutations',
    compared.filter((o) => o.case.builtIn && o.case.mutation),
  )
  for (const g of [...new Set(compared.map((o) => o.case.group))])
    row(
      `group ${g}`,
      compared.filter((o) => o.case.group === g),
    )
  lines.push(...builtInFigures(compared))
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
