// SourceInfo.positions as a Map that is filled on first use: the parser records offsets in a
// plain array (index = node id, -1 = none), and most consumers of a successful parse never look
// them up, so the Map.set per node is paid only when positions are actually read.

export class PositionMap extends Map<number, number> {
  #offsets: number[] | undefined

  constructor(offsets: number[]) {
    super()
    this.#offsets = offsets
  }

  #load(): void {
    const o = this.#offsets
    if (o === undefined) return
    this.#offsets = undefined
    for (let id = 1; id < o.length; id++) {
      const off = o[id]!
      if (off >= 0) super.set(id, off)
    }
  }

  override get(id: number): number | undefined {
    const o = this.#offsets
    if (o !== undefined) {
      const off = o[id]
      return off === undefined || off < 0 ? undefined : off
    }
    return super.get(id)
  }

  override has(id: number): boolean {
    return this.get(id) !== undefined
  }

  override set(id: number, offset: number): this {
    this.#load()
    return super.set(id, offset)
  }

  override delete(id: number): boolean {
    this.#load()
    return super.delete(id)
  }

  override clear(): void {
    this.#offsets = undefined
    super.clear()
  }

  override get size(): number {
    this.#load()
    return super.size
  }

  override forEach(cb: (value: number, key: number, map: Map<number, number>) => void, thisArg?: unknown): void {
    this.#load()
    super.forEach(cb, thisArg)
  }

  override entries(): MapIterator<[number, number]> {
    this.#load()
    return super.entries()
  }

  override keys(): MapIterator<number> {
    this.#load()
    return super.keys()
  }

  override values(): MapIterator<number> {
    this.#load()
    return super.values()
  }

  override [Symbol.iterator](): MapIterator<[number, number]> {
    this.#load()
    return super[Symbol.iterator]()
  }
}
