import { aggregateString, type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isDNS1123Label, isDNS1123Subdomain } from '../../../kube/validation/names.js'
import { isObject, type JSONObject } from '../../../kube/values/json.js'
import { DefaultPodSecurityConfiguration, type PodSecurityConfiguration } from './admission.js'
import { type LevelVersion, type Policy, parseLevel, parseVersion } from './api.js'

// The PodSecurity plugin's configuration as kube-apiserver loads it from its admission configuration file
// (k8s.io/pod-security-admission admission/api: the v1, v1beta1 and v1alpha1 PodSecurityConfiguration, decoded
// strictly, defaulted (v1/defaults.go: privileged, latest), then ToPolicy and ValidatePodSecurityConfiguration;
// plugin/pkg/admission/security/podsecurity/admission.go ValidateInitialization words the failures).

const GROUP = 'pod-security.admission.config.k8s.io'
const VERSIONS = new Set(['v1', 'v1beta1', 'v1alpha1'])
const KIND = 'PodSecurityConfiguration'

const DEFAULTS_FIELDS = ['enforce', 'enforce-version', 'audit', 'audit-version', 'warn', 'warn-version'] as const
const EXEMPTIONS_FIELDS = ['usernames', 'namespaces', 'runtimeClasses'] as const

export type LoadedPodSecurityConfiguration =
  | { readonly configuration: PodSecurityConfiguration }
  | { readonly error: string }

/** Go's type name of a JSON value, as encoding/json's UnmarshalTypeError names it. */
const jsonType = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v

/**
 * The plugin's configuration from the document given for it (an AdmissionConfiguration's `configuration`, or the
 * file its `path` names); no document at all is the default (privileged:latest everywhere, no exemptions).
 */
export function loadPodSecurityConfiguration(document: unknown): LoadedPodSecurityConfiguration {
  if (document === undefined || document === null) return { configuration: DefaultPodSecurityConfiguration }
  if (!isObject(document)) return { error: `expected a ${KIND} object, got ${jsonType(document)}` }
  const apiVersion = typeof document.apiVersion === 'string' ? document.apiVersion : ''
  const kind = typeof document.kind === 'string' ? document.kind : ''
  if (apiVersion === '') return { error: "Object 'apiVersion' is missing" }
  if (kind === '') return { error: "Object 'Kind' is missing" }
  const slash = apiVersion.indexOf('/')
  if (apiVersion.slice(0, slash) !== GROUP || !VERSIONS.has(apiVersion.slice(slash + 1)) || kind !== KIND)
    return { error: `no kind "${kind}" is registered for version "${apiVersion}"` }
  const unknown: string[] = []
  const typeErrors: string[] = []
  const section = (name: 'defaults' | 'exemptions'): JSONObject => {
    const v = document[name]
    if (v === undefined || v === null) return {}
    if (!isObject(v)) {
      typeErrors.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${KIND}.${name}`)
      return {}
    }
    return v
  }
  for (const k of Object.keys(document))
    if (k !== 'apiVersion' && k !== 'kind' && k !== 'defaults' && k !== 'exemptions') unknown.push(k)
  const d = section('defaults')
  const e = section('exemptions')
  const text = (k: (typeof DEFAULTS_FIELDS)[number]): string => {
    const v = d[k]
    if (v === undefined || v === null) return ''
    if (typeof v !== 'string') {
      typeErrors.push(
        `json: cannot unmarshal ${jsonType(v)} into Go struct field PodSecurityDefaults.defaults.${k} of type string`,
      )
      return ''
    }
    return v
  }
  const list = (k: (typeof EXEMPTIONS_FIELDS)[number]): string[] => {
    const v = e[k]
    if (v === undefined || v === null) return []
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
      typeErrors.push(
        `json: cannot unmarshal ${jsonType(v)} into Go struct field PodSecurityExemptions.exemptions.${k} of type []string`,
      )
      return []
    }
    return v as string[]
  }
  for (const k of Object.keys(d)) if (!(DEFAULTS_FIELDS as readonly string[]).includes(k)) unknown.push(`defaults.${k}`)
  for (const k of Object.keys(e))
    if (!(EXEMPTIONS_FIELDS as readonly string[]).includes(k)) unknown.push(`exemptions.${k}`)
  // SetDefaults_PodSecurityDefaults: an empty level is privileged, an empty version latest
  const level = (k: (typeof DEFAULTS_FIELDS)[number]) => text(k) || 'privileged'
  const version = (k: (typeof DEFAULTS_FIELDS)[number]) => text(k) || 'latest'
  const raw = {
    enforce: level('enforce'),
    enforceVersion: version('enforce-version'),
    audit: level('audit'),
    auditVersion: version('audit-version'),
    warn: level('warn'),
    warnVersion: version('warn-version'),
  }
  const exemptions = {
    usernames: list('usernames'),
    namespaces: list('namespaces'),
    runtimeClasses: list('runtimeClasses'),
  }
  if (typeErrors.length > 0) return { error: typeErrors[0] as string }
  if (unknown.length > 0)
    return { error: `strict decoding error: ${unknown.map((k) => `unknown field "${k}"`).join(', ')}` }

  // CompleteConfiguration: ToPolicy
  const policyErrors: string[] = []
  const levelVersion = (l: string, lk: string, v: string, vk: string): LevelVersion => {
    const pl = parseLevel(l)
    if (pl.err !== undefined) policyErrors.push(`${lk}: ${pl.err}`)
    const pv = parseVersion(v)
    if (pv.err !== undefined) policyErrors.push(`${vk}: ${pv.err}`)
    return { level: pl.level, version: pv.version }
  }
  const defaults: Policy = {
    enforce: levelVersion(raw.enforce, 'enforce', raw.enforceVersion, 'enforce-version'),
    audit: levelVersion(raw.audit, 'audit', raw.auditVersion, 'audit-version'),
    warn: levelVersion(raw.warn, 'warn', raw.warnVersion, 'warn-version'),
  }
  if (policyErrors.length > 0) {
    const aggregate = policyErrors.length === 1 ? policyErrors[0] : `[${policyErrors.join(', ')}]`
    return { error: `PodSecurity configuration error: ${aggregate}` }
  }
  const errs = validateExemptions(exemptions)
  if (errs.length > 0) return { error: `PodSecurity invalid: ${aggregateString(errs)}` }
  return { configuration: { defaults, exemptions } }
}

/** ValidatePodSecurityConfiguration's exemption checks (its defaults' checks are ToPolicy's, which ran first). */
function validateExemptions(x: {
  readonly usernames: readonly string[]
  readonly namespaces: readonly string[]
  readonly runtimeClasses: readonly string[]
}): FieldError[] {
  const errs: FieldError[] = []
  const each = (name: 'namespaces' | 'runtimeClasses' | 'usernames', check: (v: string) => string[]): void => {
    const seen = new Set<string>()
    x[name].forEach((v, i) => {
      const path = FieldPath.of('exemptions', name).index(i)
      const problems = check(v)
      if (problems.length > 0) errs.push(field.invalid(path, v, problems.join(', ')))
      else if (seen.has(v)) errs.push(field.duplicate(path, v))
      else seen.add(v)
    })
  }
  each('namespaces', isDNS1123Label)
  each('runtimeClasses', isDNS1123Subdomain)
  each('usernames', (v) => (v === '' ? ['username must not be empty'] : []))
  return errs
}
