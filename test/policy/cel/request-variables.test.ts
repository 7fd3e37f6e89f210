import { describe, expect, it } from 'vitest'
import { BoolType, StringType } from '../../../src/cel/types/types.js'
import type { AdmissionAttributes } from '../../../src/policy/attributes.js'
import { CompositedCompiler, type OptionalVariableDeclarations } from '../../../src/policy/cel/compile.js'
import {
  type ActivationInput,
  type ForInputOutcome,
  forInput,
  type KeptVariable,
  RequestVariables,
  VariableMemo,
} from '../../../src/policy/cel/condition.js'
import { createAdmissionRequest } from '../../../src/policy/cel/request.js'
import { endpointCreateAttributes } from '../helpers.js'

// The policies of one request share the evaluation of a variable they define alike (RequestVariables,
// CompilationResult.shareKey): the apiserver evaluates each policy's variables in that policy's own
// composition (apiserver pkg/admission/plugin/cel/composition.go, validating/validator.go Validate), so
// taking another policy's evaluation must change nothing: the same values and errors, and each batch
// charged the variable's cost (and the variables it read) as if it had evaluated it, so the budget runs
// out at the same expression. The oracle is each policy evaluated on its own (no shared store).

const none: OptionalVariableDeclarations = { hasParams: false, hasAuthorizer: false }

interface Variable {
  readonly name: string
  readonly expression: string
}

function compiled(variables: Variable[], validations: string[], messages: string[], decls = none) {
  const compiler = new CompositedCompiler({ expressions: 'stored' })
  compiler.compileAndStoreVariables(variables, decls)
  return {
    variables: compiler.variables,
    validations: validations.map((e) => compiler.compile(e, [BoolType], decls)),
    messages: messages.map((e) => compiler.compile(e, [StringType], decls)),
  }
}
type Compiled = ReturnType<typeof compiled>

const keys = (c: Compiled) => Object.fromEntries([...c.variables].map(([k, v]) => [k, v.shareKey]))

/** One policy's validations then messages (with the budget left), as validator.ts Validate runs them. */
function run(
  c: Compiled,
  attributes: AdmissionAttributes,
  budget: number,
  shared: Map<string, KeptVariable> | undefined,
): [ForInputOutcome, ForInputOutcome] {
  const memo = new VariableMemo(c.variables)
  const input = (): ActivationInput => ({
    attributes,
    request: createAdmissionRequest(attributes, attributes.resource, attributes.kind),
    namespace: null,
    bindings: {},
    variables: c.variables,
    memo,
    ...(shared !== undefined ? { shared } : {}),
  })
  const v = forInput(c.validations, input(), budget)
  const left = 'remainingBudget' in v ? v.remainingBudget : budget
  return [v, forInput(c.messages, input(), left)]
}

const withObject = (object: Record<string, unknown>): AdmissionAttributes => ({
  ...endpointCreateAttributes(),
  object,
})

// a pod template as the pack's pod-security policies read it (`pod`, `spec`, `containers`)
const common: Variable[] = [
  { name: 'kubeMinor', expression: '37' },
  { name: 'spec', expression: 'object.?spec.?template.?spec.orValue({})' },
  {
    name: 'containers',
    expression: 'variables.spec.?initContainers.orValue([]) + variables.spec.?containers.orValue([])',
  },
  {
    name: 'privileged',
    expression: 'variables.containers.filter(c, c.?securityContext.?privileged.orValue(false) == true).map(c, c.name)',
  },
  { name: 'first', expression: 'variables.containers[5].name' }, // an error: index out of range
]

const policyA = () =>
  compiled(
    common,
    ['size(variables.privileged) == 0', 'variables.kubeMinor >= 30 && size(variables.containers) < 2'],
    ["'privileged: ' + variables.privileged.join(', ')", "'first: ' + variables.first"],
  )
// the same names and definitions, in another order of use, plus one of its own
const policyB = () =>
  compiled(
    [...common, { name: 'names', expression: "variables.containers.map(c, c.name).join(',')" }],
    ["variables.names != ''", 'variables.first == "x"', 'size(variables.privileged) < 1'],
    ["'names: ' + variables.names", "'x'", "'privileged again: ' + variables.privileged.join(', ')"],
  )

const deployment = (privileged: boolean) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    template: {
      spec: {
        containers: [
          { name: 'web', image: 'web:1', securityContext: { privileged } },
          { name: 'sidecar', image: 'proxy:2' },
        ],
      },
    },
  },
})

/** A then B on one request with one shared store, against each on its own. */
function sharedAgainstFresh(a: Compiled, b: Compiled, attributes: AdmissionAttributes, budget: number) {
  const store = new RequestVariables().of(attributes)
  const shared = [run(a, attributes, budget, store), run(b, attributes, budget, store)]
  const fresh = [run(a, attributes, budget, undefined), run(b, attributes, budget, undefined)]
  return { shared, fresh, store }
}

