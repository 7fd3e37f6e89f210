import { type FieldError, type FieldPath, field } from '../field.js'
import { GoURL, parseURL, URLError } from '../values/url.js'
import { isDNS1123Subdomain, isValidPortNum } from './names.js'

// k8s.io/apiserver pkg/util/webhook validation.go: a webhook's client config (url or service), shared by
// CRD conversion webhooks (src/crd) and the admission webhook configurations (src/builtin).

const FORM = '; desired format: https://host[/path]'

/** webhook.ValidateWebhookURL. */
export function validateWebhookURL(fldPath: FieldPath, url: string, forceHttps: boolean): FieldError[] {
  const errs: FieldError[] = []
  const u = parseURL(url)
  if (u instanceof URLError) return [field.required(fldPath, `url must be a valid URL: ${u.message}${FORM}`)]
  if (forceHttps && u.scheme !== 'https')
    errs.push(field.invalid(fldPath, u.scheme, `'https' is the only allowed URL scheme${FORM}`))
  if (u.host.length === 0) errs.push(field.invalid(fldPath, u.host, `host must be specified${FORM}`))
  if (u.user !== null)
    errs.push(field.invalid(fldPath, userinfoString(u), 'user information is not permitted in the URL'))
  if (u.fragment.length > 0) errs.push(field.invalid(fldPath, u.fragment, 'fragments are not permitted in the URL'))
  if (u.rawQuery.length > 0)
    errs.push(field.invalid(fldPath, u.rawQuery, 'query parameters are not permitted in the URL'))
  return errs
}

/** url.Userinfo.String(): what URL.String() writes between `//` and `@`. */
function userinfoString(u: GoURL): string {
  const only = new GoURL()
  only.user = u.user
  return only.toString().slice(2, -1)
}

/** webhook.ValidateWebhookService. */
export function validateWebhookService(
  fldPath: FieldPath,
  namespace: string,
  name: string,
  path: string | undefined,
  port: number,
): FieldError[] {
  const errs: FieldError[] = []
  if (name.length === 0) errs.push(field.required(fldPath.child('name'), ''))
  if (namespace.length === 0) errs.push(field.required(fldPath.child('namespace'), ''))
  const portErrs = isValidPortNum(port)
  if (portErrs.length > 0)
    errs.push(field.invalid(fldPath.child('port'), port, `port is not valid: ${portErrs.join(', ')}`))
  if (path === undefined || path === '/' || path.length === 0) return errs
  if (path === '//') {
    errs.push(field.invalid(fldPath.child('path'), path, 'segment[0] may not be empty'))
    return errs
  }
  if (!path.startsWith('/')) errs.push(field.invalid(fldPath.child('path'), path, "must start with a '/'"))
  let toCheck = path.slice(1)
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1)
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(field.invalid(fldPath.child('path'), path, `segment[${i}] may not be empty`))
      return
    }
    for (const failure of isDNS1123Subdomain(step))
      errs.push(field.invalid(fldPath.child('path'), path, `segment[${i}]: ${failure}`))
  })
  return errs
}
