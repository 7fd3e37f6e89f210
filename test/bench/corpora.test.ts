import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import yaml from 'js-yaml'
import { afterAll, describe, expect, it } from 'vitest'
import {
  blockCorpus,
  containersCorpus,
  flowCorpus,
  PER_FILE,
  publicCorpus,
  renamed,
  SHARED_CRDS,
  splitDocuments,
  walk,
} from '../../bench/corpora.js'

// The corpora of bench/cold.js (issue 29) are what the bench says they are: N documents, flow style really flow,
// every file read by js-yaml, the public manifests replicated as renamed copies with their CRDs beside them.

const dir = mkdtempSync(join(tmpdir(), 'kelp-corpora-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
type Obj = Record<string, any>
const objectsOf = (d: string): Obj[] =>
  walk(d).flatMap((f) => yaml.loadAll(readFileSync(f, 'utf8')).filter((o) => o != null) as Obj[])

describe('generated corpora', () => {
  const n = 2 * PER_FILE + 7
  const block = blockCorpus(join(dir, 'block'), n)
  const flow = flowCorpus(join(dir, 'flow'), n)

  it('holds N Deployments, PER_FILE a file, as it counts them', () => {
    expect(block).toMatchObject({ objects: n, files: 3 })
    expect(walk(block.dir)).toHaveLength(3)
    const objects = objectsOf(block.dir)
    expect(objects).toHaveLength(n)
    expect(new Set(objects.map((o) => `${o.kind} ${o.metadata.name}`)).size).toBe(n)
    expect(objects.every((o) => o.kind === 'Deployment' && o.spec.template.spec.containers.length === 2)).toBe(true)
  })

  it('writes the same objects in flow style: every document one `{…}` mapping', () => {
    expect(objectsOf(flow.dir)).toEqual(objectsOf(block.dir))
    for (const f of walk(flow.dir))
      for (const doc of splitDocuments(readFileSync(f, 'utf8'))) {
        expect(doc.trim()).toMatch(/^\{.*\}$/s)
        expect(doc.trim().split('\n')).toHaveLength(1)
      }
    // the block corpus is block style: no document starts a flow mapping
    for (const f of walk(block.dir))
      for (const doc of splitDocuments(readFileSync(f, 'utf8'))) expect(doc.trim().startsWith('{')).toBe(false)
    expect(flow.bytes).toBeLessThan(block.bytes)
  })

  it('gives the several-container Deployments 3-4 containers, 1-2 init containers, probes, env and volumes', () => {
    const c = containersCorpus(join(dir, 'containers'), 12)
    const objects = objectsOf(c.dir)
    expect(objects).toHaveLength(12)
    for (const o of objects) {
      const spec = o.spec.template.spec
      expect(spec.containers.length).toBeGreaterThanOrEqual(3)
      expect(spec.containers.length).toBeLessThanOrEqual(4)
      expect(spec.initContainers.length).toBeGreaterThanOrEqual(1)
      expect(spec.initContainers.length).toBeLessThanOrEqual(2)
      expect(spec.containers[0]).toHaveProperty('readinessProbe')
      expect(spec.containers[0].env.length).toBeGreaterThan(0)
      expect(spec.volumes.length).toBeGreaterThan(0)
    }
    expect(new Set(objects.map((o) => o.spec.template.spec.containers.length))).toEqual(new Set([3, 4]))
    expect(new Set(objects.map((o) => o.spec.template.spec.initContainers.length))).toEqual(new Set([1, 2]))
  })
})

describe('renamed', () => {
  it('renames the name under a block metadata, not a nested one', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n    name: x\n  name: web\nspec:\n  name: web\n'
    expect(renamed(text, 'web', '-1')).toBe(
      'apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n    name: x\n  name: web-1\nspec:\n  name: web\n',
    )
  })
  it('renames in a flow metadata and a quoted name', () => {
    expect(renamed('kind: A\nmetadata: {namespace: n, name: a}\n', 'a', '-2')).toBe(
      'kind: A\nmetadata: {namespace: n, name: a-2}\n',
    )
    expect(renamed('kind: A\nmetadata:\n  name: "a"\n', 'a', '-2')).toBe('kind: A\nmetadata:\n  name: a-2\n')
  })
  it('leaves alone what it cannot rename safely', () => {
    expect(renamed('kind: A\nmetadata:\n  name: a\n', 'b', '-1')).toBeUndefined() // not the parsed name
    expect(renamed(`kind: A\nmetadata:\n  name: ${'a'.repeat(62)}\n`, 'a'.repeat(62), '-1')).toBeUndefined()
    expect(renamed('{"kind": "A", "metadata": {"name": "a"}}', 'a', '-1')).toBeUndefined()
  })
})

describe('public corpus', () => {
  // two copies or more of the public manifests (about 4,600 objects a copy since kyverno-policies)
  const N = 10000
  const p = publicCorpus(join(dir, 'public'), N, join(dir, 'crds.yaml'))

  it('replicates the public manifests to about N objects, each file read by js-yaml', () => {
    expect(p.copies).toBe(Math.max(1, Math.round(N / p.perCopy)))
    expect(p.copies).toBeGreaterThan(1)
    expect(p.perCopy).toBeGreaterThan(900)
    const objects = objectsOf(p.dir)
    expect(objects).toHaveLength(p.objects)
    expect(walk(p.dir)).toHaveLength(p.files)
    // Services, ConfigMaps, RBAC and custom resources beside workloads, and no CRD among the inputs
    const kinds = new Set(objects.map((o) => o.kind))
    for (const k of ['Service', 'ConfigMap', 'ClusterRole', 'Deployment', 'ServiceEntry']) expect(kinds).toContain(k)
    expect(kinds).not.toContain('CustomResourceDefinition')
    // nor admission policies, which would switch the bundled pack off
    expect(kinds).not.toContain('ValidatingAdmissionPolicy')
    expect(kinds).not.toContain('ValidatingAdmissionPolicyBinding')
  })

  it('renames the objects of every copy after the first', () => {
    expect(p.renamed).toBeGreaterThan(0.9 * p.perCopy * (p.copies - 1))
    const names = (copy: string) =>
      objectsOf(join(p.dir, copy))
        .filter((o) => o.kind === 'Deployment')
        .map((o) => o.metadata.name)
    const second = new Set(names('copy-01'))
    // renamed() edits a block `metadata:` or a one-line flow one; a document written as one JSON-like flow mapping
    // (seven Deployments of kubernetes-website) keeps its name in every copy
    const kept = names('copy-00').filter((name) => !second.has(`${name}-1`))
    expect(kept.every((name) => second.has(name))).toBe(true)
    expect(kept.length).toBeLessThan(10)
  })

  it('gives the CRDs of the corpus and of ../shared/data/crds for its custom resources to -p', () => {
    const crds = yaml.loadAll(readFileSync(p.crdFile, 'utf8')) as Obj[]
    expect(crds).toHaveLength(p.crds)
    expect(crds.every((c) => c.kind === 'CustomResourceDefinition')).toBe(true)
    const defined = new Set(crds.map((c) => `${c.spec.group}/${c.spec.names.kind}`))
    expect(defined).toContain('spire.spiffe.io/ClusterSPIFFEID') // from the corpus (istio's spire sample)
    if (existsSync(SHARED_CRDS)) expect(defined).toContain('networking.istio.io/ServiceEntry')
  })
})
