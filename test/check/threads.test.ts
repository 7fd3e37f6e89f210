import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { documentShare, planShares } from '../../src/check/shares.js'
import { iterateManifests } from '../../src/manifest/load.js'

// `kelp check` on several threads (src/check/parallel.ts, shares.ts): each thread reads the documents
// that start in its share of the inputs. What every thread together reads is what one thread reads,
// and the report is the same, in the same order, for any number of threads.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

describe('planShares', () => {
  it('cuts the inputs into contiguous parts that cover every byte once, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 5000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        (sizes, threads) => {
          const files = sizes.map((bytes, i) => ({ file: `f${i}`, bytes }))
          const shares = planShares(files, threads)
          expect(shares).toHaveLength(threads)
          for (const [i, f] of files.entries()) {
            const parts = shares.flatMap((s, t) => s.filter((p) => p.file === f.file).map((p) => ({ ...p, t })))
            expect(parts.length).toBeGreaterThan(0)
            // one file's parts: from 0 to 1 without gap or overlap, on threads in order
            expect(parts[0]?.from).toBe(0)
            expect(parts.at(-1)?.to).toBe(1)
            for (let k = 1; k < parts.length; k++) {
              expect(parts[k]?.from).toBe(parts[k - 1]?.to)
              expect(parts[k]?.t).toBeGreaterThan(parts[k - 1]?.t as number)
            }
            void i
          }
          // each thread's files in input order
          for (const s of shares) {
            const order = s.map((p) => Number(p.file.slice(1)))
            expect(order).toEqual([...order].sort((a, b) => a - b))
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

/** Documents that exercise the splitting: Lists, directives, `...`, bad separators, parse errors. */
const DOCS = [
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n',
  '# a comment\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: c}\n',
  '%YAML 1.1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: e}\n...\nignored: text\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n',
  'just a string\n',
  '',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: f\ndata:\n  k: |\n    a block\n    --- not a separator inside\n',
]

describe('document shares', () => {
  it('the threads together read each document once, as one thread does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: DOCS.length - 1 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        fc.constantFrom('---\n', '--- # c\n', '---\n\n', '--- junk\n'),
        (picks, cuts, sep) => {
          const text = picks.map((i) => DOCS[i]).join(sep)
          const whole = [...iterateManifests(text, 'f.yaml')]
          const bounds = [0, ...[...cuts].sort((a, b) => a - b), 1]
          const parts = bounds.slice(1).map((to, i) => ({ file: 'f.yaml', from: bounds[i] as number, to }))
          const together = parts.flatMap((p) =>
            p.to > p.from ? [...iterateManifests(text, 'f.yaml', documentShare(p))] : [],
          )
          expect(together).toEqual(whole)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('a JSON stream and a file with {{ are read whole by the share holding their start', () => {
    const json =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}\n{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}\n'
    const helm =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ .Values.name }}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n'
    for (const text of [json, helm]) {
      const whole = [...iterateManifests(text, 'f')]
      const first = [...iterateManifests(text, 'f', documentShare({ file: 'f', from: 0, to: 0.5 }))]
      const second = [...iterateManifests(text, 'f', documentShare({ file: 'f', from: 0.5, to: 1 }))]
      expect(first).toEqual(whole)
      expect(second).toEqual([])
    }
  })
})

function kelp(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('kelp check --jobs', () => {
  it('gives the same report on 1, 2 and 3 threads: material, params and errors in any share', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kelp-threads-'))
    // a CRD at the end of the input, its custom resources at the start; a policy with a paramKind whose
    // params are in another file; parse errors and a removed API version on the way
    const crd =
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer, maximum: 5}}}}}}\n'
    const policy =
      'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: max-replicas}\nspec:\n  paramKind: {apiVersion: v1, kind: ConfigMap}\n  matchConstraints:\n    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]\n  validations:\n  - expression: "object.spec.replicas <= int(params.data.max)"\n    messageExpression: "\'at most \' + params.data.max"\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: max-replicas}\nspec:\n  policyName: max-replicas\n  validationActions: [Deny]\n  paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}\n'
    const deployment = (i: number) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d${i}, namespace: default}\nspec:\n  replicas: ${i % 5}\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec:\n      containers: [{name: c, image: nginx}]\n`
    const widget = (i: number) =>
      `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w${i}, namespace: default}\nspec: {size: ${i % 8}}\n`
    const big = Array.from({ length: 300 }, (_, i) =>
      i % 97 === 50 ? 'kind: [broken\n' : i % 3 === 0 ? widget(i) : deployment(i),
    )
    writeFileSync(join(dir, 'a-objects.yaml'), big.join('---\n'))
    writeFileSync(join(dir, 'b-legacy.yaml'), 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: old}\n')
    writeFileSync(
      join(dir, 'c-params.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits, namespace: default}\ndata: {max: "3"}\n',
    )
    // a policy the apiserver refuses (a bad expression): reported once, applied by no thread
    const refused =
      'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: broken}\nspec:\n  failurePolicy: Fail\n  matchConstraints:\n    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]\n  validations:\n  - expression: "object.spec.replicas >"\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: broken}\nspec:\n  policyName: broken\n  validationActions: [Deny]\n'
    writeFileSync(join(dir, 'd-policy.yaml'), `${policy}---\n${refused}`)
    writeFileSync(join(dir, 'e-crd.yaml'), crd)
    const runs = [1, 2, 3].map((j) => kelp(['check', '.', '-o', 'json', '--jobs', String(j)], dir))
    for (const r of runs) expect(r.err).toBe('')
    const reports = runs.map((r) => JSON.parse(r.out))
    expect(reports[1]).toEqual(reports[0])
    expect(reports[2]).toEqual(reports[0])
    const one = reports[0]
    // what the one-thread report says (so that the comparison is of a meaningful report)
    expect(one.summary.objects).toBe(300 - 3 + 2) // 3 broken documents; the legacy Ingress and the ConfigMap
    expect(one.summary.denied).toBeGreaterThan(50)
    expect(one.diagnostics.filter((d: { rule: string }) => d.rule.startsWith('input/')).length).toBe(3)
    expect(runs[0]?.code).toBe(runs[1]?.code)
    // the refused policy and its binding, each reported once (by the main thread)
    expect(one.diagnostics.filter((d: { message: string }) => d.message.includes('"broken"')).length).toBe(2)
  })
})
