import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { check } from '../../src/check/index.js'

// A custom resource in a version its CRD converts with a webhook (issue 28): kube-apiserver v1.37.2 calls the
// webhook to store it, a dry run included (`kubectl apply --dry-run=server` answered `conversion webhook for
// kelp.example.com/v2, Kind=Conv failed: Post "https://conv-webhook.default.svc:443/convert?timeout=30s": …`
// with no such service); an object of the storage version is stored without it. kelp cannot ask the webhook: it
// says so.

const crd = (clientConfig: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: convs.kelp.example.com}
spec:
  group: kelp.example.com
  names: {kind: Conv, plural: convs, singular: conv, listKind: ConvList}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook: {conversionReviewVersions: [v1], clientConfig: ${clientConfig}}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`
const objects = `apiVersion: kelp.example.com/v2
kind: Conv
metadata: {name: c2}
spec: {a: 1}
---
apiVersion: kelp.example.com/v1
kind: Conv
metadata: {name: c1}
spec: {a: 1}
`

function run(clientConfig: string) {
  const dir = mkdtempSync(join(tmpdir(), 'kelp-conversion-'))
  writeFileSync(join(dir, 'crd.yaml'), crd(clientConfig))
  writeFileSync(join(dir, 'objects.yaml'), objects)
  return check({
    paths: [join(dir, 'objects.yaml')],
    policies: [join(dir, 'crd.yaml')],
    kubeVersion: '1.37',
    pack: 'off',
  })
}

describe('a CRD with a conversion webhook', () => {
  it('an object of a version other than the storage one: an Info naming the URL the apiserver posts to', () => {
    const r = run('{service: {namespace: default, name: conv-webhook, path: /convert}}')
    const byName = Object.fromEntries(r.objects.map((o) => [o.name, o]))
    expect(byName.c2?.outcome).toBe('allowed')
    expect(byName.c2?.findings.map((f) => [f.level, f.rule, f.message])).toEqual([
      [
        'info',
        'crd/conversion-webhook',
        'the CRD converts this version to its storage version with a webhook (https://conv-webhook.default.svc:443/convert), which the apiserver calls to store the object (a dry run too): its answer is not checked by kelp',
      ],
    ])
    expect(byName.c1?.findings ?? []).toEqual([])
  })
  it('a URL client config is named as written', () => {
    const r = run('{url: "https://conv.example.com:8443/c"}')
    const c2 = r.objects.find((o) => o.name === 'c2')
    expect(c2?.findings[0]?.message).toContain('(https://conv.example.com:8443/c)')
  })
})
