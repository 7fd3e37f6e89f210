import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// `kelp check` on objects the cluster would answer 404 `no matches for kind "X" in version "g/v"`
// (client-go restmapper NoKindMatchError; `kubectl apply` fails with it, "ensure CRDs are installed
// first"): an error, unless the group is dotted and no CRD for the group/kind was given, where a CRD
// the inputs lack may serve it (a skip). A group without a dot is never a CRD's (apiextensions
// validation.go: spec.group "should be a domain with at least one dot").

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

type Finding = { level: string; type: string; rule: string; message: string }
type Report = { objects: { name: string; outcome: string; findings: Finding[] }[] }

const preserve = '{ openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }'
const material = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
    - { name: v1, served: true, storage: true, schema: ${preserve} }
    - { name: v1beta1, served: false, storage: false, schema: ${preserve} }
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gadgets.example }
spec:
  group: example
  names: { kind: Gadget, plural: gadgets }
  scope: Namespaced
  versions:
    - { name: v1, served: true, storage: true, schema: ${preserve} }
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: nothing }
spec:
  matchConstraints:
    resourceRules: [{ apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [secrets] }]
  validations: [{ expression: "true" }]
`

const object = (apiVersion: string, kind: string, name: string) =>
  `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: { name: ${name}, namespace: default }\n`

function run(objects: string[]): Report {
  const dir = mkdtempSync(join(tmpdir(), 'kelp-not-served-'))
  mkdirSync(join(dir, 'm'))
  writeFileSync(join(dir, 'material.yaml'), material)
  writeFileSync(join(dir, 'm', 'objects.yaml'), objects.join('---\n'))
  const r = spawnSync(process.execPath, [cli, 'check', 'm', '-p', 'material.yaml', '-o', 'json'], {
    cwd: dir,
    encoding: 'utf8',
  })
  return JSON.parse(r.stdout) as Report
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (npm test does)`)
})

describe('kelp check: kinds the cluster does not serve', () => {
  const cases: [string, string, string, string][] = [
    ['apps/v1', 'Deploymnet', 'typo', 'not served by the target release; a group without a dot cannot come from a CRD'],
    ['app/v1', 'Foo', 'app', 'not served by the target release; a group without a dot cannot come from a CRD'],
    ['v1', 'Policy', 'core', 'not served by the target release; a group without a dot cannot come from a CRD'],
    [
      'example.com/v1beta1',
      'Widget',
      'unserved',
      'CustomResourceDefinition "widgets.example.com" does not serve this version',
    ],
    [
      'example.com/v2',
      'Widget',
      'absent',
      'CustomResourceDefinition "widgets.example.com" does not serve this version',
    ],
    ['example/v1', 'Gadget', 'refused', 'its CustomResourceDefinition "gadgets.example" was refused'],
  ]
  const report = run([
    ...cases.map(([av, kind, name]) => object(av, kind, name)),
    object('other.example.com/v1', 'Thing', 'elsewhere'),
    object('example.com/v1', 'Widget', 'served'),
  ])
  const by = Object.fromEntries(report.objects.map((o) => [o.name, o]))

  for (const [apiVersion, kind, name, why] of cases) {
    it(`${apiVersion} ${kind}: an error, as kubectl apply fails`, () => {
      expect(by[name]?.outcome).toBe('not-served')
      expect(by[name]?.findings).toEqual([
        {
          level: 'deny',
          type: 'not-served',
          rule: 'kind/not-served',
          message: `no matches for kind "${kind}" in version "${apiVersion}" (${why})`,
          source: expect.anything(),
        },
      ])
    })
  }

  it('a dotted group with no CRD for it in the inputs: skipped, said so', () => {
    expect(by.elsewhere?.outcome).toBe('skipped')
    expect(by.elsewhere?.findings.map((f) => [f.level, f.rule, f.message])).toEqual([
      [
        'info',
        'kind/unknown',
        'no matches for kind "Thing" in version "other.example.com/v1" (no CRD for it was given: not validated)',
      ],
    ])
  })

  it('the served version of the CRD is admitted', () => {
    expect(by.served?.outcome).toBe('allowed')
  })
})
