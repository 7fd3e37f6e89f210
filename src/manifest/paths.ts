import { lstatSync, readdirSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import { goQuote } from '../cel/ext/quote.js'
import { compareStrings } from '../cel/values/strings.js'
import type { Finding } from '../report/model.js'
import { inputError } from './parse.js'

// Which files `kelp check dir/` reads, as `kubectl apply -R -f dir/` does (cli-runtime 1.37
// pkg/resource/visitor.go ExpandPathsToFileVisitors, a filepath.Walk): a directory is walked in name
// order for files whose extension (Go's filepath.Ext: from the last dot of the name, case-sensitive) is
// .json, .yaml or .yml (builder.go FileExtensions); a path given explicitly is read whatever its
// extension. Nothing is skipped by name: dot-files and dot-directories (`.hidden.yaml`, a file named
// `.yaml`, `.github/`, `.git/`) are read as kubectl reads them. Walk lstats, so a symbolic link to a
// file is read through the link and a link to a directory is not entered (which also rules out loops).
// Unlike kubectl, one unreadable entry does not stop the walk: it is reported where it is and the rest
// is still read.
//
// The CLI walks as kubectl does (`kubectl: true`). Without it (`kelp serve`'s policy paths, `kelp test`'s
// search for suites) dot-entries are skipped and extensions matched in any case: a ConfigMap volume's
// `..<timestamp>` directory, which `..data` and the visible files link to, is not read a second time.

export const MANIFEST_EXTENSIONS: ReadonlySet<string> = new Set(['.yaml', '.yml', '.json'])

/** Go's filepath.Ext of a file name: from its last dot (`.yaml` for a file named `.yaml`), else empty. */
export function goExt(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot < 0 ? '' : name.slice(dot)
}

/** Whether a directory walk reads the file `name`: kubectl's extension match, exact (cli-runtime ignoreFile). */
export const isManifestName = (name: string): boolean => MANIFEST_EXTENSIONS.has(goExt(name))

export interface ExpandOptions {
  /**
   * kubectl's walk: dot-entries read, extensions matched exactly. Default false: dot-entries skipped and
   * extensions matched in any case (kelp serve's policy volumes).
   */
  readonly kubectl?: boolean
  /** Names of directories not walked into (`node_modules`); a directory given is still walked. */
  readonly skipDirectories?: ReadonlySet<string>
}

/**
 * What kelp check and kelp test do not walk into: a project's dependencies hold thousands of JSON files and
 * no manifest (kubectl apply -R would read each and refuse most); naming the directory still checks it.
 */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules'])

// an input that cannot be read or parsed (parse.ts: the page parses text without this file's node:fs)
export { inputError }

// errno texts as Go's syscall package prints them (glibc's strerror), where libuv words them otherwise
const GO_ERRNO: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many levels of symbolic links',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
  EIO: 'input/output error',
}

/** An error's text without Node's `CODE: ` prefix and `, syscall 'path'` suffix: Go's words for the errno. */
function errnoText(e: unknown): string {
  const err = e as NodeJS.ErrnoException
  if (err.code !== undefined && GO_ERRNO[err.code] !== undefined) return GO_ERRNO[err.code] as string
  const m = /^[A-Z0-9_]+: (.*?), \w+(?: '.*')?$/s.exec(err.message ?? '')
  return m?.[1] ?? err.message ?? String(e)
}

/**
 * A failed read of `path` as kubectl prints it (Go's *PathError: `open x.yaml: no such file or directory`),
 * not Node's errno code.
 */
export function readError(path: string, e: unknown): string {
  const syscall = (e as NodeJS.ErrnoException).syscall
  // Go opens a directory to list it (Node's scandir) and a file to read it
  const op = syscall === undefined || syscall === 'scandir' ? 'open' : syscall
  return `${op} ${path}: ${errnoText(e)}`
}

/**
 * A path named on the command line that cannot be read, in kubectl's words (cli-runtime builder.go Path:
 * `the path "x" does not exist`, else `the path "x" cannot be accessed: stat x: <errno>`); a dangling link
 * is said to be one.
 */
function namedPathError(p: string, e: unknown, isLink: boolean): string {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT')
    return `the path ${goQuote(p)} does not exist${isLink ? ' (a dangling symbolic link: its target does not exist)' : ''}`
  return `the path ${goQuote(p)} cannot be accessed: stat ${p}: ${errnoText(e)}`
}

/** A link found in a walk that cannot be read (kubectl opens it: `open x: <errno>`), what a dangling one is said. */
function linkProblem(path: string, e: unknown): string {
  const text = `open ${path}: ${errnoText(e)}`
  return (e as NodeJS.ErrnoException).code === 'ENOENT'
    ? `${text} (a dangling symbolic link: its target does not exist)`
    : text
}

/** The files named by `paths`: files as given, directories walked in name order. */
export function expandPaths(
  paths: readonly string[],
  options: ExpandOptions = {},
): { files: string[]; errors: Finding[]; notes: Finding[] } {
  const kubectl = options.kubectl === true
  const files: string[] = []
  const errors: Finding[] = []
  const notes: Finding[] = []
  const walk = (dir: string) => {
    let names: string[]
    try {
      // os.ReadDir sorts by name, as Go compares strings (bytes)
      names = readdirSync(dir).sort(compareStrings)
    } catch (e) {
      errors.push(inputError(dir, readError(dir, e)))
      return
    }
    for (const name of names) {
      if (!kubectl && name.startsWith('.')) continue
      const p = join(dir, name)
      let st: ReturnType<typeof lstatSync>
      try {
        st = lstatSync(p)
      } catch (e) {
        errors.push(inputError(p, readError(p, e)))
        continue
      }
      if (st.isDirectory()) {
        if (options.skipDirectories?.has(name) !== true) walk(p)
        else
          notes.push({
            level: 'info',
            type: 'parse',
            rule: 'input/skipped-directory',
            message: `${p}: directory not walked (a project's dependencies, not manifests); name it to check it`,
            source: { file: p },
          })
        continue
      }
      const manifest = kubectl ? isManifestName(name) : MANIFEST_EXTENSIONS.has(extname(name).toLowerCase())
      if (!st.isSymbolicLink()) {
        if (manifest && st.isFile()) files.push(p)
        continue
      }
      // a link: read through it when it names a manifest file; never walk into a linked directory
      let target: ReturnType<typeof statSync>
      try {
        target = statSync(p)
      } catch (e) {
        if (manifest) errors.push(inputError(p, linkProblem(p, e)))
        continue
      }
      if (target.isDirectory()) {
        notes.push({
          level: 'info',
          type: 'parse',
          rule: 'input/symlink',
          message: `${p}: symbolic link to a directory not followed (as kubectl apply -R); name the directory to check it`,
          source: { file: p },
        })
      } else if (manifest) files.push(p)
    }
  }
  for (const p of paths) {
    if (p === '-') {
      files.push('-')
      continue
    }
    try {
      if (statSync(p).isDirectory()) walk(p)
      else files.push(p)
    } catch (e) {
      let isLink = false
      try {
        isLink = lstatSync(p).isSymbolicLink()
      } catch {}
      errors.push(inputError(p, namedPathError(p, e, isLink)))
    }
  }
  return { files, errors, notes }
}
