import { describe, expect, it } from 'vitest'
import { DynType } from '../../src/cel/index.js'
import { compile } from '../../src/cel/program.js'
import { kubeEnv, PerCallLimit } from '../../src/kube/environment.js'

// k8s.io/apiserver pkg/cel/library/regex.go FindRegexOptimization / FindAllRegexOptimization: with a
// constant pattern, cel-go (interpreter.CompileRegexConstants, whatever the optimisation flags) replaces
// the call by one without the overloads' type guards, which answers a receiver that is no string, or a
// limit that is no int, with a bare `no such overload` (MaybeNoSuchOverloadErr); a pattern computed at
// run time keeps the guarded overloads and their `no such overload: findAll(int, string)`.
//
// Expected: the CEL differential's oracle (test/e2e/cel/oracle: k8s.io/apiserver v0.37.2 on cel-go
// v0.29.2), `object` bound to {"spec": {"empty": ""}}.

const object = { spec: { empty: '' } }

const cases: readonly (readonly [string, { error: string } | { value: string[] }])[] = [
  ['dyn(1).findAll("^a", 2)', { error: 'no such overload' }],
  ['optional.of(1).orValue(object.spec.empty).findAll("^a", 2)', { error: 'no such overload' }],
  ['optional.of(1).orValue(object.spec.empty).find("^a")', { error: 'no such overload' }],
  ['dyn(null).findAll("^a")', { error: 'no such overload' }],
  ['dyn("abc").findAll("[a-c]", dyn(1.5))', { error: 'no such overload' }],
  ['dyn(1).find(object.spec.empty)', { error: 'no such overload: find(int, string)' }],
  ['dyn(1).findAll(object.spec.empty, 1)', { error: 'no such overload: findAll(int, string, int)' }],
  ['dyn("abc").findAll("[a-c]", dyn(2))', { value: ['a', 'b'] }],
]

describe('find / findAll with a constant pattern: the regex optimisation', () => {
  for (const version of ['1.37', '1.36'])
    for (const backend of ['closures', 'js'] as const)
      for (const [expr, want] of cases)
        it(`${version} ${backend}: ${expr}`, () => {
          const env = kubeEnv({ version, variables: { object: DynType } })
          const r = compile(expr, { env, backend, costLimit: PerCallLimit }).tryRun({ object })
          expect('error' in r ? { error: r.error.message } : { value: r.value }).toEqual(want)
        })
})
