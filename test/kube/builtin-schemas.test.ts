import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import {
  BUILTIN_SCHEMA_RELEASES,
  builtinDefinitions,
  builtinDocument,
  builtinDocumentPaths,
  builtinDocumentText,
  goTypeName,
  resolvedSchemaFor,
  schemaFor,
} from '../../src/kube/builtin-schemas/index.js'

const root = join(import.meta.dirname, '../..')
const index = JSON.parse(readFileSync(join(root, 'data/builtin-schemas/index.json'), 'utf8')) as {
  sources: { release: string; version: string; sum: string }[]
  sha256: Record<string, Record<string, string>>
}
const sha = (t: string) => createHash('sha256').update(t).digest('hex')

describe('builtin schemas: loader', () => {
  it('ships 1.30 … 1.37 from the newest patch of each minor on the module proxy', () => {
    expect(BUILTIN_SCHEMA_RELEASES).toEqual(['1.30', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36', '1.37'])
    expect(index.sources.map((s) => s.version)).toEqual([
      'v1.30.14',
      'v1.31.14',
      'v1.32.13',
      'v1.33.13',
      'v1.34.4',
      'v1.35.4',
      'v1.36.3',
      'v1.37.2',
    ])
    for (const r of BUILTIN_SCHEMA_RELEASES) {
      expect(builtinDocumentPaths(r)).toContain('api/v1')
      expect(builtinDocumentPaths(r)).toContain('apis/apps/v1')
    }
  })

  it('schemaFor gives the kind, its Go type, formats, extensions, required and defaults, refs resolvable', () => {
    const k = schemaFor('1.37', { group: 'apps', version: 'v1', kind: 'Deployment' })
    expect(k?.name).toBe('io.k8s.api.apps.v1.Deployment')
    expect(k?.goType).toBe('Deployment')
    expect(k?.schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }])
    const props = k?.schema['properties'] as Record<string, Record<string, unknown>>
    expect(props['spec']).toMatchObject({ allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' }] })
    const spec = k?.resolve('#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec') as Record<string, any>
    expect(goTypeName('io.k8s.api.apps.v1.DeploymentSpec')).toBe('DeploymentSpec')
    expect(spec['properties']['replicas']).toMatchObject({ type: 'integer', format: 'int32' })
    expect(spec['required']).toEqual(['selector', 'template'])
    const intstr = k?.resolve('io.k8s.apimachinery.pkg.util.intstr.IntOrString')
    expect(intstr).toMatchObject({ format: 'int-or-string' })
    expect(intstr?.['type']).toBeUndefined()
    const container = k?.resolve('io.k8s.api.core.v1.Container') as Record<string, any>
    expect(container['properties']['ports']['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol'])
    expect(container['properties']['name']).toMatchObject({ type: 'string', default: '' })
    const secret = schemaFor('1.37', { group: '', version: 'v1', kind: 'Secret' })
    expect((secret?.schema['properties'] as any)?.data?.additionalProperties).toMatchObject({ format: 'byte' })
    // descriptions are apart: schema() has none, describedSchema() the published text
    expect(k?.schema['description']).toBeUndefined()
    expect(k?.definitions.describedSchema(k.name)?.['description']).toBe(
      'Deployment enables declarative updates for Pods and ReplicaSets.',
    )
    expect(schemaFor('1.37', { group: 'apps', version: 'v1', kind: 'Nope' })).toBeUndefined()
    expect(schemaFor('1.29', { group: 'apps', version: 'v1', kind: 'Deployment' })).toBeUndefined()
  })

  it('a kind is found only in the releases that publish its group-version', () => {
    const fs = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', kind: 'FlowSchema' }
    expect(schemaFor('1.31', fs)?.name).toBe('io.k8s.api.flowcontrol.v1beta3.FlowSchema')
    expect(schemaFor('1.32', fs)).toBeUndefined()
    expect(builtinDefinitions('1.32', 'flowcontrol.apiserver.k8s.io', 'v1beta3')).toBeUndefined()
    expect(builtinDefinitions('1.37', 'apps', 'v1')?.kinds()).toContain('DeploymentList')
  })

  it('resolvedSchemaFor populates refs as the apiserver (cycles cut to {type: object})', () => {
    const d = resolvedSchemaFor('1.37', { group: 'apps', version: 'v1', kind: 'Deployment' })
    const spec = d?.properties?.['spec']
    expect(spec?.properties?.['replicas']).toMatchObject({ type: 'integer', format: 'int32' })
    expect(spec?.properties?.['template']?.properties?.['spec']?.properties?.['containers']?.type).toBe('array')
    const crd = resolvedSchemaFor('1.37', {
      group: 'apiextensions.k8s.io',
      version: 'v1',
      kind: 'CustomResourceDefinition',
    })
    const props = crd?.properties?.['spec']?.properties?.['versions']?.items?.properties?.['schema']?.properties
    // JSONSchemaProps refers to itself
    expect(props?.['openAPIV3Schema']?.properties?.['properties']?.additionalProperties).toEqual({ type: 'object' })
  })

  it('lazy: loading apps/v1 reads only its manifest and the definition files its schemas reach', async () => {
    vi.resetModules()
    const fresh = await import('../../src/kube/builtin-schemas/index.js')
    expect(fresh.builtinSchemaFilesRead()).toEqual([])
    fresh.builtinDefinitions('1.37', 'apps', 'v1')
    expect(fresh.builtinSchemaFilesRead()).toEqual(['gv/apis__apps__v1.json.gz'])
    fresh.schemaFor('1.37', { group: 'apps', version: 'v1', kind: 'Deployment' })
    expect(fresh.builtinSchemaFilesRead()).toEqual(['gv/apis__apps__v1.json.gz', 'defs/io.k8s.api.apps.v1.json.gz'])
    fresh.resolvedSchemaFor('1.37', { group: 'apps', version: 'v1', kind: 'Deployment' })
    expect(new Set(fresh.builtinSchemaFilesRead())).toEqual(
      new Set([
        'gv/apis__apps__v1.json.gz',
        'defs/io.k8s.api.apps.v1.json.gz',
        'defs/io.k8s.apimachinery.json.gz',
        'defs/io.k8s.api.core.v1.json.gz',
      ]),
    )
    // another release of the same group-version: no new file (all releases share them)
    const before = fresh.builtinSchemaFilesRead().length
    fresh.resolvedSchemaFor('1.30', { group: 'apps', version: 'v1', kind: 'Deployment' })
    expect(fresh.builtinSchemaFilesRead().length).toBe(before)
  })
})

describe('builtin schemas: round trip', () => {
  // every document of every release rebuilt byte for byte: its sha256 is the published file's
  // (recorded by the generator); with the module in the Go module cache, also compared as text
  const sample = [
    ['1.30', 'api/v1'],
    ['1.30', 'apis/flowcontrol.apiserver.k8s.io/v1beta3'],
    ['1.32', 'apis/apps/v1'],
    ['1.33', 'apis/resource.k8s.io/v1beta2'],
    ['1.34', 'apis/admissionregistration.k8s.io/v1'],
    ['1.35', 'apis/batch/v1'],
    ['1.36', 'apis/networking.k8s.io/v1'],
    ['1.37', 'api/v1'],
    ['1.37', 'apis/apiextensions.k8s.io/v1'],
    ['1.37', 'apis/apps'],
    ['1.37', 'version'],
  ] as const
  it.each(sample)('%s %s reproduces the published document', (release, path) => {
    const text = builtinDocumentText(release, path)
    expect(text).toBeDefined()
    expect(sha(text as string)).toBe(index.sha256[release]?.[path])
    const version = index.sources.find((s) => s.release === release)?.version
    const file = join(
      process.env['GOMODCACHE'] ?? '/root/go/pkg/mod',
      `k8s.io/kubernetes@${version}/api/openapi-spec/v3/${path.split('/').join('__')}_openapi.json`,
    )
    if (existsSync(file)) expect(text).toBe(readFileSync(file, 'utf8'))
  })

  it('every document of every release has the published digest', () => {
    let n = 0
    for (const r of BUILTIN_SCHEMA_RELEASES) {
      expect(Object.keys(index.sha256[r] ?? {}).sort()).toEqual([...builtinDocumentPaths(r)].sort())
      for (const p of builtinDocumentPaths(r)) {
        expect(sha(builtinDocumentText(r, p) as string), `${r} ${p}`).toBe(index.sha256[r]?.[p])
        n++
      }
    }
    expect(n).toBeGreaterThan(400)
    expect(
      builtinDocument('1.37', 'apis/apps/v1')?.paths?.['/apis/apps/v1/namespaces/{namespace}/deployments'],
    ).toBeDefined()
  }, 60_000)
})
