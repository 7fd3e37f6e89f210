import { parentPort, workerData } from 'node:worker_threads'
import { PolicySet, type PolicySetOptions } from '../engine/policy-set.js'
import { admitAll } from './check.js'
import type { JSONObject, LoadedObject } from './load.js'

// A worker of `kelp check`: builds the same policy set as the main thread (from the same objects),
// admits its share of the objects, and posts the results back.

export interface WorkerInput {
  readonly context: readonly JSONObject[]
  readonly buildOptions: PolicySetOptions
  readonly objects: readonly LoadedObject[]
  readonly olds: readonly [string, JSONObject][]
  readonly target: string
  readonly defaultNamespace: string
  /** Attach the stored objects (-o yaml). */
  readonly stored?: boolean
}

const input = workerData as WorkerInput
const set = PolicySet.build(input.context, input.buildOptions)
parentPort?.postMessage(
  admitAll(
    set,
    input.objects,
    new Map(input.olds),
    input.target,
    input.defaultNamespace,
    undefined,
    input.stored === true ? 'stored' : 'all',
  ).results,
)
