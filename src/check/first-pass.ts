import { isAdmissionInput } from '../builtin/admission/inputs.js'
import { materialKind, materialNotServed } from '../engine/policy-set.js'
import { needsNameGeneration } from '../kube/names.js'
import type { JSONObject } from '../kube/values/json.js'
import type { LoadedObject } from '../manifest/load.js'

// The first pass over the inputs (or over one thread's share of them, parallel.ts): every document read
// once; the material a policy set is built from and the Namespaces kept; the other objects while few.

/**
 * Inputs up to this many objects are held in memory after the first pass; past it the objects are
 * dropped and read again for admission (two passes, memory bounded by the policy material).
 */
export const HOLD_OBJECTS = 50_000

/**
 * Inputs of more bytes than this (files; standard input is held anyway) hold no object after the first
 * pass on one thread: 50,000 objects of a few KiB each cost several hundred MiB of heap (measured: a
 * 300 MiB file of 2.3 KiB ConfigMaps did not fit a 256 MiB heap while it held them).
 */
export const HOLD_BYTES = 32 << 20

/** A policy or a binding (material that is not a CRD): the inputs' own policies leave the pack out. */
export const isPolicy = (o: JSONObject): boolean => {
  const k = materialKind(o)
  return k !== undefined && k !== 'CustomResourceDefinition'
}

export const isNamespace = (o: JSONObject): boolean => o.apiVersion === 'v1' && o.kind === 'Namespace'

/** An object's `apiVersion|kind` (the key of seenKinds and paramKinds). */
export const gvkKey = (o: JSONObject): string => `${String(o.apiVersion)}|${String(o.kind)}`

/** Material the target serves (policy material of a version it does not serve is no material). */
export function isMaterialAt(o: JSONObject, target: string): boolean {
  // the cluster refuses such material like any kind it does not serve (admitOne reports it not-served)
  return materialKind(o) !== undefined && materialNotServed(o, target) === undefined
}

/** What the first pass over the inputs (or over one thread's share of them) found. */
export interface FirstPass {
  readonly material: LoadedObject[]
  readonly namespaces: LoadedObject[]
  /** The other objects while they are fewer than the hold limit; undefined past it (read again). */
  readonly held: LoadedObject[] | undefined
  /** Objects by `apiVersion|kind` (params are found by it). */
  readonly seenKinds: Map<string, number>
  readonly objectCount: number
  /** A policy the target does not serve was seen: the inputs have policies of their own. */
  readonly notServedPolicies: boolean
  /** Objects with metadata.generateName and no name (kubectl apply refuses them), and the first of them. */
  readonly generateNamed: { readonly count: number; readonly first: LoadedObject | null }
}

/** The first pass: every document read once; material and Namespaces kept; the rest while small. */
export function firstPass(items: Iterable<LoadedObject>, target: string, hold: number = HOLD_OBJECTS): FirstPass {
  const pass = new FirstPassReader(target, hold)
  for (const item of items) pass.add(item)
  return pass.result()
}

/** The first pass one object at a time (one-pass.ts reads on from where its own pass stopped). */
export class FirstPassReader {
  private readonly material: LoadedObject[] = []
  private readonly namespaces: LoadedObject[] = []
  private held: LoadedObject[] | undefined = []
  private readonly seenKinds = new Map<string, number>()
  private objectCount = 0
  private notServedPolicies = false
  private readonly generateNamed = { count: 0, first: null as LoadedObject | null }

  constructor(
    private readonly target: string,
    private readonly hold: number,
  ) {}

  add(item: LoadedObject): void {
    this.objectCount++
    if (isMaterialAt(item.object, this.target)) {
      this.material.push(item)
      return
    }
    if (needsNameGeneration(item.object.metadata)) {
      this.generateNamed.count++
      this.generateNamed.first ??= item
    }
    if (isPolicy(item.object)) this.notServedPolicies = true
    // Namespaces, and what the default admission plugins read (LimitRanges, ServiceAccounts, classes): set inputs
    if (isNamespace(item.object) || isAdmissionInput(item.object)) this.namespaces.push(item)
    if (this.held !== undefined && this.held.length >= this.hold) this.held = undefined
    if (this.held !== undefined) this.held.push(item)
    const k = gvkKey(item.object)
    this.seenKinds.set(k, (this.seenKinds.get(k) ?? 0) + 1)
  }

  result(): FirstPass {
    const { material, namespaces, held, seenKinds, objectCount, notServedPolicies, generateNamed } = this
    return { material, namespaces, held, seenKinds, objectCount, notServedPolicies, generateNamed }
  }
}
