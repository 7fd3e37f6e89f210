import { describe, expect, it } from 'vitest'
import {
  FORMATS,
  format,
  formatGitHub,
  formatJSON,
  formatJUnit,
  formatSARIF,
  formatText,
  type OutputFormat,
} from '../../src/report/index.js'
import { EMPTY, SMALL } from './fixtures.js'

describe('format', () => {
  it('dispatches to each formatter', () => {
    const options = { color: true, failOn: 'warn' as const, root: '/repo', informationUri: 'https://example.org/kelp' }
    expect(format(SMALL, 'text', options)).toBe(formatText(SMALL, options))
    expect(format(SMALL, 'json', options)).toBe(formatJSON(SMALL, options))
    expect(format(SMALL, 'junit', options)).toBe(formatJUnit(SMALL, options))
    expect(format(SMALL, 'sarif', options)).toBe(formatSARIF(SMALL, options))
    expect(format(SMALL, 'github', options)).toBe(formatGitHub(SMALL, options))
    expect(FORMATS).toEqual(['text', 'json', 'junit', 'sarif', 'github'])
  })

  it('ends no output with a newline, and depends only on its arguments', () => {
    for (const f of FORMATS) {
      for (const r of [SMALL, EMPTY]) {
        const out = format(r, f)
        expect(out.endsWith('\n')).toBe(false)
        expect(format(structuredClone(r), f)).toBe(out)
      }
    }
  })

  it('refuses an unknown format', () => {
    expect(() => format(SMALL, 'yaml' as OutputFormat)).toThrow("unknown output format 'yaml'")
  })
})
