import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import yaml from 'js-yaml'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HOLD_OBJECTS } from '../../src/check/first-pass.js'
import { Inputs } from '../../src/check/inputs.js'
import type { CheckOptions } from '../../src/check/options.js'
import { check } from '../../src/check/run.js'
import { PolicySet } from '../../src/engine/policy-set.js'
import { widgetCrd } from '../fixtures/widget-crd.js'

// An input that holds none of the policy set's inputs is admitted in one pass (src/check/one-pass.ts): a small one
// holds no object, a large one (holdObjects 0 here) is read once; at the first set input the pass reads on as the
// first pass and the run admits in a second one. Either way the report is the one a run that holds its objects
// gives (holdObjects asks for it: the same set, the same objects in the same order): every case compares them.

const dir = mkdtempSync(join(tmpdir(), 'kelp-one-pass-'))
const write = (name: string, docs: readonly string[]) => {
  const file = join(dir, name)
  writeFileSync(file, docs.join('---\n'))
  return file
}

const deployment = (i: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d${i}, namespace: team}\nspec:\n  replicas: ${i}\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      serviceAccountName: builder\n      containers: [{name: c, image: "nginx:1.27"}]\n`
const privileged =
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team}\nspec:\n  serviceAccountName: builder\n  containers: [{name: c, image: nginx, securityContext: {privileged: true}}]\n'
const configMap = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: team}\ndata: {max: "2"}\n`
const generated = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: g-, namespace: team}\n'
const broken = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [x\n'
const workloads = [deployment(1), privileged, broken, configMap('c'), generated, deployment(3)]

const SIZE = { type: 'integer', maximum: 3 }

/** Objects the set is built from (one-pass.ts stops at each), each changing another object's answer. */
const setInputs: Record<string, string> = {
  Namespace:
    'apiVersion: v1\nkind: Namespace\nmetadata: {name: team, labels: {pod-security.kubernetes.io/enforce: privileged}}\n',
  ServiceAccount: 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: builder, namespace: team}\n',
  LimitRange:
    'apiVersion: v1\nkind: LimitRange\nmetadata: {name: l, namespace: team}\nspec:\n  limits: [{type: Container, default: {cpu: 100m, memory: 64Mi}, defaultRequest: {cpu: 50m, memory: 32Mi}}]\n',
  policy: `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: few-replicas}
spec:
  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}
  validations: [{expression: "object.spec.replicas < 2"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: few-replicas}
spec: {policyName: few-replicas, validationActions: [Deny]}
`,
  'a policy the target does not serve':
    'apiVersion: admissionregistration.k8s.io/v1alpha1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: old}\nspec: {validations: [{expression: "true"}]}\n',
  // block YAML (the escaped cases rewrite its top-level `kind:` line)
  CustomResourceDefinition: yaml.dump(
    widgetCrd({ schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: SIZE } } } } }),
  ),
}
const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: team}\nspec: {size: 5}\n'

