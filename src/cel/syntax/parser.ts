import type { Expr, MapEntry, ParsedAst, SourceInfo, StructField } from '../common/ast.js'
import { CelCompileError } from '../common/errors.js'
import { type CelIssue, Source } from '../common/source.js'
import { lex, TokenBuffer } from './lexer.js'
import {
  ACCUMULATOR_NAME,
  HIDDEN_ACCUMULATOR_NAME,
  KUBERNETES_MACROS,
  MacroError,
  type MacroHelper,
  type MacroTable,
  macroKey,
  macroTable,
} from './macros.js'
import {
  call,
  comprehension,
  EMPTY,
  FALSE_VALUE,
  ident,
  list,
  literal,
  map,
  mapEntry,
  NULL_VALUE,
  select,
  struct,
  structField,
  TRUE_VALUE,
} from './nodes.js'
import { PositionMap } from './positions.js'
import { CONTINUES_EXPR, EXPR_START, formatTokenSet, STARTS_EXPR, T, TOKEN_NAMES } from './tokens.js'
import { UnescapeError, unescapeBytes, unescapeString } from './unescape.js'

// A recursive-descent parser producing exactly the AST cel-go v0.26's ANTLR parser and visitor
// produce (parser/parser.go, parser/helper.go): the same node ids (allocated in the visitor's
// order), offsets, macro expansions, balanced && / || trees, and the same limits:
//  - ANTLR's per-rule recursion listener ("expression recursion limit exceeded: N"), emulated by
//    counting rule entries exactly as the generated parser triggers them;
//  - the visitor's depth check ("max recursion depth exceeded") over the counted contexts
//    (ternary, relation, calc, select, member call, index), computed bottom-up.
// Syntax errors follow ANTLR's DefaultErrorStrategy for the first error (extraneous input with
// single-token deletion, missing token, mismatched input, no viable alternative); after an error
// that ANTLR would recover from by resynchronising, parsing stops (cel-go would go on and may
// report more errors, but the first position agrees).

export interface ParseOptions {
  /** Enabled macros: names (`all`) or `name:argc` (`all:2`). Default: the Kubernetes set. */
  readonly macros?: ReadonlySet<string>
  /** `a.?b`, `m[?k]`, `[?x]`, `{?k: v}`, `Msg{?f: v}` (cel.OptionalTypes). Default true. */
  readonly enableOptionalSyntax?: boolean
  /** Backtick-quoted field names ``a.`b-c` `` (cel.EnableIdentifierEscapeSyntax). Default false. */
  readonly enableIdentEscapeSyntax?: boolean
  /** Accumulator `@result` (true, cel-go's default) or the legacy `__result__`. */
  readonly hiddenAccumulatorName?: boolean
  /** Record macro calls in SourceInfo.macroCalls. Default true. */
  readonly populateMacroCalls?: boolean
  /** Default 250; -1 for no limit. */
  readonly maxRecursionDepth?: number
  /** Default 30; -1 for no limit. */
  readonly errorRecoveryLimit?: number
  /** Syntax errors reported before giving up. Default 100. */
  readonly errorReportingLimit?: number
  /** Default 100 000 code points; -1 for no limit. */
  readonly expressionSizeCodePointLimit?: number
  /** Source description in error messages. Default `<input>`. */
  readonly description?: string
}

// ANTLR rule indexes (CEL.g4), for the recursion listener's per-rule depth counters.
const R_START = 0
const R_EXPR = 1
const R_OR = 2
const R_AND = 3
const R_RELATION = 4
const R_CALC = 5
const R_UNARY = 6
const R_MEMBER = 7
const R_PRIMARY = 8
const R_EXPR_LIST = 9
const R_LIST_INIT = 10
const R_FIELD_INIT = 11
const R_OPT_FIELD = 12
const R_MAP_INIT = 13
const R_ESC_IDENT = 14
const R_OPT_EXPR = 15
const R_LITERAL = 16

// What may follow the innermost enclosing expression (used by ANTLR's single-token insertion).
const C_TOP = 0
const C_PAREN = 1 // )
const C_ARGS = 2 // , )
const C_LIST = 3 // , ]
const C_INDEX = 4 // ]
const C_MAP_KEY = 5 // :
const C_MAP_VALUE = 6 // , }
const C_TERNARY = 7 // :

const RESERVED = new Set([
  'as',
  'break',
  'const',
  'continue',
  'else',
  'false',
  'for',
  'function',
  'if',
  'import',
  'in',
  'let',
  'loop',
  'package',
  'namespace',
  'null',
  'return',
  'true',
  'var',
  'void',
  'while',
])

const RELATION_OPS: readonly (string | undefined)[] = (() => {
  const t: (string | undefined)[] = []
  t[T.EQUALS] = '_==_'
  t[T.NOT_EQUALS] = '_!=_'
  t[T.IN] = '@in'
  t[T.LESS] = '_<_'
  t[T.LESS_EQUALS] = '_<=_'
  t[T.GREATER_EQUALS] = '_>=_'
  t[T.GREATER] = '_>_'
  return t
})()

/** Tokens that end an expression inside brackets, arguments, entries or a ternary. */
const CLOSES_EXPR: Uint8Array = (() => {
  const t = new Uint8Array(40)
  for (const k of [T.RPAREN, T.RBRACKET, T.RBRACE, T.COMMA, T.COLON]) t[k] = 1
  return t
})()

