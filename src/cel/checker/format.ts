import type { Type } from '../types/types.js'

// Type names as cel-go's checker prints them in messages and in the checked AST
// (checker/format.go FormatCelType): `int`, `list(int)`, `map(string, dyn)`, `null`,
// `timestamp`, `!error!`, `type(int)`, `optional_type(string)`, type parameters by name.

export function formatType(t: Type): string {
  switch (t.typeKind) {
    case 'any':
      return 'any'
    case 'duration':
      return 'duration'
    case 'error':
      return '!error!'
    case 'null_type':
      return 'null'
    case 'timestamp':
      return 'timestamp'
    case 'type_param':
      return t.name
  }
  const ps = t.params
  if (ps.length === 0) return t.name
  let out = `${t.name}(`
  for (let i = 0; i < ps.length; i++) out += (i > 0 ? ', ' : '') + formatType(ps[i]!)
  return `${out})`
}

/** An argument list as cel-go's formatFunctionDeclType prints it without result: `(int, string)`, `string.(int)`. */
export function formatArgs(args: readonly Type[], member: boolean): string {
  let out = ''
  let i = 0
  if (member && args.length > 0) {
    out = `${formatType(args[0]!)}.`
    i = 1
  }
  out += '('
  for (let j = i; j < args.length; j++) out += (j > i ? ', ' : '') + formatType(args[j]!)
  return `${out})`
}
