import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { createServer, type Server, type TLSSocket, type TlsOptions } from 'node:tls'

// HTTP/1.1 over TLS for `kelp serve`: the small, strict subset of RFC 9112 a validating webhook needs.
//
// Why not node:https: on the bench machine node's HTTP layer (IncomingMessage / ServerResponse
// streams, events, header objects) costs about 17 µs of the 41 µs a bare node:https server spends per
// request, as much as evaluating 20 policies (docs/benchmarks.md, "Webhook"). The webhook's HTTP
// surface is small and fixed (kube-apiserver's client, kubelet probes, a Prometheus scraper), so
// kelp reads it directly from the TLS socket: one request line, header lines, a body by
// Content-Length or chunked, one write per response.
//
// Strict where a proxy and a server could disagree (request smuggling): Content-Length must be
// digits and agree with itself, Transfer-Encoding must end in `chunked` and may not come with a
// Content-Length, obs-fold, control characters and white space before the colon are refused, an
// HTTP/1.1 request needs exactly one Host (what llhttp, node's parser, refuses, with the same codes:
// 400, 431, 501, 505). Limits as node's server has them: 16 KiB of header, the body limit (413, with
// the rest of the body read and dropped so that the client sees the answer), a headers timeout and a
// request timeout (408), an idle keep-alive timeout; requests on a connection are answered in order
// (pipelining), one at a time.

/** One request, body read whole. */
export interface Http1Request {
  readonly method: string
  /** The request-target as sent (origin-form: path and query). */
  readonly target: string
  /** The target's path (without `?query`). */
  readonly path: string
  /** Header names in lower case; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
  /** The body is over the limit: it is not read (answer 413; the connection closes after). */
  readonly tooLarge: boolean
  /** performance.now() when the request's first byte arrived. */
  readonly started: number
}

/** What the handler answers. `content-length`, `connection`, `date` and `keep-alive` are the layer's. */
export interface Http1Reply {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: string
}

/** Handed to the handler with each request: answer it once, now or later. */
export interface Http1Exchange {
  respond(request: Http1Request, reply: Http1Reply): void
}

export type Http1Handler = (request: Http1Request, exchange: Http1Exchange) => void

export interface Http1Options {
  readonly tls: TlsOptions
  readonly bodyLimit: number
  readonly headersTimeoutMs: number
  readonly requestTimeoutMs: number
  readonly keepAliveTimeoutMs: number
  /** How often the timeouts are checked (default: half the headers timeout, within 100 ms – 1 s). */
  readonly checkIntervalMs?: number
  /** Default 16 KiB (node's --max-http-header-size). */
  readonly maxHeaderSize?: number
  /** A request refused before it reached the handler (400, 408, 431, …). */
  readonly onProtocolError?: (code: number, message: string) => void
}

export interface Http1Server {
  readonly tls: Server
  /**
   * Stops accepting connections; idle ones close now, busy ones after their answer (with
   * `connection: close`). Resolves once all are closed; after `forceAfterMs`, the rest are cut.
   */
  close(forceAfterMs: number, onForce?: () => void): Promise<void>
}

const EMPTY = Buffer.alloc(0)
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1')
const CRLF = Buffer.from('\r\n', 'latin1')
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([!-~]+) HTTP\/(\d)\.(\d)$/
const FIELD_LINES = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*\r\n)*$/
const FIELD_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*$/
const DIGITS = /^\d+$/
const HEX = /^[0-9A-Fa-f]{1,15}$/
const OWS = /^[ \t]+|[ \t]+$/g
const KEEP_ALIVE = /(?:^|,)[ \t]*keep-alive[ \t]*(?:,|$)/i
const CLOSE = /(?:^|,)[ \t]*close[ \t]*(?:,|$)/i
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'

/** Why FIELD_LINES refused the field lines (the error path only). */
function fieldLineError(fields: string): string {
  for (const line of fields.split('\r\n')) {
    if (line === '' || FIELD_LINE.test(line)) continue
    const c = line.charCodeAt(0)
    if (c === 0x20 || c === 0x09) return 'obsolete line folding in a header'
    const colon = line.indexOf(':')
    if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) return 'invalid header name'
    return 'invalid character in a header value'
  }
  return 'malformed header line'
}

/** A field value without the white space around it (SP, HTAB). */
function fieldValue(s: string, from: number, to: number): string {
  while (from < to && (s.charCodeAt(from) === 0x20 || s.charCodeAt(from) === 0x09)) from++
  while (to > from && (s.charCodeAt(to - 1) === 0x20 || s.charCodeAt(to - 1) === 0x09)) to--
  return s.slice(from, to)
}

