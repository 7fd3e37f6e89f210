// The CEL differential's expressions: seeded, deterministic, grammar-based. A typed grammar (one production
// table per CEL type) writes expressions of the Kubernetes CEL environment: literals of every type with edge
// values (int64 / uint64 bounds, NaN and infinities, empty strings, code points beyond U+FFFF), the operators,
// the standard functions and conversions, the macros (one- and two-variable forms), the Kubernetes libraries
// (quantity, ip, cidr, url, lists, sets, regex, format, semver), the strings and lists extensions, optionals,
// and selections from the variables `object`, `oldObject`, `params` bound to generated JSON objects (present and
// absent fields, `has()`, `in`). A few productions build huge values, which must meet the cost limit.
// Each expression is a tree of nodes (its text, the production at its root, its children): the test re-runs the
// subexpressions of a differing case to find the smallest one that differs, the root of the difference.
import { picker } from '../../yaml-corpus.js'

/** A generated (sub)expression: its text, the production (a function, operator or macro) at its root. */
export interface Node {
  readonly text: string
  readonly fn: string
  readonly kids: readonly Node[]
  /** It names a macro's iteration variable bound outside it: not evaluable on its own. */
  readonly bound?: boolean
}

/** JSON as both sides bind it: integers beyond 2^53 as bigints (Go reads them as int64). */
export type Json = null | boolean | number | bigint | string | readonly Json[] | { readonly [key: string]: Json }

export interface Case {
  readonly id: number
  readonly expr: Node
  readonly env: 'new' | 'stored'
  readonly vars: { readonly object: Json; readonly oldObject: Json; readonly params: Json }
}

type T =
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'bool'
  | 'list'
  | 'map'
  | 'duration'
  | 'timestamp'
  | 'dyn'
  | 'optional'
  | 'quantity'
  | 'ip'
  | 'cidr'
  | 'url'
  | 'semver'
  | 'type'
  | 'null'

const leaf = (text: string, fn = 'literal'): Node => ({ text, fn, kids: [] })
const node = (fn: string, kids: Node[], text: (...k: string[]) => string): Node => ({
  text: text(...kids.map((k) => k.text)),
  fn,
  kids,
  ...(kids.some((k) => k.bound) ? { bound: true } : {}),
})
/** A macro: its body names the iteration variables, so the body is not evaluable alone. */
const macro = (fn: string, target: Node, body: Node[], text: (t: string, ...b: string[]) => string): Node => ({
  text: text(target.text, ...body.map((b) => b.text)),
  fn,
  kids: [target, ...body.filter((b) => !b.bound)],
  ...(target.bound ? { bound: true } : {}),
})
const quote = (s: string) => JSON.stringify(s)

const INTS = [
  '0',
  '1',
  '-1',
  '2',
  '3',
  '7',
  '10',
  '42',
  '-42',
  '100',
  '1000',
  '65536',
  '2147483647',
  '-2147483648',
  '4294967296',
  '9007199254740993',
  '9223372036854775807',
  '-9223372036854775808',
  '-9223372036854775807',
  '0x7fffffffffffffff',
  '0x10',
]
const UINTS = ['0u', '1u', '2u', '10u', '42u', '4294967295u', '9223372036854775808u', '18446744073709551615u', '0xffu']
const DOUBLES = [
  '0.0',
  '-0.0',
  '1.0',
  '1.5',
  '-2.5',
  '0.1',
  '3.14159',
  '1e10',
  '1e-10',
  '1e308',
  '-1e308',
  '9.223372036854776e18',
  '1.8446744073709552e19',
  '2.2250738585072014e-308',
  "double('NaN')",
  "double('inf')",
  "double('-Infinity')",
  '5e-324',
  '123456789.123456789',
]
const STRINGS = [
  '',
  'a',
  'abc',
  'Hello, World',
  ' padded ',
  'a,b,c',
  'a,,b,',
  'héllo wörld',
  'ǅ',
  '😀',
  'a😀b𝄞c',
  '日本語テキスト',
  'ﬃ',
  'İstanbul',
  '\u0000nul',
  'tab\tnew\nline',
  'quote"s\'',
  'back\\slash',
  '%s and %d',
  '1',
  '-12',
  '3.5',
  '1e3',
  'NaN',
  'true',
  'false',
  '9223372036854775808',
  '18446744073709551615',
  '1h30m',
  '2020-01-01T00:00:00Z',
  '1.2.3',
  'v1.2.3',
  '10.0.0.1',
  '::1',
  '192.168.0.0/16',
  'https://user@example.com:8443/path/a%20b?q=1&q=2#frag',
  '100Mi',
  '1.5Gi',
  '500m',
  '[a-z]+',
  'my-label_value.1',
  'UPPER lower 123',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
]
const REGEXES = ['[a-z]+', '^a', 'b$', '.', '(a|b)*c', '\\d+', '[[:alpha:]]', '\\p{L}+', '^$', '(?i)ABC', 'x{2,}', '']
const DURATIONS = [
  '0s',
  '1s',
  '-1s',
  '1.5s',
  '1h',
  '1h30m',
  '100ms',
  '1us',
  '1ns',
  '2562047h',
  '-2562047h',
  '2562048h',
  '1d',
  '',
  '5m0.5s',
  '9223372036s',
]
const TIMESTAMPS = [
  '2020-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2024-02-29T12:34:56.789Z',
  '2023-06-15T08:00:00+05:30',
  '2023-06-15T08:00:00.123456789-07:00',
  '2023-13-01T00:00:00Z',
  '2023-06-15 08:00:00',
]
const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', '+05:30', '-08:00', 'Invalid/Zone', 'Europe/London']
const QUANTITIES = [
  '0',
  '1',
  '100m',
  '1.5',
  '1Ki',
  '100Mi',
  '1.5Gi',
  '2e3',
  '1E',
  '-1',
  '0.001',
  '1.2.3',
  '',
  'Mi',
  '9Ei',
]
const IPS = [
  '10.0.0.1',
  '127.0.0.1',
  '0.0.0.0',
  '::1',
  '::',
  'fe80::1',
  '2001:db8::1',
  '224.0.0.1',
  '::ffff:1.2.3.4',
  '1.2.3',
]
const CIDRS = ['10.0.0.0/8', '192.168.1.0/24', '10.0.0.1/32', '::/0', '2001:db8::/32', '10.0.0.1/8', '1.2.3.4/33', 'x']
const URLS = [
  'https://example.com',
  'https://u@example.com:8443/a/b?x=1&x=2&y',
  'http://[::1]:80/',
  '/relative',
  'ftp://h',
]
const SEMVERS = ['1.2.3', '0.0.1', '1.2.3-alpha.1', '1.2.3+build', 'v1.2.3', '1.2', '01.2.3', '10.20.30']
const FORMATS = [
  'dns1123Label',
  'dns1123Subdomain',
  'dns1035Label',
  'qualifiedName',
  'dns1123LabelPrefix',
  'dns1123SubdomainPrefix',
  'dns1035LabelPrefix',
  'labelValue',
  'uri',
  'uuid',
  'byte',
  'date',
  'datetime',
  'nope',
]

