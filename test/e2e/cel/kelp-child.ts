// The kelp side in a child process (bundled and started by cel.e2e.test.ts with a heap cap), so that an
// expression that makes kelp allocate without end (lists.range(3037000500) before cel-go v0.29's size limit) or
// loop kills this child only: the parent restarts it after the case and records the crash.
// Reads JSON lines {key, seed, caseId, text?} (text: a subexpression of the case; absent: the case's expression),
// writes one JSON line {key, ...Outcome} each, in order.
import { createInterface } from 'node:readline'
import { generateCase } from './generate.js'
import { runKelp } from './kelp-side.js'

interface Request {
  readonly key: number
  readonly seed: number
  readonly caseId: number
  readonly text?: string
}

const lines = createInterface({ input: process.stdin })
for await (const line of lines) {
  if (line === '') continue
  const r = JSON.parse(line) as Request
  const c = generateCase(r.seed, r.caseId)
  const outcome = runKelp(r.text ?? c.expr.text, c.env, c.vars)
  process.stdout.write(`${JSON.stringify({ key: r.key, ...outcome })}\n`)
}
