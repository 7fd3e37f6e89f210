import {
  exceptedPrefix,
  type FormatOptions,
  findingText,
  objectLabel,
  repoPath,
  sourceOf,
  summaryLine,
} from './common.js'
import type { Finding, Level, ObjectResult, Report } from './model.js'

// `kelp check -o github`: GitHub Actions workflow commands, which the runner turns into annotations on the
// files of the pull request:
//
//   ::error file=deploy.yaml,line=1,col=1,title=Deployment default/web (vap/require-labels)::Error from server …
//
// error for deny and error findings, warning for warn, notice for audit and info; diagnostics first, then each
// object's findings, then the summary as a plain log line. Paths are made relative to `root` (the workspace);
// a source without a file (stdin) gives an annotation without a location. Escaping as @actions/core does it:
// `%`, CR and LF in the message; those and `:` and `,` in property values. A message can therefore never end
// the command early or start another one. Other control characters (ESC, BEL, C1) are shown as `\xNN`.

const COMMAND: Readonly<Record<Level, 'error' | 'warning' | 'notice'>> = {
  error: 'error',
  deny: 'error',
  warn: 'warning',
  audit: 'notice',
  info: 'notice',
}

/**
 * C0 controls but tab, LF and CR (which the %-escapes carry), DEL and C1 controls (U+009B is a CSI): the runner
 * prints a command's text to the job log, whose viewer interprets ANSI sequences, so ESC, BEL and the rest are
 * shown as `\xNN` (as the text report shows them), never passed on.
 */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g

/** A command's message (@actions/core escapeData), control characters made visible. */
export function escapeData(s: string): string {
  return s
    .replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A')
}

/** A command property's value (@actions/core escapeProperty). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

function command(f: Finding, o: ObjectResult | undefined, root: string | undefined, excepted = false): string {
  const src = sourceOf(f, o)
  const path = src !== undefined ? repoPath(src.file, root) : undefined
  const props: [string, string | number | undefined][] = []
  if (path !== undefined) {
    props.push(['file', path.path])
    if (src?.line !== undefined) {
      props.push(['line', src.line])
      if (src.column !== undefined) props.push(['col', src.column])
    }
  }
  const rule = excepted ? `${f.rule}, excepted` : f.rule
  props.push(['title', o !== undefined ? `${objectLabel(o)} (${rule})` : rule])
  const list = props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',')
  // an excepted finding (--show-exceptions) is a notice: it fails nothing
  const text = excepted ? exceptedPrefix(f) + findingText(f, o) : findingText(f, o)
  return `::${excepted ? 'notice' : COMMAND[f.level]} ${list}::${escapeData(text)}`
}

/** `kelp check -o github`. */
export function formatGitHub(report: Report, options: FormatOptions = {}): string {
  const lines: string[] = []
  for (const d of report.diagnostics) lines.push(command(d, undefined, options.root))
  for (const o of report.objects) {
    for (const f of o.findings) lines.push(command(f, o, options.root))
    if (options.showExceptions === true) for (const f of o.excepted ?? []) lines.push(command(f, o, options.root, true))
  }
  lines.push(summaryLine(report))
  return lines.join('\n')
}
