// The two sides of the CEL differential as processes: the Go oracle (one process for the whole run, fed JSON lines)
// and kelp's child (kelp-child.ts, bundled; restarted after a crash or a hang, the case that caused it recorded).
import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { type Case, generateCase, goJSON } from './generate.js'
import type { Outcome } from './kelp-side.js'

/** One expression to run: a case's own, or (text) one of its subexpressions. */
export interface Request {
  readonly key: number
  readonly caseId: number
  readonly text?: string
  /** The oracle's evaluations of a program with a comprehension (its default: 8). */
  readonly runs?: number
}

/** Runs the requests through the oracle binary; the outcomes by key. */
export async function runOracle(
  oracle: string,
  seed: number,
  requests: readonly Request[],
): Promise<Map<number, Outcome>> {
  const child = spawn(oracle, [], { stdio: ['pipe', 'pipe', 'inherit'] })
  const out = new Map<number, Outcome>()
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cel-oracle exited with ${code}`))))
  })
  const reading = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) {
      const o = JSON.parse(line) as Outcome & { id: number }
      out.set(o.id, o)
    }
  })()
  let c: Case | undefined
  for (const r of requests) {
    if (c?.id !== r.caseId) c = generateCase(seed, r.caseId)
    const v = c.vars
    const runs = r.runs === undefined ? '' : `"runs":${r.runs},`
    const line = `{"id":${r.key},${runs}"expr":${JSON.stringify(r.text ?? c.expr.text)},"env":"${c.env}","vars":{"object":${goJSON(v.object)},"oldObject":${goJSON(v.oldObject)},"params":${goJSON(v.params)}}}\n`
    if (!child.stdin!.write(line)) await new Promise((resolve) => child.stdin!.once('drain', resolve))
  }
  child.stdin!.end()
  await Promise.all([done, reading])
  return out
}

export interface KelpOptions {
  /** The bundled kelp-child.ts. */
  readonly bundle: string
  /** The child's heap cap in MiB. */
  readonly heapMb: number
  /** A case answering in no more than this is a hang (the child is ended and restarted). */
  readonly timeoutMs: number
  readonly log: (line: string) => void
}

/** Runs the requests through kelp's child processes, in order; a crash or hang becomes that request's `panic`. */
export async function runKelpChild(
  opts: KelpOptions,
  seed: number,
  requests: readonly Request[],
): Promise<Map<number, Outcome>> {
  const out = new Map<number, Outcome>()
  let next = 0
  while (next < requests.length) {
    const child = spawn(process.execPath, [`--max-old-space-size=${opts.heapMb}`, opts.bundle], {
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString('utf8')).slice(-2000)
    })
    const ended = await feed(child, requests, next, seed, opts, out)
    next = ended.next
    if (!ended.crashed) break
    const r = requests[next]!
    const why = ended.timedOut ? `hang: no answer in ${opts.timeoutMs} ms` : `crash: ${lastLine(stderr)}`
    opts.log(`kelp child ended on case ${r.caseId}${r.text ? ` (subexpression ${r.text.slice(0, 80)})` : ''}: ${why}`)
    out.set(r.key, { compile: '', panic: why })
    next++
  }
  return out
}

function lastLine(s: string): string {
  const lines = s.trim().split('\n')
  return (lines.find((l) => /heap out of memory|RangeError|Error:/.test(l)) ?? lines.at(-1) ?? '').slice(0, 200)
}

/** Feeds requests from `from` on in windows of 100; stops at the end or when the child dies or hangs. */
async function feed(
  child: ChildProcess,
  requests: readonly Request[],
  from: number,
  seed: number,
  opts: KelpOptions,
  out: Map<number, Outcome>,
): Promise<{ next: number; crashed: boolean; timedOut: boolean }> {
  let next = from
  let timedOut = false
  const lines = createInterface({ input: child.stdout! })
  const it = lines[Symbol.asyncIterator]()
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    while (next < requests.length) {
      const window = requests.slice(next, next + 100)
      child.stdin!.write(
        window.map((r) => `${JSON.stringify({ key: r.key, seed, caseId: r.caseId, text: r.text })}\n`).join(''),
      )
      for (const r of window) {
        let timer: NodeJS.Timeout | undefined
        const line = await Promise.race([
          it.next().then((x) => (x.done ? undefined : x.value)),
          exited.then(() => undefined),
          new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), opts.timeoutMs)
          }),
        ])
        clearTimeout(timer)
        if (line === undefined || line === 'timeout') {
          timedOut = line === 'timeout'
          if (child.exitCode === null && child.pid !== undefined) child.kill('SIGKILL')
          await exited
          return { next, crashed: true, timedOut }
        }
        const o = JSON.parse(line) as Outcome & { key: number }
        if (o.key !== r.key) throw new Error(`kelp child answered ${o.key} for ${r.key}`)
        const { key: _, ...outcome } = o
        out.set(r.key, outcome)
        next++
      }
    }
    child.stdin!.end()
    await exited
    return { next, crashed: false, timedOut: false }
  } finally {
    lines.close()
  }
}
