/** A command-line mistake: reported as `kelp: <message>`, exit code 2. */
export class UsageError extends Error {}

/** Where the CLI writes (stdout lines, stderr lines); tests capture them. */
export interface Io {
  out(line: string): void
  err(line: string): void
  /** Whether stdout is a terminal that shows colour (TTY and no NO_COLOR). */
  readonly color?: boolean
}