const joined = (prior: string | undefined, value: string) => (prior === undefined ? value : `${prior}, ${value}`)

/** Field lines → lower-case names to values (repeated names joined with `, `). */
function fieldRecord(fields: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  for (let i = 0; i < fields.length; ) {
    const next = fields.indexOf('\r\n', i)
    const colon = fields.indexOf(':', i)
    const name = fields.slice(i, colon).toLowerCase()
    out[name] = joined(out[name], fieldValue(fields, colon + 1, next))
    i = next + 2
  }
  return out
}

/** A request as the handler gets it; its header record is built on first use. */
class Request implements Http1Request {
  private record: Record<string, string> | undefined = undefined
  constructor(
    readonly method: string,
    readonly target: string,
    readonly path: string,
    private readonly fields: string,
    readonly body: Buffer,
    readonly tooLarge: boolean,
    readonly started: number,
  ) {}
  get headers(): Readonly<Record<string, string>> {
    this.record ??= fieldRecord(this.fields)
    return this.record
  }
}

/** A refusal of the request itself: answered with its code, then the connection closes. */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

// The Date header, formatted once per second.
let dateSecond = 0
let dateText = ''
const httpDate = (): string => {
  const now = Date.now()
  const s = Math.floor(now / 1000)
  if (s !== dateSecond) {
    dateSecond = s
    dateText = new Date(now).toUTCString()
  }
  return dateText
}

enum Phase {
  Head,
  Body,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailer,
  Busy,
  Closed,
}

class Connection implements Http1Exchange {
  /** Bytes received and not parsed yet. */
  private buf: Buffer | undefined = undefined
  private phase = Phase.Head
  /** Date.now() when the current request began (0: between requests, idle). */
  requestStart: number
  lastActivity: number
  private started = 0
  // the request being read
  private method = ''
  private target = ''
  private fields = ''
  private keepAlive = true
  private remaining = 0
  /** The body read so far: the read itself when one read held it whole, else a copy (see `append`). */
  private body: Buffer | undefined = undefined
  private size = 0
  /** Over the limit: the rest of the body is read and dropped, then the connection closes. */
  private discarding = false
  private current: Http1Request | undefined = undefined
  private draining = false
  /** The client half-closed (sent its last byte): answer what is complete, then close. */
  private peerEnded = false

  constructor(
    readonly socket: TLSSocket,
    private readonly server: Http1ServerImpl,
  ) {
    this.requestStart = Date.now()
    this.lastActivity = this.requestStart
  }

  /** The client's end of the stream: a request being answered is answered, then the connection closes. */
  onEnd(): void {
    this.peerEnded = true
    if (this.phase !== Phase.Busy) this.end() // nothing to answer: no request, or one cut short
  }

  get idle(): boolean {
    return this.phase === Phase.Head && this.buf === undefined && this.current === undefined
  }

  onData(chunk: Buffer): void {
    if (this.phase === Phase.Closed) return
    this.buf = this.buf === undefined ? chunk : Buffer.concat([this.buf, chunk])
    if (this.phase === Phase.Busy) {
      // answering (asynchronously): hold the next request's bytes, and stop reading past a bound
      if (this.buf.length > this.server.maxHeaderSize) this.socket.pause()
      return
    }
    this.drain()
  }

  /** Parses what is buffered, answering each complete request, until more bytes are needed. */
  private drain(): void {
    if (this.draining) return
    this.draining = true
    try {
      while (this.buf !== undefined && this.phase !== Phase.Busy && this.phase !== Phase.Closed) {
        if (!this.step(this.buf)) break
      }
    } catch (e) {
      if (e instanceof ProtocolError) this.fail(e.code, e.message)
      else {
        this.server.options.onProtocolError?.(500, `internal error reading a request: ${(e as Error).message}`)
        this.fail(500, 'internal error reading the request')
      }
    } finally {
      this.draining = false
    }
  }

  /**
   * Copies `n` bytes of `src` after the body read so far, into one buffer that grows by doubling
   * (first sized `hint`: the declared length, or 16 KiB for chunked). One copy per byte whatever the
   * reads: a body trickled in many small reads or chunks does not become as many buffers.
   */
  private append(src: Buffer, n: number, hint: number): void {
    const need = this.size + n
    let body = this.body
    if (body === undefined || body.length < need) {
      const grown = Buffer.allocUnsafe(
        Math.max(need, Math.min(hint, this.server.options.bodyLimit), (body?.length ?? 0) * 2),
      )
      if (body !== undefined) body.copy(grown, 0, 0, this.size)
      body = grown
      this.body = body
    }
    src.copy(body, this.size, 0, n)
  }

