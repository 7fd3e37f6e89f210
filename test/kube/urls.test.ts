import { describe, expect, it } from 'vitest'
import { compile, standardEnv } from '../../src/cel/program.js'
import { mapOf, StringType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { listsLibrary } from '../../src/kube/library/lists.js'
import { URLType, urlEqualsCost, urlsCosts, urlsLibrary } from '../../src/kube/library/urls.js'
import { GoURL, parseRequestURI, parseURL, URLError, URLValue } from '../../src/kube/values/url.js'

const env = standardEnv().extend({ libraries: [urlsLibrary, listsLibrary] })
const declarations = { self: mapOf(StringType, StringType) }

function run(expr: string, self: Record<string, string> = {}): CelValue {
  return compile(expr, { env, declarations }).evaluate({ self })
}

function parse(s: string): GoURL {
  const u = parseURL(s)
  if (u instanceof URLError) throw new Error(u.message)
  return u
}

describe('apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go TestValidationExpressions "URL parsing"', () => {
  const self = { url: 'https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor' }
  const valid = [
    "url('/path').getScheme() == ''",
    "url('https://example.com/').getScheme() == 'https'",
    "url('https://example.com:80/').getHost() == 'example.com:80'",
    "url('https://example.com/').getHost() == 'example.com'",
    "url('https://[::1]:80/').getHost() == '[::1]:80'",
    "url('https://[::1]/').getHost() == '[::1]'",
    "url('/path').getHost() == ''",
    "url('https://example.com:80/').getHostname() == 'example.com'",
    "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
    "url('https://[::1]/').getHostname() == '::1'",
    "url('/path').getHostname() == ''",
    "url('https://example.com:80/').getPort() == '80'",
    "url('https://example.com/').getPort() == ''",
    "url('/path').getPort() == ''",
    "url('https://example.com/path').getEscapedPath() == '/path'",
    "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
    "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
    "url('https://example.com/path?').getQuery() == {}",
    "url('https://example.com/path').getQuery() == {}",
    "url(self.url).getScheme() == 'https'",
    "url(self.url).getHost() == 'kubernetes.io:80'",
    "url(self.url).getHostname() == 'kubernetes.io'",
    "url(self.url).getPort() == '80'",
    "url(self.url).getEscapedPath() == '/docs/home'",
    "url(self.url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
    "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
    "isURL('/path') == true",
    "isURL('https://a:b:c/') == false",
    "isURL('../relative-path') == false",
  ]
  for (const expr of valid) it(expr, () => expect(run(expr, self)).toBe(true))
})

describe('apiserver pkg/cel/library/urls.go documented examples', () => {
  it('url / isURL', () => {
    expect(run("isURL('/absolute-path')")).toBe(true)
    expect(run("url('https://user:pass@example.com:80/path?query=val#fragment').getHost()")).toBe('example.com:80')
    expect(() => run("url('https://a:b:c/')")).toThrow(
      'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host',
    )
    // types.NewErr("URL parse error during conversion from string: %v", err) with Go's *url.Error text
    expect(() => run("url('../relative-path')")).toThrow(
      'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
    )
  })
  it('accessors', () => {
    expect(run("url('https://127.0.0.1:80/').getHostname()")).toBe('127.0.0.1')
    expect(run("url('https://example.com/path with spaces/').getEscapedPath()")).toBe('/path%20with%20spaces/')
  })
  it('the value type is kubernetes.URL', () => {
    expect(String(run("type(url('/path'))"))).toBe('kubernetes.URL')
    expect(URLType.name).toBe('kubernetes.URL')
  })
  it('is re-parsed with Parse, so a fragment is not part of the path or query', () => {
    expect(run("url('/path#frag').getEscapedPath()")).toBe('/path')
    expect(run("url('/path?a=b#frag').getQuery()")).toEqual({ a: ['b'] })
  })
})

describe('apiserver pkg/cel/url.go Equal: equal when String() is', () => {
  it('compares the re-assembled URLs', () => {
    expect(run("url('https://example.com/a b') == url('https://example.com/a%20b')")).toBe(true)
    expect(run("url('/a') == url('/b')")).toBe(false)
    expect(new URLValue(parse('http://x/%41')).toString()).toBe('http://x/%41')
  })
})

describe('Go src/net/url/url_test.go urltests (Parse and String round trip)', () => {
  type Fields = Partial<
    Pick<GoURL, 'scheme' | 'opaque' | 'host' | 'path' | 'rawPath' | 'rawQuery' | 'fragment' | 'omitHost'>
  > & {
    user?: [string, string?]
    rawFragment?: string
    forceQuery?: boolean
  }
  const cases: [string, Fields, string?][] = [
    ['http://www.google.com', { scheme: 'http', host: 'www.google.com' }],
    ['http://www.google.com/file%20one%26two', { path: '/file one&two', rawPath: '/file%20one%26two' }],
    ['http://www.google.com/#file%20one%26two', { fragment: 'file one&two', rawFragment: 'file%20one%26two' }],
    ['ftp://john%20doe@www.google.com/', { user: ['john doe'], host: 'www.google.com', path: '/' }],
    ['http://www.google.com/?', { path: '/', forceQuery: true }],
    ['http://www.google.com/?foo=bar?', { rawQuery: 'foo=bar?' }],
    ['http://www.google.com/a%20b?q=c+d', { path: '/a b', rawQuery: 'q=c+d' }],
    ['http:www.google.com/?q=go+language', { opaque: 'www.google.com/', rawQuery: 'q=go+language' }],
    // golang.org/issue/46059 (OmitHost, Go ≥ 1.19): no longer re-serialised as mailto:///...
    ['mailto:/webmaster@golang.org', { scheme: 'mailto', path: '/webmaster@golang.org', omitHost: true }],
    ['/foo?query=http://bad', { path: '/foo', rawQuery: 'query=http://bad' }],
    ['//user@foo/path?a=b', { user: ['user'], host: 'foo', path: '/path', rawQuery: 'a=b' }],
    ['///threeslashes', { path: '///threeslashes' }],
    ['http://j@ne:password@google.com', { user: ['j@ne', 'password'] }, 'http://j%40ne:password@google.com'],
    ['http://www.google.com/?q=go+language#foo&bar', { fragment: 'foo&bar' }],
    ['file:///home/adg/rabbits', { scheme: 'file', host: '', path: '/home/adg/rabbits' }],
    [
      'MaIlTo:webmaster@golang.org',
      { scheme: 'mailto', opaque: 'webmaster@golang.org' },
      'mailto:webmaster@golang.org',
    ],
    ['a/b/c', { path: 'a/b/c' }],
    ['http://%3Fam:pa%3Fsword@google.com', { user: ['?am', 'pa?sword'] }],
    ['http://[fe80::1]:8080/', { host: '[fe80::1]:8080' }],
    ['http://[fe80::1%25en0]/', { host: '[fe80::1%en0]' }],
    ['http://[fe80::1%25%65%6e%301-._~]/', { host: '[fe80::1%en01-._~]' }, 'http://[fe80::1%25en01-._~]/'],
    [
      'http://rest.rsc.io/foo%2fbar/baz%2Fquux?alt=media',
      { path: '/foo/bar/baz/quux', rawPath: '/foo%2fbar/baz%2Fquux' },
    ],
    ['mysql://a,b,c/bar', { host: 'a,b,c' }],
    ["scheme://!$&'()*+,;=hello!:1/path", { host: "!$&'()*+,;=hello!:1" }],
    ["http://host/!$&'()*+,;=:@[hello]", { path: "/!$&'()*+,;=:@[hello]", rawPath: "/!$&'()*+,;=:@[hello]" }],
    ['http://192.168.0.2:/foo', { host: '192.168.0.2:' }],
    ['http://2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080/foo', { host: '2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080' }],
    ['http://hello.世界.com/foo', { host: 'hello.世界.com' }, 'http://hello.%E4%B8%96%E7%95%8C.com/foo'],
    ['http://hello.%e4%b8%96%e7%95%8c.com/foo', { host: 'hello.世界.com' }, 'http://hello.%E4%B8%96%E7%95%8C.com/foo'],
    ['http://example.com//foo', { path: '//foo' }],
    ['myscheme://authority<"hi">/foo', { host: 'authority<"hi">' }],
    [
      'tcp://[2020::2020:20:2020:2020%25Windows%20Loves%20Spaces]:2020',
      { host: '[2020::2020:20:2020:2020%Windows Loves Spaces]:2020' },
    ],
    ['magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn', { scheme: 'magnet', path: '' }],
  ]
  for (const [input, want, roundtrip] of cases) {
    it(input, () => {
      const u = parse(input)
      const { user, ...fields } = want
      for (const [k, v] of Object.entries(fields)) expect(u[k as keyof GoURL], k).toEqual(v)
      if (user) {
        expect(u.user?.username).toBe(user[0])
        expect(u.user?.passwordSet).toBe(user[1] !== undefined)
        if (user[1] !== undefined) expect(u.user?.password).toBe(user[1])
      }
      expect(u.toString()).toBe(roundtrip ?? input)
    })
  }
})

describe('Go src/net/url/url_test.go TestParseRequestURI', () => {
  const cases: [string, boolean][] = [
    ['http://foo.com', true],
    ['http://foo.com/', true],
    ['/', true],
    ['//not.a.user@not.a.host/just/a/path', true],
    ['//not.a.user@%66%6f%6f.com/just/a/path/also', true],
    ['*', true],
    ['http://[fe80::1%25en0]:8080/', true],
    ['http://[fe80::1%25%65%6e%301-._~]/', true],
    ['foo.html', false],
    ['../dir/', false],
    [' http://foo.com', false],
    ['http://192.168.0.%31/', false],
    ['http://[fe80::%31]/', false],
    ['http://[fe80::%31%25en0]:8080/', false],
    ['http://[fe80::1%en0]/', false],
  ]
  for (const [input, valid] of cases) {
    it(`${input} → ${valid}`, () => expect(parseRequestURI(input) instanceof URLError).toBe(!valid))
  }
  it('keeps a scheme-relative looking path as the path', () => {
    const u = parseRequestURI('//not.a.user@not.a.host/just/a/path') as GoURL
    expect(u.path).toBe('//not.a.user@not.a.host/just/a/path')
  })
})

describe('Go src/net/url/url_test.go TestParseErrors and TestRejectControlCharacters', () => {
  const cases: [string, boolean][] = [
    ['http://[::1]', false],
    ['http://[::1]:80', false],
    ['http://[::1]:namedport', true],
    ['http://x:namedport', true],
    ['http://[::1]a', true],
    ['http://[::1]%23', true],
    ['http://[::1%25en0]', false],
    ['http://[::1]:', false],
    ['http://x:', false],
    ['http://[::1]:%38%30', true],
    ['http://[::1%25%41]', false],
    ['http://[%10::1]', true],
    ['http://[::1]/%48', false],
    ['http://%41:8080/', true],
    ['mysql://x@y(z:123)/foo', true],
    ['mysql://x@y(1.2.3.4:123)/foo', true],
    [' http://foo.com', true],
    ['ht tp://foo.com', true],
    ['ahttp://foo.com', false],
    ['1http://foo.com', true],
    ['http://a b.com/', true],
    ['cache_object://foo', true],
    ['cache_object:foo', true],
    ['cache_object:foo/bar', true],
    ['cache_object/:foo/bar', false],
  ]
  for (const [input, wantErr] of cases) {
    it(`${input} → ${wantErr ? 'error' : 'ok'}`, () => expect(parseURL(input) instanceof URLError).toBe(wantErr))
  }
  it('control characters', () => {
    for (const s of ['http://foo.com/?foo\nbar', 'http\r://foo.com/', 'http://foo\x7f.com/']) {
      expect((parseURL(s) as URLError).message).toContain('net/url: invalid control character in URL')
    }
  })
  it('invalid userinfo (TestInvalidUserPassword)', () => {
    expect((parseURL('http://user^:passwo^rd@foo.com/') as URLError).message).toContain('net/url: invalid userinfo')
  })
})

describe('Go src/net/url/url.go parseHost: bracketed hosts must be IPv6 addresses', () => {
  it('rejects IPv4 and non-addresses in brackets, and brackets not at the start', () => {
    expect((parseURL('http://[192.168.0.1]/') as URLError).message).toBe(
      'parse "http://[192.168.0.1]/": invalid IP-literal',
    )
    expect((parseURL('http://[::1]extra/') as URLError).message).toBe(
      'parse "http://[::1]extra/": invalid port "extra" after host',
    )
    expect((parseURL('http://example.com[::1]/') as URLError).message).toBe(
      'parse "http://example.com[::1]/": invalid IP-literal',
    )
    expect((parseURL('http://[example]/') as URLError).message).toBe(
      'parse "http://[example]/": invalid host: ParseAddr("example"): unable to parse IP',
    )
    expect(parseURL('http://[::ffff:192.168.0.1]/') instanceof URLError).toBe(false)
  })
})

describe('Go src/net/url/url_test.go TestURLHostnameAndPort', () => {
  const cases: [string, string, string][] = [
    ['foo.com:80', 'foo.com', '80'],
    ['foo.com', 'foo.com', ''],
    ['foo.com:', 'foo.com', ''],
    ['FOO.COM', 'FOO.COM', ''],
    ['1.2.3.4:80', '1.2.3.4', '80'],
    ['[1:2:3:4]:80', '1:2:3:4', '80'],
    ['[::1]:', '::1', ''],
    ['[2001:0db8:85a3:0000:0000:8a2e:0370:7334]:17000', '2001:0db8:85a3:0000:0000:8a2e:0370:7334', '17000'],
    ['[google.com]:80', 'google.com', '80'],
    ['google.com]:80', 'google.com]', '80'],
    ['google.com:80_invalid_port', 'google.com:80_invalid_port', ''],
    ['[::1]extra]:80', '::1]extra', '80'],
    ['google.com]extra:extra', 'google.com]extra:extra', ''],
  ]
  for (const [host, hostname, port] of cases) {
    it(host, () => {
      const u = new GoURL()
      u.host = host
      expect(u.hostname()).toBe(hostname)
      expect(u.port()).toBe(port)
    })
  }
})

describe('Go src/net/url/url_test.go TestParseQuery (URL.Query drops the malformed pairs)', () => {
  const cases: [string, Record<string, string[]>][] = [
    ['a=1', { a: ['1'] }],
    ['a=1&b=2', { a: ['1'], b: ['2'] }],
    ['a=1&a=2&a=banana', { a: ['1', '2', 'banana'] }],
    ['ascii=%3Ckey%3A+0x90%3E', { ascii: ['<key: 0x90>'] }],
    ['a=1;b=2', {}],
    ['a;b=1', {}],
    ['a=%3B', { a: [';'] }],
    ['a%3Bb=1', { 'a;b': ['1'] }],
    ['a=1&a=2;a=banana', { a: ['1'] }],
    ['a;b&c=1', { c: ['1'] }],
    ['a=1&b=2;a=3&c=4', { a: ['1'], c: ['4'] }],
    ['a=1&b=2;c=3', { a: ['1'] }],
    [';', {}],
    ['a=1;', {}],
    ['a=1&;', { a: ['1'] }],
    [';a=1&b=2', { b: ['2'] }],
    ['a=1&b=2;', { a: ['1'] }],
  ]
  for (const [query, want] of cases) {
    it(query, () => {
      const u = new GoURL()
      u.rawQuery = query
      expect(Object.fromEntries(u.query())).toEqual(want)
    })
  }
  it('TestParseFailure: a bad escape drops only its pair', () => {
    const u = new GoURL()
    u.rawQuery = '%gh&%ij&k=v'
    expect(Object.fromEntries(u.query())).toEqual({ k: ['v'] })
  })
  it('Go ≥ 1.24.12 / 1.25.6 (urlmaxqueryparams): more than 10000 parameters give no values', () => {
    const u = new GoURL()
    u.rawQuery = Array.from({ length: 10001 }, (_, i) => `k${i}=v`).join('&')
    expect(u.query().size).toBe(0)
    u.rawQuery = Array.from({ length: 10000 }, (_, i) => `k${i}=v`).join('&')
    expect(u.query().size).toBe(10000)
  })
})

describe('Go src/net/url/url_test.go requritests (EscapedPath)', () => {
  const escaped = (path: string, rawPath = '') => {
    const u = new GoURL()
    u.path = path
    u.rawPath = rawPath
    return u.escapedPath()
  }
  it('uses RawPath only when it is a valid encoding of Path', () => {
    expect(escaped('/a b')).toBe('/a%20b')
    expect(escaped('/a b', '/a b')).toBe('/a%20b')
    expect(escaped('/a?b', '/a?b')).toBe('/a%3Fb')
    expect(escaped('//foo')).toBe('//foo')
    expect(escaped('/foo/bar', '/foo%2fbar')).toBe('/foo%2fbar')
  })
})

describe('apiserver pkg/cel/library/cost_test.go TestURLsCost', () => {
  it('url(...) plus an accessor costs 4 (estimated 4)', () => {
    const arg = 'https:://kubernetes.io/'
    // the URL is valid: scheme https, opaque "://kubernetes.io/"
    expect(run(`url('${arg}').getScheme()`)).toBe('https')
    const size = BigInt(arg.length)
    const parseEstimate = urlsCosts.string_to_url!.estimate!(undefined, [{ size: { min: size, max: size } }])!
    for (const id of ['url_get_scheme', 'url_get_hostname', 'url_get_host', 'url_get_port', 'url_get_escaped_path']) {
      const accessor = urlsCosts[id]!
      expect(urlsCosts.string_to_url!.actual!([arg], null) + accessor.actual!([], null)).toBe(4)
      expect(parseEstimate.cost.max + accessor.estimate!(undefined, [])!.cost.max).toBe(4n)
    }
    expect(urlsCosts.url_get_query!.actual!([], null)).toBe(1)
  })
  it('== on URLs costs 1 at run time', () => {
    expect(urlEqualsCost.actual!([], null)).toBe(1)
    expect(
      urlEqualsCost.estimate!(undefined, [{ size: { min: 0n, max: 9n } }, { size: { min: 0n, max: 9n } }]),
    ).toEqual({
      cost: { min: 1n, max: 1n },
    })
  })
})
