import { FieldPath } from '../../kube/field.js'

// ValidFieldPath (apiextensions pkg/apiserver/schema/cel/validation.go): a JSON path of field
// (`.name`) and map-key (`['key']`) steps that must exist in the schema. Used for the fieldPath of
// x-kubernetes-validations rules, both when the CRD is validated and when its rules are compiled
// (normalizedRuleFieldPath), and for selectableFields. It reads only properties and
// additionalProperties, so it serves the CRD's schema types and the structural ones alike.

/** What ValidFieldPath reads of a schema node. */
export interface PathSchema {
  readonly properties?: Readonly<Record<string, PathSchema>>
  readonly additionalProperties?: PathSchema | boolean
}

/** One step of the validated path: a field name or a map key (field.Path Child / Key). */
export interface PathStep {
  readonly name: string
  readonly isKey: boolean
}

export type ValidFieldPathResult<S extends PathSchema = PathSchema> =
  | { readonly ok: true; readonly steps: readonly PathStep[]; readonly schema: S | undefined }
  | { readonly ok: false; readonly error: string }

/** field.Path.String() of the steps (`a.b[k]`). */
export function stepsString(steps: readonly PathStep[]): string {
  let s = ''
  steps.forEach((st, i) => {
    if (st.isKey) s += `[${st.name}]`
    else s += i > 0 && st.name.length > 0 ? `.${st.name}` : st.name
  })
  return s
}

/** The steps as a field.Path (undefined for none: Go's nil path). */
export function stepsPath(steps: readonly PathStep[]): FieldPath | undefined {
  let p: FieldPath | undefined
  for (const st of steps) {
    if (st.isKey) p = p === undefined ? FieldPath.ofKey(st.name) : p.key(st.name)
    else p = p === undefined ? FieldPath.of(st.name) : p.child(st.name)
  }
  return p
}

/**
 * Splits as Go's bufio.Scanner with ValidFieldPath's split function: the delimiters `.`, `[`, `]`
 * are single tokens; a token starting with `'` runs to the next `'` not preceded by a backslash.
 */
function tokenize(s: string): string[] {
  const toks: string[] = []
  let i = 0
  while (i < s.length) {
    if (s[i] === "'") {
      let j = i + 1
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== '\\')) j++
      if (j < s.length) {
        toks.push(s.slice(i, j + 1))
        i = j + 1
      } else {
        toks.push(s.slice(i)) // unterminated: the rest at EOF
        i = s.length
      }
      continue
    }
    if (s[i] === '.' || s[i] === '[' || s[i] === ']') {
      toks.push(s[i] as string)
      i++
      continue
    }
    let j = i
    while (j < s.length && s[j] !== '.' && s[j] !== '[' && s[j] !== ']') j++
    toks.push(s.slice(i, j))
    i = j
  }
  return toks
}

const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
}

/**
 * unescapeSingleQuote: `\x` escapes of a quoted key (Go's `\\.`: any character but a newline); an
 * unknown one is an error, the last one found (Go assigns its err on every unknown escape).
 */
function unescapeSingleQuote(s: string): string | { error: string } {
  let err: string | undefined
  const out = s.replace(/\\[^\n]/gu, (m) => {
    const r = ESCAPES[m[1] as string]
    if (r === undefined) {
      err = `invalid escape char ${m}`
      return ''
    }
    return r
  })
  return err === undefined ? out : { error: err }
}

/** Structural.Properties is non-nil: NewStructural leaves an empty properties map nil. */
function hasProperties(s: PathSchema): boolean {
  return s.properties !== undefined && Object.keys(s.properties).length > 0
}

export function validFieldPath<S extends PathSchema>(
  jsonPath: string,
  schema: S | undefined,
  allowArrayNotation = true,
): ValidFieldPathResult<S> {
  const steps: PathStep[] = []
  let current: PathSchema | undefined = schema
  const fail = (error: string): ValidFieldPathResult<S> => ({ ok: false, error })
  const toks = tokenize(jsonPath)
  let i = 0
  // Go dereferences the schema without a nil check: a step past an additionalProperties without a
  // schema panics there (the request fails with an internal error); it is reported as invalid here
  const step = (name: string): string | undefined => {
    if (current === undefined) return 'does not refer to a valid field'
    if (hasProperties(current)) {
      steps.push({ name, isKey: false })
      const next: PathSchema | undefined = Object.hasOwn(current.properties ?? {}, name)
        ? current.properties?.[name]
        : undefined
      if (next === undefined) return 'does not refer to a valid field'
      current = next
    } else if (current.additionalProperties !== undefined) {
      steps.push({ name, isKey: true })
      const ap: PathSchema | boolean = current.additionalProperties
      current = typeof ap === 'object' ? ap : undefined
    } else {
      return 'does not refer to a valid field'
    }
    return undefined
  }
  while (i < toks.length) {
    const tok = toks[i++] as string
    if (tok === '[') {
      if (!allowArrayNotation) return fail('array notation is not allowed')
      if (i >= toks.length) return fail('unexpected end of JSON path')
      const q = toks[i++] as string
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'")
        return fail(`expected single quoted string but got ${q}`)
      const unescaped = unescapeSingleQuote(q.slice(1, -1))
      if (typeof unescaped !== 'string') return fail(`invalid string literal: ${unescaped.error}`)
      const err = step(unescaped)
      if (err !== undefined) return fail(err)
      if (i >= toks.length) return fail('unexpected end of JSON path')
      const close = toks[i++] as string
      if (close !== ']') return fail(`expected ] but got ${close}`)
    } else if (tok === '.') {
      if (i >= toks.length) return fail('unexpected end of JSON path')
      const err = step(toks[i++] as string)
      if (err !== undefined) return fail(err)
    } else {
      return fail(`expected [ or . but got: ${tok}`)
    }
  }
  return { ok: true, steps, schema: current as S | undefined }
}
