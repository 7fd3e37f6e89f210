// The lazily imported chunk: the whole engine (src/playground/evaluate/) and the releases the page offers. main.ts
// imports this file with import(), so the first chunk holds the page and its editors only.
export { SUPPORTED_VERSIONS } from '../../kube/environment.js'
export * from '../evaluate/index.js'
