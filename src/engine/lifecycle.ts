// The API lifecycle of one object's apiVersion at a target release, as the engine's answer carries it:
// the apiserver's deprecation warning for a served, deprecated version, or the not-served answer (with
// why: removed, not yet introduced, off by default) for one the release does not serve. The one home of
// these texts: materialNotServed, PolicySet.validate and the faces all word them here.

import { isObject } from '../kube/values/json.js'
import { type ApiVersionStatus, apiVersionStatus } from './api-versions.js'

/** What an apiVersion's lifecycle says at the target release (nothing: served, not deprecated). */
export interface ApiLifecycle {
  /**
   * `deprecated`: served, and kube-apiserver adds `message` to the response's warnings (endpoints/installer.go
   * registerResourceHandlers: AddWarningsHandler, before the handler runs; from 1.19 on);
   * `removed`: no longer served; `not-served`: not yet introduced, or off unless `--runtime-config` turns it on.
   */
  readonly status: 'deprecated' | 'removed' | 'not-served'
  /**
   * deprecated: the apiserver's warning (`<group/version> <Kind> is deprecated in v<D>+…`, deprecation.go
   * WarningMessage); else the client's `no matches for kind "<Kind>" in version "<apiVersion>"` and why
   * (`(removed in v1.25; use policy/v1 PodDisruptionBudget)`, `(introduced in v1.36)`,
   * `(not served by default: --runtime-config=…=true)`).
   */
  readonly message: string
}

/**
 * The lifecycle finding of `object`'s apiVersion and kind at `release` (`1.16` … `1.37`): undefined when the
 * version is served without deprecation, unknown to the table (custom resources), or the release is outside it.
 */
export function apiLifecycle(object: unknown, release: string): ApiLifecycle | undefined {
  if (!isObject(object)) return undefined
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : ''
  const kind = typeof object.kind === 'string' ? object.kind : ''
  let st: ApiVersionStatus
  try {
    st = apiVersionStatus(apiVersion, kind, release)
  } catch {
    return undefined // a release outside the lifecycle table (the default environment serves all)
  }
  return lifecycleOf(st)
}

/** apiLifecycle from an apiVersionStatus answer (for callers that hold one). */
export function lifecycleOf(st: ApiVersionStatus): ApiLifecycle | undefined {
  // not served at the target: removed, not yet introduced, or off unless --runtime-config enables it
  const notServed =
    st.status === 'removed' || (st.status === 'unknown' && st.message !== undefined)
      ? st.message
      : st.offByDefault?.message
  if (notServed !== undefined) {
    const use = st.replacement ? `; use ${st.replacement.apiVersion} ${st.replacement.kind}` : ''
    const detail =
      st.status === 'removed'
        ? ` (removed in v${st.removedIn}${use})`
        : st.offByDefault
          ? ` (not served by default: ${st.offByDefault.runtimeConfig})`
          : st.introducedIn
            ? ` (introduced in v${st.introducedIn})`
            : ''
    return { status: st.status === 'removed' ? 'removed' : 'not-served', message: `${notServed}${detail}` }
  }
  if (st.status === 'deprecated' && st.warning !== undefined) return { status: 'deprecated', message: st.warning }
  return undefined
}
