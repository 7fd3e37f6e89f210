import type { Expr, LiteralValue, MapEntry, ParsedAst, StructField } from '../common/ast.js'

// cel-go's common/debug: ToDebugString / ToAdornedDebugString. The output is the format of
// cel-go's parser tests and of @bufbuild/cel-spec's `ast` fields, so ASTs can be compared as text.

/** Returns the metadata printed after a node (`^#...#`), or '' for none. */
export type Adorner = (node: Expr | MapEntry | StructField) => string

const noAdorner: Adorner = () => ''

/** Prints `expr` in cel-go's debug format, with optional per-node metadata. */
export function toDebugString(expr: Expr, adorner: Adorner = noAdorner): string {
  const w = new Writer(adorner)
  w.buffer(expr)
  return w.out
}

/** cel-spec's KindAdorner: `^#*expr.Expr_IdentExpr#`. */
export const kindAdorner: Adorner = (node) => `^#${kindName(node)}#`

/** cel-go's kindAndIDAdorner (parser tests): `^#3:*expr.Expr_IdentExpr#`, macro results as `^#3:map#`. */
export function kindAndIdAdorner(ast?: ParsedAst): Adorner {
  return (node) => {
    if ('kind' in node && ast) {
      const m = ast.sourceInfo.macroCalls.get(node.id)
      if (m && m.kind === 'call') return `^#${node.id}:${m.fn}#`
    }
    return `^#${node.id}:${kindName(node)}#`
  }
}

/** cel-go's locationAdorner: `^#3[1,4]#` (1-based line, 0-based column in code points). */
export function locationAdorner(ast: ParsedAst): Adorner {
  return (node) => {
    const off = ast.sourceInfo.positions.get(node.id)
    if (off === undefined) return `^#${node.id}[-1,-1]#`
    const loc = ast.source.location(off)
    return `^#${node.id}[${loc.line},${loc.column}]#`
  }
}

function kindName(node: Expr | MapEntry | StructField): string {
  if (!('kind' in node)) return '*expr.Expr_CreateStruct_Entry'
  switch (node.kind) {
    case 'call':
      return '*expr.Expr_CallExpr'
    case 'comprehension':
      return '*expr.Expr_ComprehensionExpr'
    case 'ident':
      return '*expr.Expr_IdentExpr'
    case 'select':
      return '*expr.Expr_SelectExpr'
    case 'list':
      return '*expr.Expr_ListExpr'
    case 'map':
    case 'struct':
      return '*expr.Expr_StructExpr'
    case 'literal':
      return LITERAL_KINDS[node.value.type]
  }
}

const LITERAL_KINDS: Record<LiteralValue['type'], string> = {
  bool: '*expr.Constant_BoolValue',
  bytes: '*expr.Constant_BytesValue',
  double: '*expr.Constant_DoubleValue',
  int: '*expr.Constant_Int64Value',
  null: '*expr.Constant_NullValue',
  string: '*expr.Constant_StringValue',
  uint: '*expr.Constant_Uint64Value',
}

class Writer {
  out = ''
  private indent = 0
  private lineStart = true

  constructor(private readonly adorner: Adorner) {}

  buffer(e: Expr): void {
    switch (e.kind) {
      case 'literal':
        this.append(formatLiteral(e.value))
        break
      case 'ident':
        this.append(e.name)
        break
      case 'select':
        this.buffer(e.operand)
        this.append('.')
        this.append(e.field)
        if (e.testOnly) this.append('~test-only~')
        break
      case 'call':
        if (e.target) {
          this.buffer(e.target)
          this.append('.')
        }
        this.append(e.fn)
        this.append('(')
        if (e.args.length > 0) {
          this.indent++
          this.newline()
          e.args.forEach((a, i) => {
            if (i > 0) {
              this.append(',')
              this.newline()
            }
            this.buffer(a)
          })
          this.indent--
          this.newline()
        }
        this.append(')')
        break
      case 'list':
        this.append('[')
        if (e.elements.length > 0) {
          this.newline()
          this.indent++
          e.elements.forEach((a, i) => {
            if (i > 0) {
              this.append(',')
              this.newline()
            }
            this.buffer(a)
          })
          this.indent--
          this.newline()
        }
        this.append(']')
        break
      case 'map':
      case 'struct': {
        if (e.kind === 'struct') this.append(e.typeName)
        this.append('{')
        const entries: readonly (MapEntry | StructField)[] = e.kind === 'map' ? e.entries : e.fields
        if (entries.length > 0) {
          this.newline()
          this.indent++
          entries.forEach((en, i) => {
            if (i > 0) {
              this.append(',')
              this.newline()
            }
            if (en.optional) this.append('?')
            if ('key' in en) this.buffer(en.key)
            else this.append(en.field)
            this.append(':')
            this.buffer(en.value)
            this.append(this.adorner(en))
          })
          this.indent--
          this.newline()
        }
        this.append('}')
        break
      }
      case 'comprehension':
        this.append('__comprehension__(')
        this.indent++
        this.newline()
        this.line('// Variable')
        this.line(`${e.iterVar},`)
        if (e.iterVar2 !== undefined) this.line(`${e.iterVar2},`)
        this.line('// Target')
        this.buffer(e.iterRange)
        this.line(',')
        this.line('// Accumulator')
        this.line(`${e.accuVar},`)
        this.line('// Init')
        this.buffer(e.accuInit)
        this.line(',')
        this.line('// LoopCondition')
        this.buffer(e.loopCondition)
        this.line(',')
        this.line('// LoopStep')
        this.buffer(e.loopStep)
        this.line(',')
        this.line('// Result')
        this.buffer(e.result)
        this.append(')')
        this.indent--
        break
    }
    this.append(this.adorner(e))
  }

