// Built-in API versions per Kubernetes release: which apiVersion/kind a kube-apiserver of a given
// minor version serves, warns about or no longer serves, and the exact texts the apiserver and
// kubectl print. See ../../docs/api-versions.md and ../shared/spec/api-deprecations.md.
//
// The table is data: one row per GVK, values copied from the generated APILifecycle*() methods
// (`api:<group>/<version>/zz_generated.prerelease-lifecycle.go`, kubernetes/api master @ 10b39a39,
// i.e. Kubernetes 1.37 pre-release), cross-checked against every release-1.19 … release-1.36
// branch; plus the Deprecated API Migration Guide (kubernetes/website
// content/en/docs/reference/using-api/deprecation-guide.md, newest section v1.32) for what the
// lifecycle data lacks (what to migrate to, when the replacement became available).

import { API_VERSIONS, type ApiVersionRow, type BranchValues } from '../kube/api-lifecycle.js'
import { BoundedMemo } from '../kube/memo.js'

/** A Kubernetes minor release, `1.<minor>`. */
export type KubeTarget = `1.${number}`

/** Releases this table answers for: 1.16 (first release of the migration guide) to 1.37 (api master). */
export const SUPPORTED_TARGETS = [
  '1.16',
  '1.17',
  '1.18',
  '1.19',
  '1.20',
  '1.21',
  '1.22',
  '1.23',
  '1.24',
  '1.25',
  '1.26',
  '1.27',
  '1.28',
  '1.29',
  '1.30',
  '1.31',
  '1.32',
  '1.33',
  '1.34',
  '1.35',
  '1.36',
  '1.37',
] as const satisfies readonly KubeTarget[]

/** The release kube-apiserver started sending deprecation warnings (`Warning` header, KEP-1693). */
export const WARNINGS_SINCE = '1.19'

// the table moved to src/kube (the REST mapping of a release reads it); exported here as before
export { API_VERSIONS, type ApiVersionRow, type BranchValues }

// ── Queries ──────────────────────────────────────────────────────────────────────────────────────

export interface GroupVersionKindRef {
  readonly apiVersion: string
  readonly kind: string
}

export interface ApiVersionStatus {
  /**
   * At the target release: `served` (no deprecation), `deprecated` (served, with the apiserver's
   * warning from 1.19 on), `removed` (no longer served), `unknown` (not in the table, or a
   * version the table knows only from a later release: then `introducedIn` and `message` are set).
   */
  readonly status: 'served' | 'deprecated' | 'removed' | 'unknown'
  /** What kube-apiserver sends in its `Warning` header (kubectl prints `Warning: <text>`). */
  readonly warning?: string
  /** What to migrate to, as served at the target when possible. */
  readonly replacement?: GroupVersionKindRef
  /** Set when `replacement` is not yet served at the target: the release it arrives. */
  readonly replacementAvailableIn?: string
  readonly deprecatedIn?: string
  readonly removedIn?: string
  readonly introducedIn?: string
  /** The client error when the target does not serve it: `no matches for kind "<Kind>" in version "<apiVersion>"`. */
  readonly message?: string
  /** Alpha, or beta added after KEP-3136: a default cluster does not serve it. */
  readonly offByDefault?: {
    /** The kube-apiserver flag that turns it on. */
    readonly runtimeConfig: string
    /** What a cluster with default flags answers. */
    readonly message: string
  }
  readonly stability?: 'alpha' | 'beta' | 'ga'
  /** The table row the answer comes from. */
  readonly row?: ApiVersionRow
}

/** The known Kubernetes releases as `1.<minor>` (a `KubeTarget`). */
export function isSupportedTarget(v: string): v is (typeof SUPPORTED_TARGETS)[number] {
  return (SUPPORTED_TARGETS as readonly string[]).includes(v)
}

/**
 * Reads a `--kube-version` argument: `1.30`, `v1.30`, `1.30.2`, `v1.30.2-eks-1234` or `v1.30.2+k3s1`
 * (what `kubectl version` prints) all mean 1.30; the minor must be one of SUPPORTED_TARGETS.
 */
