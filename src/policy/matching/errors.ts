import { goQuote } from '../../cel/ext/quote.js'

// The API errors the matcher returns (k8s.io/apimachinery pkg/api/errors: NewNotFound,
// NewInternalError), kept as the metav1.Status they carry.

export interface StatusDetails {
  readonly name?: string
  readonly group?: string
  readonly kind?: string
  readonly causes?: readonly { readonly message: string }[]
}

export interface Status {
  readonly status: 'Failure'
  readonly code: number
  readonly reason: string
  readonly message: string
  readonly details?: StatusDetails
}

/** apierrors.StatusError: an error that carries a metav1.Status. */
export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message)
    this.name = 'StatusError'
  }
}

/** apierrors.NewNotFound: 404, `<resource>[.<group>] "<name>" not found`. */
export function newNotFound(group: string, resource: string, name: string): StatusError {
  const qualified = group === '' ? resource : `${resource}.${group}`
  return new StatusError({
    status: 'Failure',
    code: 404,
    reason: 'NotFound',
    message: `${qualified} ${goQuote(name)} not found`,
    details: { group, kind: resource, name },
  })
}

/** apierrors.NewInternalError: 500, `Internal error occurred: <err>`. */
export function newInternalError(err: unknown): StatusError {
  const msg = err instanceof Error ? err.message : String(err)
  return new StatusError({
    status: 'Failure',
    code: 500,
    reason: 'InternalError',
    message: `Internal error occurred: ${msg}`,
    details: { causes: [{ message: msg }] },
  })
}

/** apierrors.IsNotFound. */
export function isNotFound(err: unknown): boolean {
  return err instanceof StatusError && err.status.reason === 'NotFound'
}