describe('shareKey: the same definition in any policy, nothing else', () => {
  it('is the same for the same variables of two policies, and set only for object-only variables', () => {
    const a = keys(policyA())
    const b = keys(policyB())
    for (const v of common) {
      expect(a[v.name], v.name).toMatch(/^v[0-9a-z]+$/)
      expect(b[v.name], v.name).toBe(a[v.name])
    }
    expect(b.names).toMatch(/^v[0-9a-z]+$/)
  })

  it('differs with the name, the expression, or a variable read being defined otherwise', () => {
    const base = keys(compiled(common, [], []))
    const renamed = keys(compiled([...common, { name: 'spec2', expression: common[1]?.expression ?? '' }], [], []))
    expect(renamed.spec2).not.toBe(base.spec)
    const otherSpec = keys(
      compiled(
        common.map((v) => (v.name === 'spec' ? { name: 'spec', expression: 'object.?spec.orValue({})' } : v)),
        [],
        [],
      ),
    )
    expect(otherSpec.spec).not.toBe(base.spec)
    // same text, but what it reads is another definition: not the same variable
    expect(otherSpec.containers).not.toBe(base.containers)
    expect(otherSpec.privileged).not.toBe(base.privileged)
    expect(otherSpec.kubeMinor).toBe(base.kubeMinor)
  })

  it('is unset for variables that may read params, request, namespaceObject, authorizer, or variables opaquely', () => {
    const c = keys(
      compiled(
        [
          { name: 'p', expression: 'params.x' },
          { name: 'r', expression: 'request.operation' },
          { name: 'n', expression: 'namespaceObject.metadata.name' },
          { name: 'z', expression: "authorizer.group('').resource('pods').check('get').allowed()" },
          { name: 'o', expression: "variables[?'p']" },
          { name: 'fromP', expression: 'variables.p' }, // reads one that is not shared
          { name: 'old', expression: 'oldObject == null' },
        ],
        [],
        [],
        { hasParams: true, hasAuthorizer: true },
      ),
    )
    expect(c).toEqual({
      p: undefined,
      r: undefined,
      n: undefined,
      z: undefined,
      o: undefined,
      fromP: undefined,
      old: expect.stringMatching(/^v[0-9a-z]+$/),
    })
  })
})

describe('RequestVariables: the policies of one request share their variables', () => {
  it('gives each policy what it gets on its own, and keeps the shared variables once', () => {
    const { shared, fresh, store } = sharedAgainstFresh(policyA(), policyB(), withObject(deployment(true)), 1_000_000)
    expect(shared).toEqual(fresh)
    // the error of `first` reaches both policies' messages alike
    const [, messagesA] = fresh[0] as [ForInputOutcome, ForInputOutcome]
    expect('results' in messagesA && messagesA.results[1]?.error).toMatch(
      /composited variable "first" fails to evaluate/,
    )
    expect(store.size).toBe(6) // kubeMinor, spec, containers, privileged, first (A) and names (B)
  })

  it('runs out of budget at the same expression for every budget', () => {
    const a = policyA()
    const b = policyB()
    const attributes = withObject(deployment(true))
    const [v] = run(b, attributes, 1_000_000, undefined)
    const total = 1_000_000 - ('remainingBudget' in v ? v.remainingBudget : 0)
    expect(total).toBeGreaterThan(0)
    let outOfBudget = 0
    for (let budget = 0; budget <= total * 2; budget++) {
      const { shared, fresh } = sharedAgainstFresh(a, b, attributes, budget)
      expect(shared, `budget ${budget}`).toEqual(fresh)
      if (fresh.flat().some((o) => 'batchError' in o)) outOfBudget++
    }
    expect(outOfBudget).toBeGreaterThan(0)
  })

  it('keeps the objects of two requests apart (they differ by one field)', () => {
    const variables = new RequestVariables()
    const one = withObject(deployment(true))
    const other = withObject(deployment(false))
    expect(variables.of(one)).toBe(variables.of(one))
    expect(variables.of(other)).not.toBe(variables.of(one))
    const a = policyA()
    const b = policyB()
    const first = run(a, one, 1_000_000, variables.of(one))
    const second = run(b, other, 1_000_000, variables.of(other))
    expect(first).toEqual(run(a, one, 1_000_000, undefined))
    expect(second).toEqual(run(b, other, 1_000_000, undefined))
    // privileged in one, not in the other
    const [va] = first
    const [vb] = second
    expect('results' in va && va.results[0]?.value).toBe(false)
    expect('results' in vb && vb.results[2]?.value).toBe(true)
  })

  it('holds any key: `__proto__` and `constructor` in the object and as a variable read', () => {
    const object = JSON.parse(
      '{"metadata":{"name":"x","labels":{"__proto__":"p","constructor":"c","toString":"t"}},"spec":{}}',
    ) as Record<string, unknown>
    const vars: Variable[] = [
      { name: 'labels', expression: 'object.metadata.labels' },
      { name: 'proto', expression: "variables.labels[?'__proto__'].orValue('none')" },
      { name: 'keys', expression: "variables.labels.map(k, k).join(',')" },
    ]
    const a = compiled(vars, ["variables.proto == 'p'", "'constructor' in variables.labels"], ['variables.keys'])
    const b = compiled(vars, ["variables.keys == '__proto__,constructor,toString'"], ['variables.proto'])
    const { shared, fresh } = sharedAgainstFresh(a, b, withObject(object), 1_000_000)
    expect(shared).toEqual(fresh)
    const [va, ma] = fresh[0] as [ForInputOutcome, ForInputOutcome]
    expect('results' in va && va.results.map((r) => r.value)).toEqual([true, true])
    expect('results' in ma && ma.results[0]?.value).toBe('__proto__,constructor,toString')
    expect(Object.getPrototypeOf(object.metadata as object)).toBe(Object.prototype)
  })
})
