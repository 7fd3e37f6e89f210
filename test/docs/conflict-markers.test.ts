import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// A merge left `<<<<<<< HEAD` … `>>>>>>> branch` in docs/architecture.md once, and nothing noticed: every tracked
// text file is read for a line that starts a merge conflict's marker.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const TEXT = /\.(ts|cts|mts|js|cjs|mjs|json|md|ya?ml|go|sh|html|css|txt)$/

describe('merge conflict markers', () => {
  it('no tracked text file holds one', () => {
    let files: string[]
    try {
      files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
        .split('\n')
        .filter((f) => TEXT.test(f))
    } catch {
      // not a git checkout (an unpacked tarball): nothing to read
      console.warn('conflict-markers: not a git checkout, skipped')
      return
    }
    const found: string[] = []
    for (const f of files) {
      let text: string
      try {
        text = readFileSync(join(ROOT, f), 'utf8')
      } catch {
        continue
      }
      const lines = text.split('\n')
      for (let i = 0; i < lines.length; i++)
        if (/^(<{7} |>{7} |\|{7} )/.test(lines[i] ?? '')) found.push(`${f}:${i + 1}: ${lines[i]}`)
    }
    expect(found).toEqual([])
  })
})
