import { compareStrings } from '../../../cel/values/strings.js'
import type { JSONObject } from '../../../kube/values/json.js'
import { CheckAllowPrivilegeEscalation } from './allow-privilege-escalation.js'
import type { LevelVersion } from './api.js'
import { CheckAppArmorProfile } from './app-armor-profile.js'
import { CheckCapabilitiesBaseline, CheckCapabilitiesRestricted } from './capabilities.js'
import type { Check, CheckPodFn, CheckResult, VersionedCheck } from './check.js'
import { CheckHostNamespaces } from './host-namespaces.js'
import { CheckHostPathVolumes } from './host-path-volumes.js'
import { CheckHostPorts } from './host-ports.js'
import { CheckHostProbesAndHostLifecycle } from './host-probes-and-host-lifecycle.js'
import { CheckPrivileged } from './privileged.js'
import { CheckProcMountBaseline, CheckProcMountRestricted } from './proc-mount.js'
import { CheckRestrictedVolumes } from './restricted-volumes.js'
import { CheckRunAsNonRoot } from './run-as-non-root.js'
import { CheckRunAsUser } from './run-as-user.js'
import { CheckSELinuxOptions } from './se-linux-options.js'
import { CheckSeccompBaseline, CheckSeccompProfileRestricted } from './seccomp-profile.js'
import { CheckSysctls } from './sysctls.js'
import { CheckWindowsHostProcess } from './windows-host-process.js'

// The checks of every level and version and the evaluator over them (k8s.io/pod-security-admission
// policy/registry.go): each check's implementation spread over the minors it covers, restricted = baseline minus
// the checks a restricted one overrides, plus the restricted ones; baseline checks first, each level's by ID.

/** DefaultChecks (the init() of each policy/check_*.go). */
export function DefaultChecks(): readonly Check[] {
  return [
    CheckAllowPrivilegeEscalation,
    CheckAppArmorProfile,
    CheckCapabilitiesBaseline,
    CheckCapabilitiesRestricted,
    CheckHostNamespaces,
    CheckHostPathVolumes,
    CheckHostPorts,
    CheckHostProbesAndHostLifecycle,
    CheckPrivileged,
    CheckProcMountBaseline,
    CheckProcMountRestricted,
    CheckRestrictedVolumes,
    CheckRunAsNonRoot,
    CheckRunAsUser,
    CheckSELinuxOptions,
    CheckSeccompBaseline,
    CheckSeccompProfileRestricted,
    CheckSysctls,
    CheckWindowsHostProcess,
  ]
}

export interface Evaluator {
  /** The newest minor with checks of its own (a newer version, `latest` included, is evaluated as it). */
  readonly maxVersion: number
  EvaluatePod(lv: LevelVersion, podMetadata: JSONObject, podSpec: JSONObject): CheckResult[]
}

/**
 * NewEvaluator: the checks' tables up to the newest minor any check names, or the emulated release's minor when
 * older (kube-apiserver passes its emulation version: plugin/pkg/admission/security/podsecurity/admission.go).
 */
export function NewEvaluator(checks: readonly Check[], emulationMinor?: number): Evaluator {
  let maxVersion = 0
  for (const c of checks) maxVersion = Math.max(maxVersion, (c.versions.at(-1) as VersionedCheck).minimumVersion)
  if (emulationMinor !== undefined && emulationMinor < maxVersion) maxVersion = emulationMinor
  const baseline: CheckPodFn[][] = []
  const restricted: CheckPodFn[][] = []
  populate(checks, maxVersion, baseline, restricted)
  return {
    maxVersion,
    EvaluatePod(lv, podMetadata, podSpec) {
      if (lv.level === 'privileged') return []
      const minor = lv.version.latest || lv.version.minor > maxVersion ? maxVersion : lv.version.minor
      const fns = (lv.level === 'baseline' ? baseline : restricted)[minor] ?? []
      return fns.map((f) => f(podMetadata, podSpec))
    },
  }
}

function populate(checks: readonly Check[], maxVersion: number, baseline: CheckPodFn[][], restricted: CheckPodFn[][]) {
  const restrictedVersioned: Map<string, VersionedCheck>[] = []
  const baselineVersioned: Map<string, VersionedCheck>[] = []
  const baselineIDs: string[] = []
  const restrictedIDs: string[] = []
  for (const c of checks) {
    if (c.level === 'restricted') {
      restrictedIDs.push(c.id)
      inflateVersions(c, restrictedVersioned, maxVersion)
    } else {
      baselineIDs.push(c.id)
      inflateVersions(c, baselineVersioned, maxVersion)
    }
  }
  const orderedIDs = [...baselineIDs.sort(compareStrings), ...restrictedIDs.sort(compareStrings)]
  for (let v = 0; v <= maxVersion; v++) {
    const overrides = new Set<string>()
    for (const c of restrictedVersioned[v]?.values() ?? []) for (const o of c.overrideCheckIDs ?? []) overrides.add(o)
    const r = (restrictedVersioned[v] ??= new Map())
    for (const [id, c] of baselineVersioned[v] ?? []) if (!overrides.has(id)) r.set(id, c)
    restricted[v] = mapCheckPodFns(r, orderedIDs)
    baseline[v] = mapCheckPodFns(baselineVersioned[v] ?? new Map(), orderedIDs)
  }
}

function inflateVersions(check: Check, versions: Map<string, VersionedCheck>[], maxVersion: number) {
  check.versions.forEach((c, i) => {
    const next = check.versions[i + 1]?.minimumVersion ?? maxVersion + 1
    for (let v = c.minimumVersion; v < next; v++) (versions[v] ??= new Map()).set(check.id, c)
  })
}

function mapCheckPodFns(checks: ReadonlyMap<string, VersionedCheck>, orderedIDs: readonly string[]): CheckPodFn[] {
  const fns: CheckPodFn[] = []
  for (const id of orderedIDs) {
    const c = checks.get(id)
    if (c !== undefined) fns.push(c.checkPod)
  }
  return fns
}
