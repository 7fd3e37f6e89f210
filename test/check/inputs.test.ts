import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, renameSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { HOLD_BYTES } from '../../src/check/first-pass.js'
import { check } from '../../src/check/index.js'
import { checkParallel } from '../../src/check/parallel.js'

// kelp check's inputs as a new user meets them (issue 15): links in directories, empty inputs, the
// bundled pack beside --policies material, git revisions, inputs too large to hold. kubectl's words
// where kubectl has them (cli-runtime pkg/resource/visitor.go, kubectl apply's `no objects passed to
// apply`); each case failed before its fix.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

function kelp(args: string[], cwd: string, input?: string) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

type JsonReport = {
  objects: { name: string; kind: string; operation: string; outcome: string; findings: { message: string }[] }[]
  diagnostics: { level: string; message: string; rule: string; source?: { file: string } }[]
  summary: Record<string, number>
}
const json = (out: string) => JSON.parse(out) as JsonReport

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\ndata: {k: v}\n`
const PRIVILEGED_POD =
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team}\nspec:\n  containers:\n  - name: c\n    image: nginx:1.27\n    securityContext: {privileged: true}\n'

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

describe('kelp check: links in a directory', () => {
  it('a dangling link and a link loop are reported where they are; every other file is still checked', () => {
    const dir = tmp('kelp-links-')
    writeFileSync(join(dir, 'a.yaml'), cm('a'))
    writeFileSync(join(dir, 'z.yaml'), cm('z'))
    symlinkSync(join(dir, 'missing.yaml'), join(dir, 'dangling.yaml'))
    symlinkSync(join(dir, 'loop2.yaml'), join(dir, 'loop1.yaml'))
    symlinkSync(join(dir, 'loop1.yaml'), join(dir, 'loop2.yaml'))
    symlinkSync(join(dir, 'a.yaml'), join(dir, 'link.yaml')) // a link to a file is read through
    const r = kelp(['check', '.', '-o', 'json', '--pack', 'off'], dir)
    expect(r.code).toBe(2)
    const rep = json(r.out)
    expect(rep.objects.map((o) => o.name)).toEqual(['a', 'a', 'z'])
    // kubectl 1.37.2's words for the same walk (`kubectl apply -R -f .`): `open dangling.yaml: no such file or
    // directory`, `open loop1.yaml: too many levels of symbolic links` (Go's *PathError); kelp adds what a
    // dangling link is
    expect(rep.diagnostics.map((d) => [d.level, d.source?.file, d.message])).toEqual([
      [
        'error',
        'dangling.yaml',
        'open dangling.yaml: no such file or directory (a dangling symbolic link: its target does not exist)',
      ],
      ['error', 'loop1.yaml', 'open loop1.yaml: too many levels of symbolic links'],
      ['error', 'loop2.yaml', 'open loop2.yaml: too many levels of symbolic links'],
    ])
  })

  it('a link to a directory is not walked (as kubectl apply -R), so a link to a parent cannot loop; a note says so', () => {
    const dir = tmp('kelp-dirlink-')
    mkdirSync(join(dir, 'sub'))
    writeFileSync(join(dir, 'sub', 'a.yaml'), cm('a'))
    symlinkSync(dir, join(dir, 'sub', 'up'))
    const r = kelp(['check', '.', '-o', 'json', '--pack', 'off'], dir)
    expect(r.code).toBe(0)
    const rep = json(r.out)
    expect(rep.objects.map((o) => o.name)).toEqual(['a'])
    expect(rep.diagnostics.map((d) => [d.level, d.rule])).toEqual([['info', 'input/symlink']])
  })
})

describe('kelp check: a project root', () => {
  it('node_modules is not walked into (a note says so) and its JSON is neither an error nor a note; naming it checks it', () => {
    const dir = tmp('kelp-project-')
    mkdirSync(join(dir, 'k8s'))
    writeFileSync(join(dir, 'k8s', 'cm.yaml'), cm('a'))
    mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true })
    writeFileSync(join(dir, 'node_modules', 'dep', 'package.json'), '{"name": "dep"}')
    writeFileSync(join(dir, 'node_modules', 'dep', 'list.json'), '[1, 2]')
    writeFileSync(join(dir, 'node_modules', 'dep', 'cm.yaml'), cm('in-deps'))
    const r = kelp(['check', '.', '-o', 'json', '--pack', 'off'], dir)
    expect(r.code).toBe(0)
    const rep = json(r.out)
    expect(rep.objects.map((o) => o.name)).toEqual(['a'])
    expect(rep.diagnostics.map((d) => [d.level, d.rule, d.source?.file])).toEqual([
      ['info', 'input/skipped-directory', 'node_modules'],
    ])
    // named, it is walked as any directory: the list is an error there, as kubectl apply -f would refuse it
    const named = json(kelp(['check', 'node_modules', '-o', 'json', '--pack', 'off'], dir).out)
    expect(named.objects.map((o) => o.name)).toEqual(['in-deps'])
    expect(named.diagnostics.some((d) => d.level === 'error' && d.source?.file === 'node_modules/dep/list.json')).toBe(
      true,
    )
  })
})

