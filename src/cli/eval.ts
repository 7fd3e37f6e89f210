import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { formatType } from '../cel/checker/index.js'
import { CelError, type CelValue, compile, DynType, type Type } from '../cel/index.js'
import { formatValue } from '../cel/values/format.js'
import { typeValueOf } from '../cel/values/typeof.js'
import { type AuthzRule, defaultAuthorize, rulesAuthorizer } from '../kube/authz/authorizer.js'
import { AuthorizerType, newAuthorizer } from '../kube/authz/library.js'
import { DEFAULT_KUBE_VERSION, kubeEnv, PerCallLimit, SUPPORTED_VERSIONS } from '../kube/environment.js'
import { decodeStream } from '../kube/yaml/decode.js'
import { parseFirstDocument } from '../manifest/load.js'
import { readError } from '../manifest/paths.js'
import { escapeControls } from '../report/common.js'
import { collect, type Io, UsageError } from '../report/usage.js'

// `kelp eval`: one CEL expression in Kubernetes' CEL environment. Exit codes: 0 success, 1 a CEL error,
// 2 bad usage or input errors. (The kelp command itself, its commands together: src/bin/program.ts.)

/** Reads one YAML or JSON document for a variable binding. */
function readBinding(spec: string): [string, CelValue] {
  const eq = spec.indexOf('=')
  if (eq <= 0) throw new UsageError(`--file expects name=path, got '${spec}'`)
  const name = spec.slice(0, eq)
  const path = spec.slice(eq + 1)
  let text: Buffer
  try {
    text = readFileSync(path) // bytes: invalid UTF-8 is refused as kelp check refuses it
  } catch (e) {
    throw new UsageError(readError(path, e))
  }
  // the same YAML reading as `kelp check` (load.ts)
  const doc = parseFirstDocument(text, path)
  if ('error' in doc) {
    const line = doc.error.source?.line
    throw new UsageError(`${path}${line ? `:${line}` : ''}: ${doc.error.message}`)
  }
  // a variable is one value: binding the first of several documents would evaluate against a guess
  const documents = documentCount(text)
  if (documents > 1)
    throw new UsageError(
      `${path}: ${documents} YAML documents; a variable is bound to one (give a file with one document)`,
    )
  return [name, doc.value as CelValue]
}

/** The documents of a YAML or JSON stream that hold a value (or fail to parse), as kubectl counts objects. */
function documentCount(text: Buffer): number {
  let n = 0
  for (const d of decodeStream(text)) if (d.error !== undefined || (d.value !== null && d.value !== undefined)) n++
  return n
}

function readRules(path: string): AuthzRule[] {
  const [, rules] = readBinding(`rules=${path}`)
  if (!Array.isArray(rules)) throw new UsageError(`${path}: authorization rules must be a list`)
  for (const [i, r] of rules.entries()) {
    const d = (r as { decision?: unknown } | null)?.decision
    if (typeof d !== 'string' || !['allow', 'deny'].includes(d.toLowerCase()))
      throw new UsageError(`${path}: rule ${i}: decision must be allow or deny`)
  }
  return rules as unknown as AuthzRule[]
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

export function addEvalCommand(program: Command, io: Io, setCode: (c: number) => void): void {
  const out = io.out
  const err = io.err
  program
    .command('eval')
    .description(
      "evaluate one CEL expression in Kubernetes' CEL environment and print its value and CEL type " +
        '(exit 1 on a CEL error, 2 on bad usage)',
    )
    .argument('<expression>', 'the CEL expression')
    .option(
      '-f, --file <name=path>',
      'bind a variable (self, object, oldObject, params, request, ...) to a YAML or JSON file (repeatable)',
      collect,
      [],
    )
    .option('-s, --set <name=json>', 'bind a variable to a JSON value (repeatable)', collect, [])
    .option(
      '--kube-version <version>',
      `Kubernetes version of the environment (${SUPPORTED_VERSIONS.join(', ')})`,
      DEFAULT_KUBE_VERSION,
    )
    .option(
      '--stored',
      'use the environment for stored expressions (all functions the version has) instead of new ones',
    )
    .option(
      '--authz-rules <path>',
      'decisions for the `authorizer` variable: a YAML/JSON list of rules (default: no opinion)',
    )
    .option('--user <name>', 'the requesting user for `authorizer` checks', 'kelp-user')
    .option('--cost', 'also print the run-time cost')
    .action(
      (
        expression: string,
        opts: {
          file: string[]
          set: string[]
          kubeVersion: string
          stored?: boolean
          authzRules?: string
          user: string
          cost?: boolean
        },
      ) => {
        if (!(SUPPORTED_VERSIONS as readonly string[]).includes(opts.kubeVersion))
          throw new UsageError(
            `--kube-version: unsupported '${opts.kubeVersion}' (one of ${SUPPORTED_VERSIONS.join(', ')})`,
          )
        const activation: Record<string, CelValue> = {}
        for (const f of opts.file) {
          const [k, v] = readBinding(f)
          activation[k] = v
        }
        for (const s of opts.set) {
          const [k, v] = readSet(s)
          activation[k] = v
        }
        const declarations: Record<string, Type> = Object.fromEntries(Object.keys(activation).map((k) => [k, DynType]))
        const authorize = opts.authzRules ? rulesAuthorizer(readRules(opts.authzRules)) : defaultAuthorize
        activation.authorizer = newAuthorizer({ username: opts.user, groups: ['system:authenticated'] }, authorize)
        declarations.authorizer = AuthorizerType
        const env = kubeEnv({
          version: opts.kubeVersion,
          expressions: opts.stored ? 'stored' : 'new',
          variables: declarations,
        })
        try {
          const program = compile(expression, { env, backend: 'closures', costLimit: PerCallLimit })
          const result = program.run(activation)
          // The checked type when the checker knows it (as cel-go's REPL prints it), else the run-time type.
          const type =
            program.outputType.typeKind === 'dyn' ? typeValueOf(result.value).name : formatType(program.outputType)
          out(`${formatValue(result.value)} : ${type}`)
          if (opts.cost) out(`cost: ${result.cost}`)
        } catch (e) {
          if (!(e instanceof CelError)) throw e
          // the message may quote the input (`no such key: <key>`): control characters shown, not sent
          err(escapeControls(e.message))
          setCode(1)
        }
      },
    )
}
