import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/index.js'
import { AuthorizerType, newAuthorizer } from '../../src/kube/authz/library.js'
import { kubeEnv } from '../../src/kube/environment.js'
import { jsonPatchLibrary } from '../../src/kube/library/jsonpatch.js'

// ---------------------------------------------------------------------------------------------
// Run-time costs of apiserver pkg/cel/library/cost_test.go: every expectRuntimeCost /
// expectedRuntimeCost figure of the file. Its testCost environment: ext.Strings(StringsVersion(2)),
// URLs, Regex, Lists(ListsVersion(1)) (with `includes`), Authz, AuthzSelectors, Quantity, ext.Sets,
// IP, CIDR, Format, JSONPatch, OptionalTypes, TwoVarComprehensions and SemverLib(SemverVersion(1)),
// plus an `authorizer` variable bound to an always-allow authorizer. It has neither
// HomogeneousAggregateLiterals nor OptOptimize (env.Program gets only cel.CostTracking), so every
// list literal costs 10 and every conversion of a constant is charged. The 1.37 StoredExpressions
// environment is the kelp environment with those libraries (Lists version 1); JSONPatch, which
// Kubernetes adds only for mutating admission policies, is added here as testCost adds it.
// Every figure is checked on both back ends (generated JavaScript and closures).

const env = kubeEnv({ version: '1.37', expressions: 'stored' }).extend({
  libraries: [jsonPatchLibrary],
  variables: { authorizer: AuthorizerType },
  features: { homogeneousAggregateLiterals: false },
})

const authorizer = newAuthorizer({ username: 'cost-test', groups: [] }, () => ({ decision: 'Allow', reason: '' }))

function runtimeCost(expr: string, backend: 'js' | 'closures'): number {
  return compile(expr, { env, optimize: false, backend }).run({ authorizer }).cost
}

type Case = readonly [expr: string, cost: number]

function table(title: string, cases: readonly Case[]): void {
  describe(`apiserver pkg/cel/library/cost_test.go ${title}`, () => {
    for (const backend of ['js', 'closures'] as const)
      for (const [expr, want] of cases)
        it(`${backend}: ${expr} costs ${want}`, () => expect(runtimeCost(expr, backend)).toBe(want))
  })
}

const intList = '[1, 2, 3, 4, 5]'
const uintList = '[uint(1), uint(2), uint(3), uint(4), uint(5)]'
const doubleList = '[1.0, 2.0, 3.0, 4.0, 5.0]'
const boolList = '[false, true, false, true, false]'
const stringList = "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']"
const bytesList =
  "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]"
const durationList = "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]"
const timestampList =
  "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), " +
  "timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), " +
  "timestamp('2011-01-05T00:00:00.000+01:00')]"
const stringLiteral = "'01234567890123456789012345678901234567890123456789'"

table('TestListsCost', [
  ...[
    [intList, 15],
    [uintList, 20],
    [doubleList, 15],
    [durationList, 20],
  ].map(([l, c]) => [`${l}.sum()`, c as number] as const),
  ...['.isSorted()', '.max()', '.min()'].flatMap((op) =>
    (
      [
        [intList, 15],
        [uintList, 20],
        [doubleList, 15],
        [boolList, 15],
        [stringList, 15],
        [bytesList, 25],
        [durationList, 20],
        [timestampList, 20],
      ] as const
    ).map(([l, c]) => [`${l}${op}`, c] as const),
  ),
])

/** TestIndexOfCost and TestIncludesCost share their lists, parameters and figures (but the string). */
const searched: readonly (readonly [string, string, number])[] = [
  [intList, '3', 15],
  [uintList, 'uint(3)', 21],
  [doubleList, '3.0', 15],
  [boolList, 'true', 15],
  [stringList, "'x'", 15],
  [bytesList, "bytes('x')", 26],
  [durationList, "duration('3s')", 21],
  [timestampList, "timestamp('2011-01-03T00:00:00.000+01:00')", 21],
  [stringLiteral, "'123'", 5],
]

table(
  'TestIndexOfCost',
  ['indexOf', 'lastIndexOf'].flatMap((f) => searched.map(([l, p, c]) => [`${l}.${f}(${p})`, c] as const)),
)

table(
  'TestIncludesCost',
  searched.map(([l, p, c]) => [`${l}.includes(${p})`, c] as const),
)

table('TestURLsCost', [
  ...['.getScheme()', '.getHostname()', '.getHost()', '.getPort()', '.getEscapedPath()', '.getQuery()'].map(
    (op) => [`url('https:://kubernetes.io/')${op}`, 4] as const,
  ),
  ["url('https:://kubernetes.io/') == url('https:://kubernetes.io/')", 7],
  ["url('https:://kubernetes.io/') == url('http://x.b')", 5],
])