describe("unreadable inputs in kubectl's words (issue 26)", () => {
  it('a path that does not exist: `the path "x" does not exist`, no errno code, no `:0`', () => {
    // kubectl 1.37.2: `kubectl apply -f missing.yaml` prints `error: the path "missing.yaml" does not exist`
    // (cli-runtime builder.go Path); a file the walk cannot open, Go's `open x: no such file or directory`
    const dir = tmp('kelp-missing-')
    const r = kelp(['check', 'missing.yaml', '--pack', 'off'], dir)
    expect(r.code).toBe(2)
    expect(r.out).toContain('missing.yaml: error: the path "missing.yaml" does not exist')
    expect(r.out).not.toMatch(/ENOENT|:0:/)
  })

  it('kelp test: a suite naming a missing policy file says which, with no `:0` position', () => {
    const dir = tmp('kelp-suite-missing-')
    writeFileSync(
      join(dir, 'a.kelp-test.yaml'),
      'apiVersion: kelp.dev/v1alpha1\nkind: PolicyTest\nmetadata: {name: s}\npolicies: [missing.yaml]\ntests: []\n',
    )
    const r = kelp(['test', 'a.kelp-test.yaml'], dir)
    expect(r.code).toBe(2)
    expect(r.out).toContain(`ERROR a.kelp-test.yaml: the path "${join(dir, 'missing.yaml')}" does not exist`)
    expect(r.out).not.toMatch(/ENOENT|:0:/)
  })
})

describe('kelp check: nothing to check', () => {
  it('an empty input is an error in kubectl apply’s words (exit 2), not a silent success', () => {
    const dir = tmp('kelp-empty-')
    writeFileSync(join(dir, 'empty.yaml'), '# nothing here\n---\n')
    const r = kelp(['check', 'empty.yaml'], dir)
    expect(r.code).toBe(2)
    expect(r.out).toContain('no objects passed to apply')
    const s = kelp(['check', '-', '-o', 'json'], dir, '')
    expect(s.code).toBe(2)
    expect(json(s.out).diagnostics[0]?.message).toMatch(/^no objects passed to apply/)
  })
})

describe('kelp check: a file of data documents, no manifest (manifestFile)', () => {
  it('is one note and no object whatever its size: 16 MiB and more is read in pieces, and judged as the whole', () => {
    const dir = tmp('kelp-data-')
    const doc = (i: number) => `name: item-${i}\nvalue: ${'x'.repeat(20)}\n---\n`
    writeFileSync(join(dir, 'small.yaml'), Array.from({ length: 100 }, (_, i) => doc(i)).join(''))
    // past STREAM_BYTES (16 MiB), several pieces of 4 MiB
    writeFileSync(join(dir, 'large.yaml'), Array.from({ length: 400_000 }, (_, i) => doc(i)).join(''))
    const rules = (file: string) => {
      const r = kelp(['check', file, '-o', 'json'], dir)
      const report = json(r.out)
      return { code: r.code, objects: report.objects.length, diagnostics: report.diagnostics.map((d) => d.rule) }
    }
    const small = rules('small.yaml')
    expect(small.diagnostics).toContain('input/not-a-manifest')
    expect(small.diagnostics).toHaveLength(2)
    expect(rules('large.yaml')).toEqual(small)
  })
})

