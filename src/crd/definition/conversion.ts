import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import { isDNS1035Label } from '../../kube/validation/names.js'
import { validateWebhookService, validateWebhookURL } from '../../kube/validation/webhook.js'
import type { CustomResourceConversion } from './types.js'

// validateCustomResourceConversion (validation.go) with the webhook client checks it calls
// (apiserver pkg/util/webhook/validation.go). On create an invalid caBundle is allowed (the CRD is
// not established yet), so the bundle is not checked.

/** The ConversionReview versions this API server understands, sorted. */
const ACCEPTED_CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1']

export function validateCustomResourceConversion(
  conversion: CustomResourceConversion | undefined,
  requireRecognizedVersion: boolean,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  if (conversion === undefined) return errs
  const strategy = conversion.strategy ?? ''
  errs.push(...validateEnumStrings(fldPath.child('strategy'), strategy, ['None', 'Webhook'], true))
  if (strategy === 'Webhook') {
    const cc = conversion.webhookClientConfig
    if (cc === undefined) {
      errs.push(field.required(fldPath.child('webhookClientConfig'), 'required when strategy is set to Webhook'))
    } else if ((cc.url === undefined) === (cc.service === undefined)) {
      errs.push(field.required(fldPath.child('webhookClientConfig'), 'exactly one of url or service is required'))
    } else if (cc.url !== undefined) {
      errs.push(...validateWebhookURL(fldPath.child('webhookClientConfig').child('url'), cc.url, true))
    } else if (cc.service !== undefined) {
      const s = cc.service
      errs.push(
        ...validateWebhookService(
          fldPath.child('webhookClientConfig').child('service'),
          s.namespace ?? '',
          s.name ?? '',
          s.path,
          s.port ?? 0,
        ),
      )
    }
    errs.push(
      ...validateConversionReviewVersions(
        conversion.conversionReviewVersions,
        requireRecognizedVersion,
        fldPath.child('conversionReviewVersions'),
      ),
    )
  } else {
    if (conversion.webhookClientConfig !== undefined)
      errs.push(
        field.forbidden(fldPath.child('webhookClientConfig'), 'should not be set when strategy is not set to Webhook'),
      )
    if ((conversion.conversionReviewVersions?.length ?? 0) > 0)
      errs.push(
        field.forbidden(
          fldPath.child('conversionReviewVersions'),
          'should not be set when strategy is not set to Webhook',
        ),
      )
  }
  return errs
}

/** validateEnumStrings: Required when empty (if required), NotSupported when not one of `accepted`. */
export function validateEnumStrings(
  fldPath: FieldPath,
  value: string,
  accepted: readonly string[],
  required: boolean,
): FieldError[] {
  if (value === '') return required ? [field.required(fldPath, '')] : []
  return accepted.includes(value) ? [] : [field.notSupported(fldPath, value, accepted)]
}

function validateConversionReviewVersions(
  versions: readonly string[] | undefined,
  requireRecognizedVersion: boolean,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  if (versions === undefined || versions.length === 0) return [field.required(fldPath, '')]
  const seen = new Set<string>()
  let hasAccepted = false
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(field.invalid(fldPath.index(i), v, 'duplicate version'))
      return
    }
    seen.add(v)
    for (const msg of isDNS1035Label(v)) errs.push(field.invalid(fldPath.index(i), v, msg))
    if (ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v)) hasAccepted = true
  })
  if (requireRecognizedVersion && !hasAccepted)
    errs.push(
      field.invalid(
        fldPath,
        versions,
        `must include at least one of ${ACCEPTED_CONVERSION_REVIEW_VERSIONS.join(', ')}`,
      ),
    )
  return errs
}
