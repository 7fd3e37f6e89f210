// The globs of exceptions (.kelp.yaml): paths relative to the configuration file, object names. `*` any run of
// characters but `/`, `?` one character but `/`, `**` as a whole segment any number of segments (none included);
// every other character stands for itself. Written here rather than Node's `path.matchesGlob` (experimental in
// Node 20, a warning on use) or a dependency: three operators need no more. Matching is a table over
// (pattern position, text position), never backtracking, so a pattern such as `**/**/**/…` or `*a*a*a*…` costs
// at most the product of the two lengths: no input makes it hang.

/** The longest glob a configuration may hold (bounds the matching table). */
export const MAX_GLOB_LENGTH = 1024

/** Whether one segment (no `/`) matches `*` / `?` wildcards: the two-pointer algorithm, O(pattern × text). */
function segmentMatches(p: string, s: string): boolean {
  let pi = 0
  let si = 0
  let star = -1
  let mark = 0
  while (si < s.length) {
    const c = p[pi]
    if (pi < p.length && (c === '?' || (c !== '*' && c === s[si]))) {
      pi++
      si++
    } else if (pi < p.length && c === '*') {
      star = pi++
      mark = si
    } else if (star >= 0) {
      pi = star + 1
      si = ++mark
    } else return false
  }
  while (p[pi] === '*') pi++
  return pi === p.length
}

/** A compiled glob: `matches(path)` for `/`-separated relative paths. */
export interface Glob {
  readonly pattern: string
  matches(path: string): boolean
}

/** A glob over `/`-separated paths. */
export function pathGlob(pattern: string): Glob {
  // `**` runs collapse (`**/**` is `**`); empty segments (`a//b`, a leading `./`) are dropped
  const segments: string[] = []
  for (const seg of pattern.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '**' && segments[segments.length - 1] === '**') continue
    segments.push(seg)
  }
  return {
    pattern,
    matches(path) {
      const parts = path.split('/').filter((s) => s !== '' && s !== '.')
      // can[i][j]: segments from i match parts from j; filled backwards, one row at a time
      let next = new Uint8Array(parts.length + 1)
      next[parts.length] = 1
      for (let i = segments.length - 1; i >= 0; i--) {
        const row = new Uint8Array(parts.length + 1)
        const seg = segments[i]!
        for (let j = parts.length; j >= 0; j--) {
          if (seg === '**') row[j] = next[j] === 1 || (j < parts.length && row[j + 1] === 1) ? 1 : 0
          else row[j] = j < parts.length && next[j + 1] === 1 && segmentMatches(seg, parts[j]!) ? 1 : 0
        }
        next = row
      }
      return next[0] === 1
    },
  }
}

/** A glob over one name (`web-*`). */
export function nameGlob(pattern: string): Glob {
  return { pattern, matches: (name) => segmentMatches(pattern, name) }
}
