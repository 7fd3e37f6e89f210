import { decodeStream } from '../../../src/kube/yaml/decode.js'

/** A YAML text read as kubectl reads it (sigs.k8s.io/yaml: go-yaml v2, then JSON); empty text is null, as yaml.YAMLToJSON(nil). */
export function yaml(text: string | undefined): unknown {
  if (text === undefined) return null
  const docs = [...decodeStream(text)]
  const first = docs[0]
  if (first === undefined) return null
  if (first.error !== undefined) throw new Error(first.error.message)
  return first.value ?? null
}

export type Map = Record<string, unknown>

/** yaml() of a map-valued text (null when absent). */
export const yamlMap = (text: string | undefined): Map | null => yaml(text) as Map | null
