// cel-spec conformance tests kelp is known to fail, keyed `file/section/test` (the id the runner
// prints), each tied to a cause: what differs, whether kelp should change, and who owns it.
// The conformance test fails on any failure not listed here (docs/conformance.md).

export interface Cause {
  /** `kelp-gap`: kelp should change. `cel-go`: kelp follows cel-go v0.26 / Kubernetes, cel-spec expects otherwise. */
  readonly kind: 'kelp-gap' | 'cel-go'
  /** The module that owns a fix (or that implements the cel-go behaviour). */
  readonly owner: string
  readonly reason: string
}

export const CAUSES = {
  'map-int-uint-keys': {
    kind: 'kelp-gap',
    owner: 'values (src/cel/values/maps.ts)',
    reason:
      'cel-go builds map literals in a Go map keyed by ref.Val, so int 0 and uint 0 are two entries (size 2) and a ' +
      'double key looks up the int entry first: `{0: 1, 0u: 2}[0.0]` is 1. kelp merges them into one entry (last ' +
      'wins: 2, size 1). cel-spec wants "Failed with repeated key"; cel-go skips this test. Unreachable in ' +
      'Kubernetes, whose homogeneous-literal validation rejects mixed key types at compile time.',
  },
  'folded-constant-qualifier': {
    kind: 'cel-go',
    owner: 'compiler (src/cel/compiler/planner.ts)',
    reason:
      'Kubernetes programs run with cel.OptOptimize (k8s.io/apiserver pkg/cel/environment/base.go): a type ' +
      'conversion of a constant, `dyn(b"")`, is folded when the program is built (interpreter/decorators.go ' +
      'maybeOptimizeConstUnary), and a constant index becomes a qualifier, which cel-go refuses for bytes ' +
      '(attributes.go NewQualifier: `invalid qualifier type: types.Bytes`) before anything runs; cel-spec ' +
      'evaluates the index lazily, so `|| true` absorbs the error. kelp plans as Kubernetes does.',
  },
  'map-repeated-key': {
    kind: 'cel-go',
    owner: 'values (src/cel/values/maps.ts)',
    reason:
      'cel-go (interpreter evalMap) lets a repeated map-literal key overwrite the earlier entry; cel-spec wants ' +
      '"Failed with repeated key". cel-go skips this test (conformance/BUILD.bazel).',
  },
  'bad-presence-test': {
    kind: 'cel-go',
    owner: 'compiler (optional field selection)',
    reason:
      'Selecting a field of a non-container inside an optional chain is optional.none() in cel-go unless ' +
      "cel.EnableErrorOnBadPresenceTest(true) is set (cel-go #938/#939). cel-go's conformance runner sets it; " +
      'Kubernetes (apiserver pkg/cel/environment/base.go) does not.',
  },
  'index-of-offset': {
    kind: 'cel-go',
    owner: 'strings ext (src/cel/ext/strings.ts)',
    reason:
      'cel-go (#1052) returns -1 for an indexOf / lastIndexOf offset past the end of the string; cel-spec wants ' +
      '"index out of range". cel-go skips these tests ("need a spec update").',
  },
  'duration-milliseconds': {
    kind: 'cel-go',
    owner: 'time (src/cel/stdlib/time.ts)',
    reason:
      'cel-go returns the whole duration in milliseconds (time.Duration.Milliseconds: 123321); cel-spec wants the ' +
      'milliseconds component (321). cel-go skips this test.',
  },
  'legacy-nullable': {
    kind: 'cel-go',
    owner: 'checker (src/cel/checker)',
    reason:
      "cel-go's checker types `[optional.of(1), null][0]` as null_type (legacy nullable assignment); cel-spec wants " +
      "optional_type(int). cel-go's conformance runner lists it as a known failure.",
  },
  'legacy-format': {
    kind: 'cel-go',
    owner: 'strings ext (src/cel/ext/format.ts)',
    reason:
      "Kubernetes enables ext.Strings(StringsVersion(2)), whose format() is cel-go's legacy formatter " +
      '(ext/formatting.go: x/text en_US printer, `%e` as width 6, lists and maps printed as CEL literals, `%d` ' +
      "ints only). cel-spec's expectations are those of formatting_v2.go, used from strings version 4 (cel-go #1133).",
  },
} as const satisfies Record<string, Cause>

export type CauseId = keyof typeof CAUSES

const LEGACY_FORMAT_TESTS = [
  'scientific notation formatting clause',
  'default precision for scientific notation',
  'NaN support for scientific notation',
  'positive infinity support for scientific notation',
  'negative infinity support for scientific notation',
  'NaN support for decimal',
  'positive infinity support for decimal',
  'negative infinity support for decimal',
  'positive infinity support for fixed-point',
  'negative infinity support for fixed-point',
  'list support for string',
  'map support for string',
  'map support (all key types)',
  'dyntype support for scientific notation',
  'dyntype NaN/infinity support',
  'dyntype support for lists',
  'dyntype support for maps',
  'scientific notation formatting clause in a string variable',
]

function allOf(cause: CauseId, ids: readonly string[]): Record<string, CauseId> {
  return Object.fromEntries(ids.map((id) => [id, cause] as const))
}

/** Test id → cause. */
export const KNOWN_FAILURES: Readonly<Record<string, CauseId>> = {
  'fields/qualified_identifier_resolution/map_value_repeat_key_heterogeneous': 'map-int-uint-keys',
  'fields/qualified_identifier_resolution/map_value_repeat_key': 'map-repeated-key',
  'fields/map_fields/map_bad_key_type_or_true': 'folded-constant-qualifier',
  'fields/map_fields/map_bad_key_type_and_false': 'folded-constant-qualifier',
  'optionals/optionals/map_null_entry_no_such_key': 'bad-presence-test',
  'optionals/optionals/map_present_key_invalid_field': 'bad-presence-test',
  'string_ext/value_errors/indexof_out_of_range': 'index-of-offset',
  'string_ext/value_errors/lastindexof_out_of_range': 'index-of-offset',
  'timestamps/duration_converters/get_milliseconds': 'duration-milliseconds',
  'type_deductions/legacy_nullable_types/null_assignable_to_abstract_parameter_candidate': 'legacy-nullable',
  ...allOf(
    'legacy-format',
    LEGACY_FORMAT_TESTS.map((n) => `string_ext/format/${n}`),
  ),
}
