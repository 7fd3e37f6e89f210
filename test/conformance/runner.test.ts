import { describe, expect, it } from 'vitest'
import { CelError, ErrorValue } from '../../src/cel/common/errors.js'
import { DynType, IntType, listOf, optionalOf, UintType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { Double } from '../../src/cel/values/values.js'
import { formatSummary, summarize } from './report.js'
import { type Engine, runCase } from './runner.js'
import { type ConformanceCase, loadCases } from './suite.js'

// The runner's matching rules, after cel-go's conformance runner (conformance/conformance_test.go):
// no result matcher means `true`; an eval_error test passes when evaluation fails; parse errors
// are never expected (the simple tests have no parse-failure matcher). Engines here are fakes.

const cases = loadCases()
function byId(id: string): ConformanceCase {
  const c = cases.find((x) => x.id === id)
  if (!c) throw new Error(`no conformance test ${id}`)
  return c
}

/** An engine whose programs return `result` (or throw it when it is an Error / CelError). */
function fake(result: CelValue | (() => never), seen?: { options?: unknown; activation?: unknown }): Engine {
  return {
    compile(_expr, options) {
      if (seen) seen.options = options
      return {
        evaluate(activation) {
          if (seen) seen.activation = activation
          return typeof result === 'function' ? result() : result
        },
      }
    },
  }
}

function throwing(e: unknown): () => never {
  return () => {
    throw e
  }
}

describe('runCase', () => {
  it('compares the value strictly', () => {
    const c = byId('basic/self_eval_zeroish/self_eval_int_zero') // `0` → int64_value 0
    expect(runCase(fake(0), c).outcome).toEqual({ status: 'pass' })
    const wrong = runCase(fake(new Double(0)), c).outcome
    expect(wrong).toMatchObject({ status: 'fail', stage: 'value' })
  })

  it('passes declarations, container and bindings through', () => {
    const seen: { options?: unknown; activation?: unknown } = {}
    const c = byId('namespace/namespace/self_eval_container_lookup') // container x, x.y = true
    expect(runCase(fake(true, seen), c).outcome.status).toBe('pass')
    expect(seen.options).toMatchObject({ container: 'x', disableCheck: false })
    expect({ ...(seen.activation as object) }).toEqual({ 'x.y': true, y: 'false' })
  })

  it('expects true when the test has no result matcher', () => {
    const implicit = byId('string_ext/char_at/multiple') // no matcher in string_ext.textproto
    expect(implicit.test.resultMatcher.case).toBeUndefined()
    expect(runCase(fake(true), implicit).outcome.status).toBe('pass')
    expect(runCase(fake(false), implicit).outcome.status).toBe('fail')
  })

  it('passes an expected error on an eval error (and by default on a check error), never on a parse error', () => {
    const c = byId('integer_math/int64_math/mod_zero') // `34 % 0`: eval_error "modulus by zero"
    const evalErr = runCase(fake(throwing(new CelError('eval', 'modulus by zero'))), c)
    expect(evalErr.outcome).toEqual({ status: 'pass', error: { stage: 'eval', message: 'modulus by zero' } })
    expect(evalErr.expectedError).toBe('"modulus by zero"')
    const checkErr = throwing(new CelError('check', 'found no matching overload'))
    expect(runCase(fake(checkErr), c).outcome.status).toBe('pass')
    expect(runCase(fake(checkErr), c, { acceptCheckErrors: false }).outcome).toMatchObject({
      status: 'fail',
      stage: 'check',
    })
    expect(runCase(fake(throwing(new CelError('parse', 'Syntax error'))), c).outcome).toMatchObject({
      status: 'fail',
      stage: 'parse',
    })
    expect(runCase(fake(34), c).outcome).toMatchObject({ status: 'fail', stage: 'value' })
  })

  it('reports crashes: JavaScript exceptions and escaped ErrorValues', () => {
    const c = byId('integer_math/int64_math/mod_zero')
    expect(runCase(fake(throwing(new TypeError('x is undefined'))), c).outcome).toMatchObject({
      status: 'fail',
      stage: 'crash',
    })
    expect(runCase(fake(throwing(new ErrorValue('modulus by zero'))), c).outcome).toMatchObject({
      status: 'fail',
      stage: 'crash',
    })
  })

  it('skips by policy without compiling', () => {
    const engine: Engine = {
      compile() {
        throw new Error('must not compile')
      },
    }
    expect(runCase(engine, byId('fields/quoted_map_fields/field_access_dot')).outcome).toEqual({
      status: 'skip',
      reason: 'ident-escape',
    })
  })

  it('runs typed_result tests for their value and marks the type unverified', () => {
    const c = byId('type_deductions/constant_literals/int') // 42, deduced type int
    expect(runCase(fake(42), c).outcome).toEqual({ status: 'pass', typeUnverified: true })
  })
})

describe('deduced types', () => {
  // type_deduction.textproto optional_none: `[optional.none(), optional.of(1)]` has type
  // list(optional_type(int)) (check_only).
  const c = byId('type_deductions/flexible_type_parameter_assignment/optional_none')
  const typed = (outputType: unknown): Engine => ({
    compile: () => ({ evaluate: () => null, outputType }),
  })

  it('skips check_only tests unless types are verified', () => {
    expect(runCase(typed(undefined), c).outcome).toEqual({ status: 'skip', reason: 'needs-checker' })
    expect(runCase(typed(undefined), c, { verifyTypes: true }).outcome).toEqual({
      status: 'skip',
      reason: 'needs-checker',
    })
  })

  it('compares the output type when the program reports one', () => {
    const right = listOf(optionalOf(IntType))
    expect(runCase(typed(right), c, { verifyTypes: true }).outcome).toEqual({ status: 'pass' })
    expect(runCase(typed(listOf(optionalOf(DynType))), c, { verifyTypes: true }).outcome).toMatchObject({
      status: 'fail',
      stage: 'check',
    })
    const int = byId('type_deductions/constant_literals/int')
    const withType = (t: unknown): Engine => ({ compile: () => ({ evaluate: () => 42, outputType: t }) })
    expect(runCase(withType(IntType), int).outcome).toEqual({ status: 'pass' })
    expect(runCase(withType(UintType), int).outcome).toMatchObject({ status: 'fail', stage: 'check' })
  })
})

describe('summarize / formatSummary', () => {
  it('tallies per file and prints the table', () => {
    const picked = [
      byId('basic/self_eval_zeroish/self_eval_int_zero'),
      byId('basic/self_eval_zeroish/self_eval_uint_zero'),
      byId('math_ext/greatest_int_result/unary_negative'),
    ]
    const results = picked.map((c) => runCase(fake(0), c))
    const s = summarize(results)
    expect(s.files.get('basic')).toEqual({ pass: 1, fail: 1, skip: 0 })
    expect(s.files.get('math_ext')).toEqual({ pass: 0, fail: 0, skip: 1 })
    expect(s.kubernetes).toEqual({ pass: 1, fail: 1, skip: 0 })
    const text = formatSummary(s)
    expect(text).toMatch(/^file\s+pass\s+fail\s+skip/)
    expect(text).toMatch(/basic\s+1\s+1\s+0\s+k8s/)
    expect(text).toMatch(/1 {2}k8s-ext: /)
  })
})
