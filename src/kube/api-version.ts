// Kubernetes API version strings (apimachinery pkg/version/helpers.go): v1 > v1beta2 > v1beta1 >
// v1alpha1, GA before beta before alpha whatever the major, and other strings after all of them.

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/

function parse(v: string): [major: number, type: number, minor: number] | undefined {
  const m = KUBE_VERSION.exec(v)
  if (!m) return undefined
  const type = m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2
  return [Number(m[1]), type, type === 2 ? 0 : Number(m[3])]
}

/** CompareKubeAwareVersionStrings: > 0 when v1 is the more stable / newer version. */
export function compareKubeAwareVersionStrings(v1: string, v2: string): number {
  if (v1 === v2) return 0
  const a = parse(v1)
  const b = parse(v2)
  if (!a && !b) return v2 < v1 ? -1 : v2 > v1 ? 1 : 0
  if (!a) return -1
  if (!b) return 1
  if (a[1] !== b[1]) return a[1] - b[1]
  if (a[0] !== b[0]) return a[0] - b[0]
  return a[2] - b[2]
}

/** `group/version` split: the core group has no slash (`v1`). */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/')
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) }
}
