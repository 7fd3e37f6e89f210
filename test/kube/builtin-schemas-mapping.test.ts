import { describe, expect, it } from 'vitest'
import { BUILTIN_SCHEMA_RELEASES, builtinDocument, builtinDocumentPaths } from '../../src/kube/builtin-schemas/index.js'
import { builtinResourcesAt, RESTMapper } from '../../src/kube/resources.js'

// The REST mapping of 1.30 … 1.37 is the published OpenAPI v3 documents' (api/openapi-spec/v3 of
// k8s.io/kubernetes v1.30.14 … v1.37.2). Each release's mapping is checked here against its documents,
// read independently of the generator: every collection path names a resource of the group-version
// with the kind its operations carry, namespaced when it sits under /namespaces/{namespace}/.

interface Seen {
  kind: string
  namespaced: boolean
  subs: Map<string, string>
}

function fromDocuments(release: string): Map<string, Seen> {
  const out = new Map<string, Seen>()
  for (const path of builtinDocumentPaths(release)) {
    const m = /^(api\/v1|apis\/[^/]+\/[^/]+)$/.exec(path)
    if (m === null) continue
    const doc = builtinDocument(release, path)
    for (const [p, item] of Object.entries(doc?.paths ?? {})) {
      const rest = p.slice(path.length + 2)
      const mm = /^(?:namespaces\/\{namespace\}\/)?([a-z0-9]+)(?:\/\{name\}(?:\/([a-z]+))?)?$/.exec(rest)
      if (mm === null || rest.startsWith('watch/') || rest === '') continue
      const ops = item as Record<string, { 'x-kubernetes-group-version-kind'?: Record<string, string> }>
      const g = Object.values(ops).find((o) => o?.['x-kubernetes-group-version-kind'])?.[
        'x-kubernetes-group-version-kind'
      ]
      if (g === undefined) continue
      const key = `${path.replace(/^apis?\//, '')} ${mm[1]}`
      let s = out.get(key)
      if (s === undefined) out.set(key, (s = { kind: '', namespaced: false, subs: new Map() }))
      if (rest.startsWith('namespaces/{namespace}/')) s.namespaced = true
      if (mm[2] === undefined) s.kind = g['kind'] as string
      else s.subs.set(mm[2], `${g['group'] ? `${g['group']}/` : ''}${g['version']}/${g['kind']}`)
    }
  }
  return out
}

