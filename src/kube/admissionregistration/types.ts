// The JSON of admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and
// ValidatingAdmissionPolicyBinding (k8s.io/api/admissionregistration/v1 types.go), as kubectl sends
// it. v1beta1 objects have the same shape. Every field is optional here: the API server's defaults
// (defaults.ts) fill some, validation reports the missing required ones.

/** metav1.ObjectMeta: the fields validation reads. */
export interface ObjectMeta {
  readonly name?: string
  readonly generateName?: string
  readonly namespace?: string
  readonly generation?: number
  readonly labels?: Readonly<Record<string, string>>
  readonly annotations?: Readonly<Record<string, string>>
  readonly finalizers?: readonly string[]
  readonly [key: string]: unknown
}

import type { LabelSelector } from '../validation/label-selector.js'

export type { LabelSelector, LabelSelectorRequirement } from '../validation/label-selector.js'

export type OperationType = '*' | 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT'
export type ScopeType = '*' | 'Cluster' | 'Namespaced'
export type FailurePolicyType = 'Fail' | 'Ignore'
export type MatchPolicyType = 'Exact' | 'Equivalent'
export type ValidationAction = 'Deny' | 'Warn' | 'Audit'
export type ParameterNotFoundActionType = 'Allow' | 'Deny'

/** NamedRuleWithOperations: RuleWithOperations and Rule inlined, plus resourceNames. */
export interface NamedRuleWithOperations {
  readonly resourceNames?: readonly string[]
  readonly operations?: readonly (OperationType | string)[]
  readonly apiGroups?: readonly string[]
  readonly apiVersions?: readonly string[]
  readonly resources?: readonly string[]
  readonly scope?: ScopeType | string
}

/** MatchResources. */
export interface MatchResources {
  readonly namespaceSelector?: LabelSelector
  readonly objectSelector?: LabelSelector
  readonly resourceRules?: readonly NamedRuleWithOperations[]
  readonly excludeResourceRules?: readonly NamedRuleWithOperations[]
  readonly matchPolicy?: MatchPolicyType | string
}

/** ParamKind: the GroupVersionKind of the policy's parameter resources. */
export interface ParamKind {
  readonly apiVersion?: string
  readonly kind?: string
}

/** ParamRef: how a binding finds its parameter resources. */
export interface ParamRef {
  readonly name?: string
  readonly namespace?: string
  readonly selector?: LabelSelector
  readonly parameterNotFoundAction?: ParameterNotFoundActionType | string
}

/** Validation: one CEL rule of a policy. */
export interface Validation {
  readonly expression?: string
  readonly message?: string
  /** metav1.StatusReason: `Unauthorized`, `Forbidden`, `Invalid`, `RequestEntityTooLarge`. */
  readonly reason?: string
  readonly messageExpression?: string
}

/** Variable: a named CEL expression, reachable as `variables.<name>`. */
export interface Variable {
  readonly name?: string
  readonly expression?: string
}

/** AuditAnnotation: an audit annotation the policy adds (`<policy name>/<key>`). */
export interface AuditAnnotation {
  readonly key?: string
  readonly valueExpression?: string
}

/** MatchCondition: a CEL pre-condition of the policy. */
export interface MatchCondition {
  readonly name?: string
  readonly expression?: string
}

export interface ValidatingAdmissionPolicySpec {
  readonly paramKind?: ParamKind
  readonly matchConstraints?: MatchResources
  readonly validations?: readonly Validation[]
  readonly failurePolicy?: FailurePolicyType | string
  readonly auditAnnotations?: readonly AuditAnnotation[]
  readonly matchConditions?: readonly MatchCondition[]
  readonly variables?: readonly Variable[]
}

export interface ExpressionWarning {
  readonly fieldRef?: string
  readonly warning?: string
}

export interface ValidatingAdmissionPolicyStatus {
  readonly observedGeneration?: number
  readonly typeChecking?: { readonly expressionWarnings?: readonly ExpressionWarning[] }
  readonly conditions?: readonly Readonly<Record<string, unknown>>[]
}

export interface ValidatingAdmissionPolicy {
  readonly apiVersion?: string
  readonly kind?: string
  readonly metadata?: ObjectMeta
  readonly spec?: ValidatingAdmissionPolicySpec
  readonly status?: ValidatingAdmissionPolicyStatus
}

export interface ValidatingAdmissionPolicyBindingSpec {
  readonly policyName?: string
  readonly paramRef?: ParamRef
  readonly matchResources?: MatchResources
  readonly validationActions?: readonly (ValidationAction | string)[]
}

export interface ValidatingAdmissionPolicyBinding {
  readonly apiVersion?: string
  readonly kind?: string
  readonly metadata?: ObjectMeta
  readonly spec?: ValidatingAdmissionPolicyBindingSpec
}

// MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding (admissionregistration.k8s.io v1, GA in
// 1.36; v1beta1 in 1.34-1.35, v1alpha1 in 1.32-1.33): the same shape in every version.

export type PatchType = 'ApplyConfiguration' | 'JSONPatch'
export type ReinvocationPolicyType = 'Never' | 'IfNeeded'

/** ApplyConfiguration / JSONPatch: the CEL expression of one mutation. */
export interface MutationExpression {
  readonly expression?: string
}

/** Mutation: one patch of a policy. */
export interface Mutation {
  readonly patchType?: PatchType | string
  readonly applyConfiguration?: MutationExpression
  readonly jsonPatch?: MutationExpression
}

export interface MutatingAdmissionPolicySpec {
  readonly paramKind?: ParamKind
  readonly matchConstraints?: MatchResources
  readonly variables?: readonly Variable[]
  readonly mutations?: readonly Mutation[]
  readonly failurePolicy?: FailurePolicyType | string
  readonly matchConditions?: readonly MatchCondition[]
  readonly reinvocationPolicy?: ReinvocationPolicyType | string
}

export interface MutatingAdmissionPolicy {
  readonly apiVersion?: string
  readonly kind?: string
  readonly metadata?: ObjectMeta
  readonly spec?: MutatingAdmissionPolicySpec
}

export interface MutatingAdmissionPolicyBindingSpec {
  readonly policyName?: string
  readonly paramRef?: ParamRef
  readonly matchResources?: MatchResources
}

export interface MutatingAdmissionPolicyBinding {
  readonly apiVersion?: string
  readonly kind?: string
  readonly metadata?: ObjectMeta
  readonly spec?: MutatingAdmissionPolicyBindingSpec
}
