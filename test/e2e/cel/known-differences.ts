// The reviewed list of the classes of difference between kelp's CEL and Kubernetes 1.37's (k8s.io/apiserver
// v0.37.2 on cel-go v0.29.2) that the CEL differential (cel.e2e.test.ts) finds. Each entry is narrow: one aspect,
// the functions or operators at the root of the smallest differing subexpression, and where needed the detail or the
// subexpression's text; each says why. `celV029`: the cel-go v0.29 port (issue 28) is to remove it.
import type { Aspect } from './compare.js'

export interface KnownCelDifference {
  readonly id: string
  readonly aspect: Aspect
  /** The productions (generate.ts Node.fn: a function, operator or macro name) at the difference's root. */
  readonly fn: readonly string[]
  /** The difference's detail (compare.ts: which side, which direction), when only some are explained. */
  readonly detail?: RegExp
  /** The smallest differing subexpression's text, when only some uses of the function are explained. */
  readonly text?: RegExp
  readonly cause: string
  /** A difference the port of cel-go v0.29 (branch cel-v029) is to remove. */
  readonly celV029?: boolean
}

export const KNOWN_CEL_DIFFERENCES: readonly KnownCelDifference[] = []

/** The entry explaining a difference, if any. */
export function knownCelDifference(
  aspect: Aspect,
  fn: string,
  detail: string,
  text: string,
): KnownCelDifference | undefined {
  return KNOWN_CEL_DIFFERENCES.find(
    (k) =>
      k.aspect === aspect &&
      k.fn.includes(fn) &&
      (k.detail === undefined || k.detail.test(detail)) &&
      (k.text === undefined || k.text.test(text)),
  )
}