describe('REST mapping from the published documents', () => {
  it.each(BUILTIN_SCHEMA_RELEASES)('%s: resources, kinds, scopes and subresources are the documents’', (release) => {
    const docs = fromDocuments(release)
    const mapped = new Map(
      builtinResourcesAt(release).map((r) => [`${r.group === '' ? '' : `${r.group}/`}${r.version} ${r.resource}`, r]),
    )
    expect([...mapped.keys()].sort()).toEqual([...docs.keys()].sort())
    for (const [key, s] of docs) {
      const r = mapped.get(key)
      expect({ key, kind: r?.kind, namespaced: r?.namespaced }).toEqual({ key, kind: s.kind, namespaced: s.namespaced })
      const subs = Object.fromEntries(
        Object.entries(r?.subresources ?? {}).map(([n, g]) => [
          n,
          `${g.group ? `${g.group}/` : ''}${g.version}/${g.kind}`,
        ]),
      )
      expect({ key, subs }).toEqual({ key, subs: Object.fromEntries(s.subs) })
    }
  })

  const has = (release: string, gv: string, resource: string, sub?: string) => {
    const r = builtinResourcesAt(release).find(
      (x) => `${x.group === '' ? '' : `${x.group}/`}${x.version}` === gv && x.resource === resource,
    )
    return sub === undefined ? r !== undefined : r !== undefined && sub in r.subresources
  }

  it('what the documents corrected in the hand-kept table', () => {
    // pods/resize is a subresource from 1.32 (InPlacePodVerticalScaling moved to it)
    expect(has('1.31', 'v1', 'pods', 'resize')).toBe(false)
    expect(has('1.32', 'v1', 'pods', 'resize')).toBe(true)
    // scheduling.k8s.io/v1alpha2 PodGroup / Workload: 1.36 only (1.35 has v1alpha1 Workload, 1.37 v1alpha3)
    expect(has('1.35', 'scheduling.k8s.io/v1alpha2', 'workloads')).toBe(false)
    expect(has('1.35', 'scheduling.k8s.io/v1alpha1', 'workloads')).toBe(true)
    expect(has('1.36', 'scheduling.k8s.io/v1alpha2', 'podgroups')).toBe(true)
    expect(has('1.37', 'scheduling.k8s.io/v1alpha2', 'podgroups')).toBe(false)
    expect(has('1.37', 'scheduling.k8s.io/v1alpha3', 'compositepodgroups')).toBe(true)
    // networking.k8s.io/v1alpha1 IPAddress / ServiceCIDR: last served by 1.30
    expect(has('1.30', 'networking.k8s.io/v1alpha1', 'servicecidrs')).toBe(true)
    expect(has('1.31', 'networking.k8s.io/v1alpha1', 'servicecidrs')).toBe(false)
    // authentication SelfSubjectReview v1alpha1 (to 1.31) and v1beta1 (to 1.32)
    expect(has('1.31', 'authentication.k8s.io/v1alpha1', 'selfsubjectreviews')).toBe(true)
    expect(has('1.32', 'authentication.k8s.io/v1beta1', 'selfsubjectreviews')).toBe(true)
    expect(has('1.33', 'authentication.k8s.io/v1beta1', 'selfsubjectreviews')).toBe(false)
    // resource.k8s.io/v1alpha2 (1.30), PodSchedulingContext in v1alpha3 (1.31)
    expect(has('1.30', 'resource.k8s.io/v1alpha2', 'resourceclasses')).toBe(true)
    expect(has('1.31', 'resource.k8s.io/v1alpha3', 'podschedulingcontexts')).toBe(true)
    // resource.k8s.io/v1alpha3 DeviceTaintRule has no status subresource in 1.33 and 1.34
    expect(has('1.33', 'resource.k8s.io/v1alpha3', 'devicetaintrules')).toBe(true)
    expect(has('1.34', 'resource.k8s.io/v1alpha3', 'devicetaintrules', 'status')).toBe(false)
    // csinodes/status from 1.37
    expect(has('1.36', 'storage.k8s.io/v1', 'csinodes', 'status')).toBe(false)
    expect(has('1.37', 'storage.k8s.io/v1', 'csinodes', 'status')).toBe(true)
  })

  it('the documents list every API (alpha too); default flags serve GA, legacy betas, as the lifecycle table says', () => {
    const on = new RESTMapper({ release: '1.37' })
    expect(on.resourceFor({ group: 'scheduling.k8s.io', version: 'v1alpha3', resource: 'workloads' })).toBeUndefined()
    expect(on.resourceFor({ group: 'apps', version: 'v1', resource: 'deployments' })?.namespaced).toBe(true)
    const all = new RESTMapper({ release: '1.37', runtimeConfig: { 'api/all': true } })
    expect(all.resourceFor({ group: 'scheduling.k8s.io', version: 'v1alpha3', resource: 'workloads' })?.kind).toBe(
      'Workload',
    )
    const r30 = new RESTMapper({ release: '1.30' })
    expect(
      r30.resourceFor({ group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'flowschemas' }),
    ).toBeDefined()
    expect(
      r30.resourceFor({ group: 'resource.k8s.io', version: 'v1alpha2', resource: 'resourceclaims' }),
    ).toBeUndefined()
  })

  it('registration order: core first, groups as instance.go installs them, versions by priority', () => {
    const gvs = [...new Set(builtinResourcesAt('1.37').map((r) => `${r.group}/${r.version}`))]
    expect(gvs[0]).toBe('/v1')
    expect(gvs.indexOf('autoscaling/v2')).toBeLessThan(gvs.indexOf('autoscaling/v1'))
    expect(gvs.indexOf('resource.k8s.io/v1')).toBeLessThan(gvs.indexOf('resource.k8s.io/v1beta2'))
    expect(gvs.indexOf('resource.k8s.io/v1beta1')).toBeLessThan(gvs.indexOf('resource.k8s.io/v1alpha3'))
    expect(gvs.at(-1)).toBe('apiregistration.k8s.io/v1')
    const m = new RESTMapper({ release: '1.37' })
    expect(m.equivalentResourcesFor({ group: '', version: 'v1', resource: 'events' }, '')).toEqual([
      { group: '', version: 'v1', resource: 'events' },
      { group: 'events.k8s.io', version: 'v1', resource: 'events' },
    ])
  })
})
