import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// Issue 26: a repository's unchanged tree checked with `--base HEAD` passes. kelp's examples/ and the public
// manifests of the differential corpus (test/e2e/differential/public: argo-cd, cert-manager, gatekeeper-library,
// ingress-nginx, istio, kube-prometheus, kubernetes/examples, kubernetes-engine-samples, kubernetes-website, kyverno-policies,
// microservices-demo) are committed to a scratch repository and checked against HEAD with nothing changed: every
// object is an UPDATE over what its create stored, and kubectl apply of an unchanged manifest either sends nothing
// (`unchanged`) or a patch the apiserver accepts, but for a manifest that sets its uid (below). Before the UPDATE
// modelling, every Job (`spec.selector: Required value`) and headless Service was denied.
//
// Two kinds of object are not "nothing changed" and are left out, each counted: an identity (group, kind,
// namespace, name) written by more than one manifest of the tree (argo-cd's test data holds several
// `nginx-deployment`s: the cluster holds the last write, and the others are real changes over it), and a
// manifest exported from a cluster with a resourceVersion, which kube-apiserver 1.37.2 answers with 409
// Conflict (`Operation cannot be fulfilled on ...: the object has been modified`; measured for argo-cd's
// pod-running-not-ready.yaml, pvc-bound.yaml, statefulset.yaml and the other such files). GKE's samples
// (kubernetes-engine-samples) write the same `default/hello-app`-like names in many tutorials, and Gatekeeper's
// allowed and disallowed examples of one policy the same Pod names: most of the duplicates are theirs.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

type Obj = {
  apiVersion: string
  kind: string
  namespace?: string
  name: string
  operation: string
  outcome: string
  source: { file: string }
  findings: { level: string; rule: string; message: string }[]
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (npm test does)`)
})

describe('kelp check --base HEAD of an unchanged tree', () => {
  it('kelp examples and the public manifests: no denial comes from the UPDATE', { timeout: 120_000 }, () => {
    const repo = mkdtempSync(join(tmpdir(), 'kelp-base-unchanged-'))
    cpSync(join(root, 'examples'), join(repo, 'examples'), { recursive: true })
    // without the admission policies among them (kubernetes-website's examples): kelp check would admit every object
    // against them, on create as on update, and this test is about the update's patch
    cpSync(join(root, 'test/e2e/differential/public'), join(repo, 'public'), {
      recursive: true,
      filter: (src) =>
        !/\.ya?ml$/.test(src) || !/^kind:\s*"?(Validating|Mutating)AdmissionPolicy/m.test(readFileSync(src, 'utf8')),
    })
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo })
    git('init', '-q')
    git('add', '.')
    git('commit', '-qm', 'base')
    const run = (...extra: string[]) => {
      const r = spawnSync(
        process.execPath,
        [cli, 'check', 'examples', 'public', '--pack', 'off', '-o', 'json', '--fail-on', 'none', ...extra],
        { cwd: repo, encoding: 'utf8', maxBuffer: 256 << 20 },
      )
      return (JSON.parse(r.stdout) as { objects: Obj[] }).objects
    }
    const created = run()
    const updated = run('--base', 'HEAD')
    expect(updated.length).toBe(created.length)
    const identity = (o: Obj) =>
      [o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '', o.kind, o.namespace ?? 'default', o.name].join(
        '\0',
      )
    const writes = new Map<string, number>()
    for (const o of created) writes.set(identity(o), (writes.get(identity(o)) ?? 0) + 1)
    // A manifest that sets metadata.uid (kyverno-policies' bad-sa-02 and good-sa-02): the create stores a uid of its
    // own and the update patches the manifest's back in, which the apiserver refuses (kube-apiserver 1.37.2 to a
    // second `kubectl apply` of the same file: `metadata.uid: Invalid value: "…": field is immutable`)
    const uidPatchedIn = (o: Obj) =>
      o.findings.length === 1 &&
      /^metadata\.uid: Invalid value: "[^"]*": field is immutable$/.test(o.findings[0].message)
    const denials: string[] = []
    let unchanged = 0
    let duplicates = 0
    let conflicts = 0
    updated.forEach((o, i) => {
      if (writes.get(identity(o))! > 1) {
        duplicates++
        return
      }
      if (o.outcome === 'unchanged') unchanged++
      if (o.findings.some((f) => f.rule === 'apiserver/conflict')) {
        conflicts++
        return
      }
      // a manifest whose create the cluster refuses was never stored: a create again, with the create's answer
      if (o.operation === 'CREATE') expect(o.outcome, o.source.file).toBe(created[i]!.outcome)
      else if ((o.outcome === 'denied' || o.outcome === 'error') && !uidPatchedIn(o))
        denials.push(`${o.source.file} ${o.kind} ${o.name}: ${o.findings.map((f) => f.message).join('; ')}`)
    })
    expect(denials).toEqual([])
    // most are kubectl's `unchanged` (1,368 of 4,999 objects measured, 3,244 duplicates, 8 conflicts); the others send
    // a patch the apiserver accepts (a quantity written as a number, an atomic list the defaults filled in:
    // kube-apiserver 1.37.2 answered `configured` for them)
    expect(unchanged).toBeGreaterThan(1100)
    expect(duplicates).toBeLessThan(3600)
    expect(conflicts).toBeLessThan(60)
  })
})
