import { describe, expect, it } from 'vitest'
import { goYAMLProblem, goYAMLSyntaxError } from '../../src/kube/yaml/goyaml/index.js'

// go-yaml v2.4.4's reading of a document up to its first error (src/kube/yaml/goyaml/, after scannerc.go,
// parserc.go, readerc.go and decode.go). Every expected value is kubectl's: the oracle .cache/e2e/kubectl-yaml
// (test/e2e/yaml/main.go: apimachinery's YAMLOrJSONDecoder over sigs.k8s.io/yaml over go-yaml v2.4.4) read the
// same text and printed `error converting YAML to JSON: yaml: line N: message` (line 0: `yaml: message`), or
// nothing. Each text is one document as apimachinery's YAMLReader hands it on (every line ending in LF, no
// `---` line, not starting with `{`), so the oracle's go-yaml read exactly it.

/** A text, and go-yaml's line and words for it (none: it reads the first document). */
type Row = [text: string, line: number, message: string] | [text: string, none: undefined]

const expected = (row: Row) => (row[1] === undefined ? undefined : { line: row[1], message: row[2] })

const TABLE: Row[] = [
  // accepted
  ['a: 1\n', undefined],
  ['a: 1\nb:\n  - c\n  - d: e\n    f: g\n', undefined],
  ["- a\n- [b, {c: d}]\n- 'e''f'\n- \"g\\x41\\u00e9\\U0001F600\"\n", undefined],
  ['a: |\n  x\n   y\n\n  z\nb: >-\n  folded\n  text\n', undefined],
  ['a: &x 1\nb: *x\nc: &y [*x, 2]\n', undefined],
  ['# comment only\n', undefined],
  ['\n', undefined],
  ['', undefined],
  ['a: !!str 1\nb: !custom x\nc: !<tag:x> y\nd: ! z\ne: !%C3%A9 x\n', undefined],
  ['a: 1\na: 2\n', undefined],
  ['a: b\r c\n', undefined],
  ['a:\tb\n', undefined],
  ['[a,\tb]\n', undefined],
  ['k: a\n \tb\n', undefined],
  ['- !!str\n- &a\n', undefined],
  ['key: \'multi\n  line\'\nk2: "x\\\n  y"\n', undefined],
  ['[? a : x]\n', undefined],
  ['[a: b, c]\n', undefined],
  ['x: {? a, b: c}\n', undefined],
  ['x: [a b]\n', undefined],
  ['x: {a b: c d}\n', undefined],
  ['a\r- b\n', undefined],
  ['|-9\n x\n', undefined],
  // yaml.Unmarshal reads the first document only: nothing after its end (`...`) is parsed
  ['a: b\n...\nc: [\n', undefined],
  ['a\n...\n@\n', undefined],
  // the reader refuses a control character when it decodes the 512-byte chunk holding it: before a scanner error
  // earlier in the text if that is in the same chunk (the 1st chunk ends at byte 512), after it if not
  ['\u0001\n', 0, 'control characters are not allowed'],
  ['a: 1\n\u007f\n', 0, 'control characters are not allowed'],
  ['a: \ufffe\n', 0, 'control characters are not allowed'],
  ['a: b: c\n#\u0001\n', 0, 'control characters are not allowed'],
  ["a: 'x\u0085\u009f'\n", 0, 'control characters are not allowed'],
  ['a: b: c\n' + '#'.repeat(600) + '\x01\n', 0, 'mapping values are not allowed in this context'],
  ['a: b\n#' + 'x'.repeat(503) + '\x01\n', 0, 'control characters are not allowed'],
  ['a: b: c\n#' + 'x'.repeat(500) + '\x01\n', 0, 'control characters are not allowed'],
  ['a: b: c\n#' + 'x'.repeat(510) + '\x01\n', 0, 'mapping values are not allowed in this context'],
  ['a: b: c\n#' + 'é'.repeat(251) + '\x01\n', 0, 'control characters are not allowed'],
  // scanner
  ['@x\n', 0, 'found character that cannot start any token'],
  ['`x\n', 0, 'found character that cannot start any token'],
  ['a: %x\n', 0, 'found character that cannot start any token'],
  ['a:\n\tb: 1\n', 2, 'found character that cannot start any token'],
  ['a: |\n  x\n\tb\n', 3, 'found a tab character where an indentation space is expected'],
  ['a: 1\nb\nc: 2\n', 3, "could not find expected ':'"],
  ['a: b\n c: d\n', 2, 'mapping values are not allowed in this context'],
  ['- a\n  b: c\n  d\n', 2, 'mapping values are not allowed in this context'],
  ['a: - b\n', 0, 'block sequence entries are not allowed in this context'],
  ['a: ? b\n', 0, 'mapping keys are not allowed in this context'],
  ['a: b: c\n', 0, 'mapping values are not allowed in this context'],
  ['x: 1\na: b: c\n', 2, 'mapping values are not allowed in this context'],
  ['x: 1\n  y: 2\n', 2, 'mapping values are not allowed in this context'],
  ['%FOO\n', 0, 'found unknown directive name'],
  ['%YAML 1.1 x\n', 0, 'did not find expected comment or line break'],
  ['a: | x\n', 0, 'did not find expected comment or line break'],
  ['% \n', 0, 'could not find expected directive name'],
  ['%YAML: 1\n', 0, 'found unexpected non-alphabetical character'],
  ['%YAML 1\n', 0, "did not find expected digit or '.' character"],
  ['%YAML 123.1\n', 0, 'found extremely long version number'],
  ['%YAML x\n', 0, 'did not find expected version number'],
  ['%TAG !a!x\n', 0, 'did not find expected whitespace'],
  ['%TAG !a! x{\n', 0, 'did not find expected whitespace or line break'],
  ['a: !a{ b\n', 0, 'did not find expected whitespace or line break'],
  ['&\n', 0, 'did not find expected alphabetic or numeric character'],
  ['*\n', 0, 'did not find expected alphabetic or numeric character'],
  ['a: &x{\n', 0, 'did not find expected alphabetic or numeric character'],
  ['a: *x{\n', 0, 'did not find expected alphabetic or numeric character'],
  ['a: !<x b\n', 0, "did not find the expected '>'"],
  ['%TAG x y\n', 0, "did not find expected '!'"],
  ['%TAG !ab y\n', 0, "did not find expected '!'"],
  ['a: !<> x\n', 0, 'did not find expected tag URI'],
  ['a: !%zz x\n', 0, 'did not find URI escaped octet'],
  ['a: !%80 x\n', 0, 'found an incorrect leading UTF-8 octet'],
  ['a: !%C3%41 x\n', 0, 'found an incorrect trailing UTF-8 octet'],
  ['a: |0\n', 0, 'found an indentation indicator equal to 0'],
  ['a: |-0\n', 0, 'found an indentation indicator equal to 0'],
  ["a: 'x\n...\n'\n", 2, 'found unexpected document indicator'],
  ['a: "x\n... y\n"\n', 2, 'found unexpected document indicator'],
  ['x: "abc\n', 2, 'found unexpected end of stream'],
  ["'a''b\n", 2, 'found unexpected end of stream'],
  ['a: "\\q"\n', 0, 'found unknown escape character'],
  ['a: "\\x4"\n', 0, 'did not find expected hexdecimal number'],
  ['a: "\\uD800"\n', 0, 'found invalid Unicode character escape code'],
  ['a: "\\U00110000"\n', 0, 'found invalid Unicode character escape code'],
  ['- a\n\tb\n', 2, 'found a tab character that violates indentation'],
  ['a:\n  b\n\tc\n', 3, 'found a tab character that violates indentation'],
  ['a:\n  - b\n\t- c\n', 3, 'found a tab character that violates indentation'],
  // the parser's errors: go-yaml prints the 0-based line of the token at fault (the scanner's: 1-based), none for 0
  ['%YAML 1.1\na: 1\n', 1, 'did not find expected <document start>'],
  ['...\n', 0, 'did not find expected node content'],
  ['[a, ,]\n', 0, 'did not find expected node content'],
  ['a: [b, !x]\n', 1, "did not find expected ',' or ']'"],
  ['!foo!bar x\n', 0, 'found undefined tag handle'],
  ['- a\nb: c\n', 1, "did not find expected '-' indicator"],
  ['a:\n  - b\n  c: d\n', 2, "did not find expected '-' indicator"],
  ['x: 1\n- a\n', 1, 'did not find expected key'],
  ["a: 'x' y\n", 0, 'did not find expected key'],
  ['x: [1\n', 1, "did not find expected ',' or ']'"],
  ['x: {a: 1\n  b\n', 2, "did not find expected ',' or '}'"],
  ['%YAML 1.1\n%YAML 1.1\n', 1, 'found duplicate %YAML directive'],
  ['%YAML 1.2\n', 0, 'found incompatible YAML document'],
  ['%YAML 2.0\n', 0, 'found incompatible YAML document'],
  ['%TAG !a! x\n%TAG !a! y\n', 1, 'found duplicate %TAG directive'],
  ['%TAG !a! x\n%TAG !b! y\n', 2, 'did not find expected <document start>'],
  ['[? : x]\n', 0, "did not find expected ',' or ']'"],
  // decode.go's composer: an alias to an anchor not (yet) defined
  ['a: *foo\n', 0, "unknown anchor 'foo' referenced"],
  ['a: *x\nb: &x 1\n', 0, "unknown anchor 'x' referenced"],
  ['- &a a\n- *b\n', 0, "unknown anchor 'b' referenced"],
  // line numbers: go-yaml's line breaks are LF, CR LF, CR, NEL, LS and PS
  ['\n\na: b: c\n', 3, 'mapping values are not allowed in this context'],
  ['a:\n  b: c: d\n', 2, 'mapping values are not allowed in this context'],
  ['a:\n- b\nc\n', 4, "could not find expected ':'"],
  ['a: [\n\n1\n', 3, "did not find expected ',' or ']'"],
  ['\n\n\n@\n', 4, 'found character that cannot start any token'],
  ['a: b\na: b\na: b\nc\n', 5, "could not find expected ':'"],
  ["'x\n\n\n", 4, 'found unexpected end of stream'],
  ['a: "x\\\n', 2, 'found unexpected end of stream'],
  ['a: 1\rb: c: d\n', 2, 'mapping values are not allowed in this context'],
  ["a: 'x\ry\n", 3, 'found unexpected end of stream'],
  ['a: 1\u0085b: c: d\n', 2, 'mapping values are not allowed in this context'],
  ['a: 1\u2029@\n', 2, 'found character that cannot start any token'],
  ['a: x\u2028b: y\n', undefined],
  // simple keys: one line, at most 1024 characters to the ':'; go-yaml 2.4's index of them (`[]: x` reads as [])
  ['z'.repeat(1024) + ': v\n', undefined],
  ['z'.repeat(1025) + ': v\n', 0, 'mapping values are not allowed in this context'],
  ['- ' + 'z'.repeat(1023) + ': v\n', undefined],
  ['[' + 'z'.repeat(1024) + ': v]\n', undefined],
  ['[' + 'z'.repeat(1030) + ': v]\n', 0, "did not find expected ',' or ']'"],
  ['x: ' + 'é'.repeat(1021) + ': v\n', 0, 'mapping values are not allowed in this context'],
  ['a: 1\n' + 'é'.repeat(1025) + ': v\n', 2, "could not find expected ':'"],
  ['[]: x\n', undefined],
  ['[]\n: x\n', undefined],
  ['x: []: y\n', 0, 'mapping values are not allowed in this context'],
  ['- []: x\n', 0, "did not find expected '-' indicator"],
  ['x: [a, []]: y\n', 0, 'mapping values are not allowed in this context'],
  ['a: [] b\n', 0, 'did not find expected key'],
  // a byte order mark: go-yaml skips the character at a line's start when its buffer starts with U+FEFF (is_bom
  // looks at the buffer's start, not at the position)
  ['\ufeffa: 1\n', undefined],
  ['\ufeff\ufeffa: 1\n', undefined],
  ['a: 1\n\ufeffb: 2\n', undefined],
  ['- a\n\ufeff- b\n', 3, "could not find expected ':'"],
  ['\ufeff@\n', 0, 'found character that cannot start any token'],
  // errors of the decoding that follows a document read whole: no syntax error
  ['[a]: b\n', undefined], // kubectl: "yaml: invalid map key: []interface {}{\"a\"}"
  ['[a, b]: c\n', undefined], // kubectl: "yaml: invalid map key: []interface {}{\"a\", \"b\"}"
  ['? a\n: b\n? [c]\n', undefined], // kubectl: "yaml: invalid map key: []interface {}{\"c\"}"
  ['a: &x [*x]\n', undefined], // kubectl: "yaml: anchor 'x' value contains itself"
]

