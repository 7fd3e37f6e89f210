import { FieldPath } from '../../kube/field.js'
import type { JSONObject } from '../../kube/values/json.js'
import { nameOf, objs, strs } from './common.js'
import type { KindWarnings } from './workloads.js'

// admissionregistration.k8s.io strategy warnings (k8s.io/kubernetes v1.37.2
// pkg/registry/admissionregistration/*/strategy.go, pkg/apis/admissionregistration/validation/static_suffix.go
// and warnings.go): a name ending in `.static.k8s.io` (on create only while ManifestBasedAdmissionControlConfig
// is off, 1.36: from 1.37 validation refuses it; on update from 1.36), and webhook rules naming a resource
// excluded from admission webhooks (ExcludeAdmissionWebhookVirtualResources, on from 1.37).

const STATIC_SUFFIX = '.static.k8s.io'

/** WarningsForStaticSuffix. */
function warningsForStaticSuffix(o: JSONObject): string[] {
  return nameOf(o).endsWith(STATIC_SUFFIX)
    ? [
        `metadata.name: names ending with "${STATIC_SUFFIX}" are reserved for static manifest-based configurations and cannot be managed via the API`,
      ]
    : []
}

/** pkg/kubeapiserver/admission/exclusion Excluded(), as GroupResource.String() prints them. */
const EXCLUDED = new Set(
  [
    ['authentication.k8s.io', 'selfsubjectreviews'],
    ['authentication.k8s.io', 'tokenreviews'],
    ['authorization.k8s.io', 'localsubjectaccessreviews'],
    ['authorization.k8s.io', 'selfsubjectaccessreviews'],
    ['authorization.k8s.io', 'selfsubjectrulesreviews'],
    ['authorization.k8s.io', 'subjectaccessreviews'],
  ].map(([g, r]) => `${r}.${g}`),
)

/** WarningsForValidatingWebhookRules / WarningsForMutatingWebhookRules (a wildcard names nothing). */
function warningsForWebhookRules(o: JSONObject): string[] {
  const warnings: string[] = []
  objs(o.webhooks).forEach((webhook, i) => {
    objs(webhook.rules).forEach((rule, j) => {
      const groups = strs(rule.apiGroups)
      const resources = strs(rule.resources)
      if (groups.includes('*') || resources.includes('*')) return
      const seen = new Set<string>()
      for (const group of groups)
        for (const resource of resources) {
          const gr = group === '' ? resource : `${resource}.${group}`
          if (!EXCLUDED.has(gr) || seen.has(gr)) continue
          seen.add(gr)
          warnings.push(
            `${FieldPath.of('webhooks').index(i).child('rules').index(j)}: ${gr} is excluded from admission webhooks; this rule will have no effect`,
          )
        }
    })
  })
  return warnings
}

/** A ValidatingAdmissionPolicy, MutatingAdmissionPolicy or one of their bindings. */
export const policy: KindWarnings = {
  onCreate: (o, minor) => (minor === 36 ? warningsForStaticSuffix(o) : []),
  onUpdate: (o, _old, minor) => (minor >= 36 ? warningsForStaticSuffix(o) : []),
}

/** A ValidatingWebhookConfiguration or MutatingWebhookConfiguration. */
export const webhookConfiguration: KindWarnings = {
  onCreate: (o, minor) => [
    ...(minor === 36 ? warningsForStaticSuffix(o) : []),
    ...(minor >= 37 ? warningsForWebhookRules(o) : []),
  ],
  onUpdate: (o, _old, minor) => [
    ...(minor >= 36 ? warningsForStaticSuffix(o) : []),
    ...(minor >= 37 ? warningsForWebhookRules(o) : []),
  ],
}
