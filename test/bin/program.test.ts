import { describe, expect, it } from 'vitest'
import { main } from '../../src/bin/program.js'

// The kelp command (src/bin/program.ts): the CLI's commands, the webhook's `serve` and the audit's `audit` under one
// name.

const run = async (argv: string[]) => {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('kelp', () => {
  it('--help lists the commands of every face, in order', async () => {
    const r = await run(['--help'])
    expect(r.code).toBe(0)
    const commands = [...r.out.matchAll(/^ {2}(\w+) \[/gm)].map((m) => m[1])
    expect(commands).toEqual(['eval', 'check', 'test', 'serve', 'audit', 'playground', 'help'])
  })

  it('serve --help is the webhook command', async () => {
    const r = await run(['serve', '--help'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^Usage: kelp serve \[options\]/)
    for (const flag of ['--policies', '--tls-cert', '--tls-key', '--metrics-port', '--max-connections'])
      expect(r.out).toContain(flag)
  })

  it('audit --help is the audit command', async () => {
    const r = await run(['audit', '--help'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^Usage: kelp audit \[options\]/)
    for (const flag of ['--policies', '--cluster-policies', '--kubeconfig', '--context', '--write-reports'])
      expect(r.out).toContain(flag)
  })

  it('audit with nothing to audit with: a usage error before any connection, exit 2', async () => {
    const r = await run(['audit'])
    expect(r.code).toBe(2)
    expect(r.err).toBe('kelp: nothing to audit with: give policies (-p) or --cluster-policies')
  })

  it('an unknown command and a usage error: exit 2', async () => {
    expect((await run(['nosuch'])).code).toBe(2)
    const r = await run(['serve'])
    expect(r).toMatchObject({ code: 2, err: 'kelp: --policies is required (files or directories)' })
  })
})
