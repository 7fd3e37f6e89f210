// The one reviewed list of where kelp check and a real kube-apiserver 1.37 are known to answer differently.
// The differential e2e test fails on any difference that no entry here matches. Each entry says why, and
// names the apiserver (or kubectl) source that makes the cluster answer as it does. Mirrored in
// docs/known-differences.md ("Measured against a real kube-apiserver").
import { CLASSES_IN_INPUTS } from './corpus.js'
import type { Difference } from './runner.js'

export interface KnownDifference {
  id: string
  reason: string
  /** where the cluster's answer comes from */
  source: string
  match: (d: Difference) => boolean
}

const rejected = (s: string) => s.replace(/^rejected: /, '')

/** kubectl apply's warning on updating an object it did not create (no last-applied annotation). */
const lastAppliedWarning = (resource: string, name: string) =>
  `resource ${resource}/${name} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is ` +
  'required by kubectl apply. kubectl apply should only be used on resources created declaratively by either ' +
  'kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.'

/** The Priority and RuntimeClass plugins refusing a Pod whose class the cluster does not have: the kind and name. */
function missingClass(kubectl: string): { kind: string; name: string } | undefined {
  const m =
    /^rejected: Error from server \(Forbidden\): pods "[^"]*" is forbidden: (?:no PriorityClass with name (\S+) was found|pod rejected: RuntimeClass "([^"]*)" not found)$/.exec(
      kubectl,
    )
  if (m === null) return undefined
  return m[1] !== undefined ? { kind: 'PriorityClass', name: m[1] } : { kind: 'RuntimeClass', name: m[2]! }
}

