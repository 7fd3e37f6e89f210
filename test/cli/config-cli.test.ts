import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { pinnedDeployment as deployment } from '../fixtures/pinned-deployment.js'

// .kelp.yaml as a user meets it: the built CLI (dist/cli/kelp.cjs, `npm run build`) run as a process in a
// subdirectory of a repository whose root holds the file, with no paths (the file's `paths`); the exceptions in
// every output format, counted in each one's summary; expiry with a fixed clock (KELP_TODAY, for tests only).
// The bundled pack denies `:latest` (image-tag.kelp.dev): two Deployments are denied without exceptions.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

const repo = mkdtempSync(join(tmpdir(), 'kelp-config-cli-'))
mkdirSync(join(repo, '.git'))
mkdirSync(join(repo, 'deploy/legacy'), { recursive: true })
mkdirSync(join(repo, 'tools/sub'), { recursive: true })
const named = (name: string, annotations = '') =>
  deployment('nginx:latest').replace('  name: web\n', `  name: ${name}\n${annotations}`)
writeFileSync(join(repo, 'deploy/legacy/old.yaml'), named('old'))
writeFileSync(
  join(repo, 'deploy/app.yaml'),
  `${named('app')}---\n${named('annotated', '  annotations:\n    kelp.dev/exceptions: "image-tag.kelp.dev=pinned by digest upstream"\n')}`,
)
const configText = `# yaml-language-server: $schema=../schemas/kelp-config.schema.json
paths: [deploy]
exceptions:
  - reason: legacy images (OPS-1)
    paths: ["deploy/legacy/**"]
    policies: [image-tag.kelp.dev]
  - reason: the app's, until March
    expires: 2027-03-31
    names: [app]
`
writeFileSync(join(repo, '.kelp.yaml'), configText)