{
  const ipv4 = "ip('192.168.0.1')"
  const ipv6 = "ip('2001:db8:3333:4444:5555:6666:7777:8888')"
  const cases: Case[] = []
  for (const [ip, base] of [
    [ipv4, 2],
    [ipv6, 4],
  ] as const) {
    cases.push([ip, base])
    for (const op of [
      '.family()',
      '.isUnspecified()',
      '.isLoopback()',
      '.isLinkLocalMulticast()',
      '.isLinkLocalUnicast()',
      '.isGlobalUnicast()',
    ])
      cases.push([`${ip}${op}`, base + 1])
    cases.push([`${ip} == ip('192.168.0.1')`, base + 2 + 1])
  }
  table('TestIPCost', cases)
}

table('TestIPIsCanonicalCost', [
  ["ip.isCanonical('192.168.0.1')", 3],
  ["ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')", 8],
  ["ip.isCanonical('2001:db8::abcd')", 3],
])

{
  const ipv4 = "cidr('192.168.0.0/16')"
  const ipv6 = "cidr('2001:db8::/32')"
  const common = (cidr: string, base: number): Case[] => [
    [cidr, base],
    ...['.ip()', '.prefixLength()', '.masked()'].map((op) => [`${cidr}${op}`, base + 1] as const),
    [`${cidr} == cidr('2001:db8::/32')`, base + 2 + 1],
  ]
  const v4: [string, number][] = [
    [".containsCIDR(cidr('192.0.0.0/30'))", 5],
    [".containsCIDR(cidr('192.168.0.0/16'))", 5],
    [".containsCIDR('192.0.0.0/30')", 5],
    [".containsCIDR('192.168.0.0/16')", 5],
    [".containsIP(ip('192.0.0.1'))", 2],
    [".containsIP(ip('192.169.0.1'))", 3],
    [".containsIP(ip('192.169.169.250'))", 3],
    [".containsIP('192.0.0.1')", 2],
    [".containsIP('192.169.0.1')", 3],
  ]
  const v6: [string, number][] = [
    [".containsCIDR(cidr('2001:db8::/126'))", 5],
    [".containsCIDR(cidr('2001:db8::/32'))", 5],
    [".containsCIDR('2001:db8::/126')", 5],
    [".containsCIDR('2001:db8::/32')", 5],
    [".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))", 5],
    [".containsIP(ip('2001:db8::1'))", 3],
    [".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')", 5],
    [".containsIP('2001:db8::1')", 3],
  ]
  table('TestCIDRCost', [
    ...common(ipv4, 2),
    ...v4.map(([op, extra]) => [`${ipv4}${op}`, 2 + extra] as const),
    ...common(ipv6, 2),
    ...v6.map(([op, extra]) => [`${ipv6}${op}`, 2 + extra] as const),
  ])
}

table('TestStringLibrary', [
  ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3],
  ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 9],
  ["'ABCDEFGHIJ abcdefghij'.upperAscii()", 3],
  ["'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", 9],
  ["strings.quote('ABCDEFGHIJ abcdefghij')", 3],
  ["strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')", 9],
  ["'abc 123 def 123'.replace('123', '456')", 3],
  ["'abc 123 def 123'.replace('', 'x')", 3],
  ["'abc 123 def 123'.replace('123', '')", 3],
  ["'abc 123 def 123'.replace('123', '456', 1)", 3],
  ["'abc 123 def 123'.split(' ')", 3],
  ["'abc 123 def 123'.split(' ', 1)", 3],
  ["'abc 123 def 123'.substring(5)", 2],
  ["'abc 123 def 123'.substring(5, 8)", 2],
  ["'  abc 123 def 123  '.trim()", 2],
  ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", 15],
  ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", 13],
  ["'abc 123 def 123'.find('123')", 2],
  ["'abc 123 def 123'.findAll('123')", 2],
  ["'abc 123 def 123'.findAll('123', 1)", 2],
  ["jsonpatch.escapeKey('abc/def~ abc/def~')", 2],
])

{
  const resource =
    "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')"
  const selector = "'spec.nodeName=example-node-name.fully.qualified.domain.name.example.com'"
  table('TestAuthzLibrary', [
    ["authorizer.path('/healthz')", 2],
    [resource, 6],
    [`authorizer.group('').resource('pods').fieldSelector(${selector})`, 1821],
    [`authorizer.group('').resource('pods').labelSelector(${selector})`, 1821],
    ["authorizer.path('/healthz').check('get').allowed()", 350003],
    [`${resource}.check('create').allowed()`, 350007],
    [`${resource}.check('create').errored()`, 350007],
    [`${resource}.check('create').error()`, 350007],
  ])
}