/** The kinds kelp decodes and defaults but does not validate natively (docs/builtin.md#validation). */
const NOT_COVERED = /^Info: the native validation of \S+ is not covered by kelp/m
/** The admission policies and their bindings: kelp check's policy material among the inputs (src/engine/material.ts). */
const POLICY_MATERIAL_KINDS = new Set([
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
])
/** Those kinds: the rows of src/builtin/strategies.ts with metadataOnly. */
const NOT_COVERED_KINDS = new Set([...POLICY_MATERIAL_KINDS, 'StorageVersionMigration'])

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    id: 'no-crd-given',
    reason:
      'a kind of a group with a dot that no CRD of the inputs and no built-in API of the release defines: kubectl ' +
      'fails (`no matches for kind`), kelp check says it could not validate it (`Info: … (no CRD for it was ' +
      'given: not validated)`) and does not fail, by design (README: a CRD installed elsewhere is not an error ' +
      'offline; an old built-in version such as admissionregistration.k8s.io/v1alpha1 InitializerConfiguration ' +
      'is such a kind too)',
    source: 'k8s.io/cli-runtime pkg/resource/mapper.go (the REST mapping of a kind the cluster does not serve)',
    match: (d) =>
      /^error: no matches for kind /.test(rejected(d.kubectl)) &&
      /^Info: no matches for kind .*\(no CRD for it was given: not validated\)$/.test(rejected(d.kelp)),
  },
  {
    id: 'not-served-explanation',
    reason:
      'a kind of a group without a dot that the release does not serve (policy/v1 PodSecurityPolicy): kelp adds ' +
      "why after kubectl's words (`(not served by the target release; a group without a dot cannot come from a " +
      'CRD)`); by design',
    source: 'k8s.io/cli-runtime pkg/resource/mapper.go',
    match: (d) =>
      d.aspect === 'error' &&
      /^error: no matches for kind /.test(d.kubectl) &&
      d.kelp === `${d.kubectl} (not served by the target release; a group without a dot cannot come from a CRD)`,
  },
  {
    id: 'yaml-mapping-as-key',
    reason:
      'a YAML mapping used as a map key (`{{cell}}` of an unexpanded template): go-yaml refuses it before kubectl ' +
      'sends anything (`error converting YAML to JSON: yaml: invalid map key: map[interface {}]interface {}{…}`), ' +
      'js-yaml reads it and kelp refuses the object as the apiserver would decode it; both refuse. Cause: ' +
      'js-yaml accepts complex keys (docs/known-differences.md, Reading YAML)',
    source: 'sigs.k8s.io/yaml (go-yaml v2 yaml.Unmarshal into interface{}: invalid map key)',
    match: (d) => d.aspect === 'error' && /error converting YAML to JSON: yaml: invalid map key: /.test(d.kubectl),
  },
  {
    id: 'yaml-error-form',
    reason:
      'a YAML text kubectl cannot read: both refuse it before anything is sent (the verdict agrees); kubectl prints ' +
      '`error: error parsing F: error converting YAML to JSON: yaml: line N: M`, kelp a file error of its own ' +
      'form (`F:L:C: error: M`), not an object block, so this runner has no kelp text to compare. For the cases ' +
      "of cases/yaml-go.yaml M is go-yaml's (src/kube/yaml/refusals.ts); go-yaml numbers a parser error's line " +
      "from 0 and a scanner error's from 1, kelp every line from 1 (docs/known-differences.md, Reading YAML). " +
      'The conversion to JSON refusing a null key (`…: unsupported map key of type: %!s(<nil>), …`, no line) is of ' +
      'the same form',
    source: 'k8s.io/cli-runtime pkg/resource/visitor.go (StreamVisitor), sigs.k8s.io/yaml YAMLToJSON',
    match: (d) =>
      d.aspect === 'error' &&
      /error converting YAML to JSON: (?:yaml: |unsupported map key of type: %!s\(<nil>\), key: <nil>, )/.test(
        d.kubectl,
      ) &&
      d.kelp === '',
  },
  {
    id: 'job-uid',
    reason:
      "a Job's generated selector and labels carry the fresh random uid the create gives it; kelp's carry a " +
      'placeholder (00000000-0000-0000-0000-000000000000): the texts agree once the uids are set aside',
    source:
      'k8s.io/apiserver pkg/endpoints/handlers/create.go (FillObjectMetaSystemFields), pkg/registry/batch/job/strategy.go',
    match: (d) => {
      const uid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
      return (
        d.aspect === 'error' &&
        (d.case.kind === 'Job' || d.case.kind === 'CronJob') &&
        d.kelp.includes('00000000-0000-0000-0000-000000000000') &&
        d.kubectl.replace(uid, 'U') === d.kelp.replace(uid, 'U')
      )
    },
  },
  {
    id: 'service-cluster-ip-range',
    reason:
      "a Service whose manifest names a cluster IP (an object dumped from another cluster): the apiserver's " +
      "allocator refuses an IP outside its --service-cluster-ip-range; kelp does not know the cluster's range and " +
      'does not check it (src/builtin/validation/core/service.ts)',
    source: 'k8s.io/kubernetes pkg/registry/core/service/storage/alloc.go (allocClusterIPs)',
    match: (d) =>
      d.aspect === 'verdict' &&
      /failed to allocate IP \S+: the provided IP \(\S+\) is not in the valid range/.test(d.kubectl) &&
      d.kelp === 'accepted',
  },
  {
    id: 'dry-run-node-ports',
    reason:
      'a dry run allocates node ports without the range check and guesses free ones from 32769 up; kelp answers ' +
      'as a real create (a requested node port outside 30000-32767 is refused, an allocated one is a ' +
      "placeholder from 30000). The allocation comes before validation (the store's BeginCreate before " +
      'BeforeCreate), so where a real create refuses the port, a dry run may answer with a validation error of the ' +
      "Service instead (a headless NodePort Service: kube-apiserver 1.37.2 gives kelp's answer to the create, " +
      "`spec.clusterIPs[0]: … may not be set to 'None' for NodePort services` to the dry run)",
    source:
      'k8s.io/kubernetes pkg/registry/core/service/portallocator/operation.go (Allocate, AllocateNext when dryRun)',
    match: (d) =>
      (d.aspect === 'verdict' &&
        d.kubectl === 'accepted' &&
        /nodePort: Invalid value: \d+: provided port is not in the valid range/.test(d.kelp)) ||
      (d.aspect === 'error' &&
        d.kubectl.replace(/nodePort: Duplicate value: \d+/g, 'N') ===
          d.kelp.replace(/nodePort: Duplicate value: \d+/g, 'N')) ||
      (d.aspect === 'error' &&
        d.case.kind === 'Service' &&
        d.kelp ===
          `The Service "${d.case.name}" is invalid: ${/spec\.ports\[\d+\]\.nodePort: Invalid value: \d+: /.exec(d.kelp)?.[0]}provided port is not in the valid range. The range of valid ports is 30000-32767` &&
        d.kubectl.startsWith(`The Service "${d.case.name}" is invalid: `) &&
        !d.kubectl.includes('nodePort')),
  },
  {
    id: 'serviceaccount-admission',
    reason:
      'a Pod naming a ServiceAccount the cluster does not have: the ServiceAccount admission plugin (mutating, ' +
      'before validation) refuses it. kelp refuses it too when the inputs hold ServiceAccounts of its namespace ' +
      '(src/engine/admission/in-tree.ts); what remains: the inputs hold none of that namespace (kelp takes the ' +
      'named one as existing and says so once per run), or they hold the named one but the corpus never creates ' +
      "it (each case is a dry run): kelp accepts, or refuses later for another cause (the Pod's validation)",
    source: 'k8s.io/kubernetes plugin/pkg/admission/serviceaccount/admission.go',
    match: (d) =>
      (d.aspect === 'verdict' || d.aspect === 'error') &&
      /^(rejected: )?Error from server \(Forbidden\): pods "[^"]*" is forbidden: error looking up service account [^/]+\/[^:]+: serviceaccount "[^"]*" not found$/.test(
        d.kubectl,
      ) &&
      // kelp's own ServiceAccount refusal is compared, never tolerated
      !/error looking up service account /.test(d.kelp),
  },
  {
    id: 'native-validation-not-covered',
    reason:
      'the kinds whose spec validation kelp leaves to others (src/builtin/strategies.ts rows with metadataOnly): ' +
      'ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, MutatingAdmissionPolicy and ' +
      'MutatingAdmissionPolicyBinding (kelp reads them as policy material and validates them there, an ' +
      'invalid one refused as an input error: src/engine/hooks.ts; on the object path only their ObjectMeta), ' +
      'and StorageVersionMigration (not decoded yet). On the object path kelp says `Info: … not covered` and ' +
      'accepts what their spec validation refuses. No case of the corpus reaches it today',
    source:
      'k8s.io/kubernetes pkg/apis/admissionregistration/validation (ValidateValidatingAdmissionPolicy, …), ' +
      'pkg/apis/storagemigration/validation',
    match: (d) =>
      NOT_COVERED_KINDS.has(d.case.kind) &&
      NOT_COVERED.test(d.kelpRaw ?? '') &&
      d.kubectlAnswer?.accepted === false &&
      /^The \S+ "[^"]*" is invalid: /.test(d.kubectlAnswer.error) &&
      // ObjectMeta is validated for every kind (src/builtin/strategy.ts): a metadata refusal is not this entry's
      !d.kubectlAnswer.error.includes('metadata.') &&
      (d.aspect === 'verdict' || d.aspect === 'error' || d.aspect === 'warnings'),
  },
  {
    id: 'crd-in-inputs',
    reason:
      'a CustomResourceDefinition among the objects: kelp check reads it as material (it defines the kinds of the ' +
      'other inputs) and reports no result for it; kubectl creates it. By design',
    source: 'k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition',
    match: (d) => d.aspect === 'verdict' && d.case.kind === 'CustomResourceDefinition' && d.kelp === 'rejected: ',
  },
  {
    id: 'policy-in-inputs',
    reason:
      'a ValidatingAdmissionPolicy, MutatingAdmissionPolicy or binding of one among the objects that the apiserver ' +
      'accepts: kelp check reads it as policy material (the policies the other inputs are admitted against: ' +
      'src/engine/material.ts) and reports no result for it, or a policy-material diagnostic for one the apiserver ' +
      'would refuse; kubectl creates it. By design',
    source: 'k8s.io/kubernetes pkg/registry/admissionregistration',
    match: (d) =>
      d.aspect === 'verdict' &&
      d.case.apiVersion.startsWith('admissionregistration.k8s.io/') &&
      POLICY_MATERIAL_KINDS.has(d.case.kind) &&
      d.kubectl === 'accepted' &&
      d.kelp === 'rejected: ',
  },
  {
    id: 'bootstrap-object',
    reason:
      'an RBAC object the apiserver creates at its start (its bootstrap policy: `system:aggregate-to-edit` and the ' +
      "other `system:` roles and bindings): kubectl apply updates it, warning that it lacks kubectl's " +
      'last-applied annotation; kelp check knows no cluster state (an object is a create unless --base or --old ' +
      'gives its previous revision) and warns of nothing',
    source: 'k8s.io/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy; kubectl pkg/cmd/apply/apply.go',
    match: (d) =>
      d.aspect === 'warnings' &&
      d.case.apiVersion === 'rbac.authorization.k8s.io/v1' &&
      (d.case.kind === 'ClusterRole' || d.case.kind === 'ClusterRoleBinding') &&
      d.case.name.startsWith('system:') &&
      d.kelp === '' &&
      d.kubectl ===
        lastAppliedWarning(d.case.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings', d.case.name),
  },
  {
    id: 'default-serviceaccount',
    reason:
      "the ServiceAccount `default` exists in every namespace (the controller-manager's serviceaccounts controller " +
      'makes it; the harness makes it, as no controller-manager runs): kubectl apply updates it, warning that it ' +
      'lacks the last-applied annotation, and sends a patch, whose field of the wrong type the patch refuses ' +
      '(`The request is invalid: patch: … unrecognized type: bool`) where a create fails to decode; kelp check knows ' +
      'no cluster state, warns of nothing and answers as to a create',
    source:
      'k8s.io/kubernetes pkg/controller/serviceaccount/serviceaccounts_controller.go; kubectl pkg/cmd/apply/apply.go',
    match: (d) =>
      d.case.apiVersion === 'v1' &&
      d.case.kind === 'ServiceAccount' &&
      d.case.name === 'default' &&
      ((d.aspect === 'warnings' && d.kelp === '' && d.kubectl === lastAppliedWarning('serviceaccounts', 'default')) ||
        (d.aspect === 'error' &&
          /^The request is invalid: patch: Invalid value: "map\[.*\]": unrecognized type: \w+$/s.test(d.kubectl) &&
          d.kelp.startsWith(
            'Error from server (BadRequest): ServiceAccount in version "v1" cannot be handled as a ServiceAccount: json: cannot unmarshal ',
          ))),
  },
  {
    id: 'class-in-inputs',
    reason:
      'a Pod naming a PriorityClass or RuntimeClass that another case of its group defines: kelp check reads all of ' +
      "a group's case files in one run, and its Priority and RuntimeClass plugins take the classes among the inputs " +
      "as the cluster's (src/builtin/admission/inputs.ts: as if they were applied first), while each case is a dry " +
      'run that creates nothing, so the apiserver refuses the Pod (`no PriorityClass with name X was found`, ' +
      '`RuntimeClass "X" not found`) where kelp accepts it. By design',
    source:
      'k8s.io/kubernetes plugin/pkg/admission/priority/admission.go, plugin/pkg/admission/runtimeclass/admission.go',
    match: (d) => {
      if (d.aspect !== 'verdict' || d.kelp !== 'accepted') return false
      const missing = missingClass(d.kubectl)
      return missing !== undefined && CLASSES_IN_INPUTS.has(`${d.case.group}/${missing.kind}/${missing.name}`)
    },
  },
  {
    id: 'podsecurity-admission',
    reason:
      'PodSecurity with a Namespace kelp was not given: kelp runs the plugin over the Namespaces among its inputs ' +
      '(src/builtin/admission/podsecurity) and takes any other namespace as one without labels (privileged), ' +
      "so a case in a namespace the cluster has labelled (one an earlier group left) is refused in the plugin's " +
      'words by the cluster only; and a Namespace update that makes enforce stricter is warned of the existing ' +
      'pods that violate it, which kelp does not see',
    source:
      'k8s.io/pod-security-admission admission/admission.go (ValidatePod: the namespace from the informer; ' +
      'EvaluatePodsInNamespace)',
    match: (d) =>
      (d.aspect === 'error' &&
        /is forbidden: violates PodSecurity "[^"]*": /.test(d.kubectl) &&
        !/violates PodSecurity/.test(d.kelp)) ||
      (d.aspect === 'warnings' &&
        /existing pods in namespace "[^"]*" violate the new PodSecurity enforce level|new PodSecurity enforce level only checked against/.test(
          d.kubectl,
        )),
  },
  {
    id: 'stored-hpa-v1-conversion',
    reason:
      'an autoscaling/v1 HorizontalPodAutoscaler as stored: the v1 ↔ v2 conversion keeps the fields v1 lacks in ' +
      'autoscaling.alpha.kubernetes.io annotations and fills targetCPUUtilizationPercentage; kelp -o yaml does not ' +
      'convert',
    source: 'k8s.io/kubernetes pkg/apis/autoscaling/v1/conversion.go',
    match: (d) =>
      d.aspect === 'stored' &&
      d.case.kind === 'HorizontalPodAutoscaler' &&
      d.case.apiVersion === 'autoscaling/v1' &&
      /^(metadata\.annotations.*|spec\.targetCPUUtilizationPercentage|status(\..*)?)$/.test(d.field?.path ?? ''),
  },
]