/** A set of token kinds: the list (for messages) and a lookup table (for the hot path). */
interface TokenSet {
  readonly kinds: readonly number[]
  readonly has: Uint8Array
}

function tokenSet(kinds: readonly number[]): TokenSet {
  const has = new Uint8Array(40)
  for (const k of kinds) has[k] = 1
  return { kinds, has }
}

// The sets ANTLR's sync() expects at the optional blocks of the grammar.
const EXPR_SET = tokenSet(EXPR_START)
const LIST_BLOCK = tokenSet([...EXPR_START, T.QUESTION, T.COMMA, T.RBRACKET])
const MAP_BLOCK = tokenSet([...EXPR_START, T.QUESTION, T.COMMA, T.RBRACE])
const ARGS_BLOCK = tokenSet([...EXPR_START, T.RPAREN])
const FIELD_BLOCK = tokenSet([T.RBRACE, T.COMMA, T.QUESTION, T.IDENTIFIER, T.ESC_IDENTIFIER])
const ESC_IDENT_SET = tokenSet([T.IDENTIFIER, T.ESC_IDENTIFIER])

/** Thrown to stop parsing (the issues are already recorded). */
const BAIL = { bail: true }

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const UINT64_MAX = 2n ** 64n - 1n

// Buffers reused by every parse (parsing is synchronous and not re-entrant).
const tokens = new TokenBuffer()
const ruleDepth = new Int32Array(17)
const ctxStack: number[] = []

/** Lexes and parses a CEL expression; throws CelCompileError('parse', ...) on failure. */
export function parse(text: string, options: ParseOptions = {}): ParsedAst {
  const description = options.description ?? '<input>'
  const sizeLimit = options.expressionSizeCodePointLimit || 100_000
  if (sizeLimit >= 0 && text.length > sizeLimit) {
    const size = codePointCount(text)
    if (size > sizeLimit) {
      const message = `expression code point size exceeds limit: size: ${size}, limit ${sizeLimit}`
      throw new CelCompileError('parse', [{ message, offset: -1 }], new Source(text, description))
    }
  }
  lex(text, tokens)
  const p = new Parser(text, options)
  let expr: Expr | undefined
  try {
    expr = p.parseStart()
  } catch (e) {
    if (e === BAIL) expr = undefined
    else if (e instanceof RangeError) {
      // Only reachable with maxRecursionDepth -1 (no limit): the JS stack ran out first.
      p.internalError('max recursion depth exceeded')
      p.listenerBailed = true
    } else throw e
  }
  const issues = p.collectIssues()
  if (issues.length > 0 || expr === undefined) throw new CelCompileError('parse', issues, new Source(text, description))
  // trimmed only when the last ids were deleted (setting an array's length is a slow path even when unchanged)
  const ids = p.nextIdValue()
  if (p.offs.length > ids) p.offs.length = ids
  return new Parsed(expr, { positions: new PositionMap(p.offs), macroCalls: p.macroCalls }, text, description)
}

/**
 * The parse result. Its Source (line table) is built on first use, off the hot path (an object
 * literal with an own getter costs ~800 ns in V8); note that `{ ...ast }` does not copy the
 * prototype getter `source`: build a new object with `source: ast.source` instead.
 */
class Parsed implements ParsedAst {
  #source: Source | undefined
  constructor(
    readonly expr: Expr,
    readonly sourceInfo: SourceInfo,
    private readonly text: string,
    private readonly description: string,
  ) {}
  get source(): Source {
    this.#source ??= new Source(this.text, this.description)
    return this.#source
  }
}

function codePointCount(text: string): number {
  let n = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const h = text.charCodeAt(i - 1)
      if (h >= 0xd800 && h <= 0xdbff) n--
    }
  }
  return n
}

class Parser implements MacroHelper {
  /** Offsets by node id (-1: none); SourceInfo.positions is built from it. */
  readonly offs: number[] = [-1]
  readonly macroCalls = new Map<number, Expr>()
  readonly accuName: string
  listenerBailed = false

  private readonly k: Uint8Array
  private readonly s: Int32Array
  private readonly e: Int32Array
  private p = 0
  private nextId = 1
  private readonly depth = ruleDepth
  private readonly maxDepth: number
  private readonly recoveryLimit: number
  private readonly reportingLimit: number
  private readonly macros: MacroTable
  private readonly optional: boolean
  private readonly escapes: boolean
  private readonly populate: boolean
  /** Visitor depth of the expression returned last. */
  private vd = 0
  private visitExceeded = false
  private recoveries = 0
  /** Token index of the last reported syntax error (error-recovery mode while p is still there). */
  private errTok = -1
  private lastUnaryRecovery = -1
  private macroOffset = -1
  private readonly ctx = ctxStack
  private syntaxIssues: CelIssue[] | undefined
  private semanticIssues: CelIssue[] | undefined
  private internalIssues: CelIssue[] | undefined

