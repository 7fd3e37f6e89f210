// admission.Attributes (apiserver pkg/admission/interfaces.go): what one admission request carries,
// as the policy plugins read it. The CLI and the webhook both build one of these per object; the
// webhook from an AdmissionReview's request, the CLI from a manifest (and an old revision).

import type { GroupVersionKind, GroupVersionResource } from '../kube/gvk.js'

export type { GroupVersionKind, GroupVersionResource }

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT'

/** authentication/v1 UserInfo as an AdmissionRequest carries it. */
export interface UserInfo {
  readonly username?: string
  readonly uid?: string
  readonly groups?: readonly string[]
  readonly extra?: Readonly<Record<string, readonly string[]>>
}

export interface AdmissionAttributes {
  readonly kind: GroupVersionKind
  readonly resource: GroupVersionResource
  /** `status`, `scale`, … ('' for the main resource). */
  readonly subResource: string
  readonly name: string
  /** '' for cluster-scoped resources. */
  readonly namespace: string
  readonly operation: Operation
  /** The object being admitted (absent on DELETE). JSON as the apiserver would send it. */
  readonly object?: Record<string, unknown> | null
  /** The existing object (UPDATE, DELETE). */
  readonly oldObject?: Record<string, unknown> | null
  /** The operation's options object (CreateOptions, UpdateOptions, DeleteOptions). */
  readonly options?: Record<string, unknown> | null
  readonly userInfo: UserInfo
  readonly dryRun: boolean
  /** The kind / resource the user asked for, when a matchPolicy Equivalent conversion happened. */
  readonly requestKind?: GroupVersionKind
  readonly requestResource?: GroupVersionResource
  readonly requestSubResource?: string
  /** AdmissionRequest.uid, when the request came from an AdmissionReview. */
  readonly uid?: string
}

/** AdmissionAttributes as a caller gives them: the main resource ('' subresource) and no dry run unless said. */
export type AdmissionAttributesInput = Omit<AdmissionAttributes, 'subResource' | 'dryRun'> &
  Partial<Pick<AdmissionAttributes, 'subResource' | 'dryRun'>>

/** The attributes with their defaults: `subResource` '', `dryRun` false (the object itself when both are given). */
export function withAttributeDefaults(a: AdmissionAttributesInput): AdmissionAttributes {
  if (a.subResource !== undefined && a.dryRun !== undefined) return a as AdmissionAttributes
  return { ...a, subResource: a.subResource ?? '', dryRun: a.dryRun ?? false }
}
