import { describe, expect, it } from 'vitest'
import { decodeBuiltin } from '../../src/builtin/index.js'
import {
  computeFieldsNotInRelease,
  fieldsNotInReleaseTable,
  openAPIDefinitionName,
} from '../../src/builtin/release-fields.js'
import { SUPPORTED_VERSIONS } from '../../src/kube/environment.js'

// A field newer than the target release is unknown to that release's apiserver: kubectl apply (strict
// field validation) gets `strict decoding error: unknown field "<path>"`, Warn warns and drops it.
// Which release has which field: each release's published OpenAPI v3 definitions (k8s.io/kubernetes
// api/openapi-spec/v3 at the release tag, data/builtin-schemas). PodSpec.resources (pod-level
// resources, KEP-2837) first appears in 1.32's; Container.restartPolicyRules in 1.34's.

type O = Record<string, any>
const objectOf = (r: ReturnType<typeof decodeBuiltin>): O => (r?.object ?? {}) as O
const deployment = (podSpec: O): O => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: podSpec },
  },
})
const podResources = deployment({
  resources: { limits: { cpu: '1' } },
  containers: [{ name: 'web', image: 'nginx:1.27' }],
})
const restartRules = deployment({
  containers: [
    {
      name: 'web',
      image: 'nginx:1.27',
      restartPolicy: 'Never',
      restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }],
    },
  ],
})

describe('fields newer than the target release (its OpenAPI definitions)', () => {
  it('are strict decoding errors for the releases that lack them', () => {
    for (const minor of [30, 31]) {
      const r = decodeBuiltin(podResources, { minor })
      expect(r?.allowed, `1.${minor}`).toBe(false)
      expect(r?.status).toMatchObject({ code: 400, reason: 'BadRequest' })
      expect(r?.message).toBe(
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ' +
          'unknown field "spec.template.spec.resources"',
      )
    }
    for (const minor of [32, 36, 37]) expect(decodeBuiltin(podResources, { minor })?.allowed, `1.${minor}`).toBe(true)
    expect(decodeBuiltin(restartRules, { minor: 33 })?.message).toMatch(
      /unknown field "spec\.template\.spec\.containers\[0\]\.restartPolicyRules"$/,
    )
    expect(decodeBuiltin(restartRules, { minor: 34 })?.allowed).toBe(true)
  })

  it('are warned about and dropped under Warn, dropped under Ignore', () => {
    const warn = decodeBuiltin(podResources, { minor: 31, fieldValidation: 'Warn' })
    expect(warn?.allowed).toBe(true)
    expect(warn?.warnings).toEqual(['unknown field "spec.template.spec.resources"'])
    expect(objectOf(warn).spec.template.spec).not.toHaveProperty('resources')
    const ignore = decodeBuiltin(podResources, { minor: 31, fieldValidation: 'Ignore' })
    expect(ignore?.warnings).toEqual([])
    expect(objectOf(ignore).spec.template.spec).not.toHaveProperty('resources')
    // the newest release keeps it
    expect(objectOf(decodeBuiltin(podResources, { minor: 37 })).spec.template.spec.resources).toEqual({
      limits: { cpu: '1' },
    })
  })

  it('are reported in the order of the body among the other unknown fields', () => {
    const o = deployment({ containers: [{ name: 'web', image: 'nginx:1.27', typo: 1 }], resources: {} })
    expect(decodeBuiltin(o, { minor: 31 })?.message).toMatch(
      /strict decoding error: unknown field "spec\.template\.spec\.containers\[0\]\.typo", unknown field "spec\.template\.spec\.resources"$/,
    )
  })

  it('are hidden after the decoder has generated its code for a struct (the compiled path)', () => {
    // the decoders interpret their first objects and generate code after that (decode.ts COMPILE_AFTER)
    for (let i = 0; i < 40; i++) decodeBuiltin(podResources, { minor: 37 })
    expect(decodeBuiltin(podResources, { minor: 31 })?.allowed).toBe(false)
    expect(decodeBuiltin(podResources, { minor: 37 })?.allowed).toBe(true)
  })
})

describe('release-fields.generated.ts (scripts/generate-release-fields.js)', () => {
  it('names the OpenAPI definitions of the Go structs', () => {
    expect(openAPIDefinitionName('core/v1.PodSpec')).toBe('io.k8s.api.core.v1.PodSpec')
    expect(openAPIDefinitionName('apps/v1.DeploymentSpec')).toBe('io.k8s.api.apps.v1.DeploymentSpec')
    expect(openAPIDefinitionName('apis/meta/v1.ObjectMeta')).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')
  })

  it('the newest release has every field of the Go types (the mapping holds)', () => {
    expect(computeFieldsNotInRelease('1.37')).toEqual({})
  })

  it.each(SUPPORTED_VERSIONS.filter((v) => v !== '1.37'))('%s: is what the release definitions give', (release) => {
    const table = fieldsNotInReleaseTable()
    expect(table[release]).toEqual(computeFieldsNotInRelease(release))
  })
})
