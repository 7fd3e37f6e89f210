#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { Command, CommanderError } from 'commander'
import { parseAllDocuments } from 'yaml'
import { CelError, type CelValue, compile, DynType } from '../cel/index.js'
import { formatValue } from '../cel/values/format.js'
import { typeValueOf } from '../cel/values/typeof.js'

// The kelp command line. Exit codes: 0 success, 1 a CEL error (or a failed check), 2 bad usage.

function collect(value: string, previous: string[]): string[] {
  return [...previous, value]
}

class UsageError extends Error {}

/** Reads one YAML or JSON document for a variable binding. */
function readBinding(spec: string): [string, CelValue] {
  const eq = spec.indexOf('=')
  if (eq <= 0) throw new UsageError(`--file expects name=path, got '${spec}'`)
  const name = spec.slice(0, eq)
  const path = spec.slice(eq + 1)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`)
  }
  const docs = parseAllDocuments(text)
  if (!Array.isArray(docs) || docs.length === 0) throw new UsageError(`${path}: no YAML document`)
  const doc = docs[0]!
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!
    const line = err.linePos?.[0]?.line
    throw new UsageError(`${path}${line ? `:${line}` : ''}: ${err.message.split('\n')[0]}`)
  }
  return [name, doc.toJS() as CelValue]
}

function readSet(spec: string): [string, CelValue] {
  const eq = spec.indexOf('=')
  if (eq <= 0) throw new UsageError(`--set expects name=json, got '${spec}'`)
  try {
    return [spec.slice(0, eq), JSON.parse(spec.slice(eq + 1)) as CelValue]
  } catch (e) {
    throw new UsageError(`--set ${spec.slice(0, eq)}: not JSON: ${(e as Error).message}`)
  }
}

export function main(argv: string[]): number {
  let code = 0
  const out = (s: string) => process.stdout.write(`${s}\n`)
  const err = (s: string) => process.stderr.write(`${s}\n`)
  const program = new Command()
    .name('kelp')
    .description('Kubernetes CEL policies: compile and run CEL exactly as kube-apiserver does')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
  program
    .command('eval')
    .description('evaluate one CEL expression and print its value and CEL type')
    .argument('<expression>', 'the CEL expression')
    .option('-f, --file <name=path>', 'bind a variable to a YAML or JSON file (repeatable)', collect, [])
    .option('-s, --set <name=json>', 'bind a variable to a JSON value (repeatable)', collect, [])
    .action((expression: string, opts: { file: string[]; set: string[] }) => {
      const activation: Record<string, CelValue> = {}
      for (const f of opts.file) {
        const [k, v] = readBinding(f)
        activation[k] = v
      }
      for (const s of opts.set) {
        const [k, v] = readSet(s)
        activation[k] = v
      }
      const declarations = Object.fromEntries(Object.keys(activation).map((k) => [k, DynType]))
      try {
        const value = compile(expression, { declarations, backend: 'closures' }).evaluate(activation)
        out(`${formatValue(value)} : ${typeValueOf(value).toString()}`)
      } catch (e) {
        if (!(e instanceof CelError)) throw e
        err(e.message)
        code = 1
      }
    })
  try {
    program.parse(argv, { from: 'user' })
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2
    if (e instanceof UsageError) {
      err(`kelp: ${e.message}`)
      return 2
    }
    throw e
  }
  return code
}

process.exitCode = main(process.argv.slice(2))
