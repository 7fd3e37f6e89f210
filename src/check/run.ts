import type { Report } from '../report/model.js'
import { type Admitted, admitAll, report } from './admit.js'
import { Excepter } from './exceptions.js'
import { Inputs } from './inputs.js'
import { admitInOnePass } from './one-pass.js'
import type { CheckOptions, Keep } from './options.js'
import { prepare } from './prepare.js'

// `kelp check` on this thread: inputs that hold none of the policy set's inputs in one pass (one-pass.ts); else the
// first pass, the set built once (prepare.ts) and every object admitted (admit.ts), the objects held or read again.

/** Runs the check on this thread and returns the report (the caller formats it and picks the exit code). */
export function check(
  options: CheckOptions,
  keep: Keep = 'all',
  inputs: Inputs = new Inputs(options.paths, options.stdin),
  onProgress?: (done: number, total: number | undefined) => void,
): Report {
  const except = options.exceptions === undefined ? undefined : new Excepter(options.exceptions)
  const once = admitInOnePass(options, inputs, onProgress, keep, except)
  if (once !== undefined && 'admitted' in once) return report(once.prepared, once.admitted, options.exceptions)
  // onLargeInput was told (admitInOnePass)
  const { onLargeInput: _, ...rest } = options
  const { prepared, set } = prepare(rest, inputs, once?.firstPass)
  const { olds, target, defaultNamespace } = prepared
  const objects = prepared.toAdmit ?? prepared.stream?.() ?? []
  // the total from the first pass, also when the objects are read again (not `done` as its own total)
  const admitted: Admitted = admitAll(
    set,
    objects,
    olds,
    target,
    defaultNamespace,
    onProgress,
    keep,
    prepared.toAdmitCount,
    except,
  )
  return report(prepared, admitted, options.exceptions)
}
