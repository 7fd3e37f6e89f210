import { trim } from '../../../cel/ext/strings.js'
import type { MatchCondition } from '../../../kube/admissionregistration/types.js'
import { type FieldError, type FieldPath, field } from '../../../kube/field.js'
import { isQualifiedName } from '../../../kube/validation/names.js'
import { validateCELCondition } from './cel-condition.js'
import { createCompiler } from './compiler.js'
import { environmentFor, type ValidationOptions } from './options.js'

// validateMatchConditions, validateMatchCondition and validateMatchConditionsExpression
// (admissionregistration validation.go).

const MAX_MATCH_CONDITIONS = 64

/**
 * validateMatchConditionsExpression: compiled with the stateless compiler (no `variables`), `params`
 * when the policy has a paramKind, the authorizer declared.
 */
function validateMatchConditionsExpression(
  expression: string,
  opts: ValidationOptions,
  fldPath: FieldPath,
): FieldError[] {
  if (opts.compile === undefined) return []
  return validateCELCondition(
    createCompiler(opts.compile, false),
    expression,
    'matchCondition',
    {
      hasParams: opts.allowParamsInMatchConditions,
      hasAuthorizer: true,
      environment: environmentFor(opts.preexistingExpressions.matchConditionExpressions, expression),
    },
    fldPath,
  )
}

/** validateMatchCondition: a non-blank expression (compiled trimmed) and a qualified name. */
export function validateMatchCondition(v: MatchCondition, opts: ValidationOptions, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const trimmedExpression = trim(v.expression ?? '')
  if (trimmedExpression.length === 0) errs.push(field.required(fldPath.child('expression'), ''))
  else errs.push(...validateMatchConditionsExpression(trimmedExpression, opts, fldPath.child('expression')))
  const name = v.name ?? ''
  if (name.length === 0) errs.push(field.required(fldPath.child('name'), ''))
  else for (const msg of isQualifiedName(name)) errs.push(field.invalid(fldPath.child('name'), name, msg))
  return errs
}

/** validateMatchConditions: at most 64, each valid, names unique. */
export function validateMatchConditions(
  m: readonly MatchCondition[] | undefined,
  opts: ValidationOptions,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const list = m ?? []
  const names = new Set<string>()
  if (list.length > MAX_MATCH_CONDITIONS) errs.push(field.tooMany(fldPath, list.length, MAX_MATCH_CONDITIONS))
  list.forEach((mc, i) => {
    errs.push(...validateMatchCondition(mc, opts, fldPath.index(i)))
    const name = mc.name ?? ''
    if (name.length > 0) {
      if (names.has(name)) errs.push(field.duplicate(fldPath.index(i).child('name'), name))
      else names.add(name)
    }
  })
  return errs
}