  constructor(
    private readonly text: string,
    o: ParseOptions,
  ) {
    ruleDepth.fill(0)
    ctxStack.length = 1
    ctxStack[0] = C_TOP
    // Two padding EOF tokens make k[p + 1] and k[p + 2] always readable.
    const n = text.length
    tokens.push(T.EOF, n, n)
    tokens.push(T.EOF, n, n)
    this.k = tokens.kinds
    this.s = tokens.starts
    this.e = tokens.ends
    const md = o.maxRecursionDepth ?? 250
    this.maxDepth = md < 0 ? Number.MAX_SAFE_INTEGER : md === 0 ? 250 : md
    const rl = o.errorRecoveryLimit ?? 30
    this.recoveryLimit = rl < 0 ? Number.MAX_SAFE_INTEGER : rl === 0 ? 30 : rl
    this.reportingLimit = o.errorReportingLimit ?? 100
    this.macros = macroTable(o.macros ?? KUBERNETES_MACROS)
    this.optional = o.enableOptionalSyntax ?? true
    this.escapes = o.enableIdentEscapeSyntax ?? false
    this.populate = o.populateMacroCalls ?? true
    this.accuName = (o.hiddenAccumulatorName ?? true) ? HIDDEN_ACCUMULATOR_NAME : ACCUMULATOR_NAME
  }

  // ---- ids, positions and issues ----

  private newId(offset: number): number {
    const id = this.nextId++
    this.offs[id] = offset
    return id
  }

  private offsetOf(id: number): number {
    return this.offs[id] ?? -1
  }

  private deleteId(id: number): void {
    this.offs[id] = -1
    if (id === this.nextId - 1) this.nextId--
  }

  nextIdValue(): number {
    return this.nextId
  }

  /** MacroHelper: a fresh id at the macro call. */
  id(): number {
    return this.newId(this.macroOffset)
  }

  /** Records a semantic error at `offset` and returns a placeholder expression (cel-go's unspecified expr). */
  private reportError(offset: number, message: string): Expr {
    const id = this.newId(offset)
    ;(this.semanticIssues ??= []).push({ message, offset })
    return literal(id, NULL_VALUE)
  }

  internalError(message: string): void {
    ;(this.internalIssues ??= []).push({ message, offset: -1 })
  }

  /**
   * Reports a syntax error at token `tok`. Like ANTLR's DefaultErrorStrategy, errors are not
   * reported while in error-recovery mode: after an error and before the next token is matched.
   */
  private syntaxError(tok: number, message: string, force = false): void {
    if (!force && this.errTok === this.p) return
    this.errTok = this.p
    ;(this.syntaxIssues ??= []).push({ message: `Syntax error: ${message}`, offset: this.s[tok]! })
  }

  /** cel-go's recoveryLimitErrorStrategy.checkAttempts, before each recovery. */
  private countRecovery(): void {
    if (this.recoveries === this.recoveryLimit) {
      this.syntaxError(this.p, `error recovery attempt limit exceeded: ${this.recoveryLimit}`, true)
      throw BAIL
    }
    this.recoveries++
  }

  collectIssues(): CelIssue[] {
    if (!this.syntaxIssues && !this.semanticIssues && !this.internalIssues && !this.visitExceeded) {
      if (tokens.errOffsets.length === 0) return []
    }
    const syntax: CelIssue[] = []
    const lexOffsets = tokens.errOffsets
    // ANTLR fetches tokens lazily: after the listener aborted, later lexer errors were never seen.
    const lexEnd = this.listenerBailed ? this.e[this.p]! : Number.MAX_SAFE_INTEGER
    for (let i = 0; i < lexOffsets.length; i++) {
      if (lexOffsets[i]! <= lexEnd) {
        syntax.push({
          message: `Syntax error: token recognition error at: '${tokens.errTexts[i]}'`,
          offset: lexOffsets[i]!,
        })
      }
    }
    for (const s of this.syntaxIssues ?? []) syntax.push(s)
    syntax.sort((a, b) => a.offset - b.offset)
    if (syntax.length > this.reportingLimit) {
      const extra = syntax[this.reportingLimit]!
      syntax.length = this.reportingLimit
      syntax.push({ message: `Syntax error: More than ${this.reportingLimit} syntax errors`, offset: extra.offset })
    }
    let all: CelIssue[] = [...(this.internalIssues ?? []), ...syntax]
    if (this.listenerBailed) {
      // The parse aborted before cel-go's visitor ran: no semantic errors.
    } else if (this.visitExceeded) {
      all.unshift({ message: 'max recursion depth exceeded', offset: -1 })
    } else all = all.concat(this.semanticIssues ?? [])
    // cel-go displays errors sorted by location (stable), unknown locations first.
    return all.sort((a, b) => a.offset - b.offset)
  }

  // ---- ANTLR bookkeeping ----

  private enter(rule: number): void {
    if (++this.depth[rule]! > this.maxDepth) {
      this.internalError(`expression recursion limit exceeded: ${this.maxDepth}`)
      this.listenerBailed = true
      throw BAIL
    }
  }

  private exit(rule: number): void {
    if (this.depth[rule]! > 0) this.depth[rule]!--
  }

  private visited(d: number): number {
    if (d > this.maxDepth) this.visitExceeded = true
    return d
  }

  private display(tok: number): string {
    if (this.k[tok] === T.EOF) return "'<EOF>'"
    return `'${escapeWS(this.text.slice(this.s[tok]!, this.e[tok]!))}'`
  }

