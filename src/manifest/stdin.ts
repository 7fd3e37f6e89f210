import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { iterateManifests, type ManifestItem } from './load.js'
import { type PieceCount, PieceCutter, pieceManifests, readWhole, STREAM_BYTES } from './stream.js'

// Standard input of `kelp check -`, read as a stream: a pipe (`helm template … | kelp check -`) may be
// empty when kelp starts and fill later, and Node makes fd 0 non-blocking once process.stdin exists, so a
// synchronous read fails with EAGAIN. The bytes are cut into pieces at document boundaries as they arrive
// (stream.ts's cutter) and each piece is parsed then, for the first PARSE_BYTES; the rest is parsed at the
// end, once it is known not to go to a temporary file (objects parsed and then dropped left V8 a heap limit of
// four times their size: docs/benchmarks.md). A small input keeps its items and bytes (the bytes
// for the positions of findings); one of STREAM_BYTES or more is written to a temporary file as it comes and
// read from there like any large file (in pieces, twice when it must be), so memory stays bounded. What
// reads differently in pieces (a JSON stream, UTF-16, a possible Helm template with `{{`) is parsed whole
// at the end, as a file of it would be.

/**
 * The bytes of standard input parsed as they arrive (the rest, if kept, is parsed when it has all come). Their
 * objects are held until the input is known to stay in memory: small documents take about twenty times their
 * bytes of heap (2 MiB of ConfigMaps held 40 MB, a large piped input's peak), so a helm chart's output is parsed
 * as it comes and no more.
 */
export const PARSE_BYTES = 512 << 10

/** Standard input as read: its items, or the file its bytes were written to. */
export interface StdinInput {
  /** Its objects and errors, in order (undefined when its bytes are in `spool`). */
  readonly items?: readonly ManifestItem[]
  /** Its bytes, when held (undefined when in `spool`). */
  readonly bytes?: Buffer
  /** The temporary file holding its bytes (inputs of STREAM_BYTES or more). */
  readonly spool?: string
  readonly size: number
  /** Removes the temporary file, if any. */
  dispose(): void
}

export interface ReadStdinOptions {
  /** Inputs of at least this many bytes go to a temporary file (tests make it small). */
  readonly spoolBytes?: number
  /** The bytes that must be pending before the cutter looks for a boundary (1: at every chunk). */
  readonly pieceBytes?: number
  /** Inputs of at least this many bytes are parsed when they have all come (tests make it small). */
  readonly parseBytes?: number
  /** Called once when the bytes read reach `bytes` (the reader of a large input may prepare for it). */
  readonly large?: { readonly bytes: number; readonly then: () => void }
  /** The source's chunks are valid only until the next is asked for (stdin-fd.ts): those held are copied. */
  readonly reusedChunks?: boolean
}

/** Reads standard input (or any byte stream) to its end, parsing its documents as they arrive. */
export async function readStdin(
  source: AsyncIterable<Buffer | string>,
  options: ReadStdinOptions = {},
): Promise<StdinInput> {
  const spoolBytes = options.spoolBytes ?? STREAM_BYTES
  const parseBytes = options.parseBytes ?? PARSE_BYTES
  const cutter = new PieceCutter(options.pieceBytes ?? 1)
  const count: PieceCount = { docs: 0 }
  let items: ManifestItem[] | undefined = []
  let held: Buffer[] | undefined = []
  let size = 0
  let whole: boolean | undefined
  let last = -1
  let dir: string | undefined
  let fd: number | undefined
  const dispose = () => {
    if (fd !== undefined) closeSync(fd)
    fd = undefined
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  }
  try {
    for await (const chunk of source) {
      let b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      if (b.length === 0) continue
      // held or parsed now: a copy of a chunk the source reads into again (one written to the file needs none)
      if (options.reusedChunks === true && held !== undefined && typeof chunk !== 'string') b = Buffer.from(b)
      const before = size
      size += b.length
      if (options.large !== undefined && before < options.large.bytes && size >= options.large.bytes)
        options.large.then()
      if (held !== undefined) {
        held.push(b)
        if (size >= spoolBytes) {
          // large: to a file, read from there as a large file is (the items parsed so far are dropped)
          dir = mkdtempSync(join(tmpdir(), 'kelp-stdin-'))
          fd = openSync(join(dir, 'stdin'), 'w')
          for (const h of held) writeSync(fd, h)
          held = undefined
          items = undefined
        }
      } else if (fd !== undefined) writeSync(fd, b)
      // past PARSE_BYTES: parsed at the end if held, read from the file if not
      if (size >= parseBytes) items = undefined
      if (items === undefined || whole === true) continue
      for (const p of cutter.push(b)) {
        // the first piece decides as the first bytes of a file do; `{{` anywhere (also across two pieces)
        whole ??= readWhole(p.bytes)
        if (p.bytes.indexOf('{{') >= 0 || (last === 123 && p.bytes[0] === 123)) whole = true
        last = p.bytes[p.bytes.length - 1] ?? last
        if (whole) break
        for (const item of pieceManifests(p, '-', count)) items.push(item)
      }
    }
    if (fd !== undefined) closeSync(fd)
    fd = undefined
  } catch (e) {
    dispose()
    throw e
  }
  const spool = dir === undefined ? undefined : join(dir, 'stdin')
  if (spool !== undefined) return { spool, size, dispose }
  const bytes = Buffer.concat(held ?? [], size)
  if (whole === true || items === undefined) items = [...iterateManifests(bytes, '-')]
  else {
    for (const p of cutter.end()) {
      whole ??= readWhole(p.bytes)
      if (whole || p.bytes.indexOf('{{') >= 0 || (last === 123 && p.bytes[0] === 123)) {
        items = [...iterateManifests(bytes, '-')]
        break
      }
      for (const item of pieceManifests(p, '-', count)) items.push(item)
    }
  }
  return { items, bytes, size, dispose }
}
