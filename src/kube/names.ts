// Names the apiserver generates for a create with metadata.generateName and no name
// (apiserver pkg/storage/names/generate.go SimpleNameGenerator; apimachinery pkg/util/rand String).

/** names.NameGenerator.GenerateName: the full name for a generateName `base`. */
export type NameGenerator = (base: string) => string

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