  private consume(n: number): void {
    const buf = this.buf
    if (buf !== undefined) this.buf = n >= buf.length ? undefined : buf.subarray(n)
  }

  /** One parsing step over `buf`; false when more bytes are needed. */
  private step(buf: Buffer): boolean {
    switch (this.phase) {
      case Phase.Head:
        return this.readHead(buf)
      case Phase.Body: {
        const n = Math.min(this.remaining, buf.length)
        if (!this.discarding) {
          // the whole body in this read (the common case): kept as it is, no copy
          if (this.size === 0 && n === this.remaining) this.body = n === buf.length ? buf : buf.subarray(0, n)
          else this.append(buf, n, this.size + this.remaining)
        }
        this.size += n
        this.remaining -= n
        this.consume(n)
        if (this.remaining === 0) this.bodyDone()
        return true
      }
      case Phase.ChunkSize: {
        const eol = buf.indexOf(CRLF)
        if (eol < 0) {
          if (buf.length > 1024) throw new ProtocolError(400, 'chunk size line too long')
          return false
        }
        let line = buf.toString('latin1', 0, eol)
        const semi = line.indexOf(';')
        if (semi >= 0) line = line.slice(0, semi)
        line = line.replace(OWS, '')
        if (!HEX.test(line)) throw new ProtocolError(400, 'invalid chunk size')
        this.consume(eol + 2)
        const n = Number.parseInt(line, 16)
        if (n === 0) this.phase = Phase.Trailer
        else {
          this.remaining = n
          this.phase = Phase.ChunkData
        }
        return true
      }
      case Phase.ChunkData: {
        const n = Math.min(this.remaining, buf.length)
        if (!this.discarding) {
          if (this.size + n > this.server.options.bodyLimit) {
            this.body = undefined
            this.tooLarge()
          } else this.append(buf, n, 16 * 1024)
        }
        this.size += n
        this.remaining -= n
        this.consume(n)
        if (this.remaining === 0) this.phase = Phase.ChunkEnd
        return true
      }
      case Phase.ChunkEnd:
        if (buf.length < 2) return false
        if (buf[0] !== 0x0d || buf[1] !== 0x0a) throw new ProtocolError(400, 'chunk data not followed by CRLF')
        this.consume(2)
        this.phase = Phase.ChunkSize
        return true
      case Phase.Trailer: {
        const eol = buf.indexOf(CRLF)
        if (eol < 0) {
          if (buf.length > this.server.maxHeaderSize) throw new ProtocolError(431, 'trailer too large')
          return false
        }
        this.consume(eol + 2)
        if (eol === 0) this.bodyDone() // trailer fields, if any, are not used
        return true
      }
      default:
        return false
    }
  }

  private readHead(buf: Buffer): boolean {
    if (this.requestStart === 0) this.requestStart = Date.now()
    if (this.started === 0) this.started = performance.now()
    const end = buf.indexOf(HEAD_END)
    const max = this.server.maxHeaderSize
    if (end < 0) {
      if (buf.length > max) throw new ProtocolError(431, 'request header fields too large')
      return false
    }
    if (end + 4 > max) throw new ProtocolError(431, 'request header fields too large')
    const head = buf.toString('latin1', 0, end + 2) // every line ends with CRLF
    this.consume(end + 4)
    this.parseHead(head)
    return true
  }

