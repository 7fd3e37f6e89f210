import type { SimpleTest } from '@bufbuild/cel-spec/cel/expr/conformance/test/simple_pb.js'
import { getConformanceSuite } from '@bufbuild/cel-spec/testdata/tests.js'

// The cel-spec simple tests shipped by @bufbuild/cel-spec (cel-spec v0.25.1): suite
// `conformance` → one sub-suite per tests/simple/testdata/*.textproto file → sections → tests.

export interface ConformanceCase {
  /** The textproto file name without extension (`basic`, `string_ext`, ...). */
  readonly file: string
  readonly section: string
  readonly name: string
  /** `file/section/name`, the key of known-failures.ts (cel-go's conformance test names have this shape). */
  readonly id: string
  readonly test: SimpleTest
}

/** The files whose tests matter to Kubernetes (cel-libraries-evaluation.md §6). */
export const KUBERNETES_FILES: readonly string[] = [
  'basic',
  'comparisons',
  'conversions',
  'fields',
  'fp_math',
  'integer_math',
  'lists',
  'logic',
  'macros',
  'macros2',
  'optionals',
  'parse',
  'plumbing',
  'string',
  'string_ext',
  'timestamps',
  'type_deductions',
]

let cases: readonly ConformanceCase[] | undefined

/** Every test of every file, in file order. */
export function loadCases(): readonly ConformanceCase[] {
  if (cases) return cases
  const out: ConformanceCase[] = []
  for (const file of getConformanceSuite().suites) {
    for (const section of file.suites) {
      for (const t of section.tests) {
        out.push({
          file: file.name,
          section: section.name,
          name: t.name,
          id: `${file.name}/${section.name}/${t.name}`,
          test: t.original,
        })
      }
    }
  }
  cases = out
  return out
}
