import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import yaml from 'js-yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseXml, reportValidator, sarifValidator } from '../report/schemas.js'

// End-to-end: the built CLI (dist/, built by `npm test` before vitest) on the fixture trees of
// test/cli/fixtures. Expected texts are the apiserver's and kubectl's (ValidatingAdmissionPolicy
// dispatcher.go messages, the Warning texts, apiextensions field errors, the lifecycle warnings of
// k8s.io/api), never kelp output pasted back.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const fixtures = join(root, 'test/cli/fixtures')
const cli = join(root, 'dist/cli/kelp.cjs')

function kelp(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd: fixtures,
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

type JsonReport = {
  objects: {
    name: string
    kind: string
    operation: string
    outcome: string
    source: { file: string; line: number }
    findings: { level: string; message: string; rule: string }[]
  }[]
  diagnostics: { level: string; message: string; source?: { file: string; line?: number } }[]
  summary: Record<string, number>
}
const json = (out: string) => JSON.parse(out) as JsonReport

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (npm test does)`)
})

describe('kelp check: policies, actions and exit codes', () => {
  it('Deny in prod, Warn + Audit in staging; a broken document reported with its position, the rest checked (exit 2)', () => {
    const r = kelp(['check', 'manifests', '-p', 'policies', '-o', 'json'])
    expect(r.code).toBe(2)
    const rep = json(r.out)
    // and the note that the policies of -p leave the bundled pack out (issue 26)
    expect(rep.diagnostics.map((d) => [d.level, d.source?.file])).toEqual([
      ['error', 'manifests/broken.yaml'],
      ['info', undefined],
    ])
    const by = Object.fromEntries(rep.objects.map((o) => [o.name, o]))
    expect(by.big?.outcome).toBe('denied')
    // the Status message admission.NewForbidden builds (reason Invalid: the validation has none)
    expect(by.big?.findings.map((f) => [f.message, (f as { reason?: string }).reason])).toEqual([
      [
        `deployments.apps "big" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: replicas must be at most 5, got 8`,
        'Invalid',
      ],
    ])
    expect(by.small?.outcome).toBe('allowed')
    expect(by.fine?.outcome).toBe('allowed') // the good document of the broken file
    expect(by.wide?.outcome).toBe('warned')
    expect(by.wide?.source).toMatchObject({ file: 'manifests/staging.json', line: 5 }) // a List item at its own line
    expect(by.wide?.findings.map((f) => [f.level, f.message])).toEqual([
      [
        'warn',
        "Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-staging': replicas must be at most 5, got 9",
      ],
      [
        'audit',
        "validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-staging': replicas must be at most 5, got 9",
      ],
    ])
  })

  it('--fail-on decides: deny (default) → 1, none → 0; warn-only runs pass unless --fail-on warn', () => {
    expect(kelp(['check', 'manifests/deployments.yaml', '-p', 'policies']).code).toBe(1)
    expect(kelp(['check', 'manifests/deployments.yaml', '-p', 'policies', '--fail-on', 'none']).code).toBe(0)
    expect(kelp(['check', 'manifests/staging.json', '-p', 'policies']).code).toBe(0)
    expect(kelp(['check', 'manifests/staging.json', '-p', 'policies', '--fail-on', 'warn']).code).toBe(1)
    expect(kelp(['check', 'manifests/staging.json', '-p', 'policies', '--fail-on', 'audit']).code).toBe(1)
  })

  it('reads stdin (`-`), e.g. helm template output piped in', () => {
    const input = `---\n# Source: chart/templates/deploy.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: piped, namespace: prod}\nspec: {replicas: 6, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: "x:1"}]}}}\n`
    const r = kelp(['check', '-', '-p', 'policies', '-o', 'json'], input)
    expect(r.code).toBe(1)
    expect(json(r.out).objects[0]).toMatchObject({ name: 'piped', outcome: 'denied', source: { file: '-', line: 3 } })
  })

  it('-o json validates against docs/kelp-report.schema.json', () => {
    const r = kelp(['check', 'manifests', '-p', 'policies', '-o', 'json'])
    expect(reportValidator()(JSON.parse(r.out))).toEqual([])
  })

  it('text output: kubectl-like lines and a summary', () => {
    const r = kelp(['check', 'manifests/deployments.yaml', '-p', 'policies'])
    expect(r.out).toContain('manifests/deployments.yaml:1:1 Deployment prod/big')
    expect(r.out).toContain(
      "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: replicas must be at most 5, got 8",
    )
    expect(r.out).toMatch(/2 objects/)
  })

  it('usage errors exit 2', () => {
    expect(kelp(['check', 'manifests', '-o', 'yaml']).code).toBe(2)
    expect(kelp(['check', 'manifests', '--kube-version', '2.0']).code).toBe(2)
  })

  it('--version prints the package version', () => {
    const r = kelp(['--version'])
    expect(r.code).toBe(0)
    expect(r.out.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })
})

