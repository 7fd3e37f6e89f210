import { spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/bin/program.js'
import { check } from '../../src/check/index.js'

// Hostile inputs of the CLI (issue 25, "The CLI"): each case failed before its fix.

const dir = mkdtempSync(join(tmpdir(), 'kelp-hostile-'))
const write = (name: string, text: string): string => {
  const p = join(dir, name)
  writeFileSync(p, text)
  return p
}
const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`

describe('input-sized arrays are never spread into a call', () => {
  it('an --old revision with 150,000 unreadable documents is reported, not a stack overflow', () => {
    // each document is not an object: one diagnostic each, all pushed into the report's diagnostics
    const old = write('old-bad.yaml', '---\n1\n'.repeat(150_000))
    const input = write('one.yaml', configMap('a'))
    const r = check({ paths: [input], old: [old], kubeVersion: '1.37', pack: 'off' })
    expect(r.diagnostics.filter((d) => d.message === 'document is not an object (number)').length).toBe(150_000)
    expect(r.objects.length).toBe(1)
  })
})

describe("kelp test: a suite field of the wrong type is the suite's error (exit 2), named with its file", () => {
  const run = async (name: string, body: string) => {
    const file = write(name, `apiVersion: kelp.dev/v1alpha1\nkind: PolicyTest\nmetadata: {name: s}\n${body}`)
    const out: string[] = []
    const err: string[] = []
    const code = await main(['test', file], { out: (x) => out.push(x), err: (x) => err.push(x) })
    return { code, out: out.join('\n'), file }
  }
  const test = 'tests:\n- name: t\n  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n  expect: admit\n'
  it.each([
    ['tests: 5\n', 'tests: must be a list of tests, not a number (5)'],
    ['tests: [5]\n', 'tests[0]: must be a mapping (one test), not a number (5)'],
    ['tests: {a: 1}\n', 'tests: must be a list of tests, not a mapping'],
    ['policies: p.yaml\n', 'policies: must be a list of strings, not a string ("p.yaml")'],
    ['resources: [1]\n', 'resources[0]: must be a string, not a number (1)'],
    ['tests:\n- object: [1]\n  expect: admit\n', 'tests[0].object: must be a mapping, not a list'],
    [
      'tests:\n- resource: Pod\n  expect: admit\n',
      'tests[0].resource: must be a mapping (kind, name, namespace), not a string ("Pod")',
    ],
    [`${test}  warnings: "2"\n`, 'tests[0].warnings: must be a count (0, 1, …), not a string ("2")'],
    [`${test}  message: [a]\n`, 'tests[0].message: must be a string, not a list'],
    [`${test}  operation: PATCH\n`, 'tests[0].operation: must be CREATE, UPDATE or DELETE, not a string ("PATCH")'],
    [`${test}  userInfo: {groups: dev}\n`, 'tests[0].userInfo.groups: must be a list of strings, not a string ("dev")'],
    [`${test}  kubeVersions: [1]\n`, 'tests[0].kubeVersions: must be a string (">=1.34", "<1.37", "1.36"), not a list'],
  ])('%j', async (body, message) => {
    const r = await run('suite.kelp-test.yaml', body)
    expect(r.code).toBe(2)
    expect(r.out).toContain(`ERROR ${r.file}: ${r.file}: ${message}`)
  })

  it('empty lists are no entries, not a type error (a suite that then loads no policy fails: issue 26)', async () => {
    const r = await run('ok.kelp-test.yaml', `policies:\nresources:\n${test}`)
    expect(r.out).toContain(`ERROR ${r.file}: ${r.file}: loads no policy (policies lists no file)`)
    expect(r.code).toBe(2)
  })
})

describe('kelp eval prints values of any depth', () => {
  const run = async (...argv: string[]) => {
    const out: string[] = []
    const err: string[] = []
    const code = await main(['eval', ...argv], { out: (x) => out.push(x), err: (x) => err.push(x) })
    return { code, out: out.join('\n'), err: err.join('\n') }
  }
  it('a 20,000-deep list and map from --set', async () => {
    const d = 20_000
    const list = await run('self', '-s', `self=${'['.repeat(d)}${']'.repeat(d)}`)
    expect(list).toEqual({ code: 0, out: `${'['.repeat(d)}${']'.repeat(d)} : list`, err: '' })
    const map = await run('self', '-s', `self=${'{"a":'.repeat(d)}1${'}'.repeat(d)}`)
    expect(map).toEqual({ code: 0, out: `${'{"a": '.repeat(d)}1${'}'.repeat(d)} : map`, err: '' })
  })

  it('a file as deep as kubectl reads JSON (encoding/json: 10,000 levels), and one level more refused in its words', async () => {
    const ok = write('deep.json', `${'{"a":'.repeat(9_999)}[1]${'}'.repeat(9_999)}`)
    expect(await run('self', '-f', `self=${ok}`)).toEqual({
      code: 0,
      out: `${'{"a": '.repeat(9_999)}[1]${'}'.repeat(9_999)} : map`,
      err: '',
    })
    const deep = write('deeper.json', `${'{"a":'.repeat(10_001)}1${'}'.repeat(10_001)}`)
    expect(await run('self', '-f', `self=${deep}`)).toEqual({
      code: 2,
      out: '',
      // kubectl's reading of the same text: encoding/json's error on the 10,001st `{`, at its byte offset
      err: `kelp: ${deep}:1: json: offset 50001: invalid character '{' exceeded max depth`,
    })
  })
})

describe('directories are walked as kubectl apply -R -f walks them', () => {
  it('reads dot-files and dot-directories, .git included; extensions matched exactly, from the last dot', () => {
    // cli-runtime 1.37 visitor.go ExpandPathsToFileVisitors: filepath.Walk skips nothing by name; ignoreFile
    // compares filepath.Ext (from the last dot, case-sensitive) with builder.go FileExtensions
    const tree = mkdtempSync(join(tmpdir(), 'kelp-dots-'))
    const put = (rel: string, name: string) => {
      mkdirSync(join(tree, rel, '..'), { recursive: true })
      writeFileSync(join(tree, rel), configMap(name))
    }
    put('.hidden.yaml', 'hidden')
    put('.yaml', 'only-extension')
    put('.github/workflows/ci.yml', 'in-dot-dir')
    put('.git/x.json', 'in-git')
    put('a.yaml', 'plain')
    put('b.YAML', 'upper-case')
    put('c.yaml.bak', 'backup')
    put('.d/e/f.json', 'nested')
    const r = check({ paths: [tree], kubeVersion: '1.37', pack: 'off' })
    expect(r.objects.map((o) => `${o.source.file.slice(tree.length + 1)} ${o.name}`)).toEqual([
      '.d/e/f.json nested',
      '.git/x.json in-git',
      '.github/workflows/ci.yml in-dot-dir',
      '.hidden.yaml hidden',
      '.yaml only-extension',
      'a.yaml plain',
    ])
    // a file named explicitly is read whatever its extension
    expect(check({ paths: [join(tree, 'b.YAML')], kubeVersion: '1.37', pack: 'off' }).objects[0]?.name).toBe(
      'upper-case',
    )
  })
})

describe('text for a terminal shows control characters from the input as \\xNN', () => {
  it('kelp test: test names and failures', async () => {
    // a suite must load a policy (issue 26): one that matches nothing here
    write(
      'esc-policy.yaml',
      'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [secrets]}]}\n  validations: [{expression: "false"}]\n',
    )
    const file = write(
      'esc.kelp-test.yaml',
      'apiVersion: kelp.dev/v1alpha1\nkind: PolicyTest\nmetadata: {name: "s\\e[2J"}\npolicies: [esc-policy.yaml]\ntests:\n- name: "t\\a"\n  object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n  expect: deny\n',
    )
    const out: string[] = []
    await main(['test', file], { out: (x) => out.push(x), err: (x) => out.push(x) })
    expect(out.join('\n')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/)
    expect(out[0]).toBe('FAIL s\\x1b[2J › t\\x07: expected deny, got admit')
  })

  it('kelp eval: a CEL error quoting the input', async () => {
    const out: string[] = []
    const err: string[] = []
    const code = await main(['eval', 'self["\\u001b[31m"]', '-s', 'self={}'], {
      out: (x) => out.push(x),
      err: (x) => err.push(x),
    })
    expect({ code, err }).toEqual({ code: 1, err: ['no such key: \\x1b[31m'] })
  })
})

describe('kubectl apply of objects over the apiserver size limits', () => {
  // Expected answers measured against kube-apiserver and kubectl 1.37.2 (`kubectl apply --dry-run=server` and
  // without dry-run: the same): kubectl adds the last-applied-configuration annotation, a copy of the object, so
  // past 256 KiB of JSON the annotations are too long (422) and past about 1.5 MiB the body is over 3 MiB (413)
  const findings = (name: string, object: Record<string, unknown>) => {
    const r = check({ paths: [write(name, JSON.stringify(object))], kubeVersion: '1.37', pack: 'off' })
    return r.objects.map((o) => ({ outcome: o.outcome, messages: o.findings.map((f) => `${f.reason}: ${f.message}`) }))
  }
  const pod = (name: string, value: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27', env: [{ name: 'BIG', value }] }] },
  })
  const configMap = (name: string, value: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, annotations: { a: 'x<y>&z é \u2028' } },
    data: { k: value },
  })
  const TOO_LARGE = ['RequestEntityTooLarge: Request entity too large: limit is 3145728']
  const ANNOTATIONS = ['Invalid: metadata.annotations: Too long: may not be more than 262144 bytes']

  it('a 2 MB and a 4 MB Pod: 413', () => {
    expect(findings('pod-2m.json', pod('pod-2m', 'a'.repeat(2_000_000)))).toEqual([
      { outcome: 'denied', messages: TOO_LARGE },
    ])
    expect(findings('pod-4m.json', pod('pod-4m', 'a'.repeat(4_000_000)))).toEqual([
      { outcome: 'denied', messages: TOO_LARGE },
    ])
  })

  it('a 300 KB Pod: the annotations are too long; 200 KB is created', () => {
    expect(findings('pod-300k.json', pod('pod-300k', 'a'.repeat(300_000)))).toEqual([
      { outcome: 'denied', messages: ANNOTATIONS },
    ])
    expect(findings('pod-200k.json', pod('pod-200k', 'a'.repeat(200_000)))).toEqual([
      { outcome: 'allowed', messages: [] },
    ])
  })

  it('the limits to the byte (Go escapes <, >, &, U+2028; non-ASCII counts its UTF-8 bytes)', () => {
    // the largest accepted and the smallest refused, found by bisection against the real apiserver
    const cm = (n: number) => configMap('edge', `${'é<'.repeat(500)}${'b'.repeat(n)}`)
    expect(findings('cm-ok.json', cm(257_924))).toEqual([{ outcome: 'allowed', messages: [] }])
    expect(findings('cm-bad.json', cm(257_925))).toEqual([{ outcome: 'denied', messages: ANNOTATIONS }])
    const body = (n: number) => pod('edgepod', `${'<&'.repeat(300)}${'v'.repeat(n)}`)
    expect(findings('body-ok.json', body(1_568_722))).toEqual([{ outcome: 'denied', messages: ANNOTATIONS }])
    expect(findings('body-bad.json', body(1_568_723))).toEqual([{ outcome: 'denied', messages: TOO_LARGE }])
  })

  it('an update (kubectl apply of a changed object: a patch carrying the new annotation and the changes)', () => {
    const update = (name: string, size: number) => {
      const old = write(`old-${name}.json`, JSON.stringify(configMap(name, 'small')))
      const r = check({
        paths: [write(`${name}.json`, JSON.stringify(configMap(name, 'a'.repeat(size))))],
        old: [old],
        kubeVersion: '1.37',
        pack: 'off',
      })
      return r.objects.map((o) => `${o.operation} ${o.findings.map((f) => `${f.reason}: ${f.message}`).join()}`)
    }
    expect(update('up-300k', 300_000)).toEqual([`UPDATE ${ANNOTATIONS[0]}`])
    // the real one: `error when applying patch: … error when patching "cm-2m.yaml": Request entity too large: …`
    expect(update('up-2m', 2_000_000)).toEqual([`UPDATE ${TOO_LARGE[0]}`])
  })

  it('a ConfigMap over both its own 1 MiB and the annotations: both causes, the annotations first', () => {
    expect(findings('cm-1400k.json', configMap('cm-1400k', 'a'.repeat(1_400_000)))).toEqual([
      {
        outcome: 'denied',
        messages: [...ANNOTATIONS, 'Invalid: []: Too long: may not be more than 1048576 bytes'],
      },
    ])
  })
})

describe('a large file is checked in bounded memory', () => {
  it('40 MiB of ConfigMaps within a 64 MiB heap (the built CLI)', () => {
    // before: the whole text as a Buffer and a string, and up to 50,000 objects held, ran out of heap (exit 134)
    const big = join(mkdtempSync(join(tmpdir(), 'kelp-big-')), 'big.yaml')
    const fd = openSync(big, 'w')
    const data = Array.from({ length: 30 }, (_, k) => `  key${k}: "${'x'.repeat(60)}"`).join('\n')
    let objects = 0
    for (let bytes = 0; bytes < 40 << 20; objects++)
      bytes += writeSync(fd, `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${objects}\ndata:\n${data}\n`)
    closeSync(fd)
    const cli = join(dirname(fileURLToPath(import.meta.url)), '../../dist/cli/kelp.cjs')
    const r = spawnSync(process.execPath, ['--max-old-space-size=64', cli, 'check', '-j', '1', big], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    })
    rmSync(dirname(big), { recursive: true })
    expect({ code: r.status, out: r.stdout.trim() }).toEqual({
      code: 0,
      out: `${objects} objects: ${objects} allowed, 0 denied, 0 warned; 0 errors`,
    })
  }, 120_000)
})

describe('a custom resource with more schema errors than the apiserver checks within its timeout', () => {
  // kube-apiserver 1.37.2 answered 30,000 and 100,000 wrongly typed items with its Timeout, which kubectl
  // prints as below; kelp used to spend minutes building the list (test/crd/schema-error-limit.test.ts)
  it('is the Timeout, in kubectl words', async () => {
    const crd = write(
      'widgets-crd.yaml',
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
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
            properties:
              items: {type: array, items: {type: object, properties: {name: {type: string}}}}
`,
    )
    const file = write(
      'widget-60k.json',
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w', namespace: 'default' },
        spec: { items: new Array(60_000).fill(0) },
      }),
    )
    const out: string[] = []
    const code = await main(['check', '-p', crd, file], { out: (x) => out.push(x), err: () => {} })
    expect(code).toBe(1)
    expect(out.join('\n')).toContain(
      `Error from server (Timeout): error when creating "${file}": Timeout: request did not complete within requested timeout - context deadline exceeded`,
    )
  })
})
