import { type CheckOptions, check } from './check/index.js'
import { DEFAULT_KUBE_VERSION } from './kube/environment.js'
import type { Report } from './report/model.js'

// `kelp check` as a function of the library: the CLI's report (objects, findings with file:line, the
// summary) for paths (files and directories walked as `kubectl apply -R`) or a manifest text, read as kubectl
// reads YAML. Every CheckOptions field but the inputs is optional here (kubeVersion: the default target).

export type CheckManifestsOptions = Partial<Omit<CheckOptions, 'paths' | 'stdin' | 'stdinStream'>> &
  (
    | { readonly paths: readonly string[]; readonly text?: undefined }
    | { readonly text: string; readonly paths?: undefined }
  )

/** The report `kelp check` prints, for paths or a text (the text's findings name the file `-`). */
export function checkManifests(options: CheckManifestsOptions): Report {
  const { text, paths, ...rest } = options
  return check({
    kubeVersion: DEFAULT_KUBE_VERSION,
    ...rest,
    ...(text !== undefined ? { paths: ['-'], stdin: () => text } : { paths: paths ?? [] }),
  })
}