describe('kelp check: custom resources and revisions', () => {
  it('--old makes the object an UPDATE: the transition rule (oldSelf) fails only then', () => {
    const created = kelp(['check', 'crd', '-o', 'json'])
    expect(created.code).toBe(0)
    expect(json(created.out).objects[0]).toMatchObject({ name: 'w', operation: 'CREATE', outcome: 'allowed' })
    // the trap: on CREATE the transition rule is not evaluated at all (validation.go: oldSelf rules need an old value)
    expect(json(created.out).diagnostics.map((d) => [d.level, d.message])).toEqual([
      [
        'info',
        'CustomResourceDefinition "widgets.example.com": 1 transition rule (oldSelf) runs only on UPDATE; give the previous revision (--old or --base) to check it',
      ],
    ])
    const updated = kelp(['check', 'crd', '--old', 'old', '-o', 'json'])
    expect(updated.code).toBe(1)
    const o = json(updated.out).objects[0]
    expect(o).toMatchObject({ name: 'w', operation: 'UPDATE', outcome: 'denied' })
    // apiextensions validation.go: field.Invalid(spec.size, <value>, message) for a scalar node
    expect(o?.findings.map((f) => f.message)).toEqual(['spec.size: Invalid value: 2: size may only grow'])
    expect(json(updated.out).summary).toMatchObject({ created: 0, updated: 1 })
  })
})

describe('kelp check --base: the previous revision from git', () => {
  it('an object changed since the base revision is an UPDATE; one added since is a CREATE', () => {
    const repo = mkdtempSync(join(tmpdir(), 'kelp-base-'))
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo })
    git('init', '-q')
    copyFileSync(join(fixtures, 'crd/widgets.yaml'), join(repo, 'widgets.yaml'))
    copyFileSync(join(fixtures, 'old/widget.yaml'), join(repo, 'widget.yaml')) // size 5
    git('add', '.')
    git('commit', '-qm', 'base')
    copyFileSync(join(fixtures, 'crd/widget.yaml'), join(repo, 'widget.yaml')) // size 2: shrinks
    writeFileSync(
      join(repo, 'new.yaml'),
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: new, namespace: prod}\nspec: {size: 1}\n',
    )
    const r = spawnSync(process.execPath, [cli, 'check', '.', '--base', 'HEAD', '-o', 'json'], {
      cwd: repo,
      encoding: 'utf8',
    })
    expect(r.status).toBe(1)
    const by = Object.fromEntries(json(r.stdout).objects.map((o) => [o.name, o]))
    expect(by.w).toMatchObject({ operation: 'UPDATE', outcome: 'denied' })
    expect(by.w?.findings[0]?.message).toBe('spec.size: Invalid value: 2: size may only grow')
    expect(by.new).toMatchObject({ operation: 'CREATE', outcome: 'allowed' })
  })
})

describe('kelp check: API versions of the target release', () => {
  it('a removed apiVersion is not served (with its replacement); a deprecated one gets the apiserver warning', () => {
    const r = kelp(['check', 'legacy', '-p', 'policies', '-o', 'json'])
    expect(r.code).toBe(1)
    const [pdb, ep] = json(r.out).objects
    expect(pdb?.outcome).toBe('not-served')
    expect(pdb?.findings[0]?.message).toBe(
      'no matches for kind "PodDisruptionBudget" in version "policy/v1beta1" (removed in v1.25; use policy/v1 PodDisruptionBudget)',
    )
    expect(ep?.outcome).toBe('warned')
    // k8s.io/api core/v1 lifecycle.go: Endpoints deprecated in 1.33, replaced by EndpointSlice
    expect(ep?.findings[0]?.message).toBe('v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice')
  })

  it('--kube-version 1.24 still serves policy/v1beta1 PodDisruptionBudget, with the deprecation warning', () => {
    const r = kelp(['check', 'legacy', '-p', 'policies', '--kube-version', '1.24', '-o', 'json'])
    const [pdb] = json(r.out).objects
    expect(pdb?.findings[0]?.message).toBe(
      'policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget',
    )
  })
})

