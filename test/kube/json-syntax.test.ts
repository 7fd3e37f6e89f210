import { describe, expect, it } from 'vitest'
import { jsonUnmarshalObjectError } from '../../src/builtin/validation/common.js'
import { decodeStream } from '../../src/kube/yaml/decode.js'

// encoding/json's syntax errors as Kubernetes reports them (src/kube/json-syntax.ts, after scanner.go). The stream's
// expected texts are kubectl's reading of the same text (.cache/e2e/kubectl-yaml, test/e2e/yaml's oracle:
// apimachinery's YAMLOrJSONDecoder at Kubernetes 1.37.2's versions, Go 1.26); json.Unmarshal's are Go 1.26's
// `json.Unmarshal([]byte(s), &map[string]interface{}{})`.

/** The first error reading `text` as kubectl reads a file. */
const streamError = (text: string) => {
  for (const d of decodeStream(Buffer.from(text, 'utf8'))) if (d.error !== undefined) return d.error.message
  return undefined
}

describe('the JSON errors of a stream kubectl reads', () => {
  it.each([
    // the first value: YAMLOrJSONDecoder's JSONSyntaxError, `json: offset N:` (bytes through the refused one)
    ['{"a": "\\u12G4"}', "json: offset 12: invalid character 'G' in \\u hexadecimal character escape"],
    ['{"a": "x\u0001"}', "json: offset 9: invalid character '\\x01' in string literal"],
    // a wider character: its first byte, quoted as Go quotes that byte's rune; offsets count bytes
    ['{"é": 1, é]', "json: offset 11: invalid character 'Ã' looking for beginning of object key string"],
    ['{"a": [[[', 'unexpected EOF'],
    ['{"a": "x\\', 'unexpected EOF'],
    ['{"a": 1}\n{"b": 2\n', 'unexpected EOF'],
    // past two values: the Decoder's own error, unwrapped
    ['  {"a": 1} {"b": 2} {"c": ]}', "invalid character ']' looking for beginning of value"],
    ['{"a": 1}{"b": 2}{é}', "invalid character 'Ã' looking for beginning of object key string"],
    ['{"a": 1}{"b": 2}{\u00a0}', "invalid character 'Â' looking for beginning of object key string"],
    ['{"a": 1}{"b": 2}[1 2]', "invalid character '2' after array element"],
    ['{"a": 1}{"b": 2}[-x]', "invalid character 'x' in numeric literal"],
    ['{"a": 1}{"b": 2}[1.]', "invalid character ']' after decimal point in numeric literal"],
    ['{"a": 1}{"b": 2}[1e+]', "invalid character ']' in exponent of numeric literal"],
    ['{"a": 1}{"b": 2}[tru]', "invalid character ']' in literal true (expecting 'e')"],
    ['{"a": 1}{"b": 2}[fals]', "invalid character ']' in literal false (expecting 'e')"],
    ['{"a": 1}{"b": 2}[nul]', "invalid character ']' in literal null (expecting 'l')"],
    ['{"a": 1}{"b": 2}["\\\\"]]', "invalid character ']' looking for beginning of value"],
    ['{"a": 1}{"b": 2}{"c" 1}', "invalid character '1' after object key"],
    ['{"a": 1}{"b": 2}123 {', 'unexpected EOF'],
    // one level past encoding/json's maxNestingDepth
    [`{"a": ${'['.repeat(10001)}`, "json: offset 10006: invalid character '[' exceeded max depth"],
  ])('%j: %s', (text, message) => {
    expect(streamError(text)).toBe(message)
  })

  // where the JSON decoder refuses a `{` text, kubectl reads it as YAML if go-yaml takes it
  it.each([
    ['{"a": [1 2]}', { a: ['1 2'] }],
    ['{"a": tru}', { a: 'tru' }],
    ['{"a": 01}', { a: 1 }],
  ])('%j is read as YAML', (text, value) => {
    const docs = [...decodeStream(Buffer.from(text, 'utf8'))]
    expect(docs.map((d) => d.error?.message ?? d.value)).toEqual([value])
  })
})

describe('json.Unmarshal into a map', () => {
  it.each([
    ['{"a": 1} x', "invalid character 'x' after top-level value"],
    ['{"a": 1}}', "invalid character '}' after top-level value"],
    ['{"a": [1,', 'unexpected end of JSON input'],
    // checkValid's eof() steps a space: a literal cut short is refused at it
    ['tru', "invalid character ' ' in literal true (expecting 'e')"],
    [' {"a": é}', "invalid character 'Ã' looking for beginning of value"],
    ['[1]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['"x"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['12 ', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['null', undefined],
    [' {"a": {"b": [true, false, null, -1.5e+3, "\\u00e9\\n"]}} ', undefined],
  ])('%j: %s', (text, message) => {
    expect(jsonUnmarshalObjectError(text)).toBe(message)
  })
})
