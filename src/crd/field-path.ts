import { FieldPath } from '../kube/field.js'
import { additionalPropertiesSchema, type JSONSchemaProps } from '../kube/schema/structural.js'

// A rule's `fieldPath` (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go
// ValidFieldPath): a JSON path relative to the rule's node, made of `.name` and `['key']` steps
// (single-quoted, with Go-style escapes), each naming a property or a map key the schema declares.

/** The field.Path and schema a fieldPath denotes, or why it is not valid. */
export function validFieldPath(
  jsonPath: string,
  schema: JSONSchemaProps,
  allowArrayNotation = true,
): { path: FieldPath | undefined; schema: JSONSchemaProps } | string {
  let path: FieldPath | undefined
  let s: JSONSchemaProps | undefined = schema
  const append = (name: string, isNamed: boolean): string | undefined => {
    if (!isNamed) {
      path = path === undefined ? FieldPath.ofKey(name) : path.key(name)
      s = s === undefined ? undefined : additionalPropertiesSchema(s)
    } else {
      path = path === undefined ? FieldPath.of(name) : path.child(name)
      const p: JSONSchemaProps | undefined = s?.properties?.[name]
      if (p === undefined || !Object.hasOwn(s?.properties ?? {}, name)) return 'does not refer to a valid field'
      s = p
    }
    return undefined
  }
  const named = (): boolean | string => {
    if (s?.properties !== undefined) return true
    if (s?.additionalProperties !== undefined) return false
    return 'does not refer to a valid field'
  }
  const tokens = tokenize(jsonPath)
  let i = 0
  while (i < tokens.length) {
    const tok = tokens[i++] as string
    if (tok === '[') {
      if (!allowArrayNotation) return 'array notation is not allowed'
      if (i >= tokens.length) return 'unexpected end of JSON path'
      const q = tokens[i++] as string
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'") return `expected single quoted string but got ${q}`
      const unescaped = unescapeSingleQuote(q.slice(1, -1))
      if (unescaped.error !== undefined) return `invalid string literal: ${unescaped.error}`
      const n = named()
      if (typeof n === 'string') return n
      const e = append(unescaped.value, n)
      if (e !== undefined) return e
      if (i >= tokens.length) return 'unexpected end of JSON path'
      const close = tokens[i++] as string
      if (close !== ']') return `expected ] but got ${close}`
    } else if (tok === '.') {
      if (i >= tokens.length) return 'unexpected end of JSON path'
      const name = tokens[i++] as string
      const n = named()
      if (typeof n === 'string') return n
      const e = append(name, n)
      if (e !== undefined) return e
    } else return `expected [ or . but got: ${tok}`
  }
  return { path, schema: s as JSONSchemaProps }
}

/** The Go scanner's split: `.`, `[`, `]` alone; a single-quoted string up to its unescaped closing quote; other runs. */
function tokenize(s: string): string[] {
  const out: string[] = []
  let i = 0
  while (i < s.length) {
    const c = s[i] as string
    if (c === "'") {
      let j = i + 1
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== '\\')) j++
      out.push(s.slice(i, Math.min(j + 1, s.length)))
      i = j + 1
    } else if (c === '.' || c === '[' || c === ']') {
      out.push(c)
      i++
    } else {
      let j = i
      while (j < s.length && s[j] !== '.' && s[j] !== '[' && s[j] !== ']') j++
      out.push(s.slice(i, j))
      i = j
    }
  }
  return out
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

function unescapeSingleQuote(s: string): { value: string; error?: string } {
  let error: string | undefined
  const value = s.replace(/\\[\s\S]/g, (m) => {
    const r = ESCAPES[m[1] as string]
    if (r === undefined) {
      error ??= `invalid escape char ${m}`
      return ''
    }
    return r
  })
  return error === undefined ? { value } : { value, error }
}
