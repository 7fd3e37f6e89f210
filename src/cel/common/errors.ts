import { type CelIssue, formatIssue, type Source } from './source.js'

export type CelStage = 'parse' | 'check' | 'eval'

/**
 * Every failure the public API reports is a CelError: which stage failed, the message in
 * cel-go's words, and where (1-based line and column, when known).
 */
export class CelError extends Error {
  constructor(
    readonly stage: CelStage,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message)
  }
  override get name(): string {
    return 'CelError'
  }
}

/** Parse or check failure: all issues, formatted as cel-go's `Issues.Err().Error()`. */
export class CelCompileError extends CelError {
  constructor(
    stage: 'parse' | 'check',
    readonly issues: readonly CelIssue[],
    readonly source: Source,
    /** Issues found beyond the 100 reported (cel-go: "N more errors were truncated"). */
    readonly truncated = 0,
  ) {
    const first = issues[0]
    const loc = first && first.offset >= 0 ? source.location(first.offset) : undefined
    const lines = issues.map((i) => formatIssue(source, i))
    if (truncated > 0) lines.push(`${truncated} more errors were truncated`)
    super(stage, lines.join('\n'), loc?.line, loc ? loc.column + 1 : undefined)
  }
  override get name(): string {
    return this.stage === 'parse' ? 'CelParseError' : 'CelCheckError'
  }
}

/** An evaluation failure as the public API reports it (message exactly as cel-go's error). */
export class CelEvalError extends CelError {
  constructor(
    message: string,
    readonly exprId?: number,
    line?: number,
    column?: number,
  ) {
    super('eval', message, line, column)
  }
  override get name(): string {
    return 'CelEvalError'
  }
}

/**
 * The error *value* of the evaluator (cel-go's types.Err). It is thrown inside compiled
 * programs (cheap: not an Error, no stack trace) and may be held as a value where CEL keeps
 * errors as values (comprehension accumulators). `&&`, `||`, `?:` and the macros absorb it
 * as cel-go does; the public API converts it to CelEvalError at the boundary.
 */
export class ErrorValue {
  constructor(
    readonly message: string,
    public exprId = 0,
  ) {}
  toString(): string {
    return this.message
  }
}

/**
 * A Go runtime panic inside cel-go (a failed type assertion in an extension's cost tracker), which
 * cel-go's program recovers as `internal error: <panic text>` (cel/program.go Eval). It is not a CEL
 * error value: like the cost limit, nothing absorbs it (`||`, `&&`, macros) and the call's cost is
 * never added.
 */
export class GoPanic extends Error {}

/** Shorthand used by library code: `throw evalError('division by zero')`. */
export function evalError(message: string, exprId = 0): ErrorValue {
  return new ErrorValue(message, exprId)
}

/** cel-go's `no such overload` error (its text when dispatch finds no overload). */
export function noSuchOverload(): ErrorValue {
  return new ErrorValue('no such overload')
}
