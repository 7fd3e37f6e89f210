import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { DOMParser, type Document } from '@xmldom/xmldom'
import type { ErrorObject } from 'ajv'

// Validators for the formatter tests, all offline: kelp's own report schema (draft-07, ajv 8), the official
// SARIF 2.1.0 schema as @microsoft/jest-sarif ships it (draft-04, ajv-draft-04), and a strict XML parser.

const require = createRequire(import.meta.url)
const Ajv = require('ajv') as typeof import('ajv').default
const Ajv04 = require('ajv-draft-04') as typeof import('ajv-draft-04').default
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default

function json(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

export type Validate = (data: unknown) => readonly ErrorObject[]

function validator(v: (data: unknown) => boolean, errors: () => ErrorObject[] | null | undefined): Validate {
  return (data) => (v(data) ? [] : (errors() ?? []))
}

/** docs/kelp-report.schema.json. */
export function reportValidator(): Validate {
  const ajv = new Ajv({ allErrors: true, strict: true })
  addFormats(ajv)
  const v = ajv.compile(json(new URL('../../docs/kelp-report.schema.json', import.meta.url).pathname))
  return validator(v, () => v.errors)
}

/** The SARIF 2.1.0 JSON schema (rtm.5, the OASIS standard's), from @microsoft/jest-sarif. */
export function sarifValidator(): Validate {
  const schema = json(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'))
  // the schema's language pattern is not valid in unicode mode
  const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false })
  addFormats(ajv)
  const v = ajv.compile(schema)
  return validator(v, () => v.errors)
}

/** Parses XML strictly: any warning or error (not only fatal ones) throws. */
export function parseXml(xml: string): Document {
  const parser = new DOMParser({
    onError: (level: string, message: string) => {
      throw new Error(`XML ${level}: ${message}`)
    },
  })
  return parser.parseFromString(xml, 'text/xml')
}
