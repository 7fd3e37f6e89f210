import { readFileSync } from 'node:fs'
import { pushAll } from '../report/common.js'
import { inputError, iterateManifests, type Loaded, type LoadedObject, manifestFile } from './parse.js'
import { expandPaths, readError } from './paths.js'

// Reading manifests: files, directories (recursively: .yaml, .yml, .json), `-` for stdin; each file's text
// parsed by parse.ts (every YAML document, Lists expanded, each object with its file, line and column).

export {
  iterateManifests,
  type JSONObject,
  type Loaded,
  type LoadedObject,
  type ManifestItem,
  manifestFile,
  type NotManifest,
  parseFirstDocument,
  parseManifests,
} from './parse.js'
export { expandPaths } from './paths.js'

/** Reads and parses every input; `stdin` supplies `-`. */
export function loadManifests(paths: readonly string[], stdin: () => string | Buffer = () => readFileSync(0)): Loaded {
  const { files, errors, notes } = expandPaths(paths, { kubectl: true })
  pushAll(errors, notes)
  const objects: LoadedObject[] = []
  for (const file of files) {
    let text: string | Buffer
    try {
      // bytes, so that invalid UTF-8 is refused as go-yaml refuses it (not turned into U+FFFD)
      text = file === '-' ? stdin() : readFileSync(file)
    } catch (e) {
      errors.push(inputError(file, readError(file, e)))
      continue
    }
    for (const item of manifestFile(iterateManifests(text, file), file)) {
      if ('error' in item) errors.push(item.error)
      else objects.push(item) // one at a time: a spread push overflows the stack past ~110,000 objects
    }
  }
  return { objects, errors }
}
