import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configFor, findConfig, loadConfig } from '../../src/cli/config.js'
import { UsageError } from '../../src/report/usage.js'

// .kelp.yaml read by src/cli/config.ts: found upward up to a git root, every mistake refused as a usage error
// (exit 2) naming the file, line, column and key, hostile files refused quickly.

const root = mkdtempSync(join(tmpdir(), 'kelp-config-'))
let n = 0
/** A fresh directory with a .kelp.yaml holding `text`; returns the file. */
function config(text: string | Buffer, name = '.kelp.yaml'): string {
  const dir = join(root, `c${n++}`)
  mkdirSync(dir)
  writeFileSync(join(dir, name), text)
  return join(dir, name)
}
const load = (text: string | Buffer) => {
  const file = config(text)
  return loadConfig(file, join(file, '..'))
}
const refusal = (text: string | Buffer): string => {
  try {
    load(text)
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError)
    return (e as Error).message
  }
  throw new Error('not refused')
}

describe('finding the file', () => {
  it('upward from a subdirectory; .kelp.yaml before .kelp.yml', () => {
    const dir = join(root, 'up')
    mkdirSync(join(dir, 'a/b/c'), { recursive: true })
    writeFileSync(join(dir, '.kelp.yml'), 'failOn: warn\n')
    expect(findConfig(join(dir, 'a/b/c'))).toBe(join(dir, '.kelp.yml'))
    writeFileSync(join(dir, '.kelp.yaml'), 'failOn: audit\n')
    expect(findConfig(join(dir, 'a/b/c'))).toBe(join(dir, '.kelp.yaml'))
  })
  it('the search ends at a git root (after looking there)', () => {
    const dir = join(root, 'git')
    mkdirSync(join(dir, 'repo/.git'), { recursive: true })
    mkdirSync(join(dir, 'repo/sub'), { recursive: true })
    writeFileSync(join(dir, '.kelp.yaml'), 'failOn: warn\n')
    expect(findConfig(join(dir, 'repo/sub'))).toBeUndefined()
    writeFileSync(join(dir, 'repo/.kelp.yaml'), 'failOn: warn\n')
    expect(findConfig(join(dir, 'repo/sub'))).toBe(join(dir, 'repo/.kelp.yaml'))
  })
  it('--no-config reads none; --config names one', () => {
    const file = config('failOn: warn\n')
    expect(configFor(false, join(file, '..'))).toBeUndefined()
    expect(configFor(file, root)?.failOn).toBe('warn')
  })
})

describe('reading it', () => {
  it('every setting; paths relative to the file, given relative to the working directory', () => {
    const file = config(
      [
        '# yaml-language-server: $schema=../schemas/kelp-config.schema.json',
        'kubeVersion: "1.36"',
        'policies: [policies/]',
        'pack: add',
        'output: sarif',
        'failOn: warn',
        'paths: [deploy, .]',
        'exceptions:',
        '  - reason: legacy',
        '    expires: 2027-01-31',
        '    paths: ["deploy/legacy/**"]',
        '    kinds: [apps/v1/Deployment]',
        '    namespaces: [payments]',
        '    names: [web-*]',
        '    selector: team=payments',
        '    policies: [p]',
        '    rules: [admission/PodSecurity]',
        '',
      ].join('\n'),
    )
    const c = loadConfig(file, root)
    const dir = file.slice(root.length + 1, -'/.kelp.yaml'.length)
    expect(c).toMatchObject({
      kubeVersion: '1.36',
      policies: [`${dir}/policies`],
      pack: 'add',
      output: 'sarif',
      failOn: 'warn',
      paths: [`${dir}/deploy`, dir],
    })
    expect(c.exceptions).toEqual([
      {
        reason: 'legacy',
        expires: '2027-01-31',
        paths: ['deploy/legacy/**'],
        kinds: ['apps/v1/Deployment'],
        namespaces: ['payments'],
        names: ['web-*'],
        selector: 'team=payments',
        policies: ['p'],
        rules: ['admission/PodSecurity'],
        source: { file: `${dir}/.kelp.yaml`, line: 9, column: 5 },
      },
    ])
  })
  it('an empty file is an empty configuration', () => {
    expect(load('# nothing\n').exceptions).toEqual([])
  })
})

