import { goQuote } from '../cel/ext/quote.js'
import { requireNodeModule } from '../kube/node-host.js'
import type { FailOn, Finding, Level, ObjectResult, Report, SourceRef } from './model.js'

// Helpers the formatters share: options, levels, object labels, the kubectl wording of a finding, paths.

/** Options of the formatters; each reads the ones it needs. */
export interface FormatOptions {
  /** text: ANSI colours (the CLI's choice: stdout is a TTY and NO_COLOR is unset). Default false. */
  readonly color?: boolean
  /** text: list the objects without findings too (a header line each). Default false. */
  readonly verbose?: boolean
  /** junit: the lowest finding level that fails a test case (`--fail-on`). Default `deny`. */
  readonly failOn?: FailOn
  /**
   * sarif, github: the repository root (absolute); file paths are made relative to it, as GitHub wants them
   * (the CLI passes the working directory). Without it, relative paths are kept and absolute ones stay absolute.
   */
  readonly root?: string
  /** sarif: `tool.driver.informationUri`, kelp's home page. */
  readonly informationUri?: string
  /** text, github: list the excepted findings too (`--show-exceptions`; text: also with `verbose`). Default false. */
  readonly showExceptions?: boolean
}

export const RANK: Readonly<Record<Level, number>> = { error: 4, deny: 3, warn: 2, audit: 1, info: 0 }

const FAIL_RANK: Readonly<Record<FailOn, number>> = { deny: 3, warn: 2, audit: 1, none: Number.POSITIVE_INFINITY }

/** Whether a finding fails the run at `--fail-on` (errors always do). */
export function fails(level: Level, failOn: FailOn): boolean {
  return level === 'error' || RANK[level] >= FAIL_RANK[failOn]
}

/** `<namespace>/<name>` for namespaced objects, `<name>` for cluster-scoped ones. */
export function objectName(o: ObjectResult): string {
  return o.namespace !== undefined && o.namespace !== '' ? `${o.namespace}/${o.name}` : o.name
}

/** `Deployment default/web`. */
export function objectLabel(o: ObjectResult): string {
  return `${o.kind} ${objectName(o)}`
}

/** `file:line:col`, `file:line` or `file` (empty without a source). */
export function location(s: SourceRef | undefined): string {
  if (s === undefined) return ''
  if (s.line === undefined) return s.file
  return s.column === undefined ? `${s.file}:${s.line}` : `${s.file}:${s.line}:${s.column}`
}

/**
 * Where a finding of an object points when that is not where the object starts (a field's line: `file:line:col`),
 * else undefined: the object's own header says where it is.
 */
export function placedAt(f: Finding, o: ObjectResult): string | undefined {
  const s = f.source
  if (s === undefined || s.line === undefined) return undefined
  if (s.file === o.source.file && s.line === o.source.line && s.column === o.source.column) return undefined
  return location(s)
}

/** A finding's source, else its object's. */
export function sourceOf(f: Finding, o?: ObjectResult): SourceRef | undefined {
  return f.source ?? o?.source
}

/**
 * Appends every item of `from` to `to`, one at a time: `to.push(...from)` passes each item as an argument and
 * overflows the stack past ~100,000 items (input-sized arrays: objects, findings, files).
 */
export function pushAll<T>(to: T[], from: Iterable<T>): T[] {
  for (const x of from) to.push(x)
  return to
}

/** The Status reason of a refusal (explicit, else by finding type). */
function reasonOf(f: Finding): string | undefined {
  if (f.reason !== undefined && f.reason !== '') return f.reason
  switch (f.type) {
    case 'policy':
      return 'Forbidden'
    case 'invalid':
      return 'Invalid'
    default:
      return undefined
  }
}

const INVALID_STATUS = /^\S+ "(?:[^"\\]|\\.)*" is invalid: /
/** admission.NewForbidden's message: `<resource>[.<group>] "<name>" is forbidden: ` */
const FORBIDDEN_STATUS = /^([^\s.]+)(?:\.\S+)? ("(?:[^"\\]|\\.)*") is forbidden: /

