// the package version: the report's too (src/check/version.ts)
export { VERSION } from '../check/version.js'
