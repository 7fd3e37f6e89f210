import type { Type as ExprType } from '@bufbuild/cel-spec/cel/expr/checked_pb.js'
import { Type_WellKnownType } from '@bufbuild/cel-spec/cel/expr/checked_pb.js'
import type { SimpleTest } from '@bufbuild/cel-spec/cel/expr/conformance/test/simple_pb.js'
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js'
import type { ConformanceCase } from './suite.js'

// Which cel-spec tests kelp does not run, and why. Kubernetes CEL has no protobuf messages
// (objects are JSON-shaped maps), enables only some cel-go extensions, and leaves identifier
// escaping off; tests that need those are out of scope, not failures.

export const SKIP_REASONS = {
  'k8s-ext': 'extension Kubernetes does not enable (math, encoders, bindings, block)',
  'proto-file': 'protobuf-only file (proto2, proto2_ext, proto3, wrappers, enums, dynamic)',
  proto: 'needs protobuf messages, enums, wrappers, Any or Struct',
  'ident-escape': 'backtick-quoted identifier (identifier escaping is off in Kubernetes)',
  'needs-checker': 'check_only: asserts the deduced type only (needs the type checker)',
  unknowns: 'expects an unknown set (partial evaluation is not used by Kubernetes)',
  'disable-macros': 'disable_macros (Kubernetes always enables the standard macros)',
  'unsupported-input': 'input convert.ts cannot express (see the message)',
} as const
export type SkipReason = keyof typeof SKIP_REASONS

const K8S_DISABLED_EXTENSION_FILES = new Set(['math_ext', 'encoders_ext', 'bindings_ext', 'block_ext'])
const PROTO_FILES = new Set(['proto2', 'proto2_ext', 'proto3', 'wrappers', 'enums', 'dynamic'])

/** The reason a case is skipped, or undefined when it runs. */
export function skipReason(c: ConformanceCase): SkipReason | undefined {
  if (K8S_DISABLED_EXTENSION_FILES.has(c.file)) return 'k8s-ext'
  if (PROTO_FILES.has(c.file)) return 'proto-file'
  const t = c.test
  if (t.resultMatcher.case === 'unknown' || t.resultMatcher.case === 'anyUnknowns') return 'unknowns'
  if (t.disableMacros) return 'disable-macros'
  const code = blankStringLiterals(t.expr)
  if (code.includes('`')) return 'ident-escape'
  if (protobufEvidence(t, code)) return 'proto'
  if (t.checkOnly) return 'needs-checker'
  return undefined
}

// Message and enum names of cel-spec's test protos, and the google.protobuf messages other than
// Timestamp / Duration (which name CEL's own timestamp and duration types).
const PROTO_NAMES =
  /\b(?:TestAllTypes|NestedTestAllTypes|TestRequired\w*|GlobalEnum|NestedEnum|NestedMessage)\b|\bgoogle\s*\.\s*protobuf\s*\.\s*(?!(?:Timestamp|Duration)\b)[A-Z]/
const PROTO_CONTAINER = /(?:^|\.)proto[23](?:$|\.)|^google\.protobuf\b/
const TIME_URLS = new Set([
  'type.googleapis.com/google.protobuf.Timestamp',
  'type.googleapis.com/google.protobuf.Duration',
])
const KNOWN_TYPE_NAMES = new Set([
  'null_type',
  'bool',
  'int',
  'uint',
  'double',
  'string',
  'bytes',
  'list',
  'map',
  'type',
  'dyn',
  'optional_type',
  'google.protobuf.Timestamp',
  'google.protobuf.Duration',
])

