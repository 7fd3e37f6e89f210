import { describe, expect, it } from 'vitest'
import {
  type CompileContext,
  type CompileHook,
  type ExpressionKind,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyUpdate,
} from '../../../../src/builtin/validation/admissionregistration/index.js'
import type { ValidatingAdmissionPolicy } from '../../../../src/kube/admissionregistration/types.js'
import { errorString } from '../../../../src/kube/field.js'

// The compile hook wiring of ValidateValidatingAdmissionPolicy (validation.go): which expressions
// are compiled, in which order, with which declarations, and how the compiler's text is wrapped.

interface Call {
  readonly expression: string
  readonly kind: ExpressionKind
  readonly context: CompileContext
}

function recorder(answer: (expr: string, kind: ExpressionKind) => ReturnType<CompileHook> = () => undefined) {
  const calls: Call[] = []
  const compile: CompileHook = (expression, kind, context) => {
    calls.push({ expression, kind, context })
    return answer(expression, kind)
  }
  return { calls, compile }
}

const base = (spec: NonNullable<ValidatingAdmissionPolicy['spec']>): ValidatingAdmissionPolicy => ({
  metadata: { name: 'p' },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: {
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    },
    ...spec,
  },
})

describe('ValidateValidatingAdmissionPolicy compile hook', () => {
  const policy = base({
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConditions: [{ name: 'm', expression: '  true  ' }],
    variables: [
      { name: 'a', expression: ' 1 ' },
      { name: 'b', expression: '   ' },
      { name: 'c', expression: 'variables.a' },
    ],
    validations: [{ expression: ' object.x ', messageExpression: ' "m" ' }],
    auditAnnotations: [{ key: 'k', valueExpression: '  "v"  ' }],
  })

  it('compiles in Go order with the declarations of each kind', () => {
    const { calls, compile } = recorder()
    expect(validateValidatingAdmissionPolicy(policy, { compile }).map(errorString)).toEqual([
      'spec.variables[1].expression: Required value: expression is not specified',
    ])
    expect(calls.map((c) => [c.kind, c.expression, c.context.variables, c.context.hasAuthorizer])).toEqual([
      // match conditions: trimmed, stateless compiler (no variables)
      ['matchCondition', 'true', [], true],
      // variables: as written; each sees the ones compiled before it (a blank one is not compiled)
      ['variable', ' 1 ', [], true],
      ['variable', 'variables.a', ['a'], true],
      // validation and messageExpression as written; messageExpression without the authorizer
      ['validation', ' object.x ', ['a', 'c'], true],
      ['messageExpression', ' "m" ', ['a', 'c'], false],
      // audit annotation values trimmed
      ['auditAnnotation', '"v"', ['a', 'c'], true],
    ])
    expect(calls.map((c) => c.context.composition)).toEqual([false, true, true, true, true, true])
    expect(calls.every((c) => c.context.hasParams && c.context.environment === 'NewExpressions')).toBe(true)
    expect(calls[2]?.context.variableDefinitions).toEqual([{ name: 'a', expression: ' 1 ' }])
  })

  it('without variables, nothing is composed and params follow paramKind', () => {
    const { calls, compile } = recorder()
    validateValidatingAdmissionPolicy(base({ validations: [{ expression: 'true' }] }), { compile })
    expect(calls.map((c) => [c.kind, c.context.composition, c.context.hasParams])).toEqual([
      ['validation', false, false],
    ])
  })

  it('a variable that fails to compile is still declared', () => {
    const { calls, compile } = recorder((e, k) => (k === 'variable' && e === 'bad' ? 'ERROR: boom' : undefined))
    const errs = validateValidatingAdmissionPolicy(
      base({
        variables: [
          { name: 'x', expression: 'bad' },
          { name: 'y', expression: 'variables.x' },
        ],
        validations: [{ expression: 'true' }],
      }),
      { compile },
    )
    expect(errs.map(errorString)).toEqual([
      'spec.variables[0].expression: Invalid value: "bad": compilation failed: ERROR: boom',
    ])
    expect(calls.map((c) => c.context.variables)).toEqual([[], ['x'], ['x', 'y']])
  })

  it('wraps compiler text and checks result types', () => {
    const types: Record<string, string> = { v: 'dyn', m: 'string', a: 'int', n: 'null_type', c: 'bool' }
    const { compile } = recorder((e) => (e === 'err' ? { error: 'ERROR: x' } : { outputType: types[e] ?? 'bool' }))
    const errs = validateValidatingAdmissionPolicy(
      base({
        matchConditions: [{ name: 'mc', expression: 'v' }],
        validations: [
          { expression: 'v', messageExpression: 'c' },
          { expression: 'err', messageExpression: 'm' },
        ],
        auditAnnotations: [
          { key: 'a', valueExpression: ' a ' },
          { key: 'n', valueExpression: 'n' },
        ],
      }),
      { compile },
    )
    expect(errs.map(errorString)).toEqual([
      'spec.matchConditions[0].expression: Invalid value: "v": must evaluate to bool',
      'spec.validations[0].expression: Invalid value: "v": must evaluate to bool',
      'spec.validations[0].messageExpression: Invalid value: "c": must evaluate to string',
      'spec.validations[1].expression: Invalid value: "err": compilation failed: ERROR: x',
      'spec.auditAnnotations[0].valueExpression: Invalid value: " a ": must evaluate to one of [string null_type]',
    ])
  })

  it('compiles nothing without a hook', () => {
    expect(validateValidatingAdmissionPolicy(base({ validations: [{ expression: '1 +' }] }))).toEqual([])
  })

  it('update: unchanged expressions compile in StoredExpressions; unchanged match conditions are skipped', () => {
    const old = base({
      matchConditions: [{ name: 'm', expression: 'true' }],
      validations: [{ expression: 'a', messageExpression: 'b' }],
      variables: [{ name: 'v', expression: 'a' }],
      auditAnnotations: [{ key: 'k', valueExpression: 'c' }],
    })
    const next = base({
      matchConditions: [{ name: 'm', expression: 'true' }],
      validations: [{ expression: 'a', messageExpression: 'b2' }],
      // Go looks variables up among the old validation expressions
      variables: [{ name: 'v', expression: 'a' }],
      auditAnnotations: [{ key: 'k', valueExpression: 'c' }],
    })
    const { calls, compile } = recorder()
    validateValidatingAdmissionPolicyUpdate(next, old, { compile })
    expect(calls.map((c) => [c.kind, c.context.environment])).toEqual([
      ['variable', 'StoredExpressions'],
      ['validation', 'StoredExpressions'],
      ['messageExpression', 'NewExpressions'],
      ['auditAnnotation', 'StoredExpressions'],
    ])
    const changed = recorder()
    validateValidatingAdmissionPolicyUpdate(next, { ...old, spec: { ...old.spec, matchConditions: [] } }, changed)
    expect(changed.calls[0]).toMatchObject({ kind: 'matchCondition', context: { environment: 'NewExpressions' } })
  })
})
