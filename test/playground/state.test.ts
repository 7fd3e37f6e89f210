import { deflateRawSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeState, encodeState, examples } from '../../src/playground/evaluate/index.js'
import type { PlaygroundState } from '../../src/playground/evaluate/types.js'
import { MAX_STATE_BYTES, StateError } from '../../src/playground/state.js'

// The state in the URL: every example and any state round-trip; a hostile link (anything after the `#`) is
// refused with a StateError that says why, never another exception, never a hang, however it is made.

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url')
const link = (json: string) => b64url(deflateRawSync(Buffer.from(json)))
const valid: PlaygroundState = examples[0]!.state

async function refused(s: string, why: RegExp | string): Promise<void> {
  const e = await decodeState(s).then(
    () => undefined,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(StateError)
  expect((e as Error).message).toMatch(why)
  expect((e as Error).message.startsWith('playground link: ')).toBe(true)
}

describe('encodeState / decodeState', () => {
  it('round-trips every example, with a URL-safe text', async () => {
    for (const e of examples) {
      const s = await encodeState(e.state)
      expect(s).toMatch(/^[A-Za-z0-9_-]+$/)
      expect(await decodeState(s)).toEqual(e.state)
      // a hash as location.hash gives it
      expect(await decodeState(`#${s}`)).toEqual(e.state)
    }
  })

  it('round-trips any state', async () => {
    const text = fc.string({ unit: 'binary', maxLength: 200 })
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          material: text,
          object: text,
          oldObject: text,
          operation: fc.constantFrom('CREATE' as const, 'UPDATE' as const, 'DELETE' as const),
          username: text,
          groups: fc.array(text, { maxLength: 4 }),
        }),
        async (r) => {
          const s: PlaygroundState = {
            v: 1,
            release: '1.36',
            material: r.material,
            object: r.object,
            oldObject: r.oldObject,
            operation: r.operation,
            user: { username: r.username, groups: r.groups },
          }
          expect(await decodeState(await encodeState(s))).toEqual(s)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('refuses what is not a link, saying why', async () => {
    await refused('', 'empty')
    await refused('#', 'empty')
    await refused('abc$def', 'not base64url')
    await refused('A', 'not base64url')
    await refused(b64url(new Uint8Array([0xff, 0xfe, 0x00, 0x13])), 'not deflate-raw data')
    await refused(b64url(deflateRawSync(Buffer.from([0xc3, 0x28]))), 'not UTF-8')
    await refused(link('{"v":1,'), 'not JSON')
    await refused(link('[1,2]'), 'not an object')
    await refused(link('null'), 'not an object')
    await refused(link(JSON.stringify({ ...valid, v: 2 })), 'unknown version 2')
    await refused(link(JSON.stringify({ ...valid, v: undefined })), 'unknown version none')
    await refused(link(JSON.stringify({ ...valid, release: 'latest' })), 'release')
    await refused(link(JSON.stringify({ ...valid, operation: 'PATCH' })), 'operation')
    await refused(link(JSON.stringify({ ...valid, material: 42 })), 'material is not a text')
    await refused(link(JSON.stringify({ ...valid, user: { username: 'a', groups: [1] } })), 'user.groups')
    await refused(link(JSON.stringify({ ...valid, user: 'root' })), 'user is not an object')
    // a value inherited, not its own: no state
    await refused(link('{"__proto__":{"v":1}}'), 'unknown version')
    await refused(42 as unknown as string, 'not a text')
  })

  it('refuses a deflate bomb after 1 MiB, quickly', async () => {
    const bomb = b64url(deflateRawSync(Buffer.alloc(64 << 20, 0x20)))
    expect(bomb.length).toBeLessThan(100_000)
    const t = performance.now()
    await refused(bomb, `more than ${MAX_STATE_BYTES} bytes`)
    expect(performance.now() - t).toBeLessThan(2000)
    // just under the limit is read
    const big = { ...valid, material: 'x'.repeat(MAX_STATE_BYTES - 1000) }
    expect((await decodeState(await encodeState(big))).material).toHaveLength(MAX_STATE_BYTES - 1000)
  })

  it('refuses a text longer than any valid link without reading it', async () => {
    await refused('A'.repeat(3 << 20), 'longer than')
  })

  it('a __proto__ key is data: nothing is polluted, only the known fields are kept', async () => {
    const json = `{"__proto__":{"polluted":true},${JSON.stringify(valid).slice(1, -1)},"extra":1}`
    const s = await decodeState(link(json))
    expect(s).toEqual(valid)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(s)).toBe(Object.prototype)
  })

  it('never throws anything but a StateError, whatever the text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.uint8Array({ maxLength: 300 }).map(b64url),
          fc.uint8Array({ maxLength: 300 }).map((b) => b64url(deflateRawSync(b))),
          fc.json({ maxDepth: 4 }).map(link),
        ),
        async (s) => {
          const e = await decodeState(s).then(
            () => undefined,
            (err: unknown) => err,
          )
          if (e !== undefined) expect(e).toBeInstanceOf(StateError)
        },
      ),
      { numRuns: 300 },
    )
  })
})