describe('kelp check: the bundled pack beside --policies material', () => {
  it('Namespaces given with -p keep the pack (a privileged pod is denied); --pack off turns it off', () => {
    const dir = tmp('kelp-pack-')
    writeFileSync(join(dir, 'pod.yaml'), PRIVILEGED_POD)
    writeFileSync(join(dir, 'ns.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n')
    const r = kelp(['check', 'pod.yaml', '-p', 'ns.yaml', '-o', 'json'], dir)
    expect(json(r.out).objects[0]?.outcome).toBe('denied')
    expect(r.code).toBe(1)
    const off = kelp(['check', 'pod.yaml', '-p', 'ns.yaml', '-o', 'json', '--pack', 'off'], dir)
    expect(json(off.out).objects[0]?.outcome).toBe('allowed')
    expect(off.code).toBe(0)
  })

  it('own policies replace the pack by default; --pack add applies both', () => {
    const dir = tmp('kelp-pack-add-')
    writeFileSync(join(dir, 'pod.yaml'), PRIVILEGED_POD)
    writeFileSync(
      join(dir, 'policy.yaml'),
      [
        'apiVersion: admissionregistration.k8s.io/v1',
        'kind: ValidatingAdmissionPolicy',
        'metadata: {name: labels}',
        'spec:',
        '  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]}',
        '  validations: [{expression: "has(object.metadata.labels)", message: "labels required"}]',
        '---',
        'apiVersion: admissionregistration.k8s.io/v1',
        'kind: ValidatingAdmissionPolicyBinding',
        'metadata: {name: labels}',
        'spec: {policyName: labels, validationActions: [Warn]}',
        '',
      ].join('\n'),
    )
    const own = json(kelp(['check', 'pod.yaml', '-p', 'policy.yaml', '-o', 'json'], dir).out)
    expect(own.objects[0]?.outcome).toBe('warned')
    const both = json(kelp(['check', 'pod.yaml', '-p', 'policy.yaml', '-o', 'json', '--pack', 'add'], dir).out)
    expect(both.objects[0]?.outcome).toBe('denied')
    expect(both.objects[0]?.findings.some((f) => f.message.includes("'labels'"))).toBe(true)
  })

  it('--help shows the pack modes and the default', () => {
    const r = kelp(['check', '--help'], root)
    expect(r.out.replace(/\s+/g, ' ')).toMatch(
      /--pack <mode> .*\(choices: "auto", "add", "replace", "off", default: "auto"\)/,
    )
  })
})

describe('kelp check --base: git revisions', () => {
  const repo = () => {
    const dir = tmp('kelp-git-')
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir })
    git('init', '-q')
    return { dir, git }
  }

  it('an unknown revision exits 2 naming it; git’s own error output does not leak to stderr', () => {
    const { dir, git } = repo()
    writeFileSync(join(dir, 'a.yaml'), cm('a'))
    git('add', '.')
    git('commit', '-qm', 'one')
    const r = kelp(['check', '.', '--base', 'nosuchrev', '--pack', 'off'], dir)
    expect(r.code).toBe(2)
    expect(r.err.trim()).toBe(`kelp: --base: unknown revision 'nosuchrev' in ${dir} (no such revision)`)
    // an option-looking revision is a revision, not an option to git
    const o = kelp(['check', '.', '--base=--output=/tmp/x', '--pack', 'off'], dir)
    expect(o.code).toBe(2)
    expect(o.err).toMatch(/^kelp: --base: unknown revision '--output=\/tmp\/x'/)
  })

  it('not a git work tree: exit 2 with one line', () => {
    const dir = tmp('kelp-nogit-')
    writeFileSync(join(dir, 'a.yaml'), cm('a'))
    const r = kelp(['check', 'a.yaml', '--base', 'HEAD', '--pack', 'off'], dir)
    expect(r.code).toBe(2)
    expect(r.err.trim()).toBe('kelp: --base: a.yaml is not in a git work tree')
  })

  it('a renamed file’s object stays an UPDATE (matched by identity across the tree, as --old)', () => {
    const { dir, git } = repo()
    mkdirSync(join(dir, 'deploy'))
    writeFileSync(join(dir, 'deploy', 'old-name.yaml'), cm('moved'))
    git('add', '.')
    git('commit', '-qm', 'one')
    renameSync(join(dir, 'deploy', 'old-name.yaml'), join(dir, 'deploy', 'new-name.yaml'))
    writeFileSync(join(dir, 'deploy', 'added.yaml'), cm('added'))
    const r = kelp(['check', 'deploy', '--base', 'HEAD', '-o', 'json', '--pack', 'off'], dir)
    expect(r.code).toBe(0)
    const by = Object.fromEntries(json(r.out).objects.map((o) => [o.name, o.operation]))
    expect(by).toEqual({ added: 'CREATE', moved: 'UPDATE' })
    // a single file input: the old revision is read from its directory
    const one = kelp(['check', 'deploy/new-name.yaml', '--base', 'HEAD', '-o', 'json', '--pack', 'off'], dir)
    expect(json(one.out).objects[0]?.operation).toBe('UPDATE')
  })
})

