import { isAlpha, isBlank, isBlankZ, isBreak, isBreakZ } from './chars.js'
import { Reader } from './reader.js'
import { atDocumentIndicator, scanBlockScalar, scanFlowScalar, scanPlainScalar } from './scalars.js'
import { scanDirective, scanTag } from './tags.js'
import { copyMark, type Mark, Tok, type Token, type TokenType } from './types.js'

// go-yaml v2's scanner (scannerc.go): the token queue, simple keys, the indentation stack and the flow
// level, as go-yaml keeps them, so that it fetches the same tokens at the same moments and stops at the
// same first error. It builds no scalar values. Its scan functions for scalars, tags and directives are in
// scalars.ts and tags.ts.
//
// go-yaml v2.4 indexes its possible simple keys by token number (simple_keys_by_tok) and its bookkeeping of
// that index has quirks (a flow level's placeholder key shares the number of the `[` or `{` that opened it,
// and closing the level deletes that number; a key found invalid stays indexed): they decide which tokens
// the parser sees before a `:` inserts its KEY, so they are kept as they are.

/** max_flow_level and max_indents (scannerc.go) */
export const MAX_DEPTH = 10000

/** yaml_simple_key_t */
interface SimpleKey {
  possible: boolean
  required: boolean
  tokenNumber: number
  mark: Mark
}

export class Scanner extends Reader {
  /** The scanner's token queue: tokens[head] is the next one the parser gets. */
  private tokens: Token[] = []
  private head = 0
  /** tokens_parsed: tokens the parser has taken. */
  private tokensParsed = 0
  private tokenAvailable = false
  private streamStartProduced = false
  /** stream_end_produced: the parser took STREAM-END. */
  streamEndProduced = false
  /** indent: the current block indentation column (-1 at the top), and the enclosing ones. */
  private indent = 0
  private indents: number[] = []
  private flowLevel = 0
  private simpleKeyAllowed = false
  private simpleKeys: SimpleKey[] = []
  private simpleKeysByTok = new Map<number, number>()

  /** peek_token (parserc.go): the next token, or undefined on an error. */
  peekToken(): Token | undefined {
    if (this.tokenAvailable || this.fetchMoreTokens()) return this.tokens[this.head]
    return undefined
  }

  /** skip_token (parserc.go) */
  skipToken(): void {
    this.tokenAvailable = false
    this.tokensParsed++
    this.streamEndProduced = (this.tokens[this.head] as Token).type === Tok.STREAM_END
    this.head++
    // drop taken tokens now and then (go-yaml moves its queue down when the slice is full)
    if (this.head > 1024 && this.head * 2 > this.tokens.length) {
      this.tokens = this.tokens.slice(this.head)
      this.head = 0
    }
  }

  /** yaml_insert_token: at `pos` past the head, or at the end when pos < 0. */
  private insertToken(pos: number, token: Token): void {
    if (pos < 0 || this.head + pos >= this.tokens.length) this.tokens.push(token)
    else this.tokens.splice(this.head + pos, 0, token)
  }

  private token(type: TokenType, start: Mark, end: Mark = start): Token {
    return { type, start, end }
  }

  /** The number the next token queued will have. */
  private get nextTokenNumber(): number {
    return this.tokensParsed + (this.tokens.length - this.head)
  }

  /** yaml_parser_fetch_more_tokens: fetch until the head token can no longer turn out to be a simple key. */
  private fetchMoreTokens(): boolean {
    for (;;) {
      if (this.head !== this.tokens.length) {
        const i = this.simpleKeysByTok.get(this.tokensParsed)
        // (an index entry left behind may name a flow level closed since: go-yaml would fail on it; no text
        // found does that, so here it just does not hold the token back)
        const key = i === undefined ? undefined : this.simpleKeys[i]
        if (key === undefined) break
        const valid = this.simpleKeyIsValid(key)
        if (valid < 0) return false
        if (valid === 0) break
      }
      if (!this.fetchNextToken()) return false
    }
    this.tokenAvailable = true
    return true
  }

