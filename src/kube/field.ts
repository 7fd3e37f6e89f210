import { goQuote } from '../cel/ext/quote.js'
import { formatDouble } from '../cel/values/format.js'
import { compareStrings } from '../cel/values/strings.js'

// apimachinery's field errors (pkg/util/validation/field: errors.go, path.go) and the texts the
// API server and kubectl build from them (pkg/api/errors NewInvalid, kubectl checkErr). Every
// validation in kelp reports through these, so a message reads exactly as the cluster's.

/** A field path (field.Path): names joined by `.`, indexes and map keys in brackets (keys unquoted). */
export class FieldPath {
  private constructor(
    /** The field name, or undefined when this step is an index / key. */
    readonly name: string | undefined,
    readonly subscript: string | undefined,
    readonly parent: FieldPath | undefined,
  ) {}

  static of(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(name, undefined, undefined)
    for (const n of more) p = new FieldPath(n, undefined, p)
    return p
  }

  /** A path whose first step is a subscript (a nil path's Key / Index in Go). */
  static ofKey(k: string): FieldPath {
    return new FieldPath(undefined, k, undefined)
  }

  /**
   * Child(name, moreNames...), up to two more names (every call site's need), as named parameters: a rest
   * parameter's array was allocated at each call (the validations build a path for every field they visit:
   * with the bundled pack, 4 KB of such arrays an object).
   */
  child(name: string, more?: string, last?: string): FieldPath {
    const p = new FieldPath(name, undefined, this)
    if (more === undefined) return p
    const q = new FieldPath(more, undefined, p)
    return last === undefined ? q : new FieldPath(last, undefined, q)
  }

  index(i: number): FieldPath {
    return new FieldPath(undefined, String(i), this)
  }

  key(k: string): FieldPath {
    return new FieldPath(undefined, k, this)
  }

  toString(): string {
    const parts: FieldPath[] = []
    for (let p: FieldPath | undefined = this; p; p = p.parent) parts.push(p)
    let s = ''
    for (let i = parts.length - 1; i >= 0; i--) {
      const p = parts[i] as FieldPath
      if (p.name !== undefined && p.name.length > 0) s += p.parent ? `.${p.name}` : p.name
      else s += `[${p.subscript ?? ''}]`
    }
    return s
  }
}

/** `field.Path.String()` of a possibly nil path. */
export function pathString(p: FieldPath | undefined): string {
  return p === undefined ? '<nil>' : p.toString()
}

/** field.ErrorType values (also the StatusCause types). */
export const ErrorType = {
  NotFound: 'FieldValueNotFound',
  Required: 'FieldValueRequired',
  Duplicate: 'FieldValueDuplicate',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  TooFew: 'FieldValueTooFew',
  Internal: 'InternalError',
  TypeInvalid: 'FieldValueTypeInvalid',
  TooShort: 'FieldValueTooShort',
} as const
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType]

const TYPE_TEXT: Record<ErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueTooShort: 'Too short',
}

/** Marks a bad value that is not printed (field.OmitValueType). */
export const OMIT: unique symbol = Symbol('omitValue')
/** A bad value as Go holds it: JSON-like data; `{ int: n }` for a Go int64 that must print as an integer. */
export type BadValue = unknown

/** One field error (field.Error). */
export interface FieldError {
  readonly type: ErrorType
  /** The rendered path (`<nil>` for a nil path). */
  readonly field: string
  readonly badValue: BadValue
  readonly detail: string
  /**
   * The bad value as the target release's ErrorBody prints it, when that differs from today's
   * rendering (releases before 1.34: see withReleaseValues); the error prints this instead.
   */
  readonly printedValue?: string
}

function mk(type: ErrorType, path: FieldPath | undefined, badValue: BadValue, detail: string): FieldError {
  return { type, field: pathString(path), badValue, detail }
}

