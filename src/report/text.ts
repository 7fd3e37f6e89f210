import {
  escapeControls,
  exceptedPrefix,
  exceptedText,
  type FormatOptions,
  kubectlLine,
  location,
  objectLabel,
  placedAt,
  summaryLine,
  summaryParts,
} from './common.js'
import type { Finding, Level, ObjectResult, Report } from './model.js'

// `kelp check -o text` (the default): for a terminal, in kubectl's words.
//
//   policies.yaml:3:1: error: <message>                       the diagnostics first
//
//   deploy.yaml:1:1 Deployment default/web (created)          then each object with findings
//     Error from server (Forbidden): deployments.apps "web" is forbidden: …
//     deploy.yaml:9:3: The Deployment "web" is invalid: …     (a finding at its field's line)
//     Warning: <text>
//     Audit: <key>=<value>
//
//   3 objects: 1 allowed, 1 denied, 1 warned; 1 error         and the summary
//
// Blocks are separated by blank lines; continuation lines of a message are indented like its first line.
// Control characters in messages are shown escaped (`\x1b`), never sent to the terminal.

type Style = 'bold' | 'dim' | 'red' | 'yellow' | 'green' | 'cyan' | 'boldRed' | 'boldYellow' | 'boldCyan'

const SGR: Readonly<Record<Style, string>> = {
  bold: '1',
  dim: '2',
  red: '31',
  yellow: '33',
  green: '32',
  cyan: '36',
  boldRed: '1;31',
  boldYellow: '1;33',
  boldCyan: '1;36',
}

type Paint = (style: Style, s: string) => string

function painter(color: boolean): Paint {
  if (!color) return (_style, s) => s
  // per line, so that no colour runs past a newline into the next line's indentation
  return (style, s) =>
    s
      .split('\n')
      .map((line) => (line === '' ? line : `\x1b[${SGR[style]}m${line}\x1b[0m`))
      .join('\n')
}

/** Indents every line of `s` by `by`. */
function indent(s: string, by: string): string {
  if (!s.includes('\n')) return s === '' ? s : by + s // one line (most findings): no split
  return s
    .split('\n')
    .map((line) => (line === '' ? line : by + line))
    .join('\n')
}

const SEVERITY: Readonly<Record<Level, { word: string; style: Style }>> = {
  error: { word: 'error', style: 'boldRed' },
  deny: { word: 'error', style: 'boldRed' },
  warn: { word: 'warning', style: 'boldYellow' },
  audit: { word: 'note', style: 'boldCyan' },
  info: { word: 'note', style: 'boldCyan' },
}

const FINDING_STYLE: Readonly<Record<Level, Style>> = {
  error: 'red',
  deny: 'red',
  warn: 'yellow',
  audit: 'cyan',
  info: 'dim',
}

/** `<file>:<line>:<col>: error: <message>` (`warning:` / `note:` for lower levels). */
function diagnosticText(d: Finding, paint: Paint): string {
  const sev = SEVERITY[d.level]
  const loc = escapeControls(location(d.source), true)
  const head = `${loc === '' ? '' : `${paint('bold', `${loc}:`)} `}${paint(sev.style, `${sev.word}:`)} `
  const [first = '', ...rest] = escapeControls(d.message).split('\n')
  return [head + first, ...rest.map((l) => (l === '' ? l : `  ${l}`))].join('\n')
}

/** The object's header and its findings, one kubectl line each. */
function objectText(o: ObjectResult, paint: Paint, showExceptions = false): string {
  const loc = escapeControls(location(o.source), true)
  // kubectl apply's words: `unchanged` when the patch is empty (nothing sent)
  const op = o.outcome === 'unchanged' ? '(unchanged)' : o.operation === 'UPDATE' ? '(updated)' : '(created)'
  const header = `${loc === '' ? '' : `${paint('dim', loc)} `}${paint('bold', escapeControls(objectLabel(o), true))} ${paint('dim', op)}`
  // a finding at its field's line starts with that position (`file:line:col: `, as compilers print it)
  const lines = o.findings.map((f) => {
    const at = placedAt(f, o)
    const text = paint(FINDING_STYLE[f.level], escapeControls(kubectlLine(f, o)))
    return indent(at === undefined ? text : `${paint('dim', `${escapeControls(at, true)}:`)} ${text}`, '  ')
  })
  if (showExceptions && o.excepted !== undefined)
    for (const f of o.excepted)
      lines.push(indent(paint('dim', escapeControls(exceptedPrefix(f) + kubectlLine(f, o))), '  '))
  return [header, ...lines].join('\n')
}

function summaryText(r: Report, paint: Paint, color: boolean): string {
  if (!color) return summaryLine(r)
  const { head, counts, errors } = summaryParts(r)
  const tone = { ok: 'green', bad: 'boldRed', warn: 'yellow', note: 'cyan' } as const
  const parts = counts.map((c) => (c.n > 0 ? paint(tone[c.tone], c.text) : c.text))
  const errs = `${errors} ${errors === 1 ? 'error' : 'errors'}`
  return `${paint('bold', head)}: ${parts.join(', ')}; ${errors > 0 ? paint('boldRed', errs) : errs}${paint('cyan', exceptedText(r))}`
}

/** The text report: diagnostics, the objects with findings (all with `verbose`), the summary line. */
export function formatText(report: Report, options: FormatOptions = {}): string {
  let text = ''
  for (const piece of textPieces(report, options)) text += piece
  return text
}

/**
 * formatText in pieces (a block each, with the blank line before it), whose concatenation is formatText's:
 * a large report is written as it is formatted, never held as one string.
 */
export function* textPieces(report: Report, options: FormatOptions = {}): Generator<string> {
  const paint = painter(options.color === true)
  let first = true
  const block = (b: string) => {
    if (first) {
      first = false
      return b
    }
    return `\n\n${b}`
  }
  if (report.diagnostics.length > 0) yield block(report.diagnostics.map((d) => diagnosticText(d, paint)).join('\n'))
  const showExceptions = options.showExceptions === true || options.verbose === true
  for (const o of report.objects) {
    if (o.findings.length > 0 || options.verbose === true || (showExceptions && o.excepted !== undefined))
      yield block(objectText(o, paint, showExceptions))
  }
  yield block(summaryText(report, paint, options.color === true))
}
