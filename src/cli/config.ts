import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { ExceptionSpec } from '../check/exceptions.js'
import { MAX_GLOB_LENGTH } from '../check/glob.js'
import { parseSelector } from '../kube/labels-parse.js'
import { isObject } from '../kube/values/json.js'
import { decodeStream } from '../kube/yaml/decode.js'
import { locateField } from '../kube/yaml/locate.js'
import { UsageError } from '../report/usage.js'

// .kelp.yaml: `kelp check`'s configuration file (docs/integrations/config.md; its JSON Schema is
// schemas/kelp-config.schema.json, which test/cli/config-schema.test.ts holds to the tables below). Found upward
// from the working directory (.kelp.yaml, else .kelp.yml, in each directory), the search ending at the first
// directory holding `.git` (the repository's root: a file above it belongs to no project of this one) or at the
// filesystem root; or named with --config; --no-config reads none. Read with kelp's own YAML reader (kubectl's:
// go-yaml's limits), one document; an unknown key or a wrong type is refused naming the file, line and key
// (exit 2). The command line's options win over the file's.

/** The names looked for in each directory, in this order. */
export const CONFIG_NAMES = ['.kelp.yaml', '.kelp.yml'] as const

/** A configuration file larger than this is refused unread (a configuration is a few lines). */
export const MAX_CONFIG_BYTES = 1 << 20
/** The most exceptions, and items in one list, a file may hold (each object is matched against each exception). */
export const MAX_EXCEPTIONS = 1000
export const MAX_LIST_ITEMS = 1000

/** What a key holds: the loader's checks, and what the schema must say (config-schema.test.ts compares them). */
export type KeyType =
  | { readonly type: 'string'; readonly enum?: readonly string[]; readonly format?: 'date' | 'selector' }
  | { readonly type: 'strings'; readonly glob?: boolean }
  | { readonly type: 'exceptions' }

export const FORMATS = ['text', 'json', 'junit', 'sarif', 'github', 'yaml', 'policyreport'] as const
export const FAIL_ON = ['deny', 'warn', 'audit', 'none'] as const
export const PACK_MODES = ['auto', 'add', 'replace', 'off'] as const

/** The file's top-level keys. */
export const CONFIG_KEYS: Readonly<Record<string, KeyType>> = Object.assign(Object.create(null), {
  kubeVersion: { type: 'string' },
  policies: { type: 'strings' },
  pack: { type: 'string', enum: PACK_MODES },
  output: { type: 'string', enum: FORMATS },
  failOn: { type: 'string', enum: FAIL_ON },
  paths: { type: 'strings' },
  exceptions: { type: 'exceptions' },
})

/** An exception's keys (`reason` required). */
export const EXCEPTION_KEYS: Readonly<Record<string, KeyType>> = Object.assign(Object.create(null), {
  reason: { type: 'string' },
  expires: { type: 'string', format: 'date' },
  paths: { type: 'strings', glob: true },
  kinds: { type: 'strings' },
  namespaces: { type: 'strings' },
  names: { type: 'strings', glob: true },
  selector: { type: 'string', format: 'selector' },
  policies: { type: 'strings' },
  rules: { type: 'strings' },
})

/** The configuration as read: paths made relative to the working directory, exceptions as the check takes them. */
export interface KelpConfig {
  /** The file, as found or given. */
  readonly file: string
  /** Its directory (absolute): exceptions' paths are relative to it. */
  readonly dir: string
  readonly kubeVersion?: string
  readonly policies?: readonly string[]
  readonly pack?: (typeof PACK_MODES)[number]
  readonly output?: (typeof FORMATS)[number]
  readonly failOn?: (typeof FAIL_ON)[number]
  readonly paths?: readonly string[]
  readonly exceptions: readonly ExceptionSpec[]
}

/** The configuration file for a working directory: .kelp.yaml or .kelp.yml here or above, up to a git root. */
export function findConfig(from: string): string | undefined {
  let dir = resolve(from)
  for (;;) {
    for (const name of CONFIG_NAMES) {
      const file = join(dir, name)
      if (existsSync(file)) return file
    }
    const up = dirname(dir)
    if (up === dir || existsSync(join(dir, '.git'))) return undefined
    dir = up
  }
}

/** A date YYYY-MM-DD that exists (2026-02-30 does not). */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (m === null) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

const describe = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : isObject(v) ? 'a mapping' : `${typeof v} ${JSON.stringify(v)}`