  /** DefaultErrorStrategy.recoverInline for a failed match of `kind`; returns the matched token index. */
  private recoverInline(kind: number): number {
    const cur = this.p
    this.countRecovery()
    const name = TOKEN_NAMES[kind]!
    if (this.k[cur + 1] === kind) {
      this.syntaxError(cur, `extraneous input ${this.display(cur)} expecting ${name}`)
      this.p = cur + 2
      return cur + 1
    }
    if (this.canFollow(kind, this.k[cur]!)) {
      this.syntaxError(cur, `missing ${name} at ${this.display(cur)}`)
      return cur
    }
    this.syntaxError(cur, `mismatched input ${this.display(cur)} expecting ${name}`)
    throw BAIL
  }

  /** Whether token `next` may follow a (missing) token `kind` in the current context. */
  private canFollow(kind: number, next: number): boolean {
    if (kind === T.COLON) return STARTS_EXPR[next] === 1
    if (kind === T.EOF) return false
    if (CONTINUES_EXPR[next]) return true
    switch (this.ctx[this.ctx.length - 1]) {
      case C_TOP:
        return next === T.EOF
      case C_PAREN:
        return next === T.RPAREN
      case C_ARGS:
        return next === T.COMMA || next === T.RPAREN
      case C_LIST:
        return next === T.COMMA || next === T.RBRACKET
      case C_INDEX:
        return next === T.RBRACKET
      case C_MAP_KEY:
      case C_TERNARY:
        return next === T.COLON
      default:
        return next === T.COMMA || next === T.RBRACE
    }
  }

  private expect(kind: number): number {
    const cur = this.p
    if (this.k[cur] === kind) {
      this.p = cur + 1
      return cur
    }
    return this.recoverInline(kind)
  }

  /** DefaultErrorStrategy.sync at a block start: delete one extraneous token or fail. */
  private sync(set: TokenSet): void {
    const cur = this.p
    if (set.has[this.k[cur]!]) return
    if (set.has[this.k[cur + 1]!]) {
      this.syntaxError(cur, `extraneous input ${this.display(cur)} expecting ${formatTokenSet(set.kinds)}`)
      this.p = cur + 1
      return
    }
    this.syntaxError(cur, `mismatched input ${this.display(cur)} expecting ${formatTokenSet(set.kinds)}`)
    throw BAIL
  }

  /**
   * The sync before `unary`'s alternatives. Returns false when the token cannot start an
   * expression: the error is reported and, as ANTLR's recover() leaves a token that may follow
   * the expression in place, the caller continues with a placeholder.
   */
  private syncExprStart(): boolean {
    const cur = this.p
    const k = this.k[cur]!
    if (STARTS_EXPR[k]) return true
    if (STARTS_EXPR[this.k[cur + 1]!]) {
      this.syntaxError(cur, `extraneous input ${this.display(cur)} expecting ${formatTokenSet(EXPR_START)}`)
      this.p = cur + 1
      return true
    }
    this.syntaxError(cur, `mismatched input ${this.display(cur)} expecting ${formatTokenSet(EXPR_SET.kinds)}`)
    this.countRecovery()
    if (cur === this.lastUnaryRecovery || !(k === T.EOF || CONTINUES_EXPR[k] || CLOSES_EXPR[k])) throw BAIL
    this.lastUnaryRecovery = cur
    return false
  }

  /** NoViableAltException: the text from the decision's first token through the offending one. */
  private noViableAlt(from: number, offending: number): never {
    let msg = `no viable alternative at input '${escapeWS(this.text.slice(this.s[from]!, this.e[offending]!))}'`
    // cel-go rewrites this for reserved words after a dot (parser.go reservedIdentifier).
    msg = msg.replace(
      /no viable alternative at input '.(true|false|null)'/,
      "mismatched input '$1' expecting IDENTIFIER",
    )
    this.syntaxError(offending, msg)
    throw BAIL
  }

  // ---- grammar rules ----

  parseStart(): Expr {
    this.enter(R_START)
    const e = this.parseExpr()
    if (this.k[this.p] !== T.EOF) this.recoverInline(T.EOF)
    this.exit(R_START)
    return e
  }

  private parseExprIn(ctx: number): Expr {
    this.ctx.push(ctx)
    const e = this.parseExpr()
    this.ctx.pop()
    return e
  }

  /** expr: conditionalOr ('?' conditionalOr ':' expr)? */
  private parseExpr(): Expr {
    this.enter(R_EXPR)
    let e = this.parseOr()
    if (this.k[this.p] === T.QUESTION) {
      let d = this.vd
      const opId = this.newId(this.s[this.p++]!)
      this.ctx.push(C_TERNARY)
      const t = this.parseOr()
      this.ctx.pop()
      d = Math.max(d, this.vd)
      this.expect(T.COLON)
      const f = this.parseExpr()
      d = Math.max(d, this.vd)
      e = this.callOrMacro(opId, '_?_:_', undefined, [e, t, f])
      this.vd = this.visited(d + 1)
    }
    this.exit(R_EXPR)
    return e
  }

  /** conditionalOr / conditionalAnd: a balanced tree of the terms (cel-go's logicManager). */
  private parseOr(): Expr {
    this.enter(R_OR)
    const first = this.parseAnd()
    if (this.k[this.p] !== T.LOGICAL_OR) {
      this.exit(R_OR)
      return first
    }
    let d = this.vd
    const terms: Expr[] = [first]
    const ops: number[] = []
    while (this.k[this.p] === T.LOGICAL_OR) {
      const off = this.s[this.p++]!
      terms.push(this.parseAnd())
      d = Math.max(d, this.vd)
      ops.push(this.newId(off))
    }
    this.vd = d
    this.exit(R_OR)
    return balance('_||_', terms, ops, 0, ops.length - 1)
  }

