// Token kinds of cel-go's CEL.g4 lexer, numbered as ANTLR numbers them (definition order), so
// that "expecting {...}" sets print in the same order as cel-go's syntax errors.

export const T = {
  EOF: 0,
  EQUALS: 1,
  NOT_EQUALS: 2,
  IN: 3,
  LESS: 4,
  LESS_EQUALS: 5,
  GREATER_EQUALS: 6,
  GREATER: 7,
  LOGICAL_AND: 8,
  LOGICAL_OR: 9,
  LBRACKET: 10,
  RBRACKET: 11,
  LBRACE: 12,
  RBRACE: 13,
  LPAREN: 14,
  RPAREN: 15,
  DOT: 16,
  COMMA: 17,
  MINUS: 18,
  EXCLAM: 19,
  QUESTION: 20,
  COLON: 21,
  PLUS: 22,
  STAR: 23,
  SLASH: 24,
  PERCENT: 25,
  TRUE: 26,
  FALSE: 27,
  NULL: 28,
  // 29 WHITESPACE and 30 COMMENT are on the hidden channel and never reach the parser.
  NUM_FLOAT: 31,
  NUM_INT: 32,
  NUM_UINT: 33,
  STRING: 34,
  BYTES: 35,
  IDENTIFIER: 36,
  ESC_IDENTIFIER: 37,
} as const

/** ANTLR's display names (literal names quoted, symbolic names bare), indexed by kind. */
export const TOKEN_NAMES: readonly string[] = [
  '<EOF>',
  "'=='",
  "'!='",
  "'in'",
  "'<'",
  "'<='",
  "'>='",
  "'>'",
  "'&&'",
  "'||'",
  "'['",
  "']'",
  "'{'",
  "'}'",
  "'('",
  "')'",
  "'.'",
  "','",
  "'-'",
  "'!'",
  "'?'",
  "':'",
  "'+'",
  "'*'",
  "'/'",
  "'%'",
  "'true'",
  "'false'",
  "'null'",
  'WHITESPACE',
  'COMMENT',
  'NUM_FLOAT',
  'NUM_INT',
  'NUM_UINT',
  'STRING',
  'BYTES',
  'IDENTIFIER',
  'ESC_IDENTIFIER',
]

/** Formats an ANTLR IntervalSet of token kinds: one name alone, several as `{a, b}`. */
export function formatTokenSet(kinds: readonly number[]): string {
  const sorted = [...kinds].sort((a, b) => a - b)
  if (sorted.length === 1) return TOKEN_NAMES[sorted[0]!]!
  return `{${sorted.map((k) => TOKEN_NAMES[k]).join(', ')}}`
}

/** FIRST(expr): the tokens that can start an expression (ANTLR prints this set in most errors). */
export const EXPR_START: readonly number[] = [
  T.LBRACKET,
  T.LBRACE,
  T.LPAREN,
  T.DOT,
  T.MINUS,
  T.EXCLAM,
  T.TRUE,
  T.FALSE,
  T.NULL,
  T.NUM_FLOAT,
  T.NUM_INT,
  T.NUM_UINT,
  T.STRING,
  T.BYTES,
  T.IDENTIFIER,
]

/** Lookup table: kind → can start an expression. */
export const STARTS_EXPR: Uint8Array = (() => {
  const t = new Uint8Array(40)
  for (const k of EXPR_START) t[k] = 1
  return t
})()

/** Tokens that can continue a complete operand: postfix, binary operators and `?`. */
export const CONTINUES_EXPR: Uint8Array = (() => {
  const t = new Uint8Array(40)
  for (const k of [
    T.EQUALS,
    T.NOT_EQUALS,
    T.IN,
    T.LESS,
    T.LESS_EQUALS,
    T.GREATER_EQUALS,
    T.GREATER,
    T.LOGICAL_AND,
    T.LOGICAL_OR,
    T.LBRACKET,
    T.DOT,
    T.MINUS,
    T.QUESTION,
    T.PLUS,
    T.STAR,
    T.SLASH,
    T.PERCENT,
  ])
    t[k] = 1
  return t
})()
