import type { Type } from '../types/types.js'
import { formatArgs, formatType } from './format.js'

// The checker's messages, worded as cel-go's checker/errors.go prints them.

export const undeclaredReference = (container: string, name: string): string =>
  `undeclared reference to '${name}' (in container '${container}')`

export const noMatchingOverload = (name: string, args: readonly Type[], member: boolean): string =>
  `found no matching overload for '${name}' applied to '${formatArgs(args, member)}'`

export const typeMismatch = (expected: Type, actual: Type): string =>
  `expected type '${formatType(expected)}' but found '${formatType(actual)}'`

export const fieldTypeMismatch = (field: string, fieldType: Type, valueType: Type): string =>
  `expected type of field '${field}' is '${formatType(fieldType)}' but provided type is '${formatType(valueType)}'`

export const notAComprehensionRange = (t: Type): string =>
  `expression of type '${formatType(t)}' cannot be range of a comprehension (must be list, map, or dynamic)`

export const typeDoesNotSupportFieldSelection = (t: Type): string =>
  `type '${formatType(t)}' does not support field selection`

export const undefinedField = (field: string): string => `undefined field '${field}'`

export const unexpectedFailedResolution = (typeName: string): string => `unexpected failed resolution of '${typeName}'`

export const notAType = (typeName: string): string => `'${typeName}' is not a type`

export const notAMessageType = (typeName: string): string => `'${typeName}' is not a message type`

export const notAnOptionalFieldSelectionCall = (detail: string): string =>
  `unsupported optional field selection: ${detail}`
