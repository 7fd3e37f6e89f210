import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { isQualifiedName, isValidLabelValue } from '../../../kube/validation/names.js'
import { arr, isObj, type JSONObject, jsonUnmarshalObjectError, str } from '../common.js'

// Tolerations (kubernetes v1.37.2 pkg/apis/core/validation/validation.go ValidateTolerations) and the
// deprecated tolerations annotation of a Pod (ValidateTolerationsInPodAnnotations: the annotation read as
// pkg/apis/core/helper GetTolerationsFromPodAnnotations reads it, encoding/json into []core.Toleration, whose
// fields have no JSON tags: keys match the Go names case-insensitively, and type errors name them).

const obj = (v: unknown): JSONObject => (isObj(v) ? v : {})

const TOLERATION_OPERATORS = ['Equal', 'Exists']
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute']

/** ValidateTolerations (TaintTolerationComparisonOperators off: Lt / Gt are NotSupported). */
export function validateTolerations(tolerations: unknown, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  arr(tolerations).forEach((x, i) => {
    const t = obj(x)
    const ip = p.index(i)
    const key = str(t.key)
    const op = str(t.operator)
    const effect = str(t.effect)
    if (key.length > 0) for (const m of isQualifiedName(key, minor)) errs.push(field.invalid(ip.child('key'), key, m))
    if (key.length === 0 && op !== 'Exists')
      errs.push(
        field.invalid(
          ip.child('operator'),
          op,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      )
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute')
      errs.push(field.invalid(ip.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
    const value = str(t.value)
    if (op === 'Equal' || op === '') {
      const msgs = isValidLabelValue(value, minor)
      if (msgs.length > 0) errs.push(field.invalid(ip.child('operator'), value, msgs.join(';')))
    } else if (op === 'Exists') {
      if (value.length > 0)
        errs.push(field.invalid(ip.child('operator'), value, "value must be empty when `operator` is 'Exists'"))
    } else if (op === 'Lt' || op === 'Gt') {
      errs.push(field.notSupported(ip.child('operator'), op, ['Equal', 'Exists', 'Lt', 'Gt']))
    } else errs.push(field.notSupported(ip.child('operator'), op, TOLERATION_OPERATORS))
    if (effect.length > 0 && !TAINT_EFFECTS.includes(effect))
      errs.push(field.notSupported(ip.child('effect'), effect, TAINT_EFFECTS))
  })
  return errs
}

export const TOLERATIONS_ANNOTATION = 'scheduler.alpha.kubernetes.io/tolerations'

// the fields of core.Toleration: [Go name, JSON key kelp's validation reads, Go type]
const TOLERATION_FIELDS = [
  ['Key', 'key', 'string'],
  ['Operator', 'operator', 'core.TolerationOperator'],
  ['Value', 'value', 'string'],
  ['Effect', 'effect', 'core.TaintEffect'],
  ['TolerationSeconds', 'tolerationSeconds', 'int64'],
] as const

const jsonKind = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v

/**
 * json.Unmarshal(text, &[]core.Toleration{}): the tolerations, or Go's error text (a syntax error first, then
 * the first type error; a field of the wrong type is left unset and decoding goes on, as encoding/json does).
 */
export function tolerationsFromAnnotation(text: string): JSONObject[] | string {
  const syntax = jsonUnmarshalObjectError(text)
  if (syntax !== undefined && !syntax.startsWith('json: cannot unmarshal ')) return syntax
  let top: unknown
  try {
    top = JSON.parse(text)
  } catch (e) {
    // the scanner above accepts what JSON.parse accepts; kept as an error rather than a crash all the same
    return e instanceof SyntaxError ? e.message : String(e)
  }
  if (top === null) return []
  if (!Array.isArray(top)) return `json: cannot unmarshal ${jsonKind(top)} into Go value of type []core.Toleration`
  let first: string | undefined
  const out: JSONObject[] = []
  for (const el of top) {
    const t: JSONObject = {}
    out.push(t)
    if (el === null) continue
    if (!isObj(el)) {
      first ??= `json: cannot unmarshal ${jsonKind(el)} into Go value of type core.Toleration`
      continue
    }
    for (const k of Object.keys(el)) {
      const f =
        TOLERATION_FIELDS.find(([go]) => go === k) ??
        TOLERATION_FIELDS.find(([go]) => go.toLowerCase() === k.toLowerCase())
      if (f === undefined) continue
      const [go, json, type] = f
      const v = el[k]
      if (v === null) continue
      const where = `Go struct field Toleration.${go} of type ${type}`
      if (type === 'int64') {
        // any integral literal in int64's range (JSON.parse rounds one past 2^53; its validation is the same)
        if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 63) t[json] = v
        else
          first ??= `json: cannot unmarshal ${typeof v === 'number' ? `number ${numberText(text, v)}` : jsonKind(v)} into ${where}`
      } else if (typeof v === 'string') t[json] = v
      else first ??= `json: cannot unmarshal ${jsonKind(v)} into ${where}`
    }
  }
  return first ?? out
}

/**
 * Go quotes the number's literal as written; JSON.parse keeps its value only, so kelp prints its shortest form
 * (`1.50` is printed `1.5`) and takes an integral literal in exponent form (`1e3`) as the integer Go refuses.
 */
const numberText = (_text: string, v: number): string => String(v)

/** ValidateTolerationsInPodAnnotations, at `metadata.annotations`. */
export function validateTolerationsInPodAnnotation(value: string, p: FieldPath, minor: number): FieldError[] {
  const tolerations = tolerationsFromAnnotation(value)
  if (typeof tolerations === 'string') return [field.invalid(p, TOLERATIONS_ANNOTATION, tolerations)]
  return tolerations.length > 0 ? validateTolerations(tolerations, p.child(TOLERATIONS_ANNOTATION), minor) : []
}
