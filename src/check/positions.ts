import { readFileSync, statSync } from 'node:fs'
import { FieldLocator } from '../kube/yaml/locate.js'
import { PIECE_BYTES, type Piece, pieces, STREAM_BYTES, streamable } from '../manifest/stream.js'
import type { Finding, ObjectResult, Report, SourceRef } from '../report/model.js'

// Findings at the line of their field. A finding that names a field (`spec.replicas` of a native validation
// error, a custom resource's schema or rule error, `spec.validations[0].expression` of a policy's type
// checking) points at the object's first line when admitted; here, once the report is made, it is moved to
// the line and column of that field in the text the object was read from (src/kube/yaml/locate.ts; the
// deepest ancestor written there when the field is not: a defaulted field, a list item the text lacks).
// Only files holding such findings are read again, each once, one FieldLocator per file; a large file is
// read in pieces (stream.ts) with a locator per piece that holds a finding's object, so memory stays what
// reading it took. Findings without a field cost nothing.

/** Where a file's text is: its bytes (standard input held), or a path to read (a file, stdin's temporary file). */
export type TextSource = { readonly bytes: string | Buffer } | { readonly path: string }

interface Request {
  readonly start: { readonly line: number; readonly column?: number }
  readonly field: string
  /** Sets the finding's new source. */
  readonly place: (line: number, column: number) => void
}

/** A text from its bytes: UTF-16 by its byte order mark (as decode.ts reads it), else UTF-8. */
function decode(bytes: string | Buffer): string {
  if (typeof bytes === 'string') return bytes
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes)
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes)
  return bytes.toString('utf8')
}

function locateAll(locator: FieldLocator, requests: readonly Request[]): void {
  for (const r of requests) {
    try {
      const p = locator.locate(r.start, r.field)
      r.place(p.line, p.column)
    } catch {
      // a text that changed since it was read: the finding keeps its object's position
    }
  }
}

/** Sizes (tests make them small): files of `streamBytes` or more are read in pieces of `pieceBytes`. */
export interface PlaceOptions {
  readonly streamBytes?: number
  readonly pieceBytes?: number
}

/** The requests of one file answered from its text, whole or piece by piece. */
function locateInFile(source: TextSource, requests: Request[], options: PlaceOptions): void {
  if ('bytes' in source) {
    locateAll(new FieldLocator(decode(source.bytes)), requests)
    return
  }
  const path = source.path
  const size = statSync(path).size
  if (size < (options.streamBytes ?? STREAM_BYTES) || !streamable(path)) {
    locateAll(new FieldLocator(decode(readFileSync(path))), requests)
    return
  }
  // a large file: the pieces it was read in hold whole documents, so each object is within one piece; the
  // requests of a piece are known when the next one starts (by its first line)
  requests.sort((a, b) => a.start.line - b.start.line)
  let at = 0
  let previous: Piece | undefined
  const flush = (p: Piece, before: number) => {
    const mine: Request[] = []
    while (at < requests.length && (requests[at] as Request).start.line < before) mine.push(requests[at++] as Request)
    if (mine.length > 0) locateAll(new FieldLocator(p.bytes.toString('utf8'), p.line), mine)
  }
  for (const p of pieces(path, options.pieceBytes ?? PIECE_BYTES)) {
    if (previous !== undefined) flush(previous, p.line)
    if (at >= requests.length) return
    previous = p
  }
  if (previous !== undefined) flush(previous, Number.POSITIVE_INFINITY)
}

/**
 * The report with each finding that names a field placed at that field's line and column (`text` tells where
 * each file's text is; files it does not know keep their positions).
 */
export function placeFindings(
  report: Report,
  text: (file: string) => TextSource | undefined,
  options: PlaceOptions = {},
): Report {
  const byFile = new Map<string, Request[]>()
  const ask = (f: Finding, place: (s: SourceRef) => void) => {
    const s = f.source
    if (f.field === undefined || f.field === '' || s === undefined || s.line === undefined) return
    let list = byFile.get(s.file)
    if (list === undefined) byFile.set(s.file, (list = []))
    list.push({
      start: s.column !== undefined ? { line: s.line, column: s.column } : { line: s.line },
      field: f.field,
      place: (line, column) => place({ ...s, line, column }),
    })
  }
  // copies made only when a finding has a field to place
  let diagnostics: Finding[] | undefined
  let objects: ObjectResult[] | undefined
  report.diagnostics.forEach((d, i) => {
    ask(d, (source) => {
      diagnostics ??= [...report.diagnostics]
      diagnostics[i] = { ...d, source }
    })
  })
  report.objects.forEach((o, i) => {
    for (let j = 0; j < o.findings.length; j++) {
      const f = o.findings[j] as Finding
      ask(f, (source) => {
        objects ??= [...report.objects]
        // the object's findings copied once, at its first placed finding
        let current = objects[i] as ObjectResult
        if (current === o) {
          current = { ...o, findings: [...o.findings] }
          objects[i] = current
        }
        ;(current.findings as Finding[])[j] = { ...f, source }
      })
    }
  })
  if (byFile.size === 0) return report
  for (const [file, requests] of byFile) {
    const source = text(file)
    if (source === undefined) continue
    try {
      locateInFile(source, requests, options)
    } catch {
      // a file gone since it was read: its findings keep their objects' positions
    }
  }
  return { ...report, objects: objects ?? report.objects, diagnostics: diagnostics ?? report.diagnostics }
}
