// The shapes go-yaml v2's reader, scanner and parser share (yamlh.go): marks, tokens, events and the error
// record (yaml_parser_t's error, problem, problem_mark, context, context_mark).

/** yaml_mark_t: a position; index counts characters, line and column from 0. */
export interface Mark {
  index: number
  line: number
  column: number
}

export const copyMark = (m: Mark): Mark => ({ index: m.index, line: m.line, column: m.column })

/** yaml_error_type_t (the kinds that can happen while reading), and the composer's (decode.go parser). */
export type ErrorKind = 'reader' | 'scanner' | 'parser' | 'composer'

/** The error go-yaml records on its parser object when reading stops. */
export interface Problem {
  readonly kind: ErrorKind
  readonly problem: string
  readonly problemMark: Mark
  readonly context: string
  readonly contextMark: Mark
}

/** yaml_token_type_t */
export const Tok = {
  STREAM_START: 1,
  STREAM_END: 2,
  VERSION_DIRECTIVE: 3,
  TAG_DIRECTIVE: 4,
  DOCUMENT_START: 5,
  DOCUMENT_END: 6,
  BLOCK_SEQUENCE_START: 7,
  BLOCK_MAPPING_START: 8,
  BLOCK_END: 9,
  FLOW_SEQUENCE_START: 10,
  FLOW_SEQUENCE_END: 11,
  FLOW_MAPPING_START: 12,
  FLOW_MAPPING_END: 13,
  BLOCK_ENTRY: 14,
  FLOW_ENTRY: 15,
  KEY: 16,
  VALUE: 17,
  ALIAS: 18,
  ANCHOR: 19,
  TAG: 20,
  SCALAR: 21,
} as const
export type TokenType = (typeof Tok)[keyof typeof Tok]

/**
 * yaml_token_t, with only what the parser's decisions need: no scalar values (nothing is constructed).
 * value: an anchor's or alias's name, a tag's or %TAG directive's handle (a tag's is '' when it has none,
 * as for `!<...>` and a lone `!`). major/minor: a %YAML directive's version.
 */
export interface Token {
  readonly type: TokenType
  readonly start: Mark
  readonly end: Mark
  readonly value?: string
  readonly major?: number
  readonly minor?: number
}

/** yaml_event_type_t */
export const Ev = {
  NO_EVENT: 0,
  STREAM_START: 1,
  STREAM_END: 2,
  DOCUMENT_START: 3,
  DOCUMENT_END: 4,
  ALIAS: 5,
  SCALAR: 6,
  SEQUENCE_START: 7,
  SEQUENCE_END: 8,
  MAPPING_START: 9,
  MAPPING_END: 10,
} as const
export type EventType = (typeof Ev)[keyof typeof Ev]

/** yaml_event_t, as far as the composer (decode.go parser) looks: its type, anchor (an alias's name), an alias's mark. */
export interface Event {
  readonly type: EventType
  readonly anchor?: string
  readonly mark?: Mark
}
