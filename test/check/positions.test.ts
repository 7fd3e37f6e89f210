import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { check } from '../../src/check/index.js'
import { checkParallel } from '../../src/check/parallel.js'
import { placeFindings } from '../../src/check/positions.js'
import type { Finding, Report } from '../../src/report/model.js'

// Findings at the line of their field (issue 26): a finding that names a field points at that field's line
// and column in its file, else at the deepest ancestor written there; the object keeps its own first line.
// The messages are the apiserver's (tested elsewhere); the lines and columns are counted in the texts below.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')
const dir = mkdtempSync(join(tmpdir(), 'kelp-positions-'))
const file = (name: string, text: string): string => {
  const p = join(dir, name)
  writeFileSync(p, text)
  return p
}

const DEPLOYMENT = `# a comment first
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: -1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: c
        image: nginx:1.27
`

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - {rule: "self.color != 'red'", fieldPath: .color, message: no red}
            properties:
              size: {type: integer}
              color: {type: string}
`

const GADGETS = `apiVersion: example.com/v1
kind: Gadget
metadata: {name: a, namespace: prod}
spec:
  size: "big"
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: b, namespace: prod}
spec:
  size: 1
  color: red
`

const TYPO_POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas-typo}
spec:
  matchConstraints:
    resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
    - expression: object.spec.replicas <= 5
    - expression: object.spec.replicsa <= 5
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicas-typo}
spec: {policyName: replicas-typo, validationActions: [Deny]}
`

const findingsOf = (r: Report, name: string): readonly Finding[] =>
  r.objects.find((o) => o.name === name)?.findings ?? []
const at = (f: Finding | undefined) => [f?.source?.line, f?.source?.column]

