import { parentPort } from 'node:worker_threads'
import { PolicySet, type PolicySetOptions } from '../engine/policy-set.js'
import type { KubeVersion } from '../kube/environment.js'
import { derivedNameGenerator } from '../kube/names.js'
import type { JSONObject } from '../kube/values/json.js'
import type { LoadedObject } from '../manifest/load.js'
import type { Finding } from '../report/model.js'
import { admitAll } from './admit.js'
import { Excepter, type Exceptions } from './exceptions.js'
import { type FirstPass, firstPass, gvkKey } from './first-pass.js'
import { readShare } from './inputs.js'
import type { Keep } from './options.js'
import { packCheckedCache } from './pack-cache.js'
import type { FileShare } from './shares.js'

// A worker of `kelp check` (parallel.ts): reads its share of the inputs and keeps its objects; sends
// back what the main thread needs to build the policy set (material, Namespaces, the kinds it saw);
// then, given the set's objects, builds the same set and admits its objects.

/** Read a share: the reply is a ReadReply. */
export interface ReadMessage {
  readonly type: 'read'
  readonly shares: readonly FileShare[]
  readonly target: string
  readonly hold: number
}
export interface ReadReply extends Omit<FirstPass, 'held' | 'seenKinds'> {
  readonly seenKinds: readonly [string, number][]
  readonly diagnostics: readonly Finding[]
  /** Whether every object was kept (false: too many for one thread; the main thread reads alone). */
  readonly held: boolean
}
/** The objects of these `apiVersion|kind`s the share holds (params): the reply is LoadedObject[]. */
export interface ParamsMessage {
  readonly type: 'params'
  readonly kinds: readonly string[]
}
/** Build the set and admit: the reply is an AdmitReply. */
export interface AdmitMessage {
  readonly type: 'admit'
  readonly context: readonly JSONObject[]
  /** Indices in `context` of the bundled pack's objects (trusted: validated by kelp's tests). */
  readonly trusted: readonly number[]
  readonly buildOptions: PolicySetOptions
  /** The release whose bundled-pack checked ASTs to use (when the pack is in use). */
  readonly packChecked?: KubeVersion
  readonly olds: readonly [string, JSONObject][]
  readonly target: string
  readonly defaultNamespace: string
  readonly keep: Keep
  /** The run's exceptions (applied on each thread to its own objects). */
  readonly exceptions?: Exceptions
}
export interface AdmitReply {
  readonly results: ReturnType<typeof admitAll>['results']
  /** The SummaryCounter's fields (SummaryCounter.revive). */
  readonly counter: unknown
}
export type WorkerMessage = ReadMessage | ParamsMessage | AdmitMessage

let held: LoadedObject[] = []
parentPort?.on('message', (m: WorkerMessage) => {
  if (m.type === 'read') {
    const diagnostics: Finding[] = []
    const objects = (function* () {
      for (const s of m.shares) yield* readShare(s, undefined, diagnostics)
    })()
    const pass = firstPass(objects, m.target, m.hold)
    held = pass.held ?? []
    const reply: ReadReply = {
      material: pass.material,
      namespaces: pass.namespaces,
      held: pass.held !== undefined,
      seenKinds: [...pass.seenKinds],
      objectCount: pass.objectCount,
      notServedPolicies: pass.notServedPolicies,
      generateNamed: pass.generateNamed,
      diagnostics,
    }
    parentPort?.postMessage(reply)
  } else if (m.type === 'params') {
    const kinds = new Set(m.kinds)
    parentPort?.postMessage(held.filter((o) => kinds.has(gvkKey(o.object))))
  } else {
    const trusted = new Set<object>(m.trusted.map((i) => m.context[i] as object))
    const checkedCache = m.packChecked === undefined ? undefined : packCheckedCache(m.packChecked)
    const set = PolicySet.build(m.context, {
      ...m.buildOptions,
      trusted: (o: object) => trusted.has(o),
      generateName: derivedNameGenerator, // as prepare.ts's (a function is not sent)
      ...(checkedCache !== undefined ? { checkedCache } : {}),
    })
    const except = m.exceptions === undefined ? undefined : new Excepter(m.exceptions)
    const admitted = admitAll(
      set,
      held,
      new Map(m.olds),
      m.target,
      m.defaultNamespace,
      undefined,
      m.keep,
      undefined,
      except,
    )
    const reply: AdmitReply = { results: admitted.results, counter: admitted.counter }
    parentPort?.postMessage(reply)
    held = []
    parentPort?.close()
  }
})
