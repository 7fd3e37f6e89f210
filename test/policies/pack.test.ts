import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { bundledPack, instantiatePack } from '../../src/check/pack.js'
import { findSuites, runSuite } from '../../src/cli/policy-test.js'
import { PolicySet } from '../../src/engine/policy-set.js'
import { SUPPORTED_VERSIONS } from '../../src/kube/environment.js'
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
    for (const version of SUPPORTED_VERSIONS) {
      it(`${file} at ${version}: no problems`, () => {
        const material = load(file).map((object) => ({ object, source: { file } }))
        const set = PolicySet.build(
          instantiatePack(material, version).map((o) => o.object),
          { version },
        )
        expect(set.problems.map((p) => p.message)).toEqual([])
        expect(set.policies.length).toBeGreaterThan(0)
      })
    }
  }
})

describe('policies/tests: every suite passes under `kelp test`, on every supported release', () => {
  for (const suite of findSuites([join(packDir, 'tests')])) {
    for (const version of SUPPORTED_VERSIONS) {
      it(`${suite.slice(root.length + 1)} at ${version}`, () => {
        const run = runSuite(suite, version)
        expect(run.error).toBeUndefined()
        expect(run.results.filter((r) => !r.passed).map((r) => `${r.name}: ${r.failure}`)).toEqual([])
        expect(run.results.length).toBeGreaterThan(0)
      })
    }
  }

  it('the built CLI: `kelp test policies/tests --kube-version 1.32` exits 0', () => {
    const r = spawnSync(
      process.execPath,
      [join(root, 'dist/cli/kelp.cjs'), 'test', join(packDir, 'tests'), '--kube-version', '1.32'],
      { encoding: 'utf8' },
    )
    expect(r.stdout).toMatch(/^(\d+) tests in 4 suites: \1 passed, 0 failed$/m)
    expect(r.status).toBe(0)
  })

  it('the built CLI: `kelp test -o junit` gives well-formed JUnit with every case', () => {
    const r = spawnSync(
      process.execPath,
      [join(root, 'dist/cli/kelp.cjs'), 'test', join(packDir, 'tests'), '-o', 'junit'],
      {
        encoding: 'utf8',
      },
    )
    expect(r.status).toBe(0)
    const doc = parseXml(r.stdout)
    expect(doc.getElementsByTagName('testsuite').length).toBe(4)
    expect(doc.getElementsByTagName('testcase').length).toBeGreaterThan(100)
    expect(doc.getElementsByTagName('failure').length).toBe(0)
  })
})

// the mutating examples (policies/mutating/, opt-in): MutatingAdmissionPolicy v1 is served from 1.36
const mutatingDir = join(packDir, 'mutating')
const mutatingFiles = readdirSync(mutatingDir).filter((f) => f.endsWith('.yaml'))
const loadMutating = (file: string) =>
  parseAllDocuments(readFileSync(join(mutatingDir, file), 'utf8')).map((d) => d.toJS() as Record<string, unknown>)

describe('policies/mutating/: the examples build as a 1.36+ apiserver accepts them, and are not served before', () => {
  for (const file of mutatingFiles) {
    for (const version of SUPPORTED_VERSIONS) {
      it(`${file} at ${version}`, () => {
        const set = PolicySet.build(loadMutating(file), { version })
        if (Number(version.split('.')[1]) >= 36) {
          expect(set.problems.map((p) => p.message)).toEqual([])
        } else {
          expect(set.problems.length).toBe(loadMutating(file).length)
          for (const p of set.problems) expect(p.message).toMatch(/^no matches for kind .* \(introduced in v1\.36\)$/)
        }
      })
    }
  }
  it('are not part of the bundled pack', () => {
    const names = bundledPack('1.37').objects.map((o) => String((o.object.metadata as { name?: string })?.name))
    expect(names.filter((n) => n.startsWith('default-'))).toEqual([])
  })
  for (const suite of findSuites([join(mutatingDir, 'tests')])) {
    for (const version of SUPPORTED_VERSIONS.filter((v) => Number(v.split('.')[1]) >= 36)) {
      it(`${suite.slice(root.length + 1)} at ${version}`, () => {
        const run = runSuite(suite, version)
        expect(run.error).toBeUndefined()
        expect(run.results.filter((r) => !r.passed).map((r) => `${r.name}: ${r.failure}`)).toEqual([])
        expect(run.results.length).toBeGreaterThan(0)
      })
    }
  }
})