table('TestQuantityCost', [
  ['quantity("12Mi")', 1],
  ['isQuantity("20")', 1],
  ['isQuantity("20M")', 1],
  ['quantity("200M") == quantity("200M")', 3],
  ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', 6],
  [
    'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
    9,
  ],
  ['quantity("50M").isLessThan(quantity("50Mi"))', 3],
  ['quantity("50Mi").isGreaterThan(quantity("50M"))', 3],
  ['quantity("200M").compareTo(quantity("0.2G")) > 0', 4],
  ['quantity("50k").add(quantity("20")) == quantity("50.02k")', 5],
  ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', 5],
  ['quantity("50k").sub(20) == quantity("49980")', 4],
  ['quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0', 6],
  ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0', 7],
  ['quantity("50k").asInteger() > 0', 3],
  ['quantity("50").isInteger()', 2],
  ['quantity("50.703k").asApproximateFloat() > 0.0', 3],
])

table('TestNameFormatCost', [
  ['format.named("dns1123subdomain")', 1],
  ['format.named("dns1123Subdomain").value().validate("my-name")', 17],
  ['format.named("dns1123Label").value().validate("my-name")', 10],
  ['format.named("dns1123Label").value() == format.named("dns1123Label").value()', 5],
])

table('TestSetsCost', [
  ['sets.contains([], [])', 21],
  ['sets.contains([1], [])', 21],
  ['sets.contains([1], [1])', 22],
  ['sets.contains([1], [1, 1])', 23],
  ['sets.contains([1, 1], [1])', 23],
  ['sets.contains([2, 1], [1])', 23],
  ['sets.contains([1, 2, 3, 4], [2, 3])', 29],
  ['sets.contains([1], [1.0, 1])', 23],
  ['sets.contains([1, 2], [2u, 2.0])', 25],
  ['sets.contains([1, 2u], [2, 2.0])', 25],
  ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])', 30],
  ['sets.contains([[1], [2, 3]], [[2, 3.0]])', 53],
  ['!sets.contains([1], [2])', 23],
  ['!sets.contains([1], [1, 2])', 24],
  ['!sets.contains([1], ["1", 1])', 24],
  ['!sets.contains([1], [1.1, 1u])', 24],
  ['sets.equivalent([], [])', 21],
  ['sets.equivalent([1], [1])', 23],
  ['sets.equivalent([1], [1, 1])', 25],
  ['sets.equivalent([1, 1], [1])', 25],
  ['sets.equivalent([1], [1u, 1.0])', 25],
  ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', 39],
  ['sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])', 69],
  ['!sets.equivalent([2, 1], [1])', 26],
  ['!sets.equivalent([1], [1, 2])', 26],
  ['!sets.equivalent([1, 2], [2u, 2, 2.0])', 34],
  ['!sets.equivalent([1, 2], [1u, 2, 2.3])', 34],
  ['sets.intersects([1], [1])', 22],
  ['sets.intersects([1], [1, 1])', 23],
  ['sets.intersects([1, 1], [1])', 23],
  ['sets.intersects([2, 1], [1])', 23],
  ['sets.intersects([1], [1, 2])', 23],
  ['sets.intersects([1], [1.0, 2])', 23],
  ['sets.intersects([1, 2], [2u, 2, 2.0])', 27],
  ['sets.intersects([1, 2], [1u, 2, 2.3])', 27],
  ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', 65],
  ['!sets.intersects([], [])', 22],
  ['!sets.intersects([1], [])', 22],
  ['!sets.intersects([1], [2])', 23],
  ['!sets.intersects([1], ["1", 2])', 24],
  ['!sets.intersects([1], [1.1, 2u])', 24],
])

table('TestSemverCost', [
  ['semver("1.0.0")', 1],
  ['semver("1234.56789012345.67890123456789")', 4],
  ['isSemver("1.0.0")', 1],
  ['isSemver("1234.56789012345.67890123456789")', 4],
  ['semver("1.2.3").major()', 2],
  ['semver("1.2.3").minor()', 2],
  ['semver("1.2.3").patch()', 2],
  ['semver("1.0.0").isLessThan(semver("1.1.0"))', 3],
  ['semver("1.1.0").isGreaterThan(semver("1.0.0"))', 3],
  ['semver("1.0.0").compareTo(semver("1.2.3"))', 3],
])

