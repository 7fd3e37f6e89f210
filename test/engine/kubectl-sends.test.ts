import { describe, expect, it } from 'vitest'
import { decodeBuiltin } from '../../src/builtin/index.js'
import { kubectlRefusal } from '../../src/engine/kubectl.js'
import { PolicySet } from '../../src/engine/policy-set.js'

// What kubectl sends and what it refuses first (issue 28). Expected texts: a real kube-apiserver and kubectl
// v1.37.2 (`kubectl apply --dry-run=server -f`), also in test/e2e/differential/cases/kinds/kubectl.yaml.

describe('a kind spelled all in lower case', () => {
  // client-go restmapper/discovery.go registers strings.ToLower(resource.Kind) beside each kind: kubectl sends it;
  // the apiserver's scheme has no such kind (runtime/scheme.go NotRegisteredErr via transformDecodeError)
  it('a built-in kind: 400 BadRequest from the decoder', () => {
    const r = decodeBuiltin({ apiVersion: 'apps/v1', kind: 'deployment', metadata: { name: 'd' }, spec: {} })
    expect(r?.status).toEqual({
      code: 400,
      reason: 'BadRequest',
      message:
        'deployment in version "v1" cannot be handled as a Deployment: no kind "deployment" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:111"',
    })
    const set = PolicySet.build([])
    expect(set.validate({ apiVersion: 'v1', kind: 'configmap', metadata: { name: 'lower' } }).status?.message).toBe(
      'configmap in version "v1" cannot be handled as a ConfigMap: no kind "configmap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"',
    )
  })
  it('another spelling is not mapped: no matches for kind', () => {
    expect(decodeBuiltin({ apiVersion: 'v1', kind: 'configMap', metadata: { name: 'm' } })).toBeUndefined()
    const r = PolicySet.build([]).validate({ apiVersion: 'v1', kind: 'configMap', metadata: { name: 'm' } })
    expect(r.status?.message).toBe('no matches for kind "configMap" in version "v1"')
  })
  it('a custom resource: the CRD handler refuses its kind (`kind: Invalid value: "lower": must be Lower`)', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'lowers.kelp.example.com' },
      spec: {
        group: 'kelp.example.com',
        names: { kind: 'Lower', plural: 'lowers', singular: 'lower', listKind: 'LowerList' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    }
    const set = PolicySet.build([crd])
    const r = set.validate({
      apiVersion: 'kelp.example.com/v1',
      kind: 'lower',
      metadata: { name: 'l' },
      spec: { a: 1 },
    })
    expect(r.allowed).toBe(false)
    expect(r.status?.message).toBe('lower.kelp.example.com "l" is invalid: kind: Invalid value: "lower": must be Lower')
  })
})

describe('kubectlRefusal (client-go rest/request.go, the GET kubectl apply starts with)', () => {
  it('no name: resource name may not be empty', () => {
    expect(kubectlRefusal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, 'x.yaml', true)).toBe(
      'resource name may not be empty',
    )
    expect(kubectlRefusal({ apiVersion: 'v1', kind: 'ConfigMap' }, 'x.yaml', true)).toBe(
      'resource name may not be empty',
    )
  })
  it('a generateName is checked as kubectl create sends it (no refusal here)', () => {
    expect(
      kubectlRefusal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'x-' } }, 'x.yaml', true),
    ).toBe(undefined)
  })
  it("a name with '/': invalid resource name", () => {
    expect(kubectlRefusal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a/b' } }, 'x.yaml', true)).toBe(
      `invalid resource name "a/b": [may not contain '/']`,
    )
  })
})
