import { describe, expect, it } from 'vitest'
import { Excepter, type ExceptionSpec } from '../../src/check/exceptions.js'
import { nameGlob, pathGlob } from '../../src/check/glob.js'
import { check } from '../../src/check/index.js'
import { parseSelector } from '../../src/kube/labels-parse.js'
import { exitCode, type Report } from '../../src/report/model.js'

// Exceptions (src/check/exceptions.ts) below the faces: the globs, the label selector text (expected values from
// apimachinery pkg/labels/selector_test.go: TestSelectorParse, TestSelectorMatches, TestSetSelectorParser), and
// which findings an exception excepts.

describe('label selectors as text (apimachinery pkg/labels/selector_test.go)', () => {
  // TestSelectorParse testGoodStrings: parsed, and printed back without spaces
  it.each(['x=a,y=b,z=c', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])('parses %j', (s) => {
    expect(parseSelector(s).toString()).toBe(s.replace(/ /g, ''))
  })
  // TestSelectorParse testBadStrings and TestSetSelectorParser's invalid ones
  it.each([
    'x=a||y=b',
    'x==a==b',
    '!x=a',
    'x<a',
    'x,,y',
    ',x,y',
    'x nott in (y)',
    'a in (xyz),',
    'a in (xyz)b notin ()',
    'a in (xyz abc)',
    'a notin(',
    'a (',
    '(',
  ])('refuses %j', (s) => {
    expect(() => parseSelector(s)).toThrow()
  })
  // TestSetSelectorParser: the requirements as String() prints them (sorted by key)
  it.each([
    ['x in (abc,)', 'x in (,abc)'],
    ['x in ()', 'x in ()'],
    ['x notin (abc,,def),bar,z in (),w', 'bar,w,x notin (,abc,def),z in ()'],
    ['x notin (, a)', 'x notin (,a)'],
    ['a in (x,y,notin, z,in)', 'a in (in,notin,x,y,z)'],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)'],
  ])('parses %j as %j', (s, printed) => {
    expect(parseSelector(s).toString()).toBe(printed)
  })
  // TestSelectorMatches
  it.each([
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x', { x: 'z' }, true],
    ['!x', { y: 'z' }, true],
    ['x>1', { x: '2' }, true],
    ['x<1', { x: '0' }, true],
    ['x=z', {}, false],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['x', { y: 'z' }, false],
    ['!x', { x: 'z' }, false],
    ['x>1', { x: '0' }, false],
    ['x<1', { x: '2' }, false],
  ])('%j matches %j: %s', (s, labels, want) => {
    expect(parseSelector(s).matches(labels)).toBe(want)
  })
})

describe('globs', () => {
  it.each([
    ['deploy/*.yaml', 'deploy/web.yaml', true],
    ['deploy/*.yaml', 'deploy/a/web.yaml', false],
    ['deploy/**', 'deploy/a/b/web.yaml', true],
    ['**/legacy/*.yaml', 'legacy/x.yaml', true],
    ['**/legacy/*.yaml', 'a/b/legacy/x.yaml', true],
    ['**/legacy/*.yaml', 'a/b/legacy/c/x.yaml', false],
    ['deploy/w?b.yaml', 'deploy/web.yaml', true],
    ['deploy/w?b.yaml', 'deploy/w/b.yaml', false],
    ['./deploy//web.yaml', 'deploy/web.yaml', true],
  ])('%j matches %j: %s', (g, p, want) => {
    expect(pathGlob(g).matches(p)).toBe(want)
  })
  it('names: * matches any run of characters', () => {
    expect(nameGlob('web-*').matches('web-canary')).toBe(true)
    expect(nameGlob('web-*').matches('api-web-1')).toBe(false)
  })
  it('hostile patterns cost at most the product of the lengths (no backtracking)', () => {
    const start = Date.now()
    const deep = pathGlob(`${'**/'.repeat(300)}x`)
    const stars = nameGlob(`${'*a'.repeat(500)}b`)
    expect(deep.matches(`${'d/'.repeat(2000)}y`)).toBe(false)
    expect(stars.matches('a'.repeat(5000))).toBe(false)
    expect(Date.now() - start).toBeLessThan(2000)
  })
})

// A policy of our own that denies every ConfigMap without label `ok`, and one that warns on every ConfigMap
const policies = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: need-ok}
spec:
  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}]}
  validations: [{expression: "has(object.metadata.labels) && 'ok' in object.metadata.labels", message: no ok label}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: need-ok}
