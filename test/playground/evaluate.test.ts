import { describe, expect, it } from 'vitest'
import { evaluatePlayground, examples } from '../../src/playground/evaluate/index.js'
import type { PlaygroundState } from '../../src/playground/evaluate/types.js'

// Each example of the playground as kube-apiserver v1.37.2 answered it (kubectl v1.37.2, `kubectl apply
// --dry-run=server -f -`; for the UPDATE the old object applied first): the material applied to the cluster with
// its bindings limited to one namespace (matchResources.namespaceSelector, which the answers do not mention) and
// the objects written there, with the namespace's default ServiceAccount present. kubectl's lines: its Warning:
// lines, then the error or the created line.

const example = (prefix: string): PlaygroundState => {
  const e = examples.find((x) => x.name.startsWith(prefix))
  if (e === undefined) throw new Error(`no example ${prefix}`)
  return e.state
}

describe('the examples, as kube-apiserver 1.37 answers them', () => {
  it('Deny: the image tag rule denies, the resources rule warns', async () => {
    const r = await evaluatePlayground(example('Deny'))
    expect(r.allowed).toBe(false)
    expect(r.kubectl).toEqual([
      `Warning: Validation failed for ValidatingAdmissionPolicy 'container-resources.kelp.dev' with binding 'container-resources.kelp.dev': containers must set cpu and memory requests and limits: container "shell" has no resources.requests.cpu, resources.requests.memory, resources.limits.cpu, resources.limits.memory`,
      `The pods "debug" is invalid: : ValidatingAdmissionPolicy 'image-tag.kelp.dev' with binding 'image-tag.kelp.dev' denied request: image tag must be pinned (a tag other than "latest", or a digest): container "shell" uses image "busybox:latest"`,
    ])
    expect(r.warnings).toHaveLength(1)
    expect(r.markers).toEqual([])
  })

  it('Warn: created, with two warnings', async () => {
    const r = await evaluatePlayground(example('Warn'))
    expect(r.allowed).toBe(true)
    expect(r.kubectl).toEqual([
      `Warning: Validation failed for ValidatingAdmissionPolicy 'container-resources.kelp.dev' with binding 'container-resources.kelp.dev': containers must set cpu and memory requests and limits: container "api" has no resources.requests.cpu, resources.requests.memory, resources.limits.cpu, resources.limits.memory`,
      `Warning: Validation failed for ValidatingAdmissionPolicy 'recommended-labels.kelp.dev' with binding 'recommended-labels.kelp.dev': missing required label app.kubernetes.io/name on Deployment "api"`,
      'deployment.apps/api created (server dry run)',
    ])
  })

  it('Mutation: created with the label the MutatingAdmissionPolicy adds (-o yaml: metadata.labels)', async () => {
    const r = await evaluatePlayground(example('Mutation'))
    expect(r.kubectl).toEqual(['deployment.apps/api created (server dry run)'])
    // the stored object's labels, as `kubectl apply --dry-run=server -o yaml` printed them
    const mutated = r.mutated!
    expect((mutated.after as { metadata: { labels: unknown } }).metadata.labels).toEqual({
      'app.kubernetes.io/name': 'api',
    })
    expect((mutated.before as { metadata: { labels?: unknown } }).metadata.labels).toBeUndefined()
    expect(mutated.patch).toEqual([{ op: 'add', path: '/metadata/labels', value: { 'app.kubernetes.io/name': 'api' } }])
    expect(mutated.diff).toBe(
      [
        '--- before',
        '+++ after',
        '@@ -1,6 +1,8 @@',
        ' apiVersion: apps/v1',
        ' kind: Deployment',
        ' metadata:',
        '+  labels:',
        '+    app.kubernetes.io/name: api',
        '   name: api',
        '   namespace: shop',
        ' spec:',
        '',
      ].join('\n'),
    )
  })

  it('CRD transition rule: the update that changes an immutable field is invalid', async () => {
    const r = await evaluatePlayground(example('CRD transition rule'))
    expect(r.allowed).toBe(false)
    expect(r.kubectl).toEqual(['The Widget "w" is invalid: spec.image: Invalid value: "nginx:2": image is immutable'])
    expect(r.nativeErrors).toEqual(['spec.image: Invalid value: "nginx:2": image is immutable'])
    // the same image and another count: configured; the old object itself: unchanged (nothing sent)
    const s = example('CRD transition rule')
    const ok = await evaluatePlayground({
      ...s,
      object: s.object.replace('nginx:2', 'nginx:1').replace('replicas: 1', 'replicas: 2'),
    })
    expect(ok.allowed).toBe(true)
    expect(ok.kubectl).toEqual(['widget.example.com/w configured (server dry run)'])
    const same = await evaluatePlayground({ ...s, object: s.oldObject })
    expect(same.kubectl).toEqual(['widget.example.com/w unchanged (server dry run)'])
  })

  it('Type error: the request meets the missing field; the type checking warning is at the field', async () => {
    const s = example('Type error')
    const r = await evaluatePlayground(s)
    expect(r.kubectl).toEqual([
      `The deployments "api" is invalid: : ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: expression 'object.spec.replica <= 5' resulted in error: no such key: replica`,
    ])
    // cel-go reports a field selection at its '.' (parser.go VisitSelect: the id of the Dot token)
    const lines = s.material.split('\n')
    const line = lines.findIndex((l) => l.includes('object.spec.replica <= 5'))
    const column = (lines[line] as string).indexOf('.replica') + 1
    expect(r.markers).toMatchObject([
      { pane: 'material', line: line + 1, column, endLine: line + 1, endColumn: column + 1, severity: 'warning' },
    ])
    expect(r.markers[0]?.message).toContain("undefined field 'replica'")
  })

  it('Allowed: a Deployment that follows the pack is created', async () => {
    const r = await evaluatePlayground(example('Allowed'))
    expect(r.allowed).toBe(true)
    expect(r.kubectl).toEqual(['deployment.apps/web created (server dry run)'])
  })
})