const M = 1 << 20

/** Texts built to be slow or deep: a megabyte of one thing, 10000 levels, many simple keys. */
const HOSTILE: [label: string, make: () => string, ...expected: [line: number, message: string] | [none: undefined]][] =
  [
    ["'['.repeat(10000) + '\\n'", () => '['.repeat(10000) + '\n', 1, 'did not find expected node content'],
    ["'['.repeat(10000) + ']'.repeat(10000) + '\\n'", () => '['.repeat(10000) + ']'.repeat(10000) + '\n', undefined],
    ["'['.repeat(10001) + '\\n'", () => '['.repeat(10001) + '\n', 0, 'exceeded max depth of 10000'],
    ["'\\n\\n' + '['.repeat(M) + '\\n'", () => '\n\n' + '['.repeat(M) + '\n', 3, 'exceeded max depth of 10000'],
    ["'x: ' + '{'.repeat(M) + '\\n'", () => 'x: ' + '{'.repeat(M) + '\n', 0, 'exceeded max depth of 10000'],
    ["'- '.repeat(10000) + 'x\\n'", () => '- '.repeat(10000) + 'x\n', undefined],
    ["'- '.repeat(10001) + 'x\\n'", () => '- '.repeat(10001) + 'x\n', 0, 'exceeded max depth of 10000'],
    ["'- '.repeat(M / 2) + '\\n'", () => '- '.repeat(M / 2) + '\n', 0, 'exceeded max depth of 10000'],
    [
      '2000 keys, each line indented one more',
      () => Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + '\n',
      undefined,
    ],
    ["'a: ' + 'x'.repeat(M) + '\\n'", () => 'a: ' + 'x'.repeat(M) + '\n', undefined],
    ["'a: \"' + 'x'.repeat(M) + '\\n'", () => 'a: "' + 'x'.repeat(M) + '\n', 2, 'found unexpected end of stream'],
    ["'a: b # ' + 'x'.repeat(M) + '\\n'", () => 'a: b # ' + 'x'.repeat(M) + '\n', undefined],
    ["'a: |\\n' + '  line\\n'.repeat(150000)", () => 'a: |\n' + '  line\n'.repeat(150000), undefined],
    [
      "'a: &' + 'x'.repeat(M) + ' 1\\nb: *' + 'x'.repeat(M) + '\\n'",
      () => 'a: &' + 'x'.repeat(M) + ' 1\nb: *' + 'x'.repeat(M) + '\n',
      undefined,
    ],
    ["'k: v\\n'.repeat(200000)", () => 'k: v\n'.repeat(200000), undefined],
    ["'[' + 'a: b, '.repeat(170000) + ']\\n'", () => '[' + 'a: b, '.repeat(170000) + ']\n', undefined],
    ["'[' + '[a], '.repeat(200000) + ']\\n'", () => '[' + '[a], '.repeat(200000) + ']\n', undefined],
    [
      "'a' + ' b'.repeat(M / 2) + ': c\\n'",
      () => 'a' + ' b'.repeat(M / 2) + ': c\n',
      0,
      'mapping values are not allowed in this context',
    ],
    [
      "'[' + 'x, '.repeat(350000) + ']: v\\n'",
      () => '[' + 'x, '.repeat(350000) + ']: v\n',
      0,
      'mapping values are not allowed in this context',
    ],
    [
      "'a: b\\n'.repeat(200000) + '\\x01\\n'",
      () => 'a: b\n'.repeat(200000) + '\x01\n',
      0,
      'control characters are not allowed',
    ],
    [
      "'a: b: c\\n' + 'x'.repeat(M) + '\\x01\\n'",
      () => 'a: b: c\n' + 'x'.repeat(M) + '\x01\n',
      0,
      'mapping values are not allowed in this context',
    ],
    [
      "'a: [' + 'b, '.repeat(350000) + '\\n'",
      () => 'a: [' + 'b, '.repeat(350000) + '\n',
      1,
      'did not find expected node content',
    ],
    ["'a: !' + 'x'.repeat(M) + ' 1\\n'", () => 'a: !' + 'x'.repeat(M) + ' 1\n', undefined],
    [
      "'a: *' + 'x'.repeat(20) + '\\n'",
      () => 'a: *' + 'x'.repeat(20) + '\n',
      0,
      "unknown anchor 'xxxxxxxxxxxxxxxxxxxx' referenced",
    ],
  ]

/** Generous: go-yaml's reading is linear, and these texts are at most a few megabytes. */
const BUDGET_MS = 5000

describe("go-yaml v2's syntax errors, as kubectl reports them", () => {
  it.each(TABLE.map((row) => [JSON.stringify(row[0]).slice(0, 80), row] as const))('%s', (_, row) => {
    expect(goYAMLSyntaxError(row[0])).toEqual(expected(row))
  })

  it('has a problem exactly where it has a syntax error', () => {
    for (const row of TABLE) expect(goYAMLProblem(row[0]) === undefined).toBe(expected(row) === undefined)
  })
})

describe('hostile texts: linear time, no recursion', () => {
  for (const [label, make, ...want] of HOSTILE) {
    it(label, () => {
      const text = make()
      const start = performance.now()
      const got = goYAMLSyntaxError(text)
      const ms = performance.now() - start
      expect(got).toEqual(expected([text, ...want] as Row))
      expect(ms).toBeLessThan(BUDGET_MS)
    }, 30_000)
  }
})
