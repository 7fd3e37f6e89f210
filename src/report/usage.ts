import { parseKubeVersion } from '../engine/api-versions.js'
import { DEFAULT_KUBE_VERSION, type KubeVersion, SUPPORTED_VERSIONS } from '../kube/environment.js'

// What the kelp command's faces share on the command line (below them, so that `kelp check` / `kelp test`
// and `kelp serve` read their arguments alike without importing each other): the usage error the
// command reports as `kelp: <message>` (exit 2), where the command writes, and --kube-version.

/** A command-line mistake: reported as `kelp: <message>`, exit code 2. */
export class UsageError extends Error {}

/** Where the CLI writes (stdout lines, stderr lines); tests capture them. */
export interface Io {
  out(line: string): void
  err(line: string): void
  /** Whether stdout is a terminal that shows colour (TTY and no NO_COLOR). */
  readonly color?: boolean
}

/**
 * --kube-version: any release the API-version table knows; CEL evaluates in the nearest environment
 * kelp has (the supported versions' environments differ only in functions added or removed).
 */
export function kubeVersionOf(input: string): { target: string; env: KubeVersion } {
  let v = input
  const parsed = parseKubeVersion(v)
  if (!parsed.ok) throw new UsageError(`--kube-version: ${parsed.error}`)
  v = parsed.target
  const minor = (x: string) => Number(x.split('.')[1])
  const envs = SUPPORTED_VERSIONS as readonly KubeVersion[]
  const env =
    envs.find((e) => e === v) ?? (minor(v) < minor(envs[0] as string) ? envs[0] : envs.at(-1)) ?? DEFAULT_KUBE_VERSION
  return { target: v, env }
}

/** A repeatable option's values (commander's argParser). */
export const collect = (value: string, previous: string[]): string[] => [...previous, value]