describe('policy diagnostics', () => {
  it('type checks policies against OpenAPI documents (status.typeChecking) and flags a binding without its policy', () => {
    const r = kelp(['check', 'typo', '--openapi', '../../fixtures/openapi/apis__apps__v1.json', '-o', 'json'])
    expect(r.code).toBe(0) // warnings only
    const d = json(r.out).diagnostics
    // the note that the inputs' policies leave the bundled pack out (issue 26), then the warnings
    expect(d.map((x) => x.level)).toEqual(['info', 'warn', 'warn'])
    // typechecking.go: "<group>/<version>, Kind=<Kind>: <issues>"; cel-go's undefined field issue
    expect(
      d.some((x) => x.message.includes("apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicsa'")),
    ).toBe(true)
    expect(d.some((x) => x.message.includes('binds ValidatingAdmissionPolicy "not-there"'))).toBe(true)
    expect(
      kelp(['check', 'typo', '--openapi', '../../fixtures/openapi/apis__apps__v1.json', '--fail-on', 'warn']).code,
    ).toBe(1)
  })
})

describe('output formats', () => {
  for (const format of ['junit', 'sarif', 'github']) {
    it(`-o ${format} produces its format`, () => {
      const r = kelp(['check', 'manifests/deployments.yaml', '-p', 'policies', '-o', format])
      expect(r.code).toBe(1)
      if (format === 'junit') {
        expect(r.out).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites/)
        expect(parseXml(r.out).documentElement?.tagName).toBe('testsuites')
      }
      if (format === 'sarif') {
        const log = JSON.parse(r.out)
        expect(sarifValidator()(log)).toEqual([]) // the official SARIF 2.1.0 schema
        expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
          'manifests/deployments.yaml',
        )
      }
      if (format === 'github') expect(r.out).toMatch(/^::error file=manifests\/deployments\.yaml,line=1/m)
    })
  }
})

describe('built-in objects: what kubectl prints and the object as stored', () => {
  it('a cause repeated by the validation is printed once, as kubectl prints an Invalid', () => {
    // a real kube-apiserver 1.37.2 (kubectl apply --dry-run=server of an HPA whose metric type is "Memory")
    // answered with this one cause, although validateMetricSpec appends it twice (kubectl prints the causes'
    // aggregate, which drops repeated texts)
    const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
  metrics: [{type: Memory}]
`
    const r = kelp(['check', '--pack', 'off', '-'], hpa)
    // (the line starts with the field's position in the piped text: issue 26)
    expect(r.out.split('\n').filter((l) => l.includes('is invalid'))).toEqual([
      '  -:7:14: The HorizontalPodAutoscaler "h" is invalid: spec.metrics[0].type: Unsupported value: "Memory": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
    ])
  })
  it('-o yaml: a create takes the request namespace and generation 1, loses selfLink and the status', () => {
    // a real kube-apiserver 1.37.2 (kubectl create --dry-run=server -n default -o json) stored this Deployment with
    // metadata {generation: 1, name: web, namespace: default} and status {}
    const d = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, selfLink: /apis/apps/v1/namespaces/x/deployments/web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
status: {replicas: 3, readyReplicas: 3}
`
    const r = kelp(['check', '--pack', 'off', '-n', 'default', '-o', 'yaml', '-'], d)
    expect(r.out).toMatch(/^metadata:\n {2}generation: 1\n {2}name: web\n {2}namespace: default\nspec:/m)
    expect(r.out).toMatch(/\nstatus: \{\}\n?$/)
  })
})

