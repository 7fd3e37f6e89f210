import { describe, expect, it } from 'vitest'
import { builtinPatchMeta, builtinPatchMetaFromOpenAPIV3 } from '../../../src/kube/patch/patch-meta.js'

// The patch meta of built-in kinds read from the release's published OpenAPI v3 schemas; expected
// values are the Go types' tags (k8s.io/api core/v1 types.go, apps/v1 types.go).

const deployment = { group: 'apps', version: 'v1', kind: 'Deployment' }

describe('builtinPatchMeta', () => {
  const meta = builtinPatchMeta('1.33', deployment)
  if (meta === undefined) throw new Error('no Deployment schema')
  const [spec] = meta.lookupPatchMetadataForStruct('spec')
  const [template] = spec.lookupPatchMetadataForStruct('template')
  const [podSpec] = template.lookupPatchMetadataForStruct('spec')

  it('PodSpec.containers: patchStrategy merge, patchMergeKey name', () => {
    const [container, m] = podSpec.lookupPatchMetadataForSlice('containers')
    expect(m.patchStrategies).toEqual(['merge'])
    expect(m.patchMergeKey).toBe('name')
    const [, env] = container.lookupPatchMetadataForSlice('env')
    expect([env.patchStrategies, env.patchMergeKey]).toEqual([['merge'], 'name'])
    const [, ports] = container.lookupPatchMetadataForSlice('ports')
    expect([ports.patchStrategies, ports.patchMergeKey]).toEqual([['merge'], 'containerPort'])
    // a list without patch tags: replaced whole, whatever its list type
    const [, args] = container.lookupPatchMetadataForSlice('args')
    expect(args.patchStrategies).toEqual([])
  })

  it('PodSpec.volumes: patchStrategy merge,retainKeys', () => {
    const [, m] = podSpec.lookupPatchMetadataForSlice('volumes')
    expect([m.patchStrategies, m.patchMergeKey]).toEqual([['merge', 'retainKeys'], 'name'])
  })

  it('DeploymentSpec.strategy: patchStrategy retainKeys (a field whose schema is a $ref)', () => {
    const [, m] = spec.lookupPatchMetadataForStruct('strategy')
    expect(m.patchStrategies).toEqual(['retainKeys'])
  })

  it('map-typed fields take any key (the Go map type), unknown struct fields are errors', () => {
    const [objectMeta] = meta.lookupPatchMetadataForStruct('metadata')
    const [labels, m] = objectMeta.lookupPatchMetadataForStruct('labels')
    expect(m.patchStrategies).toEqual([])
    expect(() => labels.lookupPatchMetadataForStruct('__proto__')).not.toThrow()
    expect(() => spec.lookupPatchMetadataForStruct('nope')).toThrow(
      'unable to find api field in struct DeploymentSpec for the json field "nope"',
    )
  })

  it("kubectl's OpenAPI v3 lookup refuses map keys (kubectl then falls back to the Go types)", () => {
    const v3 = builtinPatchMetaFromOpenAPIV3('1.33', deployment)
    if (v3 === undefined) throw new Error('no Deployment schema')
    const [objectMeta] = v3.lookupPatchMetadataForStruct('metadata')
    const [labels] = objectMeta.lookupPatchMetadataForStruct('labels')
    expect(() => labels.lookupPatchMetadataForStruct('app')).toThrow('unable to find api field "app"')
  })

  it('kinds the release does not serve have none', () => {
    expect(builtinPatchMeta('1.33', { group: 'example.com', version: 'v1', kind: 'Widget' })).toBeUndefined()
  })
})
