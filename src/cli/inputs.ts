import { readFileSync } from 'node:fs'
import type { Finding } from '../report/model.js'
import { iterateManifests, type LoadedObject } from './load.js'
import { expandPaths, inputError } from './paths.js'

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

  /** One pass over every object of every input; with `diagnostics`, the reading errors go there. */
  *read(diagnostics?: Finding[]): Generator<LoadedObject> {
    diagnostics?.push(...this.pathFindings)
    for (const file of this.files) {
      let text: string | Buffer
      try {
        text = this.text(file)
      } catch (e) {
        diagnostics?.push(
          inputError(file, `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`),
        )
        continue
      }
      for (const item of iterateManifests(text, file)) {
        if (!('error' in item)) yield item
        else diagnostics?.push(item.error)
      }
    }
  }
}
