/** A command-line mistake: reported as `kelp: <message>`, exit code 2 (the manifest reader throws it too: --base). */
export { UsageError } from '../manifest/usage.js'

/** Where the CLI writes (stdout lines, stderr lines); tests capture them. */
export interface Io {
  out(line: string): void
  err(line: string): void
  /** Whether stdout is a terminal that shows colour (TTY and no NO_COLOR). */
  readonly color?: boolean
}
