import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/bin/program.js'
import { addServeCommand } from '../../src/webhook/command.js'
import type { WebhookServer } from '../../src/webhook/server.js'
import {
  DEPLOYMENTS,
  deployment,
  hasOpenssl,
  makeCert,
  REPLICAS_POLICY,
  review,
  send,
  tempDir,
  waitFor,
} from './helpers.js'

// `kelp serve` as a command (src/webhook/command.ts): its arguments through the kelp command
// (src/bin/program.ts), the server it starts, and the built command as a process (signals, its log stream).

describe('kelp serve: the command line', () => {
  it('usage errors exit 2', async () => {
    const err: string[] = []
    const io = { out: () => {}, err: (s: string) => err.push(s) }
    expect(await main(['serve', '--tls-cert', 'c', '--tls-key', 'k'], io)).toBe(2)
    expect(err.at(-1)).toBe('kelp: --policies is required (files or directories)')
    expect(await main(['serve', '-p', '/nonexistent/kelp', '--tls-cert', 'c', '--tls-key', 'k'], io)).toBe(2)
    // Go's words for the errno (issue 26), not Node's code
    expect(err.at(-1)).toBe('kelp: --policies: stat /nonexistent/kelp: no such file or directory')
    const dir = tempDir()
    writeFileSync(join(dir, 'p.yaml'), REPLICAS_POLICY(5))
    expect(await main(['serve', '-p', dir, '--tls-key', 'k'], io)).toBe(2)
    expect(err.at(-1)).toBe('kelp: --tls-cert is required')
    expect(await main(['serve', '-p', dir, '--tls-cert', join(dir, 'p.yaml'), '--tls-key', 'k'], io)).toBe(2)
    expect(err.at(-1)).toBe('kelp: --tls-key: open k: no such file or directory')
  })

  it.skipIf(!hasOpenssl)('starts, serves, logs JSON lines to stderr, stops', async () => {
    const dir = tempDir()
    const tls = makeCert(dir)
    writeFileSync(join(dir, 'p.yaml'), REPLICAS_POLICY(5))
    const err: string[] = []
    const started = new Promise<WebhookServer>((resolve, reject) => {
      const program = new Command().exitOverride()
      addServeCommand(
        program,
        { out: () => {}, err: (s) => err.push(s) },
        { onStarted: resolve, onExit: (c) => c !== 0 && reject(new Error(`exit ${c}`)), processHandlers: false },
      )
      program.parse(
        [
          'serve',
          '-p',
          dir,
          '--tls-cert',
          tls.certFile,
          '--tls-key',
          tls.keyFile,
          '--port',
          '0',
          '--address',
          '127.0.0.1',
        ],
        { from: 'user' },
      )
    })
    const srv = await started
    try {
      const r = await send(srv.port, tls.cert, { body: review(deployment(6), DEPLOYMENTS) })
      expect(r.json().response.allowed).toBe(false)
    } finally {
      await srv.close()
    }
    const lines = err.map((l) => JSON.parse(l))
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['policy set loaded', 'listening', 'request denied', 'stopped']),
    )
    for (const l of lines) expect(Object.keys(l).slice(0, 3)).toEqual(['time', 'level', 'msg'])
  })
})

// The built CLI as a process (dist/, built by `npm test` before vitest): SIGTERM stops it cleanly.
const cli = join(dirname(fileURLToPath(import.meta.url)), '../../dist/cli/kelp.cjs')
const built = existsSync(join(dirname(cli), '../webhook/server.js'))
/** `kelp serve` as a child process with one policy, on a free loopback port; its logs on a pipe. */
const startProcess = () => {
  const dir = tempDir()
  const tls = makeCert(dir)
  writeFileSync(join(dir, 'p.yaml'), REPLICAS_POLICY(5))
  const args = ['serve', '-p', dir, '--tls-cert', tls.certFile, '--tls-key', tls.keyFile]
  // a short shutdown delay (default 5 s: the time a cluster needs to stop sending to a pod)
  const child = spawn(
    process.execPath,
    [cli, ...args, '--port', '0', '--address', '127.0.0.1', '--shutdown-delay', '0.2'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  return { tls, child }
}
describe.skipIf(!hasOpenssl || !built)('kelp serve as a process', () => {
  it('serves until SIGTERM, then exits 0', async () => {
    const { tls, child } = startProcess()
    const lines: Record<string, unknown>[] = []
    let buffered = ''
    child.stderr.on('data', (d) => {
      buffered += d
      const parts = buffered.split('\n')
      buffered = parts.pop() ?? ''
      for (const p of parts) lines.push(JSON.parse(p))
    })
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    try {
      await waitFor(() => lines.some((l) => l.msg === 'listening'), 15_000, 'the server to listen')
      const port = Number(lines.find((l) => l.msg === 'listening')?.port)
      const r = await send(port, tls.cert, { body: review(deployment(3), DEPLOYMENTS) })
      expect(r.json().response.allowed).toBe(true)
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['signal received', 'stopped']))
  })

  it('a log reader that went away (EPIPE) neither spins nor stops the shutdown', async () => {
    // regression: stderr's EPIPE reached the uncaught-error handler, whose log line failed again,
    // a loop at 100% CPU that kept the process from exiting after SIGTERM
    const { tls, child } = startProcess()
    let text = ''
    child.stderr.on('data', (d) => {
      text += d
    })
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    await waitFor(() => text.includes('"listening"'), 15_000, 'the server to listen')
    const port = Number(/"port":(\d+)/.exec(text)?.[1])
    child.stderr.destroy() // the reader goes away: the server's next log lines meet EPIPE
    // a denied request logs a line (at info)
    expect((await send(port, tls.cert, { body: review(deployment(9), DEPLOYMENTS) })).status).toBe(200)
    child.kill('SIGTERM')
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 5000))])
    if (code === 'still running') child.kill('SIGKILL')
    expect(code).toBe(0)
  })
})