/**
 * One finding as kubectl prints it: refusals as `Error from server (<Reason>): <message>` or, for `Invalid`,
 * `The <Kind> "<name>" is invalid: <causes>`; client-side failures (a kind not served, a document that does not
 * parse, errors) as `error: <message>`; warnings as `Warning: <message>`; audit annotations (audit or info
 * findings with an `annotation`) as `Audit: <key>=<value>`, other audit findings as `Audit: <message>`; information
 * as `Info: <message>`. Messages already in that wording (`Warning: …`, `Error from server …`) stay as they are.
 */
export function kubectlLine(f: Finding, o?: ObjectResult): string {
  const m = f.message
  if (f.annotation !== undefined && f.annotation !== '' && (f.level === 'audit' || f.level === 'info'))
    return `Audit: ${f.annotation}=${m}`
  switch (f.level) {
    case 'warn':
      return m.startsWith('Warning: ') ? m : `Warning: ${m}`
    case 'audit':
      return m.startsWith('Audit: ') ? m : `Audit: ${m}`
    case 'info':
      return m.startsWith('Info: ') ? m : `Info: ${m}`
    default: {
      if (m.startsWith('Error from server') || m.startsWith('error: ') || /^The .* is invalid/s.test(m)) return m
      const reason = reasonOf(f)
      if (reason === undefined || f.level === 'error') return `error: ${m}`
      const forbidden = FORBIDDEN_STATUS.exec(m)
      if (reason === 'Invalid' && forbidden !== null) {
        // an admission denial with reason Invalid: kubectl prints the Status details (kind = the resource,
        // no group) and its one cause, whose field is empty: `The deployments "web" is invalid: : <cause>`
        return `The ${forbidden[1]} ${forbidden[2]} is invalid: : ${m.slice(forbidden[0].length)}`
      }
      if (reason === 'Invalid' && o !== undefined) {
        // kubectl: `The <details.kind> "<details.name>" is invalid: <causes>` (the apiserver's message names the
        // resource as `<Kind>.<group> "<name>"`; its causes follow `is invalid: `)
        const status = INVALID_STATUS.exec(m)
        const causes = status === null ? m : m.slice(status[0].length)
        return `The ${o.kind} "${o.name}" is invalid: ${causes}`
      }
      // kubectl apply creating an object prefixes the Status message with its source (cmdutil.AddSourceToErr
      // "creating": `error when creating "<file>": `, %q; stdin is "STDIN"); an update's prefix quotes the whole
      // patch, which kelp does not build (docs/known-differences.md)
      if (o !== undefined && o.operation === 'CREATE') {
        const file = o.source.file === '-' ? 'STDIN' : o.source.file
        return `Error from server (${reason}): error when creating ${goQuote(file)}: ${m}`
      }
      return `Error from server (${reason}): ${m}`
    }
  }
}

/** What the machine formats (github, sarif, junit) say for a finding: an object's in kubectl's words, a diagnostic as is. */
export function findingText(f: Finding, o?: ObjectResult): string {
  return o === undefined ? f.message : kubectlLine(f, o)
}