describe('a PersistentVolumeClaim data source as the strategy stores it', () => {
  // kube-apiserver 1.37.2 (`kubectl create --dry-run=server -o yaml`, and the differential on the Kubernetes
  // documentation's restore-pvc.yaml): PrepareForCreate drops a dataSource other than a claim or a VolumeSnapshot when
  // no dataSourceRef is given (EnforceDataSourceBackwardsCompatibility), then copies the one given into the other
  // (NormalizeDataSources); a claim's dataSource has a null apiGroup, kept in both
  it('copies dataSource and dataSourceRef into each other, drops a legacy dataSource of another kind', () => {
    const claim = (name: string, source: string) =>
      `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ${name}}\nspec:\n  ${source}\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 5Gi}}\n`
    const r = kelp(
      ['check', '--pack', 'off', '-n', 'default', '-o', 'yaml', '-'],
      [
        claim('snap', 'dataSource: {name: example-snapshot, kind: VolumeSnapshot, apiGroup: snapshot.storage.k8s.io}'),
        claim('other', 'dataSource: {name: x, kind: Foo, apiGroup: example.com}'),
        claim('ref', 'dataSourceRef: {name: x, kind: Foo, apiGroup: example.com}'),
        claim('clone', 'dataSource: {name: src, kind: PersistentVolumeClaim}'),
      ].join('---\n'),
    )
    expect(r.code).toBe(0)
    const sources = (yaml.loadAll(r.out) as { metadata: { name: string }; spec: Record<string, unknown> }[]).map(
      (o) => [o.metadata.name, o.spec.dataSource, o.spec.dataSourceRef],
    )
    const snapshot = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'example-snapshot' }
    const foo = { apiGroup: 'example.com', kind: 'Foo', name: 'x' }
    const pvc = { apiGroup: null, kind: 'PersistentVolumeClaim', name: 'src' }
    expect(sources).toEqual([
      ['snap', snapshot, snapshot],
      ['other', undefined, undefined],
      ['ref', foo, foo],
      ['clone', pvc, pvc],
    ])
  })
})

describe('what kubectl refuses before sending', () => {
  // kubectl 1.37.2 against a real kube-apiserver (the differential corpus's meta/name-slash and meta/labels-as-list
  // mutations): `error: invalid resource name "a/b": [may not contain '/']` and `error: unable to decode "<file>":
  // json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string`; stdin is
  // the source "STDIN" (cli-runtime resource/visitor.go constSTDINstr)
  it('a name with a slash, metadata of the wrong type', () => {
    const r = kelp(
      ['check', '--pack', 'off', '-'],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a/b}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, labels: [a]}\n',
    )
    expect(r.code).toBe(1)
    expect(r.out.split('\n').filter((l) => l.startsWith('  error: '))).toEqual([
      `  error: invalid resource name "a/b": [may not contain '/']`,
      '  error: unable to decode "STDIN": json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    ])
  })
  // kubectl 1.37.2 against a real kube-apiserver (the differential's meta/labels-as-list mutation of an
  // autoscaling/v2beta2 HorizontalPodAutoscaler of test/e2e/differential/public/kubernetes-engine-samples): kubectl
  // decodes the document before it maps the kind (cli-runtime resource/mapper.go infoForData), so its decoding error
  // comes before `no matches for kind`, which a version it does not serve gets when the metadata decodes
  it('metadata of the wrong type in a version the target does not serve: the decoding error first', () => {
    const hpa = (meta: string) =>
      `apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: ${meta}\nspec: {maxReplicas: 3, scaleTargetRef: {kind: Deployment, name: web}}\n`
    const r = kelp(['check', '--pack', 'off', '-'], `${hpa('{name: h, labels: [a]}')}---\n${hpa('{name: h2}')}`)
    expect(r.code).toBe(1)
    expect(r.out.split('\n').filter((l) => l.startsWith('  error: '))).toEqual([
      '  error: unable to decode "STDIN": json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string',
      '  error: no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v2beta2" (removed in v1.26; use autoscaling/v2 HorizontalPodAutoscaler)',
    ])
  })
})

describe('a metadata time that does not parse', () => {
  // kubectl 1.37.2 against a real kube-apiserver (test/e2e/differential/cases/decode-order.yaml): kubectl refuses the
  // object before sending it, with metav1.Time's error for the first time in its sorted keys (creationTimestamp, not
  // deletionTimestamp written before it), even with a quantity's error under spec written before the metadata
  it('kubectl refuses it, the first time in the sorted keys', () => {
    const r = kelp(
      ['check', '--pack', 'off', '-'],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t, deletionTimestamp: later, creationTimestamp: yesterday}\n---\n' +
        'apiVersion: apps/v1\nkind: Deployment\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, ' +
        'spec: {containers: [{name: c, image: "nginx:1.27", resources: {limits: {cpu: lots}}}]}}}\nmetadata: {name: m, creationTimestamp: soon}\n',
    )
    expect(r.code).toBe(1)
    expect(r.out.split('\n').filter((l) => l.startsWith('  error: '))).toEqual([
      '  error: unable to decode "STDIN": parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
      '  error: unable to decode "STDIN": parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"',
    ])
  })
})

