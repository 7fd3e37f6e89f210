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

/** Reads `length` bytes of an open file from `position` (fewer at its end), into `b` when given. */
function readAt(fd: number, position: number, length: number, b = Buffer.allocUnsafe(length)): Buffer {
  let n = 0
  while (n < length) {
    const r = readSync(fd, b, n, length - n, position + n)
    if (r === 0) break
    n += r
  }
  return b.subarray(0, n)
}

/**
 * Whether text that starts with `head` (its first 16 KiB, or all of it when shorter) is read whole: a JSON
 * stream (YAMLOrJSONDecoder's sniff) or UTF-16.
 */
export function readWhole(head: Buffer): boolean {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true
  const text = head
    .subarray(0, 4 * SNIFF)
    .toString('utf8')
    .slice(0, SNIFF)
  return text.charCodeAt(GO_SPACE.exec(text)?.[0].length ?? 0) === 123
}

/** Whether the file reads the same in pieces: not a JSON stream, not UTF-16, no `{{` anywhere. */
export function streamable(file: string, pieceBytes = PIECE_BYTES): boolean {
  const fd = openSync(file, 'r')
  try {
    if (readWhole(readAt(fd, 0, 4 * SNIFF))) return false
    // `{{` anywhere, also across two reads. One buffer for every read: a new one per read left the whole
    // file's size in dead buffers outside V8's heap until a collection (the malloc heap then stays as
    // large: 18 MiB of the peak RSS of a 72 MiB file, docs/benchmarks.md).
    const into = Buffer.allocUnsafe(pieceBytes)
    let at = 0
    let last = 0
    for (;;) {
      const b = readAt(fd, at, pieceBytes, into)
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

/**
 * Cuts a run of bytes, given as it arrives, into pieces of whole documents: a piece is cut at the last
 * document boundary of what has come once at least `pieceBytes` are pending; a document longer than that
 * waits for its end. Used on a file read PIECE_BYTES at a time and on standard input as it arrives.
 */
export class PieceCutter {
  private pending: Buffer[] = []
  private pendingBytes = 0
  private start = 0
  private line = 1
  // the pending bytes at which to look for a boundary again: after a look that found none, twice as many,
  // so that a long document arriving in small chunks is not searched (and joined) once per chunk
  private nextLook: number

  constructor(private readonly pieceBytes: number) {
    this.nextLook = pieceBytes
  }

  /** The pieces `bytes` completes (none while a document is still arriving). */
  push(bytes: Buffer): Piece[] {
    if (bytes.length === 0) return []
    this.pending.push(bytes)
    this.pendingBytes += bytes.length
    if (this.pendingBytes < this.nextLook) return []
    const all = this.joined()
    const cut = lastBoundary(all)
    if (cut <= 0) {
      this.nextLook = Math.max(this.pieceBytes, this.pendingBytes * 2)
      return []
    }
    this.nextLook = this.pieceBytes
    // a copy: the rest must not keep the piece's bytes alive
    const rest = Buffer.from(all.subarray(cut))
    this.pending = rest.length > 0 ? [rest] : []
    this.pendingBytes = rest.length
    return [this.piece(all.subarray(0, cut))]
  }

  /** The last piece: what is still pending at the end of the bytes (none when nothing is). */
  end(): Piece[] {
    if (this.pendingBytes === 0) return []
    const all = this.joined()
    this.pending = []
    this.pendingBytes = 0
    return [this.piece(all)]
  }

  private joined(): Buffer {
    if (this.pending.length !== 1) this.pending = [Buffer.concat(this.pending, this.pendingBytes)]
    return this.pending[0] as Buffer
  }

  private piece(bytes: Buffer): Piece {
    const p = { bytes, line: this.line, byteStart: this.start }
    this.line += newlines(bytes)
    this.start += bytes.length
    return p
  }
}

/** The pieces of a file, in order; together they are its bytes. */
export function* pieces(file: string, pieceBytes = PIECE_BYTES): Generator<Piece> {
  const fd = openSync(file, 'r')
  try {
    const cutter = new PieceCutter(pieceBytes)
    let position = 0
    for (;;) {
      const read = readAt(fd, position, pieceBytes)
      position += read.length
      if (read.length === 0) {
        yield* cutter.end()
        return
      }
      yield* cutter.push(read)
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

/** The documents of the pieces read so far (a piece's document indices are counted on from them). */
export interface PieceCount {
  docs: number
}

/**
 * The objects and errors of one piece, with the file's lines and document indices: `count` holds the
 * documents of the pieces before and is moved past this one's; `share` is asked about each document at its
 * offset in the piece (a fraction of it).
 */
export function* pieceManifests(
  p: Piece,
  name: string,
  count: PieceCount,
  share?: (at: number) => boolean,
): Generator<ManifestItem> {
  const lines = p.line - 1
  const before = count.docs
  // decodeStream asks the share about every YAML document of the piece, read or not: that counts them
  const counting: DocumentShare = (at) => {
    count.docs++
    return share === undefined || share(at)
  }
  for (const item of iterateManifests(p.bytes, name, counting)) {
    if (lines === 0 && before === 0) yield item
    else if ('error' in item) {
      const e: Finding = item.error
      const error = e.source === undefined ? e : { ...e, source: moved(e.source, lines, before) }
      // what the document is when it is no manifest: manifestFile judges the whole file on it (a file of 16 MiB
      // or more of data documents was an error per document from its second piece on, a note when smaller)
      yield item.notManifest === undefined ? { error } : { error, notManifest: item.notManifest }
    } else yield { object: item.object, source: moved(item.source, lines, before) }
  }
}

/**
 * The objects and errors of a large file, as {@link iterateManifests} gives them for the whole file, read
 * piece by piece; `share` as there (fractions of the file's bytes); sources name the file `name` (standard
 * input kept in a file is `-`).
 */
export function* streamManifests(
  file: string,
  size: number,
  share?: DocumentShare,
  pieceBytes = PIECE_BYTES,
  name = file,
): Generator<ManifestItem> {
  const count: PieceCount = { docs: 0 }
  for (const p of pieces(file, pieceBytes)) {
    const at =
      share === undefined ? undefined : (f: number) => share((p.byteStart + f * p.bytes.length) / Math.max(1, size))
    yield* pieceManifests(p, name, count, at)
  }
}
