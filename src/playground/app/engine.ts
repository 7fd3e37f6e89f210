// The lazily imported chunk: the whole engine (src/playground/evaluate/) and the releases the page offers. main.ts
// imports this file with import(), so the first chunk holds the page and its editors only.
import { stringify } from 'yaml'

export { SUPPORTED_VERSIONS } from '../../kube/environment.js'
export * from '../evaluate/index.js'

/** An object as `kubectl … -o yaml` prints it: keys sorted (sigs.k8s.io/yaml marshals JSON maps in key order). */
export const yamlText = (value: unknown): string => stringify(value, { sortMapEntries: true, lineWidth: 0 })
