// What a `kelp check` run found: one record per input object, plus diagnostics about the inputs and the
// policy material. The formatters (text, json, junit, sarif, github) are pure functions of a Report.
// The JSON output is this model as is (docs/cli-json.md documents it; `schemaVersion` changes when it does).

/** Where a finding comes from: a file (or `-` for stdin), 1-based line and column of the document or node. */
export interface SourceRef {
  readonly file: string
  readonly line?: number
  readonly column?: number
  /** 0-based index of the YAML document in the file. */
  readonly document?: number
}

/**
 * How bad a finding is, in `--fail-on` order: `deny` (the cluster would refuse the request: a Deny
 * action, an invalid custom resource, a removed API version), `warn` (a `Warning:` kubectl would
 * print), `audit` (a failed validation under an Audit action), `info`; `error` is an input or policy error (exit code 2).
 */
export type Level = 'error' | 'deny' | 'warn' | 'audit' | 'info'

export type FindingType =
  /** A ValidatingAdmissionPolicy decision (its action is the level). */
  | 'policy'
  /** A custom resource that fails its CRD's validation (422) or a request the apiserver rejects (400). */
  | 'invalid'
  /** A kind or apiVersion the target cluster does not serve (removed API, unknown CRD version). */
  | 'not-served'
  /** A deprecated API version (the apiserver's warning). */
  | 'deprecated'
  /** A document that does not parse. */
  | 'parse'
  /** A policy, binding or CRD the apiserver would refuse, or a policy diagnostic (type checking, cost, traps). */
  | 'policy-material'
  /** kelp's own configuration (.kelp.yaml, the `kelp.dev/exceptions` annotation): an expired or unused exception. */
  | 'config'

export interface Finding {
  readonly level: Level
  readonly type: FindingType
  /** The text as kubectl / the apiserver words it (the `Warning: ` prefix not included). */
  readonly message: string
  readonly source?: SourceRef
  /** ValidatingAdmissionPolicy and binding names, when the finding comes from one. */
  readonly policy?: string
  readonly binding?: string
  /** A field path in the object (custom resource errors) or in the policy material. */
  readonly field?: string
  /** A stable identifier for SARIF rules and JUnit test names: `vap/<policy>`, `crd/<kind>`, `api/removed`, … */
  readonly rule: string
  /**
   * The Status reason of a refusal, which decides how kubectl prints it: `Forbidden` (`Error from server
   * (Forbidden): …`, the default for `policy`), `Invalid` (`The <Kind> "<name>" is invalid: …`, the default for
   * `invalid`), `BadRequest`, `Unauthorized`, `RequestEntityTooLarge`, …
   */
  readonly reason?: string
  /**
   * A policy's auditAnnotations value (level `info`): the audit annotation key (`<policy>/<key>`); `message` is
   * its value (printed as `Audit: <key>=<value>`).
   */
  readonly annotation?: string
  /** Why the finding is excepted (only on the findings of `ObjectResult.excepted`). */
  readonly exception?: FindingException
}

/**
 * An exception that applied to a finding: from the configuration file's `exceptions` (`config`, with its index
 * there and where it is written) or from the object's `kelp.dev/exceptions` annotation (`annotation`).
 */
export interface FindingException {
  readonly by: 'config' | 'annotation'
  readonly reason: string
  /** 0-based index in the configuration file's `exceptions` (by `config`). */
  readonly index?: number
  /** Where the exception is written: the configuration file and line. */
  readonly source?: SourceRef
  /** The last day it applies (YYYY-MM-DD), when it has one. */
  readonly expires?: string
}

/**
 * `skipped`: not validated (a kind no loaded CRD or built-in defines). `unchanged`: an UPDATE whose three-way
 * patch is empty: kubectl apply prints `<kind>/<name> unchanged`, sends nothing and no admission runs.
 */
export type Outcome = 'allowed' | 'denied' | 'warned' | 'audited' | 'not-served' | 'skipped' | 'error' | 'unchanged'

export interface ObjectResult {
  readonly source: SourceRef
  readonly apiVersion: string
  readonly kind: string
  readonly namespace?: string
  readonly name: string
  /** CREATE for a new object, UPDATE when the object was found in the old revision (`--old`, `--base`). */
  readonly operation: 'CREATE' | 'UPDATE'
  /** The worst finding decides: denied > warned > audited > allowed. */
  readonly outcome: Outcome
  readonly findings: readonly Finding[]
  /**
   * The findings an exception applies to (each with its `exception`): reported, never counted in the outcome,
   * the exit code or the findings above. Absent when there are none.
   */
  readonly excepted?: readonly Finding[]
  /**
   * The object as the apiserver would store it (decoded, defaulted; a custom resource also pruned), for
   * `kelp check -o yaml`; only when asked for and only for objects the cluster would accept.
   */
  readonly stored?: Record<string, unknown>
}