export const field = {
  invalid: (p: FieldPath | undefined, value: BadValue, detail: string) => mk(ErrorType.Invalid, p, value, detail),
  typeInvalid: (p: FieldPath | undefined, value: BadValue, detail: string) =>
    mk(ErrorType.TypeInvalid, p, value, detail),
  required: (p: FieldPath | undefined, detail: string) => mk(ErrorType.Required, p, '', detail),
  forbidden: (p: FieldPath | undefined, detail: string) => mk(ErrorType.Forbidden, p, '', detail),
  duplicate: (p: FieldPath | undefined, value: BadValue) => mk(ErrorType.Duplicate, p, value, ''),
  notFound: (p: FieldPath | undefined, value: BadValue) => mk(ErrorType.NotFound, p, value, ''),
  internal: (p: FieldPath | undefined, message: string) => mk(ErrorType.Internal, p, message, message),
  /** field.NotSupported: `supported values: "a", "b"` (each value Go-quoted). */
  notSupported: (p: FieldPath | undefined, value: BadValue, valid: readonly string[]) =>
    mk(
      ErrorType.NotSupported,
      p,
      value,
      valid.length > 0 ? `supported values: ${valid.map((v) => goQuote(v)).join(', ')}` : '',
    ),
  /** field.TooLong (bytes). */
  tooLong: (p: FieldPath | undefined, maxLength: number) =>
    mk(
      ErrorType.TooLong,
      p,
      '<value omitted>',
      maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long',
    ),
  /** field.TooMany: the actual count is shown (omitted when negative). */
  tooMany: (p: FieldPath | undefined, actual: number, max: number) =>
    mk(
      ErrorType.TooMany,
      p,
      actual >= 0 ? actual : OMIT,
      max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items',
    ),
}

/** `field.Error.ErrorBody()`: the type text, the bad value where the type shows one, then the detail. */
export function errorBody(e: FieldError): string {
  let s: string
  switch (e.type) {
    case ErrorType.Required:
    case ErrorType.Forbidden:
    case ErrorType.TooLong:
    case ErrorType.TooShort:
    case ErrorType.Internal:
      s = TYPE_TEXT[e.type]
      break
    default:
      s = e.badValue === OMIT ? TYPE_TEXT[e.type] : `${TYPE_TEXT[e.type]}: ${e.printedValue ?? goValue(e.badValue)}`
  }
  return e.detail.length > 0 ? `${s}: ${e.detail}` : s
}

/** `field.Error.Error()`: `<path>: <body>`. */
export function errorString(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`
}

/** The bad value as ErrorBody prints it: ints, floats and bools with %v, strings with %q, others as Go's JSON. */
export function goValue(v: BadValue): string {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < 1e21 ? String(v) : formatDouble(v)
    case 'bigint':
      return String(v)
    case 'boolean':
      return String(v)
    case 'string':
      return goQuote(v)
    default:
      return goJSON(v)
  }
}

/**
 * The bad value as ErrorBody printed it up to Kubernetes 1.33 (apimachinery errors.go at
 * release-1.33): nil as the string "null" (so `Invalid value: "null"`), int64 / float64 / bool with
 * %v, strings with %q, and anything else with Go's %#v, which for unstructured data is
 * `map[string]interface {}{"k":"v", "n":1}` / `[]interface {}{"a", 2}`. kubernetes#132314 ("Nicer
 * value rendering in API errors", first in 1.34) replaced the %#v fallback by JSON and prints nil as
 * `null`. Typed Go structs (GoStruct, MarshaledJSON) keep their JSON: their %#v names Go types
 * and pointer addresses kelp cannot reproduce.
 */
export function goValueBefore134(v: BadValue): string {
  if (v === null || v === undefined) return '"null"'
  if (typeof v === 'object' && !(v instanceof GoStruct) && !(v instanceof MarshaledJSON)) return goSharpV(v)
  return goValue(v)
}

/**
 * Go's %#v of unstructured data (map[string]interface{}, []interface{}, scalars): keys sorted by bytes. `map`: the
 * maps' type (go-yaml v2 decodes into `map[interface {}]interface {}`).
 */
export function goSharpV(v: unknown, map = 'map[string]interface {}'): string {
  if (v === null || v === undefined) return 'interface {}(nil)'
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, map)).join(', ')}}`
  if (typeof v === 'object') {
    if (v instanceof GoStruct || v instanceof MarshaledJSON) return goJSON(v)
    const o = v as Record<string, unknown>
    const keys = Object.keys(o).sort(compareStrings)
    return `${map}{${keys.map((k) => `${goQuote(k)}:${goSharpV(o[k], map)}`).join(', ')}}`
  }
  // %#v of a float64, int64, bool or string inside an interface{} prints as %v / %q do
  return goValue(v)
}

/** The types whose ErrorBody prints no bad value (errors.go, every supported release). */
const NO_VALUE: ReadonlySet<ErrorType> = new Set<ErrorType>([
  ErrorType.Required,
  ErrorType.Forbidden,
  ErrorType.TooLong,
  ErrorType.TooShort,
  ErrorType.Internal,
])

