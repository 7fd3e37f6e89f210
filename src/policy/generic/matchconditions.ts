import type { ForInputOutcome } from '../cel/condition.js'

// A policy's matchConditions after their evaluation (apiserver pkg/admission/plugin/webhook/
// matchconditions/matcher.go Match): shared by the validating and the mutating plugin, as in Go.

export type FailurePolicy = 'Fail' | 'Ignore'

/**
 * utilerrors.NewAggregate(errs).Error(): one error's text alone; several as `[m1, m2]`, each
 * distinct text once (and no brackets when all the texts are the same).
 */
function aggregate(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0] as string
  const seen = [...new Set(messages)]
  return seen.length === 1 ? (seen[0] as string) : `[${seen.join(', ')}]`
}

/** matchconditions.MatchResult. */
export interface MatchResult {
  readonly matches: boolean
  readonly error?: string
  readonly failedConditionName?: string
}

/**
 * matchconditions matcher.Match after its ForInput: a batch error or aggregated evaluation errors
 * under failurePolicy (nil = Fail); the first `false` stops with that condition's name.
 */
export function matchResult(
  out: ForInputOutcome,
  names: readonly string[],
  failurePolicy: FailurePolicy = 'Fail',
): MatchResult {
  if ('batchError' in out)
    return failurePolicy === 'Fail' ? { matches: false, error: out.batchError } : { matches: false }
  const errors: string[] = []
  for (const [i, r] of out.results.entries()) {
    if (r.error !== undefined) errors.push(r.error)
    if (r.value === false) return { matches: false, failedConditionName: names[i] ?? '' }
  }
  if (errors.length > 0)
    return failurePolicy === 'Fail' ? { matches: false, error: aggregate(errors) } : { matches: false }
  return { matches: true }
}