export interface Summary {
  readonly objects: number
  readonly created: number
  readonly updated: number
  readonly allowed: number
  readonly denied: number
  readonly warned: number
  readonly audited: number
  readonly notServed: number
  readonly skipped: number
  /** UPDATEs kubectl apply leaves unchanged (an empty patch: nothing sent). */
  readonly unchanged: number
  /** Parse errors and refused policy material. */
  readonly errors: number
  /** Findings excepted (ObjectResult.excepted), when there are any. */
  readonly excepted?: number
}

/** Whether `kelp check` applied the bundled policy pack (--pack), and why not. */
export interface PackUse {
  /** `--pack` as given (`replace` is another name for `off`). */
  readonly mode: 'auto' | 'add' | 'off'
  readonly applied: boolean
  /**
   * Why it was not applied: `own-policies` (`auto`, and the inputs or --policies hold admission policies),
   * `off` (asked for), `not-installed` (the pack's files are missing).
   */
  readonly reason?: 'own-policies' | 'off' | 'not-installed'
}

export interface Report {
  readonly schemaVersion: 1
  readonly kelpVersion: string
  readonly kubeVersion: string
  /** The bundled pack's use (kelp check; absent in reports made otherwise). */
  readonly pack?: PackUse
  readonly objects: readonly ObjectResult[]
  /** Findings not about one object: parse errors, refused policies / bindings / CRDs, policy diagnostics. */
  readonly diagnostics: readonly Finding[]
  readonly summary: Summary
}

/** `--fail-on`: the lowest level that makes the run fail (exit 1). */
export type FailOn = 'deny' | 'warn' | 'audit' | 'none'

const RANK: Record<Level, number> = { error: 4, deny: 3, warn: 2, audit: 1, info: 0 }

/** Exit code: 2 for input / policy errors, 1 for findings at or above failOn, else 0. */
export function exitCode(report: Report, failOn: FailOn): number {
  // every finding read in place (no array of all of them: a run may have millions)
  const some = (test: (f: Finding) => boolean): boolean =>
    report.diagnostics.some(test) || report.objects.some((o) => o.findings.some(test))
  if (some((f) => f.level === 'error')) return 2
  if (failOn === 'none') return 0
  const threshold = RANK[failOn]
  return some((f) => RANK[f.level] >= threshold) ? 1 : 0
}

/** The outcome an object's findings give it. */
export function outcomeOf(findings: readonly Finding[]): Outcome {
  if (findings.some((f) => f.type === 'not-served' && f.level === 'deny')) return 'not-served'
  if (findings.some((f) => f.rule === 'kind/unknown')) return 'skipped'
  if (findings.some((f) => f.level === 'error')) return 'error'
  if (findings.some((f) => f.level === 'deny')) return 'denied'
  if (findings.some((f) => f.level === 'warn')) return 'warned'
  if (findings.some((f) => f.level === 'audit')) return 'audited'
  return 'allowed'
}

/** Counts outcomes as results arrive (a run need not keep every result to summarize it). */
export class SummaryCounter {
  private readonly counts: Record<Outcome, number> = {
    allowed: 0,
    denied: 0,
    warned: 0,
    audited: 0,
    'not-served': 0,
    skipped: 0,
    error: 0,
    unchanged: 0,
  }
  private objects = 0
  private updated = 0
  private excepted = 0
  /** Findings at each level over all the objects counted (for the exit code of unkept results). */
  readonly levels: Record<Level, number> = { error: 0, deny: 0, warn: 0, audit: 0, info: 0 }

  add(o: ObjectResult): void {
    this.objects++
    if (o.operation === 'UPDATE') this.updated++
    this.counts[o.outcome]++
    for (const f of o.findings) this.levels[f.level]++
    if (o.excepted !== undefined) this.excepted += o.excepted.length
  }

  /** A counter sent from a worker thread (structured clone keeps its fields, not its class). */
  static revive(data: unknown): SummaryCounter {
    return Object.setPrototypeOf(data, SummaryCounter.prototype) as SummaryCounter
  }

  /** Adds another counter's counts (a worker's). */
  merge(other: SummaryCounter): void {
    this.objects += other.objects
    this.updated += other.updated
    this.excepted += other.excepted ?? 0
    for (const k of Object.keys(this.counts) as Outcome[]) this.counts[k] += other.counts[k]
    for (const k of Object.keys(this.levels) as Level[]) this.levels[k] += other.levels[k]
  }

  summary(diagnostics: readonly Finding[]): Summary {
    const c = this.counts
    return {
      objects: this.objects,
      created: this.objects - this.updated,
      updated: this.updated,
      allowed: c.allowed,
      denied: c.denied,
      warned: c.warned,
      audited: c.audited,
      notServed: c['not-served'],
      skipped: c.skipped,
      unchanged: c.unchanged,
      errors: diagnostics.filter((d) => d.level === 'error').length + c.error,
      ...(this.excepted > 0 ? { excepted: this.excepted } : {}),
    }
  }
}

export function summarize(objects: readonly ObjectResult[], diagnostics: readonly Finding[]): Summary {
  const counter = new SummaryCounter()
  for (const o of objects) counter.add(o)
  return counter.summary(diagnostics)
}