  private parseAnd(): Expr {
    this.enter(R_AND)
    const first = this.parseRelation(0)
    if (this.k[this.p] !== T.LOGICAL_AND) {
      this.exit(R_AND)
      return first
    }
    let d = this.vd
    const terms: Expr[] = [first]
    const ops: number[] = []
    while (this.k[this.p] === T.LOGICAL_AND) {
      const off = this.s[this.p++]!
      terms.push(this.parseRelation(0))
      d = Math.max(d, this.vd)
      ops.push(this.newId(off))
    }
    this.vd = d
    this.exit(R_AND)
    return balance('_&&_', terms, ops, 0, ops.length - 1)
  }

  /** relation: calc | relation op relation (left-recursive; one precedence level). */
  private parseRelation(prec: number): Expr {
    this.enter(R_RELATION)
    let lhs = this.parseCalc(0)
    if (prec === 0) {
      let op = RELATION_OPS[this.k[this.p]!]
      while (op !== undefined) {
        // The generated loop triggers exit + enter for each new recursion context.
        this.exit(R_RELATION)
        this.enter(R_RELATION)
        const d = this.vd
        const opId = this.newId(this.s[this.p++]!)
        const rhs = this.parseRelation(1)
        lhs = this.callOrMacro(opId, op, undefined, [lhs, rhs])
        this.vd = this.visited(Math.max(d, this.vd) + 1)
        op = RELATION_OPS[this.k[this.p]!]
      }
    }
    this.exit(R_RELATION)
    return lhs
  }

  /** calc: unary | calc ('*'|'/'|'%') calc | calc ('+'|'-') calc (precedence climbing, as ANTLR). */
  private parseCalc(prec: number): Expr {
    this.enter(R_CALC)
    let lhs = this.parseUnary()
    for (;;) {
      const k = this.k[this.p]
      let fn: string
      let next: number
      if (k === T.STAR || k === T.SLASH || k === T.PERCENT) {
        if (prec > 2) break
        fn = k === T.STAR ? '_*_' : k === T.SLASH ? '_/_' : '_%_'
        next = 3
      } else if (k === T.PLUS || k === T.MINUS) {
        if (prec > 1) break
        fn = k === T.PLUS ? '_+_' : '_-_'
        next = 2
      } else break
      this.exit(R_CALC)
      this.enter(R_CALC)
      const d = this.vd
      const opId = this.newId(this.s[this.p++]!)
      const rhs = this.parseCalc(next)
      lhs = this.callOrMacro(opId, fn, undefined, [lhs, rhs])
      this.vd = this.visited(Math.max(d, this.vd) + 1)
    }
    this.exit(R_CALC)
    return lhs
  }

  /** unary: member | '!'+ member | '-'+ member */
  private parseUnary(): Expr {
    this.enter(R_UNARY)
    if (!this.syncExprStart()) {
      this.exit(R_UNARY)
      this.vd = 0
      return literal(this.newId(this.s[this.p]!), NULL_VALUE)
    }
    const k = this.k[this.p]
    let e: Expr
    if (k === T.EXCLAM || (k === T.MINUS && !isNumber(this.k[this.p + 1]!))) {
      const first = this.p
      let count = 0
      while (this.k[this.p] === k) {
        this.p++
        count++
      }
      const next = this.k[this.p]!
      const memberStarts = STARTS_EXPR[next] && next !== T.EXCLAM && (next !== T.MINUS || isNumber(this.k[this.p + 1]!))
      if (!memberStarts) {
        if (k === T.MINUS) this.noViableAlt(this.p - 1, this.p)
        this.syntaxError(this.p, `extraneous input ${this.display(this.p)} expecting ${formatTokenSet(EXPR_START)}`)
        throw BAIL
      }
      if (count % 2 === 0) e = this.parseMember()
      else {
        const opId = this.newId(this.s[first]!)
        const target = this.parseMember()
        e = this.callOrMacro(opId, k === T.EXCLAM ? '!_' : '-_', undefined, [target])
      }
    } else e = this.parseMember()
    this.exit(R_UNARY)
    return e
  }

