import { lstatSync, readdirSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import type { Finding, SourceRef } from '../report/model.js'

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
  /** Names of directories not walked into (kelp test: `node_modules`); a directory given is still walked. */
  readonly skipDirectories?: ReadonlySet<string>
}

export function inputError(file: string, message: string, line?: number, column?: number, document?: number): Finding {
  const source: SourceRef = {
    file,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(document !== undefined ? { document } : {}),
  }
  return { level: 'error', type: 'parse', message, source, rule: 'input/parse' }
}

const code = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message

/** What a failed stat of a link means, in words (the errno alone says little to a user). */
function linkProblem(path: string, e: unknown): string {
  const c = code(e)
  if (c === 'ENOENT') return `cannot read ${path}: dangling symbolic link (its target does not exist)`
  if (c === 'ELOOP') return `cannot read ${path}: symbolic link loop (ELOOP)`
  return `cannot read ${path}: ${c}`
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
      names = readdirSync(dir).sort()
    } catch (e) {
      errors.push(inputError(dir, `cannot read ${dir}: ${code(e)}`))
      return
    }
    for (const name of names) {
      if (!kubectl && name.startsWith('.')) continue
      const p = join(dir, name)
      let st: ReturnType<typeof lstatSync>
      try {
        st = lstatSync(p)
      } catch (e) {
        errors.push(inputError(p, `cannot read ${p}: ${code(e)}`))
        continue
      }
      if (st.isDirectory()) {
        if (options.skipDirectories?.has(name) !== true) walk(p)
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
      errors.push(inputError(p, isLink ? linkProblem(p, e) : `cannot read ${p}: ${code(e)}`))
    }
  }
  return { files, errors, notes }
}
