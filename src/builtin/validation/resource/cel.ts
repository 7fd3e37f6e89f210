import type { TypeProvider } from '../../../cel/checker/provider.js'
import { CelError } from '../../../cel/common/errors.js'
import type { Env } from '../../../cel/env.js'
import { compile } from '../../../cel/program.js'
import { AnyType, BoolType, mapOf, StringType, struct, type Type } from '../../../cel/types/types.js'
import { kubeEnv } from '../../../kube/environment.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { BoundedMemo } from '../../../kube/memo.js'
import { QuantityType } from '../../../kube/values/quantity.js'

// The device selectors' CEL (k8s.io/dynamic-resource-allocation v0.37.2 cel/compile.go
// CompileCELExpression, called by pkg/apis/resource/validation validateCELExpression): the
// Kubernetes base environment for new expressions with one variable, `device`, of the object type
// kubernetes.DRADevice (driver, attributes, capacity, and allowMultipleAllocations: DRAConsumableCapacity
// is on in 1.37). A selector must evaluate to bool or to an attribute's type
// (`any`); a derived attribute to a scalar (DRAListTypeAttributes is off: no lists). The cost
// estimate (CELSelectorExpressionMaxCost) is not modelled: an expression the apiserver refuses as
// "too complex" passes here.

/** resource.CELSelectorExpressionMaxLength. */
export const CEL_SELECTOR_EXPRESSION_MAX_LENGTH = 10 * 1024

const DEVICE = 'kubernetes.DRADevice'
const DEVICE_FIELDS: Readonly<Record<string, Type>> = {
  allowMultipleAllocations: BoolType,
  driver: StringType,
  attributes: mapOf(StringType, mapOf(StringType, AnyType)),
  capacity: mapOf(StringType, mapOf(StringType, QuantityType)),
}
const provider: TypeProvider = {
  findStructType: (name) => (name === DEVICE ? struct(DEVICE) : undefined),
  findFieldType: (t, f) => (t.name === DEVICE && Object.hasOwn(DEVICE_FIELDS, f) ? DEVICE_FIELDS[f] : undefined),
  fieldNames: (t) => (t.name === DEVICE ? Object.keys(DEVICE_FIELDS) : []),
}

/** The detail of the cel.Error CompileCELExpression gives (always ErrorTypeInvalid here), or undefined. */
const results = new BoundedMemo<string, string | undefined>(1024)

/** newCompiler's environment: the base one for new expressions, with ext.Bindings (cel.bind). */
let draEnv: Env | undefined
const environment = (): Env =>
  (draEnv ??= kubeEnv({ version: '1.37', expressions: 'new' }).extend({
    libraries: [{ name: 'cel.lib.ext.cel.bindings', functions: [], macros: ['cel.bind'] }],
  }))

function compileDetail(expression: string, derivedAttribute: boolean): string | undefined {
  let outputType: Type
  try {
    outputType = compile(expression, {
      env: environment(),
      declarations: { device: struct(DEVICE) },
      typeProvider: provider,
      backend: 'closures',
    }).outputType
  } catch (e) {
    if (e instanceof CelError) return `compilation failed: ${e.message}`
    throw e
  }
  const t = outputType.toString()
  if (derivedAttribute) {
    // isAllowedDerivedAttributeElementType: string, int, bool, semver (and the attribute type)
    if (['string', 'int', 'bool', 'kubernetes.Semver', 'google.protobuf.Any'].includes(outputType.name))
      return undefined
    return `must evaluate to a primitive scalar (string, integer, boolean, semver), not ${t}`
  }
  if (outputType === BoolType || outputType.name === 'bool' || outputType.name === AnyType.name) return undefined
  return `must evaluate to bool or the unknown type, not ${t}`
}

/** validateCELExpression (create: never `stored`); at most one error. */
export function validateCELExpression(expression: string, p: FieldPath, derivedAttribute: boolean): FieldError[] {
  if (Buffer.byteLength(expression) > CEL_SELECTOR_EXPRESSION_MAX_LENGTH)
    return [field.tooLong(p, CEL_SELECTOR_EXPRESSION_MAX_LENGTH)]
  const detail = results.answer(`${derivedAttribute ? 'd' : 's'}${expression}`, () =>
    compileDetail(expression, derivedAttribute),
  )
  return detail === undefined ? [] : [field.invalid(p, expression, detail)]
}