  private append(s: string): void {
    if (this.lineStart) {
      this.lineStart = false
      this.out += '  '.repeat(this.indent)
    }
    this.out += s
  }

  private line(s: string): void {
    this.append(s)
    this.newline()
  }

  private newline(): void {
    this.out += '\n'
    this.lineStart = true
  }
}

/** cel-go's debug formatLiteral. */
export function formatLiteral(v: LiteralValue): string {
  switch (v.type) {
    case 'bool':
      return v.value ? 'true' : 'false'
    case 'null':
      return 'null'
    case 'int':
      return v.value.toString()
    case 'uint':
      return `${v.value}u`
    case 'double':
      return formatGoFloat(v.value)
    case 'string':
      return goQuote(v.value)
    case 'bytes':
      return `b${goQuoteBytes(v.value)}`
  }
}

/** Go strconv.FormatFloat(v, 'g', -1, 64). */
export function formatGoFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN'
  if (v === Number.POSITIVE_INFINITY) return '+Inf'
  if (v === Number.NEGATIVE_INFINITY) return '-Inf'
  if (v === 0) return Object.is(v, -0) ? '-0' : '0'
  const [m, x] = v.toExponential().split('e') as [string, string]
  const neg = m.startsWith('-')
  const digits = m.replace('-', '').replace('.', '')
  const exp = Number(x)
  const sign = neg ? '-' : ''
  // Shortest %g switches to exponent form below 1e-4 and from 1e6 on (precision 6).
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const ae = Math.abs(exp)
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  if (digits.length <= exp + 1) return sign + digits + '0'.repeat(exp + 1 - digits.length)
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u

function escapeRune(r: number, out: string[]): void {
  if (r === 0x22 || r === 0x5c) {
    out.push(`\\${String.fromCharCode(r)}`)
    return
  }
  if (r <= 0x10ffff && !(r >= 0xd800 && r <= 0xdfff)) {
    const ch = String.fromCodePoint(r)
    if (PRINTABLE.test(ch)) {
      out.push(ch)
      return
    }
  }
  switch (r) {
    case 7:
      out.push('\\a')
      return
    case 8:
      out.push('\\b')
      return
    case 12:
      out.push('\\f')
      return
    case 10:
      out.push('\\n')
      return
    case 13:
      out.push('\\r')
      return
    case 9:
      out.push('\\t')
      return
    case 11:
      out.push('\\v')
      return
  }
  if (r < 0x20 || r === 0x7f) out.push(`\\x${r.toString(16).padStart(2, '0')}`)
  else {
    if (r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) r = 0xfffd
    if (r < 0x10000) out.push(`\\u${r.toString(16).padStart(4, '0')}`)
    else out.push(`\\U${r.toString(16).padStart(8, '0')}`)
  }
}

/** Go strconv.Quote of a string. */
export function goQuote(s: string): string {
  const out: string[] = ['"']
  for (const ch of s) escapeRune(ch.codePointAt(0)!, out)
  out.push('"')
  return out.join('')
}

/** Go strconv.Quote(string(bytes)): valid UTF-8 as runes, other bytes as \xHH. */
export function goQuoteBytes(b: Uint8Array): string {
  const out: string[] = ['"']
  let i = 0
  while (i < b.length) {
    const [r, w] = decodeRune(b, i)
    if (r < 0) out.push(`\\x${b[i]!.toString(16).padStart(2, '0')}`)
    else escapeRune(r, out)
    i += w
  }
  out.push('"')
  return out.join('')
}

/** Go utf8.DecodeRune: [rune, width], rune -1 for an invalid encoding (width 1). */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i]!
  if (c0 < 0x80) return [c0, 1]
  const need = c0 >= 0xf0 && c0 <= 0xf4 ? 4 : c0 >= 0xe0 ? 3 : c0 >= 0xc2 && c0 < 0xe0 ? 2 : 0
  if (need === 0 || i + need > b.length) return [-1, 1]
  let r = need === 2 ? c0 & 0x1f : need === 3 ? c0 & 0x0f : c0 & 0x07
  for (let j = 1; j < need; j++) {
    const c = b[i + j]!
    if ((c & 0xc0) !== 0x80) return [-1, 1]
    r = (r << 6) | (c & 0x3f)
  }
  const min = need === 2 ? 0x80 : need === 3 ? 0x800 : 0x10000
  if (r < min || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) return [-1, 1]
  return [r, need]
}
