import type { FormatOptions } from './common.js'
import { formatGitHub } from './github.js'
import { formatJSON } from './json.js'
import { formatJUnit } from './junit.js'
import type { Report } from './model.js'
import { formatSARIF } from './sarif.js'
import { formatText, textPieces } from './text.js'

// The output formats of `kelp check` (`-o text|json|junit|sarif|github`): pure functions of a Report. Each
// returns the whole output without a trailing newline (the CLI writes one).

export type { FormatOptions } from './common.js'
export { kubectlLine, summaryLine } from './common.js'
export { escapeData, escapeProperty, formatGitHub } from './github.js'
export { formatJSON, toJSON } from './json.js'
export { escapeAttr, escapeText, formatJUnit } from './junit.js'
export * from './model.js'
export { formatSARIF, SARIF_SCHEMA } from './sarif.js'
export { formatText, textPieces } from './text.js'

export const FORMATS = ['text', 'json', 'junit', 'sarif', 'github'] as const

export type OutputFormat = (typeof FORMATS)[number]

const FORMATTERS: Readonly<Record<OutputFormat, (report: Report, options: FormatOptions) => string>> = {
  text: formatText,
  json: formatJSON,
  junit: formatJUnit,
  sarif: formatSARIF,
  github: formatGitHub,
}

/** The report in the given format. */
export function format(report: Report, output: OutputFormat, options: FormatOptions = {}): string {
  const formatter = FORMATTERS[output]
  if (formatter === undefined) throw new TypeError(`unknown output format '${String(output)}'`)
  return formatter(report, options)
}
export {
  formatPolicyReport,
  POLICY_REPORT_API_VERSION,
  type PolicyReportObject,
  type PolicyReportOptions,
  policyReports,
} from './policy-report.js'

/**
 * The report in the given format, in pieces whose concatenation is `format`'s: the text report a block at a
 * time (10,000 objects with findings make a 15 MB report), the others whole.
 */
export function formatPieces(report: Report, output: OutputFormat, options: FormatOptions = {}): Iterable<string> {
  return output === 'text' ? textPieces(report, options) : [format(report, output, options)]
}
