// Property names as CEL identifiers (apiserver pkg/cel/escaping.go): a schema property is visible
// to CEL under its escaped name; names that cannot be escaped are not accessible.

/** CEL reserved words (escaping.go celReservedSymbols; 'namespace' matters most in Kubernetes). */
export const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
])

const SIMPLE = /^[A-Za-z_][A-Za-z0-9_]*$/
const VALID = /^[A-Za-z0-9_.\-/]*$/
const EXPAND = /__|[-./]/g

/**
 * Escape(name): reserved words become `__word__`; `__` → `__underscores__`, `.` → `__dot__`,
 * `-` → `__dash__`, `/` → `__slash__`; undefined when not accessible (empty, leading digit, or a
 * character outside `[a-zA-Z0-9_.\-/]`).
 */
export function escape(name: string): string | undefined {
  if (name.length === 0) return undefined
  const c0 = name.charCodeAt(0)
  if (c0 >= 48 && c0 <= 57) return undefined
  if (CEL_RESERVED.has(name)) return `__${name}__`
  if (SIMPLE.test(name) && !name.includes('__')) return name
  if (!VALID.test(name)) return undefined
  return name.replace(EXPAND, (s) => {
    switch (s) {
      case '__':
        return '__underscores__'
      case '.':
        return '__dot__'
      case '-':
        return '__dash__'
      default:
        return '__slash__'
    }
  })
}

const UNEXPAND = /__[^_]+__/g

/** Unescape(escaped): the property name an escaped identifier denotes, or undefined. */
export function unescape(escaped: string): string | undefined {
  if (!escaped.includes('__')) return escaped
  let ok = true
  const out = escaped.replace(UNEXPAND, (s) => {
    const contents = s.slice(2, -2)
    switch (contents) {
      case 'underscores':
        return '__'
      case 'dot':
        return '.'
      case 'dash':
        return '-'
      case 'slash':
        return '/'
    }
    if (CEL_RESERVED.has(contents)) {
      if (s.length !== escaped.length) ok = false
      return contents
    }
    ok = false
    return ''
  })
  return ok ? out : undefined
}
