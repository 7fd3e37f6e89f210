import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// `kelp check` prints the apiserver's warnings as kubectl prints them (`Warning: <text>`), in the order the
// apiserver added them: the strategy's (rest.BeforeCreate: WarningsOnCreate, pkg/api/pod/warnings.go for the
// template), then the validating policies'. Expected lines: what kubectl apply --dry-run=server printed for
// the same manifest against kube-apiserver v1.37.2 (-n warnings).

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

function kelp(args: string[], input: string) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (npm test does)`)
})

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web.v1
spec:
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec:
      containers:
        - name: c
          image: nginx
          ports: [{containerPort: 80}, {containerPort: 80}]
`
const KUBECTL = [
  'Warning: metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
  'Warning: spec.template.spec.containers[0].ports[1]: duplicate port definition with spec.template.spec.containers[0].ports[0]',
]

const warnPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  validations: [{expression: "has(object.spec.replicas) && object.spec.replicas > 1", message: "one replica"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicas}
spec: {policyName: replicas, validationActions: [Warn]}
`

describe('kelp check prints the strategy warnings', () => {
  it('text: one `Warning:` line each, as kubectl prints them; the object is warned', () => {
    const r = kelp(['check', '--pack', 'off', '-'], deployment)
    expect(r.code).toBe(0)
    const lines = r.out.split('\n').map((l) => l.trim())
    expect(lines.filter((l) => l.startsWith('Warning: '))).toEqual(KUBECTL)
    expect(r.out).toContain('1 object: 0 allowed, 0 denied, 1 warned')
  })

  it('json: warn findings with the texts', () => {
    const r = kelp(['check', '--pack', 'off', '-o', 'json', '-'], deployment)
    const o = JSON.parse(r.out).objects[0]
    expect(o.outcome).toBe('warned')
    expect(o.findings.map((f: { level: string; message: string }) => [f.level, f.message])).toEqual(
      KUBECTL.map((l) => ['warn', l.slice('Warning: '.length)]),
    )
  })

  // k8s.io/apiserver v0.37.2 pkg/registry/generic/registry/store.go Create: rest.BeforeCreate (the strategy's
  // warnings) before createValidation (validating admission)
  it("the strategy's warnings come before a validating policy's Warn", () => {
    const r = kelp(['check', '--pack', 'off', '-'], `${warnPolicy}---\n${deployment}`)
    const lines = r.out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('Warning: '))
    expect(lines).toEqual([
      ...KUBECTL,
      "Warning: Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas': one replica",
    ])
  })

  it('a Pod validation refuses still prints the AppArmor warning PrepareForCreate recorded first', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata:
  name: aa
  annotations: {container.apparmor.security.beta.kubernetes.io/a: bogus}
spec:
  containers: [{name: a, image: nginx}]
`
    const r = kelp(['check', '--pack', 'off', '-'], pod)
    expect(r.code).toBe(1)
    const lines = r.out.split('\n').map((l) => l.trim())
    expect(lines.filter((l) => l.startsWith('Warning: '))).toEqual([
      'Warning: metadata.annotations[container.apparmor.security.beta.kubernetes.io/a]: deprecated since v1.30; use the "appArmorProfile" field instead',
    ])
    expect(r.out).toContain(
      'The Pod "aa" is invalid: metadata.annotations[container.apparmor.security.beta.kubernetes.io/a]: Invalid value: "bogus": invalid AppArmor profile name: "bogus"',
    )
  })
})
