import type { PodSecurityConfiguration } from '../builtin/admission/podsecurity/admission.js'
import type { KubeVersion } from '../kube/environment.js'
import type { UserInfo } from '../policy/attributes.js'
import type { Exceptions } from './exceptions.js'

// What a check is asked: the inputs, the material beside them, the previous revision, the target release.

export interface CheckOptions {
  readonly paths: readonly string[]
  /** Extra policy material (VAPs, bindings, params, CRDs, Namespaces). */
  readonly policies?: readonly string[]
  /** The previous revision: files or directories. */
  readonly old?: readonly string[]
  /** The previous revision as a git revision: each input file is read at that revision. */
  readonly base?: string
  /** The CEL environment's version (the nearest kelp supports to the target). */
  readonly kubeVersion: KubeVersion
  /** The target release for API versions (default: kubeVersion). */
  readonly target?: string
  /** Namespace for namespaced objects without one (kubectl's context namespace). */
  readonly namespace?: string
  /**
   * Inputs that hold no Kubernetes object are not an error (a pre-commit hook runs on whatever YAML a commit
   * touches); kubectl apply's `no objects passed to apply` otherwise.
   */
  readonly allowEmpty?: boolean
  /** Standard input's text (tests, the library); the CLI reads it as a stream instead (stdinStream). */
  readonly stdin?: () => string | Buffer
  /** Standard input as a stream for checkParallel (default: process.stdin), read when `-` is an input. */
  readonly stdinStream?: AsyncIterable<Buffer | string>
  /** OpenAPI v3 documents (JSON files) of built-in group-versions, for type checking the policies. */
  readonly openapi?: readonly string[]
  /**
   * The bundled pack: `auto` (default) applies it unless the inputs or --policies hold admission policies
   * of their own; `add` applies it beside them; `off` (or its other name `replace`) never applies it. The
   * report says when it is not applied and why (`pack`, and an info diagnostic).
   */
  readonly pack?: PackMode
  /**
   * Accepted findings (.kelp.yaml's `exceptions`; the objects' `kelp.dev/exceptions` annotation is read when this
   * is given): reported as excepted, not counted in outcomes or the exit code (exceptions.ts).
   */
  readonly exceptions?: Exceptions
  /**
   * Who sends the requests (`--as`, `--as-group`, `--as-uid`, `--as-user-extra`: the user kubectl impersonates, as
   * the apiserver's impersonation filter makes it; userInfoOf); default the engine's DEFAULT_USER.
   */
  readonly user?: UserInfo
  /** The PodSecurity plugin's configuration (--admission-control-config-file); default kube-apiserver's. */
  readonly podSecurity?: PodSecurityConfiguration
  /** Objects held after the first pass before the run switches to reading the inputs again (HOLD_OBJECTS). */
  readonly holdObjects?: number
  /**
   * Called once when the inputs are larger than HOLD_BYTES: before they are read (standard input: as soon as that
   * many bytes have come). The run then holds no object; what the process owner does about its heap is its own
   * (the CLI: src/cli/commands.ts).
   */
  readonly onLargeInput?: () => void
}

/**
 * What the bundled pack does beside the policies of the inputs (--pack). `replace` is another name for
 * `off`: with policies of one's own, both leave the pack out as `auto` does; without, both apply nothing.
 */
export type PackMode = 'auto' | 'add' | 'replace' | 'off'

/**
 * Which results a run keeps: `all`; `findings`, only those with findings (the text, SARIF and GitHub
 * formats show no others); `stored`, all, each with the object as the cluster would store it (-o yaml).
 * The summary counts all in every case.
 */
export type Keep = 'all' | 'findings' | 'stored'
