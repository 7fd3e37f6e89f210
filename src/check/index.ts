// The check pipeline (read → validate → report, as kubeconform shapes it) below the faces: the CLI's
// `kelp check` and the library's checkManifests run it.
export { type Admitted, admitAll, report } from './admit.js'
export type { CheckOptions, Keep, PackMode } from './options.js'
export { checkParallel, threadsFor } from './parallel.js'
export { type Prepared, prepare } from './prepare.js'
export { check } from './run.js'