describe('findings at the line of their field', () => {
  it('native validation: spec.replicas at its line; the object at its first line', () => {
    const p = file('deploy.yaml', DEPLOYMENT)
    const r = check({ paths: [p], kubeVersion: '1.37', pack: 'off' })
    const o = r.objects[0]
    expect([o?.source.line, o?.source.column]).toEqual([2, 1])
    const f = o?.findings.find((x) => x.field === 'spec.replicas')
    expect(at(f)).toEqual([7, 3])
  })

  it('a field the text lacks: its deepest ancestor written there', () => {
    // spec.selector is required: the error names it, the text has spec (line 6)
    const p = file('noselector.yaml', DEPLOYMENT.replace('  selector:\n    matchLabels: {app: web}\n', ''))
    const r = check({ paths: [p], kubeVersion: '1.37', pack: 'off' })
    const f = r.objects[0]?.findings.find((x) => x.field === 'spec.selector')
    expect(f).toBeDefined()
    expect(at(f)).toEqual([6, 1])
  })

  it('custom resources: a schema error and a rule with fieldPath, in the second document', () => {
    const crd = file('gadgets-crd.yaml', CRD)
    const p = file('gadgets.yaml', GADGETS)
    const r = check({ paths: [crd, p], kubeVersion: '1.37', pack: 'off' })
    // the apiserver's second cause names no field (`<nil>: … some validation rules were not checked`): the object
    const a = findingsOf(r, 'a')
    expect(a.map((f) => [f.field, ...at(f)])).toEqual([
      ['spec.size', 5, 3],
      ['<nil>', 1, 1],
    ])
    const b = findingsOf(r, 'b')
    expect(b.map((f) => [f.field, ...at(f)])).toEqual([['spec.color', 12, 3]])
  })

  it("a policy's type checking: spec.validations[1].expression", () => {
    const p = file('typo.yaml', TYPO_POLICY)
    const d = file('d.yaml', DEPLOYMENT.replace('-1', '3'))
    const r = check({ paths: [p, d], kubeVersion: '1.37' })
    const tc = r.diagnostics.find((x) => x.field === 'spec.validations[1].expression')
    expect(tc?.source?.file).toBe(p)
    expect(at(tc)).toEqual([10, 7])
  })

  it('List items and JSON files', () => {
    const list = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: first}
  spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: second}
  spec:
    replicas: -2
    selector: {matchLabels: {a: b}}
    template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}
`
    const r = check({ paths: [file('list.yaml', list)], kubeVersion: '1.37', pack: 'off' })
    expect(at(findingsOf(r, 'second').find((f) => f.field === 'spec.replicas'))).toEqual([12, 5])
    const json = JSON.stringify(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'j' },
        spec: {
          replicas: -3,
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
        },
      },
      null,
      2,
    )
    const rj = check({ paths: [file('d.json', json)], kubeVersion: '1.37', pack: 'off' })
    expect(at(findingsOf(rj, 'j').find((f) => f.field === 'spec.replicas'))).toEqual([8, 5])
  })

  it('standard input: held, and as a stream written to a temporary file', async () => {
    const r = check({ paths: ['-'], kubeVersion: '1.37', pack: 'off', stdin: () => DEPLOYMENT })
    expect(at(r.objects[0]?.findings.find((f) => f.field === 'spec.replicas'))).toEqual([7, 3])
    const streamed = await checkParallel(
      { paths: ['-'], kubeVersion: '1.37', pack: 'off', stdinStream: Readable.from([Buffer.from(DEPLOYMENT)]) },
      1,
    )
    expect(at(streamed.objects[0]?.findings.find((f) => f.field === 'spec.replicas'))).toEqual([7, 3])
  })

  it('a large file read in pieces places its findings as the whole file does', () => {
    let text = ''
    for (let i = 0; i < 60; i++)
      text += `${i % 3 === 0 ? '---\n' : '--- # next\n'}${DEPLOYMENT.replace('name: web', `name: w${i}`).replace('-1', String(-i - 1))}`
    const p = file('many.yaml', text)
    const r = check({ paths: [p], kubeVersion: '1.37', pack: 'off' })
    expect(r.objects).toHaveLength(60)
    // the objects' own positions, placed again in pieces of 200 bytes
    const unplaced: Report = {
      ...r,
      objects: r.objects.map((o) => ({ ...o, findings: o.findings.map((f) => ({ ...f, source: o.source })) })),
    }
    const inPieces = placeFindings(unplaced, () => ({ path: p }), { streamBytes: 1, pieceBytes: 200 })
    expect(inPieces.objects).toEqual(r.objects)
    const lines = r.objects.map((o) => o.findings.find((f) => f.field === 'spec.replicas')?.source?.line)
    expect(lines.slice(0, 3)).toEqual([8, 25, 42])
  })

  it('findings without a field keep their object position', () => {
    const p = file('removed.yaml', 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: i}\n')
    const r = check({ paths: [p], kubeVersion: '1.37', pack: 'off' })
    expect(r.objects[0]?.findings.map(at)).toEqual([[1, 1]])
  })
})

describe('the formats show the field position', () => {
  const p = file('fmt.yaml', DEPLOYMENT)
  const kelp = (...args: string[]) =>
    spawnSync(process.execPath, [cli, 'check', p, '--pack', 'off', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    }).stdout

  it('text: the finding line starts with file:line:col', () => {
    expect(kelp()).toContain(
      `${p}:2:1 Deployment default/web (created)\n  ${p}:7:3: The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
    )
  })

  it('github, sarif, json, junit', () => {
    expect(kelp('-o', 'github')).toMatch(/^::error file=[^,]*fmt\.yaml,line=7,col=3,/m)
    const sarif = JSON.parse(kelp('-o', 'sarif')) as {
      runs: { results: { locations: { physicalLocation: { region: unknown } }[] }[] }[]
    }
    expect(sarif.runs[0]?.results[0]?.locations[0]?.physicalLocation.region).toEqual({ startLine: 7, startColumn: 3 })
    const json = JSON.parse(kelp('-o', 'json')) as Report
    expect(json.objects[0]?.source).toMatchObject({ line: 2, column: 1 })
    expect(json.objects[0]?.findings[0]?.source).toMatchObject({ line: 7, column: 3, document: 0 })
    expect(kelp('-o', 'junit')).toContain(`line="2"`)
    expect(kelp('-o', 'junit')).toContain(`>${p}:7:3: The Deployment "web" is invalid`)
  })
})
