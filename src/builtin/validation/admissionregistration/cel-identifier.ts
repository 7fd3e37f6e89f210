import { CEL_RESERVED } from '../../../kube/schema/escaping.js'

// isCELIdentifier (admissionregistration validation.go): IDENT ::= [_a-zA-Z][_a-zA-Z0-9]* - RESERVED
// (the same reserved words as property-name escaping, apiserver pkg/cel/escaping.go).

const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/

export function isCELIdentifier(name: string): boolean {
  return CEL_IDENT.test(name) && !CEL_RESERVED.has(name)
}
