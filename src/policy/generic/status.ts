import { goQuote } from '../../cel/ext/quote.js'
import type { JSONObject } from '../../kube/values/json.js'
import type { AdmissionAttributes } from '../attributes.js'

// The Status a policy plugin answers a denied request with: admission.NewForbidden (apiserver
// pkg/admission/errors.go) with the decision's reason, the code policy_dispatcher.go's reasonToCode
// gives it, and the message as the one cause. The validating plugin denies through forbiddenStatus; the
// mutating plugin answers the same Status shape with its own texts (mutating/dispatcher.ts statusOf).

export interface AdmissionStatus {
  readonly kind: 'Status'
  readonly apiVersion: 'v1'
  readonly status: 'Failure'
  readonly message: string
  readonly reason: string
  readonly code: number
  readonly details: {
    readonly group?: string
    readonly kind: string
    readonly name: string
    readonly causes: readonly { readonly message: string }[]
  }
}

/** reasonToCode. */
function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403
    case 'Unauthorized':
      return 401
    case 'RequestEntityTooLarge':
      return 413
    default:
      return 422
  }
}

/** extractResourceName: the request name, else the object's name or generateName, else Unknown. */
function resourceName(a: AdmissionAttributes): string {
  if (a.name !== '') return a.name
  const m = a.object?.metadata as JSONObject | undefined
  if (typeof m?.name === 'string' && m.name !== '') return m.name
  if (typeof m?.generateName === 'string' && m.generateName !== '') return m.generateName
  return 'Unknown'
}

/** admission.NewForbidden(a, err) with the decision's reason and code, and the message as a cause. */
export function forbiddenStatus(a: AdmissionAttributes, message: string, reason: string): AdmissionStatus {
  const gr = a.resource.group === '' ? a.resource.resource : `${a.resource.resource}.${a.resource.group}`
  const name = resourceName(a)
  const full = gr === '' ? `forbidden: ${message}` : `${gr} ${goQuote(name)} is forbidden: ${message}`
  return {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: full,
    reason,
    code: reasonToCode(reason),
    details: {
      ...(a.resource.group !== '' ? { group: a.resource.group } : {}),
      kind: a.resource.resource,
      name,
      causes: [{ message }],
    },
  }
}
