import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { outPieces } from '../../src/cli/commands.js'

// `kelp check`'s report is written as it is formatted (report/index.ts formatPieces), in writes of about
// 64 KiB, and stdout waits for a slow reader of a pipe (report/log.ts blockWhenPiped) instead of queueing the
// report in memory: 10,000 Deployments with findings make a 15 MB text report.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')

describe('outPieces writes what one out(text without its last newline) wrote', () => {
  const texts: string[] = [
    '',
    '\n',
    'one line',
    'one line\n',
    'a\n\nb\n\n',
    // past the 64 KiB batch: cut at line breaks, the last character's newline kept for the end
    `${'x'.repeat(70_000)}\n${'y'.repeat(10)}`,
    `${'x'.repeat(65_535)}\n`,
    `${'x'.repeat(65_536)}\n\n`,
    Array.from({ length: 5_000 }, (_, i) => `line ${i} ${'z'.repeat(i % 97)}`).join('\n\n'),
    'no break at all '.repeat(10_000),
  ]
  for (const text of texts)
    for (const size of [1, 7, 4_096, 100_000]) {
      it(`${text.length} characters in pieces of ${size}`, () => {
        const pieces: string[] = []
        for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size))
        let written = ''
        let writes = 0
        outPieces((line) => {
          written += `${line}\n`
          writes++
        }, pieces)
        expect(written).toBe(`${text.replace(/\n$/, '')}\n`)
        if (text.length < 1 << 16) expect(writes).toBe(1)
      })
    }
})

/** Runs a child writing 8 MiB to its stdout, a pipe read only after a pause; returns the most it queued. */
function queuedWhileReaderSleeps(block: boolean): Promise<number> {
  const log = pathToFileURL(join(root, 'dist/report/log.js')).href
  const script = `
    import { blockWhenPiped } from ${JSON.stringify(log)}
    if (process.argv[1] === 'block') blockWhenPiped(process.stdout)
    const chunk = 'x'.repeat(65535) + '\\n'
    let most = 0
    for (let i = 0; i < 128; i++) {
      process.stdout.write(chunk)
      most = Math.max(most, process.stdout.writableLength)
    }
    process.stderr.write(String(most))`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, block ? 'block' : 'plain'])
    child.stdout.pause()
    setTimeout(() => child.stdout.resume(), 300)
    child.stdout.on('data', () => {})
    let err = ''
    child.stderr.on('data', (d) => {
      err += d
    })
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(Number(err)) : reject(new Error(`child exited ${code}: ${err}`))))
  })
}

describe('stdout to a slow reader of a pipe', () => {
  if (!existsSync(join(root, 'dist/report/log.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)')
  it('Node queues what the pipe cannot take (the behaviour blockWhenPiped changes)', async () => {
    expect(await queuedWhileReaderSleeps(false)).toBeGreaterThan(1 << 20)
  })
  it('blockWhenPiped: each write waits for the reader, nothing queued', async () => {
    expect(await queuedWhileReaderSleeps(true)).toBe(0)
  })
})
