import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createLogger, LOG_LEVELS, streamLines } from '../../src/report/log.js'

// The log every face writes with (src/report/log.ts): JSON lines for a cluster's log pipeline, and the
// line writer of a process stream that gives up a broken one.

const at = new Date('2026-01-02T03:04:05.000Z')
const capture = (level?: (typeof LOG_LEVELS)[number]) => {
  const lines: string[] = []
  const log = createLogger({ ...(level ? { level } : {}), write: (l) => lines.push(l), now: () => at })
  return { lines, log }
}

describe('createLogger', () => {
  it('one JSON object per line: time, level, msg first, then the fields', () => {
    const { lines, log } = capture()
    log.info('policy set loaded', { objects: 3, skipped: undefined })
    expect(lines).toEqual(['{"time":"2026-01-02T03:04:05.000Z","level":"info","msg":"policy set loaded","objects":3}'])
  })

  it('levels below the configured one are dropped; enabled() says so', () => {
    const { lines, log } = capture('warn')
    log.debug('d')
    log.info('i')
    log.warn('w')
    log.error('e')
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(['warn', 'error'])
    expect(LOG_LEVELS.map((l) => log.enabled(l))).toEqual([false, false, true, true])
  })

  it('reserved names, errors and bigints in fields; fields that do not serialise', () => {
    const { lines, log } = capture()
    const e = new TypeError('boom')
    e.stack = 'TypeError: boom\n    at here'
    log.error('failed', { msg: 'mine', level: 1, error: e, n: 2n ** 64n })
    expect(JSON.parse(lines[0] as string)).toEqual({
      time: '2026-01-02T03:04:05.000Z',
      level: 'error',
      msg: 'failed',
      'field.msg': 'mine',
      'field.level': 1,
      error: { name: 'TypeError', message: 'boom', stack: 'TypeError: boom\n    at here' },
      n: '18446744073709551616',
    })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    log.warn('odd', { cyclic })
    expect(JSON.parse(lines[1] as string)).toEqual({
      time: '2026-01-02T03:04:05.000Z',
      level: 'warn',
      msg: 'odd',
      error: 'fields could not be serialised',
    })
  })

  it('a sink that throws never reaches the caller', () => {
    const log = createLogger({
      write: () => {
        throw new Error('EPIPE')
      },
    })
    expect(() => log.error('x')).not.toThrow()
  })
})

describe('streamLines', () => {
  it('writes lines, and gives a stream up once it fails', () => {
    const stream = new PassThrough()
    const written: string[] = []
    stream.on('data', (d) => written.push(String(d)))
    const write = streamLines(stream as unknown as NodeJS.WriteStream)
    write('one')
    stream.emit('error', new Error('EPIPE'))
    write('two')
    expect(written).toEqual(['one\n'])
  })
})