export function parseKubeVersion(input: string): { ok: true; target: KubeTarget } | { ok: false; error: string } {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?$/.exec(input.trim())
  const range = `${SUPPORTED_TARGETS[0]} to ${SUPPORTED_TARGETS[SUPPORTED_TARGETS.length - 1]}`
  if (!m) return { ok: false, error: `invalid Kubernetes version '${input}' (expected 1.<minor>, such as 1.36)` }
  const target = `${Number(m[1])}.${Number(m[2])}`
  if (!isSupportedTarget(target))
    return { ok: false, error: `unsupported Kubernetes version '${input}' (supported: ${range})` }
  return { ok: true, target }
}

/** `no matches for kind %q in version %q` (apimachinery pkg/api/meta/errors.go NoKindMatchError). */
export function noMatchesMessage(kind: string, apiVersion: string): string {
  return `no matches for kind ${goQuote(kind)} in version ${goQuote(apiVersion)}`
}

/**
 * kubectl's whole error for an object whose kind the cluster does not serve (cli-runtime
 * pkg/resource/mapper.go); kubectl prints it after `error: `.
 */
export function resourceMappingError(
  obj: { name: string; namespace?: string; source: string } & GroupVersionKindRef,
): string {
  return (
    `resource mapping not found for name: ${goQuote(obj.name)} namespace: ${goQuote(obj.namespace ?? '')} ` +
    `from ${goQuote(obj.source)}: ${noMatchesMessage(obj.kind, obj.apiVersion)}\nensure CRDs are installed first`
  )
}

/**
 * apiserver pkg/endpoints/deprecation/deprecation.go WarningMessage:
 * `<group/version> <Kind> is deprecated in v<D>+[, unavailable in v<R>+][; use <group/version> <Kind>]`.
 */
export function deprecationWarning(
  apiVersion: string,
  kind: string,
  deprecated: string,
  removed?: string,
  replacement?: string,
): string {
  let msg = `${apiVersion} ${kind} is deprecated in v${deprecated}+`
  if (removed) msg += `, unavailable in v${removed}+`
  if (replacement) msg += `; use ${replacement}`
  return msg
}

const INDEX = new Map<string, ApiVersionRow>(API_VERSIONS.map((r) => [`${r.apiVersion} ${r.kind}`, r]))

/** The table row for apiVersion + kind (a `<Kind>List` resolves to its item kind). */
export function lookupApiVersion(apiVersion: string, kind: string): ApiVersionRow | undefined {
  const row = INDEX.get(`${apiVersion} ${kind}`)
  if (row || !kind.endsWith('List')) return row
  return INDEX.get(`${apiVersion} ${kind.slice(0, -4)}`)
}

/**
 * What a kube-apiserver of release `target` (default flags) does with `apiVersion` / `kind`.
 * Throws a RangeError for a target outside SUPPORTED_TARGETS (see parseKubeVersion).
 */
export function apiVersionStatus(apiVersion: string, kind: string, target: string): ApiVersionStatus {
  // a pure function of its arguments, asked once per object: answered from a memo (bounded: hostile
  // inputs may name any number of kinds)
  const key = `${target} ${apiVersion} ${kind}`
  return statusMemo.get(key) ?? statusMemo.set(key, computeApiVersionStatus(apiVersion, kind, target))
}
const statusMemo = new BoundedMemo<string, ApiVersionStatus>(4096)

function computeApiVersionStatus(apiVersion: string, kind: string, target: string): ApiVersionStatus {
  const parsed = parseKubeVersion(target)
  if (!parsed.ok) throw new RangeError(parsed.error)
  const t = minor(parsed.target)
  const row = lookupApiVersion(apiVersion, kind)
  if (!row) return { status: 'unknown' }
  const v = valuesAt(row, t)
  const removedIn = earliest(v.removed, row.typeGoneIn)
  const base = {
    stability: row.stability,
    row,
    ...(v.deprecated && { deprecatedIn: v.deprecated }),
    ...(removedIn && { removedIn }),
    ...(row.introduced && { introducedIn: row.introduced }),
  }
  if (removedIn && minor(removedIn) <= t)
    return { status: 'removed', ...base, message: noMatchesMessage(kind, apiVersion), ...suggest(row, t) }
  if (row.introduced && minor(row.introduced) > t)
    return { status: 'unknown', ...base, message: noMatchesMessage(kind, apiVersion) }
  const offByDefault =
    row.enabledByDefault === false
      ? { runtimeConfig: `--runtime-config=${apiVersion}=true`, message: noMatchesMessage(kind, apiVersion) }
      : undefined
  const off = offByDefault && { offByDefault }
  if (!v.deprecated || minor(v.deprecated) > t) return { status: 'served', ...base, ...off }
  const warning =
    t >= minor(WARNINGS_SINCE)
      ? deprecationWarning(apiVersion, row.kind, v.deprecated, v.removed, v.warnReplacement)
      : undefined
  return { status: 'deprecated', ...base, ...(warning && { warning }), ...suggest(row, t), ...off }
}

