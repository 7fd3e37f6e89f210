import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { own } from '../../../kube/own-keys.js'

// The Pod Security levels, policy versions and the Namespace labels that choose them
// (k8s.io/pod-security-admission api/constants.go, api/helpers.go).

export type Level = 'privileged' | 'baseline' | 'restricted'

const validLevels: readonly Level[] = ['privileged', 'baseline', 'restricted']

const labelPrefix = 'pod-security.kubernetes.io/'
export const EnforceLevelLabel = `${labelPrefix}enforce`
export const EnforceVersionLabel = `${labelPrefix}enforce-version`
export const AuditLevelLabel = `${labelPrefix}audit`
export const AuditVersionLabel = `${labelPrefix}audit-version`
export const WarnLevelLabel = `${labelPrefix}warn`
export const WarnVersionLabel = `${labelPrefix}warn-version`

/** The prefix the in-tree plugin puts on its audit annotation keys (api.AuditAnnotationPrefix). */
export const AuditAnnotationPrefix = labelPrefix
export const ExemptionReasonAnnotationKey = 'exempt'
export const AuditViolationsAnnotationKey = 'audit-violations'
export const EnforcedPolicyAnnotationKey = 'enforce-policy'

/**
 * A policy version: `latest`, or v1.<minor>. `text` is what String() prints (a minor past 2^53 stays exact there;
 * it compares as a large number, newer than every check's version, which is all the evaluator asks of it).
 */
export interface Version {
  readonly latest: boolean
  readonly minor: number
  readonly text: string
}

export const LatestVersion: Version = Object.freeze({ latest: true, minor: Number.POSITIVE_INFINITY, text: 'latest' })

export function majorMinorVersion(minor: number): Version {
  return { latest: false, minor, text: `v1.${minor}` }
}

/** Version.Older: latest is newer than every version, future ones included. */
export function older(v: Version, other: Version): boolean {
  if (v.latest) return false
  if (other.latest) return true
  return v.minor < other.minor
}

export interface LevelVersion {
  readonly level: Level
  readonly version: Version
}

export const levelVersionString = (lv: LevelVersion): string => `${lv.level}:${lv.version.text}`

const sameLevelVersion = (a: LevelVersion, b: LevelVersion): boolean =>
  a.level === b.level && a.version.latest === b.version.latest && a.version.text === b.version.text

/** LevelVersion.Equivalent: both privileged, or the same level and version. */
export const equivalentLevelVersion = (a: LevelVersion, b: LevelVersion): boolean =>
  (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b)

export { sameLevelVersion }

export interface Policy {
  readonly enforce: LevelVersion
  readonly audit: LevelVersion
  readonly warn: LevelVersion
}

export const fullyPrivileged = (p: Policy): boolean =>
  p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged'

export const equivalentPolicy = (a: Policy, b: Policy): boolean =>
  equivalentLevelVersion(a.enforce, b.enforce) &&
  equivalentLevelVersion(a.audit, b.audit) &&
  equivalentLevelVersion(a.warn, b.warn)

/** ParseLevel: an unknown level is restricted, with the error. */
export function parseLevel(level: string): { level: Level; err?: string } {
  if ((validLevels as readonly string[]).includes(level)) return { level: level as Level }
  return { level: 'restricted', err: `must be one of ${validLevels.join(', ')}` }
}

const versionRegexp = /^v1\.([0-9]|[1-9][0-9]*)$/
const MaxInt64 = 9223372036854775807n

/** ParseVersion: `latest` or `v1.x` (x an int: strconv.Atoi refuses one past int64); else latest, with the error. */
export function parseVersion(version: string): { version: Version; err?: string } {
  if (version === 'latest') return { version: LatestVersion }
  const m = versionRegexp.exec(version)
  if (m === null || BigInt(m[1] as string) > MaxInt64)
    return { version: LatestVersion, err: 'must be "latest" or "v1.x"' }
  return { version: { latest: false, minor: Number(m[1]), text: version } }
}

/** CompareLevels: +1 when a is stricter than b, -1 when less strict, 0 when equal. */
export function compareLevels(a: Level, b: Level): number {
  if (a === b) return 0
  if (a === 'privileged') return -1
  if (a === 'restricted') return 1
  return b === 'privileged' ? 1 : -1
}

const labelsPath = FieldPath.of('metadata', 'labels')

/**
 * PolicyToEvaluate: the Namespace's labels over the defaults. A valid policy is always returned; a label that
 * does not parse is an error, and its mode takes restricted / latest (enforce) or privileged (audit, warn: they
 * fail open). An explicit enforce level stricter than warn's default raises warn to it.
 */
export function policyToEvaluate(
  labels: Readonly<Record<string, unknown>> | undefined,
  defaults: Policy,
): { policy: Policy; errs: FieldError[] } {
  const errs: FieldError[] = []
  if (labels === undefined || Object.keys(labels).length === 0) return { policy: defaults, errs }
  let { enforce, audit, warn } = defaults
  const label = (k: string): string | undefined => {
    const v = own(labels, k)
    return typeof v === 'string' ? v : undefined
  }
  const appendErr = (err: string | undefined, key: string, value: string) => {
    if (err !== undefined) errs.push(field.invalid(labelsPath.key(key), value, err))
  }
  let hasEnforceLevel = false
  let hasWarnLevel = false
  let hasWarnVersion = false
  let v = label(EnforceLevelLabel)
  if (v !== undefined) {
    const r = parseLevel(v)
    enforce = { level: r.level, version: enforce.version }
    hasEnforceLevel = r.err === undefined
    appendErr(r.err, EnforceLevelLabel, v)
  }
  if ((v = label(EnforceVersionLabel)) !== undefined) {
    const r = parseVersion(v)
    enforce = { level: enforce.level, version: r.version }
    appendErr(r.err, EnforceVersionLabel, v)
  }
  if ((v = label(AuditLevelLabel)) !== undefined) {
    const r = parseLevel(v)
    audit = { level: r.err === undefined ? r.level : 'privileged', version: audit.version }
    appendErr(r.err, AuditLevelLabel, v)
  }
  if ((v = label(AuditVersionLabel)) !== undefined) {
    const r = parseVersion(v)
    audit = { level: audit.level, version: r.version }
    appendErr(r.err, AuditVersionLabel, v)
  }
  if ((v = label(WarnLevelLabel)) !== undefined) {
    hasWarnLevel = true
    const r = parseLevel(v)
    warn = { level: r.err === undefined ? r.level : 'privileged', version: warn.version }
    appendErr(r.err, WarnLevelLabel, v)
  }
  if ((v = label(WarnVersionLabel)) !== undefined) {
    hasWarnVersion = true
    const r = parseVersion(v)
    warn = { level: warn.level, version: r.version }
    appendErr(r.err, WarnVersionLabel, v)
  }
  if (!hasWarnLevel && hasEnforceLevel && compareLevels(enforce.level, warn.level) > 0)
    warn = { level: enforce.level, version: hasWarnVersion ? warn.version : enforce.version }
  return { policy: { enforce, audit, warn }, errs }
}