/**
 * Field errors as the apiserver of Kubernetes 1.<minor> prints them: before 1.34 (kubernetes#132314)
 * each bad value in goValueBefore134's rendering, kept in `printedValue`; from 1.34 the errors as they are.
 */
export function withReleaseValues(errs: readonly FieldError[], minor: number): FieldError[] {
  if (minor >= 34) return errs as FieldError[]
  return errs.map((e) => {
    if (NO_VALUE.has(e.type) || e.badValue === OMIT || e.printedValue !== undefined) return e
    const printed = goValueBefore134(e.badValue)
    return printed === goValue(e.badValue) ? e : { ...e, printedValue: printed }
  })
}

/**
 * A bad value whose Go rendering is `json.Marshal` of a typed value (a struct marshals its fields in
 * declaration order, not sorted like a map): the caller builds that JSON text, goJSON prints it as is.
 */
export class MarshaledJSON {
  constructor(readonly json: string) {}
}

/** A Go struct value for goJSON: its fields marshal in declaration order (maps sort their keys). */
export class GoStruct {
  constructor(readonly fields: readonly (readonly [string, unknown])[]) {}
}

/** Go `json.Marshal` of JSON-like data: map keys sorted, `<`, `>`, `&` escaped, nil as null. */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (v instanceof GoStruct) return `{${v.fields.map(([k, x]) => `${goJSON(k)}:${goJSON(x)}`).join(',')}}`
  if (v instanceof MarshaledJSON) return v.json
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v).replace(
        /[<>&\u2028\u2029]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      )
    case 'number':
      return Number.isFinite(v) ? String(v).replace(/e([+-])(\d)$/, 'e$1$2') : 'null'
    case 'bigint':
    case 'boolean':
      return String(v)
    case 'object': {
      if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`
      // json.Marshal sorts a map's keys by their bytes (Go's string order)
      const keys = Object.keys(v).sort(compareStrings)
      return `{${keys.map((k) => `${goJSON(k)}:${goJSON((v as Record<string, unknown>)[k])}`).join(',')}}`
    }
  }
  return 'null'
}

/**
 * `ErrorList.ToAggregate().Error()`: one error's text alone, several as `[e1, e2]`, each distinct
 * text once.
 */
export function aggregateString(errs: readonly FieldError[]): string {
  const seen = new Set<string>()
  for (const e of errs) seen.add(errorString(e))
  const msgs = [...seen]
  return msgs.length === 1 ? (msgs[0] as string) : `[${msgs.join(', ')}]`
}

/** The Status an Invalid error carries (apierrors.NewInvalid): HTTP 422, reason Invalid, one cause per error. */
export interface InvalidStatus {
  readonly code: 422
  readonly reason: 'Invalid'
  readonly message: string
  readonly details: {
    readonly group: string
    readonly kind: string
    readonly name: string
    readonly causes: readonly { readonly reason: ErrorType; readonly message: string; readonly field: string }[]
  }
}

/** apierrors.NewInvalid(groupKind, name, errs). */
export function newInvalid(group: string, kind: string, name: string, errs: readonly FieldError[]): InvalidStatus {
  const gk = group === '' ? kind : `${kind}.${group}`
  const message =
    errs.length === 0
      ? `${gk} ${goQuote(name)} is invalid`
      : `${gk} ${goQuote(name)} is invalid: ${aggregateString(errs)}`
  return {
    code: 422,
    reason: 'Invalid',
    message,
    details: {
      group,
      kind,
      name,
      causes: errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field })),
    },
  }
}

/**
 * What kubectl prints for an Invalid status (kubectl cmd/util helpers.go checkErr, MultilineError):
 * `The <Kind> "<name>" is invalid: <field>: <body>` for one cause; with several, the prefix then one
 * `* <field>: <body>` line per cause.
 */
export function kubectlInvalidText(status: InvalidStatus): string {
  const { kind, name, causes } = status.details
  const prefix = `The ${kind} ${goQuote(name)} is invalid: `
  const lines = causes.map((c) => `${c.field}: ${c.message}`)
  if (lines.length === 0) return `${prefix}${status.message}\n`
  if (lines.length === 1) return `${prefix}${lines[0]}\n`
  return `${prefix}\n${lines.map((l) => `* ${l}\n`).join('')}`
}
