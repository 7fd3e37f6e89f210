// Structured logs: one JSON object per line (`time`, `level`, `msg`, then the event's fields), for
// a cluster's log pipeline (kelp serve's). Levels below the configured one are dropped before formatting.
// streamLines, the line writer every face writes its process streams with (kelp's stdout and stderr, the
// log), is here too: below the faces, so that the CLI and the webhook share it without importing each other.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error']

export type LogFields = Record<string, unknown>

export interface Logger {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  enabled(level: LogLevel): boolean
}

export interface LoggerOptions {
  readonly level?: LogLevel
  /** Where each line goes (without the newline); default: stderr. */
  readonly write?: (line: string) => void
  /** The clock (tests). */
  readonly now?: () => Date
}

const RESERVED = new Set(['time', 'level', 'msg'])

function fieldValue(v: unknown): unknown {
  if (v instanceof Error) return { name: v.name, message: v.message, ...(v.stack ? { stack: v.stack } : {}) }
  if (typeof v === 'bigint') return v.toString()
  return v
}

/**
 * A line writer for a process stream (stdout, stderr). A stream that fails (its reader went away:
 * EPIPE) is given up, not retried: its 'error' would otherwise reach the process' uncaught-error
 * handler, whose log line fails again, a loop that spins a core.
 */
export function streamLines(stream: NodeJS.WriteStream): (line: string) => void {
  let broken = false
  stream.on('error', () => {
    broken = true
  })
  return (line) => {
    if (!broken) stream.write(`${line}\n`)
  }
}

/**
 * Makes writes to a pipe wait for its reader, as writes to a file or a terminal do. Node writes to a pipe
 * without blocking and queues what the pipe cannot take yet, so a report written faster than its reader reads
 * (`kelp check | less`, a CI runner's log collector) was held whole in memory (16 MB queued, measured).
 * libuv's uv_stream_set_blocking, through the handle Node keeps for a pipe (there is no public API); any
 * other stream is left as it is (a server's log on a socket must not stall the server).
 */
export function blockWhenPiped(stream: NodeJS.WriteStream): void {
  const handle = (
    stream as { _handle?: { setBlocking?: (blocking: boolean) => number; constructor?: { name?: string } } }
  )._handle
  if (stream.isTTY !== true && handle?.constructor?.name === 'Pipe' && typeof handle.setBlocking === 'function')
    handle.setBlocking(true)
}

let stderrLines: ((line: string) => void) | undefined
const writeStderr = (line: string) => {
  stderrLines ??= streamLines(process.stderr)
  stderrLines(line)
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const min = LOG_LEVELS.indexOf(options.level ?? 'info')
  const write = options.write ?? writeStderr
  const now = options.now ?? (() => new Date())
  const log = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(level) < min) return
    const entry: Record<string, unknown> = { time: now().toISOString(), level, msg }
    if (fields !== undefined)
      for (const [k, v] of Object.entries(fields)) {
        if (v === undefined) continue
        entry[RESERVED.has(k) ? `field.${k}` : k] = fieldValue(v)
      }
    let line: string
    try {
      line = JSON.stringify(entry)
    } catch {
      line = JSON.stringify({ time: entry.time, level, msg, error: 'fields could not be serialised' })
    }
    try {
      write(line)
    } catch {
      // a broken log sink never takes the server down
    }
  }
  return {
    debug: (m, f) => log('debug', m, f),
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
    enabled: (level) => LOG_LEVELS.indexOf(level) >= min,
  }
}
