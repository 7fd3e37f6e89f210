// The command line's usage error and output: below the faces (src/report/usage.ts), shared with `kelp serve`.
export { type Io, UsageError } from '../report/usage.js'
