import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Command } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/bin/program.js'
import { addPlaygroundCommand } from '../../src/playground/command.js'
import { type PlaygroundServer, pathSegments, startPlaygroundServer } from '../../src/playground/serve.js'

// `kelp playground`'s static server (src/playground/serve.ts): content types, caching, and no way out of the
// served folder: `..` plain or percent-encoded, encoded separators, absolute paths, NUL, symbolic links.

let dir: string
let server: PlaygroundServer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kelp-playground-serve-'))
  const root = join(dir, 'root')
  await mkdir(join(root, 'assets'), { recursive: true })
  await mkdir(join(root, 'builtin-schemas/defs'), { recursive: true })
  await writeFile(join(root, 'index.html'), '<!doctype html><title>kelp</title>')
  await writeFile(join(root, 'sw.js'), 'self.addEventListener("fetch", () => {})')
  await writeFile(join(root, 'assets/main-AbC123_x.js'), 'export {}')
  await writeFile(join(root, 'builtin-schemas/defs/io.k8s.api.apps.v1.json.gz'), Buffer.from([0x1f, 0x8b]))
  await writeFile(join(dir, 'secret.txt'), 'secret')
  await symlink(join(dir, 'secret.txt'), join(root, 'assets/link-12345678.js'))
  await writeFile(join(root, 'serve.js'), '// tsc output beside the page')
  server = await startPlaygroundServer({ root, host: '127.0.0.1', port: 0 })
})

afterAll(async () => {
  await server?.close()
  await rm(dir, { recursive: true, force: true })
})

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A request with its target sent as written (fetch would normalise `..` away). */
function get(path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = server.server.address() as { port: number }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = ''
      res.setEncoding('latin1')
      res.on('data', (c: string) => {
        body += c
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** A request line written byte for byte on a socket (a raw NUL cannot go through http.request). */
function raw(line: string): Promise<string> {
  const { port } = server.server.address() as { port: number }
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.end(`${line}\r\nHost: x\r\nConnection: close\r\n\r\n`))
    let out = ''
    s.setEncoding('latin1')
    s.on('data', (c: string) => {
      out += c
    })
    s.on('end', () => resolve(out))
    s.on('error', reject)
  })
}

describe('kelp playground: the static server', () => {
  it('serves the page at / and its files with their content types', async () => {
    const page = await get('/')
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('<title>kelp</title>')
    expect((await get('/index.html?x=1#y')).status).toBe(200)
    const js = await get('/assets/main-AbC123_x.js')
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(js.headers['x-content-type-options']).toBe('nosniff')
    const gz = await get('/builtin-schemas/defs/io.k8s.api.apps.v1.json.gz')
    expect(gz.headers['content-type']).toBe('application/gzip')
    // the page inflates the schemas itself: no Content-Encoding, or the browser would inflate them first
    expect(gz.headers['content-encoding']).toBeUndefined()
  })

  it('caches hashed chunks for good and revalidates the rest (ETag, 304)', async () => {
    expect((await get('/assets/main-AbC123_x.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const page = await get('/')
    expect(page.headers['cache-control']).toBe('no-cache')
    expect((await get('/sw.js')).headers['cache-control']).toBe('no-cache')
    const etag = page.headers.etag as string
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
    const again = await get('/', 'GET', { 'If-None-Match': etag })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
  })

  it('answers HEAD without a body and refuses other methods (405, Allow)', async () => {
    const head = await get('/', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    const post = await get('/', 'POST')
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
  })

  it('answers 404 for what is not a file of the build, directories included', async () => {
    expect((await get('/nope.js')).status).toBe(404)
    expect((await get('/assets')).status).toBe(404)
    expect((await get('/assets/')).status).toBe(404)
    expect((await get('/assets//main-AbC123_x.js')).status).toBe(404)
  })

  it('never serves a file outside the folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/.%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%2fetc%2fpasswd',
      '//etc/passwd',
      '/etc/passwd',
      '/assets/link-12345678.js',
      '/serve.js',
    ]) {
      const a = await get(path)
      expect(a.status, path).toBe(404)
      expect(a.body, path).not.toContain('secret')
    }
    // an absolute-form target and a NUL, encoded or raw, are bad requests
    expect((await get('http://127.0.0.1/../secret.txt')).status).toBe(400)
    expect((await get('/index.html%00.js')).status).toBe(400)
    expect((await get('/%E0%A4%A')).status).toBe(400)
    expect(await raw('GET /index.html\0 HTTP/1.1')).toMatch(/^HTTP\/1\.1 400 /)
  })

  it('reads request targets into path segments', () => {
    expect(pathSegments('/')).toEqual(['index.html'])
    expect(pathSegments('/a/b.js?q')).toEqual(['a', 'b.js'])
    expect(pathSegments('/a%20b.js')).toEqual(['a b.js'])
    expect(pathSegments('/a/../b')).toBe(404)
    expect(pathSegments('*')).toBe(400)
  })
})

describe('kelp playground: the command', () => {
  const run = async (argv: string[]) => {
    const out: string[] = []
    const err: string[] = []
    const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) })
    return { code, out, err }
  }

  it('refuses a bad port and a folder without the page (exit 2)', async () => {
    const bad = await run(['playground', '--port', 'http'])
    expect(bad.code).toBe(2)
    expect(bad.err).toEqual(['kelp: --port: not a port number: http'])
    const empty = await run(['playground', '--root', dir, '--port', '0'])
    expect(empty.code).toBe(2)
    expect(empty.err[0]).toMatch(/^kelp: the playground is not built: no index\.html in /)
  })

  it('serves the folder and prints its address', async () => {
    const out: string[] = []
    let started: PlaygroundServer | undefined
    const program = new Command().exitOverride()
    addPlaygroundCommand(
      program,
      { out: (l) => out.push(l), err: () => {} },
      { processHandlers: false, onStarted: (s) => (started = s) },
    )
    await program.parseAsync(['playground', '--root', join(dir, 'root'), '--port', '0'], { from: 'user' })
    try {
      expect(out).toEqual([`kelp playground: ${started?.url}`])
      expect(started?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      const res = await fetch(started?.url as string)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('<title>kelp</title>')
    } finally {
      await started?.close()
    }
  })
})
