import { readFileSync, statSync } from 'node:fs'
import { iterateManifests, type LoadedObject, type ManifestItem, manifestFile } from '../manifest/load.js'
import { expandPaths, inputError, readError, SKIPPED_DIRECTORIES } from '../manifest/paths.js'
import { type ReadStdinOptions, readStdin, type StdinInput } from '../manifest/stdin.js'
import { PIECE_BYTES, STREAM_BYTES, streamable, streamManifests } from '../manifest/stream.js'
import { pushAll } from '../report/common.js'
import type { Finding } from '../report/model.js'
import type { TextSource } from './positions.js'
import { documentShare, type FileShare, holdsFileStart } from './shares.js'

// The inputs of `kelp check` as passes over their documents: the files are listed once; each pass
// reads them again, one file at a time (a large one in pieces of a few MiB: stream.ts), so a run holds
// a piece of one file's text and the objects it keeps, not every object of every file. Standard input
// can be read once only: read as a stream before the passes (stdin.ts), its items are kept for them,
// or its bytes in a temporary file when large; given as a function instead (tests, the library), its
// text is kept whole.

/** The pieces a large file is read in (a quarter of stream.ts's PIECE_BYTES; see readShare). */
const READ_PIECE_BYTES = PIECE_BYTES >> 2

export class Inputs {
  readonly files: readonly string[]
  private readonly pathFindings: readonly Finding[]
  private stdinText: string | Buffer | undefined
  private stdinInput: StdinInput | undefined

  constructor(
    paths: readonly string[],
    private readonly stdin: () => string | Buffer = () => readFileSync(0),
    /** Files of at least this many bytes are read in pieces (stream.ts; tests make it small). */
    private readonly streamBytes: number = STREAM_BYTES,
  ) {
    const { files, errors, notes } = expandPaths(paths, { kubectl: true, skipDirectories: SKIPPED_DIRECTORIES })
    this.files = files
    this.pathFindings = [...errors, ...notes]
  }

  /**
   * Reads standard input as a stream, documents as they arrive (when `-` is an input): the passes then read
   * what it held. Call {@link dispose} when the run is done.
   */
  async readStdin(source: AsyncIterable<Buffer | string>, options?: ReadStdinOptions): Promise<void> {
    if (this.files.includes('-') && this.stdinInput === undefined) this.stdinInput = await readStdin(source, options)
  }

  /** Removes what reading standard input left (its temporary file). */
  dispose(): void {
    this.stdinInput?.dispose()
  }

  /** Where a file's text is, for the positions of findings (positions.ts). */
  textOf(file: string): TextSource | undefined {
    if (file !== '-') return { path: file }
    const stdin = this.stdinInput
    if (stdin?.spool !== undefined) return { path: stdin.spool }
    if (stdin?.bytes !== undefined) return { bytes: stdin.bytes }
    return this.stdinText !== undefined ? { bytes: this.stdinText } : undefined
  }

  /** The files' sizes together (unreadable ones count 0; standard input its size once read as a stream). */
  bytes(): number {
    let n = this.stdinInput?.size ?? 0
    for (const f of this.files) {
      if (f === '-') continue
      try {
        n += statSync(f).size
      } catch {}
    }
    return n
  }

  // bytes, so that invalid UTF-8 is refused as go-yaml refuses it; read once and kept for the passes
  private stdinBytes(): string | Buffer {
    this.stdinText ??= this.stdin()
    return this.stdinText
  }

  /**
   * One pass over every object of every input (or of `shares`: this thread's part of them); with
   * `diagnostics`, the reading errors go there.
   */
  *read(diagnostics?: Finding[], shares?: readonly FileShare[]): Generator<LoadedObject> {
    if (diagnostics !== undefined) pushAll(diagnostics, this.pathFindings)
    for (const s of shares ?? this.files.map((file) => ({ file, from: 0, to: 1 }))) {
      // files are read by readShare (large ones in pieces); standard input once
      const stdin = s.file === '-' ? this.stdinInput : undefined
      if (stdin?.spool !== undefined) yield* readShare(s, undefined, diagnostics, this.streamBytes, stdin.spool)
      else if (stdin?.items !== undefined) {
        for (const item of manifestFile(stdin.items, '-')) {
          if (!('error' in item)) yield item
          else diagnostics?.push(item.error)
        }
      } else yield* readShare(s, s.file === '-' ? () => this.stdinBytes() : undefined, diagnostics, this.streamBytes)
    }
  }
}

/** The objects of one file's share; the file's own errors are told by the share holding its start. */
export function* readShare(
  s: FileShare,
  text?: (file: string) => string | Buffer,
  diagnostics?: Finding[],
  streamBytes: number = STREAM_BYTES,
  /** Where the file's bytes are, when not at its name (standard input kept in a file). */
  path: string = s.file,
): Generator<LoadedObject> {
  const cannotRead = (e: unknown) => {
    if (holdsFileStart(s)) diagnostics?.push(inputError(s.file, readError(s.file, e)))
  }
  let items: Iterable<ManifestItem>
  try {
    if (text === undefined && path !== '-') {
      // a large file in pieces (stream.ts): a run holds a piece of its text, not all of it; pieces of 1 MiB,
      // not stream.ts's 4: a piece is held several times over while it is read (the bytes read, the joined
      // piece, its string), ~30 MiB of the peak RSS of 500,000 documents (docs/benchmarks.md)
      const size = statSync(path).size
      if (size >= streamBytes && streamable(path))
        items = streamManifests(
          path,
          size,
          documentShare(s),
          Math.min(READ_PIECE_BYTES, Math.max(1, streamBytes >> 2)),
          s.file,
        )
      else items = iterateManifests(readFileSync(path), s.file, documentShare(s))
    } else items = iterateManifests((text ?? readFileSync)(path), s.file, documentShare(s))
  } catch (e) {
    cannotRead(e)
    return
  }
  try {
    // kustomize's, Helm's and other files that are no manifests: one note (load.ts)
    for (const item of manifestFile(items, s.file)) {
      if (!('error' in item)) yield item
      else diagnostics?.push(item.error)
    }
  } catch (e) {
    // a file read in pieces is opened as it is read: one that went away is unreadable, as above
    if ((e as NodeJS.ErrnoException).code === undefined) throw e
    cannotRead(e)
  }
}
