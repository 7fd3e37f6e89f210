import { isObject } from './values/json.js'

// kube-apiserver's --admission-control-config-file (k8s.io/apiserver pkg/admission/config.go
// ReadAdmissionConfiguration, pkg/apis/apiserver/v1 AdmissionConfiguration): one AdmissionConfiguration document
// whose plugins each give their configuration embedded (`configuration`) or in a file (`path`, relative to the
// configuration file's directory). Decoded strictly; a plugin named twice: the first wins (ConfigFor).

const VERSIONS = new Set([
  'apiserver.config.k8s.io/v1',
  'apiserver.config.k8s.io/v1alpha1',
  'apiserver.k8s.io/v1alpha1',
])
const KIND = 'AdmissionConfiguration'
const PLUGIN_FIELDS = new Set(['name', 'path', 'configuration'])

/** Where a plugin's configuration is: the document itself, a file to read, or none (the plugin's defaults). */
export type PluginConfigurationSource =
  | { readonly embedded: unknown }
  | { readonly path: string }
  | { readonly none: true }

export type ReadAdmissionConfiguration =
  | { readonly pluginConfiguration: (plugin: string) => PluginConfigurationSource }
  | { readonly error: string }

/**
 * The AdmissionConfiguration `document` read from a file in `dir`: a lookup of each plugin's configuration, or the
 * error kube-apiserver stops on. `join(dir, path)` makes a relative path absolute (the caller's path module: the
 * core reads no files).
 */
export function readAdmissionConfiguration(
  document: unknown,
  makeAbsolute: (path: string) => string,
): ReadAdmissionConfiguration {
  if (!isObject(document)) return { error: 'expected an AdmissionConfiguration object' }
  const apiVersion = typeof document.apiVersion === 'string' ? document.apiVersion : ''
  const kind = typeof document.kind === 'string' ? document.kind : ''
  if (apiVersion === '') return { error: "Object 'apiVersion' is missing" }
  if (kind === '') return { error: "Object 'Kind' is missing" }
  if (!VERSIONS.has(apiVersion) || kind !== KIND)
    return { error: `no kind "${kind}" is registered for version "${apiVersion}"` }
  const unknown = Object.keys(document).filter((k) => k !== 'apiVersion' && k !== 'kind' && k !== 'plugins')
  const plugins = document.plugins ?? []
  if (!Array.isArray(plugins))
    return {
      error:
        'json: cannot unmarshal object into Go struct field AdmissionConfiguration.plugins of type []v1.AdmissionPluginConfiguration',
    }
  const entries: { name: string; source: PluginConfigurationSource }[] = []
  for (const [i, p] of plugins.entries()) {
    if (!isObject(p))
      return {
        error: `json: cannot unmarshal ${Array.isArray(p) ? 'array' : typeof p} into Go struct field AdmissionConfiguration.plugins of type v1.AdmissionPluginConfiguration`,
      }
    for (const k of Object.keys(p)) if (!PLUGIN_FIELDS.has(k)) unknown.push(`plugins[${i}].${k}`)
    for (const k of ['name', 'path'] as const)
      if (p[k] !== undefined && p[k] !== null && typeof p[k] !== 'string')
        return {
          error: `json: cannot unmarshal ${typeof p[k]} into Go struct field AdmissionPluginConfiguration.plugins.${k} of type string`,
        }
    const name = typeof p.name === 'string' ? p.name : ''
    const path = typeof p.path === 'string' ? p.path : ''
    const source: PluginConfigurationSource =
      p.configuration !== undefined && p.configuration !== null
        ? { embedded: p.configuration }
        : path !== ''
          ? { path: makeAbsolute(path) }
          : { none: true }
    entries.push({ name, source })
  }
  if (unknown.length > 0)
    return { error: `strict decoding error: ${unknown.map((k) => `unknown field "${k}"`).join(', ')}` }
  return {
    pluginConfiguration: (plugin) => entries.find((e) => e.name === plugin)?.source ?? { none: true },
  }
}
