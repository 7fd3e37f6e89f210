import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runSuite, subsetMismatch } from '../../src/cli/policy-test.js'
import { DEFAULT_KUBE_VERSION } from '../../src/kube/environment.js'

// `kelp test` assertions on the mutated object (docs/policy-tests.md, "Mutating policies"): `mutated`
// (a subset match) and `patch` (exact). The suites in fixtures/mutating transcribe cases of the
// apiserver's mutating policy plugin tests (dispatcher_test.go TestDispatcher, patch/json_patch_test.go
// TestJSONPatch; each test names its case).

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const dir = join(root, 'test/cli/fixtures/mutating')
const suite = (name: string) => runSuite(join(dir, `${name}.kelp-test.yaml`), DEFAULT_KUBE_VERSION)

describe('subsetMismatch', () => {
  it('maps as subsets, lists by length and element, null for absent, scalars equal', () => {
    expect(subsetMismatch({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBeUndefined()
    expect(subsetMismatch({ a: [{ n: 'x' }] }, { a: [{ n: 'x', m: 1 }] })).toBeUndefined()
    expect(subsetMismatch({ a: [{ n: 'x' }] }, { a: [{ n: 'x' }, { n: 'y' }] })).toBe(
      '/a: expected 1 item(s), got 2: [{"n":"x"},{"n":"y"}]',
    )
    expect(subsetMismatch({ a: { 'k8s.io/x': 'v' } }, { a: {} })).toBe('/a/k8s.io~1x: expected "v", got nothing')
    expect(subsetMismatch({ a: null }, { b: 1 })).toBeUndefined()
    expect(subsetMismatch({ a: null }, { a: 1 })).toBe('/a: expected no value, got 1')
    expect(subsetMismatch({ n: 3 }, { n: 3n })).toBeUndefined()
    expect(subsetMismatch({ n: '3' }, { n: 3 })).toBe('/n: expected "3", got 3')
  })
})

describe('kelp test: mutated object and patch', () => {
  it('a MAP adding labels (TestDispatcher) and JSONPatch policies (TestJSONPatch): every test passes', () => {
    for (const name of ['labels', 'jsonpatch']) {
      const run = suite(name)
      expect(run.error).toBeUndefined()
      expect(run.results.length).toBeGreaterThan(1)
      for (const r of run.results) expect([r.name, r.passed, r.failure]).toEqual([r.name, true, undefined])
    }
  })

  it('expectations that do not hold are reported with where and what', () => {
    const run = suite('failing')
    expect(run.error).toBeUndefined()
    expect(run.results.map((r) => [r.name, r.passed, r.failure])).toEqual([
      [
        'wrong label value',
        false,
        'mutated object: /metadata/labels/environment: expected "staging", got "production"',
      ],
      [
        'a label expected absent',
        false,
        'mutated object: /metadata/labels/policy1invoked: expected no value, got "true"',
      ],
      [
        'wrong patch',
        false,
        'expected the patch [], got [{"op":"add","path":"/metadata/labels","value":{"environment":"production","policy1invoked":"true"}}]',
      ],
    ])
  })

  it('the built CLI: `kelp test` exits 0 on the passing suites, 1 with the failing one', () => {
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [join(root, 'dist/cli/kelp.cjs'), 'test', ...args], { encoding: 'utf8' })
    const ok = cli([join(dir, 'labels.kelp-test.yaml'), join(dir, 'jsonpatch.kelp-test.yaml')])
    expect(ok.stderr).toBe('')
    expect(ok.status).toBe(0)
    const bad = cli([dir])
    expect(bad.status).toBe(1)
    expect(bad.stdout).toContain('expected "staging", got "production"')
  })
})
