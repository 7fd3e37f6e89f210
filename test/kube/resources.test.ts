import { describe, expect, it } from 'vitest'
import {
  BUILTIN_RESOURCES,
  crdMappingFromObject,
  EquivalentResourceRegistry,
  RESTMapper,
} from '../../src/kube/resources.js'

const gvr = (group: string, version: string, resource: string) => ({ group, version, resource })
const gvk = (group: string, version: string, kind: string) => ({ group, version, kind })

describe('EquivalentResourceRegistry (apimachinery pkg/runtime/mapper.go)', () => {
  it('all versions of a group/resource are equivalent by default; kinds per subresource', () => {
    const r = new EquivalentResourceRegistry()
    r.registerKindFor(gvr('apps', 'v1', 'deployments'), '', gvk('apps', 'v1', 'Deployment'))
    r.registerKindFor(gvr('apps', 'v1beta1', 'deployments'), '', gvk('apps', 'v1beta1', 'Deployment'))
    r.registerKindFor(gvr('extensions', 'v1beta1', 'deployments'), '', gvk('extensions', 'v1beta1', 'Deployment'))
    r.registerKindFor(gvr('apps', 'v1', 'deployments'), 'scale', gvk('autoscaling', 'v1', 'Scale'))
    expect(r.equivalentResourcesFor(gvr('apps', 'v1beta1', 'deployments'), '')).toEqual([
      gvr('apps', 'v1', 'deployments'),
      gvr('apps', 'v1beta1', 'deployments'),
    ])
    expect(r.equivalentResourcesFor(gvr('apps', 'v1beta1', 'deployments'), 'scale')).toEqual([
      gvr('apps', 'v1', 'deployments'),
    ])
    expect(r.kindFor(gvr('apps', 'v1', 'deployments'), 'scale')).toEqual(gvk('autoscaling', 'v1', 'Scale'))
    expect(r.kindFor(gvr('apps', 'v1', 'deployments'), 'status')).toEqual(gvk('', '', ''))
    expect(r.equivalentResourcesFor(gvr('x', 'v1', 'y'), '')).toEqual([])
  })
  it('an identity function co-locates resources across groups', () => {
    const r = new EquivalentResourceRegistry((_g, res) => (res === 'deployments' ? '/deployments' : ''))
    r.registerKindFor(gvr('extensions', 'v1beta1', 'deployments'), '', gvk('extensions', 'v1beta1', 'Deployment'))
    r.registerKindFor(gvr('apps', 'v1', 'deployments'), '', gvk('apps', 'v1', 'Deployment'))
    expect(r.equivalentResourcesFor(gvr('apps', 'v1', 'deployments'), '')).toHaveLength(2)
  })
})