  /** member: primary ( '.' '?'? escapeIdent | '.' IDENTIFIER '(' exprList? ')' | '[' '?'? expr ']' )* */
  private parseMember(): Expr {
    this.enter(R_MEMBER)
    let e = this.parsePrimary()
    let d = this.vd
    for (;;) {
      const k = this.k[this.p]
      if (k === T.DOT) {
        this.exit(R_MEMBER)
        this.enter(R_MEMBER)
        const dot = this.p
        let q = dot + 1
        const opt = this.k[q] === T.QUESTION
        if (opt) q++
        const idk = this.k[q]
        if (idk !== T.IDENTIFIER && idk !== T.ESC_IDENTIFIER) this.noViableAlt(dot, q)
        this.p = q + 1
        if (idk === T.IDENTIFIER && !opt && this.k[this.p] === T.LPAREN) {
          const fn = this.text.slice(this.s[q]!, this.e[q]!)
          const opId = this.newId(this.s[this.p++]!)
          const args = this.parseArgs()
          d = Math.max(d, this.vd)
          e = this.callOrMacro(opId, fn, e, args)
        } else {
          this.enter(R_ESC_IDENT)
          this.exit(R_ESC_IDENT)
          const field = this.fieldName(q, q)
          if (opt) {
            if (!this.optional) e = this.reportError(this.s[dot]!, "unsupported syntax '.?'")
            else {
              const name = literal(this.newId(this.s[q]!), { type: 'string', value: field })
              e = call(this.newId(this.s[dot]!), '_?._', undefined, [e, name])
            }
          } else e = select(this.newId(this.s[dot]!), e, field, false)
        }
        d = this.visited(d + 1)
      } else if (k === T.LBRACKET) {
        this.exit(R_MEMBER)
        this.enter(R_MEMBER)
        const open = this.p++
        const opt = this.k[this.p] === T.QUESTION
        if (opt) this.p++
        const opId = this.newId(this.s[open]!)
        const index = this.parseExprIn(C_INDEX)
        d = Math.max(d, this.vd)
        this.expect(T.RBRACKET)
        if (opt && !this.optional) e = this.reportError(this.s[open]!, "unsupported syntax '[?'")
        else e = this.callOrMacro(opId, opt ? '_[?_]' : '_[_]', undefined, [e, index])
        d = this.visited(d + 1)
      } else break
    }
    this.exit(R_MEMBER)
    this.vd = d
    return e
  }

  /** The name of an escapeIdent token (IDENTIFIER or `ESC_IDENTIFIER`), reporting disabled escapes at `at`. */
  private fieldName(tok: number, at: number): string {
    const raw = this.text.slice(this.s[tok]!, this.e[tok]!)
    if (this.k[tok] === T.IDENTIFIER) return raw
    if (!this.escapes) {
      this.reportError(this.s[at]!, "unsupported syntax: '`'")
      return ''
    }
    return raw.slice(1, -1)
  }

  /** `exprList? ')'` after an opening parenthesis (already consumed). */
  private parseArgs(): Expr[] {
    this.sync(ARGS_BLOCK)
    let args: Expr[] = EMPTY as never as Expr[]
    let d = 0
    if (this.k[this.p] !== T.RPAREN) {
      this.enter(R_EXPR_LIST)
      args = [this.parseExprIn(C_ARGS)]
      d = this.vd
      while (this.k[this.p] === T.COMMA) {
        this.p++
        args.push(this.parseExprIn(C_ARGS))
        d = Math.max(d, this.vd)
      }
      this.exit(R_EXPR_LIST)
    }
    this.expect(T.RPAREN)
    this.vd = d
    return args
  }

  private parsePrimary(): Expr {
    this.enter(R_PRIMARY)
    let e: Expr
    const k = this.k[this.p]
    switch (k) {
      case T.DOT:
      case T.IDENTIFIER:
        e = this.parseIdentOrCall()
        break
      case T.LPAREN: {
        this.p++
        e = this.parseExprIn(C_PAREN)
        this.expect(T.RPAREN)
        break
      }
      case T.LBRACKET:
        e = this.parseList()
        break
      case T.LBRACE:
        e = this.parseMap()
        break
      default:
        e = this.parseLiteral()
        this.vd = 0
    }
    this.exit(R_PRIMARY)
    return e
  }

  /** Ident, GlobalCall or CreateMessage, each with an optional leading dot. */
  private parseIdentOrCall(): Expr {
    const start = this.p
    const dotted = this.k[start] === T.DOT
    const idTok = dotted ? start + 1 : start
    if (this.k[idTok] !== T.IDENTIFIER) this.noViableAlt(start, idTok)
    // CreateMessage: IDENTIFIER ('.' IDENTIFIER)* '{'
    let j = idTok + 1
    while (this.k[j] === T.DOT && this.k[j + 1] === T.IDENTIFIER) j += 2
    if (this.k[j] === T.LBRACE) return this.parseMessage(start, idTok, j)
    const name = this.text.slice(this.s[idTok]!, this.e[idTok]!)
    this.p = idTok + 1
    if (this.k[this.p] === T.LPAREN) {
      const opId = this.newId(this.s[this.p++]!)
      const args = this.parseArgs()
      if (RESERVED.has(name)) return this.reportError(this.s[start]!, `reserved identifier: ${name}`)
      return this.callOrMacro(opId, dotted ? `.${name}` : name, undefined, args)
    }
    this.vd = 0
    if (RESERVED.has(name)) return this.reportError(this.s[start]!, `reserved identifier: ${name}`)
    return ident(this.newId(this.s[idTok]!), dotted ? `.${name}` : name)
  }

