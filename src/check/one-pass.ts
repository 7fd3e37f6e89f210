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
import {
  announceLarge,
  build,
  gatherMaterial,
  type Prepared,
  paramKindsOf,
  passNotes,
  type SplitRead,
} from './prepare.js'

// Two passes build the policy set from the inputs' own set inputs (policies, bindings, CRDs, Namespaces, the
// admission plugins' inputs, params) before any object is admitted: the first reads them (and holds the other
// objects of a small input), the second admits (a large input read again). When the inputs hold none of them (a
// run of workloads, the common case), the set is the one built without them, and one pass does both: the set is
// built before the first object that is no set input, and each object is admitted as it is read (none held, a
// large input read once). At the first set input the objects admitted so far are dropped, the pass reads on as
// the first pass, and the run goes on as two passes (the set built from what they found). The answers are the two
// passes' in either case: the same set, the same objects in the same order. What is admitted before a set input is
// lost time, up to a whole pass's admission when it comes last: a text that names a set input's kind after a
// `kind` key (a scan of its bytes, ~0.3 ms a MiB) goes to the two passes from the start.

/** The run done in one pass, or the first pass it made once it met a set input. */
export type OnePass = { readonly prepared: Prepared; readonly admitted: Admitted } | { readonly firstPass: SplitRead }

/**
 * The run in one pass, unless the text names a set input's kind or the caller asked for the objects to be held
 * (`holdObjects`): undefined then, and the run is prepare.ts's.
 */
export function admitInOnePass(
  options: CheckOptions,
  inputs: Inputs,
  onProgress: ((done: number, total: number | undefined) => void) | undefined,
  keep: Keep,
  except: Excepter | undefined,
): OnePass | undefined {
  announceLarge(options, inputs)
  if (options.holdObjects !== undefined && options.holdObjects > 0) return undefined
  const target = options.target ?? options.kubeVersion
  // the run's options without onLargeInput: told once, above
  const { onLargeInput: _, ...rest } = options
  // the kinds of the set's inputs, first those of every run (no set is gathered for an input that names one)
  if (mayName(inputs, SET_INPUT_KINDS)) return undefined
  // the set without the inputs' material, Namespaces and params (they have none, or the run stops at them)
  const afterReading: Finding[] = []
  const gathered = gatherMaterial(rest, inputs, new FirstPassReader(target, 0).result(), afterReading)
  const paramKinds = new Set(paramKindsOf(gathered))
  if (paramKinds.size > 0 && mayName(inputs, new Set([...paramKinds].map(kindOfKey)))) return undefined
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

/** The kinds of the objects a set is built from in every run (params are the policies'). */
const SET_INPUT_KINDS: ReadonlySet<string> = new Set([...MATERIAL_KINDS, 'Namespace', ...INPUT_KIND_NAMES])

/** The kind of an `apiVersion|kind` key (first-pass.ts gvkKey). */
const kindOfKey = (key: string): string => key.slice(key.indexOf('|') + 1)

/** Bytes a `kind` key and its value are looked for past a chunk's end (`"kind" :  "CustomResourceDefinition"`). */
const TAIL = 64
const KIND = Buffer.from('kind')

/**
 * Whether an input's text may name one of `kinds` as a kind: after a `kind` key (quoted or not, in a block or
 * a flow), the value's word. A heuristic: a kind written with escapes, an alias or a tag is missed (the pass then
 * stops at the object), and a word that only looks like one (`kind: Namespace` in a RoleBinding's subjects, a
 * comment) sends the run to the two passes as before. An input whose text is not a file or bytes here may name one.
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

/**
 * Whether `bytes` (up to `end`) have a `kind` key whose value is one of `kinds`: the key found natively, a few
 * bytes looked at after each (a latin1 string of the bytes and a regular expression cost four times as much).
 */
function namesIn(bytes: Buffer, end: number, kinds: ReadonlySet<string>): boolean {
  for (let k = bytes.indexOf(KIND); k >= 0 && k < end; k = bytes.indexOf(KIND, k + 4)) {
    // kind, "kind" or 'kind', a colon, then the value, quoted or not (a byte past `end` reads as -1)
    let i = k + 4
    let b = i < end ? (bytes[i] as number) : -1
    if (b === 0x22 || b === 0x27) b = ++i < end ? (bytes[i] as number) : -1
    while (b === 0x20 || b === 0x09) b = ++i < end ? (bytes[i] as number) : -1
    if (b !== 0x3a) continue
    b = ++i < end ? (bytes[i] as number) : -1
    while (b === 0x20 || b === 0x09) b = ++i < end ? (bytes[i] as number) : -1
    if (b === 0x22 || b === 0x27) b = ++i < end ? (bytes[i] as number) : -1
    const from = i
    while ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a))
      b = ++i < end ? (bytes[i] as number) : -1
    if (i > from && kinds.has(bytes.toString('latin1', from, i))) return true
  }
  return false
}