describe('BUILTIN_RESOURCES (Kubernetes 1.36)', () => {
  const find = (g: string, v: string, r: string) =>
    BUILTIN_RESOURCES.find((x) => x.group === g && x.version === v && x.resource === r)
  it('has the core kinds with scope and subresources', () => {
    expect(find('', 'v1', 'pods')).toMatchObject({ kind: 'Pod', namespaced: true, defaultEnabled: true })
    expect(find('', 'v1', 'pods')?.subresources).toMatchObject({
      status: gvk('', 'v1', 'Pod'),
      exec: gvk('', 'v1', 'PodExecOptions'),
      eviction: gvk('policy', 'v1', 'Eviction'),
      binding: gvk('', 'v1', 'Binding'),
      ephemeralcontainers: gvk('', 'v1', 'Pod'),
      resize: gvk('', 'v1', 'Pod'),
    })
    expect(find('', 'v1', 'namespaces')).toMatchObject({ kind: 'Namespace', namespaced: false })
    expect(find('', 'v1', 'serviceaccounts')?.subresources['token']).toEqual(
      gvk('authentication.k8s.io', 'v1', 'TokenRequest'),
    )
    expect(find('', 'v1', 'nodes')?.subresources['proxy']).toEqual(gvk('', 'v1', 'NodeProxyOptions'))
  })
  it('scale subresources are autoscaling/v1 Scale', () => {
    for (const r of ['deployments', 'replicasets', 'statefulsets'])
      expect(find('apps', 'v1', r)?.subresources['scale']).toEqual(gvk('autoscaling', 'v1', 'Scale'))
    expect(find('', 'v1', 'replicationcontrollers')?.subresources['scale']).toEqual(gvk('autoscaling', 'v1', 'Scale'))
    expect(find('apps', 'v1', 'daemonsets')?.subresources['scale']).toBeUndefined()
  })
  it('GA versions on by default, prerelease off; removed versions absent', () => {
    expect(find('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies')?.defaultEnabled).toBe(true)
    expect(find('admissionregistration.k8s.io', 'v1beta1', 'mutatingadmissionpolicies')?.defaultEnabled).toBe(false)
    expect(find('admissionregistration.k8s.io', 'v1beta1', 'validatingadmissionpolicies')).toBeUndefined()
    expect(find('extensions', 'v1beta1', 'deployments')).toBeUndefined()
    expect(find('apps', 'v1beta1', 'deployments')).toBeUndefined()
    expect(find('policy', 'v1beta1', 'poddisruptionbudgets')).toBeUndefined()
    expect(find('flowcontrol.apiserver.k8s.io', 'v1beta3', 'flowschemas')).toBeUndefined()
    expect(find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')?.subresources['status']).toBeDefined()
  })
  it('no duplicate group/version/resource', () => {
    const keys = BUILTIN_RESOURCES.map((r) => `${r.group}/${r.version}/${r.resource}`)
    expect(new Set(keys).size).toBe(keys.length)
  })
})

describe('RESTMapper', () => {
  it('maps built-ins and their equivalents (events, autoscaling v1/v2)', () => {
    const m = new RESTMapper()
    expect(m.equivalentResourcesFor(gvr('', 'v1', 'events'), '')).toEqual([
      gvr('', 'v1', 'events'),
      gvr('events.k8s.io', 'v1', 'events'),
    ])
    expect(m.equivalentResourcesFor(gvr('events.k8s.io', 'v1', 'events'), '')).toHaveLength(2)
    expect(m.equivalentResourcesFor(gvr('autoscaling', 'v1', 'horizontalpodautoscalers'), 'status')).toEqual([
      gvr('autoscaling', 'v2', 'horizontalpodautoscalers'),
      gvr('autoscaling', 'v1', 'horizontalpodautoscalers'),
    ])
    expect(m.kindFor(gvr('apps', 'v1', 'deployments'), 'scale')).toEqual(gvk('autoscaling', 'v1', 'Scale'))
    expect(m.kindFor(gvr('apps', 'v1', 'deployments'), '')).toEqual(gvk('apps', 'v1', 'Deployment'))
    expect(m.resourceFor(gvr('', 'v1', 'configmaps'))?.namespaced).toBe(true)
    expect(m.resourcesForKind(gvk('rbac.authorization.k8s.io', 'v1', 'ClusterRole')).map((r) => r.resource)).toEqual([
      'clusterroles',
    ])
    // prerelease versions are not served by default
    expect(m.resourceFor(gvr('resource.k8s.io', 'v1beta1', 'resourceclaims'))).toBeUndefined()
    expect(m.equivalentResourcesFor(gvr('resource.k8s.io', 'v1', 'resourceclaims'), '')).toEqual([
      gvr('resource.k8s.io', 'v1', 'resourceclaims'),
    ])
  })

  it('runtimeConfig enables prerelease versions (specific wins over api/…)', () => {
    const m = new RESTMapper({ runtimeConfig: { 'resource.k8s.io/v1beta2': true } })
    expect(m.equivalentResourcesFor(gvr('resource.k8s.io', 'v1', 'resourceclaims'), '')).toEqual([
      gvr('resource.k8s.io', 'v1', 'resourceclaims'),
      gvr('resource.k8s.io', 'v1beta2', 'resourceclaims'),
    ])
    const all = new RESTMapper({ runtimeConfig: { 'api/all': true, 'api/alpha': false, v1: true } })
    expect(all.resourceFor(gvr('resource.k8s.io', 'v1beta1', 'resourceclaims'))).toBeDefined()
    expect(all.resourceFor(gvr('resource.k8s.io', 'v1alpha3', 'devicetaintrules'))).toBeUndefined()
    const noCore = new RESTMapper({ runtimeConfig: { 'api/v1': false } })
    expect(noCore.resourceFor(gvr('', 'v1', 'pods'))).toBeUndefined()
  })

  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets' },
      versions: [
        { name: 'v2', served: true, storage: true, subresources: { status: {}, scale: {} } },
        { name: 'v1', served: true, storage: false, subresources: { status: {} } },
        { name: 'v0', served: false, storage: false },
      ],
    },
  }

  it('CRDs join the mapping: served versions equivalent, in spec order', () => {
    const mapping = crdMappingFromObject(crd)
    expect(mapping).toEqual({
      group: 'example.com',
      kind: 'Widget',
      plural: 'widgets',
      namespaced: true,
      versions: ['v2', 'v1'],
      versionSubresources: { v2: ['status', 'scale'], v1: ['status'] },
    })
    const m = new RESTMapper()
    expect(m.resourceFor(gvr('example.com', 'v1', 'widgets'))).toBeUndefined()
    m.addCRD(mapping)
    expect(m.equivalentResourcesFor(gvr('example.com', 'v1', 'widgets'), '')).toEqual([
      gvr('example.com', 'v2', 'widgets'),
      gvr('example.com', 'v1', 'widgets'),
    ])
    expect(m.equivalentResourcesFor(gvr('example.com', 'v1', 'widgets'), 'scale')).toEqual([
      gvr('example.com', 'v2', 'widgets'),
    ])
    expect(m.kindFor(gvr('example.com', 'v2', 'widgets'), 'scale')).toEqual(gvk('autoscaling', 'v1', 'Scale'))
    expect(m.kindFor(gvr('example.com', 'v1', 'widgets'), 'status')).toEqual(gvk('example.com', 'v1', 'Widget'))
    expect(m.resourceFor(gvr('example.com', 'v0', 'widgets'))).toBeUndefined()
    expect(m.resourcesForKind(gvk('example.com', 'v2', 'Widget'))[0]).toMatchObject({
      resource: 'widgets',
      builtin: false,
    })
    // replacing and removing
    m.addCRD({ group: 'example.com', kind: 'Widget', plural: 'widgets', namespaced: false, versions: ['v3'] })
    expect(m.equivalentResourcesFor(gvr('example.com', 'v3', 'widgets'), '')).toEqual([
      gvr('example.com', 'v3', 'widgets'),
    ])
    expect(m.removeCRD('example.com', 'widgets')).toBe(true)
    expect(m.resourceFor(gvr('example.com', 'v3', 'widgets'))).toBeUndefined()
    expect(new RESTMapper({ crds: [mapping] }).resourceFor(gvr('example.com', 'v2', 'widgets'))?.namespaced).toBe(true)
  })
})