  /** leadingDot? IDENTIFIER ('.' IDENTIFIER)* '{' fieldInitializerList? ','? '}' */
  private parseMessage(start: number, idTok: number, brace: number): Expr {
    let typeName = this.k[start] === T.DOT ? '.' : ''
    for (let t = idTok; t < brace; t += 2) {
      if (t > idTok) typeName += '.'
      typeName += this.text.slice(this.s[t]!, this.e[t]!)
    }
    this.p = brace + 1
    const objId = this.newId(this.s[brace]!)
    this.sync(FIELD_BLOCK)
    const fields: StructField[] = []
    let d = 0
    let k = this.k[this.p]
    if (k === T.QUESTION || k === T.IDENTIFIER || k === T.ESC_IDENTIFIER) {
      this.enter(R_FIELD_INIT)
      const listStart = this.p
      for (;;) {
        this.enter(R_OPT_FIELD)
        const optTok = this.p
        const opt = this.k[optTok] === T.QUESTION
        if (opt) this.p++
        this.enter(R_ESC_IDENT)
        this.sync(ESC_IDENT_SET)
        const nameTok = this.p++
        this.exit(R_ESC_IDENT)
        this.exit(R_OPT_FIELD)
        const colon = this.expect(T.COLON)
        const fieldId = this.newId(this.s[colon]!)
        let ok = true
        if (opt && !this.optional) {
          this.reportError(this.s[optTok]!, "unsupported syntax '?'")
          ok = false
        }
        const name = ok ? this.fieldName(nameTok, listStart) : ''
        if (ok && this.k[nameTok] === T.ESC_IDENTIFIER && !this.escapes) ok = false
        const reported = this.semanticIssues?.length ?? 0
        const value = this.parseExprIn(C_MAP_VALUE)
        d = Math.max(d, this.vd)
        if (ok) fields.push(structField(fieldId, name, value, opt))
        // cel-go does not visit the value of a rejected field.
        else if (this.semanticIssues) this.semanticIssues.length = reported
        if (this.k[this.p] !== T.COMMA) break
        k = this.k[this.p + 1]
        if (k === T.QUESTION || k === T.IDENTIFIER || k === T.ESC_IDENTIFIER) this.p++
        else if (k === T.RBRACE) break
        else this.noViableAlt(this.p, this.p + 1)
      }
      this.exit(R_FIELD_INIT)
    }
    if (this.k[this.p] === T.COMMA) this.p++
    this.expect(T.RBRACE)
    this.vd = d
    return struct(objId, typeName, fields)
  }

  /** '[' listInit? ','? ']' */
  private parseList(): Expr {
    const listId = this.newId(this.s[this.p++]!)
    this.sync(LIST_BLOCK)
    const elems: Expr[] = []
    const optionals: number[] = []
    let d = 0
    let k = this.k[this.p]!
    if (k === T.QUESTION || STARTS_EXPR[k]) {
      this.enter(R_LIST_INIT)
      for (;;) {
        this.enter(R_OPT_EXPR)
        const optTok = this.p
        const opt = this.k[optTok] === T.QUESTION
        if (opt) this.p++
        const e = this.parseExprIn(C_LIST)
        this.exit(R_OPT_EXPR)
        d = Math.max(d, this.vd)
        if (opt) {
          if (!this.optional) this.reportError(this.s[optTok]!, "unsupported syntax '?'")
          else optionals.push(elems.length)
        }
        elems.push(e)
        if (this.k[this.p] !== T.COMMA) break
        k = this.k[this.p + 1]!
        if (k === T.QUESTION || STARTS_EXPR[k]) this.p++
        else if (k === T.RBRACKET) break
        else this.noViableAlt(this.p, this.p + 1)
      }
      this.exit(R_LIST_INIT)
    }
    if (this.k[this.p] === T.COMMA) this.p++
    this.expect(T.RBRACKET)
    this.vd = d
    return list(listId, elems, optionals.length > 0 ? optionals : EMPTY)
  }

  /** '{' mapInitializerList? ','? '}' */
  private parseMap(): Expr {
    const mapId = this.newId(this.s[this.p++]!)
    this.sync(MAP_BLOCK)
    const entries: MapEntry[] = []
    let d = 0
    let k = this.k[this.p]!
    if (k === T.QUESTION || STARTS_EXPR[k]) {
      this.enter(R_MAP_INIT)
      for (;;) {
        // cel-go allocates the entry id (at the colon) before visiting the key.
        const entryId = this.newId(-1)
        this.enter(R_OPT_EXPR)
        const optTok = this.p
        const opt = this.k[optTok] === T.QUESTION
        if (opt) this.p++
        const reported = this.semanticIssues?.length ?? 0
        const key = this.parseExprIn(C_MAP_KEY)
        this.exit(R_OPT_EXPR)
        d = Math.max(d, this.vd)
        const colon = this.expect(T.COLON)
        this.offs[entryId] = this.s[colon]!
        const value = this.parseExprIn(C_MAP_VALUE)
        d = Math.max(d, this.vd)
        if (opt && !this.optional) {
          // cel-go reports the '?' and does not visit the entry.
          if (this.semanticIssues) this.semanticIssues.length = reported
          this.reportError(this.s[optTok]!, "unsupported syntax '?'")
        } else entries.push(mapEntry(entryId, key, value, opt))
        if (this.k[this.p] !== T.COMMA) break
        k = this.k[this.p + 1]!
        if (k === T.QUESTION || STARTS_EXPR[k]) this.p++
        else if (k === T.RBRACE) break
        else this.noViableAlt(this.p, this.p + 1)
      }
      this.exit(R_MAP_INIT)
    }
    if (this.k[this.p] === T.COMMA) this.p++
    this.expect(T.RBRACE)
    this.vd = d
    return map(mapId, entries)
  }

