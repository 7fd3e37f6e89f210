import { existsSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { Finding } from '../report/model.js'
import { UsageError } from '../report/usage.js'
import { isManifestName } from './paths.js'

// `kelp check --base <rev>`: the previous revision of the inputs, read from git in one pass per
// repository (ls-tree of the revision, then every manifest blob through one `cat-file --batch`),
// not one `git show` per file: 5,000 files cost two git processes, not 5,000. The old revision is
// every manifest file at <rev> under the input directories (a file input: its directory), so an
// object whose file was renamed or moved there is still found by its identity, as --old does.

/** A file of the old revision: its path as reported (`<rev>:<path in the repository>`) and text. */
export interface RevisionFile {
  readonly name: string
  readonly text: Buffer
  /** The same path is one of the current inputs (its parse errors are worth reporting). */
  readonly isInput: boolean
}

const MAX_BUFFER = 2 ** 31 - 1

function git(args: readonly string[], cwd: string, input?: string): Buffer {
  // required here, not imported: node:child_process costs ~4 ms of every start, and only --base needs it
  const { execFileSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')
  return execFileSync('git', args, {
    cwd,
    maxBuffer: MAX_BUFFER,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(input !== undefined ? { input } : {}),
  })
}

/** git's own words from a failed call (its stderr), one line. */
function gitMessage(e: unknown): string {
  const err = e as { stderr?: Buffer | string; code?: string; message: string }
  if (err.code === 'ENOENT') return 'git is not installed (not found on PATH)'
  const text = (err.stderr?.toString() ?? '').trim().split('\n')[0]
  return text !== undefined && text !== '' ? text : (err.message.split('\n')[0] ?? 'git failed')
}

/** The work tree holding `dir`: the nearest parent with `.git` (a directory, or a file for worktrees). */
function workTreeOf(dir: string, cache: Map<string, string | undefined>): string | undefined {
  const seen: string[] = []
  let d = dir
  for (;;) {
    if (cache.has(d)) {
      const top = cache.get(d)
      for (const s of seen) cache.set(s, top)
      return top
    }
    seen.push(d)
    if (existsSync(join(d, '.git'))) {
      for (const s of seen) cache.set(s, d)
      return d
    }
    const up = dirname(d)
    if (up === d) {
      for (const s of seen) cache.set(s, undefined)
      return undefined
    }
    d = up
  }
}

interface Scope {
  /** Directories (relative to the work tree, `/`-separated, '' for the top) whose manifests are read. */
  readonly dirs: Set<string>
  /** The current input files (relative paths): the same path at <rev> is their previous revision. */
  readonly inputs: Set<string>
}

const posix = (p: string) => p.split(sep).join('/')

/**
 * The files of the previous revision for the input paths. Throws UsageError when git is missing, a
 * path is not in a git work tree, or the revision does not exist there.
 */
export function readRevision(
  rev: string,
  paths: readonly string[],
  current: readonly string[],
): { files: RevisionFile[]; errors: Finding[] } {
  const errors: Finding[] = []
  const trees = new Map<string, Scope>()
  const cache = new Map<string, string | undefined>()
  for (const p of paths) {
    if (p === '-') continue
    const abs = resolve(p)
    let isDir: boolean
    try {
      isDir = statSync(abs).isDirectory()
    } catch {
      continue // reported by the current revision's reading
    }
    const dir = isDir ? abs : dirname(abs)
    const top = workTreeOf(dir, cache)
    if (top === undefined) throw new UsageError(`--base: ${p} is not in a git work tree`)
    let scope = trees.get(top)
    if (scope === undefined) {
      scope = { dirs: new Set(), inputs: new Set() }
      trees.set(top, scope)
    }
    scope.dirs.add(posix(relative(top, dir)))
  }
  for (const f of current) {
    if (f === '-') continue
    const abs = resolve(f)
    const top = workTreeOf(dirname(abs), cache)
    if (top !== undefined) trees.get(top)?.inputs.add(posix(relative(top, abs)))
  }
  const files: RevisionFile[] = []
  for (const [top, scope] of trees) {
    let commit: string
    try {
      // --end-of-options: a revision that starts with '-' is a revision, never an option
      commit = git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], top)
        .toString()
        .trim()
    } catch (e) {
      const why = (e as { status?: number }).status === 1 ? 'no such revision' : gitMessage(e)
      throw new UsageError(`--base: unknown revision '${rev}' in ${top} (${why})`)
    }
    let listing: string
    try {
      listing = git(['ls-tree', '-r', '-z', '--full-tree', commit], top).toString('utf8')
    } catch (e) {
      throw new UsageError(`--base ${rev}: cannot list the files of ${top}: ${gitMessage(e)}`)
    }
    const wanted: { oid: string; path: string }[] = []
    const inScope = (path: string) => {
      for (const d of scope.dirs) if (d === '' || path.startsWith(`${d}/`)) return true
      return false
    }
    for (const entry of listing.split('\0')) {
      // <mode> SP <type> SP <object> TAB <path>
      const tab = entry.indexOf('\t')
      if (tab < 0) continue
      const [mode, type, oid] = entry.slice(0, tab).split(' ')
      const path = entry.slice(tab + 1)
      if (type !== 'blob' || mode === '120000' || oid === undefined) continue // links, submodules
      // the files a kubectl walk of the input directories reads (paths.ts): dot-files included
      const base = path.slice(path.lastIndexOf('/') + 1)
      if (!scope.inputs.has(path) && !(inScope(path) && isManifestName(base))) continue
      wanted.push({ oid, path })
    }
    if (wanted.length === 0) continue
    let out: Buffer
    try {
      out = git(['cat-file', '--batch'], top, `${wanted.map((w) => w.oid).join('\n')}\n`)
    } catch (e) {
      throw new UsageError(`--base ${rev}: cannot read the files of ${top}: ${gitMessage(e)}`)
    }
    // each answer: `<oid> blob <size>\n<content>\n`
    let at = 0
    for (const w of wanted) {
      const nl = out.indexOf(10, at)
      if (nl < 0) break
      const header = out.toString('latin1', at, nl).split(' ')
      const size = Number(header[2])
      if (header[1] !== 'blob' || !Number.isFinite(size)) {
        errors.push({
          level: 'error',
          type: 'parse',
          rule: 'input/git',
          message: `--base ${rev}: cannot read ${w.path}: ${header.join(' ')}`,
          source: { file: `${rev}:${w.path}` },
        })
        at = nl + 1
        continue
      }
      files.push({
        name: `${rev}:${w.path}`,
        text: out.subarray(nl + 1, nl + 1 + size),
        isInput: scope.inputs.has(w.path),
      })
      at = nl + 1 + size + 1
    }
  }
  return { files, errors }
}
