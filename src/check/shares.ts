import type { DocumentShare } from '../kube/yaml/decode.js'

// How `kelp check` splits its inputs between threads that each read their own part: the files in
// order as one run of bytes, cut into equal parts; a thread reads the documents that start in its
// part (a file cut in two is read by both threads, each parsing only its documents). Parts are in
// input order, so the threads' results, put one after the other, are in input order.

/** One file's part of a thread's share: the documents that start in [from, to) of its text (fractions). */
export interface FileShare {
  readonly file: string
  readonly from: number
  readonly to: number
}

/** The shares of `threads` threads over files of these sizes (bytes), in order; a thread may get none. */
export function planShares(files: readonly { file: string; bytes: number }[], threads: number): FileShare[][] {
  const total = files.reduce((n, f) => n + f.bytes, 0)
  const shares: FileShare[][] = Array.from({ length: threads }, () => [])
  let at = 0
  for (const f of files) {
    const start = at
    at += f.bytes
    if (f.bytes === 0 || total === 0) {
      // an empty file (read for its errors, if any) goes to the thread where it starts
      const t = total === 0 ? 0 : Math.min(threads - 1, Math.floor((start / total) * threads))
      shares[t]?.push({ file: f.file, from: 0, to: 1 })
      continue
    }
    for (let t = 0; t < threads; t++) {
      const lo = (t * total) / threads
      const hi = ((t + 1) * total) / threads
      if (hi <= start || lo >= at) continue
      const from = Math.max(0, (lo - start) / f.bytes)
      const to = t === threads - 1 ? 1 : Math.min(1, (hi - start) / f.bytes)
      if (to > from) shares[t]?.push({ file: f.file, from, to })
    }
  }
  return shares
}

/** Whether a document starting at `at` (a fraction of the text) is this share's; the last share ends at 1 inclusive. */
export function documentShare(s: FileShare): DocumentShare | undefined {
  if (s.from === 0 && s.to === 1) return undefined
  return (at) => at >= s.from && (at < s.to || s.to === 1)
}

/** Whether this share reports the file's own errors (unreadable, not a manifest): the one holding its start. */
export const holdsFileStart = (s: FileShare): boolean => s.from === 0
