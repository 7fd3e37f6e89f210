import { isAllowed, isBreak, utf8Width } from './chars.js'
import { copyMark, type Mark, type Problem } from './types.js'

// go-yaml v2's reader (readerc.go) and the scanner's buffer moves (scannerc.go skip, skip_line, read,
// read_line), over a JS string.
//
// go-yaml decodes its input lazily: when the scanner asks for more characters than are decoded
// (`cache`, yaml_parser_update_buffer), the reader decodes the next raw chunk of up to 512 bytes whole, and
// refuses a control character as soon as it decodes it, wherever the scanner is. So which error comes first,
// the reader's or a scanner's earlier in the text, depends on the chunks and on when the scanner asks: the
// reader here keeps go-yaml's counts (unread characters, raw bytes by UTF-8 width) so that it asks and
// refuses at the same moments.
//
// The text is held as code points, one per character (go-yaml's buffer holds UTF-8; its marks count
// characters, as these do). A lone surrogate reads as U+FFFD, as Go's conversion of such a string to UTF-8
// makes it. A leading U+FEFF is the byte order mark: skipped, its 3 bytes counted in the first chunk.

/** input_raw_buffer_size (yamlprivateh.go) */
const RAW_BUFFER_SIZE = 512

/** Zeros after the text: the farthest the scanner looks past a character is 8 (a `\U` escape). */
const PAD = 16

export class Reader {
  /** The text's code points, then zeros (go-yaml's NUL at the end of its buffer). */
  protected readonly buf: Uint32Array
  /** buffer_pos: the current character. */
  protected pos = 0
  /** unread: characters decoded and not yet consumed (the NULs put at the end count). */
  protected unread = 0
  /** The character at the start of go-yaml's buffer (is_bom looks there, not at buffer_pos). */
  protected bufStart = 0
  /** mark: the current position. */
  readonly mark: Mark = { index: 0, line: 0, column: 0 }
  /** The error reading stopped at, if it did. */
  problem: Problem | undefined

  /** The input's length in UTF-8 bytes (with the byte order mark). */
  private readonly total: number
  /** The raw buffer: input bytes [rawStart, rawEnd), decoded up to rawPos. */
  private rawStart = 0
  private rawPos = 0
  private rawEnd = 0
  private eof = false
  private encodingKnown = false
  private readonly bom: boolean
  /** Characters decoded so far. */
  private decoded = 0

  constructor(text: string) {
    // decode.go newParser: an empty input reads as "\n"
    if (text.length === 0) text = '\n'
    const buf = new Uint32Array(text.length + PAD)
    let n = 0
    let total = 0
    let i = 0
    // yaml_parser_determine_encoding: a leading U+FEFF (bytes EF BB BF) is the byte order mark
    this.bom = text.charCodeAt(0) === 0xfeff
    if (this.bom) {
      total = 3
      i = 1
    }
    for (; i < text.length; i++) {
      let c = text.charCodeAt(i)
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00)
          i++
        } else c = 0xfffd
      }
      buf[n++] = c
      total += utf8Width(c)
    }
    this.buf = buf
    this.total = total
  }

  /** cache: ensure `n` characters are decoded past the current one. */
  cache(n: number): boolean {
    return this.unread >= n || this.updateBuffer(n)
  }

  /** yaml_parser_update_buffer */
  private updateBuffer(length: number): boolean {
    if (this.unread >= length) return true
    if (!this.encodingKnown) this.determineEncoding()
    // the unread characters move to the start of the buffer
    this.bufStart = this.pos
    let first = true
    while (this.unread < length) {
      if (!first || this.rawPos === this.rawEnd) this.updateRawBuffer()
      first = false
      while (this.rawPos !== this.rawEnd) {
        const c = this.buf[this.decoded] as number
        const w = utf8Width(c)
        // an incomplete character waits for the next chunk (the input is whole, so never at its end)
        if (w > this.rawEnd - this.rawPos) break
        if (!isAllowed(c)) {
          const zero = { index: 0, line: 0, column: 0 }
          this.problem = {
            kind: 'reader',
            problem: 'control characters are not allowed',
            problemMark: zero,
            context: '',
            contextMark: zero,
          }
          return false
        }
        this.rawPos += w
        this.decoded++
        this.unread++
      }
      // on EOF, a NUL goes into the buffer
      if (this.eof) {
        this.unread++
        break
      }
    }
    return true
  }

  /** yaml_parser_determine_encoding: always UTF-8 here; a byte order mark is skipped. */
  private determineEncoding(): void {
    while (!this.eof && this.rawEnd - this.rawPos < 3) this.updateRawBuffer()
    if (this.bom) this.rawPos += 3
    this.encodingKnown = true
  }

  /** yaml_parser_update_raw_buffer, with yaml_string_read_handler: fill the raw buffer to 512 bytes. */
  private updateRawBuffer(): void {
    if (this.rawPos === this.rawStart && this.rawEnd - this.rawStart === RAW_BUFFER_SIZE) return
    if (this.eof) return
    this.rawStart = this.rawPos
    if (this.rawEnd === this.total) {
      this.eof = true
      return
    }
    this.rawEnd = Math.min(this.rawStart + RAW_BUFFER_SIZE, this.total)
  }

  /** The character `k` after the current one (0 past the end). */
  at(k: number): number {
    return this.buf[this.pos + k] as number
  }

  /** The character at the current position. */
  get c(): number {
    return this.buf[this.pos] as number
  }

  /** Whether the character at the start of go-yaml's buffer is U+FEFF (is_bom, which ignores its index). */
  bufferStartsWithBOM(): boolean {
    return this.buf[this.bufStart] === 0xfeff
  }

  /** The position of the current character (for slice). */
  get offset(): number {
    return this.pos
  }

  /** The ASCII characters from `from` to the current one (the names of anchors and tag handles are ASCII). */
  slice(from: number): string {
    let s = ''
    for (let i = from; i < this.pos; i += 8192) {
      s += String.fromCharCode(...this.buf.subarray(i, Math.min(i + 8192, this.pos)))
    }
    return s
  }

  /** skip (and read, whose copy of the character nothing here needs). */
  skip(): void {
    this.mark.index++
    this.mark.column++
    this.unread--
    this.pos++
  }

  /** skip_line */
  skipLine(): void {
    const c = this.c
    if (c === 0x0d && this.at(1) === 0x0a) {
      this.mark.index += 2
      this.mark.column = 0
      this.mark.line++
      this.unread -= 2
      this.pos += 2
    } else if (isBreak(c)) {
      this.mark.index++
      this.mark.column = 0
      this.mark.line++
      this.unread--
      this.pos++
    }
  }

  /** read_line: it moves as skip_line does (a CR LF is one break, 2 characters); its copy of the break is not kept. */
  readLine(): void {
    this.skipLine()
  }

  /** yaml_parser_set_scanner_error: the problem is at the current position. */
  error(context: string, contextMark: Mark, problem: string): false {
    this.problem = {
      kind: 'scanner',
      context,
      contextMark: copyMark(contextMark),
      problem,
      problemMark: copyMark(this.mark),
    }
    return false
  }
}
