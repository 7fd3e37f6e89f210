// kelp as a kubectl plugin (issue 32): the package's `kubectl-kelp` bin (the same program as `kelp`) on the PATH,
// run by the real kubectl of the target release as `kubectl kelp …` (kubectl's plugin handler finds
// `kubectl-<name>` executables on the PATH and runs them with the remaining arguments).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { binDir, ROOT } from '../harness.js'

describe('kubectl kelp', () => {
  // what npm's bin link makes of package.json's "kubectl-kelp": a link to dist/cli/kelp.cjs
  const dir = mkdtempSync(join(tmpdir(), 'kelp-plugin-'))
  symlinkSync(join(ROOT, 'dist/cli/kelp.cjs'), join(dir, 'kubectl-kelp'))
  const env = { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}`, KUBECONFIG: join(dir, 'none') }
  const kubectl = (args: string[]) => spawnSync(join(binDir(), 'kubectl'), args, { encoding: 'utf8', env })
  const kelp = (args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'dist/cli/kelp.cjs'), ...args], { encoding: 'utf8' })

  it('kubectl plugin list finds it', () => {
    const r = kubectl(['plugin', 'list'])
    expect(r.stdout).toContain(join(dir, 'kubectl-kelp'))
  })
  it('kubectl kelp check prints and exits as kelp check', () => {
    const args = ['check', join(ROOT, 'examples')]
    const viaKubectl = kubectl(['kelp', ...args])
    const direct = kelp(args)
    expect(viaKubectl.status).toBe(direct.status)
    expect(viaKubectl.status).toBe(1) // the examples hold denials (README)
    expect(viaKubectl.stdout).toBe(direct.stdout)
  })
  it('kubectl kelp --version', () => {
    expect(kubectl(['kelp', '--version']).stdout).toBe(kelp(['--version']).stdout)
  })
})
