import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/bin/program.js'

// `kelp test` reads its suites strictly (issue 26): a misspelled key asserted nothing and the suite passed.

const dir = mkdtempSync(join(tmpdir(), 'kelp-test-strict-'))
const write = (name: string, text: string): string => {
  const p = join(dir, name)
  mkdirSync(join(p, '..'), { recursive: true })
  writeFileSync(p, text)
  return p
}
write(
  'policy.yaml',
  `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: no-c}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  validations:
  - {expression: "object.metadata.name != 'c'", message: no c}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: no-c}
spec: {policyName: no-c, validationActions: [Deny]}
`,
)
const configMap = '{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}'
const suite = (body: string) => `apiVersion: kelp.dev/v1alpha1\nkind: PolicyTest\nmetadata: {name: s}\n${body}`

async function kelpTest(...paths: string[]) {
  const out: string[] = []
  const code = await main(['test', ...paths], { out: (x) => out.push(x), err: (x) => out.push(x) })
  return { code, out: out.join('\n') }
}

describe('kelp test: unknown fields are errors naming the field and the file', () => {
  it.each([
    [
      'a misspelled message',
      `policies: [policy.yaml]\ntests:\n- {name: t, object: ${configMap}, expect: deny, mesage: "no c"}\n`,
      'unknown field "tests[0].mesage"',
    ],
    [
      'warning for warnings',
      `policies: [policy.yaml]\ntests:\n- {name: t, object: ${configMap}, expect: deny, warning: 7}\n`,
      'unknown field "tests[0].warning"',
    ],
    [
      'a suite-level polices (which loaded no policy at all)',
      `polices: [policy.yaml]\ntests:\n- {name: t, object: ${configMap}, expect: deny}\n`,
      'unknown field "polices"',
    ],
    [
      'every unknown field, in references and userInfo too',
      `policies: [policy.yaml]\nresource: []\ntests:\n- {name: t, resource: {kind: ConfigMap, nme: c}, userInfo: {user: a}, expect: admit}\n`,
      'unknown field "resource", unknown field "tests[0].resource.nme", unknown field "tests[0].userInfo.user"',
    ],
  ])('%s', async (_what, body, message) => {
    const file = write('suite.kelp-test.yaml', suite(body))
    const r = await kelpTest(file)
    expect(r.out).toContain(`ERROR ${file}: ${file}: ${message}`)
    expect(r.code).toBe(2)
  })

  it('objects are not looked into (the engine decodes them), metadata takes labels and annotations', async () => {
    const file = write(
      'ok.kelp-test.yaml',
      suite(
        `policies: [policy.yaml]\ntests:\n- name: t\n  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, anything: 1}\n  expect: deny\n  message: 'unknown field "anything"'\n`,
      ).replace('metadata: {name: s}', 'metadata: {name: s, labels: {a: b}, annotations: {c: d}}'),
    )
    const r = await kelpTest(file)
    expect(r.out).toContain('PASS s › t')
    expect(r.code).toBe(0)
  })
})

describe('kelp test: a suite that loads no policy fails', () => {
  it('policies naming files without a policy', async () => {
    write('cm.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n`)
    const file = write(
      'none.kelp-test.yaml',
      suite(`policies: [cm.yaml]\ntests:\n- {object: ${configMap}, expect: admit}\n`),
    )
    const r = await kelpTest(file)
    expect(r.out).toContain(
      `ERROR ${file}: ${file}: loads no policy (cm.yaml holds no ValidatingAdmissionPolicy, MutatingAdmissionPolicy or CustomResourceDefinition)`,
    )
    expect(r.code).toBe(2)
  })
  it('no policies at all', async () => {
    const file = write('empty.kelp-test.yaml', suite(`tests:\n- {object: ${configMap}, expect: admit}\n`))
    const r = await kelpTest(file)
    expect(r.out).toContain(`ERROR ${file}: ${file}: loads no policy (policies lists no file)`)
    expect(r.code).toBe(2)
  })
})

describe('kelp test: node_modules is not searched', () => {
  it('a directory walk skips node_modules (a path inside it, given, is still read)', async () => {
    const root = join(dir, 'tree')
    const good = suite(`policies: [../policy.yaml]\ntests:\n- {name: t, object: ${configMap}, expect: deny}\n`)
    write('tree/a.kelp-test.yaml', good)
    // a broken suite in a dependency: it would fail the run if it were read
    write('tree/node_modules/dep/x.kelp-test.yaml', 'kind: PolicyTest\ntests: 5\n')
    const r = await kelpTest(root)
    expect(r.out).toContain('1 tests in 1 suites: 1 passed, 0 failed')
    expect(r.code).toBe(0)
    expect((await kelpTest(join(root, 'node_modules/dep'))).code).toBe(2)
  })
})
