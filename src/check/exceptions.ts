import { relative, resolve, sep } from 'node:path'
import type { Labels, Selector } from '../kube/labels.js'
import { parseSelector } from '../kube/labels-parse.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import {
  type Finding,
  type FindingException,
  type ObjectResult,
  outcomeOf,
  type Report,
  type SourceRef,
} from '../report/model.js'
import { type Glob, nameGlob, pathGlob } from './glob.js'

// Exceptions: findings a team has accepted, said in .kelp.yaml's `exceptions` (the CLI reads the file,
// src/cli/config.ts) or on the object itself (the `kelp.dev/exceptions` annotation). An excepted finding leaves
// the object's findings for its `excepted` list: it no longer decides the outcome or the exit code, and every
// format still reports it (counted in the summary, listed on request). Here, below the faces, so that the
// library, the webhook or the audit can apply the same exceptions.
//
// What an exception can except: a policy's answer (type `policy`: a ValidatingAdmissionPolicy's Deny, Warn or
// Audit, a MutatingAdmissionPolicy's refusal, PodSecurity), Deny and Warn alike: "this object is an accepted
// exception" is about the object, not the action. An apiserver warning (a deprecated API, a strategy's warning)
// only when the exception names its rule (`rules: [api/deprecated]`). Never the apiserver's own refusals (native
// validation, an API not served, a document kubectl cannot send) nor errors: the cluster refuses those whatever
// kelp is told, so excepting them would pass a change `kubectl apply` fails. Notes (level info) are left alone.

/** The annotation naming the policies an object is excepted from: one `<policy or rule>=<reason>` per line. */
export const EXCEPTIONS_ANNOTATION = 'kelp.dev/exceptions'

/** One exception of the configuration file, as plain data (it crosses to the check's worker threads). */
export interface ExceptionSpec {
  /** Why: required (an exception without a reason is refused when the file is read). */
  readonly reason: string
  /** The last day it applies, YYYY-MM-DD (UTC); after it, it no longer applies and is a warning. */
  readonly expires?: string
  /** Globs of input files, relative to `Exceptions.base` (`**` any directories; a directory matches its files). */
  readonly paths?: readonly string[]
  /** `Kind`, `<group or core version>/Kind` or `<apiVersion>/Kind` (`Deployment`, `apps/Deployment`, `apps/v1/Deployment`). */
  readonly kinds?: readonly string[]
  readonly namespaces?: readonly string[]
  /** Globs of object names. */
  readonly names?: readonly string[]
  /** A label selector (`app=web,tier in (front)`). */
  readonly selector?: string
  /** Policy names: only these policies' findings (with `rules`: a finding named by either). */
  readonly policies?: readonly string[]
  /** Rule ids (`vap/<policy>`, `admission/PodSecurity`, `api/deprecated`): only these findings. */
  readonly rules?: readonly string[]
  /** Where it is written (the configuration file and line), for the report. */
  readonly source?: SourceRef
}

/** The exceptions of a run. */
export interface Exceptions {
  readonly list: readonly ExceptionSpec[]
  /** The directory `paths` are relative to (the configuration file's). */
  readonly base: string
  /** Today, YYYY-MM-DD (default: the UTC date); an exception expires after its `expires` day. */
  readonly today?: string
}

/** Today's UTC date, YYYY-MM-DD. */
export function utcToday(): string {
  return new Date().toISOString().slice(0, 10)
}

/** Whether an exception has expired by `today` (both YYYY-MM-DD: their string order is their date order). */
export function expired(spec: ExceptionSpec, today: string): boolean {
  return spec.expires !== undefined && spec.expires < today
}

interface Compiled {
  readonly index: number
  readonly spec: ExceptionSpec
  readonly paths?: readonly Glob[]
  readonly kinds?: readonly string[]
  readonly namespaces?: ReadonlySet<string>
  readonly names?: readonly Glob[]
  readonly selector?: Selector
  readonly policies?: ReadonlySet<string>
  readonly rules?: ReadonlySet<string>
  readonly exception: FindingException
}