table('TestTwoVariableComprehensionCost', [
  ["{'a': 1, 'b': 2}.all(k, v, v > 0)", 41],
  ["{'a': 1, 'b': 2}.exists(k, v, v > 0)", 40],
  ["{'a': 1, 'b': 2}.existsOne(k, v, v > 0)", 40],
  ["{'a': 1, 'b': 2}.transformMap(k, v, v + 1)", 71],
  ["{'a': 1, 'b': 2}.transformMap(k, v, v < 5, v + 1)", 75],
  ["{'a': 1, 'b': 2}.transformMapEntry(k, v, {k: v + 1})", 131],
  ["{'a': 1, 'b': 2}.transformMapEntry(k, v, v < 5, {k: v + 1})", 135],
  ['[1, 2].all(i, v, v > 0)', 21],
  ['[1, 2].exists(i, v, v > 0)', 20],
  ['[1, 2].existsOne(i, v, v > 0)', 20],
  ['[1, 2].transformList(i, v, v + 1)', 49],
  ['[1, 2].transformList(i, v, v < 5, v + 1)', 53],
])

// ---------------------------------------------------------------------------------------------
// cel-go v0.26.0 ext/formatting_test.go TestStringFormat (expectedRuntimeCost): `string.format` costs
// a traversal of the format string (interpreter/runtimecost.go: overloads.ExtFormatString), and the
// argument list its creation (10). The test builds `%q.format([%s])` and runs without OptOptimize.

describe('cel-go v0.26.0 ext/formatting_test.go TestStringFormat (run-time)', () => {
  const cases: [format: string, args: string, cost: number][] = [
    ['no substitution', '', 12],
    ['str is %s and some more', '"filler"', 13],
    ['%% and also %%', '', 12],
    ['%%%s%%', '"text"', 11],
    ['%d %d %d, %s %s %s, %d %d %d, %s %s %s', '1, 2, 3, "A", "B", "C", 4, 5, 6, "D", "E", "F"', 14],
    ['%%escaped %s%%', '"percent"', 12],
    ['%.3f', '1.2345', 11],
    ['this is 5 in binary: %b', '5', 13],
    ['unsigned 64 in binary: %b', 'uint(64)', 14],
    ['this is an unsigned octal: %o', 'uint(65535)', 14],
    ['%X is 6000 in hexadecimal', 'uint(6000)', 14],
    ['%x', 'b"byte string"', 11],
    ['%s', '[2.71]', 21],
    ['unescaped unicode: %e, escaped unicode: %e', '2.71828, 2.71828', 15],
    ['%d', 'uint(64)', 12],
    ['null: %s', 'null', 11],
    ['type is %s', 'type("test string")', 12],
    ['%s', 'timestamp("2023-02-03T23:31:20+00:00")', 12],
    ['%s', 'duration("1h45m47s")', 12],
    ['%s', '["abc", 3.14, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]', 32],
    ['%s', '{"key1": b"xyz", "key5": null, "key2": duration("2h"), "key4": true, "key3": 2.71828}', 42],
    ['true bool: %s, false bool: %s', 'true, false', 13],
  ]
  for (const backend of ['js', 'closures'] as const)
    for (const [format, args, want] of cases) {
      const expr = `${JSON.stringify(format)}.format([${args}])`
      it(`${backend}: ${expr} costs ${want}`, () => expect(runtimeCost(expr, backend)).toBe(want))
    }
})

describe('apiserver pkg/cel/library/cost.go CallCost: `_==_` of Kubernetes library values costs 1', () => {
  // cost.go returns 1 for `_==_` when the left operand is a Quantity, IP, CIDR, Format, URL, Semver or
  // authorizer value. IP and CIDR are traits.Sizer (their byte length), so cel-go's own figure for two
  // IPv6 addresses would be ceil(16 × 0.1) = 2. Each ip('2001:db8::1') parse costs ceil(11 × 0.1) = 2
  // (cost.go `ip`), and cidr('2001:db8::/128') ceil(14 × 0.1) = 2.
  const cases: Case[] = [
    ["ip('2001:db8::1') == ip('2001:db8::1')", 5],
    ["cidr('2001:db8::/128') == cidr('2001:db8::/128')", 5],
    ["semver('1.0.0') == semver('1.0.0')", 3],
  ]
  for (const backend of ['js', 'closures'] as const)
    for (const [expr, want] of cases)
      it(`${backend}: ${expr} costs ${want}`, () => expect(runtimeCost(expr, backend)).toBe(want))
})
