import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/index.js'
import { DynType } from '../../src/cel/types/types.js'
import type { CelValue } from '../../src/cel/values/values.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// Run-time costs (cel-go's EvalDetails.ActualCost, which the apiserver charges to its budgets, also for a
// failed rule) as Kubernetes computes them, for the shapes the CEL differential (test/e2e/cel) found kelp
// charging otherwise. Every figure is the oracle's answer (test/e2e/cel/oracle: k8s.io/apiserver v0.37.2 on
// cel-go v0.29.2, the admission environment with `object`, `oldObject` and `params` declared dyn, the per-call
// limit), measured on the bindings below; each group names the cel-go / apiserver source that explains it.
// Where the source is the same in cel-go v0.26.1 (Kubernetes 1.34-1.36), the figure is checked there too.

const object = {
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: {} },
  spec: { image: 'nginx:1.25', replicas: 3, empty: '', tags: ['a'], unicode: '😀𝄞' },
}
const params = { strict: false, limit: 3, prefix: 'pre' }

type Figure = readonly [expr: string, cost: number, error?: string]

function run(version: '1.36' | '1.37', expr: string, backend: 'js' | 'closures') {
  const env = kubeEnv({ version, variables: { object: DynType, oldObject: DynType, params: DynType } })
  const program = compile(expr, { env, costLimit: PerCallLimit, backend })
  const act = { object, oldObject: null, params } as unknown as Record<string, CelValue>
  // twice: the second run of the js back end takes the generated code's path
  program.tryRun(act)
  return program.tryRun(act)
}

function figures(title: string, versions: readonly ('1.36' | '1.37')[], cases: readonly Figure[]): void {
  describe(title, () => {
    for (const version of versions)
      for (const backend of ['js', 'closures'] as const)
        for (const [expr, cost, error] of cases)
          it(`${version} ${backend}: ${expr} costs ${cost}${error ? ' and fails' : ''}`, () => {
            const r = run(version, expr, backend)
            expect('error' in r ? r.error.message : undefined).toBe(error)
            expect(r.cost).toBe(cost)
          })
  })
}

// interpreter/planner.go planCallIndex: a key that is an attribute becomes an attrQualifier, observed once
// when it qualifies (runtimecost.go Observe, `case Qualifier`); a conditional key has no root observation
// that this one stands for, unlike an identifier's (planCallConditional builds a conditionalAttribute).
figures(
  'an index whose key is a conditional',
  ['1.36', '1.37'],
  [
    ["object.metadata.labels[?(true ? 'NaN' : object.metadata.labels['app'])]", 3],
    ["['1e3'][(params.strict ? params.limit : 10)]", 4, 'index out of bounds: 10'],
    ["object.spec[(params.strict ? oldObject.metadata.name : 'x')]", 5, 'no such key: x'],
    ['object[object.spec.image == "x" ? "spec" : "metadata"].name', 7],
    ["object.spec[true ? 'replicas' : 'x']", 3],
  ],
)

// interpreter/decorators.go decRegexOptimizer: a constant pattern makes matches (MatchesRegexOptimization,
// under OptOptimize) and Kubernetes' find / findAll (library/regex.go FindRegexOptimization,
// FindAllRegexOptimization) an interpreter.NewCall, i.e. an evalVarArgs: a failed receiver stops the call
// before the pattern is evaluated, and the observer charges no call whose arguments it did not all see
// (runtimecost.go dropArgs). A pattern that is not a constant keeps the strict call, charged with the error.
figures(
  'a regex call with a constant pattern on a failed receiver',
  ['1.36', '1.37'],
  [
    ['object.spec.x.findAll("(a|b)*c")', 3, 'no such key: x'],
    ['object.spec.x.find("(a|b)*c")', 3, 'no such key: x'],
    ['object.spec.x.findAll("(a|b)*c", 2)', 3, 'no such key: x'],
    ['object.spec.x.matches("(a|b)*c")', 3, 'no such key: x'],
    ['matches(object.spec.x, "(a|b)*c")', 3, 'no such key: x'],
    ['object.spec.image.matches(object.spec.x)', 8, 'no such key: x'],
    ['object.spec.x.matches(object.spec.image)', 9, 'no such key: x'],
    ['object.spec.image.find("n")', 5],
  ],
)