spec: {policyName: need-ok, validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: say-hi}
spec:
  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}]}
  validations: [{expression: "false", message: hi}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: say-hi}
spec: {policyName: say-hi, validationActions: [Warn]}
`
const cm = (name: string, extra = '') =>
  `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: team-a\n  labels: {app: ${name}}\n${extra}`

function run(text: string, list: ExceptionSpec[] = [], today = '2026-06-01'): Report {
  return check({
    paths: ['-'],
    stdin: () => policies + text,
    kubeVersion: '1.37',
    exceptions: { list, base: process.cwd(), today },
  })
}

describe('exceptions applied to findings', () => {
  it('without exceptions the ConfigMap is denied and warned (the precondition of the cases below)', () => {
    const r = run(cm('web'))
    expect(r.objects[0]?.findings.map((f) => `${f.level} ${f.policy}`)).toEqual(['deny need-ok', 'warn say-hi'])
    expect(r.objects[0]?.excepted).toBeUndefined()
    expect(r.summary.excepted).toBeUndefined()
  })
  it('an exception with no policy excepts Deny and Warn alike; the object is allowed, the exit code 0', () => {
    const r = run(cm('web'), [{ reason: 'accepted', names: ['web'] }])
    const o = r.objects[0]!
    expect(o.outcome).toBe('allowed')
    expect(o.findings).toEqual([])
    expect(o.excepted?.map((f) => `${f.level} ${f.policy} ${f.exception?.reason}`)).toEqual([
      'deny need-ok accepted',
      'warn say-hi accepted',
    ])
    expect(r.summary.excepted).toBe(2)
    expect(r.summary.allowed).toBe(1)
    expect(exitCode(r, 'warn')).toBe(0)
  })
  it('policies narrow it to those policies', () => {
    const o = run(cm('web'), [{ reason: 'r', policies: ['say-hi'] }]).objects[0]!
    expect(o.outcome).toBe('denied')
    expect(o.findings.map((f) => f.policy)).toEqual(['need-ok'])
    expect(o.excepted?.map((f) => f.policy)).toEqual(['say-hi'])
  })
  it('rules name findings by rule id', () => {
    const o = run(cm('web'), [{ reason: 'r', rules: ['vap/need-ok'] }]).objects[0]!
    expect(o.outcome).toBe('warned')
    expect(o.excepted?.map((f) => f.rule)).toEqual(['vap/need-ok'])
  })
  it.each<[string, Partial<ExceptionSpec>, boolean]>([
    ['kind', { kinds: ['ConfigMap'] }, true],
    ['kind with its core version', { kinds: ['v1/ConfigMap'] }, true],
    ['kind with its apiVersion', { kinds: ['apps/v1/ConfigMap'] }, false],
    ['another kind', { kinds: ['Secret'] }, false],
    ['namespace', { namespaces: ['team-a'] }, true],
    ['another namespace', { namespaces: ['team-b'] }, false],
    ['name glob', { names: ['we*'] }, true],
    ['another name', { names: ['api'] }, false],
    ['label selector', { selector: 'app in (web,api)' }, true],
    ['label selector not met', { selector: 'app!=web' }, false],
    ['a path (stdin has none)', { paths: ['**'] }, false],
    ['every criterion must match', { names: ['web'], namespaces: ['team-b'] }, false],
  ])('%s', (_, criteria, excepted) => {
    const o = run(cm('web'), [{ reason: 'r', ...criteria }]).objects[0]!
    expect(o.excepted !== undefined).toBe(excepted)
  })
  it('an expired exception no longer applies and is a warning naming it; an unused one is a note', () => {
    const source = { file: '.kelp.yaml', line: 3, column: 5 }
    const r = run(
      cm('web'),
      [
        { reason: 'old', expires: '2026-05-31', source },
        { reason: 'today still', expires: '2026-06-01', names: ['nothing-here'] },
      ],
      '2026-06-01',
    )
    expect(r.objects[0]?.outcome).toBe('denied')
    expect(r.diagnostics.filter((d) => d.type === 'config').map((d) => [d.level, d.rule, d.message, d.source])).toEqual(
      [
        ['warn', 'exception/expired', 'exception 1 ("old") expired on 2026-05-31: it no longer applies', source],
        [
          'info',
          'exception/unused',
          'exception 2 ("today still") excepted no finding: remove it if it is no longer needed',
          undefined,
        ],
      ],
    )
    // the day it names is still in it
    expect(run(cm('web'), [{ reason: 'x', expires: '2026-06-01' }], '2026-06-01').objects[0]?.outcome).toBe('allowed')
  })
  it('native validation is never excepted, even by an exception naming no policy or its rule', () => {
    const bad = `---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name, namespace: team-a, labels: {ok: "1"}}\n`
    const o = run(bad, [{ reason: 'r' }, { reason: 'r', rules: ['builtin/ConfigMap'] }]).objects[0]!
    expect(o.outcome).toBe('denied')
    expect(o.findings.some((f) => f.type === 'invalid' && f.level === 'deny')).toBe(true)
    // refused by validation before the policies run: nothing to except
    expect(o.excepted).toBeUndefined()
  })
})

describe('the kelp.dev/exceptions annotation', () => {
  const annotated = (value: string) => cm('web', `  annotations:\n    kelp.dev/exceptions: ${JSON.stringify(value)}\n`)
  it('excepts the policies it names, each with its reason', () => {
    const o = run(annotated('need-ok=legacy app, OPS-1\nvap/say-hi = quiet please')).objects[0]!
    expect(o.outcome).toBe('allowed')
    expect(o.excepted?.map((f) => [f.policy, f.exception])).toEqual([
      ['need-ok', { by: 'annotation', reason: 'legacy app, OPS-1' }],
      ['say-hi', { by: 'annotation', reason: 'quiet please' }],
    ])
  })
  it('a line without a reason excepts nothing and is noted (info: no verdict changes)', () => {
    const o = run(annotated('need-ok=\nsay-hi')).objects[0]!
    expect(o.outcome).toBe('denied')
    expect(o.excepted).toBeUndefined()
    expect(o.findings.filter((f) => f.rule === 'exception/annotation').map((f) => f.level)).toEqual(['info', 'info'])
  })
  it('a policy named __proto__ or constructor is data', () => {
    const o = run(annotated('__proto__=x\nconstructor=y\nneed-ok=z')).objects[0]!
    expect(o.excepted?.map((f) => f.policy)).toEqual(['need-ok'])
  })
  it('the annotation is sent with the object: the stored object keeps it', () => {
    const text = `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels: {ok: "1"}\n  annotations:\n    kelp.dev/exceptions: "say-hi=r"\n`
    const r = check(
      {
        paths: ['-'],
        stdin: () => policies + text,
        kubeVersion: '1.37',
        exceptions: { list: [], base: process.cwd() },
      },
      'stored',
    )
    expect(r.objects[0]?.outcome).toBe('allowed')
    expect(r.objects[0]?.excepted?.map((f) => f.policy)).toEqual(['say-hi'])
    const stored = r.objects[0]?.stored as { metadata: { annotations: Record<string, string> } }
    expect(stored.metadata.annotations['kelp.dev/exceptions']).toBe('say-hi=r')
  })
})

describe('Excepter on a result', () => {
  it('a clean result is returned as is (no cost for objects without findings)', () => {
    const r = {
      source: { file: 'a.yaml' },
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'a',
      operation: 'CREATE' as const,
      outcome: 'allowed' as const,
      findings: [],
    }
    expect(new Excepter({ list: [{ reason: 'r' }], base: '/' }).apply(r, {})).toBe(r)
  })
  it('an apiserver warning only by an exception naming its rule; an error never', () => {
    const r = {
      source: { file: 'a.yaml' },
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'a',
      operation: 'CREATE' as const,
      outcome: 'warned' as const,
      findings: [
        { level: 'warn' as const, type: 'deprecated' as const, rule: 'api/deprecated', message: 'm' },
        { level: 'error' as const, type: 'policy' as const, rule: 'vap/p', policy: 'p', message: 'e' },
      ],
    }
    const excepted = (list: ExceptionSpec[]) =>
      new Excepter({ list, base: '/' }).apply(r, {}).excepted?.map((f) => f.rule)
    expect(excepted([{ reason: 'r' }])).toBeUndefined()
    expect(excepted([{ reason: 'r', policies: ['p'] }])).toBeUndefined()
    expect(excepted([{ reason: 'r', rules: ['api/deprecated', 'vap/p'] }])).toEqual(['api/deprecated'])
  })
})
