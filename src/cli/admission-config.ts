import { readFileSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { PodSecurityConfiguration } from '../builtin/admission/podsecurity/admission.js'
import { loadPodSecurityConfiguration } from '../builtin/admission/podsecurity/configuration.js'
import { readAdmissionConfiguration } from '../kube/admission-configuration.js'
import { decodeStream } from '../kube/yaml/decode.js'
import { UsageError } from '../report/usage.js'

// --admission-control-config-file: kube-apiserver's own file (an AdmissionConfiguration), so that kelp admits as
// a cluster started with it does. Of its plugins kelp reads PodSecurity's configuration (embedded, or the file its
// `path` names, relative to the configuration file); the others' configurations are not read. Every mistake stops
// the run as it stops kube-apiserver: exit 2 naming the file.

/** The one YAML or JSON document of a file (kelp's YAML reader: kubectl's limits), or a UsageError. */
function documentOf(file: string, shown: string): unknown {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (e) {
    throw new UsageError(
      `${shown}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    )
  }
  const docs = [...decodeStream(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))].filter(
    (d) => d.error !== undefined || d.value !== undefined,
  )
  const first = docs[0]
  if (first?.error !== undefined)
    throw new UsageError(
      `${shown}:${first.error.line}${first.error.column !== undefined ? `:${first.error.column}` : ''}: ${first.error.message}`,
    )
  if (docs.length > 1) throw new UsageError(`${shown}:${docs[1]?.line ?? 1}: one YAML document, not several`)
  return first?.value
}

/** The PodSecurity configuration of an admission configuration file (undefined: the file configures no PodSecurity). */
export function podSecurityFromAdmissionConfigFile(
  file: string,
  cwd: string = process.cwd(),
): PodSecurityConfiguration | undefined {
  const path = resolve(cwd, file)
  const shown = `--admission-control-config-file ${file}`
  const read = readAdmissionConfiguration(documentOf(path, shown), (p) => (isAbsolute(p) ? p : join(dirname(path), p)))
  if ('error' in read) throw new UsageError(`${shown}: ${read.error}`)
  const source = read.pluginConfiguration('PodSecurity')
  if ('none' in source) return undefined
  const document =
    'embedded' in source ? source.embedded : documentOf(source.path, `${shown}: PodSecurity: ${source.path}`)
  const loaded = loadPodSecurityConfiguration(document)
  if ('error' in loaded) throw new UsageError(`${shown}: PodSecurity: ${loaded.error}`)
  return loaded.configuration
}
