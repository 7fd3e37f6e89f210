import { describe, expect, it } from 'vitest'
import { readAdmissionConfiguration } from '../../src/kube/admission-configuration.js'

// kube-apiserver's --admission-control-config-file (k8s.io/apiserver v0.37.2 pkg/admission/config.go
// ReadAdmissionConfiguration, GetAdmissionPluginConfigurationFor, ConfigFor; config_test.go's cases).

const abs = (p: string) => (p.startsWith('/') ? p : `/etc/kubernetes/${p}`)

describe('readAdmissionConfiguration', () => {
  const file = {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AdmissionConfiguration',
    plugins: [
      { name: 'PodSecurity', configuration: { kind: 'PodSecurityConfiguration' } },
      { name: 'EventRateLimit', path: 'eventconfig.yaml' },
      { name: 'ImagePolicyWebhook', path: '/abs/image.yaml' },
      { name: 'PodSecurity', path: 'second.yaml' },
    ],
  }

  it('an embedded configuration; a path made absolute from the file directory; the first of a name wins; others none', () => {
    const r = readAdmissionConfiguration(file, abs)
    if ('error' in r) throw new Error(r.error)
    expect(r.pluginConfiguration('PodSecurity')).toEqual({ embedded: { kind: 'PodSecurityConfiguration' } })
    expect(r.pluginConfiguration('EventRateLimit')).toEqual({ path: '/etc/kubernetes/eventconfig.yaml' })
    expect(r.pluginConfiguration('ImagePolicyWebhook')).toEqual({ path: '/abs/image.yaml' })
    expect(r.pluginConfiguration('LimitRanger')).toEqual({ none: true })
  })

  it('v1alpha1 of both groups is read too', () => {
    for (const apiVersion of ['apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1'])
      expect('pluginConfiguration' in readAdmissionConfiguration({ ...file, apiVersion }, abs)).toBe(true)
  })

  it('strict: an unknown field, another kind, a missing apiVersion are errors', () => {
    expect(readAdmissionConfiguration({ ...file, plugin: [] }, abs)).toEqual({
      error: 'strict decoding error: unknown field "plugin"',
    })
    expect(
      readAdmissionConfiguration({ ...file, plugins: [{ name: 'PodSecurity', configuration: {}, paht: 'x' }] }, abs),
    ).toEqual({ error: 'strict decoding error: unknown field "plugins[0].paht"' })
    expect(readAdmissionConfiguration({ apiVersion: 'v1', kind: 'ConfigMap' }, abs)).toEqual({
      error: 'no kind "ConfigMap" is registered for version "v1"',
    })
    expect(readAdmissionConfiguration({ kind: 'AdmissionConfiguration' }, abs)).toEqual({
      error: "Object 'apiVersion' is missing",
    })
  })
})
