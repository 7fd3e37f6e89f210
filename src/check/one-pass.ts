import { closeSync, openSync, readSync } from 'node:fs'
import { INPUT_KIND_NAMES, isAdmissionInput } from '../builtin/admission/inputs.js'
import { MATERIAL_KINDS, materialKind } from '../engine/policy-set.js'
import type { JSONObject } from '../kube/values/json.js'
import type { LoadedObject } from '../manifest/load.js'
import type { Finding } from '../report/model.js'
import { type Admitted, admitAll } from './admit.js'
import type { Excepter } from './exceptions.js'
import { FirstPassReader, gvkKey, isNamespace } from './first-pass.js'
import type { Inputs } from './inputs.js'
import type { CheckOptions, Keep } from './options.js'
import { build, gatherMaterial, holdFor, type Prepared, paramKindsOf, passNotes, type SplitRead } from './prepare.js'

// A large input (one whose objects the first pass does not hold: prepare.ts) is read twice: once for the policy
// set's inputs, once to admit its objects. When it holds none of them (no policy, binding, CRD, Namespace,
// admission plugin input or param: a run of workloads, the common large input), the set is the one built without
// it, and one pass does both: the set is built before the first object that is no set input, and each object is
// admitted as it is read. At the first set input the objects admitted so far are dropped, the pass reads on as the
// first pass, and the run goes on as two passes (the set built from what they found). The answers are the two
// passes' in either case: the same set, the same objects in the same order. What is admitted before a set input
// is lost time, up to a whole pass's admission when it comes last: a text that names a set input's kind after a
// `kind` key (a scan of its bytes, ~0.3 ms a MiB) is read twice from the start.

/** The run done in one pass, or the first pass it made once it met a set input. */
export type OnePass = { readonly prepared: Prepared; readonly admitted: Admitted } | { readonly firstPass: SplitRead }

/**
 * The run in one pass when the inputs are large (undefined otherwise: their objects are held after the first
 * pass).
 */
export function admitInOnePass(
  options: CheckOptions,
  inputs: Inputs,
  onProgress: ((done: number, total: number | undefined) => void) | undefined,
  keep: Keep,
  except: Excepter | undefined,
): OnePass | undefined {
  if (holdFor(options, inputs) !== 0) return undefined
  const target = options.target ?? options.kubeVersion
  // the run's options without onLargeInput: told once, above
  const { onLargeInput: _, ...rest } = options
  // the set without the inputs' material, Namespaces and params (they have none, or the run stops at them)
  const afterReading: Finding[] = []
  const gathered = gatherMaterial(rest, inputs, new FirstPassReader(target, 0).result(), afterReading)
  const paramKinds = new Set(paramKindsOf(gathered))
  const kinds = new Set([...MATERIAL_KINDS, 'Namespace', ...INPUT_KIND_NAMES, ...[...paramKinds].map(kindOfKey)])
  if (mayName(inputs, kinds)) return undefined
  const reading: Finding[] = []
  const pass = new FirstPassReader(target, 0)
  const items = inputs.read(reading)[Symbol.iterator]()
  let next = items.next()
  const isSetInput = (o: JSONObject): boolean =>
    materialKind(o) !== undefined || isNamespace(o) || isAdmissionInput(o) || paramKinds.has(gvkKey(o))
  // material usually comes first (CRDs, policies, Namespaces): the set is built once an object needs it
  if (!next.done && !isSetInput(next.value.object)) {
    const { prepared, set } = build(gathered)
    let stopped = false
    const admissible = function* (): Generator<LoadedObject> {
      for (; !next.done; next = items.next()) {
        if (isSetInput(next.value.object)) {
          stopped = true
          return
        }
        pass.add(next.value)
        yield next.value
      }
    }
    const { olds, defaultNamespace } = prepared
    const admitted = admitAll(set, admissible(), olds, target, defaultNamespace, onProgress, keep, undefined, except)
    if (!stopped) {
      const found = pass.result()
      const diagnostics = [...reading, ...passNotes(found, rest, reading), ...afterReading]
      const { stream: _s, toAdmit: _t, ...once } = prepared
      return { prepared: { ...once, diagnostics, toAdmitCount: found.objectCount }, admitted }
    }
  }
  // a set input: the rest of the first pass (the objects admitted so far are dropped)
  for (; !next.done; next = items.next()) pass.add(next.value)
  return { firstPass: { inputs, pass: pass.result(), diagnostics: reading } }
}

/** The kind of an `apiVersion|kind` key (first-pass.ts gvkKey). */
const kindOfKey = (key: string): string => key.slice(key.indexOf('|') + 1)

const KIND = Buffer.from('kind')
/** Bytes a `kind` key and its value are looked for past a chunk's end (`"kind" :  "CustomResourceDefinition"`). */
const TAIL = 64

/**
 * Whether an input's text may name one of `kinds` as a kind: after a `kind` key (quoted or not, in a block or
 * a flow), the value's word. A heuristic: a kind written with escapes, an alias or a tag is missed (the pass then
 * stops at the object), and a word that only looks like one (`kind: Namespace` in a RoleBinding's subjects, a
 * comment) reads the input twice as before. An input whose text is not a file or bytes here may name one.
 */
function mayName(inputs: Inputs, kinds: ReadonlySet<string>): boolean {
  const chunk = Buffer.allocUnsafe(1 << 20)
  for (const file of inputs.files) {
    const text = inputs.textOf(file)
    if (text === undefined) return true
    if ('bytes' in text) {
      const bytes = typeof text.bytes === 'string' ? Buffer.from(text.bytes) : text.bytes
      if (namesIn(bytes, bytes.length, kinds)) return true
      continue
    }
    let fd: number
    try {
      fd = openSync(text.path, 'r')
    } catch {
      continue // the passes report it
    }
    try {
      // each read after the first starts with the last TAIL bytes of the one before
      let kept = 0
      for (;;) {
        const n = readSync(fd, chunk, kept, chunk.length - kept, null)
        if (n === 0) break
        const end = kept + n
        if (namesIn(chunk, end, kinds)) return true
        kept = Math.min(TAIL, end)
        chunk.copy(chunk, 0, end - kept, end)
      }
    } catch {
      return true
    } finally {
      closeSync(fd)
    }
  }
  return false
}

/** Whether `bytes` (up to `end`) have a `kind` key whose value is one of `kinds`. */
function namesIn(bytes: Buffer, end: number, kinds: ReadonlySet<string>): boolean {
  const at = (i: number): number => (i < end ? (bytes[i] as number) : -1)
  const blanks = (i: number): number => {
    while (at(i) === 0x20 || at(i) === 0x09) i++
    return i
  }
  const quote = (i: number): number => (at(i) === 0x22 || at(i) === 0x27 ? i + 1 : i)
  for (let k = bytes.indexOf(KIND); k >= 0 && k < end; k = bytes.indexOf(KIND, k + 4)) {
    // kind, "kind" or 'kind', then a colon, then the value, quoted or not
    let i = blanks(quote(k + 4))
    if (at(i) !== 0x3a) continue
    i = quote(blanks(i + 1))
    const from = i
    while (isWordByte(at(i))) i++
    if (i > from && kinds.has(bytes.toString('latin1', from, i))) return true
  }
  return false
}

const isWordByte = (b: number): boolean =>
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)
