import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { kubectlApply, storedOnUpdateOf } from '../../src/engine/apply.js'
import { PolicySet } from '../../src/engine/policy-set.js'

// kubectl apply of a manifest over the object its previous revision stored (src/engine/apply.ts). The pairs are
// the differential corpus's UPDATE cases (test/e2e/differential/cases/updates); the expected answers were
// recorded from kube-apiserver v1.37.2 (test/engine/fixtures/apply/<case>.json: `kubectl apply` of the old
// manifest, `kubectl get -o json` of what it stored, then `kubectl apply --dry-run=server -o json` of the new
// one, or the error kubectl printed; the server's uid written as kelp's placeholder, resourceVersion,
// creationTimestamp and managedFields left out). The differential suite asks the apiserver again each run.

type Obj = Record<string, any>
const here = dirname(fileURLToPath(import.meta.url))
const cases = join(here, '../e2e/differential/cases/updates')
const read = (name: string): Obj => yaml.load(readFileSync(join(cases, name), 'utf8')) as Obj
const recorded = (c: string): Obj => JSON.parse(readFileSync(join(here, 'fixtures/apply', `${c}.json`), 'utf8'))
const material = ['crd.yaml', 'policy.yaml'].flatMap((f) =>
  (yaml.loadAll(readFileSync(join(cases, f), 'utf8')) as Obj[]).filter(Boolean),
)
const set = PolicySet.build(material, { version: '1.37', release: '1.37' })

/**
 * What neither side is asked to agree on: the allocated cluster IP, the uid kelp leaves out of what it prints, and
 * the server's creationTimestamp and resourceVersion (the recordings leave them out; kelp's current object holds
 * its placeholders, as the server's GET returns its own).
 */
function comparable(o: Obj): Obj {
  const c = structuredClone(o)
  delete c.metadata?.uid
  delete c.metadata?.creationTimestamp
  delete c.metadata?.resourceVersion
  if (c.spec?.clusterIP !== undefined && c.spec.clusterIP !== 'None') {
    c.spec.clusterIP = '<allocated>'
    c.spec.clusterIPs = c.spec.clusterIPs.map(() => '<allocated>')
  }
  return c
}

function apply(c: string) {
  const answer = kubectlApply(set, {
    manifest: read(`${c}.yaml`),
    old: read(`${c}.old.yaml`),
    namespace: `u-${c}`,
    release: '1.37',
  })
  return { answer, want: recorded(c) }
}

describe('kubectl apply over the stored object (kube-apiserver 1.37.2 recorded)', () => {
  it('an unchanged Job: the stored object carries its generated selector and labels; the patch is empty, nothing admitted', () => {
    // before: the manifest was admitted as the whole new object: `spec.selector: Required value`
    const { answer, want } = apply('job')
    expect(want.printed).toBe('job.batch/migrate unchanged (server dry run)')
    expect(answer).toMatchObject({ operation: 'UPDATE', unchanged: true })
    expect(answer.result).toBeUndefined()
    expect(comparable(answer.current!)).toEqual(comparable(want.current))
    expect(comparable(storedOnUpdateOf(answer, '1.37')!)).toEqual(comparable(want.applied))
  })

  it('an unchanged headless Service: the stored ipFamilyPolicy and ipFamilies stay, nothing admitted', () => {
    // before: `spec.ipFamilyPolicy: Invalid value: "RequireDualStack"`-like denials of the whole-object model
    const { answer, want } = apply('headless')
    expect(want.printed).toBe('service/db unchanged (server dry run)')
    expect(answer).toMatchObject({ operation: 'UPDATE', unchanged: true })
    expect(comparable(answer.current!)).toEqual(comparable(want.current))
  })

  for (const c of ['deploy-image', 'deploy-container', 'deploy-env', 'svc-port', 'cm-key', 'cr-field'])
    it(`${c}: the patched object is admitted as an UPDATE and stored as the apiserver stores it`, () => {
      const { answer, want } = apply(c)
      expect(want.printed).toMatch(/ configured \(server dry run\)$/)
      expect(answer.operation).toBe('UPDATE')
      expect(answer.unchanged).toBe(false)
      expect(answer.result?.allowed).toBe(true)
      expect(answer.request?.operation).toBe('UPDATE')
      // policies see oldObject as stored
      expect(comparable(answer.request!.oldObject as Obj)).toEqual(comparable(want.current))
      expect(comparable(storedOnUpdateOf(answer, '1.37')!)).toEqual(comparable(want.applied))
    })

  it('a strategic merge patch for built-in kinds, a JSON merge patch for custom resources (kubectl patcher.go)', () => {
    expect(apply('deploy-env').answer.patch?.patchType).toBe('strategic')
    // the env var removed by its merge key (name), the other kept
    expect((apply('deploy-env').answer.request!.object as Obj).spec.template.spec.containers[0].env).toEqual([
      { name: 'MODE', value: 'prod' },
    ])
    expect(apply('cr-field').answer.patch?.patchType).toBe('merge')
  })

  it('a ValidatingAdmissionPolicy on UPDATE compares object with oldObject as stored', () => {
    const { answer, want } = apply('deploy-replicas')
    expect(want.error).toBe(
      `The deployments "web" is invalid: : ValidatingAdmissionPolicy 'replicas-never-grow' with binding 'replicas-never-grow' denied request: replicas may not grow: 2 -> 5`,
    )
    expect(answer.result?.allowed).toBe(false)
    expect(answer.result?.violations.map((v) => v.message)).toEqual(['replicas may not grow: 2 -> 5'])
  })

  it('no previous revision: a create of the manifest', () => {
    const answer = kubectlApply(set, { manifest: read('job.yaml'), namespace: 'u-job', release: '1.37' })
    expect(answer).toMatchObject({ operation: 'CREATE', unchanged: false })
    expect(answer.result?.allowed).toBe(true)
  })

  it('a previous revision the cluster would refuse was never stored: the new manifest is a create', () => {
    // a ConfigMap key that is not a valid key (core validation: ValidateConfigMap) is refused on create
    const answer = kubectlApply(set, {
      manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { ok: '1' } },
      old: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'a b': '1' } },
      namespace: 'default',
      release: '1.37',
    })
    expect(answer.operation).toBe('CREATE')
    expect(answer.oldRefused?.builtin?.allowed).toBe(false)
    expect(answer.result?.allowed).toBe(true)
  })

  it('keys of any name in the manifests (own-property reads: __proto__)', () => {
    const cm = (data: string) =>
      JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p"},"data":${data}}`) as Obj
    const answer = kubectlApply(set, {
      manifest: cm('{"__proto__":"x","constructor":"y"}'),
      old: cm('{"__proto__":"x"}'),
      namespace: 'default',
      release: '1.37',
    })
    expect(answer.unchanged).toBe(false)
    const data = (answer.request!.object as Obj).data
    expect(Object.hasOwn(data, '__proto__')).toBe(true)
    expect(Object.entries(data)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ])
  })
})
