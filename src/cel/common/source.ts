// Source text with line bookkeeping, and cel-go's error display format:
//   ERROR: <input>:1:5: message
//    | a + b
//    | ....^
// Lines are 1-based, columns 1-based in the text, counted in code points (cel-go counts runes).

export class Source {
  readonly lineOffsets: number[]

  constructor(
    readonly text: string,
    readonly description = '<input>',
  ) {
    const offs: number[] = []
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) offs.push(i + 1)
    offs.push(text.length + 1)
    this.lineOffsets = offs
  }

  /** UTF-16 offset → 1-based line and 0-based column in code points. */
  location(offset: number): { line: number; column: number } {
    let line = 1
    let lineStart = 0
    for (const lo of this.lineOffsets) {
      if (lo > offset) break
      line++
      lineStart = lo
    }
    let column = 0
    for (let i = lineStart; i < offset && i < this.text.length; i++) {
      const c = this.text.charCodeAt(i)
      if (c < 0xdc00 || c > 0xdfff || i === lineStart) column++
    }
    return { line, column }
  }

  /** Text of a 1-based line, without its newline. */
  lineText(line: number): string {
    const start = line === 1 ? 0 : this.lineOffsets[line - 2]
    const end = this.lineOffsets[line - 1] - 1
    if (start === undefined || end === undefined) return ''
    return this.text.slice(start, end)
  }
}

export interface CelIssue {
  readonly message: string
  /** UTF-16 offset into the source, or -1 when unknown. */
  readonly offset: number
}

/**
 * Formats one issue as cel-go's common.Error.ToDisplayString does: the location, the message,
 * then the source line and a caret under the column (dots for the code points before it,
 * with wide characters shown as full-width dots, as cel-go does).
 */
export function formatIssue(source: Source, issue: CelIssue): string {
  if (issue.offset < 0) return `ERROR: ${source.description}:-1:0: ${issue.message}`
  const { line, column } = source.location(issue.offset)
  let out = `ERROR: ${source.description}:${line}:${column + 1}: ${issue.message}`
  const text = source.lineText(line)
  if (text !== '' || line === 1) {
    // cel-go (common/errors.go) replaces tabs in the snippet with a space, draws a dot for each
    // code point before the column (a full-width dot for non-ASCII ones) and a full-width caret
    // when the character at the column is non-ASCII.
    const snippet = text.replace(/\t/g, ' ')
    let indent = ''
    let i = 0
    let caret = '^'
    for (const ch of snippet) {
      if (i++ >= column) {
        if ((ch.codePointAt(0) ?? 0) > 0x7f) caret = '\uff3e'
        break
      }
      indent += (ch.codePointAt(0) ?? 0) > 0x7f ? '\uff0e' : '.'
    }
    out += `\n | ${snippet}\n | ${indent}${caret}`
  }
  return out
}
