import { ErrorValue } from '../../cel/common/errors.js'
import { fn, type Library, memberOverload } from '../../cel/functions.js'
import { BoolType, StringType, struct } from '../../cel/types/types.js'
import { OpaqueValue } from '../../cel/values/values.js'
import type { Authorize, AuthzAttributes, AuthzDecision } from './authorizer.js'

// The Kubernetes authz libraries (k8s.io/apiserver pkg/cel/library/authz.go): `kubernetes.authz`
// (1.27) and `kubernetes.authzSelectors` (1.31). Values are immutable: each builder returns a
// new check. `check()` asks the Authorize function the environment was given.

export const AuthorizerType = struct('kubernetes.authorization.Authorizer')
export const PathCheckType = struct('kubernetes.authorization.PathCheck')
export const GroupCheckType = struct('kubernetes.authorization.GroupCheck')
export const ResourceCheckType = struct('kubernetes.authorization.ResourceCheck')
export const DecisionType = struct('kubernetes.authorization.Decision')

export interface UserInfo {
  readonly username: string
  readonly groups: readonly string[]
}

export class AuthorizerValue extends OpaqueValue {
  constructor(
    readonly user: UserInfo,
    readonly authorize: Authorize,
  ) {
    super()
  }
  get typeName(): string {
    return AuthorizerType.name
  }
  equals(other: OpaqueValue): boolean {
    return other === this
  }
}

export class PathCheckValue extends OpaqueValue {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly path: string,
  ) {
    super()
  }
  get typeName(): string {
    return PathCheckType.name
  }
  equals(other: OpaqueValue): boolean {
    return other === this
  }
}

export class GroupCheckValue extends OpaqueValue {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly group: string,
  ) {
    super()
  }
  get typeName(): string {
    return GroupCheckType.name
  }
  equals(other: OpaqueValue): boolean {
    return other === this
  }
}

export class ResourceCheckValue extends OpaqueValue {
  constructor(
    readonly groupCheck: GroupCheckValue,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
    readonly fieldSelector = '',
    readonly labelSelector = '',
  ) {
    super()
  }
  get typeName(): string {
    return ResourceCheckType.name
  }
  equals(other: OpaqueValue): boolean {
    return other === this
  }
  with(change: Partial<Record<'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector', string>>) {
    return new ResourceCheckValue(
      this.groupCheck,
      this.resource,
      change.subresource ?? this.subresource,
      change.namespace ?? this.namespace,
      change.name ?? this.name,
      change.fieldSelector ?? this.fieldSelector,
      change.labelSelector ?? this.labelSelector,
    )
  }
}

export class DecisionValue extends OpaqueValue {
  constructor(readonly decision: AuthzDecision) {
    super()
  }
  get typeName(): string {
    return DecisionType.name
  }
  equals(other: OpaqueValue): boolean {
    return other === this
  }
}

// Go strings.TrimSpace semantics for the emptiness checks (ASCII and Unicode white space).
const isBlank = (s: string) => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '') === ''

// apimachinery ValidateServiceAccountName (DNS-1123 subdomain) and ValidateNamespaceName (DNS-1123 label).
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const isDns1123Subdomain = (s: string) =>
  s.length > 0 && s.length <= 253 && s.split('.').every((part) => DNS1123_LABEL.test(part))
const isDns1123Label = (s: string) => s.length > 0 && s.length <= 63 && DNS1123_LABEL.test(s)

function decide(authorize: Authorize, attributes: AuthzAttributes): DecisionValue {
  return new DecisionValue(authorize(attributes))
}

/** The `authorizer` variable: checks run as `user` against `authorize`. */
export function newAuthorizer(user: UserInfo, authorize: Authorize): AuthorizerValue {
  return new AuthorizerValue(user, authorize)
}

/** `authorizer.requestResource`: a ResourceCheck pre-filled from the request (NewResourceAuthorizerVal). */
export function newResourceAuthorizer(
  authorizer: AuthorizerValue,
  r: { group: string; resource: string; subresource?: string; namespace?: string; name?: string },
): ResourceCheckValue {
  return new ResourceCheckValue(
    new GroupCheckValue(authorizer, r.group),
    r.resource,
    r.subresource ?? '',
    r.namespace ?? '',
    r.name ?? '',
  )
}

