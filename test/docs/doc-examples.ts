import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The ```ts blocks of a docs page, each run as a module: `from 'kelp-k8s'` resolves to src/index.ts, and
// the block's own `assert` calls state the values the page promises, so a page that drifts from the
// code fails the test that runs it.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const OUT = join(ROOT, 'test/.docs-out')

export interface DocExample {
  /** The nearest heading above the block. */
  readonly title: string
  /** 1-based line of the block's opening fence. */
  readonly line: number
  readonly code: string
}

export function docExamples(page: string): DocExample[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n')
  const out: DocExample[] = []
  let title = page
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string
    if (l.startsWith('#')) title = l.replace(/^#+\s*/, '')
    if (l.trim() !== '```ts') continue
    const start = i
    const body: string[] = []
    while (++i < lines.length && (lines[i] as string).trim() !== '```') body.push(lines[i] as string)
    out.push({ title, line: start + 1, code: body.join('\n') })
  }
  return out
}

/** Writes the example as a module next to the sources and imports it (vitest transforms it). */
export async function runDocExample(page: string, ex: DocExample): Promise<void> {
  mkdirSync(OUT, { recursive: true })
  const file = join(OUT, `${page.replace(/[^a-z0-9]+/gi, '_')}_${ex.line}.ts`)
  const code = ex.code.replace(/from 'kelp-k8s'/g, `from '${join(ROOT, 'src/index.js')}'`)
  writeFileSync(file, code)
  await import(file)
}