describe('kelp check: inputs too large to hold', () => {
  const policy = [
    'apiVersion: admissionregistration.k8s.io/v1',
    'kind: ValidatingAdmissionPolicy',
    'metadata: {name: limit}',
    'spec:',
    '  paramKind: {apiVersion: v1, kind: ConfigMap}',
    '  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [secrets]}]}',
    '  validations: [{expression: "object.metadata.name != params.data.forbidden", message: "forbidden name"}]',
    '---',
    'apiVersion: admissionregistration.k8s.io/v1',
    'kind: ValidatingAdmissionPolicyBinding',
    'metadata: {name: limit}',
    'spec: {policyName: limit, validationActions: [Deny], paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}}',
    '',
  ].join('\n')

  it('past the held limit the inputs are read again: the same answers, params found in the later pass', () => {
    const dir = tmp('kelp-large-')
    const docs: string[] = [policy]
    for (let i = 0; i < 40; i++) docs.push(`apiVersion: v1\nkind: Secret\nmetadata: {name: s${i}}\n`)
    // the param comes last, after the limit is passed
    docs.push('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: limits, namespace: default}\ndata: {forbidden: s7}\n')
    writeFileSync(join(dir, 'all.yaml'), docs.join('---\n'))
    const held = check({ paths: [join(dir, 'all.yaml')], kubeVersion: '1.36', pack: 'off' })
    const streamed = check({ paths: [join(dir, 'all.yaml')], kubeVersion: '1.36', pack: 'off', holdObjects: 10 })
    expect(streamed.summary).toEqual(held.summary)
    expect(streamed.summary).toMatchObject({ objects: 41, denied: 1, allowed: 40 })
    expect(streamed.objects.find((o) => o.outcome === 'denied')?.name).toBe('s7')
  })

  it("keep: 'findings' keeps only the results with findings; the summary counts all", () => {
    const dir = tmp('kelp-keep-')
    writeFileSync(join(dir, 'all.yaml'), [policy, cm('x'), cm('z')].join('---\n'))
    const r = check({ paths: [join(dir, 'all.yaml')], kubeVersion: '1.36', pack: 'off' }, 'findings')
    expect(r.objects).toEqual([])
    expect(r.summary.objects).toBe(2)
  })
})