function compile(spec: ExceptionSpec, index: number): Compiled {
  return {
    index,
    spec,
    // a pattern also matches what is under a directory it matches (`legacy` is `legacy/**`)
    ...(spec.paths !== undefined ? { paths: spec.paths.map((p) => pathGlob(`${p}/**`)) } : {}),
    ...(spec.kinds !== undefined ? { kinds: spec.kinds } : {}),
    ...(spec.namespaces !== undefined ? { namespaces: new Set(spec.namespaces) } : {}),
    ...(spec.names !== undefined ? { names: spec.names.map(nameGlob) } : {}),
    ...(spec.selector !== undefined ? { selector: parseSelector(spec.selector) } : {}),
    ...(spec.policies !== undefined ? { policies: new Set(spec.policies) } : {}),
    ...(spec.rules !== undefined ? { rules: new Set(spec.rules) } : {}),
    exception: {
      by: 'config',
      reason: spec.reason,
      index,
      ...(spec.source !== undefined ? { source: spec.source } : {}),
      ...(spec.expires !== undefined ? { expires: spec.expires } : {}),
    },
  }
}

/** `Kind`, `<group or core version>/Kind`, `<apiVersion>/Kind` against an object's apiVersion and kind. */
function kindMatches(pattern: string, apiVersion: string, kind: string): boolean {
  const slash = pattern.lastIndexOf('/')
  if (slash < 0) return pattern === kind
  if (pattern.slice(slash + 1) !== kind) return false
  const head = pattern.slice(0, slash)
  if (head === apiVersion) return true
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  return !head.includes('/') && head === group && group !== ''
}

/** Whether a finding is one an exception may except (see the top of the file); `named`: its rule is named. */
function exceptable(f: Finding, named: boolean): boolean {
  if (f.level !== 'deny' && f.level !== 'warn' && f.level !== 'audit') return false
  if (f.type === 'policy') return true
  return named && f.level === 'warn' && f.type === 'deprecated'
}

/** The object's labels, own string values only (a label `__proto__` is data). */
function labelsOf(o: JSONObject): Labels {
  const m = isObject(o.metadata) ? o.metadata : undefined
  const out: Record<string, string> = Object.create(null)
  if (m !== undefined && isObject(m.labels))
    for (const k of Object.keys(m.labels)) {
      const v = m.labels[k]
      if (typeof v === 'string') out[k] = v
    }
  return out
}

/** The `kelp.dev/exceptions` annotation's entries (policy or rule → reason) and its lines that do not read. */
export function annotationExceptions(o: JSONObject): { entries: Map<string, string>; bad: string[] } {
  const entries = new Map<string, string>()
  const bad: string[] = []
  const m = isObject(o.metadata) ? o.metadata : undefined
  const a = m !== undefined && isObject(m.annotations) ? m.annotations : undefined
  const value = a !== undefined && Object.hasOwn(a, EXCEPTIONS_ANNOTATION) ? a[EXCEPTIONS_ANNOTATION] : undefined
  if (typeof value !== 'string') return { entries, bad }
  for (const raw of value.split('\n')) {
    const line = raw.trim()
    if (line === '') continue
    const eq = line.indexOf('=')
    const name = eq < 0 ? '' : line.slice(0, eq).trim()
    const reason = eq < 0 ? '' : line.slice(eq + 1).trim()
    // a reason is required: `<policy>=` or a bare name excepts nothing
    if (name === '' || reason === '') bad.push(line)
    else if (!entries.has(name)) entries.set(name, reason)
  }
  return { entries, bad }
}

/** Applies exceptions to each admitted object's findings (one per run; `apply` for each result). */
export class Excepter {
  private readonly active: readonly Compiled[]
  private readonly base: string

  constructor(exceptions: Exceptions | undefined) {
    const today = exceptions?.today ?? utcToday()
    this.base = exceptions?.base ?? process.cwd()
    // expired exceptions no longer apply (the report warns of them: exceptionNotes)
    this.active = (exceptions?.list ?? []).flatMap((spec, i) => (expired(spec, today) ? [] : [compile(spec, i)]))
  }