/** What makes the test need protobuf support, or undefined. `code` is the expression with string literals blanked. */
export function protobufEvidence(t: SimpleTest, code = blankStringLiterals(t.expr)): string | undefined {
  if (t.container && PROTO_CONTAINER.test(t.container)) return `container ${t.container}`
  const name = PROTO_NAMES.exec(code)
  if (name) return `expression names ${name[0].trim()}`
  if (hasMessageLiteral(code)) return 'message literal'
  for (const d of t.typeEnv) {
    if (d.declKind.case === 'ident') {
      const why = typeEvidence(d.declKind.value.type)
      if (why) return `declaration ${d.name}: ${why}`
    }
  }
  for (const [name, ev] of Object.entries(t.bindings)) {
    if (ev.kind.case === 'value') {
      const why = valueEvidence(ev.kind.value)
      if (why) return `binding ${name}: ${why}`
    }
  }
  const m = t.resultMatcher
  const expected = m.case === 'value' ? m.value : m.case === 'typedResult' ? m.value.result : undefined
  if (expected) {
    const why = valueEvidence(expected)
    if (why) return `expected value: ${why}`
  }
  if (m.case === 'typedResult') {
    const why = typeEvidence(m.value.deducedType)
    if (why) return `deduced type: ${why}`
  }
  return undefined
}

// `Name{` / `a.b.Name {`: message construction is the only place CEL puts `{` right after an
// identifier (other than the `in` operator).
const IDENT_BRACE = /([A-Za-z_]\w*)\s*\{/g

function hasMessageLiteral(code: string): boolean {
  IDENT_BRACE.lastIndex = 0
  for (let m = IDENT_BRACE.exec(code); m; m = IDENT_BRACE.exec(code)) if (m[1] !== 'in') return true
  return false
}

function typeEvidence(t: ExprType | undefined): string | undefined {
  const k = t?.typeKind
  switch (k?.case) {
    case 'messageType':
      return k.value === 'google.protobuf.Timestamp' || k.value === 'google.protobuf.Duration'
        ? undefined
        : `message type ${k.value}`
    case 'wrapper':
      return 'wrapper type'
    case 'wellKnown':
      return k.value === Type_WellKnownType.ANY ? 'google.protobuf.Any' : undefined
    case 'listType':
      return typeEvidence(k.value.elemType)
    case 'mapType':
      return typeEvidence(k.value.keyType) ?? typeEvidence(k.value.valueType)
    case 'type':
      return typeEvidence(k.value)
    case 'abstractType':
      for (const p of k.value.parameterTypes) {
        const why = typeEvidence(p)
        if (why) return why
      }
      return undefined
  }
  return undefined
}

function valueEvidence(v: Value | undefined): string | undefined {
  const k = v?.kind
  switch (k?.case) {
    case 'objectValue':
      return TIME_URLS.has(k.value.typeUrl) ? undefined : `message ${k.value.typeUrl.replace(/^.*\//, '')}`
    case 'enumValue':
      return `enum ${k.value.type}`
    case 'typeValue':
      return KNOWN_TYPE_NAMES.has(k.value) ? undefined : `type value ${k.value}`
    case 'listValue':
      for (const e of k.value.values) {
        const why = valueEvidence(e)
        if (why) return why
      }
      return undefined
    case 'mapValue':
      for (const e of k.value.entries) {
        const why = valueEvidence(e.key) ?? valueEvidence(e.value)
        if (why) return why
      }
      return undefined
  }
  return undefined
}

/**
 * The expression with the contents of string and bytes literals replaced by spaces, so that
 * searching it for syntax (backticks, message names, `{`) cannot hit quoted text.
 * Handles CEL's quote forms: '…', "…", '''…''', """…""", with r / b prefixes (raw: no escapes).
 */
export function blankStringLiterals(expr: string): string {
  let out = ''
  let i = 0
  while (i < expr.length) {
    const ch = expr[i]!
    if (ch !== '"' && ch !== "'") {
      out += ch
      i++
      continue
    }
    const raw = /(?:^|[^\w])[bB]?[rR]$|(?:^|[^\w])[rR][bB]$/.test(expr.slice(Math.max(0, i - 3), i))
    const quote = expr.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch
    let j = i + quote.length
    while (j < expr.length && !expr.startsWith(quote, j)) j += !raw && expr[j] === '\\' ? 2 : 1
    const end = Math.min(expr.length, j + quote.length)
    out += quote + ' '.repeat(Math.max(0, Math.min(j, expr.length) - i - quote.length)) + expr.slice(j, end)
    i = end
  }
  return out
}