  /** yaml_parser_fetch_next_token: the dispatcher. */
  private fetchNextToken(): boolean {
    if (!this.cache(1)) return false
    if (!this.streamStartProduced) return this.fetchStreamStart()
    if (!this.scanToNextToken()) return false
    this.unrollIndent(this.mark.column)
    if (!this.cache(4)) return false
    const c = this.c
    const column = this.mark.column
    if (c === 0) return this.fetchStreamEnd()
    if (column === 0 && c === 0x25 /* % */) return this.fetchDirective()
    // `---` or `...` at the start of a line
    if (atDocumentIndicator(this)) {
      return this.fetchDocumentIndicator(c === 0x2d ? Tok.DOCUMENT_START : Tok.DOCUMENT_END)
    }
    const next = this.at(1)
    switch (c) {
      case 0x5b /* [ */:
        return this.fetchFlowCollectionStart(Tok.FLOW_SEQUENCE_START)
      case 0x7b /* { */:
        return this.fetchFlowCollectionStart(Tok.FLOW_MAPPING_START)
      case 0x5d /* ] */:
        return this.fetchFlowCollectionEnd(Tok.FLOW_SEQUENCE_END)
      case 0x7d /* } */:
        return this.fetchFlowCollectionEnd(Tok.FLOW_MAPPING_END)
      case 0x2c /* , */:
        return this.fetchFlowEntry()
    }
    if (c === 0x2d /* - */ && isBlankZ(next)) return this.fetchBlockEntry()
    if (c === 0x3f /* ? */ && (this.flowLevel > 0 || isBlankZ(next))) return this.fetchKey()
    if (c === 0x3a /* : */ && (this.flowLevel > 0 || isBlankZ(next))) return this.fetchValue()
    switch (c) {
      case 0x2a /* * */:
        return this.fetchAnchor(Tok.ALIAS)
      case 0x26 /* & */:
        return this.fetchAnchor(Tok.ANCHOR)
      case 0x21 /* ! */:
        return this.fetchTag()
      case 0x7c /* | */:
        if (this.flowLevel === 0) return this.fetchBlockScalar()
        break
      case 0x3e /* > */:
        if (this.flowLevel === 0) return this.fetchBlockScalar()
        break
      case 0x27 /* ' */:
        return this.fetchFlowScalar(true)
      case 0x22 /* " */:
        return this.fetchFlowScalar(false)
    }
    // A plain scalar starts with any non-blank character but the indicators; '-' (and in the block
    // context '?' and ':') start one when a non-blank character follows.
    if (
      !(isBlankZ(c) || PLAIN_REFUSED.has(c)) ||
      (c === 0x2d && !isBlank(next)) ||
      (this.flowLevel === 0 && (c === 0x3f || c === 0x3a) && !isBlankZ(next))
    ) {
      return this.fetchPlainScalar()
    }
    return this.error('while scanning for the next token', this.mark, 'found character that cannot start any token')
  }

  /** yaml_simple_key_is_valid: 1 valid, 0 not (any more), -1 an error (a required key with no ':'). */
  private simpleKeyIsValid(key: SimpleKey): number {
    if (!key.possible) return 0
    // a simple key is on one line and its ':' at most 1024 characters past its start
    if (key.mark.line < this.mark.line || key.mark.index + 1024 < this.mark.index) {
      if (key.required) {
        this.error('while scanning a simple key', key.mark, "could not find expected ':'")
        return -1
      }
      key.possible = false
      return 0
    }
    return 1
  }

  /** yaml_parser_save_simple_key: the current position may start a simple key. */
  private saveSimpleKey(): boolean {
    // in the block context, a key at the indentation column is required
    const required = this.flowLevel === 0 && this.indent === this.mark.column
    if (this.simpleKeyAllowed) {
      const key: SimpleKey = { possible: true, required, tokenNumber: this.nextTokenNumber, mark: copyMark(this.mark) }
      if (!this.removeSimpleKey()) return false
      this.simpleKeys[this.simpleKeys.length - 1] = key
      this.simpleKeysByTok.set(key.tokenNumber, this.simpleKeys.length - 1)
    }
    return true
  }