  private parseHead(head: string): void {
    let at = 0
    while (head.startsWith('\r\n', at)) at += 2 // empty lines before a request line are ignored (RFC 9112 §2.2)
    const eol = head.indexOf('\r\n', at)
    const m = REQUEST_LINE.exec(head.slice(at, eol))
    if (m === null) throw new ProtocolError(400, 'malformed request line')
    const [, method, target, major, minor] = m as unknown as [string, string, string, string, string]
    if (major !== '1') throw new ProtocolError(505, `HTTP/${major}.${minor} is not supported: use HTTP/1.1`)
    const http10 = minor === '0'
    const fields = head.slice(eol + 2)
    // every field line at once: a token, a colon, a value of visible characters, SP, HTAB, obs-text
    if (!FIELD_LINES.test(fields)) throw new ProtocolError(400, fieldLineError(fields))
    // the fields the layer acts on; the handler's full record is built on first use (Request.headers)
    let contentLength: string | undefined
    let transferEncoding: string | undefined
    let connection: string | undefined
    let expect: string | undefined
    let hosts = 0
    for (let i = 0; i < fields.length; ) {
      const next = fields.indexOf('\r\n', i)
      const c = fields.charCodeAt(i) | 0x20 // ASCII lower case
      if (c === 0x63 || c === 0x74 || c === 0x68 || c === 0x65) {
        // c(ontent-length, onnection), t(ransfer-encoding), h(ost), e(xpect)
        const colon = fields.indexOf(':', i)
        const name = fields.slice(i, colon).toLowerCase()
        if (name === 'host') hosts++
        else if (name === 'content-length') contentLength = joined(contentLength, fieldValue(fields, colon + 1, next))
        else if (name === 'transfer-encoding')
          transferEncoding = joined(transferEncoding, fieldValue(fields, colon + 1, next))
        else if (name === 'connection') connection = joined(connection, fieldValue(fields, colon + 1, next))
        else if (name === 'expect') expect = joined(expect, fieldValue(fields, colon + 1, next))
      }
      i = next + 2
    }
    if (!http10 && hosts !== 1) throw new ProtocolError(400, hosts === 0 ? 'missing Host header' : 'more than one Host')

    this.keepAlive = connection === undefined ? !http10 : http10 ? KEEP_ALIVE.test(connection) : !CLOSE.test(connection)
    this.method = method
    this.target = target
    this.fields = fields
    this.body = undefined
    this.size = 0
    this.discarding = false

    let length = 0
    let chunked = false
    if (transferEncoding !== undefined) {
      if (http10) throw new ProtocolError(400, 'Transfer-Encoding in an HTTP/1.0 request')
      if (contentLength !== undefined) throw new ProtocolError(400, 'both Content-Length and Transfer-Encoding')
      const codings = transferEncoding.split(',').map((s) => s.trim().toLowerCase())
      if (codings.length !== 1 || codings[0] !== 'chunked')
        throw new ProtocolError(501, `unsupported Transfer-Encoding: ${transferEncoding}`)
      chunked = true
    } else if (contentLength !== undefined) {
      const values = contentLength.split(',').map((s) => s.trim())
      if (!values.every((v) => DIGITS.test(v) && v === values[0]))
        throw new ProtocolError(400, 'invalid Content-Length')
      length = Number(values[0])
    }

    if (expect !== undefined) {
      if (expect.toLowerCase() !== '100-continue') throw new ProtocolError(417, `unsupported expectation: ${expect}`)
      if (!http10 && (chunked || (length > 0 && length <= this.server.options.bodyLimit)) && this.socket.writable)
        this.socket.write(CONTINUE)
    }

    if (chunked) this.phase = Phase.ChunkSize
    else if (length > this.server.options.bodyLimit) {
      this.remaining = length
      this.phase = Phase.Body
      this.tooLarge()
    } else if (length > 0) {
      this.remaining = length
      this.phase = Phase.Body
    } else this.bodyDone()
  }

  /** The body is over the limit: answer now (413) and read the rest without keeping it. */
  private tooLarge(): void {
    this.discarding = true
    this.keepAlive = false
    const phase = this.phase
    const start = this.requestStart
    this.dispatch(true)
    if (this.phase === Phase.Closed) return
    this.phase = phase // go on reading (and dropping) the body, within the request timeout
    this.requestStart = start
  }

  private bodyDone(): void {
    if (this.discarding) {
      this.end()
      return
    }
    this.dispatch(false)
  }

  private dispatch(tooLarge: boolean): void {
    const body =
      this.body === undefined ? EMPTY : this.body.length === this.size ? this.body : this.body.subarray(0, this.size)
    this.body = undefined
    const target = this.target
    const q = target.indexOf('?')
    const path = q < 0 ? target : target.slice(0, q)
    const request = new Request(this.method, target, path, this.fields, body, tooLarge, this.started)
    this.current = request
    this.phase = Phase.Busy
    this.requestStart = 0 // no request timeout while the handler answers
    this.server.handler(request, this)
  }

  respond(request: Http1Request, reply: Http1Reply): void {
    if (request !== this.current) return // answered already, or the connection failed
    this.current = undefined
    if (this.phase === Phase.Closed) return
    const wasAsync = !this.draining
    const keepAlive = this.keepAlive && !this.server.closing && !this.peerEnded
    this.write(request.method === 'HEAD', reply, keepAlive)
    this.started = 0
    this.lastActivity = Date.now()
    if (this.discarding) return // the body is still arriving: the connection closes once it is read
    if (!keepAlive) {
      this.end()
      return
    }
    this.phase = Phase.Head
    if (wasAsync) {
      if (this.socket.isPaused()) this.socket.resume()
      this.drain()
    }
  }

