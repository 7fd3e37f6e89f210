import { Command, CommanderError } from 'commander'
import { addAuditCommand } from '../audit/command.js'
import { addCheckCommand, addTestCommand } from '../cli/commands.js'
import { addEvalCommand } from '../cli/eval.js'
import { addPlaygroundCommand } from '../playground/command.js'
import { escapeControls } from '../report/common.js'
import { blockWhenPiped, streamLines } from '../report/log.js'
import { type Io, UsageError } from '../report/usage.js'
import { VERSION } from '../report/version.js'
import { addServeCommand } from '../webhook/command.js'

// The kelp command: the commands of both faces under one name, above them (neither face imports the
// other): `eval`, `check` and `test` are the CLI's (src/cli/), `serve` the webhook's (src/webhook/command.ts),
// `audit` the audit face's (src/audit/command.ts), `playground` the playground's (src/playground/command.ts).
// Exit codes: 0 success, 1 a CEL error (or findings at or above --fail-on, or a failed policy test), 2 bad
// usage or input errors. The bundle's entry (scripts/bundle-cli.js), run by dist/cli/kelp.cjs.

export type { Io } from '../report/usage.js'

// lines to stdout / stderr; a stream whose reader went away (`kelp check | head`) is given up; stdout waits
// for a slow reader of a pipe rather than queue the report in memory (stderr, a server's log, does not)
let outLines: ((line: string) => void) | undefined
let errLines: ((line: string) => void) | undefined
const processIo: Io = {
  out: (s) => {
    if (outLines === undefined) {
      blockWhenPiped(process.stdout)
      outLines = streamLines(process.stdout)
    }
    outLines(s)
  },
  err: (s) => {
    errLines ??= streamLines(process.stderr)
    errLines(s)
  },
  // colours only on a terminal, and never when NO_COLOR is set (https://no-color.org)
  color: process.stdout.isTTY === true && (process.env.NO_COLOR ?? '') === '',
}

/** Runs the kelp command line on `argv` (without node and script); returns the exit code. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  let code = 0
  const setCode = (c: number) => {
    code = c
  }
  const out = io.out
  const err = io.err
  const program = new Command()
    .name('kelp')
    .description('Kubernetes CEL policies: compile and run CEL exactly as kube-apiserver does')
    .exitOverride()
    .configureOutput({ writeErr: (s) => err(s.replace(/\n$/, '')), writeOut: (s) => out(s.replace(/\n$/, '')) })
  addEvalCommand(program, io, setCode)
  program.version(VERSION, '--version', 'print the kelp version')
  addCheckCommand(program, io, setCode)
  addTestCommand(program, io, setCode)
  addServeCommand(program, io)
  addAuditCommand(program, io, setCode)
  addPlaygroundCommand(program, io)
  try {
    await program.parseAsync(argv, { from: 'user' })
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2
    if (e instanceof UsageError) {
      err(`kelp: ${escapeControls(e.message)}`)
      return 2
    }
    throw e
  }
  return code
}
