import { goQuote } from '../cel/ext/quote.js'
import { generateNameRefusal, NO_OBJECTS_PASSED } from '../engine/kubectl.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import type { LoadedObject } from '../manifest/load.js'
import type { Finding, PackUse } from '../report/model.js'
import type { PackMode } from './options.js'
import { bundledPoliciesDir } from './pack.js'

// The notes of a run (diagnostics of no object): inputs with no object, objects kubectl apply refuses for
// their generateName, the bundled pack left out.

const meta = (o: JSONObject): JSONObject => (isObject(o.metadata) ? o.metadata : {})

/** The error of inputs that hold no object: kubectl apply on the same inputs says `error: no objects passed to apply`. */
export function noObjectsError(paths: readonly string[]): Finding {
  return {
    level: 'error',
    type: 'parse',
    rule: 'input/empty',
    message: `${NO_OBJECTS_PASSED} (${paths.join(', ')} ${paths.length === 1 ? 'holds' : 'hold'} no Kubernetes object)`,
  }
}

/** Whether the bundled pack is applied (--pack `mode`), and why not. */
export function packUseOf(mode: PackMode, usePack: boolean, installed: boolean): PackUse {
  const asGiven = mode === 'replace' ? 'off' : mode
  if (installed) return { mode: asGiven, applied: true }
  return {
    mode: asGiven,
    applied: false,
    reason: usePack ? 'not-installed' : asGiven === 'off' ? 'off' : 'own-policies',
  }
}

/** The note that the bundled pack is left out unasked, and why (at the inputs' first policy when it is theirs). */
export function packNote(use: PackUse, firstPolicy: LoadedObject | undefined): Finding {
  const not = 'the bundled policy pack (policies/) is not applied'
  if (use.reason === 'own-policies') {
    const o = firstPolicy?.object
    const which =
      o === undefined
        ? 'of a version the target release does not serve'
        : `(${String(o.kind)} "${String(meta(o).name ?? '')}", ${firstPolicy?.source.file}${firstPolicy?.source.line !== undefined ? `:${firstPolicy.source.line}` : ''})`
    return {
      level: 'info',
      type: 'policy-material',
      rule: 'pack/not-applied',
      // no source: a run note, not a finding on the policy's line (a code-scanning alert on every run)
      message: `${not}: the inputs hold admission policies of their own ${which}; --pack add applies it beside them`,
    }
  }
  return {
    level: 'info',
    type: 'policy-material',
    rule: 'pack/not-applied',
    message: `${not}: its files are not installed (${bundledPoliciesDir()})`,
  }
}

/**
 * The one note for the objects with generateName and no name: kubectl apply refuses each before sending it
 * (kubectl/pkg/cmd/apply apply.go applyOneObject, the text measured with kubectl 1.37.2); kelp checks them as
 * `kubectl create` creates them.
 */
export function generateNameNote(count: number, first: LoadedObject): Finding {
  const m = meta(first.object)
  const base = String(m.generateName)
  const at = `${first.source.file}${first.source.line !== undefined ? `:${first.source.line}` : ''}`
  const which =
    count === 1
      ? `${String(first.object.kind)} ${goQuote(base)} (${at})`
      : `${count} objects (the first: ${String(first.object.kind)} ${goQuote(base)}, ${at})`
  return {
    level: 'info',
    type: 'parse',
    rule: 'kubectl/generate-name',
    message: `${which} ${count === 1 ? 'has' : 'have'} metadata.generateName and no name: kubectl apply refuses ${count === 1 ? 'it' : 'them'} (error: ${generateNameRefusal(base)}); checked as kubectl create creates ${count === 1 ? 'it' : 'them'}, named with 5 characters derived from the object where the cluster draws them at random`,
  }
}