/** The objects with no outcome bucket of their own in the summary: outcome `error`. */
export function objectsInError(r: Report): number {
  const s = r.summary
  return Math.max(
    0,
    s.objects - s.allowed - s.denied - s.warned - s.audited - s.notServed - s.skipped - (s.unchanged ?? 0),
  )
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** The parts of the summary line, each with the colour it takes when non-zero. */
export function summaryParts(r: Report): {
  head: string
  counts: { text: string; n: number; tone: 'ok' | 'bad' | 'warn' | 'note' }[]
  errors: number
} {
  const s = r.summary
  const head =
    s.updated > 0
      ? `${plural(s.objects, 'object')} (${s.created} created, ${s.updated} updated)`
      : plural(s.objects, 'object')
  const counts: { text: string; n: number; tone: 'ok' | 'bad' | 'warn' | 'note' }[] = [
    { text: `${s.allowed} allowed`, n: s.allowed, tone: 'ok' },
    { text: `${s.denied} denied`, n: s.denied, tone: 'bad' },
    { text: `${s.warned} warned`, n: s.warned, tone: 'warn' },
  ]
  if (s.audited > 0) counts.push({ text: `${s.audited} audited`, n: s.audited, tone: 'note' })
  if (s.notServed > 0) counts.push({ text: `${s.notServed} not served`, n: s.notServed, tone: 'bad' })
  if (s.skipped > 0) counts.push({ text: `${s.skipped} skipped`, n: s.skipped, tone: 'note' })
  if ((s.unchanged ?? 0) > 0) counts.push({ text: `${s.unchanged} unchanged`, n: s.unchanged, tone: 'ok' })
  const inError = objectsInError(r)
  if (inError > 0) counts.push({ text: `${inError} with errors`, n: inError, tone: 'bad' })
  return { head, counts, errors: s.errors }
}

/**
 * `12 objects: 10 allowed, 1 denied, 1 warned; 0 errors` (audited, not served, skipped, with errors when
 * non-zero), and `; 2 excepted` when exceptions applied to findings.
 */
export function summaryLine(r: Report): string {
  const { head, counts, errors } = summaryParts(r)
  return `${head}: ${counts.map((c) => c.text).join(', ')}; ${plural(errors, 'error')}${exceptedText(r)}`
}

/** `; 2 excepted` (findings an exception applied to), or nothing. */
export function exceptedText(r: Report): string {
  const n = r.summary.excepted ?? 0
  return n > 0 ? `; ${n} excepted` : ''
}

/** `excepted (<reason>): ` before an excepted finding's line (annotation: the object's annotation's reason). */
export function exceptedPrefix(f: Finding): string {
  const e = f.exception
  if (e === undefined) return ''
  const where = e.by === 'annotation' ? 'kelp.dev/exceptions' : `exception ${(e.index ?? 0) + 1}`
  return `Excepted (${where}: ${e.reason}): `
}

/**
 * A file path as GitHub and SARIF want it: relative to `root` with forward slashes when it lies inside it,
 * else as given (relative) or absolute. `-` (stdin) gives undefined.
 */
export function repoPath(file: string, root: string | undefined): { path: string; absolute: boolean } | undefined {
  if (file === '' || file === '-') return undefined
  // node:path read here, not imported: the page's formatters (src/playground) print no file paths
  const { isAbsolute, posix, relative, resolve, win32 } = requireNodeModule('node:path', 'a repository path')
  const windows = win32.isAbsolute(file) && /^[A-Za-z]:/.test(file)
  if (root !== undefined && root !== '' && !windows) {
    const rel = relative(root, resolve(root, file))
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel))
      return { path: rel.split('\\').join('/'), absolute: false }
  }
  if (windows) return { path: file.split('\\').join('/'), absolute: true }
  if (isAbsolute(file)) return { path: posix.normalize(file.split('\\').join('/')), absolute: true }
  const norm = posix.normalize(file.split('\\').join('/'))
  return { path: norm.startsWith('./') ? norm.slice(2) : norm, absolute: false }
}

const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/**
 * C0 controls (but tab and newline), DEL and C1 controls, shown as `\xNN` rather than sent to a terminal (CRLF
 * becomes LF); with `oneLine`, tab and newline too.
 */
export function escapeControls(s: string, oneLine = false): string {
  // the common text has no control character at all (CR and LF are ones): nothing to replace
  if (!ANY_CONTROL.test(s)) return s
  const re = oneLine ? /[\u0000-\u001f\u007f-\u009f]/g : /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
  return s.replace(/\r\n/g, '\n').replace(re, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}