describe('unknown fields in the order kubectl sends them', () => {
  // kubectl 1.37.2 against a real kube-apiserver, kubernetes/examples _archived/volumes/rbd/rbd.yaml (imageformat
  // written before imagefeatures): `strict decoding error: unknown field "spec.volumes[0].rbd.imagefeatures",
  // unknown field "spec.volumes[0].rbd.imageformat"` (kubectl marshals the object with its keys sorted)
  it('sorted as the apiserver meets them', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: rbd, namespace: default}
spec:
  containers: [{name: c, image: nginx}]
  volumes:
  - name: v
    rbd: {monitors: ["10.16.154.78:6789"], image: foo, imageformat: "2", imagefeatures: layering}
`
    const r = kelp(['check', '--pack', 'off', '-'], pod)
    expect(r.out).toContain(
      'strict decoding error: unknown field "spec.volumes[0].rbd.imagefeatures", unknown field "spec.volumes[0].rbd.imageformat"',
    )
  })
})

describe('kelp check --old: updates as kubectl apply makes them (issue 26)', () => {
  // test/e2e/differential/cases/updates: kube-apiserver 1.37.2 printed `job.batch/migrate unchanged`,
  // `service/db unchanged` and, for deploy-replicas, `The deployments "web" is invalid: : ValidatingAdmissionPolicy
  // 'replicas-never-grow' with binding 'replicas-never-grow' denied request: replicas may not grow: 2 -> 5`
  const u = join(root, 'test/e2e/differential/cases/updates')
  const pair = (c: string) => ['--old', join(u, `${c}.old.yaml`), join(u, `${c}.yaml`)]

  it('an unchanged Job and headless Service are unchanged: no admission, nothing denied (exit 0)', () => {
    // before: `spec.selector: Required value` for the Job, `ipFamilyPolicy` for the Service, exit 1
    const r = kelp([
      'check',
      '--pack',
      'off',
      '-o',
      'json',
      '--old',
      join(u, 'headless.old.yaml'),
      ...pair('job'),
      join(u, 'headless.yaml'),
    ])
    expect(r.code).toBe(0)
    const rep = json(r.out)
    expect(rep.objects.map((o) => [o.kind, o.operation, o.outcome, o.findings.length])).toEqual([
      ['Job', 'UPDATE', 'unchanged', 0],
      ['Service', 'UPDATE', 'unchanged', 0],
    ])
    expect(rep.summary).toMatchObject({ objects: 2, updated: 2, unchanged: 2, allowed: 0, denied: 0 })
    const text = kelp(['check', '--pack', 'off', ...pair('job')])
    expect(text.out).toContain('1 object (0 created, 1 updated): 0 allowed, 0 denied, 0 warned, 1 unchanged; 0 errors')
    const junit = kelp(['check', '--pack', 'off', '-o', 'junit', ...pair('job')])
    expect(junit.out).toContain('<system-out>unchanged: kubectl apply sends no patch, no admission runs</system-out>')
    const sarif = JSON.parse(kelp(['check', '--pack', 'off', '-o', 'sarif', ...pair('job')]).out)
    expect(sarif.runs[0].properties.summary.unchanged).toBe(1)
    const github = kelp(['check', '--pack', 'off', '-o', 'github', ...pair('job')])
    expect(github.out).toContain('1 unchanged')
  })

  it('a policy on UPDATE sees oldObject as stored: replicas 2 -> 5 denied in kubectl words', () => {
    const r = kelp(['check', '--pack', 'off', '-p', join(u, 'policy.yaml'), ...pair('deploy-replicas')])
    expect(r.code).toBe(1)
    expect(r.out).toContain(
      `The deployments "web" is invalid: : ValidatingAdmissionPolicy 'replicas-never-grow' with binding 'replicas-never-grow' denied request: replicas may not grow: 2 -> 5`,
    )
  })
})