describe('src/check/pack.ts: the bundled pack for a release', () => {
  const variable = (objects: { object: Record<string, unknown> }[], policy: string, name: string) => {
    const p = objects.find(
      (o) => (o.object.metadata as { name?: string })?.name === policy && o.object.kind === 'ValidatingAdmissionPolicy',
    )
    const vars = (p?.object.spec as { variables?: { name: string; expression: string }[] })?.variables ?? []
    return vars.find((v) => v.name === name)?.expression
  }
  for (const version of SUPPORTED_VERSIONS) {
    it(`${version}: the policies follow PodSecurity of ${version}, restricted next to the baseline Deny`, () => {
      const pack = bundledPack(version)
      expect(pack.errors).toEqual([])
      expect(pack.objects.every((o) => !o.source.file.includes(`${join('policies', 'tests')}`))).toBe(true)
      expect(variable(pack.objects, 'pod-security-baseline.kelp.dev', 'kubeMinor')).toBe(version.slice(2))
      expect(variable(pack.objects, 'pod-security-restricted.kelp.dev', 'kubeMinor')).toBe(version.slice(2))
      expect(variable(pack.objects, 'pod-security-restricted.kelp.dev', 'baselineEnforced')).toBe('true')
      const set = PolicySet.build(
        pack.objects.map((o) => o.object),
        { version },
      )
      expect(set.problems.map((p) => p.message)).toEqual([])
    })
  }

  it('restricted on its own stays complete (baselineEnforced false without the baseline Deny)', () => {
    const file = 'pod-security-restricted.yaml'
    const alone = instantiatePack(
      load(file).map((object) => ({ object, source: { file } })),
      '1.36',
    )
    expect(variable(alone, 'pod-security-restricted.kelp.dev', 'baselineEnforced')).toBe('false')
  })

  // every baseline denial of the baseline suite: restricted alone warns about it (PodSecurity's
  // restricted level holds every baseline check, policy/registry.go populate), and the bundled pack
  // denies it once with no restricted warning (admission/admission.go EvaluatePod)
  const baselineSuite = parseAllDocuments(
    readFileSync(join(packDir, 'tests/pod-security-baseline.kelp-test.yaml'), 'utf8'),
  )[0]?.toJS() as {
    tests: { name: string; object: Record<string, unknown>; expect: string; kubeVersions?: string }[]
  }
  // the baseline policy's denials (not an object the kind's own validation refuses before any policy)
  const unaided = PolicySet.build([])
  const denials = baselineSuite.tests.filter(
    (t) => t.expect === 'deny' && t.kubeVersions === undefined && t.object && unaided.validate(t.object).allowed,
  )
  for (const version of ['1.30', '1.37'] as const) {
    const restrictedAlone = PolicySet.build(
      instantiatePack(
        load('pod-security-restricted.yaml').map((object) => ({ object, source: { file: 'r' } })),
        version,
      ).map((o) => o.object),
      { version },
    )
    const pack = PolicySet.build(
      bundledPack(version).objects.map((o) => o.object),
      { version },
    )
    it(`${version}: the HostProcess cases fail the hostProcess check (behind the host network one, the Status)`, () => {
      // a HostProcess pod must use the host network (native validation), so the host namespaces check
      // fails first: its message is the Status, the hostProcess one is the next violation
      const cases = baselineSuite.tests.filter((t) => t.name.startsWith('HostProcess:') && t.expect === 'deny')
      expect(cases.length).toBe(2)
      for (const t of cases) {
        const messages = pack.validate(t.object).violations.map((v) => v.message)
        expect(messages, t.name).toContainEqual(
          expect.stringMatching(
            /^hostProcess \((pod and )?container "app" must not set securityContext\.windowsOptions\.hostProcess=true\)$/,
          ),
        )
      }
    })
    it(`${version}: restricted alone flags each of the ${denials.length} baseline denials; the pack reports each once`, () => {
      expect(denials.length).toBeGreaterThan(20)
      const unflagged = denials
        .filter((t) => restrictedAlone.validate(t.object).warnings.length === 0)
        .map((t) => t.name)
      expect(unflagged).toEqual([])
      const doubled = denials
        .map((t) => ({ name: t.name, r: pack.validate(t.object) }))
        .filter(({ r }) => r.allowed || r.warnings.some((w) => w.includes('pod-security-restricted.kelp.dev')))
        .map(({ name }) => name)
      expect(doubled).toEqual([])
    })
  }
})

describe('pod-security-restricted on its own, as policy versions (objects no default cluster of the release admits)', () => {
  // an image volume: release-1.32 check_restrictedVolumes.go has no volume.Image case (the default
  // branch, "unknown"); release-1.33 allows it. A default cluster before 1.35 refuses such a pod before
  // the policies (ImageVolume off by default), so the policy is evaluated here without the built-in steps.
  const imageVolumePod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'image-volume', namespace: 'default' },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'app',
          image: 'nginx:1.27',
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
      volumes: [{ name: 'models', image: { reference: 'registry.example/models:v1' } }],
    },
  }
  const restricted = (version: '1.31' | '1.32' | '1.33') =>
    PolicySet.build(
      instantiatePack(
        load('pod-security-restricted.yaml').map((object) => ({ object, source: { file: 'r' } })),
        version,
      ).map((o) => o.object),
      { version, builtins: false },
    )
  it.each(['1.31', '1.32'] as const)('%s: an image volume is a restricted volume type "unknown"', (version) => {
    expect(restricted(version).validate(imageVolumePod).warnings).toContainEqual(
      expect.stringContaining('restricted volume types (volume "models" uses restricted volume type "unknown")'),
    )
  })
  it('1.33: an image volume is allowed', () => {
    expect(restricted('1.33').validate(imageVolumePod).warnings).toEqual([])
  })
})