  /** The result with its excepted findings moved to `excepted` and its outcome from the findings left. */
  apply(r: ObjectResult, object: JSONObject): ObjectResult {
    // a clean object costs nothing (the common case)
    if (r.findings.length === 0) return r
    const annotation = annotationExceptions(object)
    const candidates = this.candidates(r, object)
    if (candidates.length === 0 && annotation.entries.size === 0 && annotation.bad.length === 0) return r
    const kept: Finding[] = []
    const excepted: Finding[] = []
    for (const f of r.findings) {
      const by = this.exceptionFor(f, candidates, annotation.entries)
      if (by === undefined) kept.push(f)
      else excepted.push(Object.assign({}, f, { exception: by }))
    }
    // a note, not a warning: the annotation is the object's, and must change no verdict but the ones it excepts
    for (const line of annotation.bad)
      kept.push({
        level: 'info',
        type: 'config',
        rule: 'exception/annotation',
        message: `${EXCEPTIONS_ANNOTATION}: ${JSON.stringify(line)} excepts nothing: write one <policy>=<reason> per line`,
        source: r.source,
      })
    if (excepted.length === 0 && annotation.bad.length === 0) return r
    // kubectl's `unchanged` stays (nothing was sent); otherwise the findings left decide
    // (`stored` stays as admission left it: a refusal excepted is still a refusal, and stores nothing)
    const outcome = r.outcome === 'unchanged' ? r.outcome : outcomeOf(kept)
    return { ...r, outcome, findings: kept, ...(excepted.length > 0 ? { excepted } : {}) }
  }

  /** The configuration's exceptions whose object criteria this object meets. */
  private candidates(r: ObjectResult, object: JSONObject): Compiled[] {
    if (this.active.length === 0) return []
    const path = r.source.file === '-' ? undefined : relative(this.base, resolve(r.source.file)).split(sep).join('/')
    let labels: Labels | undefined
    return this.active.filter((c) => {
      if (
        c.paths !== undefined &&
        (path === undefined || path.startsWith('..') || !c.paths.some((g) => g.matches(path)))
      )
        return false
      if (c.kinds !== undefined && !c.kinds.some((k) => kindMatches(k, r.apiVersion, r.kind))) return false
      if (c.namespaces !== undefined && !c.namespaces.has(r.namespace ?? '')) return false
      if (c.names !== undefined && !c.names.some((g) => g.matches(r.name))) return false
      if (c.selector !== undefined) {
        labels ??= labelsOf(object)
        if (!c.selector.matches(labels)) return false
      }
      return true
    })
  }

  private exceptionFor(
    f: Finding,
    candidates: readonly Compiled[],
    annotation: ReadonlyMap<string, string>,
  ): FindingException | undefined {
    // the object's own annotation first: it names the policy (or rule)
    const named = (f.policy !== undefined && annotation.get(f.policy)) || annotation.get(f.rule)
    if (named !== undefined && named !== '' && exceptable(f, true)) return { by: 'annotation', reason: named }
    for (const c of candidates) {
      const byPolicy = f.policy !== undefined && c.policies?.has(f.policy) === true
      const byRule = c.rules?.has(f.rule) === true
      if (
        c.policies === undefined && c.rules === undefined
          ? exceptable(f, false)
          : (byPolicy || byRule) && exceptable(f, byRule)
      )
        return c.exception
    }
    return undefined
  }
}

/**
 * The report's notes on the configuration's exceptions: an expired one is a warning naming it (it no longer
 * applies); one that excepted nothing is a note (stale configuration).
 */
export function exceptionNotes(report: Report, exceptions: Exceptions | undefined): Report {
  if (exceptions === undefined || exceptions.list.length === 0) return report
  const today = exceptions.today ?? utcToday()
  const used = new Set<number>()
  for (const o of report.objects)
    for (const f of o.excepted ?? []) if (f.exception?.index !== undefined) used.add(f.exception.index)
  const notes: Finding[] = []
  exceptions.list.forEach((spec, i) => {
    const name = `exception ${i + 1} (${JSON.stringify(spec.reason)})`
    const at = spec.source !== undefined ? { source: spec.source } : {}
    if (expired(spec, today))
      notes.push({
        level: 'warn',
        type: 'config',
        rule: 'exception/expired',
        message: `${name} expired on ${spec.expires}: it no longer applies`,
        ...at,
      })
    else if (!used.has(i))
      notes.push({
        level: 'info',
        type: 'config',
        rule: 'exception/unused',
        message: `${name} excepted no finding: remove it if it is no longer needed`,
        ...at,
      })
  })
  if (notes.length === 0) return report
  return { ...report, diagnostics: [...report.diagnostics, ...notes] }
}
