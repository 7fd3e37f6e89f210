// The pre-commit hook (.pre-commit-hooks.yaml) run by pre-commit itself, from PyPI (installed once into a venv
// under .cache/), in a scratch git repository whose .pre-commit-config.yaml names this repository at its HEAD
// commit (what CI checks out): pre-commit clones it, installs the package as its node language does (npm install,
// which builds it; npm pack; npm install -g) once, and runs the hook on the files given.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { pinnedDeployment as deployment } from '../../fixtures/pinned-deployment.js'
import { ROOT } from '../harness.js'

const PRE_COMMIT = '4.0.1'
const venv = join(ROOT, '.cache/pre-commit', PRE_COMMIT)
const bin = join(venv, 'bin/pre-commit')

const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 600_000 })

describe('the pre-commit hook', () => {
  const repo = mkdtempSync(join(tmpdir(), 'kelp-pre-commit-'))
  // pre-commit keeps its environments here (one install for the file's tests)
  const env = {
    PRE_COMMIT_HOME: join(repo, '.pre-commit-home'),
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
  }

  beforeAll(() => {
    if (!existsSync(bin)) {
      mkdirSync(venv, { recursive: true })
      expect(run('python3', ['-m', 'venv', venv], ROOT).status).toBe(0)
      const pip = run(join(venv, 'bin/pip'), ['install', '--quiet', `pre-commit==${PRE_COMMIT}`], ROOT)
      expect(pip.status, pip.stderr).toBe(0)
    }
    expect(run('git', ['init', '-q', '-b', 'main'], repo).status).toBe(0)
    mkdirSync(join(repo, 'deploy'))
    mkdirSync(join(repo, '.github'))
    writeFileSync(join(repo, 'deploy/web.yaml'), deployment('registry.example/web:1.4.2'))
    writeFileSync(join(repo, 'deploy/bad.yaml'), deployment('registry.example/web:latest'))
    writeFileSync(join(repo, '.github/ci.yml'), 'name: ci\non: [push]\njobs: {a: {runs-on: ubuntu-latest}}\n')
    const rev = run('git', ['rev-parse', 'HEAD'], ROOT).stdout.trim()
    writeFileSync(
      join(repo, '.pre-commit-config.yaml'),
      `repos:\n- repo: ${ROOT}\n  rev: ${rev}\n  hooks:\n  - id: kelp-check\n`,
    )
    expect(run('git', ['add', '.'], repo).status).toBe(0)
    const install = run(bin, ['install-hooks'], repo, env)
    expect(install.status, install.stdout + install.stderr).toBe(0)
  }, 600_000)

  const hook = (files: string[]) => run(bin, ['run', 'kelp-check', '--files', ...files], repo, env)

  it("a manifest the bundled pack denies fails the hook with kelp check's report", () => {
    const r = hook(['deploy/bad.yaml', 'deploy/web.yaml'])
    expect(r.status, r.stdout + r.stderr).toBe(1)
    expect(r.stdout).toMatch(/kelp check\.+Failed/)
    expect(r.stdout).toContain(
      "ValidatingAdmissionPolicy 'image-tag.kelp.dev' with binding 'image-tag.kelp.dev' denied request",
    )
    expect(r.stdout).toContain('2 objects: 1 allowed, 1 denied')
  }, 600_000)
  it('clean manifests pass', () => {
    const r = hook(['deploy/web.yaml'])
    expect(r.status, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toMatch(/kelp check\.+Passed/)
  }, 600_000)
  it('YAML that holds no Kubernetes object passes (--allow-empty)', () => {
    const r = hook(['.github/ci.yml'])
    expect(r.status, r.stdout + r.stderr).toBe(0)
  }, 600_000)
})