  private parseLiteral(): Expr {
    this.enter(R_LITERAL)
    const start = this.p
    const off = this.s[start]!
    let neg = false
    if (this.k[start] === T.MINUS) {
      neg = true
      this.p++
    }
    const tok = this.p++
    const k = this.k[tok]
    const text = this.text.slice(this.s[tok]!, this.e[tok]!)
    let e: Expr
    switch (k) {
      case T.NUM_INT: {
        const v = neg ? -BigInt(text) : BigInt(text)
        e =
          v < INT64_MIN || v > INT64_MAX
            ? this.reportError(off, 'invalid int literal')
            : literal(this.newId(off), { type: 'int', value: v })
        break
      }
      case T.NUM_UINT: {
        const v = BigInt(text.slice(0, -1))
        e =
          v > UINT64_MAX
            ? this.reportError(off, 'invalid uint literal')
            : literal(this.newId(off), { type: 'uint', value: v })
        break
      }
      case T.NUM_FLOAT: {
        const v = Number(text)
        e = Number.isFinite(v)
          ? literal(this.newId(off), { type: 'double', value: neg ? -v : v })
          : this.reportError(off, 'invalid double literal')
        break
      }
      case T.STRING:
        try {
          e = literal(this.newId(off), { type: 'string', value: unescapeString(text) })
        } catch (err) {
          if (!(err instanceof UnescapeError)) throw err
          e = this.reportError(off, err.message)
        }
        break
      case T.BYTES:
        try {
          e = literal(this.newId(off), { type: 'bytes', value: unescapeBytes(text) })
        } catch (err) {
          if (!(err instanceof UnescapeError)) throw err
          e = this.reportError(off, err.message)
        }
        break
      case T.TRUE:
        e = literal(this.newId(off), TRUE_VALUE)
        break
      case T.FALSE:
        e = literal(this.newId(off), FALSE_VALUE)
        break
      case T.NULL:
        e = literal(this.newId(off), NULL_VALUE)
        break
      default:
        // Unreachable after syncExprStart; kept as a syntax error rather than a crash.
        this.p = start
        this.syntaxError(start, `mismatched input ${this.display(start)} expecting ${formatTokenSet(EXPR_START)}`)
        throw BAIL
    }
    this.exit(R_LITERAL)
    return e
  }

  // ---- calls and macros ----

  private callOrMacro(opId: number, fn: string, target: Expr | undefined, args: Expr[]): Expr {
    if (this.macros.names.has(fn)) {
      const expand = this.macros.byKey.get(macroKey(fn, args.length, target !== undefined))
      if (expand) {
        this.macroOffset = this.offsetOf(opId)
        const r = expand(this, target, args)
        if (r instanceof MacroError) {
          const at = this.offsetOf(r.exprId)
          this.deleteId(opId)
          return this.reportError(at, r.message)
        }
        if (r !== undefined) {
          if (this.populate) this.macroCalls.set(r.id, call(0, fn, target, args))
          this.deleteId(opId)
          return r
        }
      }
    }
    return call(opId, fn, target, args)
  }

  /** MacroHelper.copy: pre-order copy with fresh ids (entries get ids at the macro call). */
  copy(e: Expr): Expr {
    const id = this.newId(this.offsetOf(e.id))
    switch (e.kind) {
      case 'literal':
        return literal(id, e.value)
      case 'ident':
        return ident(id, e.name)
      case 'select':
        return select(id, this.copy(e.operand), e.field, e.testOnly)
      case 'call': {
        const args = e.args.map((a) => this.copy(a))
        return call(id, e.fn, e.target ? this.copy(e.target) : undefined, args)
      }
      case 'list':
        return list(
          id,
          e.elements.map((x) => this.copy(x)),
          e.optionalIndices,
        )
      case 'map':
        return map(
          id,
          e.entries.map((en) => {
            const entryId = this.id()
            return mapEntry(entryId, this.copy(en.key), this.copy(en.value), en.optional)
          }),
        )
      case 'struct':
        return struct(
          id,
          e.typeName,
          e.fields.map((f) => structField(this.id(), f.field, this.copy(f.value), f.optional)),
        )
      case 'comprehension': {
        const range = this.copy(e.iterRange)
        const init = this.copy(e.accuInit)
        const cond = this.copy(e.loopCondition)
        const step = this.copy(e.loopStep)
        const result = this.copy(e.result)
        return comprehension(id, range, e.iterVar, e.iterVar2, e.accuVar, init, cond, step, result)
      }
    }
  }
}

function isNumber(k: number): boolean {
  return k === T.NUM_INT || k === T.NUM_FLOAT
}

/** ANTLR's escapeWSAndQuote body: newlines, returns and tabs shown escaped. */
function escapeWS(s: string): string {
  return s.replace(/[\n\r\t]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'))
}

/** cel-go's logicManager.balancedTree: terms[i] op[i] terms[i+1] ... as a balanced tree. */
function balance(fn: string, terms: Expr[], ops: number[], lo: number, hi: number): Expr {
  const mid = (lo + hi + 1) >> 1
  const left = mid === lo ? terms[mid]! : balance(fn, terms, ops, lo, mid - 1)
  const right = mid === hi ? terms[mid + 1]! : balance(fn, terms, ops, mid + 1, hi)
  return call(ops[mid]!, fn, undefined, [left, right])
}
