import { describe, expect, it } from 'vitest'
import { DefaultPodSecurityConfiguration } from '../../../../src/builtin/admission/podsecurity/admission.js'
import { loadPodSecurityConfiguration } from '../../../../src/builtin/admission/podsecurity/configuration.js'

// The PodSecurity plugin's configuration (k8s.io/pod-security-admission v0.37.2 admission/api): the tables of
// admission/api/validation/validation_test.go TestValidatePodSecurityConfiguration, v1/defaults.go, and the
// words of plugin/pkg/admission/security/podsecurity/admission.go ValidateInitialization.

const v1 = (body: Record<string, unknown>) => ({
  apiVersion: 'pod-security.admission.config.k8s.io/v1',
  kind: 'PodSecurityConfiguration',
  ...body,
})

describe('loadPodSecurityConfiguration', () => {
  it('no configuration: privileged:latest everywhere, no exemptions (LoadFromData(nil))', () => {
    expect(loadPodSecurityConfiguration(undefined)).toEqual({ configuration: DefaultPodSecurityConfiguration })
  })

  it('defaults: an empty level is privileged, an empty version latest (SetDefaults_PodSecurityDefaults)', () => {
    const r = loadPodSecurityConfiguration(v1({ defaults: { enforce: 'baseline', 'warn-version': 'v1.30' } }))
    if (!('configuration' in r)) throw new Error(r.error)
    const d = r.configuration.defaults
    expect([d.enforce.level, d.enforce.version.text]).toEqual(['baseline', 'latest'])
    expect([d.audit.level, d.audit.version.text]).toEqual(['privileged', 'latest'])
    expect([d.warn.level, d.warn.version.text]).toEqual(['privileged', 'v1.30'])
  })

  it('v1beta1 and v1alpha1 are read as v1', () => {
    for (const version of ['v1beta1', 'v1alpha1']) {
      const r = loadPodSecurityConfiguration({
        apiVersion: `pod-security.admission.config.k8s.io/${version}`,
        kind: 'PodSecurityConfiguration',
        defaults: { enforce: 'restricted' },
      })
      expect('configuration' in r && r.configuration.defaults.enforce.level).toBe('restricted')
    }
  })

  it('the exemptions table of TestValidatePodSecurityConfiguration: invalid and duplicate entries, in order', () => {
    const long = 'testtesttesttesttesttesttesttesttesttesttesttesttesttesttesttest'
    const r = loadPodSecurityConfiguration(
      v1({
        defaults: {
          enforce: 'privileged',
          'enforce-version': 'v1.22',
          audit: 'baseline',
          'audit-version': 'v1.25',
          warn: 'restricted',
          'warn-version': 'latest',
        },
        exemptions: {
          namespaces: ['', '_&$%#', 'TEST', long, 'testing', 'testing'],
          runtimeClasses: ['', '_&$%#', 'TEST', 'testing', 'testing'],
          usernames: ['', 'testing', 'testing'],
        },
      }),
    )
    expect('error' in r).toBe(true)
    const error = 'error' in r ? r.error : ''
    expect(error.startsWith('PodSecurity invalid: [exemptions.namespaces[0]: Invalid value: "": ')).toBe(true)
    const fields = [...error.matchAll(/(exemptions\.\w+\[\d\]): (Invalid value|Duplicate value): "([^"]*)"/g)].map(
      (m) => `${m[1]} ${m[2]} ${m[3]}`,
    )
    expect(fields).toEqual([
      'exemptions.namespaces[0] Invalid value ',
      'exemptions.namespaces[1] Invalid value _&$%#',
      'exemptions.namespaces[2] Invalid value TEST',
      `exemptions.namespaces[3] Invalid value ${long}`,
      'exemptions.namespaces[5] Duplicate value testing',
      'exemptions.runtimeClasses[0] Invalid value ',
      'exemptions.runtimeClasses[1] Invalid value _&$%#',
      'exemptions.runtimeClasses[2] Invalid value TEST',
      'exemptions.runtimeClasses[4] Duplicate value testing',
      'exemptions.usernames[0] Invalid value ',
      'exemptions.usernames[2] Duplicate value testing',
    ])
    expect(error).toContain('exemptions.usernames[0]: Invalid value: "": username must not be empty')
  })

  it('invalid defaults: ToPolicy refuses them first, each with ParseLevel / ParseVersion words (admission/api/helpers.go)', () => {
    const r = loadPodSecurityConfiguration(
      v1({ defaults: { enforce: 'baslein', 'enforce-version': 'v.122', audit: 'lorum', 'audit-version': 'ipsum' } }),
    )
    expect(r).toEqual({
      error:
        'PodSecurity configuration error: [enforce: must be one of privileged, baseline, restricted, ' +
        'enforce-version: must be "latest" or "v1.x", audit: must be one of privileged, baseline, restricted, ' +
        'audit-version: must be "latest" or "v1.x"]',
    })
  })

  it('decoding is strict; a wrong kind or type is refused', () => {
    expect(loadPodSecurityConfiguration(v1({ defaults: { enforced: 'baseline' } }))).toEqual({
      error: 'strict decoding error: unknown field "defaults.enforced"',
    })
    expect(loadPodSecurityConfiguration(v1({ defaults: { enforce: 3 } }))).toEqual({
      error: 'json: cannot unmarshal number into Go struct field PodSecurityDefaults.defaults.enforce of type string',
    })
    expect(loadPodSecurityConfiguration({ apiVersion: 'v1', kind: 'ConfigMap' })).toEqual({
      error: 'no kind "ConfigMap" is registered for version "v1"',
    })
  })

  it('a __proto__ key is an unknown field, not a prototype', () => {
    const r = loadPodSecurityConfiguration(
      JSON.parse(
        '{"apiVersion":"pod-security.admission.config.k8s.io/v1","kind":"PodSecurityConfiguration","defaults":{"__proto__":{"enforce":"restricted"}}}',
      ),
    )
    expect(r).toEqual({ error: 'strict decoding error: unknown field "defaults.__proto__"' })
  })
})
