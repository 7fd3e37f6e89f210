// A Map keyed by AST node id, stored in an array: node ids are small dense integers, and the
// checker writes one entry per node on every check, where a hashed Map's inserts and growth
// are a measurable share of the cost. It behaves as a Map for every reader.

export class NodeMap<V> extends Map<number, V> {
  #vals: (V | undefined)[] = []
  #size = 0

  override get(id: number): V | undefined {
    return this.#vals[id]
  }

  override has(id: number): boolean {
    return this.#vals[id] !== undefined
  }

  override set(id: number, value: V): this {
    const vals = this.#vals
    if (id >= 0 && Number.isInteger(id)) {
      if (vals[id] === undefined) this.#size++
      vals[id] = value
    }
    return this
  }

  override delete(id: number): boolean {
    const vals = this.#vals
    if (vals[id] === undefined) return false
    vals[id] = undefined
    this.#size--
    return true
  }

  override clear(): void {
    this.#vals = []
    this.#size = 0
  }

  /** Replaces every value by `fn(value)` in place (no iterator allocation). */
  transform(fn: (value: V) => V): void {
    const vals = this.#vals
    for (let i = 0; i < vals.length; i++) {
      const v = vals[i]
      if (v !== undefined) vals[i] = fn(v)
    }
  }

  override get size(): number {
    return this.#size
  }

  override forEach(cb: (value: V, key: number, map: Map<number, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) cb.call(thisArg, v, k, this)
  }

  override *entries(): MapIterator<[number, V]> {
    const vals = this.#vals
    for (let i = 0; i < vals.length; i++) {
      const v = vals[i]
      if (v !== undefined) yield [i, v]
    }
  }

  override *keys(): MapIterator<number> {
    for (const [k] of this.entries()) yield k
  }

  override *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v
  }

  override [Symbol.iterator](): MapIterator<[number, V]> {
    return this.entries()
  }
}