/** Reads and checks a configuration file; a UsageError (exit 2) names the file, line and key of a mistake. */
export function loadConfig(file: string, cwd = process.cwd()): KelpConfig {
  const shown = relative(cwd, resolve(cwd, file)) || file
  let size: number
  try {
    const st = statSync(file)
    if (!st.isFile()) throw new UsageError(`${shown}: not a file`)
    size = st.size
  } catch (e) {
    if (e instanceof UsageError) throw e
    throw new UsageError(`${shown}: cannot read the configuration: ${(e as Error).message}`)
  }
  if (size > MAX_CONFIG_BYTES)
    throw new UsageError(`${shown}: the configuration is ${size} bytes, more than ${MAX_CONFIG_BYTES} kelp reads`)
  const bytes = readFileSync(file)
  const docs = [...decodeStream(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))]
  const first = docs.find((d) => d.error !== undefined || d.value !== undefined)
  if (first?.error !== undefined)
    throw new UsageError(
      `${shown}:${first.error.line}${first.error.column !== undefined ? `:${first.error.column}` : ''}: ${first.error.message}`,
    )
  if (docs.filter((d) => d.value !== undefined || d.error !== undefined).length > 1)
    throw new UsageError(`${shown}:${docs[1]?.line ?? 1}: one YAML document, not several`)
  const dir = dirname(resolve(cwd, file))
  const value = first?.value
  if (value === undefined || value === null) return { file, dir, exceptions: [] }
  const text = first!.text
  const line = first!.line
  const at = (path: readonly (string | number)[]): string => {
    const p = locateField(text, { line }, path, line)
    return `${shown}:${p.line}:${p.column}`
  }
  const name = (path: readonly (string | number)[]): string =>
    path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('')
  const fail = (path: readonly (string | number)[], message: string): never => {
    throw new UsageError(`${at(path)}: ${path.length > 0 ? `${name(path)}: ` : ''}${message}`)
  }
  if (!isObject(value)) fail([], `the configuration is a mapping of settings, not ${describe(value)}`)
  const root = value as Record<string, unknown>

  const check = (v: unknown, type: KeyType, path: (string | number)[]): unknown => {
    switch (type.type) {
      case 'string': {
        if (typeof v !== 'string' || v === '') {
          const hint = typeof v === 'number' && path[0] === 'kubeVersion' ? ' (quote it: "1.30" is not 1.3)' : ''
          return fail(path, `a non-empty string, not ${describe(v)}${hint}`)
        }
        if (type.enum !== undefined && !type.enum.includes(v))
          fail(path, `one of ${type.enum.join(', ')}, not ${JSON.stringify(v)}`)
        if (type.format === 'date' && !isDate(v)) fail(path, `a date YYYY-MM-DD, not ${JSON.stringify(v)}`)
        if (type.format === 'selector')
          try {
            parseSelector(v)
          } catch (e) {
            fail(path, `not a label selector: ${(e as Error).message}`)
          }
        return v
      }
      case 'strings': {
        if (!Array.isArray(v)) return fail(path, `a list of strings, not ${describe(v)}`)
        if (v.length > MAX_LIST_ITEMS) fail(path, `at most ${MAX_LIST_ITEMS} items, not ${v.length}`)
        v.forEach((s, i) => {
          if (typeof s !== 'string' || s === '') fail([...path, i], `a non-empty string, not ${describe(s)}`)
          if (type.glob === true && (s as string).length > MAX_GLOB_LENGTH)
            fail([...path, i], `a glob of at most ${MAX_GLOB_LENGTH} characters`)
        })
        return v as string[]
      }
      case 'exceptions': {
        if (!Array.isArray(v)) return fail(path, `a list of exceptions, not ${describe(v)}`)
        if (v.length > MAX_EXCEPTIONS) fail(path, `at most ${MAX_EXCEPTIONS} exceptions, not ${v.length}`)
        return v.map((e, i) => exception(e, [...path, i]))
      }
    }
  }

  const keysOf = (o: Record<string, unknown>, table: Readonly<Record<string, KeyType>>, path: (string | number)[]) => {
    for (const k of Object.keys(o))
      if (!Object.hasOwn(table, k)) fail([...path, k], `unknown key (known: ${Object.keys(table).join(', ')})`)
  }

  const exception = (e: unknown, path: (string | number)[]): ExceptionSpec => {
    if (!isObject(e)) return fail(path, `an exception is a mapping with a reason, not ${describe(e)}`)
    const o = e as Record<string, unknown>
    keysOf(o, EXCEPTION_KEYS, path)
    if (!Object.hasOwn(o, 'reason')) fail(path, 'an exception needs a reason (why it is accepted)')
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(EXCEPTION_KEYS))
      if (Object.hasOwn(o, k)) out[k] = check(o[k], EXCEPTION_KEYS[k]!, [...path, k])
    const p = locateField(text, { line }, path, line)
    out.source = { file: shown, line: p.line, column: p.column }
    return out as unknown as ExceptionSpec
  }

  keysOf(root, CONFIG_KEYS, [])
  const get = (k: string): unknown => (Object.hasOwn(root, k) ? check(root[k], CONFIG_KEYS[k]!, [k]) : undefined)
  // paths in the file are relative to it; the check is given them relative to the working directory
  const fromFile = (ps: unknown): string[] | undefined =>
    ps === undefined ? undefined : (ps as string[]).map((p) => relative(cwd, resolve(dir, p)) || '.')
  const kubeVersion = get('kubeVersion') as string | undefined
  const policies = fromFile(get('policies'))
  const pack = get('pack') as KelpConfig['pack']
  const output = get('output') as KelpConfig['output']
  const failOn = get('failOn') as KelpConfig['failOn']
  const paths = fromFile(get('paths'))
  const exceptions = (get('exceptions') as ExceptionSpec[] | undefined) ?? []
  return {
    file,
    dir,
    ...(kubeVersion !== undefined ? { kubeVersion } : {}),
    ...(policies !== undefined ? { policies } : {}),
    ...(pack !== undefined ? { pack } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(failOn !== undefined ? { failOn } : {}),
    ...(paths !== undefined ? { paths } : {}),
    exceptions,
  }
}

/** The configuration a run uses: --config's file, none with --no-config, else the one found from `cwd`. */
export function configFor(option: string | boolean | undefined, cwd = process.cwd()): KelpConfig | undefined {
  if (option === false) return undefined
  if (typeof option === 'string') return loadConfig(option, cwd)
  const found = findConfig(cwd)
  return found === undefined ? undefined : loadConfig(relative(cwd, found) || found, cwd)
}