  /** yaml_parser_remove_simple_key: drop the possible simple key of the current flow level. */
  private removeSimpleKey(): boolean {
    const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey
    if (key.possible) {
      if (key.required) return this.error('while scanning a simple key', key.mark, "could not find expected ':'")
      key.possible = false
      this.simpleKeysByTok.delete(key.tokenNumber)
    }
    return true
  }

  /** yaml_parser_increase_flow_level */
  private increaseFlowLevel(): boolean {
    this.simpleKeys.push({
      possible: false,
      required: false,
      tokenNumber: this.nextTokenNumber,
      mark: copyMark(this.mark),
    })
    this.flowLevel++
    if (this.flowLevel > MAX_DEPTH) {
      const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey
      return this.error('while increasing flow level', key.mark, `exceeded max depth of ${MAX_DEPTH}`)
    }
    return true
  }

  /** yaml_parser_decrease_flow_level (deletes the index entry of the level's key's number, whoever holds it) */
  private decreaseFlowLevel(): void {
    if (this.flowLevel > 0) {
      this.flowLevel--
      const key = this.simpleKeys.pop() as SimpleKey
      this.simpleKeysByTok.delete(key.tokenNumber)
    }
  }

  /**
   * yaml_parser_roll_indent: in the block context, a deeper column opens a block collection, its token put at
   * token number `number` (or at the end when -1).
   */
  private rollIndent(column: number, number: number, type: TokenType, mark: Mark): boolean {
    if (this.flowLevel > 0) return true
    if (this.indent < column) {
      this.indents.push(this.indent)
      this.indent = column
      if (this.indents.length > MAX_DEPTH) {
        const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey
        return this.error('while increasing indent level', key.mark, `exceeded max depth of ${MAX_DEPTH}`)
      }
      if (number > -1) number -= this.tokensParsed
      this.insertToken(number, this.token(type, copyMark(mark)))
    }
    return true
  }

  /** yaml_parser_unroll_indent: a BLOCK-END for each block collection deeper than the column. */
  private unrollIndent(column: number): void {
    if (this.flowLevel > 0) return
    while (this.indent > column) {
      this.insertToken(-1, this.token(Tok.BLOCK_END, copyMark(this.mark)))
      this.indent = this.indents.pop() as number
    }
  }

