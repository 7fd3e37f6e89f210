import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { iterateManifests } from '../../src/manifest/load.js'
import { readStdin } from '../../src/manifest/stdin.js'

// Standard input as a stream (issue 26): `(sleep 0.5; cat x.yaml) | kelp check -` failed with `cannot read -:
// EAGAIN` (Node makes fd 0 non-blocking, then it was read synchronously). Piped input is read as it arrives,
// documents parsed piece by piece, large input kept in a temporary file; what it reads must be what the same
// bytes read whole give (the whole reading is checked against kubectl's decoder in test/e2e/yaml).

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')
const dir = mkdtempSync(join(tmpdir(), 'kelp-stdin-test-'))

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (npm test does)`)
})

const DEPLOYMENT = (name: string, replicas: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n  selector: {matchLabels: {a: b}}\n  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: "x:1"}]}}\n`

/** A shell pipeline into the built CLI: a real pipe, from a writer that takes its time. */
function piped(writer: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync('sh', ['-c', `${writer} | "${process.execPath}" "${cli}" ${args.join(' ')}`], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    maxBuffer: 64 << 20,
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('kelp check -: a pipe from a slow writer', () => {
  writeFileSync(join(dir, 'x.yaml'), DEPLOYMENT('web', -1))
  writeFileSync(join(dir, 'y.yaml'), `---\n${DEPLOYMENT('api', 2)}`)

  it('(sleep 0.5; cat x.yaml) | kelp check -', () => {
    const r = piped('(sleep 0.5; cat x.yaml)', ['check', '-', '--pack', 'off', '-o', 'json'])
    expect(r.err).not.toContain('EAGAIN')
    expect(r.code).toBe(1)
    const rep = JSON.parse(r.out) as { objects: { name: string; outcome: string; findings: { source: unknown }[] }[] }
    expect(rep.objects.map((o) => [o.name, o.outcome])).toEqual([['web', 'denied']])
    // the finding at its field's line, read from the held bytes of standard input
    expect(rep.objects[0]?.findings[0]?.source).toEqual({ file: '-', line: 6, column: 3, document: 0 })
  })

  it('no path (stdin by default), documents arriving in two parts with a pause between', () => {
    const r = piped('(cat x.yaml; sleep 0.4; cat y.yaml; sleep 0.3)', ['check', '--pack', 'off'])
    expect(r.code).toBe(1)
    expect(r.out).toContain('-:1:1 Deployment default/web (created)')
    expect(r.out).toContain('2 objects: 1 allowed, 1 denied, 0 warned; 0 errors')
  })

  it('an empty pipe is no objects, as kubectl apply -f - says', () => {
    const r = piped('(sleep 0.3)', ['check', '-', '--pack', 'off'])
    expect(r.code).toBe(2)
    expect(r.out).toContain('no objects passed to apply')
  })
})

describe('kelp check -: a large piped input', () => {
  it('17 MiB through a pipe: every object read, the findings placed, no temporary file left', () => {
    const value = 'x'.repeat(8000)
    const parts: string[] = []
    let size = 0
    for (let i = 0; size < 17 << 20; i++) {
      const doc = `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  k: ${value}\n`
      parts.push(doc)
      size += doc.length
    }
    const lines = parts.join('').split('\n').length
    parts.push(`---\n${DEPLOYMENT('bad', -1)}`)
    writeFileSync(join(dir, 'big.yaml'), parts.join(''))
    const tmp = mkdtempSync(join(tmpdir(), 'kelp-stdin-tmp-'))
    const r = piped('cat big.yaml', ['check', '-', '--pack', 'off', '-o', 'json'], { TMPDIR: tmp })
    expect(r.code).toBe(1)
    const rep = JSON.parse(r.out) as {
      objects: { name: string; outcome: string; source: { line: number }; findings: { source: { line: number } }[] }[]
      summary: { objects: number }
    }
    expect(rep.summary.objects).toBe(parts.length)
    const bad = rep.objects.find((o) => o.name === 'bad')
    expect(bad?.source.line).toBe(lines + 1)
    expect(bad?.findings[0]?.source.line).toBe(lines + 6)
    // the temporary file is removed when the run ends
    expect(readdirSync(tmp)).toEqual([])
  })
})

const FRAGMENTS = [
  DEPLOYMENT('a', 1),
  '# a comment\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n',
  '--- # separator with a comment\n',
  '---\n',
  '%YAML 1.1\n---\n',
  'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: i1}\n- 5\n',
  'key: [unclosed\n',
  'kind: NoVersion\n',
  '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j"}}\n',
  'data: |\n  ---\n  inside a block scalar\n',
  'apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: crlf\r\n',
  '\n\n',
]

function mix(seed: number, count: number): string {
  let x = seed
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648
    return x
  }
  let out = ''
  for (let i = 0; i < count; i++) {
    out += FRAGMENTS[next() % FRAGMENTS.length]
    if (next() % 3 !== 0) out += '---\n'
  }
  return out
}

/** The bytes in chunks of varying sizes, as a pipe delivers them. */
function chunks(bytes: Buffer, seed: number): Buffer[] {
  const out: Buffer[] = []
  let x = seed
  for (let at = 0; at < bytes.length; ) {
    x = (x * 1103515245 + 12345) % 2147483648
    const n = 1 + (x % 97)
    out.push(bytes.subarray(at, at + n))
    at += n
  }
  return out
}

describe('readStdin: documents as they arrive read as the whole text', () => {
  it.each(Array.from({ length: 20 }, (_, i) => i + 1))(
    'mix %i, in chunks, held (parsed as they arrive, or some at the end) and in a temporary file',
    async (seed) => {
      const bytes = Buffer.from(mix(seed, 40))
      const whole = [...iterateManifests(bytes, '-')]
      const held = await readStdin(Readable.from(chunks(bytes, seed)))
      expect(held.items).toEqual(whole)
      expect(held.bytes?.equals(bytes)).toBe(true)
      // parsed as they arrive for the first bytes only, the rest when all have come: the same items
      const late = await readStdin(Readable.from(chunks(bytes, seed)), { parseBytes: 1 + (seed % 5) * 60 })
      expect(late.items).toEqual(whole)
      const spooled = await readStdin(Readable.from(chunks(bytes, seed)), { spoolBytes: 100 })
      expect(spooled.items).toBeUndefined()
      expect(spooled.spool !== undefined && existsSync(spooled.spool)).toBe(true)
      spooled.dispose()
      expect(existsSync(spooled.spool as string)).toBe(false)
    },
  )

  it.each([1, 2, 3, 4, 5])(
    'mix %i from a source that reads every chunk into one buffer (stdin-fd.ts): held, late and spooled alike',
    async (seed) => {
      const bytes = Buffer.from(mix(seed, 40))
      const whole = [...iterateManifests(bytes, '-')]
      // each chunk is a view of the same buffer, overwritten by the next (as stdinChunks reads fd 0)
      async function* reused(): AsyncGenerator<Buffer> {
        const one = Buffer.alloc(128)
        for (const c of chunks(bytes, seed)) {
          c.copy(one)
          yield one.subarray(0, c.length)
          one.fill(0x23)
        }
      }
      const held = await readStdin(reused(), { reusedChunks: true })
      expect(held.items).toEqual(whole)
      expect(held.bytes?.equals(bytes)).toBe(true)
      const late = await readStdin(reused(), { reusedChunks: true, parseBytes: 1 + seed * 60 })
      expect(late.items).toEqual(whole)
      const spooled = await readStdin(reused(), { reusedChunks: true, spoolBytes: 100 })
      expect(readFileSync(spooled.spool as string).equals(bytes)).toBe(true)
      spooled.dispose()
    },
  )

  it('a JSON stream, UTF-16 and `{{` are read whole', async () => {
    for (const text of [
      '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}\n---\n{"kind": 1}\n',
      `${DEPLOYMENT('t', 1)}---\nmetadata:\n  name: {{ .Values.name }}\n`,
      `${DEPLOYMENT('t', 1)}---\na: {\n{b: 1}}\n`,
    ]) {
      const bytes = Buffer.from(text)
      const got = await readStdin(Readable.from(chunks(bytes, 3)))
      expect(got.items).toEqual([...iterateManifests(bytes, '-')])
    }
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${DEPLOYMENT('u', 1)}---\n`, 'utf16le')])
    const got = await readStdin(Readable.from(chunks(utf16, 5)))
    expect(got.items).toEqual([...iterateManifests(utf16, '-')])
  })
})

describe('stdinChunks: fd 0 read into one buffer', () => {
  const fdModule = join(root, 'dist/manifest/stdin-fd.js')
  // a child that counts what stdinChunks reads of its standard input, from a writer that waits first
  const count = (touchStdin: boolean) =>
    spawnSync(
      'sh',
      [
        '-c',
        `(sleep 0.3; cat fd-source.yaml) | "${process.execPath}" --input-type=module -e '${touchStdin ? 'process.stdin;' : ''}
const { stdinChunks } = await import(${JSON.stringify(fdModule)}); let n = 0, h = 0
for await (const c of stdinChunks()) { n += c.length; for (const b of c) h = (h * 31 + b) >>> 0 }
console.log(n, h)'`,
      ],
      { cwd: dir, encoding: 'utf8' },
    )
  const big = Buffer.from(mix(7, 3000))
  writeFileSync(join(dir, 'fd-source.yaml'), big)
  let h = 0
  for (const b of big) h = (h * 31 + b) >>> 0

  it('reads a pipe that fills late to its end, byte for byte', () => {
    const r = count(false)
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe(`${big.length} ${h}`)
  })

  it('reads on through process.stdin where fd 0 is non-blocking (process.stdin exists: EAGAIN)', () => {
    const r = count(true)
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe(`${big.length} ${h}`)
  })

  it('a directory or a closed fd 0 as standard input: kelp check answers as process.stdin did, no crash', () => {
    for (const redirect of [`< "${dir}"`, '<&-']) {
      const r = spawnSync('sh', ['-c', `"${process.execPath}" "${cli}" check - --pack off ${redirect}`], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      })
      expect(r.status).toBe(2)
      expect(r.stderr).not.toMatch(/EISDIR|EBADF|at /)
      expect(r.stdout).toContain('error: no objects passed to apply (- holds no Kubernetes object)')
    }
  })
})
