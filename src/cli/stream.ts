import { closeSync, openSync, readSync } from 'node:fs'
import type { DocumentShare } from '../kube/yaml/decode.js'
import type { Finding } from '../report/model.js'
import { iterateManifests, type ManifestItem } from './load.js'

// Large files read in pieces, so that a run holds a few MiB of a file's text instead of all of it (and
// the string made of it): the bytes are read PIECE_BYTES at a time and cut before a line starting with
// `---`, where kubectl's YAMLReader (apimachinery pkg/util/yaml) ends a document whatever the YAML
// around it, so each piece holds whole documents and is read as the file would be. Positions are the
// file's: a piece's lines and documents are counted on from the pieces before it.
//
// Read whole instead, because a piece would read otherwise: a JSON stream (the file starts with `{`,
// YAMLOrJSONDecoder's sniff), a file that starts with a UTF-16 byte order mark, and a file with `{{`
// (a possible Helm template is judged on the whole file). A `---` after a document of directives only
// (`%YAML 1.1`) belongs to them: no cut there.

/** Files of at least this many bytes are read in pieces. */
export const STREAM_BYTES = 16 << 20
/** The bytes read at a time; a piece ends at the last document boundary within them (or the next one). */
export const PIECE_BYTES = 4 << 20

const SNIFF = 4096
// unicode.IsSpace, as decode.ts's sniff trims
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/

/** Reads `length` bytes of an open file from `position` (fewer at its end). */
function readAt(fd: number, position: number, length: number): Buffer {
  const b = Buffer.allocUnsafe(length)
  let n = 0
  while (n < length) {
    const r = readSync(fd, b, n, length - n, position + n)
    if (r === 0) break
    n += r
  }
  return b.subarray(0, n)
}

/** Whether the file reads the same in pieces: not a JSON stream, not UTF-16, no `{{` anywhere. */
export function streamable(file: string, pieceBytes = PIECE_BYTES): boolean {
  const fd = openSync(file, 'r')
  try {
    const head = readAt(fd, 0, 4 * SNIFF)
    if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return false
    const text = head.toString('utf8').slice(0, SNIFF)
    if (text.charCodeAt(GO_SPACE.exec(text)?.[0].length ?? 0) === 123) return false
    // `{{` anywhere, also across two reads
    let at = 0
    let last = 0
    for (;;) {
      const b = readAt(fd, at, pieceBytes)
      if (b.length === 0) return true
      if ((last === 123 && b[0] === 123) || b.indexOf('{{') >= 0) return false
      last = b[b.length - 1] as number
      at += b.length
    }
  } finally {
    closeSync(fd)
  }
}

/** One piece of a file: whole documents, with the line and byte offset it starts at. */
export interface Piece {
  readonly bytes: Buffer
  /** 1-based line of the piece's first line in the file. */
  readonly line: number
  readonly byteStart: number
}

const DASHES = Buffer.from('\n---')

/**
 * Where to cut `b` (its last document boundary: the offset of a `---` at a line start, after at least one
 * byte), or -1. A boundary that follows a document of directives only is not one (splitYAML keeps them).
 */
function lastBoundary(b: Buffer): number {
  let nl = b.lastIndexOf(DASHES)
  while (nl >= 0) {
    const before = b.lastIndexOf(DASHES, nl - 1)
    const from = before < 0 ? 0 : before + 1
    const doc = b.subarray(from, nl + 1)
    // a line starting with `%` (past the separator line, when there is one): maybe a directive
    if (!(doc[0] === 37 || doc.indexOf('\n%') >= 0)) return nl + 1
    nl = before
  }
  return -1
}

function newlines(b: Buffer): number {
  let n = 0
  for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) n++
  return n
}

/** The pieces of a file, in order; together they are its bytes. */
export function* pieces(file: string, pieceBytes = PIECE_BYTES): Generator<Piece> {
  const fd = openSync(file, 'r')
  try {
    let pending: Buffer = Buffer.alloc(0)
    let start = 0
    let line = 1
    let position = 0
    for (;;) {
      const read = readAt(fd, position, pieceBytes)
      position += read.length
      const eof = read.length === 0
      if (!eof) pending = pending.length === 0 ? read : Buffer.concat([pending, read])
      if (!eof && pending.length < pieceBytes) continue
      // one document longer than a piece: read on until its end
      const cut = eof ? pending.length : lastBoundary(pending)
      if (cut > 0) {
        const bytes = pending.subarray(0, cut)
        yield { bytes, line, byteStart: start }
        line += newlines(bytes)
        start += cut
        // a copy: the rest must not keep the piece's bytes alive
        pending = Buffer.from(pending.subarray(cut))
      }
      if (eof) return
    }
  } finally {
    closeSync(fd)
  }
}

/** A source moved by the lines and documents of the pieces before (its keys kept in their order). */
function moved<T extends { readonly line?: number; readonly document?: number }>(s: T, lines: number, docs: number): T {
  return {
    ...s,
    ...(s.line !== undefined ? { line: s.line + lines } : {}),
    ...(s.document !== undefined ? { document: s.document + docs } : {}),
  }
}

/**
 * The objects and errors of a large file, as {@link iterateManifests} gives them for the whole file, read
 * piece by piece; `share` as there (fractions of the file's bytes).
 */
export function* streamManifests(
  file: string,
  size: number,
  share?: DocumentShare,
  pieceBytes = PIECE_BYTES,
): Generator<ManifestItem> {
  let docs = 0
  for (const p of pieces(file, pieceBytes)) {
    const lines = p.line - 1
    const before = docs
    // decodeStream asks the share about every YAML document of the piece, read or not: that counts them
    const counting: DocumentShare = (at) => {
      docs++
      return share === undefined || share((p.byteStart + at * p.bytes.length) / Math.max(1, size))
    }
    for (const item of iterateManifests(p.bytes, file, counting)) {
      if (lines === 0 && before === 0) yield item
      else if ('error' in item) {
        const e: Finding = item.error
        yield { error: e.source === undefined ? e : { ...e, source: moved(e.source, lines, before) } }
      } else yield { object: item.object, source: moved(item.source, lines, before) }
    }
  }
}
