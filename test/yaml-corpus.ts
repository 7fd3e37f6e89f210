import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The YAML texts the YAML tests read (yaml-simple.test.ts against js-yaml, test/e2e/yaml against
// kubectl): the project's own files and their documents, and texts edited from them at random.

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The .yaml / .yml files below dir, sorted (none when dir is absent). */
export function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f)
      if (f === 'node_modules' || f.startsWith('.')) return []
      if (statSync(p).isDirectory()) return yamlFiles(p)
      return /\.ya?ml$/.test(p) ? [p] : []
    })
}

/** A text's documents, split at `---` lines (roughly as kubectl does: enough to get test inputs). */
export const documents = (text: string): string[] => text.split(/^---[^\n]*\n/m).filter((d) => d.trim() !== '')

/** The project's YAML files (examples, the pack, the tests' fixtures), whole. */
export const projectYAMLFiles = (): string[] =>
  ['examples', 'policies', 'test'].flatMap((d) => yamlFiles(join(ROOT, d))).map((f) => readFileSync(f, 'utf8'))

/**
 * A deterministic generator of integers below n: the same seed, the same texts (mulberry32: 32-bit
 * state in Math.imul arithmetic; a multiplicative generator in doubles loses its low bits past 2^53
 * and cycles within a few thousand draws).
 */
export function picker(seed: number): (n: number) => number {
  let a = seed >>> 0
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
  }
}

// characters that mean something to YAML, and a few that do not
const EDIT_CHARS = ' -:#\'"\na0.&*!|>[]{}?,~y1_+2\\%@`<\t'.split('')

/** The text after 1 to `most` random edits: a character inserted or deleted, a line duplicated, indented or dedented. */
export function edit(text: string, pick: (n: number) => number, most = 4): string {
  let t = text
  for (let k = 1 + pick(most); k > 0; k--) {
    const op = pick(6)
    const at = pick(t.length + 1)
    if (op <= 1) t = t.slice(0, at) + EDIT_CHARS[pick(EDIT_CHARS.length)] + t.slice(at)
    else if (op === 2) t = t.slice(0, at) + t.slice(at + 1)
    else {
      const lines = t.split('\n')
      const l = pick(lines.length)
      if (op === 3) lines.splice(l, 0, lines[l] as string)
      else if (op === 4) lines[l] = ` ${lines[l]}`
      else lines[l] = (lines[l] as string).replace(/^ {1,2}/, '')
      t = lines.join('\n')
    }
  }
  return t
}
