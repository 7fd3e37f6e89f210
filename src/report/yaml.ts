import { createRequire } from 'node:module'
import type { Report } from './model.js'

// `kelp check -o yaml`: the objects as the apiserver would store them (decoded, defaulted; custom
// resources pruned), one YAML document each, for the objects the cluster would accept: what
// `kubectl apply --dry-run=server -o yaml` prints, without the fields the server itself sets (uid,
// resourceVersion, creationTimestamp, managedFields). Keys sorted and strings quoted as kubectl's YAML
// writer (sigs.k8s.io/yaml over go-yaml v2) does, so `on`, `yes` or `0644` stay strings when read back.

type YAMLModule = typeof import('yaml')
let yamlModule: YAMLModule | undefined

export function formatStoredYAML(report: Report): string {
  // loaded on use: the position-keeping parser costs ~25 ms to load
  yamlModule ??= createRequire(import.meta.url)('yaml') as YAMLModule
  const y = yamlModule
  const docs: string[] = []
  for (const o of report.objects) {
    if (o.stored === undefined) continue
    docs.push(y.stringify(o.stored, { version: '1.1', sortMapEntries: true, lineWidth: 0, indentSeq: false }))
  }
  return docs.join('---\n').replace(/\n$/, '')
}
