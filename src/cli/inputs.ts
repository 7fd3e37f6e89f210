import { readFileSync } from 'node:fs'
import type { Finding } from '../report/model.js'
import { iterateManifests, type LoadedObject } from './load.js'
import { expandPaths, inputError } from './paths.js'
import { documentShare, type FileShare, holdsFileStart } from './shares.js'

// The inputs of `kelp check` as passes over their documents: the files are listed once; each pass
// reads them again, one file at a time, so a run holds one file's text and the objects it keeps, not
// every object of every file. Standard input can be read once only: its text is kept for the passes.

export class Inputs {
  readonly files: readonly string[]
  private readonly pathFindings: readonly Finding[]
  private stdinText: string | Buffer | undefined

  constructor(
    paths: readonly string[],
    private readonly stdin: () => string | Buffer = () => readFileSync(0),
  ) {
    const { files, errors, notes } = expandPaths(paths)
    this.files = files
    this.pathFindings = [...errors, ...notes]
  }

  // bytes, so that invalid UTF-8 is refused as go-yaml refuses it
  private text(file: string): string | Buffer {
    if (file !== '-') return readFileSync(file)
    this.stdinText ??= this.stdin()
    return this.stdinText
  }

  /**
   * One pass over every object of every input (or of `shares`: this thread's part of them); with
   * `diagnostics`, the reading errors go there.
   */
  *read(diagnostics?: Finding[], shares?: readonly FileShare[]): Generator<LoadedObject> {
    diagnostics?.push(...this.pathFindings)
    for (const s of shares ?? this.files.map((file) => ({ file, from: 0, to: 1 }))) {
      yield* readShare(s, (file) => this.text(file), diagnostics)
    }
  }
}

/** The objects of one file's share; the file's own errors are told by the share holding its start. */
export function* readShare(
  s: FileShare,
  text: (file: string) => string | Buffer = (file) => readFileSync(file),
  diagnostics?: Finding[],
): Generator<LoadedObject> {
  let t: string | Buffer
  try {
    t = text(s.file)
  } catch (e) {
    if (holdsFileStart(s))
      diagnostics?.push(
        inputError(s.file, `cannot read ${s.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`),
      )
    return
  }
  for (const item of iterateManifests(t, s.file, documentShare(s))) {
    if (!('error' in item)) yield item
    else diagnostics?.push(item.error)
  }
}