  /** yaml_parser_fetch_stream_start */
  private fetchStreamStart(): boolean {
    this.indent = -1
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: { index: 0, line: 0, column: 0 } })
    this.simpleKeysByTok = new Map()
    this.simpleKeyAllowed = true
    this.streamStartProduced = true
    this.insertToken(-1, this.token(Tok.STREAM_START, copyMark(this.mark)))
    return true
  }

  /** yaml_parser_fetch_stream_end */
  private fetchStreamEnd(): boolean {
    // force a new line
    if (this.mark.column !== 0) {
      this.mark.column = 0
      this.mark.line++
    }
    this.unrollIndent(-1)
    if (!this.removeSimpleKey()) return false
    this.simpleKeyAllowed = false
    this.insertToken(-1, this.token(Tok.STREAM_END, copyMark(this.mark)))
    return true
  }

  /** yaml_parser_fetch_directive */
  private fetchDirective(): boolean {
    this.unrollIndent(-1)
    if (!this.removeSimpleKey()) return false
    this.simpleKeyAllowed = false
    const token = scanDirective(this)
    if (token === undefined) return false
    this.insertToken(-1, token)
    return true
  }

  /** yaml_parser_fetch_document_indicator */
  private fetchDocumentIndicator(type: TokenType): boolean {
    this.unrollIndent(-1)
    if (!this.removeSimpleKey()) return false
    this.simpleKeyAllowed = false
    const start = copyMark(this.mark)
    this.skip()
    this.skip()
    this.skip()
    this.insertToken(-1, this.token(type, start, copyMark(this.mark)))
    return true
  }

  /** yaml_parser_fetch_flow_collection_start */
  private fetchFlowCollectionStart(type: TokenType): boolean {
    // '[' and '{' may start a simple key
    if (!this.saveSimpleKey()) return false
    if (!this.increaseFlowLevel()) return false
    this.simpleKeyAllowed = true
    this.consumeIndicator(type)
    return true
  }

  /** yaml_parser_fetch_flow_collection_end */
  private fetchFlowCollectionEnd(type: TokenType): boolean {
    if (!this.removeSimpleKey()) return false
    this.decreaseFlowLevel()
    this.simpleKeyAllowed = false
    this.consumeIndicator(type)
    return true
  }

  /** yaml_parser_fetch_flow_entry */
  private fetchFlowEntry(): boolean {
    if (!this.removeSimpleKey()) return false
    this.simpleKeyAllowed = true
    this.consumeIndicator(Tok.FLOW_ENTRY)
    return true
  }

  /** yaml_parser_fetch_block_entry */
  private fetchBlockEntry(): boolean {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) {
        return this.error('', this.mark, 'block sequence entries are not allowed in this context')
      }
      if (!this.rollIndent(this.mark.column, -1, Tok.BLOCK_SEQUENCE_START, this.mark)) return false
    }
    // (a '-' in the flow context is the parser's error, which can say where)
    if (!this.removeSimpleKey()) return false
    this.simpleKeyAllowed = true
    this.consumeIndicator(Tok.BLOCK_ENTRY)
    return true
  }

  /** yaml_parser_fetch_key */
  private fetchKey(): boolean {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) {
        return this.error('', this.mark, 'mapping keys are not allowed in this context')
      }
      if (!this.rollIndent(this.mark.column, -1, Tok.BLOCK_MAPPING_START, this.mark)) return false
    }
    if (!this.removeSimpleKey()) return false
    this.simpleKeyAllowed = this.flowLevel === 0
    this.consumeIndicator(Tok.KEY)
    return true
  }

  /** yaml_parser_fetch_value */
  private fetchValue(): boolean {
    const key = this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey
    const valid = this.simpleKeyIsValid(key)
    if (valid < 0) return false
    if (valid === 1) {
      // a simple key: its KEY token goes in where it started, and maybe a BLOCK-MAPPING-START before that
      this.insertToken(key.tokenNumber - this.tokensParsed, this.token(Tok.KEY, key.mark))
      if (!this.rollIndent(key.mark.column, key.tokenNumber, Tok.BLOCK_MAPPING_START, key.mark)) return false
      key.possible = false
      this.simpleKeysByTok.delete(key.tokenNumber)
      this.simpleKeyAllowed = false
    } else {
      // the ':' of a complex key ('?')
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) {
          return this.error('', this.mark, 'mapping values are not allowed in this context')
        }
        if (!this.rollIndent(this.mark.column, -1, Tok.BLOCK_MAPPING_START, this.mark)) return false
      }
      this.simpleKeyAllowed = this.flowLevel === 0
    }
    this.consumeIndicator(Tok.VALUE)
    return true
  }

  /** yaml_parser_fetch_anchor (an alias or an anchor may be a simple key) */
  private fetchAnchor(type: TokenType): boolean {
    if (!this.saveSimpleKey()) return false
    this.simpleKeyAllowed = false
    const token = this.scanAnchor(type)
    if (token === undefined) return false
    this.insertToken(-1, token)
    return true
  }

  /** yaml_parser_fetch_tag */
  private fetchTag(): boolean {
    if (!this.saveSimpleKey()) return false
    this.simpleKeyAllowed = false
    const token = scanTag(this)
    if (token === undefined) return false
    this.insertToken(-1, token)
    return true
  }

  /** yaml_parser_fetch_block_scalar */
  private fetchBlockScalar(): boolean {
    if (!this.removeSimpleKey()) return false
    // a simple key may follow a block scalar
    this.simpleKeyAllowed = true
    const start = copyMark(this.mark)
    if (!scanBlockScalar(this, this.indent)) return false
    this.insertToken(-1, this.token(Tok.SCALAR, start, copyMark(this.mark)))
    return true
  }

  /** yaml_parser_fetch_flow_scalar */
  private fetchFlowScalar(single: boolean): boolean {
    if (!this.saveSimpleKey()) return false
    this.simpleKeyAllowed = false
    const start = copyMark(this.mark)
    if (!scanFlowScalar(this, single)) return false
    this.insertToken(-1, this.token(Tok.SCALAR, start, copyMark(this.mark)))
    return true
  }

  /** yaml_parser_fetch_plain_scalar */
  private fetchPlainScalar(): boolean {
    if (!this.saveSimpleKey()) return false
    this.simpleKeyAllowed = false
    const start = copyMark(this.mark)
    const leadingBlanks = scanPlainScalar(this, this.indent, this.flowLevel)
    if (leadingBlanks === undefined) return false
    // a plain scalar that went on past a line break may be followed by a simple key
    if (leadingBlanks) this.simpleKeyAllowed = true
    this.insertToken(-1, this.token(Tok.SCALAR, start, copyMark(this.mark)))
    return true
  }

  /** An indicator of one character: consume it and queue its token. */
  private consumeIndicator(type: TokenType): void {
    const start = copyMark(this.mark)
    this.skip()
    this.insertToken(-1, this.token(type, start, copyMark(this.mark)))
  }

  /** yaml_parser_scan_to_next_token: eat blanks, comments and line breaks. */
  private scanToNextToken(): boolean {
    for (;;) {
      if (!this.cache(1)) return false
      // a BOM may start a line (go-yaml's is_bom looks at the start of its buffer, wherever the position is)
      if (this.mark.column === 0 && this.bufferStartsWithBOM()) this.skip()
      if (!this.cache(1)) return false
      // tabs are eaten in the flow context, and in the block context where no simple key may start
      while (this.c === 0x20 || ((this.flowLevel > 0 || !this.simpleKeyAllowed) && this.c === 0x09)) {
        this.skip()
        if (!this.cache(1)) return false
      }
      if (this.c === 0x23 /* # */) {
        while (!isBreakZ(this.c)) {
          this.skip()
          if (!this.cache(1)) return false
        }
      }
      if (!isBreak(this.c)) return true
      if (!this.cache(2)) return false
      this.skipLine()
      // in the block context, a new line may start a simple key
      if (this.flowLevel === 0) this.simpleKeyAllowed = true
    }
  }

  /** yaml_parser_scan_anchor: an alias `*name` or an anchor `&name`. */
  private scanAnchor(type: TokenType): Token | undefined {
    const start = copyMark(this.mark)
    this.skip()
    if (!this.cache(1)) return undefined
    const from = this.offset
    while (isAlpha(this.c)) {
      this.skip()
      if (!this.cache(1)) return undefined
    }
    const name = this.slice(from)
    const end = copyMark(this.mark)
    // a name, then a blank or one of '?', ':', ',', ']', '}', '%', '@', '`'
    if (name.length === 0 || !(isBlankZ(this.c) || ANCHOR_FOLLOWERS.has(this.c))) {
      const context = type === Tok.ANCHOR ? 'while scanning an anchor' : 'while scanning an alias'
      this.error(context, start, 'did not find expected alphabetic or numeric character')
      return undefined
    }
    return { type, start, end, value: name }
  }
}

/** The characters that cannot start a plain scalar (unless followed by a non-blank, for '-', '?', ':'). */
const PLAIN_REFUSED = new Set([...'-?:,[]{}#&*!|>\'"%@`'].map((ch) => ch.charCodeAt(0)))

/** The characters that may follow an anchor's or alias's name. */
const ANCHOR_FOLLOWERS = new Set([...'?:,]}%@`'].map((ch) => ch.charCodeAt(0)))
