import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { pinnedDeployment as deployment } from '../fixtures/pinned-deployment.js'

// The GitHub Action (action.yml) run as the runner runs a composite action's step: its `env:` with the inputs'
// expressions substituted (given inputs, else the defaults), GITHUB_ACTION_PATH the action's checkout,
// GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, the workspace a git repository with a pull request's base commit, and
// the step's `run:` given to bash. The install step (npm ci, npm run build) is what `npm test` did already.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>
  runs: { steps: { id?: string; run?: string; env?: Record<string, string> }[] }
}

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
  return r.stdout.trim()
}

function runStep(workspace: string, inputs: Record<string, string>, baseSha: string) {
  const step = action.runs.steps.find((s) => s.id === 'check')
  if (step?.run === undefined) throw new Error('action.yml: no step with id check')
  const value = (expr: string): string =>
    expr.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e: string) => {
      if (e === 'github.event.pull_request.base.sha') return baseSha
      const m = /^inputs\.([\w-]+)$/.exec(e)
      if (m === null) throw new Error(`unexpected expression ${e}`)
      const name = m[1] as string
      return inputs[name] ?? value(action.inputs[name]?.default ?? '')
    })
  const out = join(workspace, '..', `output-${Date.now()}`)
  const summary = join(workspace, '..', `summary-${Date.now()}`)
  writeFileSync(out, '')
  writeFileSync(summary, '')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_ACTION_PATH: root,
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: out,
    GITHUB_STEP_SUMMARY: summary,
  }
  for (const [k, v] of Object.entries(step.env ?? {})) env[k] = value(v)
  const r = spawnSync('bash', ['-e', '-c', step.run], { cwd: workspace, env, encoding: 'utf8' })
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    output: readFileSync(out, 'utf8'),
    summary: readFileSync(summary, 'utf8'),
  }
}

describe('the GitHub Action', () => {
  const parent = mkdtempSync(join(tmpdir(), 'kelp-action-'))
  const ws = join(parent, 'repo')
  spawnSync('mkdir', ['-p', join(ws, 'deploy')])
  git(ws, 'init', '-q', '-b', 'main')
  writeFileSync(join(ws, 'deploy/web.yaml'), deployment('registry.example/web:1.4.2'))
  git(ws, 'add', '.')
  git(ws, 'commit', '-q', '-m', 'base')
  const base = git(ws, 'rev-parse', 'HEAD')
  // the pull request: the image unpinned (the bundled pack's image-tag policy denies it)
  writeFileSync(join(ws, 'deploy/web.yaml'), deployment('registry.example/web:latest'))

  it('annotates, sets the outputs, writes the summary and fails on a denial', () => {
    const r = runStep(ws, { paths: 'deploy/' }, base)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(
      /^::error file=deploy\/web\.yaml,line=1,col=1,title=Deployment default\/web \(vap\/image-tag\.kelp\.dev\)::/m,
    )
    expect(r.output).toBe('objects=1\ndenied=1\nwarned=0\naudited=0\nerrors=0\nexcepted=0\n')
    expect(r.summary).toContain(
      '| objects | denied | warned | audited | errors | excepted |\n|---:|---:|---:|---:|---:|---:|\n| 1 | 1 | 0 | 0 | 0 | 0 |',
    )
    expect(r.summary).toContain('| Deployment default/web | deploy/web.yaml:1 | denied |')
  })
  it('the base revision makes the object an UPDATE (kelp check --base), as the JSON report says', () => {
    const r = spawnSync(
      process.execPath,
      [join(root, 'dist/cli/kelp.cjs'), 'check', 'deploy/', '--base', base, '-o', 'json'],
      {
        cwd: ws,
        encoding: 'utf8',
      },
    )
    expect(JSON.parse(r.stdout).objects[0].operation).toBe('UPDATE')
  })
  it('a base revision the checkout lacks: a warning, every object checked as a create', () => {
    const r = runStep(ws, { paths: 'deploy/', base: '0123456789abcdef0123456789abcdef01234567' }, base)
    expect(r.stdout).toMatch(
      /^::warning title=kelp::the base revision 0123456789abcdef0123456789abcdef01234567 is not in the checkout/m,
    )
    expect(r.output).toContain('denied=1')
  })
  it('fail-on none and a SARIF file', () => {
    const sarif = join(parent, 'kelp.sarif')
    const r = runStep(ws, { paths: 'deploy/', 'fail-on': 'none', 'sarif-file': sarif }, base)
    expect(r.code).toBe(0)
    const s = JSON.parse(readFileSync(sarif, 'utf8'))
    expect(s.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('deploy/web.yaml')
  })
  it("picks up the repository's .kelp.yaml: its paths, failOn and exceptions (docs/integrations/config.md)", () => {
    const cfg = join(ws, '.kelp.yaml')
    writeFileSync(
      cfg,
      'paths: [deploy]\nfailOn: warn\nexceptions:\n- {reason: "unpinned until the registry moves", names: [web]}\n',
    )
    try {
      const r = runStep(ws, {}, base)
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.stdout).not.toMatch(/^::error/m)
      expect(r.stdout).toContain('1 object (0 created, 1 updated): 1 allowed, 0 denied, 0 warned; 0 errors; 1 excepted')
      expect(r.output).toBe('objects=1\ndenied=0\nwarned=0\naudited=0\nerrors=0\nexcepted=1\n')
      // the file's failOn applies when the input is empty; the input wins over it
      writeFileSync(cfg, 'failOn: none\n')
      expect(runStep(ws, { paths: 'deploy/' }, base).code).toBe(0)
      expect(runStep(ws, { paths: 'deploy/', 'fail-on': 'deny' }, base).code).toBe(1)
    } finally {
      rmSync(cfg)
    }
  })
})
