import { decodeBuiltin } from '../../../src/builtin/index.js'
import { validatorFor } from '../../../src/builtin/strategy.js'
import { errorString, type FieldError } from '../../../src/kube/field.js'

// Shared by test/builtin/validation-*.test.ts (the kinds of issue 19 outside Pod, apps, batch):
// each object is decoded and defaulted as the apiserver does before validation, then given to its
// kind's validator straight from the table of src/builtin/strategies.ts (no engine wiring).

export type O = Record<string, any>

export function stored(o: O, minor = 37): O {
  const r = decodeBuiltin(o, { minor })
  if (r?.object === undefined) throw new Error(r?.message ?? `not a built-in: ${o.apiVersion} ${o.kind}`)
  return r.object as O
}

/** The validator's field errors for a create (old undefined) or an update. */
export function errors(o: O, old?: O, minor = 37): FieldError[] {
  const [group, version] = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/') : ['', o.apiVersion]
  const v = validatorFor(group as string, version as string, String(o.kind))
  if (v === undefined) throw new Error(`no validator for ${o.apiVersion} ${o.kind}`)
  const n = stored(o, minor)
  return old === undefined ? v(n, { minor }) : v(n, { minor, oldObject: stored(old, minor) })
}

/** `<field> <type>` of each error, the way Kubernetes' tables state their expectations. */
export const fieldTypes = (o: O, old?: O, minor = 37): string[] =>
  errors(o, old, minor).map((e) => `${e.field} ${e.type}`)

/** The full texts (`<field>: <body>`). */
export const texts = (o: O, old?: O, minor = 37): string[] => errors(o, old, minor).map(errorString)

export const b64 = (s: string): string => Buffer.from(s, 'latin1').toString('base64')

export const clone = <T>(o: T): T => structuredClone(o)

/** Applies a mutation to a copy. */
export function tweak(o: O, f: (x: O) => void): O {
  const c = clone(o)
  f(c)
  return c
}
