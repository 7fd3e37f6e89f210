import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { check } from '../../src/check/index.js'
import { PolicySet } from '../../src/engine/policy-set.js'
import { derivedNameGenerator, RANDOM_ALPHABET } from '../../src/kube/names.js'
import { format } from '../../src/report/index.js'

// Objects with metadata.generateName and no name (issue 26). kubectl apply refuses them before sending anything:
// `error: from cfg-: cannot use generate name with apply` (kubectl 1.37.2 against kube-apiserver 1.37.2, and
// kubectl/pkg/cmd/apply apply_test.go TestDontAllowApplyWithPodGeneratedName); kubectl create accepts them, and
// the apiserver names them <base><5 characters of utilrand's alphabet> (`cfg-8t5lj`). kelp checks them as the
// create, says once which command they need, and names them the same in every run.

const dir = mkdtempSync(join(tmpdir(), 'kelp-generate-name-'))
const cm = join(dir, 'cm.yaml')
writeFileSync(cm, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: cfg-\ndata: {a: b}\n')
const pod = join(dir, 'pod.yaml')
writeFileSync(
  pod,
  'apiVersion: v1\nkind: Pod\nmetadata: {generateName: runner-}\nspec:\n  containers:\n  - {name: c, image: "nginx:1.27", securityContext: {privileged: true}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: named}\n',
)
const alphabet = `[${RANDOM_ALPHABET}]{5}`

describe('kelp check: generateName', () => {
  const run = () => check({ paths: [cm, pod], kubeVersion: '1.37' })

  it('is checked as a create, named as the apiserver names, the same name in every run', () => {
    const a = run()
    const b = run()
    expect(a.objects.map((o) => o.name)).toEqual(b.objects.map((o) => o.name))
    expect(a.objects[0]?.name).toMatch(new RegExp(`^cfg-${alphabet}$`))
    expect(a.objects[1]?.name).toMatch(new RegExp(`^runner-${alphabet}$`))
    // the denial names the object by its generated name, as the cluster's Status does
    expect(a.objects[1]?.findings.find((f) => f.level === 'deny')?.message).toContain(
      `pods "${a.objects[1]?.name}" is forbidden`,
    )
    // two runs print the same report: SARIF fingerprints do not churn
    expect(format(a, 'sarif')).toBe(format(b, 'sarif'))
    expect(format(a, 'text', { color: false })).toBe(format(b, 'text', { color: false }))
  })

  it('says once, for all such objects, that kubectl apply refuses them and kubectl create is the command', () => {
    const notes = run().diagnostics.filter((d) => d.rule === 'kubectl/generate-name')
    expect(notes.map((d) => [d.level, d.message])).toEqual([
      [
        'info',
        `2 objects (the first: ConfigMap "cfg-", ${cm}:1) have metadata.generateName and no name: kubectl apply refuses them (error: from cfg-: cannot use generate name with apply); checked as kubectl create creates them, named with 5 characters derived from the object where the cluster draws them at random`,
      ],
    ])
    expect(check({ paths: [pod], kubeVersion: '1.37' }).diagnostics.map((d) => d.message)).toContain(
      `Pod "runner-" (${pod}:1) has metadata.generateName and no name: kubectl apply refuses it (error: from runner-: cannot use generate name with apply); checked as kubectl create creates it, named with 5 characters derived from the object where the cluster draws them at random`,
    )
  })
})

describe('the library', () => {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cfg-' } }

  it('keeps the random default', () => {
    const set = PolicySet.build([])
    const names = new Set(Array.from({ length: 5 }, () => set.validate(object).generatedName))
    expect(names.size).toBeGreaterThan(1)
  })

  it('derives the name from the object with derivedNameGenerator: the prefix cut to 58 characters', () => {
    const set = PolicySet.build([], { generateName: derivedNameGenerator })
    expect(set.validate(object).generatedName).toBe(set.validate(structuredClone(object)).generatedName)
    const other = { ...object, data: { a: 'b' } }
    expect(set.validate(other).generatedName).not.toBe(set.validate(object).generatedName)
    const long = derivedNameGenerator('x'.repeat(70), object)
    expect(long).toMatch(new RegExp(`^x{58}${alphabet}$`))
  })
})