describe('mistakes: file, line, column and key', () => {
  it.each([
    [
      'polices: [a]\n',
      '.kelp.yaml:1:1: polices: unknown key (known: kubeVersion, policies, pack, output, failOn, paths, exceptions)',
    ],
    ['failOn: often\n', '.kelp.yaml:1:1: failOn: one of deny, warn, audit, none, not "often"'],
    [
      'kubeVersion: 1.30\n',
      '.kelp.yaml:1:1: kubeVersion: a non-empty string, not number 1.3 (quote it: "1.30" is not 1.3)',
    ],
    ['policies: p/\n', '.kelp.yaml:1:1: policies: a list of strings, not string "p/"'],
    ['paths: [a, 1]\n', '.kelp.yaml:1:12: paths[1]: a non-empty string, not number 1'],
    ['exceptions:\n- names: [a]\n', '.kelp.yaml:2:3: exceptions[0]: an exception needs a reason (why it is accepted)'],
    ['exceptions:\n- reason: ""\n', '.kelp.yaml:2:3: exceptions[0].reason: a non-empty string, not string ""'],
    [
      'exceptions:\n- reason: r\n  expires: soon\n',
      '.kelp.yaml:3:3: exceptions[0].expires: a date YYYY-MM-DD, not "soon"',
    ],
    [
      'exceptions:\n- reason: r\n  expires: 2026-02-30\n',
      '.kelp.yaml:3:3: exceptions[0].expires: a date YYYY-MM-DD, not "2026-02-30"',
    ],
    [
      'exceptions:\n- reason: r\n  selector: "a in (x"\n',
      `.kelp.yaml:3:3: exceptions[0].selector: not a label selector: unable to parse requirement: found '', expected: ')'`,
    ],
    ['exceptions:\n- reason: r\n  namspaces: [a]\n', '.kelp.yaml:3:3: exceptions[0].namspaces: unknown key'],
    ['exceptions: {reason: r}\n', '.kelp.yaml:1:1: exceptions: a list of exceptions, not a mapping'],
    ['- a\n', '.kelp.yaml:1:1: the configuration is a mapping of settings, not a list'],
    // go-yaml's words (kubectl: `yaml: line 1: did not find expected node content`, its parser's 0-based line of the
    // stream's end, which is on line 2)
    ['a: [\n', '.kelp.yaml:2:1: did not find expected node content'],
    ['failOn: warn\n---\nfailOn: deny\n', '.kelp.yaml:3: one YAML document, not several'],
  ])('%j', (text, message) => {
    expect(refusal(text)).toContain(message)
  })
})

describe('hostile files: a clear error, quickly', () => {
  const quick = (text: string | Buffer) => {
    const start = Date.now()
    const m = refusal(text)
    expect(Date.now() - start).toBeLessThan(3000)
    return m
  }
  it('a key __proto__ is an unknown key, at the top or in an exception', () => {
    expect(quick('__proto__: {failOn: none}\n')).toContain('.kelp.yaml:1:1: __proto__: unknown key')
    expect(quick('exceptions:\n- reason: r\n  __proto__: x\n')).toContain('exceptions[0].__proto__: unknown key')
    expect(({} as Record<string, unknown>).failOn).toBeUndefined()
  })
  it('a glob longer than 1,024 characters', () => {
    expect(quick(`exceptions:\n- reason: r\n  paths: ["${'**/'.repeat(400)}x"]\n`)).toContain(
      'exceptions[0].paths[0]: a glob of at most 1024 characters',
    )
  })
  it('more than 1,000 exceptions', () => {
    expect(quick(`exceptions:\n${'- reason: r\n'.repeat(1001)}`)).toContain(
      'exceptions: at most 1000 exceptions, not 1001',
    )
  })
  it('deeply nested YAML', () => {
    expect(quick(`exceptions: ${'['.repeat(20000)}${']'.repeat(20000)}\n`)).toMatch(/^.*\.kelp\.yaml:\d+(:\d+)?: /)
  })
  it('a 10 MB file is refused unread', () => {
    expect(quick(Buffer.alloc(10 << 20, 'a'))).toMatch(
      /\.kelp\.yaml: the configuration is 10485760 bytes, more than 1048576/,
    )
  })
  it('a directory given as the file', () => {
    expect(() => loadConfig(root, root)).toThrow(/not a file/)
  })
})
