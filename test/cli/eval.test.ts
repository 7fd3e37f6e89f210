import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/bin/program.js'

// `kelp eval`: one expression in the Kubernetes environment; value and CEL type on stdout, the error
// as cel-go words it on stderr; exit 1 on a CEL error, 2 on bad usage.
async function run(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(['eval', ...argv], { out: (s) => out.push(s), err: (s) => err.push(s) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const dir = mkdtempSync(join(tmpdir(), 'kelp-eval-'))
const deployment = join(dir, 'deploy.yaml')
writeFileSync(
  deployment,
  'apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - image: nginx:1.27\n',
)
const broken = join(dir, 'broken.yaml')
writeFileSync(broken, 'spec:\n  replicas: [1,\n')
const rules = join(dir, 'rules.yaml')
writeFileSync(rules, '- verb: get\n  resource: pods\n  decision: allow\n  reason: test rule\n')

describe('kelp eval', () => {
  it('prints the value with its CEL type', async () => {
    expect(await run('1 + 2')).toEqual({ code: 0, out: '3 : int', err: '' })
    expect((await run("'a' + 'b'")).out).toBe('"ab" : string')
    expect((await run('[1, 2].map(x, x * 2)')).out).toBe('[2, 4] : list(int)')
    // dyn values print their run-time type
    expect((await run('x', '-s', 'x={"a": 1}')).out).toBe('{"a": 1} : map')
  })
  it('binds variables from YAML files and JSON values', async () => {
    expect((await run('object.spec.replicas > 2', '-f', `object=${deployment}`)).out).toBe('true : bool')
    expect(
      (await run("object.spec.template.spec.containers.all(c, c.image.contains(':'))", '-f', `object=${deployment}`))
        .out,
    ).toBe('true : bool')
    expect((await run('self.size()', '-s', 'self=[1,2,3]')).out).toBe('3 : int')
  })
  it('a CEL error exits 1 with cel-go words', async () => {
    expect(await run('1 / 0')).toMatchObject({ code: 1, err: 'division by zero' })
    const r = await run('1 +')
    expect(r.code).toBe(1)
    expect(r.err).toContain('ERROR: <input>:1:4: Syntax error:')
  })
  it('bad usage exits 2 (bad file, bad version, bad binding)', async () => {
    expect((await run('1', '--kube-version', '9.9')).code).toBe(2)
    expect((await run('1', '-f', `x=${join(dir, 'missing.yaml')}`)).code).toBe(2)
    const b = await run('1', '-f', `x=${broken}`)
    expect(b.code).toBe(2)
    expect(b.err).toContain(`${broken}:`)
    expect((await run('1', '-s', 'x={nope')).code).toBe(2)
  })
  it('refuses a file of several documents instead of binding the first (issue 26)', async () => {
    const multi = join(dir, 'multi.yaml')
    writeFileSync(multi, 'a: 1\n---\n# only a comment\n---\na: 2\n---\na: 3\n')
    const r = await run('object.a', '-f', `object=${multi}`)
    expect(r).toEqual({
      code: 2,
      out: '',
      err: `kelp: ${multi}: 3 YAML documents; a variable is bound to one (give a file with one document)`,
    })
    // empty documents around one value are still one document
    const one = join(dir, 'one.yaml')
    writeFileSync(one, '---\n---\na: 7\n---\n')
    expect((await run('object.a', '-f', `object=${one}`)).out).toBe('7 : int')
  })
  it('--kube-version selects the environment (library.IP arrives for new expressions in 1.31)', async () => {
    expect((await run("ip('10.0.0.1').family()", '--kube-version', '1.30')).code).toBe(1)
    expect((await run("ip('10.0.0.1').family()", '--kube-version', '1.30', '--stored')).out).toBe('4 : int')
    expect((await run("ip('10.0.0.1').family()", '--kube-version', '1.31')).out).toBe('4 : int')
  })
  it('the authorizer answers from a rules file, else with the documented default (no opinion)', async () => {
    expect(
      (await run("authorizer.group('').resource('pods').check('get').allowed()", '--authz-rules', rules)).out,
    ).toBe('true : bool')
    expect(
      (await run("authorizer.group('').resource('pods').check('delete').allowed()", '--authz-rules', rules)).out,
    ).toBe('false : bool')
    expect((await run("authorizer.group('').resource('pods').check('get').allowed()")).out).toBe('false : bool')
  })
  it('--cost prints the run-time cost', async () => {
    expect((await run("'abc'.startsWith('a')", '--cost')).out).toBe('true : bool\ncost: 1')
  })
})