export const authzLibrary: Library = {
  name: 'kubernetes.authz',
  functions: [
    fn(
      'path',
      memberOverload(
        'authorizer_path',
        [AuthorizerType, StringType],
        PathCheckType,
        (a: AuthorizerValue, p: string) => {
          if (isBlank(p)) throw new ErrorValue('path must not be empty')
          return new PathCheckValue(a, p)
        },
      ),
    ),
    fn(
      'group',
      memberOverload(
        'authorizer_group',
        [AuthorizerType, StringType],
        GroupCheckType,
        (a: AuthorizerValue, g: string) => new GroupCheckValue(a, g),
      ),
    ),
    fn(
      'serviceAccount',
      memberOverload(
        'authorizer_serviceaccount',
        [AuthorizerType, StringType, StringType],
        AuthorizerType,
        (a: AuthorizerValue, namespace: string, name: string) => {
          if (!isDns1123Subdomain(name)) throw new ErrorValue('Invalid service account name')
          if (!isDns1123Label(namespace)) throw new ErrorValue('Invalid service account namespace')
          // k8s.io/apiserver serviceaccount.ServiceAccountInfo.UserInfo
          return new AuthorizerValue(
            {
              username: `system:serviceaccount:${namespace}:${name}`,
              groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
            },
            a.authorize,
          )
        },
      ),
    ),
    fn(
      'resource',
      memberOverload(
        'groupcheck_resource',
        [GroupCheckType, StringType],
        ResourceCheckType,
        (g: GroupCheckValue, r: string) => {
          if (isBlank(r)) throw new ErrorValue('resource must not be empty')
          return new ResourceCheckValue(g, r)
        },
      ),
    ),
    fn(
      'subresource',
      memberOverload(
        'resourcecheck_subresource',
        [ResourceCheckType, StringType],
        ResourceCheckType,
        (r: ResourceCheckValue, s: string) => r.with({ subresource: s }),
      ),
    ),
    fn(
      'namespace',
      memberOverload(
        'resourcecheck_namespace',
        [ResourceCheckType, StringType],
        ResourceCheckType,
        (r: ResourceCheckValue, s: string) => r.with({ namespace: s }),
      ),
    ),
    fn(
      'name',
      memberOverload(
        'resourcecheck_name',
        [ResourceCheckType, StringType],
        ResourceCheckType,
        (r: ResourceCheckValue, s: string) => r.with({ name: s }),
      ),
    ),
    fn(
      'check',
      memberOverload('pathcheck_check', [PathCheckType, StringType], DecisionType, (p: PathCheckValue, verb: string) =>
        decide(p.authorizer.authorize, {
          user: p.authorizer.user.username,
          groups: p.authorizer.user.groups,
          verb,
          resourceRequest: false,
          path: p.path,
        }),
      ),
      memberOverload(
        'resourcecheck_check',
        [ResourceCheckType, StringType],
        DecisionType,
        (r: ResourceCheckValue, verb: string) => {
          const a = r.groupCheck.authorizer
          return decide(a.authorize, {
            user: a.user.username,
            groups: a.user.groups,
            verb,
            resourceRequest: true,
            apiGroup: r.groupCheck.group,
            apiVersion: '*',
            resource: r.resource,
            subresource: r.subresource,
            namespace: r.namespace,
            name: r.name,
            ...(r.fieldSelector ? { fieldSelector: r.fieldSelector } : {}),
            ...(r.labelSelector ? { labelSelector: r.labelSelector } : {}),
          })
        },
      ),
    ),
    fn(
      'errored',
      memberOverload(
        'decision_errored',
        [DecisionType],
        BoolType,
        (d: DecisionValue) => d.decision.error !== undefined,
      ),
    ),
    fn(
      'error',
      memberOverload('decision_error', [DecisionType], StringType, (d: DecisionValue) => d.decision.error ?? ''),
    ),
    fn(
      'allowed',
      memberOverload(
        'decision_allowed',
        [DecisionType],
        BoolType,
        (d: DecisionValue) => d.decision.decision === 'Allow',
      ),
    ),
    fn(
      'reason',
      memberOverload('decision_reason', [DecisionType], StringType, (d: DecisionValue) => d.decision.reason ?? ''),
    ),
  ],
  // k8s.io/apiserver pkg/cel/library/cost.go: check is 350,000; the builders and accessors cost 1 (the default).
  runtimeCosts: { check: () => 350_000 },
}

/**
 * cost.go selectorCostEstimate: list base cost 10, the traversal of the selector string, and per
 * 0.5 requirements per character a list element and a struct (10 + 40).
 */
function selectorCost(args: readonly unknown[]): number {
  const l = [...String(args[1])].length
  return 10 + Math.ceil(l * 0.1) + Math.ceil(Math.ceil(l * 0.5) * 50)
}

export const authzSelectorsLibrary: Library = {
  name: 'kubernetes.authzSelectors',
  runtimeCosts: { fieldSelector: selectorCost, labelSelector: selectorCost },
  functions: [
    fn(
      'fieldSelector',
      memberOverload(
        'authorizer_fieldselector',
        [ResourceCheckType, StringType],
        ResourceCheckType,
        (r: ResourceCheckValue, s: string) => r.with({ fieldSelector: s }),
      ),
    ),
    fn(
      'labelSelector',
      memberOverload(
        'authorizer_labelselector',
        [ResourceCheckType, StringType],
        ResourceCheckType,
        (r: ResourceCheckValue, s: string) => r.with({ labelSelector: s }),
      ),
    ),
  ],
}
