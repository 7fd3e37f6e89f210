// isCELIdentifier (admissionregistration validation.go): IDENT ::= [_a-zA-Z][_a-zA-Z0-9]* - RESERVED.

const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/
const CEL_RESERVED = new Set([
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

export function isCELIdentifier(name: string): boolean {
  return CEL_IDENT.test(name) && !CEL_RESERVED.has(name)
}