/** Paths of the bound objects, by the type their value has when present. */
const PATHS: Record<'int' | 'string' | 'list' | 'map' | 'double' | 'bool' | 'dyn', string[]> = {
  int: [
    'object.spec.replicas',
    'object.spec.big',
    'object.spec.negative',
    'params.limit',
    'object.spec.containers[0].ports[0].containerPort',
    'oldObject.spec.replicas',
  ],
  string: [
    'object.metadata.name',
    'object.metadata.namespace',
    'object.spec.image',
    'object.spec.unicode',
    'object.spec.empty',
    'params.prefix',
    'object.spec.containers[0].name',
    "object.metadata.labels['app']",
    'oldObject.metadata.name',
  ],
  list: ['object.spec.tags', 'object.spec.containers', 'object.spec.numbers', 'params.allowed', 'object.spec.nested'],
  map: ['object.metadata.labels', 'object.metadata.annotations', 'object.spec', 'params', 'object'],
  double: ['object.spec.ratio', 'object.spec.tiny'],
  bool: ['object.spec.enabled', 'params.strict'],
  dyn: ['object.spec.nothing', 'object.spec.missing', 'object.status', 'oldObject', 'object.spec.mixed'],
}

type Pick = (n: number) => number

class Grammar {
  constructor(private readonly pick: Pick) {}

  one<X>(xs: readonly X[]): X {
    return xs[this.pick(xs.length)]!
  }

  chance(p: number): boolean {
    return this.pick(1000) < p * 1000
  }

