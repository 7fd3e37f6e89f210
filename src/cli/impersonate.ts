import type { UserInfo } from '../policy/attributes.js'
import { UsageError } from '../report/usage.js'

// `kelp check --as <user> --as-group <group> --as-uid <uid> --as-user-extra <key=value>`: kubectl's impersonation
// flags (cli-runtime genericclioptions/config_flags.go), and the user the apiserver's impersonation filter makes
// of the headers they send (apiserver v0.37.2 pkg/endpoints/filters/impersonation/impersonation.go): a service
// account's name (`system:serviceaccount:<namespace>:<name>`) brings its groups when none are given; a user other
// than system:anonymous is in system:authenticated unless a group given says otherwise.

export interface ImpersonationFlags {
  readonly as?: string
  readonly asGroup: readonly string[]
  readonly asUid?: string
  readonly asUserExtra: readonly string[]
}

const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/
const ANONYMOUS = 'system:anonymous'
const AUTHENTICATED = 'system:authenticated'
const UNAUTHENTICATED = 'system:unauthenticated'

/** The request user of the flags; undefined without --as (the engine's default user). */
export function userInfoOf(flags: ImpersonationFlags): UserInfo | undefined {
  const { as, asGroup, asUid, asUserExtra } = flags
  if (as === undefined || as === '') {
    if (asGroup.length > 0 || asUid !== undefined || asUserExtra.length > 0)
      throw new UsageError('--as-group, --as-uid and --as-user-extra need --as (the user they are of)')
    return undefined
  }
  let groups = [...asGroup]
  const sa = SERVICE_ACCOUNT.exec(as)
  // serviceaccount.MakeGroupNames: the groups of a service account's namespace, when none are given
  if (sa !== null && asGroup.length === 0) groups = ['system:serviceaccounts', `system:serviceaccounts:${sa[1]}`]
  if (as !== ANONYMOUS) {
    if (!groups.some((g) => g === AUTHENTICATED || g === UNAUTHENTICATED)) groups.push(AUTHENTICATED)
  } else if (!groups.includes(UNAUTHENTICATED)) groups.push(UNAUTHENTICATED)
  // kubectl: `key=value`, split at the first `=`; an entry without one is skipped; a key's values in order
  const extra = new Map<string, string[]>()
  for (const e of asUserExtra) {
    const i = e.indexOf('=')
    if (i < 0) continue
    const key = e.slice(0, i)
    const values = extra.get(key) ?? []
    values.push(e.slice(i + 1))
    extra.set(key, values)
  }
  return {
    username: as,
    ...(asUid !== undefined && asUid !== '' ? { uid: asUid } : {}),
    groups,
    // Object.fromEntries defines own data properties: a key `__proto__` stays a key
    ...(extra.size > 0 ? { extra: Object.fromEntries(extra) } : {}),
  }
}
