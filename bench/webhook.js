// npm run bench (fifth part): `kelp serve` against a bare node:https server that answers a constant
// AdmissionReview, measured in the same run with autocannon, same certificate, same machine:
// (a) the most requests per second each serves (same connections, 8 s a round), and the ratio kelp / bare;
// (b) at a fixed 1,000 requests per second (autocannon overallRate), the p99 latency of each;
// (c) errors, timeouts and non-2xx answers (must be 0).
//
// Placement: the load generator (autocannon) runs in this process; each server runs in a child
// process (the bare one: this file with --bare-server; kelp: `node dist/cli/kelp.cjs serve`), started
// one after the other and measured alternately. With `taskset` (Linux) this process and its threads
// are pinned to the first core and the servers to the last, so the client never shares a core with
// the server it loads; without it the OS places them. Set KELP_BENCH_PIN=0 to not pin.
//
// kelp serves 20 ValidatingAdmissionPolicies with 20 bindings, all matching apps/v1 deployments (the
// shape of bench/admit.js), and each request is an AdmissionReview for a Deployment that passes all
// 20 (the common case). KELP_BENCH_POLICIES=pack: the bundled pack instead (policies/*.yaml copied, as
// a user serves it: Pod Security baseline and restricted, best practices), the same Deployment (allowed,
// with the restricted level's and the best practices' warnings); the bare server then answers the bytes
// kelp answered to the probe, so both send the same AdmissionReview back. KELP_BENCH_POLICIES=none: no
// policy, only the Namespace (what the webhook itself costs: reading, parsing, the engine's built-in
// checks, answering). Environment: KELP_BENCH_DURATION (seconds per measurement, default 8),
// KELP_BENCH_ROUNDS (alternating rounds, default 4), KELP_BENCH_CONNECTIONS (default 10);
// KELP_BENCH_MAX_ONLY=1: only the max-throughput scenario (quick comparisons of server CPU per request);
// KELP_BENCH_KELP_NODE_ARGS: extra node flags for the kelp process (e.g. --cpu-prof); KELP_BENCH_CLI: another
// build's dist/cli/kelp.cjs to serve (A/B against a base checkout).
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:https'
import { availableParallelism, cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { admissionReview, deployment, policyMaterial } from './fixtures.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

// --- the bare server (child mode) -----------------------------------------------------------------
if (process.argv[2] === '--bare-server') {
  const [, , , certFile, keyFile, answerFile] = process.argv
  // kelp's own answer to the probe when given (the same bytes back), else a constant allowed review
  const answer =
    answerFile !== undefined
      ? readFileSync(answerFile, 'utf8')
      : JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid: '00000000-0000-0000-0000-000000000000', allowed: true },
        })
  const length = Buffer.byteLength(answer)
  const server = createServer(
    { cert: readFileSync(certFile), key: readFileSync(keyFile), minVersion: 'TLSv1.2', keepAliveTimeout: 65_000 },
    (req, res) => {
      // read the whole body, as any webhook must, then answer the constant review
      req.on('data', () => {})
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': length })
        res.end(answer)
      })
    },
  )
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ msg: 'listening', port: server.address().port })}\n`)
  })
  process.on('SIGTERM', () => server.close(() => process.exit(0)))
} else {
  await main()
}

async function main() {
  const { default: autocannon } = await import('autocannon')
  const duration = Number(process.env.KELP_BENCH_DURATION ?? 8)
  const rounds = Number(process.env.KELP_BENCH_ROUNDS ?? 4)
  const connections = Number(process.env.KELP_BENCH_CONNECTIONS ?? 10)
  const RATE = 1000

  // --- placement ----------------------------------------------------------------------------------
  const ncpu = availableParallelism()
  const canPin =
    process.env.KELP_BENCH_PIN !== '0' && ncpu >= 2 && spawnSync('taskset', ['-V'], { encoding: 'utf8' }).status === 0
  const clientCore = 0
  const serverCore = ncpu - 1
  if (canPin) {
    const r = spawnSync('taskset', ['-a', '-pc', String(clientCore), String(process.pid)], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`taskset failed: ${r.stderr}`)
  }
  const placement = canPin
    ? `load generator pinned to core ${clientCore}, the server under test to core ${serverCore} (taskset)`
    : 'not pinned (the OS places the client and the server)'

  // --- material -----------------------------------------------------------------------------------
  const dir = mkdtempSync(join(tmpdir(), 'kelp-bench-webhook-'))
  const certFile = join(dir, 'tls.crt')
  const keyFile = join(dir, 'tls.key')
  const ossl = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=kelp-bench',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { encoding: 'utf8' },
  )
  if (ossl.status !== 0) throw new Error(`openssl failed (the bench needs the openssl CLI): ${ossl.stderr}`)
  const pack = process.env.KELP_BENCH_POLICIES === 'pack'
  const none = process.env.KELP_BENCH_POLICIES === 'none'
  const policyDir = join(dir, 'policies')
  mkdirSync(policyDir)
  const material = policyMaterial()
  if (pack) {
    // the pack's files as they ship, and the Namespace the Deployment is in
    for (const f of readdirSync(join(ROOT, 'policies')).filter((f) => f.endsWith('.yaml')))
      copyFileSync(join(ROOT, 'policies', f), join(policyDir, f))
    writeFileSync(join(policyDir, 'namespace.json'), JSON.stringify(material.find((o) => o.kind === 'Namespace')))
  } else {
    const items = none ? material.filter((o) => o.kind === 'Namespace') : material
    writeFileSync(join(policyDir, 'policies.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items }))
  }
  const expectedPolicies = pack
    ? readdirSync(policyDir)
        .filter((f) => f.endsWith('.yaml'))
        .reduce(
          (n, f) =>
            n + (readFileSync(join(policyDir, f), 'utf8').match(/^kind: ValidatingAdmissionPolicy$/gm) ?? []).length,
          0,
        )
    : none
      ? 0
      : 20
  const served = pack
    ? `the bundled pack (${expectedPolicies} policies)`
    : none
      ? 'no policy'
      : '20 policies × 1 binding'
  const body = JSON.stringify(admissionReview(deployment(1)))
  const answerFile = join(dir, 'answer.json')

  // --- servers ------------------------------------------------------------------------------------
  const children = []
  const start = (name, args) =>
    new Promise((resolve, reject) => {
      const cmd = canPin ? 'taskset' : process.execPath
      const argv = canPin ? ['-c', String(serverCore), process.execPath, ...args] : args
      const child = spawn(cmd, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
      children.push(child)
      let buffered = ''
      const onData = (chunk) => {
        buffered += chunk
        for (const line of buffered.split('\n').slice(0, -1)) {
          try {
            const entry = JSON.parse(line)
            if (entry.level === 'error') process.stderr.write(`${name}: ${line}\n`)
            if (entry.msg === 'listening') resolve({ name, child, port: entry.port })
          } catch {
            process.stderr.write(`${name}: ${line}\n`)
          }
        }
        buffered = buffered.slice(buffered.lastIndexOf('\n') + 1)
      }
      child.stdout.setEncoding('utf8').on('data', onData)
      child.stderr.setEncoding('utf8').on('data', onData)
      child.on('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)))
    })
  const kelp = await start('kelp', [
    ...(process.env.KELP_BENCH_KELP_NODE_ARGS ?? '').split(' ').filter(Boolean),
    process.env.KELP_BENCH_CLI ?? join(ROOT, 'dist/cli/kelp.cjs'),
    'serve',
    '--policies',
    policyDir,
    '--tls-cert',
    certFile,
    '--tls-key',
    keyFile,
    '--port',
    '0',
    '--address',
    '127.0.0.1',
  ])
  const stopAll = () => {
    for (const c of children) c.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
  process.on('exit', stopAll)

  // one request each, checked: kelp must allow the Deployment with its policies loaded
  const kelpText = await post(kelp)
  const kelpAnswer = JSON.parse(kelpText)
  if (kelpAnswer.response?.allowed !== true || kelpAnswer.response.uid !== JSON.parse(body).request.uid)
    throw new Error(`kelp did not allow the probe: ${JSON.stringify(kelpAnswer)}`)
  const loaded = /^kelp_policies_loaded (\d+)/m.exec(await get(kelp, '/metrics'))?.[1]
  if (loaded !== String(expectedPolicies))
    throw new Error(`kelp has ${loaded} policies loaded, expected ${expectedPolicies}`)
  if (pack || none) writeFileSync(answerFile, kelpText)
  const bare = await start('bare', [
    fileURLToPath(import.meta.url),
    '--bare-server',
    certFile,
    keyFile,
    ...(pack || none ? [answerFile] : []),
  ])
  if (JSON.parse(await post(bare)).response?.allowed !== true) throw new Error('the bare server did not answer')

  // --- measuring ----------------------------------------------------------------------------------
  // Latency percentiles are computed from every response's own time, pooled over the rounds
  // (autocannon's histogram has 1 ms resolution and, with a rate, adds coordinated-omission samples
  // on a 1 ms expected interval).
  const run = (server, opts) =>
    new Promise((resolve, reject) => {
      const latencies = []
      const cpu0 = cpuSeconds(server.child.pid)
      const main0 = cpuSeconds(server.child.pid, true)
      const instance = autocannon(
        {
          url: `https://127.0.0.1:${server.port}/validate`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          timeout: 10,
          ...opts,
        },
        (err, result) => {
          if (err) return reject(err)
          resolve({
            requests: result.requests.total,
            seconds: result.duration,
            cpu: cpuSeconds(server.child.pid) - cpu0,
            main: cpuSeconds(server.child.pid, true) - main0,
            latencies,
            bad: result.non2xx + result.errors + result.timeouts + result.mismatches,
          })
        },
      )
      instance.on('response', (_client, _code, _bytes, ms) => latencies.push(ms))
    })

  // autocannon's rate limit lets each connection send its share of a second's requests back to back
  // from the start of the second: over 10 connections, 1,000 req/s arrives as bursts with 10 requests
  // in flight; over 1 connection, one request at a time (what a lightly loaded apiserver sends).
  const scenarios = [
    { key: 'max', label: `max throughput, ${connections} connections`, opts: { connections } },
    {
      key: 'rate',
      label: `${RATE} req/s over ${connections} connections (bursts)`,
      opts: { connections, overallRate: RATE },
    },
    { key: 'rate1', label: `${RATE} req/s over 1 connection`, opts: { connections: 1, overallRate: RATE } },
  ]
  if (process.env.KELP_BENCH_MAX_ONLY === '1') scenarios.length = 1
  const runs = {}
  for (const sc of scenarios) runs[sc.key] = { bare: [], kelp: [] }
  process.stderr.write(`bench/webhook: warming up (${placement})\n`)
  for (const s of [bare, kelp]) await run(s, { connections, duration: 3 })
  for (let round = 0; round < rounds; round++)
    for (const sc of scenarios)
      for (const s of round % 2 === 0 ? [bare, kelp] : [kelp, bare]) {
        process.stderr.write(`bench/webhook: round ${round + 1}/${rounds}, ${s.name}, ${sc.label}\n`)
        runs[sc.key][s.name].push(await run(s, { ...sc.opts, duration }))
      }
  stopAll()

  // --- report -------------------------------------------------------------------------------------
  const sum = (xs, f) => xs.reduce((a, x) => a + f(x), 0)
  const rps = (xs) => sum(xs, (x) => x.requests) / sum(xs, (x) => x.seconds)
  const pct = (xs, p) => {
    const all = xs.flatMap((x) => x.latencies).sort((a, b) => a - b)
    return all[Math.min(all.length - 1, Math.max(0, Math.ceil((p / 100) * all.length) - 1))]
  }
  const cpuPer = (xs) => (sum(xs, (x) => x.cpu) / sum(xs, (x) => x.requests)) * 1e6
  const mainPer = (xs) => (sum(xs, (x) => x.main) / sum(xs, (x) => x.requests)) * 1e6
  const busy = (xs) => sum(xs, (x) => x.cpu) / sum(xs, (x) => x.seconds)
  const f2 = (x) => x.toFixed(2)
  const ms = (x) => `${f2(x)} ms`
  const signed = (x) => `${x >= 0 ? '+' : '−'}${f2(Math.abs(x))} ms`
  const perRound = (xs, f) => xs.map(f).join(', ')

  const max = runs.max
  // The throughput ratio: each round's kelp run against the bare run next to it (same minute of this
  // shared machine), and the median of those; the pooled ratio is shown beside it.
  const paired = max.kelp.map((k, i) => k.requests / k.seconds / (max.bare[i].requests / max.bare[i].seconds))
  const sorted = [...paired].sort((x, y) => x - y)
  const ratio =
    sorted.length % 2 === 1
      ? sorted[(sorted.length - 1) / 2]
      : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2
  const pooled = rps(max.kelp) / rps(max.bare)
  const p99diff = (r) => (r === undefined ? Number.NaN : pct(r.kelp, 99) - pct(r.bare, 99))
  const diff = p99diff(runs.rate)
  const diff1 = p99diff(runs.rate1)
  const errors = {
    bare: sum(scenarios, (sc) => sum(runs[sc.key].bare, (x) => x.bad)),
    kelp: sum(scenarios, (sc) => sum(runs[sc.key].kelp, (x) => x.bad)),
  }
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU'
  console.log(
    `Node ${process.version}, ${cpu} × ${ncpu}; ${placement}; ${duration} s per measurement, ${rounds} alternating rounds, latencies pooled over the rounds.`,
  )
  console.log()
  console.log(
    `| POST /validate, a Deployment (CREATE) | bare node:https, ${pack || none ? "kelp's answer" : 'constant answer'} | kelp serve, ${served} | kelp vs bare |`,
  )
  console.log('|---|---|---|---|')
  console.log(
    `| ${scenarios[0].label}: req/s (per round) | ${Math.round(rps(max.bare))} (${perRound(max.bare, (x) => Math.round(x.requests / x.seconds))}) | ${Math.round(rps(max.kelp))} (${perRound(max.kelp, (x) => Math.round(x.requests / x.seconds))}) | **${f2(ratio)}×** median of the rounds' ratios (${paired.map(f2).join(', ')}); pooled ${f2(pooled)}× (target ≥ 0.5) |`,
  )
  console.log(
    `| ${scenarios[0].label}: server CPU per request (server core busy) | ${Math.round(cpuPer(max.bare))} µs (${Math.round(busy(max.bare) * 100)}%) | ${Math.round(cpuPer(max.kelp))} µs (${Math.round(busy(max.kelp) * 100)}%) | ${f2(cpuPer(max.kelp) / cpuPer(max.bare))}× |`,
  )
  console.log(
    `| ${scenarios[0].label}: of which the main thread | ${Math.round(mainPer(max.bare))} µs | ${Math.round(mainPer(max.kelp))} µs | ${f2(mainPer(max.kelp) / mainPer(max.bare))}× |`,
  )
  console.log(
    `| ${scenarios[0].label}: p50 / p99 | ${ms(pct(max.bare, 50))} / ${ms(pct(max.bare, 99))} | ${ms(pct(max.kelp, 50))} / ${ms(pct(max.kelp, 99))} | |`,
  )
  for (const sc of scenarios.slice(1)) {
    const r = runs[sc.key]
    console.log(
      `| ${sc.label} (achieved ${Math.round(rps(r.bare))} / ${Math.round(rps(r.kelp))}): p50 / p90 / **p99** (p99 per round) | ${ms(pct(r.bare, 50))} / ${ms(pct(r.bare, 90))} / **${ms(pct(r.bare, 99))}** (${perRound(r.bare, (x) => f2(pct([x], 99)))}) | ${ms(pct(r.kelp, 50))} / ${ms(pct(r.kelp, 90))} / **${ms(pct(r.kelp, 99))}** (${perRound(r.kelp, (x) => f2(pct([x], 99)))}) | p99 **${signed(pct(r.kelp, 99) - pct(r.bare, 99))}** (target ≤ +2 ms) |`,
    )
  }
  console.log(`| errors + timeouts + non-2xx + mismatches, all runs | ${errors.bare} | ${errors.kelp} | target 0 |`)
  console.log()
  const ok = (b) => (b ? 'holds' : 'does NOT hold')
  console.log(
    `Targets: requests/s ratio ${f2(ratio)} (≥ 0.5: ${ok(ratio >= 0.5)}); p99 at ${RATE} req/s ${signed(diff)} over ${connections} connections (≤ 2 ms: ${ok(diff <= 2)}), ${signed(diff1)} over 1 connection (${ok(diff1 <= 2)}); errors ${errors.bare + errors.kelp} (0: ${ok(errors.bare + errors.kelp === 0)}).`,
  )
}

/**
 * CPU time (user + system) of a process so far, in seconds (Linux /proc; NaN elsewhere); `mainThread`: of its
 * main thread only (JavaScript, TLS, the HTTP parser; not the GC's helper threads nor libuv's pool).
 */
function cpuSeconds(pid, mainThread = false) {
  try {
    const stat = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100 // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN
  }
}

async function post(server) {
  return request(server, { path: '/validate', method: 'POST', body: JSON.stringify(admissionReview(deployment(1))) })
}

async function get(server, path) {
  return request(server, { path, method: 'GET' })
}

async function request(server, { path, method, body }) {
  const { request } = await import('node:https')
  const { once } = await import('node:events')
  const req = request({
    host: '127.0.0.1',
    port: server.port,
    path,
    method,
    rejectUnauthorized: false,
    headers: { 'content-type': 'application/json' },
  })
  req.end(body)
  const [res] = await once(req, 'response')
  let text = ''
  for await (const c of res) text += c
  if (res.statusCode !== 200) throw new Error(`${server.name} ${path}: ${res.statusCode} ${text}`)
  return text
}