function kelp(args: string[], env: Record<string, string> = {}, cwd = join(repo, 'tools/sub')) {
  const r = spawnSync(process.execPath, [cli, 'check', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', KELP_TODAY: '2027-01-15', ...env },
    timeout: 60_000,
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('found upward, applied, counted in every format', () => {
  it('text: the summary counts the excepted; --show-exceptions lists them', () => {
    const r = kelp([])
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out.trim().split('\n').at(-1)).toBe('3 objects: 3 allowed, 0 denied, 0 warned; 0 errors; 3 excepted')
    expect(r.out).not.toContain('Excepted')
    const shown = kelp(['--show-exceptions'])
    expect(shown.out).toContain(
      '../../deploy/legacy/old.yaml:1:1 Deployment default/old (created)\n  Excepted (exception 1: legacy images (OPS-1)): ',
    )
    expect(shown.out).toContain("Excepted (exception 2: the app's, until March): ")
    expect(shown.out).toContain('Excepted (kelp.dev/exceptions: pinned by digest upstream): ')
  })
  it('json: the findings kept with their exception, summary.excepted', () => {
    const r = kelp(['-o', 'json'])
    const report = JSON.parse(r.out)
    expect(report.summary).toMatchObject({ objects: 3, allowed: 3, denied: 0, excepted: 3 })
    expect(
      report.objects.map((o: { name: string; excepted: { exception: unknown }[] }) => [
        o.name,
        o.excepted[0]?.exception,
      ]),
    ).toEqual([
      [
        'app',
        {
          by: 'config',
          reason: "the app's, until March",
          index: 1,
          source: { file: '../../.kelp.yaml', line: 7, column: 5 },
          expires: '2027-03-31',
        },
      ],
      ['annotated', { by: 'annotation', reason: 'pinned by digest upstream' }],
      [
        'old',
        {
          by: 'config',
          reason: 'legacy images (OPS-1)',
          index: 0,
          source: { file: '../../.kelp.yaml', line: 4, column: 5 },
        },
      ],
    ])
  })
  it('on two threads (-j 2: each worker applies them to its own objects) the same', () => {
    const r = kelp(['-j', '2', '-o', 'json'])
    expect(JSON.parse(r.out).summary).toMatchObject({ objects: 3, allowed: 3, denied: 0, excepted: 3 })
  })
  it('yaml: the text report on stderr counts them', () => {
    const r = kelp(['-o', 'yaml'])
    expect(r.err.trim().split('\n').at(-1)).toBe('3 objects: 3 allowed, 0 denied, 0 warned; 0 errors; 3 excepted')
  })
  it('junit: the cases only excepted findings fail are skipped, and counted', () => {
    const r = kelp(['-o', 'junit'])
    expect(r.out).toMatch(/<testsuites name="kelp check" tests="3" failures="0" errors="0" skipped="3"/)
    expect(r.out).toContain('<skipped message="Excepted (exception 1: legacy images (OPS-1))"/>')
  })
  it('sarif: suppressions (external for the file, inSource for the annotation), the summary in the run', () => {
    const run = JSON.parse(kelp(['-o', 'sarif']).out).runs[0]
    expect(run.properties.summary.excepted).toBe(3)
    expect(run.results.map((x: { suppressions: unknown }) => x.suppressions)).toEqual([
      [{ kind: 'external', status: 'accepted', justification: "the app's, until March" }],
      [{ kind: 'inSource', status: 'accepted', justification: 'pinned by digest upstream' }],
      [{ kind: 'external', status: 'accepted', justification: 'legacy images (OPS-1)' }],
    ])
  })
  it('github: the summary line; --show-exceptions: notices', () => {
    const r = kelp(['-o', 'github'])
    expect(r.out).not.toContain('::error')
    expect(r.out.trim().split('\n').at(-1)).toBe('3 objects: 3 allowed, 0 denied, 0 warned; 0 errors; 3 excepted')
    const shown = kelp(['-o', 'github', '--show-exceptions'])
    expect(shown.out.match(/^::notice .*excepted\)::Excepted /gm)?.length).toBe(3)
  })
  it('policyreport: skip results, counted in the summary', () => {
    const r = kelp(['-o', 'policyreport'])
    expect(r.out).toContain('kind: PolicyReport')
    expect(r.out).toMatch(/summary:\n {2}pass: 0\n {2}fail: 0\n {2}warn: 0\n {2}error: 0\n {2}skip: 3\n/)
    expect(r.out.match(/result: skip/g)?.length).toBe(3)
  })
})

describe('the command line and the file', () => {
  it('after its expiry day an exception no longer applies and is a warning naming it', () => {
    const r = kelp([], { KELP_TODAY: '2027-04-01' })
    expect(r.code).toBe(1)
    expect(r.out).toContain(
      `../../.kelp.yaml:7:5: warning: exception 2 ("the app's, until March") expired on 2027-03-31: it no longer applies`,
    )
    expect(r.out.trim().split('\n').at(-1)).toBe('3 objects: 2 allowed, 1 denied, 0 warned; 0 errors; 2 excepted')
  })
  it('paths given win over the file’s; an exception that excepted nothing is a note', () => {
    const r = kelp(['../../deploy/legacy'])
    expect(r.out).toContain('note: exception 2 ("the app\'s, until March") excepted no finding')
    expect(r.out.trim().split('\n').at(-1)).toBe('1 object: 1 allowed, 0 denied, 0 warned; 0 errors; 1 excepted')
  })
  it('--no-config: the file is not read (the annotation still applies)', () => {
    const r = kelp(['--no-config', '../../deploy'])
    expect(r.code).toBe(1)
    expect(r.out.trim().split('\n').at(-1)).toBe('3 objects: 1 allowed, 2 denied, 0 warned; 0 errors; 1 excepted')
  })
  it('--fail-on given wins over failOn in the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-config-fail-'))
    writeFileSync(join(dir, '.kelp.yaml'), 'failOn: none\n')
    writeFileSync(join(dir, 'd.yaml'), named('x'))
    expect(kelp(['d.yaml'], {}, dir).code).toBe(0)
    expect(kelp(['d.yaml', '--fail-on', 'deny'], {}, dir).code).toBe(1)
  })
  it('--config names a file; a mistake in it is a usage error (exit 2) naming file, line and key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-config-bad-'))
    writeFileSync(join(dir, 'bad.yaml'), 'exceptions:\n- reason: r\n  expires: tomorrow\n')
    const r = kelp(['--config', 'bad.yaml', 'x.yaml'], {}, dir)
    expect(r.code).toBe(2)
    expect(r.err.trim()).toBe('kelp: bad.yaml:3:3: exceptions[0].expires: a date YYYY-MM-DD, not "tomorrow"')
    expect(r.out).toBe('')
  })
  it('hostile files: a 10 MB file and a __proto__ key are refused quickly, without a stack trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-config-hostile-'))
    writeFileSync(join(dir, 'big.yaml'), Buffer.alloc(10 << 20, '#'))
    writeFileSync(join(dir, 'proto.yaml'), '__proto__: {failOn: none}\n')
    writeFileSync(join(dir, 'deep.yaml'), `paths: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`)
    writeFileSync(
      join(dir, 'globs.yaml'),
      `exceptions:\n${`- {reason: r, paths: ["${'**/'.repeat(300)}d.yaml"], names: ["${'*a'.repeat(500)}"]}\n`.repeat(400)}`,
    )
    writeFileSync(join(dir, 'd.yaml'), named('x'))
    const start = Date.now()
    expect(kelp(['--config', 'big.yaml', 'd.yaml'], {}, dir).err).toMatch(
      /^kelp: big\.yaml: the configuration is 10485760 bytes/,
    )
    expect(kelp(['--config', 'proto.yaml', 'd.yaml'], {}, dir).err).toMatch(
      /^kelp: proto\.yaml:1:1: __proto__: unknown key/,
    )
    // go-yaml's scanner error at the 10,001st level's `[` (its column)
    expect(kelp(['--config', 'deep.yaml', 'd.yaml'], {}, dir).err).toMatch(
      /^kelp: deep\.yaml:1:10008: exceeded max depth of 10000\n/,
    )
    // 400 exceptions of hostile globs (776 KB) are valid: matched without backtracking
    const globs = kelp(['--config', 'globs.yaml', 'd.yaml'], {}, dir)
    expect(globs.code).toBe(1)
    expect(globs.err).toBe('')
    expect(Date.now() - start).toBeLessThan(30_000)
  })
})