describe('a large input in one pass (src/check/one-pass.ts)', () => {
  afterEach(() => vi.restoreAllMocks())

  /**
   * The run that holds its objects (two passes: holdObjects asks for them), the run of a large input (holdObjects
   * 0: nothing held) and the run as it goes by default (a small input: held when it is read twice).
   */
  const both = (file: string, options: Partial<CheckOptions> = {}) => {
    const run = (holdObjects?: number) => {
      const reads = vi.spyOn(Inputs.prototype, 'read')
      const builds = vi.spyOn(PolicySet, 'build')
      const report = check({
        paths: [file],
        kubeVersion: '1.37',
        ...options,
        ...(holdObjects !== undefined ? { holdObjects } : {}),
      })
      const counts = { reads: reads.mock.calls.length, builds: builds.mock.calls.length }
      vi.restoreAllMocks()
      return { report, ...counts }
    }
    const held = run(HOLD_OBJECTS)
    const byDefault = run()
    expect(byDefault.report).toEqual(held.report)
    expect(byDefault.builds).toBe(run(0).builds)
    return { held, streamed: run(0) }
  }

  it('reads once and builds the set once when the input holds no set input', () => {
    const { held, streamed } = both(write('workloads.yaml', workloads))
    expect(streamed.report).toEqual(held.report)
    expect(streamed).toMatchObject({ reads: 1, builds: 1 })
    // the preconditions: the pack denies the privileged Pod, the broken document and generateName are reported
    expect(held.report.summary).toMatchObject({ denied: 1, errors: 1 })
    expect(held.report.diagnostics.map((d) => d.rule)).toContain('kubectl/generate-name')
  })

  it("tells the reading errors and notes, then the material's problems, in the held run's order", () => {
    const policies = write('broken-policies.yaml', [
      broken,
      `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: typo}
spec:
  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}
  validations: [{expression: "object.spec.replica < 2"}]
`,
    ])
    const { held, streamed } = both(write('with-broken-policies.yaml', workloads), { policies: [policies] })
    expect(streamed.report).toEqual(held.report)
    expect(streamed).toMatchObject({ reads: 1, builds: 1 })
    // the precondition: the inputs' reading errors and notes come before --policies' and the set's
    expect(held.report.diagnostics.map((d) => d.rule)).toEqual([
      'input/parse',
      'kubectl/generate-name',
      'input/parse',
      'pack/not-applied',
      'material/ValidatingAdmissionPolicy',
      'material/type-checking',
      'admission/not-run/LimitRanger',
      'admission/not-run/ServiceAccount',
    ])
  })

  /** The text with each top-level kind's first letter escaped (`"\x4eamespace"`): the scan does not find it. */
  const escaped = (text: string) =>
    text.replace(/^kind: (\w)(\w*)$/gm, (_, first: string, others: string) => {
      return `kind: "\\x${first.charCodeAt(0).toString(16)}${others}"`
    })

  for (const [name, text] of Object.entries(setInputs)) {
    for (const [where, docs] of [
      ['first', [text, ...workloads, widget]],
      ['between the objects', [deployment(1), widget, text, ...workloads.slice(1)]],
      ['last', [...workloads, widget, text]],
    ] as const) {
      it(`${name} ${where}: the objects are admitted against the set built with it`, () => {
        const { held, streamed } = both(write(`${name}-${where}.yaml`.replaceAll(' ', '-'), docs))
        expect(streamed.report).toEqual(held.report)
        // named in the text (one-pass.ts mayName): read twice from the start, the set built once
        expect(streamed).toMatchObject({ reads: 2, builds: 1 })
      })
      if (where === 'first') continue
      it(`${name} ${where}, its kind escaped: the pass stops at it and the objects are admitted again`, () => {
        const hidden = docs.map((d) => (d === text ? escaped(text) : d))
        const { held, streamed } = both(write(`${name}-${where}-escaped.yaml`.replaceAll(' ', '-'), hidden))
        expect(streamed.report).toEqual(held.report)
        // the objects before it admitted against the set built without it, then dropped
        expect(streamed).toMatchObject({ reads: 2, builds: 2 })
      })
    }
  }

  it('the scan: a kind across two reads of a large file, in JSON, where it is no object (two passes), a longer kind', () => {
    const at = (1 << 20) - 6
    const pad = (n: number) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: pad, namespace: team}\ndata: {p: "${'x'.repeat(n)}"}\n`
    const head = pad(0)
    // `kind: Namespace` of the second document starts 6 bytes before the first MiB ends
    const first = pad(at - head.length - '---\napiVersion: v1\n'.length)
    const file = write('straddle.yaml', [first, setInputs.Namespace as string, ...workloads])
    const { held, streamed } = both(file)
    expect(streamed.report).toEqual(held.report)
    expect(streamed).toMatchObject({ reads: 2, builds: 1 })
    const binding = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: b, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: builder, namespace: team}]
`
    // JSON's quoted key and value
    const json = both(
      write('json.yaml', [...workloads, '{"apiVersion": "v1", "kind" : "Namespace", "metadata": {"name": "team"}}\n']),
    )
    expect(json.streamed.report).toEqual(json.held.report)
    expect(json.streamed).toMatchObject({ reads: 2, builds: 1 })
    // a kind that only begins with a set input's: one pass
    const claim = 'apiVersion: example.com/v1\nkind: NamespaceClaim\nmetadata: {name: c, namespace: team}\n'
    const longer = both(write('longer-kind.yaml', [...workloads, claim]))
    expect(longer.streamed.report).toEqual(longer.held.report)
    expect(longer.streamed).toMatchObject({ reads: 1, builds: 1 })
    const subjects = both(write('subjects.yaml', [...workloads, binding]))
    expect(subjects.streamed.report).toEqual(subjects.held.report)
    expect(subjects.streamed).toMatchObject({ reads: 2, builds: 1 })
  })

  it('each set input changes an answer (else the cases above would not tell a pass that ignored it)', () => {
    const alone = both(write('alone.yaml', [...workloads, widget])).held.report
    for (const [name, text] of Object.entries(setInputs)) {
      const withIt = both(write(`with-${name.replaceAll(' ', '-')}.yaml`, [...workloads, widget, text])).held.report
      const answers = (r: typeof alone) => JSON.stringify([r.objects.slice(0, 6), r.diagnostics, r.pack])
      expect(answers(withIt), name).not.toBe(answers(alone))
    }
  })

  it('a param of a --policies policy stops the pass: its binding finds it', () => {
    const policies = write('param-policy.yaml', [
      `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}
  validations: [{expression: "object.spec.replicas <= int(params.data.max)"}]
`,
      `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: max-replicas}
spec: {policyName: max-replicas, validationActions: [Deny], paramRef: {name: limits, namespace: team, parameterNotFoundAction: Deny}}
`,
    ])
    for (const [name, kind] of [
      ['params.yaml', configMap('limits')],
      ['params-escaped.yaml', escaped(configMap('limits'))],
    ] as const) {
      const { held, streamed } = both(write(name, [deployment(1), deployment(3), kind]), { policies: [policies] })
      expect(streamed.report).toEqual(held.report)
      // named in the text: the first pass, the params read before the build (prepare.ts), the objects admitted;
      // escaped: the pass stops at it, then the same
      expect(streamed).toMatchObject(name === 'params.yaml' ? { reads: 3, builds: 1 } : { reads: 3, builds: 2 })
      // found: d1 admitted (1 <= 2), d3 denied; without the param both would be denied
      expect(held.report.objects.slice(0, 2).map((o) => o.outcome)).toEqual(['allowed', 'denied'])
    }
  })

  it('exceptions applied and unused are told as the held run tells them, also when the first objects were dropped', () => {
    const exceptions = {
      base: dir,
      today: '2026-06-01',
      list: [
        { reason: 'privileged by design', names: ['p'], kinds: ['Pod'] },
        { reason: 'matches nothing', names: ['nothing'] },
      ],
    }
    for (const docs of [workloads, [...workloads, setInputs.ServiceAccount as string]]) {
      const { held, streamed } = both(write(`exceptions-${docs.length}.yaml`, docs), { exceptions })
      expect(streamed.report).toEqual(held.report)
      expect(held.report.diagnostics.filter((d) => d.rule.startsWith('exception/')).length).toBe(1)
    }
  })
})