// ── Helpers ──────────────────────────────────────────────────────────────────────────────────────

function minor(v: string): number {
  const m = /^1\.(\d+)$/.exec(v)
  if (!m) throw new Error(`api-versions: bad release '${v}'`)
  return Number(m[1])
}

function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b
  if (!b) return a
  return minor(a) <= minor(b) ? a : b
}

/** The lifecycle values compiled into release `t` (row values unless a branch says otherwise). */
function valuesAt(row: ApiVersionRow, t: number): { deprecated?: string; removed?: string; warnReplacement?: string } {
  let { deprecated, removed, warnReplacement } = row
  for (const b of row.branches ?? []) {
    if (t < minor(b.from) || t > minor(b.to)) continue
    if (b.deprecated !== undefined) deprecated = b.deprecated ?? undefined
    if (b.removed !== undefined) removed = b.removed ?? undefined
    if (b.warnReplacement !== undefined) warnReplacement = b.warnReplacement ?? undefined
  }
  return { deprecated, removed, warnReplacement }
}

type Availability = 'served' | 'deprecated' | 'off' | 'later' | 'removed'

function availability(ref: string, t: number): Availability {
  const [apiVersion = '', kind = ''] = ref.split(' ')
  const row = INDEX.get(`${apiVersion} ${kind}`)
  if (!row) return 'served'
  const v = valuesAt(row, t)
  const removed = earliest(v.removed, row.typeGoneIn)
  if (removed && minor(removed) <= t) return 'removed'
  if (row.introduced && minor(row.introduced) > t) return 'later'
  if (row.enabledByDefault === false) return 'off'
  return v.deprecated && minor(v.deprecated) <= t ? 'deprecated' : 'served'
}

/**
 * What to migrate to at release t: walks the replacement chain (each row's `replacement`, else its
 * lifecycle replacement) and takes the first version served and not deprecated, else the first one
 * served, else the first not yet released (with when it arrives). Nothing when every step is removed.
 */
function suggest(row: ApiVersionRow, t: number): Pick<ApiVersionStatus, 'replacement' | 'replacementAvailableIn'> {
  const chain: string[] = []
  let cur: ApiVersionRow | undefined = row
  while (cur && chain.length < 8) {
    const next: string | null | undefined = cur.replacement === undefined ? cur.warnReplacement : cur.replacement
    if (!next || chain.includes(next)) break
    chain.push(next)
    const [av = '', k = ''] = next.split(' ')
    cur = INDEX.get(`${av} ${k}`)
  }
  const ranked: Availability[] = ['served', 'deprecated', 'off', 'later']
  for (const want of ranked) {
    const pick = chain.find((c) => availability(c, t) === want)
    if (!pick) continue
    const [apiVersion = '', kind = ''] = pick.split(' ')
    const later = want === 'later' ? INDEX.get(pick)?.introduced : undefined
    return { replacement: { apiVersion, kind }, ...(later && { replacementAvailableIn: later }) }
  }
  return {}
}

/** Go's strconv.Quote (the `%q` verb) for the strings kubectl quotes. */
function goQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0) as number
    if (ch === '"' || ch === '\\') out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\x07') out += '\\a'
    else if (ch === '\b') out += '\\b'
    else if (ch === '\f') out += '\\f'
    else if (ch === '\v') out += '\\v'
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`
    else out += ch
  }
  return `${out}"`
}
