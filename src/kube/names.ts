// Names the apiserver generates for a create with metadata.generateName and no name
// (apiserver pkg/storage/names/generate.go SimpleNameGenerator; apimachinery pkg/util/rand String).

/**
 * names.NameGenerator.GenerateName: the full name for a generateName `base`. `object` is the object being
 * named (the apiserver's generator ignores it; derivedNameGenerator hashes it).
 */
export type NameGenerator = (base: string, object?: unknown) => string

/** names.go maxNameLength - randomLength: the prefix is cut to this many characters. */
export const MAX_GENERATED_NAME_LENGTH = 63 - 5

/** utilrand's alphabet: no vowels, "to reduce the chances of bad words being formed". */
export const RANDOM_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'

/** utilrand.String(n): n characters of RANDOM_ALPHABET; `random` returns [0, 1) as Math.random. */
export function randomString(n: number, random: () => number = Math.random): string {
  let s = ''
  for (let i = 0; i < n; i++) s += RANDOM_ALPHABET[Math.floor(random() * RANDOM_ALPHABET.length)]
  return s
}

/**
 * SimpleNameGenerator: the base cut to MAX_GENERATED_NAME_LENGTH (Go slices bytes; a generateName
 * that passed validation is ASCII) plus 5 random characters. `random` makes it deterministic.
 */
export function simpleNameGenerator(random: () => number = Math.random): NameGenerator {
  return (base) =>
    `${base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base}${randomString(5, random)}`
}

/** The generator kube-apiserver uses, random as in the cluster. */
export const SimpleNameGenerator: NameGenerator = simpleNameGenerator()

/**
 * SimpleNameGenerator's names (the base cut to 58 characters, 5 characters of RANDOM_ALPHABET) with the 5
 * characters derived from the object's JSON and the base instead of drawn at random: the same input is
 * named the same in every run (kelp check's reports and SARIF fingerprints stay put), different objects
 * almost always differently (27^5 names). FNV-1a over the text, then murmur3's finalizer to spread it.
 */
export const derivedNameGenerator: NameGenerator = (base, object) => {
  const text = `${JSON.stringify(object ?? null, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\0${base}`
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  h = (h ^ (h >>> 16)) >>> 0
  let suffix = ''
  for (let i = 0; i < 5; i++) {
    suffix += RANDOM_ALPHABET[h % RANDOM_ALPHABET.length]
    h = Math.floor(h / RANDOM_ALPHABET.length)
  }
  return `${base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base}${suffix}`
}

/**
 * The store's Create (registry/store.go needsNameGeneration): a name is generated when generateName
 * is set and name is empty. A JSON null name decodes to "" in Go, so it counts as empty.
 */
export function needsNameGeneration(metadata: unknown): metadata is Record<string, unknown> & { generateName: string } {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return false
  const m = metadata as Record<string, unknown>
  return (
    typeof m.generateName === 'string' &&
    m.generateName !== '' &&
    (m.name === undefined || m.name === null || m.name === '')
  )
}