  string(): Node {
    return leaf(
      this.chance(0.15)
        ? `'${this.one(STRINGS).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
        : quote(this.one(STRINGS)),
    )
  }

  /** An expression of type t, at most `depth` calls deep. */
  gen(t: T, depth: number): Node {
    if (depth <= 0 || this.chance(0.25)) return this.leafOf(t)
    const d = depth - 1
    const g = (u: T) => this.gen(u, d)
    switch (t) {
      case 'int':
        return this.choose([
          () => this.bin(['_+_', '_-_', '_*_', '_/_', '_%_'], g('int'), g('int')),
          () => node('-_', [g('int')], (a) => `-(${a})`),
          () => node('size', [this.gen(this.one(['string', 'bytes', 'list', 'map'] as const), d)], (a) => `size(${a})`),
          () => node('string.size', [g('string')], (a) => `${a}.size()`),
          () =>
            node(
              'int',
              [this.gen(this.one(['uint', 'double', 'string', 'timestamp', 'duration', 'dyn'] as const), d)],
              (a) => `int(${a})`,
            ),
          () => node('indexOf', [g('string'), g('string')], (a, b) => `${a}.indexOf(${b})`),
          () => node('indexOf', [g('string'), g('string'), g('int')], (a, b, c) => `${a}.indexOf(${b}, ${c})`),
          () => node('lastIndexOf', [g('string'), g('string')], (a, b) => `${a}.lastIndexOf(${b})`),
          () => node('lastIndexOf', [g('string'), g('string'), g('int')], (a, b, c) => `${a}.lastIndexOf(${b}, ${c})`),
          () => {
            const f = this.one([
              'getFullYear',
              'getMonth',
              'getDayOfYear',
              'getDate',
              'getDayOfMonth',
              'getDayOfWeek',
              'getHours',
              'getMinutes',
              'getSeconds',
              'getMilliseconds',
            ])
            return this.chance(0.4)
              ? node(f, [g('timestamp')], (a) => `${a}.${f}(${quote(this.one(ZONES))})`)
              : node(f, [g('timestamp')], (a) => `${a}.${f}()`)
          },
          () => {
            const f = this.one(['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'])
            return node(`duration.${f}`, [g('duration')], (a) => `${a}.${f}()`)
          },
          () => node('_[_]', [this.intList(d), g('int')], (a, b) => `${a}[${b}]`),
          () => {
            const f = this.one(['sum', 'min', 'max'])
            return node(f, [this.intList(d)], (a) => `${a}.${f}()`)
          },
          () => {
            const f = this.one(['indexOf', 'lastIndexOf'])
            return node(`list.${f}`, [this.intList(d), g('int')], (a, b) => `${a}.${f}(${b})`)
          },
          () => node('asInteger', [g('quantity')], (a) => `${a}.asInteger()`),
          () => node('sign', [g('quantity')], (a) => `${a}.sign()`),
          () => node('quantity.compareTo', [g('quantity'), g('quantity')], (a, b) => `${a}.compareTo(${b})`),
          () => node('family', [g('ip')], (a) => `${a}.family()`),
          () => node('prefixLength', [g('cidr')], (a) => `${a}.prefixLength()`),
          () => {
            const f = this.one(['major', 'minor', 'patch'])
            return node(f, [g('semver')], (a) => `${a}.${f}()`)
          },
          () => node('semver.compareTo', [g('semver'), g('semver')], (a, b) => `${a}.compareTo(${b})`),
          () => node('_?_:_', [g('bool'), g('int'), g('int')], (a, b, c) => `(${a} ? ${b} : ${c})`),
          () => node('orValue', [g('optional'), g('int')], (a, b) => `${a}.orValue(${b})`),
          () => node('dyn', [this.path('int')], (a) => a),
          () => node('int', [g('string')], (a) => `int(${a})`),
          () => node('size', [g('list')], (a) => `${a}.size()`),
        ])
      case 'uint':
        return this.choose([
          () => this.bin(['_+_', '_-_', '_*_', '_/_', '_%_'], g('uint'), g('uint')),
          () => node('uint', [this.gen(this.one(['int', 'double', 'string', 'dyn'] as const), d)], (a) => `uint(${a})`),
          () => node('_?_:_', [g('bool'), g('uint'), g('uint')], (a, b, c) => `(${a} ? ${b} : ${c})`),
          () => node('sum', [this.listOf('uint', d)], (a) => `${a}.sum()`),
        ])
      case 'double':
        return this.choose([
          () => this.bin(['_+_', '_-_', '_*_', '_/_'], g('double'), g('double')),
          () => node('-_', [g('double')], (a) => `-(${a})`),
          () =>
            node('double', [this.gen(this.one(['int', 'uint', 'string', 'dyn'] as const), d)], (a) => `double(${a})`),
          () => node('asApproximateFloat', [g('quantity')], (a) => `${a}.asApproximateFloat()`),
          () => node('sum', [this.listOf('double', d)], (a) => `${a}.sum()`),
          () => node('max', [this.listOf('double', d)], (a) => `${a}.max()`),
          () => node('dyn', [this.path('double')], (a) => a),
        ])
      case 'string':
        return this.choose([
          () => node('_+_', [g('string'), g('string')], (a, b) => `(${a} + ${b})`),
          () =>
            node(
              'string',
              [
                this.gen(
                  this.one([
                    'int',
                    'uint',
                    'double',
                    'bytes',
                    'bool',
                    'timestamp',
                    'duration',
                    'string',
                    'dyn',
                  ] as const),
                  d,
                ),
              ],
              (a) => `string(${a})`,
            ),
          () => node('substring', [g('string'), g('int')], (a, b) => `${a}.substring(${b})`),
          () => node('substring', [g('string'), g('int'), g('int')], (a, b, c) => `${a}.substring(${b}, ${c})`),
          () => node('charAt', [g('string'), g('int')], (a, b) => `${a}.charAt(${b})`),
          () => {
            const f = this.one(['lowerAscii', 'upperAscii', 'trim', 'reverse'])
            return node(f, [g('string')], (a) => `${a}.${f}()`)
          },
          () => node('replace', [g('string'), g('string'), g('string')], (a, b, c) => `${a}.replace(${b}, ${c})`),
          () =>
            node(
              'replace',
              [g('string'), g('string'), g('string'), g('int')],
              (a, b, c, e) => `${a}.replace(${b}, ${c}, ${e})`,
            ),
          () => node('join', [this.listOf('string', d)], (a) => `${a}.join()`),
          () => node('join', [this.listOf('string', d), g('string')], (a, b) => `${a}.join(${b})`),
          () => node('strings.quote', [g('string')], (a) => `strings.quote(${a})`),
          () => this.format(d),
          () => node('_[_]', [this.listOf('string', d), g('int')], (a, b) => `${a}[${b}]`),
          () => {
            const f = this.one(['getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath'])
            return node(f, [g('url')], (a) => `${a}.${f}()`)
          },
          () => node('string', [this.gen(this.one(['ip', 'cidr'] as const), d)], (a) => `string(${a})`),
          () => node('find', [g('string'), leaf(quote(this.one(REGEXES)))], (a, b) => `${a}.find(${b})`),
          () => node('_?_:_', [g('bool'), g('string'), g('string')], (a, b, c) => `(${a} ? ${b} : ${c})`),
          () => node('orValue', [g('optional'), g('string')], (a, b) => `${a}.orValue(${b})`),
          () => node('dyn', [this.path('string')], (a) => a),
          () => node('_[_]', [this.path('map'), g('string')], (a, b) => `${a}[${b}]`),
          () => node('string', [g('type')], (a) => `string(${a})`),
        ])
      case 'bytes':
        return this.choose([
          () => node('_+_', [g('bytes'), g('bytes')], (a, b) => `(${a} + ${b})`),
          () => node('bytes', [g('string')], (a) => `bytes(${a})`),
        ])
      case 'bool':
        return this.boolean(d)
      case 'list':
        return this.list(d)
      case 'map':
        return this.choose([
          () => {
            const v = this.one(['int', 'string', 'bool', 'double'] as const)
            return node('{}', [g('string'), g(v), g('string'), g(v)], (a, b, c, e) => `{${a}: ${b}, ${c}: ${e}}`)
          },
          () => node('{}', [g('int'), g('string')], (a, b) => `{${a}: ${b}, 1u: 'u', true: 'b'}`),
          () =>
            macro(
              'transformMap',
              this.path('map'),
              [this.body('string', d, 'v')],
              (t, b) => `${t}.transformMap(k, v, ${b})`,
            ),
          () =>
            macro(
              'transformMap',
              this.intList(d),
              [this.body('int', d, 'v')],
              (t, b) => `${t}.transformMap(i, v, ${b})`,
            ),
          () =>
            macro(
              'transformMapEntry',
              this.listOf('string', d),
              [this.body('string', d, 'v')],
              (t, b) => `${t}.transformMapEntry(i, v, {v: ${b}})`,
            ),
          () => node('getQuery', [g('url')], (a) => `${a}.getQuery()`),
          () => node('dyn', [this.path('map')], (a) => a),
        ])
      case 'duration':
        return this.choose([
          () => this.bin(['_+_', '_-_'], g('duration'), g('duration')),
          () => node('_-_', [g('timestamp'), g('timestamp')], (a, b) => `(${a} - ${b})`),
          () => node('duration', [g('string')], (a) => `duration(${a})`),
          () => node('duration', [g('int')], (a) => `duration(${a})`),
          () => node('-_', [g('duration')], (a) => `-(${a})`),
        ])
      case 'timestamp':
        return this.choose([
          () => this.bin(['_+_', '_-_'], g('timestamp'), g('duration')),
          () => node('timestamp', [g('string')], (a) => `timestamp(${a})`),
          () => node('timestamp', [g('int')], (a) => `timestamp(${a})`),
        ])
      case 'optional':
        return this.choose([
          () => node('optional.of', [this.gen(this.one(['int', 'string'] as const), d)], (a) => `optional.of(${a})`),
          () =>
            node(
              'optional.ofNonZeroValue',
              [this.gen(this.one(['int', 'string', 'list'] as const), d)],
              (a) => `optional.ofNonZeroValue(${a})`,
            ),
          () => node('_[?_]', [this.path('map'), g('string')], (a, b) => `${a}[?${b}]`),
          () =>
            node(
              '_?._',
              [this.path('map')],
              (a) => `${a}.?${this.one(['name', 'app', 'replicas', 'missing', 'spec', 'prefix'])}`,
            ),
          () =>
            node('_[?_]', [this.listOf(this.one(['int', 'string'] as const), d), g('int')], (a, b) => `${a}[?${b}]`),
          () => this.method(this.one(['first', 'last']), [this.listOf(this.one(['int', 'string'] as const), d)]),
          () => node('or', [g('optional'), g('optional')], (a, b) => `${a}.or(${b})`),
          () => node('validate', [leaf(this.one(FORMATS)), g('string')], (f, s) => `format.${f}().validate(${s})`),
          () =>
            node(
              'format.named',
              [g('string')],
              (a) => `format.named(${a}).hasValue() ? optional.of(1) : optional.none()`,
            ),
          () => node('optMap', [g('optional')], (a) => `${a}.optMap(x, string(x))`),
          () => node('orValue', [g('optional'), g('optional')], (a, b) => `${a}.orValue(${b})`),
        ])
      case 'quantity':
        return this.choose([
          () =>
            node('quantity', [this.gen(this.one(['string', 'string', 'dyn'] as const), d)], (a) => `quantity(${a})`),
          () => this.method(this.one(['add', 'sub']), [g('quantity'), g(this.one(['quantity', 'int'] as const))]),
        ])
      case 'ip':
        return this.choose([
          () => node('ip', [g('string')], (a) => `ip(${a})`),
          () => node('cidr.ip', [g('cidr')], (a) => `${a}.ip()`),
        ])
      case 'cidr':
        return this.choose([
          () => node('cidr', [g('string')], (a) => `cidr(${a})`),
          () => node('masked', [g('cidr')], (a) => `${a}.masked()`),
        ])
      case 'url':
        return node('url', [g('string')], (a) => `url(${a})`)
      case 'semver':
        return this.choose([
          () => node('semver', [g('string')], (a) => `semver(${a})`),
          () => node('semver', [g('string')], (a) => `semver(${a}, true)`),
        ])
      case 'type':
        return node('type', [this.gen(this.any(), d)], (a) => `type(${a})`)
      case 'null':
        return leaf('null')
      case 'dyn':
        return this.choose([
          () => node('dyn', [this.gen(this.any(), d)], (a) => `dyn(${a})`),
          () =>
            node(
              '_?_:_',
              [g('bool'), this.gen(this.any(), d), this.gen(this.any(), d)],
              (a, b, c) => `(${a} ? dyn(${b}) : dyn(${c}))`,
            ),
          () => node('dyn', [this.path('dyn')], (a) => a),
        ])
    }
  }

  /** A binary operator among `fns` (cel-go's names: `_+_`), its operands parenthesised. */
  private bin(fns: readonly string[], a: Node, b: Node): Node {
    const fn = this.one(fns)
    return node(fn, [a, b], (x, y) => `((${x}) ${fn.slice(1, -1)} (${y}))`)
  }

  /** A receiver-style call `kids[0].fn(kids[1..])`. */
  private method(fn: string, kids: Node[]): Node {
    return node(fn, kids, (t, ...xs) => `${t}.${fn}(${xs.join(', ')})`)
  }

  /** One production, chosen evenly. */
  private choose(ps: readonly (() => Node)[]): Node {
    return ps[this.pick(ps.length)]!()
  }

  private any(): T {
    return this.one([
      'int',
      'uint',
      'double',
      'string',
      'bytes',
      'bool',
      'list',
      'map',
      'duration',
      'timestamp',
      'null',
      'optional',
      'quantity',
      'dyn',
    ] as const)
  }

  private path(kind: keyof typeof PATHS): Node {
    return leaf(this.one(PATHS[kind]), 'select')
  }

  private intList(d: number): Node {
    return this.listOf('int', d)
  }

  /** A macro body of type t over the iteration variable `v` (sometimes not naming it: a constant body). */
  private body(t: 'int' | 'string' | 'bool', d: number, v: string): Node {
    const b =
      t === 'int'
        ? this.one([`${v} * 2`, `${v} + 1`, `${v} % 3`, '1', `${v} / 0`])
        : t === 'string'
          ? this.one([`string(${v})`, `string(${v}) + 'x'`, "'c'"])
          : this.one([`${v} > 1`, `${v} == 0`, 'true', `string(${v}).startsWith('a')`, `${v} / 0 == 1`])
    void d
    return { text: b, fn: 'body', kids: [], bound: true }
  }

  listOf(t: 'int' | 'string' | 'uint' | 'double' | 'bool', d: number): Node {
    return this.choose([
      () => {
        const n = this.pick(5)
        const kids = Array.from({ length: n }, () => this.gen(t, Math.min(d, 1)))
        return node('[]', kids, (...xs) => `[${xs.join(', ')}]`)
      },
      () => {
        const n = this.pick(4)
        const kids = Array.from({ length: n }, () => this.leafOf(t))
        return node('[]', kids, (...xs) => `[${xs.join(', ')}]`)
      },
      () => node('_+_', [this.listOf(t, d - 1), this.listOf(t, d - 1)], (a, b) => `(${a} + ${b})`),
      () =>
        t === 'int'
          ? node(
              'lists.range',
              [
                leaf(
                  this.chance(0.05) ? this.one(['10000', '1000000']) : this.one(['0', '1', '5', '-1', '100', '1000']),
                ),
              ],
              (a) => `lists.range(${a})`,
            )
          : t === 'string'
            ? node('split', [this.gen('string', d - 1), this.gen('string', d - 1)], (a, b) => `${a}.split(${b})`)
            : this.listOf(t, d - 1),
      () => {
        const f = this.one(['distinct', 'reverse', 'sort', 'flatten'])
        return node(f, [this.listOf(t, d - 1)], (a) => `${a}.${f}()`)
      },
      () =>
        node(
          'slice',
          [this.listOf(t, d - 1), leaf(this.one(['0', '1', '2', '-1'])), leaf(this.one(['0', '1', '2', '5']))],
          (a, b, c) => `${a}.slice(${b}, ${c})`,
        ),
      () =>
        t === 'int'
          ? macro('map', this.intList(d - 1), [this.body('int', d, 'x')], (a, b) => `${a}.map(x, ${b})`)
          : t === 'string'
            ? macro('map', this.intList(d - 1), [this.body('string', d, 'x')], (a, b) => `${a}.map(x, ${b})`)
            : this.listOf(t, d - 1),
      () =>
        t === 'int'
          ? macro('filter', this.intList(d - 1), [this.body('bool', d, 'x')], (a, b) => `${a}.filter(x, ${b})`)
          : t === 'string'
            ? node(
                'findAll',
                [this.gen('string', d - 1), leaf(quote(this.one(REGEXES)))],
                (a, b) => `${a}.findAll(${b})`,
              )
            : this.listOf(t, d - 1),
      () =>
        t === 'int'
          ? macro('sortBy', this.intList(d - 1), [this.body('int', d, 'x')], (a, b) => `${a}.sortBy(x, ${b})`)
          : this.listOf(t, d - 1),
      () =>
        t === 'int'
          ? macro(
              'transformList',
              this.intList(d - 1),
              [this.body('int', d, 'v')],
              (a, b) => `${a}.transformList(i, v, ${b})`,
            )
          : this.listOf(t, d - 1),
    ])
  }

  private list(d: number): Node {
    return this.choose([
      () => this.listOf(this.one(['int', 'string', 'uint', 'double', 'bool'] as const), d),
      () => node('[]', [this.gen('int', d), this.gen('string', d)], (a, b) => `[dyn(${a}), dyn(${b})]`),
      () => node('[]', [this.listOf('int', d), this.listOf('int', d)], (a, b) => `[${a}, ${b}]`),
      () =>
        node(
          'flatten',
          [this.listOf('int', d - 1)],
          (a) => `[${a}, [[1], 2]].flatten(${this.one(['0', '1', '2', '-1'])})`,
        ),
      () => node('dyn', [this.path('list')], (a) => a),
      () =>
        macro('map', this.path('list'), [{ text: 'x', fn: 'body', kids: [], bound: true }], (a) => `${a}.map(x, x)`),
      () =>
        node(
          'findAll',
          [this.gen('string', d), leaf(quote(this.one(REGEXES))), leaf(this.one(['-1', '0', '1', '2']))],
          (a, b, c) => `${a}.findAll(${b}, ${c})`,
        ),
      () =>
        node(
          'split',
          [this.gen('string', d), this.gen('string', d), this.gen('int', d)],
          (a, b, c) => `${a}.split(${b}, ${c})`,
        ),
    ])
  }

  private boolean(d: number): Node {
    const g = (u: T) => this.gen(u, d)
    const cmp = () => this.one(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_'])
    const opText: Record<string, string> = {
      '_==_': '==',
      '_!=_': '!=',
      '_<_': '<',
      '_<=_': '<=',
      '_>_': '>',
      '_>=_': '>=',
    }
    return this.choose([
      () => {
        const t = this.one(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'duration', 'timestamp'] as const)
        const o = cmp()
        return node(o, [g(t), g(t)], (a, b) => `(${a} ${opText[o]} ${b})`)
      },
      () => {
        // cross-type numeric comparisons
        const [a, b] = [this.one(['int', 'uint', 'double'] as const), this.one(['int', 'uint', 'double'] as const)]
        const o = cmp()
        return node(o, [g(a), g(b)], (x, y) => `(${x} ${opText[o]} ${y})`)
      },
      () => {
        const o = this.one(['_==_', '_!=_'])
        return node(
          o,
          [this.gen(this.any(), d), this.gen(this.any(), d)],
          (a, b) => `(dyn(${a}) ${opText[o]} dyn(${b}))`,
        )
      },
      () => this.bin(['_&&_', '_||_'], g('bool'), g('bool')),
      () => node('!_', [g('bool')], (a) => `!(${a})`),
      () => node('@in', [g('string'), this.listOf('string', d)], (a, b) => `(${a} in ${b})`),
      () => node('@in', [g('int'), this.gen('list', d)], (a, b) => `(${a} in ${b})`),
      () => node('@in', [g('string'), g('map')], (a, b) => `(${a} in ${b})`),
      () => node('@in', [g('string'), this.path('list')], (a, b) => `(${a} in ${b})`),
      () => node('@in', [g('string'), this.path('map')], (a, b) => `(${a} in ${b})`),
      () =>
        node(
          'has',
          [this.path(this.one(['int', 'string', 'map', 'list', 'dyn'] as const))],
          (a) => `has(${a.replace(/\[.*?\]/g, '')})`,
        ),
      () => {
        const f = this.one(['contains', 'startsWith', 'endsWith', 'matches'])
        return node(
          f,
          [g('string'), f === 'matches' ? leaf(quote(this.one(REGEXES))) : g('string')],
          (a, b) => `${a}.${f}(${b})`,
        )
      },
      () => node('matches', [g('string'), g('string')], (a, b) => `matches(${a}, ${b})`),
      () => {
        const m = this.one(['all', 'exists', 'exists_one'])
        return macro(m, this.listOf('int', d), [this.body('bool', d, 'x')], (a, b) => `${a}.${m}(x, ${b})`)
      },
      () => {
        const m = this.one(['all', 'exists', 'existsOne', 'exists_one'])
        return macro(m, this.listOf('int', d), [this.body('bool', d, 'v')], (a, b) => `${a}.${m}(i, v, ${b} && i >= 0)`)
      },
      () => {
        const m = this.one(['all', 'exists'])
        return macro(
          m,
          this.path('map'),
          [{ text: 'k', fn: 'body', kids: [], bound: true }],
          (a) => `${a}.${m}(k, k.startsWith('a'))`,
        )
      },
      () =>
        macro(
          'all',
          this.path('list'),
          [{ text: 'x', fn: 'body', kids: [], bound: true }],
          (a) => `${a}.all(x, x != '')`,
        ),
      () => {
        const f = this.one(['sets.contains', 'sets.equivalent', 'sets.intersects'])
        const t = this.one(['int', 'string', 'double', 'uint'] as const)
        return node(f, [this.listOf(t, d), this.listOf(this.chance(0.2) ? 'int' : t, d)], (a, b) => `${f}(${a}, ${b})`)
      },
      () =>
        node('isSorted', [this.listOf(this.one(['int', 'string', 'double'] as const), d)], (a) => `${a}.isSorted()`),
      () => node('includes', [this.listOf('int', d), g('int')], (a, b) => `${a}.includes(${b})`),
      () => {
        const f = this.one(['isQuantity', 'isIP', 'isCIDR', 'isURL', 'isSemver', 'ip.isCanonical'])
        return node(f, [g('string')], (a) => `${f}(${a})`)
      },
      () => node('isSemver', [g('string')], (a) => `isSemver(${a}, true)`),
      () => {
        const f = this.one([
          'isUnspecified',
          'isLoopback',
          'isLinkLocalMulticast',
          'isLinkLocalUnicast',
          'isGlobalUnicast',
        ])
        return node(f, [g('ip')], (a) => `${a}.${f}()`)
      },
      () =>
        node('containsIP', [g('cidr'), this.chance(0.5) ? g('ip') : g('string')], (a, b) => `${a}.containsIP(${b})`),
      () =>
        node(
          'containsCIDR',
          [g('cidr'), this.chance(0.5) ? g('cidr') : g('string')],
          (a, b) => `${a}.containsCIDR(${b})`,
        ),
      () => {
        const f = this.one(['isGreaterThan', 'isLessThan'])
        return node(`quantity.${f}`, [g('quantity'), g('quantity')], (a, b) => `${a}.${f}(${b})`)
      },
      () => node('isInteger', [g('quantity')], (a) => `${a}.isInteger()`),
      () => {
        const f = this.one(['isGreaterThan', 'isLessThan'])
        return node(`semver.${f}`, [g('semver'), g('semver')], (a, b) => `${a}.${f}(${b})`)
      },
      () => node('hasValue', [g('optional')], (a) => `${a}.hasValue()`),
      () => node('_==_', [g('quantity'), g('quantity')], (a, b) => `(${a} == ${b})`),
      () => node('_==_', [g('ip'), g('ip')], (a, b) => `(${a} == ${b})`),
      () => node('bool', [g('string')], (a) => `bool(${a})`),
      () => node('dyn', [this.path('bool')], (a) => a),
      () => node('_==_', [g('type'), g('type')], (a, b) => `(${a} == ${b})`),
      () => node('_==_', [g('list'), g('list')], (a, b) => `(${a} == ${b})`),
      () => node('_==_', [g('map'), g('map')], (a, b) => `(${a} == ${b})`),
      () => node('_==_', [g('optional'), g('optional')], (a, b) => `(${a} == ${b})`),
      () => node('_<_', [g('dyn'), g('dyn')], (a, b) => `(${a} < ${b})`),
    ])
  }

  private format(d: number): Node {
    const verbs: [string, T][] = [
      ['%s', 'string'],
      ['%s', 'int'],
      ['%s', 'list'],
      ['%d', 'int'],
      ['%d', 'uint'],
      ['%f', 'double'],
      ['%.3f', 'double'],
      ['%e', 'double'],
      ['%x', 'int'],
      ['%X', 'string'],
      ['%o', 'uint'],
      ['%b', 'int'],
      ['%s', 'bool'],
      ['%s', 'duration'],
      ['%s', 'timestamp'],
      ['%s', 'bytes'],
      ['%d', 'string'],
      ['%s', 'map'],
      ['%s', 'double'],
      ['%s', 'null'],
      ['%%', 'int'],
    ]
    const n = 1 + this.pick(2)
    const picked = Array.from({ length: n }, () => this.one(verbs))
    const kids = picked.filter(([v]) => v !== '%%').map(([, t]) => this.gen(t, Math.min(d, 1)))
    const fmt = picked.map(([v]) => v).join(' ')
    return node('format', kids, (...xs) => `${quote(fmt)}.format([${xs.join(', ')}])`)
  }

  leafOf(t: T): Node {
    switch (t) {
      case 'int':
        return this.chance(0.3) ? this.path('int') : leaf(this.one(INTS))
      case 'uint':
        return leaf(this.one(UINTS))
      case 'double':
        return this.chance(0.2) ? this.path('double') : leaf(this.one(DOUBLES))
      case 'string':
        return this.chance(0.25) ? this.path('string') : this.string()
      case 'bytes':
        return leaf(this.one(["b''", "b'abc'", "b'\\xff\\x00'", "b'\\u00e9'", 'b"😀"', "bytes('x')"]))
      case 'bool':
        return this.chance(0.3) ? this.path('bool') : leaf(this.one(['true', 'false']))
      case 'list':
        return this.chance(0.4)
          ? this.path('list')
          : leaf(this.one(['[]', '[1, 2, 3]', "['a', 'b']", '[[1], [2, 3]]', '[1.5, 2.5]']))
      case 'map':
        return this.chance(0.5)
          ? this.path('map')
          : leaf(this.one(['{}', "{'a': 1}", "{'a': 'x', 'b': 'y'}", '{1: true}']))
      case 'duration':
        return leaf(`duration(${quote(this.one(DURATIONS))})`, 'duration')
      case 'timestamp':
        return leaf(`timestamp(${quote(this.one(TIMESTAMPS))})`, 'timestamp')
      case 'optional':
        return leaf(this.one(['optional.none()', 'optional.of(1)', "optional.of('a')", 'optional.of(0)']), 'optional')
      case 'quantity':
        return leaf(`quantity(${quote(this.one(QUANTITIES))})`, 'quantity')
      case 'ip':
        return leaf(`ip(${quote(this.one(IPS))})`, 'ip')
      case 'cidr':
        return leaf(`cidr(${quote(this.one(CIDRS))})`, 'cidr')
      case 'url':
        return leaf(`url(${quote(this.one(URLS))})`, 'url')
      case 'semver':
        return leaf(`semver(${quote(this.one(SEMVERS))})`, 'semver')
      case 'type':
        return leaf(
          this.one(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'list', 'map', 'null_type', 'type']),
          'type',
        )
      case 'null':
        return leaf('null')
      case 'dyn':
        return this.path('dyn')
    }
  }

  /** Large values: must meet the per-call cost limit (or the size limits) on both sides. */
  huge(): Node {
    const n = this.one(['100000', '1000000', '10000000', '3037000500'])
    return this.choose([
      () => node('lists.range', [leaf(n)], (a) => `lists.range(${a}).size()`),
      () => node('map', [leaf(n)], (a) => `lists.range(${a}).map(x, x * 2).size()`),
      () => node('join', [leaf(n)], (a) => `lists.range(${a}).map(x, 'abcdefgh').join().size()`),
      () => node('map', [], () => 'lists.range(2000).map(x, lists.range(2000)).size()'),
      () => node('replace', [], () => `'${'a'.repeat(64)}'.replace('', '${'b'.repeat(64)}').replace('', 'c').size()`),
      () =>
        node(
          '_+_',
          [],
          () =>
            `[${Array(64).fill('1').join(', ')}].map(x, [${Array(64).fill('"xy"').join(', ')}]).flatten().join().size()`,
        ),
      () => node('all', [leaf(n)], (a) => `lists.range(${a}).all(x, x >= 0)`),
      () => node('sort', [leaf(n)], (a) => `lists.range(${a}).reverse().sort()[0]`),
    ])
  }

  /** A bound object: the paths PATHS names, each sometimes absent, with edge values. */
  object(): { [key: string]: Json } {
    const p = this.pick
    const maybe = (o: { [key: string]: Json }, k: string, v: Json) => {
      if (p(10) > 0) o[k] = v
    }
    const labels: { [key: string]: Json } = {}
    maybe(labels, 'app', this.one(['web', '', 'ünïcode', 'a😀']))
    maybe(labels, 'tier', 'backend')
    // a key that is data, not a prototype (kelp's maps from input must hold it)
    if (p(4) === 0) Object.defineProperty(labels, '__proto__', { value: 'x', enumerable: true, writable: true })
    const spec: { [key: string]: Json } = {}
    maybe(spec, 'replicas', this.one([0, 1, 3, -1, 2147483647]))
    maybe(spec, 'big', this.one([9223372036854775807n, -9223372036854775808n, 9007199254740993n, 12]))
    maybe(spec, 'negative', -5)
    maybe(spec, 'image', this.one(['nginx:1.25', 'registry.example.com/app@sha256:abc', '']))
    maybe(spec, 'unicode', this.one(['😀𝄞', 'é', 'ǅ']))
    maybe(spec, 'empty', '')
    maybe(spec, 'tags', this.one([[], ['prod', 'web'], ['a', 'b', 'a'], ['😀']]))
    maybe(spec, 'numbers', this.one([[], [3, 1, 2], [1, 2.5], [9223372036854775807n, 1]]))
    maybe(spec, 'nested', [[1, 2], [3]])
    maybe(spec, 'ratio', this.one([0.5, -1.25, 1e300, 3.3e-5]))
    maybe(spec, 'tiny', 5e-324)
    maybe(spec, 'enabled', this.one([true, false]))
    spec['nothing'] = null
    maybe(spec, 'mixed', this.one([1, 'one', [1], { a: 1 }, true, 1.5]))
    maybe(spec, 'containers', [
      { name: 'main', image: 'nginx', ports: [{ containerPort: this.one([80, 8080, 65536]) }] },
      { name: 'side', image: 'busybox' },
    ])
    const object: { [key: string]: Json } = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: this.one(['web', '', 'a-very-long-name-'.repeat(4)]),
        namespace: 'default',
        labels,
        annotations: {},
      },
      spec,
    }
    if (p(3) === 0) object['status'] = { ready: true }
    return object
  }

  params(): Json {
    if (this.pick(5) === 0) return null
    const o: { [key: string]: Json } = {}
    if (this.pick(8) > 0) o['limit'] = this.one([10, 0, -3])
    if (this.pick(8) > 0) o['prefix'] = this.one(['we', '', 'x'])
    if (this.pick(8) > 0) o['allowed'] = this.one([['web', 'db'], []])
    if (this.pick(8) > 0) o['strict'] = this.one([true, false])
    return o
  }
}

/** The `count` cases of `seed`: case i depends on (seed, i) only, so a run can restart anywhere. */
export function generateCase(seed: number, id: number): Case {
  const pick: Pick = picker((seed * 1_000_003 + id) >>> 0)
  const g = new Grammar(pick)
  const r = pick(1000)
  const expr =
    r < 8
      ? g.huge()
      : g.gen(
          g.one([
            'bool',
            'bool',
            'int',
            'string',
            'list',
            'double',
            'uint',
            'map',
            'duration',
            'timestamp',
            'optional',
            'dyn',
            'bytes',
            'type',
          ] as const),
          1 + pick(4),
        )
  const object = g.object()
  const oldObject = pick(3) === 0 ? null : g.object()
  return { id, expr, env: pick(10) === 0 ? 'stored' : 'new', vars: { object, oldObject, params: g.params() } }
}

/** JSON text of a binding as Go reads it: bigints as their digits. */
export function goJSON(v: Json): string {
  if (typeof v === 'bigint') return v.toString()
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${goJSON((v as Record<string, Json>)[k]!)}`)
      .join(',')}}`
  return JSON.stringify(v)
}

/** Every subexpression evaluable alone (not naming a macro variable), smallest first, the whole last. */
export function subexpressions(root: Node): Node[] {
  const out: Node[] = []
  const walk = (n: Node) => {
    for (const k of n.kids) walk(k)
    if (!n.bound && n.kids.length > 0) out.push(n)
  }
  walk(root)
  return out.sort((a, b) => a.text.length - b.text.length)
}
