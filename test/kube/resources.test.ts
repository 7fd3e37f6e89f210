import { describe, expect, it } from 'vitest'
import {
  BUILTIN_RESOURCES,
  crdMappingFromObject,
  EquivalentResourceRegistry,
  RESTMapper,
} from '../../src/kube/resources.js'
import { widgetCrd } from '../fixtures/widget-crd.js'

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

  const crd = widgetCrd({
    names: { kind: 'Widget', plural: 'widgets' },
    versions: [
      { name: 'v2', served: true, storage: true, subresources: { status: {}, scale: {} } },
      { name: 'v1', served: true, storage: false, subresources: { status: {} } },
      { name: 'v0', served: false, storage: false },
    ],
  })

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

// The mapping of a target release: kinds and versions served there by default. Expected values from
// the lifecycle data's sources (kubernetes/api <group>/<version>/zz_generated.prerelease-lifecycle.go):
// flowcontrol v1beta3 introduced 1.26, removed 1.32 (on by default: pkg/controlplane/instance.go
// legacyBetaEnabledByDefaultResources); flowcontrol v1 introduced 1.29; resource.k8s.io v1 introduced
// 1.34, v1beta1 / v1beta2 (1.32 / 1.33) off by default; policy/v1beta1 PodSecurityPolicy removed 1.25;
// extensions/v1beta1 Ingress removed 1.22; certificates.k8s.io/v1 ClusterTrustBundle introduced 1.37.
describe('RESTMapper of a release', () => {
  const served = (release: string, group: string, version: string, kind: string) =>
    new RESTMapper({ release }).resourcesForKind({ group, version, kind }).map((r) => r.resource)
  const fc = 'flowcontrol.apiserver.k8s.io'

  it('1.29 serves flowcontrol v1beta3 FlowSchema (deprecated, still served) and v1; 1.32 only v1', () => {
    expect(served('1.29', fc, 'v1beta3', 'FlowSchema')).toEqual(['flowschemas'])
    expect(served('1.29', fc, 'v1', 'FlowSchema')).toEqual(['flowschemas'])
    expect(served('1.28', fc, 'v1', 'FlowSchema')).toEqual([])
    expect(served('1.32', fc, 'v1beta3', 'FlowSchema')).toEqual([])
    expect(served('1.32', fc, 'v1', 'FlowSchema')).toEqual(['flowschemas'])
  })

  it('resource.k8s.io/v1 DeviceClass from 1.34; 1.33 serves no DeviceClass by default', () => {
    expect(served('1.36', 'resource.k8s.io', 'v1', 'DeviceClass')).toEqual(['deviceclasses'])
    expect(served('1.34', 'resource.k8s.io', 'v1', 'DeviceClass')).toEqual(['deviceclasses'])
    for (const v of ['v1', 'v1beta1', 'v1beta2'])
      expect(served('1.33', 'resource.k8s.io', v, 'DeviceClass')).toEqual([])
    expect(
      new RESTMapper({ release: '1.33', runtimeConfig: { 'resource.k8s.io/v1beta1': true } }).resourcesForKind({
        group: 'resource.k8s.io',
        version: 'v1beta1',
        kind: 'DeviceClass',
      }),
    ).toHaveLength(1)
  })

  it('kinds removed before 1.36 are served by the releases before their removal, with their scope', () => {
    const psp = new RESTMapper({ release: '1.24' }).resourcesForKind({
      group: 'policy',
      version: 'v1beta1',
      kind: 'PodSecurityPolicy',
    })
    expect(psp.map((r) => [r.resource, r.namespaced])).toEqual([['podsecuritypolicies', false]])
    expect(served('1.25', 'policy', 'v1beta1', 'PodSecurityPolicy')).toEqual([])
    expect(served('1.21', 'extensions', 'v1beta1', 'Ingress')).toEqual(['ingresses'])
    expect(served('1.22', 'extensions', 'v1beta1', 'Ingress')).toEqual([])
    expect(served('1.24', 'batch', 'v1beta1', 'CronJob')).toEqual(['cronjobs'])
    expect(served('1.25', 'autoscaling', 'v2beta2', 'HorizontalPodAutoscaler')).toEqual(['horizontalpodautoscalers'])
    expect(served('1.26', 'autoscaling', 'v2beta2', 'HorizontalPodAutoscaler')).toEqual([])
    expect(served('1.22', 'autoscaling', 'v2', 'HorizontalPodAutoscaler')).toEqual([])
  })

  it('1.37 adds its GA kinds; 1.36 does not serve them', () => {
    expect(served('1.37', 'certificates.k8s.io', 'v1', 'ClusterTrustBundle')).toEqual(['clustertrustbundles'])
    expect(served('1.36', 'certificates.k8s.io', 'v1', 'ClusterTrustBundle')).toEqual([])
  })

  it('extensions and networking.k8s.io ingresses are equivalent while both are served (cohabiting)', () => {
    const m = new RESTMapper({ release: '1.21' })
    expect(m.equivalentResourcesFor({ group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' }, '')).toEqual([
      { group: 'extensions', version: 'v1beta1', resource: 'ingresses' },
      { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' },
      { group: 'networking.k8s.io', version: 'v1beta1', resource: 'ingresses' },
    ])
  })

  it('1.36 as a release is the 1.36 table', () => {
    const key = (r: { group: string; version: string; resource: string }) => `${r.group}/${r.version}/${r.resource}`
    expect(new RESTMapper({ release: '1.36' }).resources().map(key)).toEqual(new RESTMapper().resources().map(key))
  })

  it('core kinds of every release', () => {
    expect(served('1.16', '', 'v1', 'Pod')).toEqual(['pods'])
    expect(() => new RESTMapper({ release: 'v1.29.1' })).toThrow(RangeError)
  })
})
