import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatJSON } from '../../src/report/json.js'
import { DOCS_EXAMPLE } from './fixtures.js'
import { reportValidator } from './schemas.js'

const doc = readFileSync(new URL('../../docs/cli-json.md', import.meta.url), 'utf8')
const schema = JSON.parse(readFileSync(new URL('../../docs/kelp-report.schema.json', import.meta.url), 'utf8'))

describe('docs/cli-json.md', () => {
  const example = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1]

  it('shows what formatJSON prints, and it validates against the schema', () => {
    expect(example).toBe(formatJSON(DOCS_EXAMPLE))
    expect(reportValidator()(JSON.parse(example!))).toEqual([])
  })

  it('documents every field of the schema', () => {
    const fields = new Set<string>()
    const walk = (s: any) => {
      if (s === null || typeof s !== 'object') return
      for (const k of Object.keys(s.properties ?? {})) fields.add(k)
      for (const v of Object.values(s)) walk(v)
    }
    walk(schema)
    for (const f of fields) expect(doc, f).toContain(`\`${f}\``)
  })
})
