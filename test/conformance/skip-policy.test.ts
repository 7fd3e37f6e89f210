import { describe, expect, it } from 'vitest'
import { blankStringLiterals, protobufEvidence, skipReason } from './skip-policy.js'
import { type ConformanceCase, KUBERNETES_FILES, loadCases } from './suite.js'

// Expected reasons come from the test data itself (cel-spec tests/simple/testdata/*.textproto)
// and from the earlier evaluation's counts (../shared/spec/cel-libraries-evaluation.md §6).

const cases = loadCases()
function byId(id: string): ConformanceCase {
  const c = cases.find((x) => x.id === id)
  if (!c) throw new Error(`no conformance test ${id}`)
  return c
}

describe('skipReason', () => {
  it('skips extensions Kubernetes does not enable and protobuf-only files', () => {
    expect(skipReason(byId('bindings_ext/bind/boolean_literal'))).toBe('k8s-ext')
    expect(skipReason(byId('encoders_ext/encode/hello'))).toBe('k8s-ext')
    const files = (name: string) => cases.filter((c) => c.file === name)
    for (const f of ['proto2', 'proto3', 'wrappers', 'enums', 'dynamic', 'proto2_ext'])
      for (const c of files(f)) expect(skipReason(c)).toBe('proto-file')
  })

  it('detects every test of the protobuf files by its own content too', () => {
    const protoFiles = new Set(['proto2', 'proto3', 'wrappers', 'enums', 'dynamic', 'proto2_ext'])
    const missed = cases.filter((c) => protoFiles.has(c.file) && !protobufEvidence(c.test)).map((c) => c.id)
    expect(missed).toEqual([])
  })

  it('skips tests that use messages, wrappers or proto containers', () => {
    expect(skipReason(byId('comparisons/eq_wrapper/eq_bool'))).toBe('proto')
    expect(skipReason(byId('comparisons/eq_literal/eq_dyn_json_null'))).toBe('proto')
    expect(skipReason(byId('parse/whitespace/spaces'))).toBe('proto')
    expect(skipReason(byId('string_ext/format_errors/object not allowed'))).toBe('proto')
    expect(skipReason(byId('optionals/optionals/struct_optindex_value'))).toBe('proto')
  })

  it('runs tests that only name the timestamp and duration types', () => {
    expect(skipReason(byId('timestamps/timestamp_conversions/type_comparison'))).toBeUndefined()
    expect(skipReason(byId('timestamps/duration_converters/get_milliseconds'))).toBeUndefined()
    expect(skipReason(byId('namespace/namespace/self_eval_container_lookup'))).toBeUndefined()
  })

  it('skips backtick identifiers but not backticks inside string literals', () => {
    expect(skipReason(byId('fields/quoted_map_fields/field_access_dash'))).toBe('ident-escape')
    expect(skipReason(byId('parse/string_literals/single_quoted_escaped_punctuation'))).toBeUndefined()
    expect(skipReason(byId('parse/bytes_literals/raw_triple_double_quoted_escapes'))).toBeUndefined()
    expect(cases.filter((c) => skipReason(c) === 'ident-escape').length).toBe(6)
  })

  it('counts check_only tests as needing the checker', () => {
    expect(skipReason(byId('type_deductions/functions/function_result_type'))).toBe('needs-checker')
    expect(skipReason(byId('type_deductions/wrappers/wrapper_promotion'))).toBe('proto')
    expect(skipReason(byId('type_deductions/constant_literals/int'))).toBeUndefined()
  })

  it('leaves 1,395 runnable tests in the Kubernetes files', () => {
    // §6 counts 1,398: it ran the 6 backtick tests and skipped 3 timestamps tests (type names
    // `google.protobuf.Timestamp` / `Duration` and a Duration binding) that need no protobuf.
    const runnable = cases.filter((c) => KUBERNETES_FILES.includes(c.file) && !skipReason(c))
    expect(runnable.length).toBe(1398 - 6 + 3)
    expect(cases.length).toBe(2344)
  })
})

describe('blankStringLiterals', () => {
  it('blanks quoted text of every CEL literal form', () => {
    expect(blankStringLiterals(`'a{b' + x`)).toBe(`'   ' + x`)
    expect(blankStringLiterals(`"\\"{" + y`)).toBe(`"   " + y`)
    expect(blankStringLiterals(`'''x'y''' + z`)).toBe(`'''   ''' + z`)
    expect(blankStringLiterals(`r'\\' + w`)).toBe(`r' ' + w`)
    expect(blankStringLiterals(`b"\`"`)).toBe(`b" "`)
    expect(blankStringLiterals('m.`a-b`')).toBe('m.`a-b`')
  })

  it('does not take the `in` operator before a map literal for a message literal', () => {
    expect(protobufEvidence({ ...byId('basic/functions/binop').test, expr: `'a' in {'a': 1}` })).toBeUndefined()
    expect(protobufEvidence({ ...byId('basic/functions/binop').test, expr: `x.Msg{f: 1}` })).toBe('message literal')
  })
})
