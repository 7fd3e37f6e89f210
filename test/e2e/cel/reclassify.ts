// Checks known-differences.ts against the differences of an earlier run (its report, .cache/e2e/cel-differential.json)
// without running the expressions again: the differences per entry, and the classes no entry explains.
//   node test/e2e/run-ts.js test/e2e/cel/reclassify.ts [report.json]
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../harness.js'
import type { Found } from './compare.js'
import { KNOWN_CEL_DIFFERENCES, knownCelDifference } from './known-differences.js'

const file = process.argv[2] ?? join(ROOT, '.cache/e2e/cel-differential.json')
const report = JSON.parse(readFileSync(file, 'utf8')) as { count: number; found: Found[] }
const perEntry = new Map<string, number>(KNOWN_CEL_DIFFERENCES.map((k) => [k.id, 0]))
const unlisted = new Map<string, { count: number; example: Found }>()
for (const f of report.found) {
  const k = knownCelDifference(f)
  if (k) perEntry.set(k.id, perEntry.get(k.id)! + 1)
  else {
    const signature = `${f.aspect} · ${f.fn} · ${f.detail}`
    const u = unlisted.get(signature)
    if (u) u.count++
    else unlisted.set(signature, { count: 1, example: f })
  }
}
console.log(`${report.found.length} differences in ${report.count} expressions (${file})`)
for (const [id, n] of perEntry) console.log(`${String(n).padStart(7)}  ${id}`)
const brief = (o: Found['kelp']) =>
  o.panic ??
  (o.compile || (o.error !== undefined ? `error: ${o.error}` : JSON.stringify(o.value)) + ` (cost ${o.cost})`)
for (const [signature, u] of [...unlisted].sort((a, b) => b[1].count - a[1].count)) {
  console.log(`${String(u.count).padStart(7)}  NOT LISTED ${signature}: ${u.example.text.slice(0, 140)}`)
  console.log(`           kelp ${brief(u.example.kelp).slice(0, 160)}`)
  console.log(`           go   ${brief(u.example.go).slice(0, 160)}`)
}