describe('kelp check: a million-document scale in bounded memory', () => {
  it('120,000 documents in one file are checked with a 96 MiB heap (objects streamed, not held)', () => {
    const dir = tmp('kelp-bounded-')
    const parts: string[] = []
    for (let i = 0; i < 120_000; i++) parts.push(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c${i}}\n`)
    writeFileSync(join(dir, 'many.yaml'), parts.join('---\n'))
    const r = spawnSync(process.execPath, ['--max-old-space-size=96', cli, 'check', 'many.yaml', '--pack', 'off'], {
      cwd: dir,
      encoding: 'utf8',
    })
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe('120000 objects: 120000 allowed, 0 denied, 0 warned; 0 errors')
    expect(r.status).toBe(0)
  })
})

describe('kelp check: a large input is announced before it is read', () => {
  // the CLI collects garbage sooner then (src/cli/commands.ts collectSooner): the run holds no object
  it('onLargeInput is called once for inputs of more than HOLD_BYTES, not for smaller ones', () => {
    const dir = tmp('kelp-large-')
    // a sparse file: its size is the input's, its bytes (NULs) are no YAML (one error, read quickly)
    const big = join(dir, 'big.yaml')
    writeFileSync(big, '')
    truncateSync(big, HOLD_BYTES + 1)
    writeFileSync(join(dir, 'small.yaml'), cm('x'))
    const calls: string[] = []
    const big1 = check({ paths: [big], kubeVersion: '1.36', pack: 'off', onLargeInput: () => calls.push('big') })
    check({
      paths: [join(dir, 'small.yaml')],
      kubeVersion: '1.36',
      pack: 'off',
      onLargeInput: () => calls.push('small'),
    })
    expect(calls).toEqual(['big'])
    expect(big1.diagnostics.filter((d) => d.level === 'error')).toHaveLength(1)
  })

  it('standard input is announced once, as soon as more than HOLD_BYTES have come', async () => {
    const calls: string[] = []
    async function* nuls() {
      for (let sent = 0; sent <= HOLD_BYTES; sent += 1 << 16) yield Buffer.alloc(1 << 16)
      // announced before the rest comes
      expect(calls).toEqual(['large'])
      yield Buffer.alloc(1 << 16)
    }
    const r = await checkParallel(
      { paths: ['-'], kubeVersion: '1.36', pack: 'off', stdinStream: nuls(), onLargeInput: () => calls.push('large') },
      1,
    )
    expect(calls).toEqual(['large'])
    expect(r.diagnostics.filter((d) => d.level === 'error')).toHaveLength(1)
  })
})

describe('kelp check: the bundled pack follows the target release', () => {
  // PodSecurity check_sysctls.go: net.ipv4.tcp_slow_start_after_idle is allowed from 1.37 (master at
  // v0.37.0-alpha.2); the restricted pass fixture test/testdata/baseline/v1.37/pass/sysctls1.yaml sets it
  const pod =
    'apiVersion: v1\nkind: Pod\nmetadata: {name: s, namespace: default}\nspec:\n  securityContext:\n    sysctls: [{name: net.ipv4.tcp_slow_start_after_idle, value: "0"}]\n  containers: [{name: c, image: nginx:1.27}]\n'
  it('a sysctl PodSecurity allows from 1.37 is denied by the 1.36 pack and allowed by the 1.37 pack', () => {
    const dir = tmp('kelp-release-')
    writeFileSync(join(dir, 'pod.yaml'), pod)
    const at = (v: string) => json(kelp(['check', 'pod.yaml', '--kube-version', v, '-o', 'json'], dir).out).objects[0]
    expect(at('1.36')?.outcome).toBe('denied')
    expect(at('1.36')?.findings.find((f) => f.message.includes('sysctl'))?.message).toContain(
      'forbidden sysctls (net.ipv4.tcp_slow_start_after_idle)',
    )
    expect(at('1.37')?.findings.filter((f) => f.message.includes('sysctl'))).toEqual([])
    // the restricted file alone, from -p, is instantiated for the release too
    const alone = (v: string) =>
      json(
        kelp(
          [
            'check',
            'pod.yaml',
            '-p',
            join(root, 'policies/pod-security-restricted.yaml'),
            '--kube-version',
            v,
            '-o',
            'json',
          ],
          dir,
        ).out,
      ).objects[0]?.findings.filter((f) => f.message.includes('sysctl')).length
    expect(alone('1.36')).toBe(1)
    expect(alone('1.37')).toBe(0)
  })

  it('a baseline violation is denied once by the default pack, with no restricted warning beside it', () => {
    const dir = tmp('kelp-once-')
    writeFileSync(join(dir, 'pod.yaml'), PRIVILEGED_POD)
    const r = json(kelp(['check', 'pod.yaml', '-o', 'json'], dir).out).objects[0]
    expect(r?.findings.filter((f) => f.message.includes('privileged')).length).toBe(1)
    expect(r?.outcome).toBe('denied')
  })
})

describe('kelp check --jobs', () => {
  it('worker threads (the bundled check worker) give the same report as one thread', () => {
    const dir = tmp('kelp-jobs-')
    const docs = Array.from({ length: 8 }, (_, i) => PRIVILEGED_POD.replace('name: p,', `name: p${i},`))
    writeFileSync(join(dir, 'pods.yaml'), docs.join('---\n'))
    const one = json(kelp(['check', 'pods.yaml', '-o', 'json', '--jobs', '1'], dir).out)
    const two = json(kelp(['check', 'pods.yaml', '-o', 'json', '--jobs', '2'], dir).out)
    expect(two).toEqual(one)
    expect(one.summary).toMatchObject({ objects: 8, denied: 8 })
  })
})

describe('kelp check --old with -n', () => {
  // the stored previous revision is in the namespace its write was made in (the apiserver fills an object's
  // empty namespace from the request: rest.EnsureObjectNamespaceMatchesRequestNamespace), so an update of
  // a manifest without a namespace is not a change of metadata.namespace (differential corpus case)
  it('an UPDATE of a namespace-less custom resource under -n is not an immutable-namespace error', () => {
    const dir = tmp('kelp-oldns-')
    writeFileSync(
      join(dir, 'crd.yaml'),
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}\n',
    )
    writeFileSync(
      join(dir, 'old.yaml'),
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 1}\n',
    )
    writeFileSync(
      join(dir, 'new.yaml'),
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 2}\n',
    )
    const r = json(
      kelp(['check', 'new.yaml', '--old', 'old.yaml', '-p', 'crd.yaml', '-n', 'team', '-o', 'json'], dir).out,
    )
    expect(r.objects.map((o) => [o.operation, o.outcome])).toEqual([['UPDATE', 'allowed']])
  })
})