  private write(head: boolean, reply: Http1Reply, keepAlive: boolean): void {
    if (!this.socket.writable) return
    const body = reply.body
    let text = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'Unknown'}\r\ndate: ${httpDate()}\r\n`
    const extra = reply.headers
    if (extra !== undefined) for (const k in extra) text += `${k}: ${extra[k]}\r\n`
    text += `content-length: ${Buffer.byteLength(body)}\r\n`
    text += keepAlive ? this.server.keepAliveHeaders : 'connection: close\r\n\r\n'
    if (!head) text += body
    this.socket.write(text)
  }

  /** Refuses the request being read: the code and a message, then the connection closes. */
  fail(code: number, message: string): void {
    if (this.phase === Phase.Closed) return
    this.server.options.onProtocolError?.(code, message)
    this.keepAlive = false
    this.current = undefined
    this.write(false, this.server.errorReply(code, message), false)
    this.end()
  }

  end(): void {
    this.phase = Phase.Closed
    this.buf = undefined
    this.body = undefined
    this.socket.destroySoon() // ends, then closes once the answer is written
  }

  /** The periodic check: request deadlines (408) and idle keep-alive connections. */
  check(now: number): void {
    if (this.phase === Phase.Busy || this.phase === Phase.Closed) return
    const o = this.server.options
    if (this.requestStart !== 0) {
      const limit = this.phase === Phase.Head ? o.headersTimeoutMs : o.requestTimeoutMs
      if (now - this.requestStart > limit) this.fail(408, 'request timeout: the request did not arrive in time')
    } else if (now - this.lastActivity > o.keepAliveTimeoutMs) this.socket.destroy()
  }
}

class Http1ServerImpl implements Http1Server {
  readonly tls: Server
  readonly maxHeaderSize: number
  readonly keepAliveHeaders: string
  readonly connections = new Set<Connection>()
  private readonly sockets = new Set<Socket>()
  private readonly timer: NodeJS.Timeout
  closing = false

  constructor(
    readonly options: Http1Options,
    readonly handler: Http1Handler,
    readonly errorReply: (code: number, message: string) => Http1Reply,
  ) {
    this.maxHeaderSize = options.maxHeaderSize ?? 16 * 1024
    this.keepAliveHeaders = `connection: keep-alive\r\nkeep-alive: timeout=${Math.floor(options.keepAliveTimeoutMs / 1000)}\r\n\r\n`
    this.tls = createServer(
      {
        ALPNProtocols: ['http/1.1'],
        handshakeTimeout: options.headersTimeoutMs,
        noDelay: true,
        allowHalfOpen: true, // a client that half-closes after its request still gets the answer
        ...options.tls,
      },
      (socket) => this.accept(socket),
    )
    // raw sockets, for the forced end of a shutdown (a TLS handshake in progress included)
    this.tls.on('connection', (s: Socket) => {
      this.sockets.add(s)
      s.once('close', () => this.sockets.delete(s))
    })
    const interval = options.checkIntervalMs ?? Math.max(100, Math.min(1000, Math.floor(options.headersTimeoutMs / 2)))
    this.timer = setInterval(() => {
      const now = Date.now()
      for (const c of this.connections) c.check(now)
    }, interval)
    this.timer.unref()
  }

  private accept(socket: TLSSocket): void {
    const conn = new Connection(socket, this)
    this.connections.add(conn)
    socket.on('data', (chunk: Buffer) => conn.onData(chunk))
    socket.on('end', () => conn.onEnd())
    socket.on('error', () => socket.destroy()) // resets and TLS errors: the connection is gone, nothing to answer
    socket.once('close', () => {
      this.connections.delete(conn)
      conn.end()
    })
  }

  close(forceAfterMs: number, onForce?: () => void): Promise<void> {
    this.closing = true
    return new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        onForce?.()
        for (const s of this.sockets) s.destroy()
      }, forceAfterMs)
      force.unref()
      this.tls.close(() => {
        clearTimeout(force)
        clearInterval(this.timer)
        resolve()
      })
      for (const c of this.connections) if (c.idle) c.end()
    })
  }
}

/**
 * Starts nothing: returns the TLS server (call `tls.listen`). `errorReply` renders the layer's own
 * refusals (400, 408, 413 is the handler's, 431, 501, 505).
 */
export function createHttp1Server(
  options: Http1Options,
  handler: Http1Handler,
  errorReply: (code: number, message: string) => Http1Reply,
): Http1Server {
  return new Http1ServerImpl(options, handler, errorReply)
}