describe('writes beyond the examples, as kube-apiserver 1.37 answers them', () => {
  // kubectl delete --dry-run=server -f - of objects the cluster holds (created before), this policy applied
  const noDelete = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: pg-engine-no-delete
spec:
  failurePolicy: Fail
  matchConstraints:
    namespaceSelector:
      matchLabels: {kubernetes.io/metadata.name: pg-engine}
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["DELETE"]
      resources: ["configmaps"]
  validations:
  - expression: "!has(oldObject.metadata.labels) || !('protected' in oldObject.metadata.labels)"
    message: "protected config maps cannot be deleted"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: pg-engine-no-delete
spec:
  policyName: pg-engine-no-delete
  validationActions: [Deny]
`
  const configMap = (name: string, labels: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: pg-engine
${labels}data: {a: b}
`
  const deletion = (object: string): PlaygroundState => ({
    ...example('Deny'),
    material: noDelete,
    object,
    operation: 'DELETE',
  })

  it('DELETE: a policy on oldObject denies; another object is deleted', async () => {
    const denied = await evaluatePlayground(deletion(configMap('settings', '  labels: {protected: "yes"}\n')))
    expect(denied.allowed).toBe(false)
    expect(denied.kubectl).toEqual([
      `The configmaps "settings" is invalid: : ValidatingAdmissionPolicy 'pg-engine-no-delete' with binding 'pg-engine-no-delete' denied request: protected config maps cannot be deleted`,
    ])
    const deleted = await evaluatePlayground(deletion(configMap('plain', '')))
    expect(deleted.allowed).toBe(true)
    expect(deleted.kubectl).toEqual(['configmap "plain" deleted from pg-engine namespace (server dry run)'])
  })

  // kubectl 1.37.2's words (apply --dry-run=server -f -) when its discovery has no such kind
  it('a kind the cluster does not serve: kubectl cannot map it', async () => {
    const none = examples[0]!.state
    for (const [object, name, ns, kind, version] of [
      ['apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n', 'g', '', 'Gadget', 'example.com/v1'],
      [
        'apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: shop}\n',
        'g',
        'shop',
        'Gadget',
        'example.com/v1',
      ],
      ['apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\n', 'c', '', 'CronJob', 'batch/v1beta1'],
      ['apiVersion: apps/v1\nkind: Deploymentx\nmetadata: {name: c}\n', 'c', '', 'Deploymentx', 'apps/v1'],
    ] as const) {
      const r = await evaluatePlayground({ ...none, material: '', object })
      expect(r.allowed).toBe(false)
      expect(r.kubectl).toEqual([
        `error: resource mapping not found for name: "${name}" namespace: "${ns}" from "STDIN": no matches for kind "${kind}" in version "${version}"\nensure CRDs are installed first`,
      ])
    }
  })

  it('costs: every expression of the material, its estimate, and what this write cost, against the per-call limit', async () => {
    const r = await evaluatePlayground(deletion(configMap('settings', '  labels: {protected: "yes"}\n')))
    expect(r.costs).toHaveLength(1)
    const row = r.costs[0]!
    expect(row).toMatchObject({
      policy: 'ValidatingAdmissionPolicy/pg-engine-no-delete',
      field: 'spec.validations[0].expression',
      expression: "!has(oldObject.metadata.labels) || !('protected' in oldObject.metadata.labels)",
      // celconfig.PerCallLimit (k8s.io/apiserver pkg/apis/cel/config.go)
      limit: 1_000_000,
    })
    expect(row.actual).toBeGreaterThan(0)
    const [min, max] = row.estimated!
    expect(min).toBeLessThanOrEqual(max)
    // a write no policy matches runs no expression
    const create = await evaluatePlayground({ ...deletion(configMap('plain', '')), operation: 'CREATE' })
    expect(create.costs[0]?.actual).toBeNull()
  })
})
