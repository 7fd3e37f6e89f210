/**
 * The answers of a pure function of a few recurring inputs (quantity texts, resource names, API
 * versions): per-object work done once per distinct input. Bounded: emptied when it holds `limit`
 * keys, since hostile inputs can ask for any number of distinct keys.
 */
export class BoundedMemo<K, V> {
  private readonly answers = new Map<K, V>()
  constructor(private readonly limit: number) {}

  /** compute(key), remembered (an undefined answer too). */
  answer(key: K, compute: (key: K) => V): V {
    const v = this.answers.get(key)
    if (v !== undefined || this.answers.has(key)) return v as V
    return this.set(key, compute(key))
  }

  /** The answer remembered for key, if any: for keys built from several arguments (with set). */
  get(key: K): V | undefined {
    return this.answers.get(key)
  }

  set(key: K, value: V): V {
    if (this.answers.size >= this.limit) this.answers.clear()
    this.answers.set(key, value)
    return value
  }
}
