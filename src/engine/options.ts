import type { PodSecurityConfiguration } from '../builtin/admission/podsecurity/admission.js'

// How a policy set is built (PolicySetOptions) and how validate() makes its request: the library's
// knobs, in one place (documented in docs/library.md).

import type { Authorize } from '../kube/authz/authorizer.js'
import type { KubeVersion } from '../kube/environment.js'
import type { NameGenerator } from '../kube/names.js'
import type { OpenAPIV3Document } from '../kube/openapi.js'
import type { JSONObject } from '../kube/values/json.js'
import type { Operation, UserInfo } from '../policy/attributes.js'
import type { CheckedCache } from '../policy/cel/compile.js'

export interface PolicySetOptions {
  /** The Kubernetes version to behave as (default DEFAULT_KUBE_VERSION): the CEL environment. */
  readonly version?: KubeVersion
  /**
   * The target release for the REST mapping (`1.16` … `1.37`): which built-in kinds and versions are
   * served (default: `version`). The CEL environment is the nearest kelp has; API versions follow this.
   */
  readonly release?: string
  /** Decisions for `authorizer` checks (default: no opinion on everything). */
  readonly authorize?: Authorize
  /**
   * A namespace the objects do not include: `assume` (default) takes it as existing with only the
   * label every namespace carries (`kubernetes.io/metadata.name`); `strict` answers NotFound, as a
   * cluster without it would.
   */
  readonly namespaces?: 'assume' | 'strict'
  /**
   * Skip validating the policies, bindings and CRDs themselves (they were accepted by a cluster):
   * `true` for all; a predicate for the policies and bindings it accepts (the CLI's bundled pack,
   * validated for every release by kelp's tests, so a run does not compile it twice). The policies a
   * predicate accepts are not type checked either (diagnostics).
   */
  readonly trusted?: boolean | ((object: object) => boolean)
  /**
   * OpenAPI v3 documents of group-versions (`kubectl get --raw /openapi/v3/apis/apps/v1`), for
   * type checking policy expressions as status.typeChecking does (diagnostics). Not needed for the
   * built-in kinds of 1.30 … 1.37: the target release's published schemas are shipped and used for
   * every group-version no document is given for; CRDs in the inputs are used too.
   */
  readonly openapi?: readonly OpenAPIV3Document[]
  /**
   * The name a CREATE with metadata.generateName and no name gets before validation (default:
   * kube-apiserver's SimpleNameGenerator: the prefix cut to 58 characters plus 5 random ones).
   * `derivedNameGenerator` (what kelp check uses) derives the 5 characters from the object, for
   * reproducible output. Also names a Pod's service account token volume (`kube-api-access-xxxxx`).
   */
  readonly generateName?: NameGenerator
  /**
   * Built-in objects decoded and defaulted as the apiserver does before admission (src/builtin):
   * a body that does not decode is a 400 BadRequest (`builtin` in the result), policies see the
   * defaulted object. Default true.
   */
  readonly builtins?: boolean
  /**
   * Checked ASTs kept from an earlier process (the CLI's bundled pack, dist/cli/pack-checked.json):
   * the validating policies' expressions found there are planned without parsing and checking.
   */
  readonly checkedCache?: CheckedCache
  /**
   * Which versions of policy material are read: those the target release serves (`release`, the
   * default: a cluster of it refuses the others), or every version kelp reads (`any`: `kelp serve`,
   * which stands in for clusters that do not serve the kinds, e.g. MutatingAdmissionPolicies before 1.36).
   */
  readonly materialVersions?: 'release' | 'any'
  /**
   * The namespace of the namespaced inputs given without one (params, LimitRanges, ServiceAccounts the default
   * admission plugins read), where `kubectl apply -n` creates them (default: `default`).
   */
  readonly defaultNamespace?: string
  /**
   * The user of the requests that name none (ValidateRequestOptions.userInfo; default DEFAULT_USER): who `kelp
   * check --as` says sends them (what `kubectl --as` impersonates).
   */
  readonly userInfo?: UserInfo
  /**
   * The PodSecurity plugin's configuration (kube-apiserver's --admission-control-config-file: the default policy of
   * a Namespace without labels, the exemptions); default kube-apiserver's (privileged:latest, no exemptions).
   */
  readonly podSecurity?: PodSecurityConfiguration
}

export interface ValidateRequestOptions {
  readonly oldObject?: JSONObject
  readonly operation?: Operation
  readonly userInfo?: UserInfo
  /** The namespace of a namespaced object without metadata.namespace (kubectl's context: `default`). */
  readonly namespace?: string
  readonly subResource?: string
  readonly dryRun?: boolean
}

/** The user a request is attributed to when none is given (documented in docs/library.md). */
export const DEFAULT_USER: UserInfo = { username: 'kelp', groups: ['system:authenticated'] }
