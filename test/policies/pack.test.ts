import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { findSuites, runSuite } from '../../src/cli/policy-test.js'
import { PolicySet } from '../../src/engine/policy-set.js'
import { parseXml } from '../report/schemas.js'

// The bundled policy pack (policies/): every policy and binding is one the apiserver accepts, and
// every suite in policies/tests (docs/policy-tests.md) holds, run by `kelp test` itself. The
// expectations in the suites come from the Pod Security Standards and PodSecurity admission's
// messages (policies/README.md names the sources).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const packDir = join(root, 'policies')

const packFiles = readdirSync(packDir).filter((f) => f.endsWith('.yaml'))
const load = (file: string) =>
  parseAllDocuments(readFileSync(join(packDir, file), 'utf8')).map((d) => d.toJS() as Record<string, unknown>)

describe('policies/: the pack builds as the apiserver would accept it', () => {
  for (const file of packFiles) {
    for (const version of ['1.36', '1.35'] as const) {
      it(`${file} at ${version}: no problems`, () => {
        const set = PolicySet.build(load(file), { version })
        expect(set.problems.map((p) => p.message)).toEqual([])
        expect(set.policies.length).toBeGreaterThan(0)
      })
    }
  }
})

describe('policies/tests: every suite passes under `kelp test`', () => {
  for (const suite of findSuites([join(packDir, 'tests')])) {
    it(suite.slice(root.length + 1), () => {
      const run = runSuite(suite, '1.36')
      expect(run.error).toBeUndefined()
      expect(run.results.filter((r) => !r.passed).map((r) => `${r.name}: ${r.failure}`)).toEqual([])
      expect(run.results.length).toBeGreaterThan(0)
    })
  }

  it('the built CLI: `kelp test policies/tests` exits 0', () => {
    const r = spawnSync(process.execPath, [join(root, 'dist/cli/main.js'), 'test', join(packDir, 'tests')], {
      encoding: 'utf8',
    })
    expect(r.stdout).toMatch(/^91 tests in 4 suites: 91 passed, 0 failed$/m)
    expect(r.status).toBe(0)
  })

  it('the built CLI: `kelp test -o junit` gives well-formed JUnit with every case', () => {
    const r = spawnSync(
      process.execPath,
      [join(root, 'dist/cli/main.js'), 'test', join(packDir, 'tests'), '-o', 'junit'],
      {
        encoding: 'utf8',
      },
    )
    expect(r.status).toBe(0)
    const doc = parseXml(r.stdout)
    expect(doc.getElementsByTagName('testsuite').length).toBe(4)
    expect(doc.getElementsByTagName('testcase').length).toBe(91)
    expect(doc.getElementsByTagName('failure').length).toBe(0)
  })
})
