import { Parser } from './parser.js'
import { Scanner } from './scanner.js'
import { Ev, type Mark, type Problem } from './types.js'

export type { ErrorKind, Mark, Problem } from './types.js'

// go-yaml v2.4.4's reading of a document up to its first error, as yaml.Unmarshal reports it (decode.go):
// the reader, scanner and parser of this directory, driven as decode.go's parser (the composer) drives them.
//
// yaml.Unmarshal reads the stream's FIRST document only: the composer takes STREAM-START, then one node
// (DOCUMENT-START, the node's events, DOCUMENT-END) and stops; nothing after the document's end event is
// parsed, and the scanner reads only as far as that event needs (the token after the document's last node,
// and whatever go-yaml's lookahead for simple keys fetches with it). A text with nothing but comments and
// blanks is no document and no error. The composer has one error of its own, on the way: an alias to an
// anchor not yet defined ("unknown anchor 'x' referenced", decode.go parser.alias). The decoder's errors
// (invalid map key, excessive aliasing, ...) come after the whole document is read, and are not here.

/** A syntax error as go-yaml prints it: `yaml: line N: message`, or `yaml: message` when line is 0. */
export interface GoYAMLSyntaxError {
  readonly message: string
  readonly line: number
}

/**
 * The error go-yaml v2's yaml.Unmarshal reports for `text` from its reader, scanner, parser or composer,
 * or undefined when it reads the first document. `line` is the N of go-yaml's `yaml: line N: ` (0 when it
 * prints none), counted in `text`.
 */
export function goYAMLSyntaxError(text: string): GoYAMLSyntaxError | undefined {
  const p = goYAMLProblem(text)
  return p === undefined ? undefined : fail(p)
}

/**
 * The same error as go-yaml records it: its kind, words and marks (0-based lines and columns; a reader's or
 * the composer's problem mark is the start of the text, but an unknown alias's, which is the alias).
 */
export function goYAMLProblem(text: string): Problem | undefined {
  return readFirstDocument(text).problem
}

/**
 * Where go-yaml's reading of `text`'s first document ends (its DOCUMENT-END event's mark: the token after the
 * document's node, as `b` in ` a: 1\nb: 2`, where yaml.Unmarshal stops), or undefined where it refuses the text
 * or the text holds no document. Its index counts code points.
 */
export function goYAMLFirstDocumentEnd(text: string): Mark | undefined {
  return readFirstDocument(text).end
}

function readFirstDocument(text: string): { problem?: Problem; end?: Mark } {
  const scanner = new Scanner(text)
  const parser = new Parser(scanner)
  const anchors = new Set<string>()
  for (;;) {
    const event = parser.parse()
    if (event === undefined) return scanner.problem === undefined ? {} : { problem: scanner.problem }
    switch (event.type) {
      case Ev.ALIAS:
        if (!anchors.has(event.anchor as string)) {
          const zero = { index: 0, line: 0, column: 0 }
          return {
            problem: {
              kind: 'composer',
              problem: `unknown anchor '${event.anchor}' referenced`,
              problemMark: event.mark ?? zero,
              context: '',
              contextMark: zero,
            },
          }
        }
        break
      case Ev.SCALAR:
      case Ev.SEQUENCE_START:
      case Ev.MAPPING_START:
        // decode.go parser.anchor: an anchor is known from its node's start on
        if (event.anchor !== undefined) anchors.add(event.anchor)
        break
      case Ev.DOCUMENT_END:
        return event.mark === undefined ? {} : { end: event.mark }
      case Ev.STREAM_END:
        return {}
    }
  }
}

/**
 * decode.go (*parser).fail: the line is the problem's (0-based; a scanner's one more, as its comment says
 * "Scanner errors don't iterate line before returning error"), else the context's (0-based, as is), and
 * none when that is 0; a reader error has neither, and the composer's failf prints none.
 */
function fail(p: Problem): GoYAMLSyntaxError {
  if (p.kind === 'composer' || p.kind === 'reader') return { message: p.problem, line: 0 }
  let line = 0
  if (p.problemMark.line !== 0) {
    line = p.problemMark.line
    if (p.kind === 'scanner') line++
  } else if (p.contextMark.line !== 0) {
    line = p.contextMark.line
  }
  return { message: p.problem.length > 0 ? p.problem : 'unknown problem parsing YAML content', line }
}
