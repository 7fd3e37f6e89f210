// The package as a user gets it (issue 26): `npm pack` of the built tree, installed from the tarball into an
// empty project on this machine (no repository beside it, no build step at install), then the `kelp` command
// on the README's main job and the library's two entry points. npm test's build has made dist/; `npm run
// test:e2e` builds again first, so the pack runs no script. Dependencies come from npm's cache when it has
// them (npm ci filled it), else from the registry.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../harness.js'

const run = (cmd: string, args: string[], cwd: string) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300_000, env: { ...process.env, CI: 'true' } })
  if (r.error) throw r.error
  return r
}

describe('the package installed from its tarball into an empty project', () => {
  let project: string
  let files: string[]

  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-pack-'))
    const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)
    expect(pack.status, pack.stderr).toBe(0)
    const [info] = JSON.parse(pack.stdout) as { filename: string; name: string; files: { path: string }[] }[]
    files = (info?.files ?? []).map((f) => f.path)
    expect(info?.name).toBe('kelp-k8s')
    project = join(dir, 'project')
    cpSync(join(ROOT, 'examples'), join(project, 'k8s'), { recursive: true })
    writeFileSync(join(project, 'package.json'), '{"name": "uses-kelp", "private": true, "type": "module"}\n')
    const install = run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, info?.filename ?? '')],
      project,
    )
    expect(install.status, install.stderr).toBe(0)
  }, 600_000)

  it('ships the built code, the pack, the schemas and the license, not the sources', () => {
    expect(files).toContain('LICENSE')
    expect(files).toContain('dist/cli/kelp.cjs')
    expect(files).toContain('dist/index.js')
    expect(files).toContain('dist/webhook/deep-worker.js')
    expect(files.some((f) => f.startsWith('policies/'))).toBe(true)
    expect(files.some((f) => f.startsWith('data/builtin-schemas/'))).toBe(true)
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([])
  })

  it('npx kelp check answers as the repository does (the README main job)', () => {
    const installed = run('npx', ['--no-install', 'kelp', 'check', 'k8s/'], project)
    const repo = run('node', [join(ROOT, 'dist/cli/kelp.cjs'), 'check', 'k8s/'], project)
    expect(installed.status).toBe(1) // the examples hold a denial
    expect(installed.stdout).toBe(repo.stdout)
    expect(installed.stdout).toMatch(/^4 objects: 1 allowed, 1 denied, 0 warned, 2 not served; 0 errors$/m)
  })

  it('the library and kelp-k8s/webhook import by the package name', () => {
    writeFileSync(
      join(project, 'use.js'),
      `import { PolicySet } from 'kelp-k8s'
import { createAdmissionHandler } from 'kelp-k8s/webhook'
const set = PolicySet.build([
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'max' },
    spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] },
      validations: [{ expression: 'object.spec.replicas <= 3', message: 'at most 3 replicas' }] } },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'max' },
    spec: { policyName: 'max', validationActions: ['Deny'] } },
])
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 5, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } } }
console.log(set.validate(deployment).status.message)
console.log(typeof createAdmissionHandler)
`,
    )
    const r = run('node', ['use.js'], project)
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe(
      `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max' with binding 'max' denied request: at most 3 replicas\nfunction\n`,
    )
  })

  it('installs no repository files beside it', () => {
    expect(readdirSync(join(project, 'node_modules/kelp-k8s')).sort()).toEqual(
      ['LICENSE', 'README.md', 'data', 'dist', 'package.json', 'policies', 'schemas'].sort(),
    )
  })
})
