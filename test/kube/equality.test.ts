import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/index.js'
import { kubeEnv } from '../../src/kube/environment.js'

// Library values compare only with their own kind (apiserver pkg/cel/quantity.go, ip.go Equal:
// types.MaybeNoSuchOverloadErr otherwise), and a Quantity computed by add/sub is a different Go type
// that Quantity.Equal rejects (§K of the semantics document). Inside lists and `in`, cel-go counts an
// element comparison error as "not equal" (common/types/list.go baseList.Contains / Equal).
const run = (expr: string) => compile(expr, { env: kubeEnv() }).evaluate()

describe('equality of Kubernetes library values', () => {
  it('top-level == with another kind is no such overload', () => {
    expect(() => run("dyn(ip('10.0.0.1')) == dyn('10.0.0.1')")).toThrow('no such overload')
  })
  it('inside lists and `in`, an element comparison error is just "not equal"', () => {
    expect(run("dyn('10.0.0.1') in [dyn(ip('10.0.0.1'))]")).toBe(false)
    expect(run("quantity('1') in [quantity('1').add(0)]")).toBe(false)
  })
  it('== on values of the same library type compares them', () => {
    expect(run("ip('10.0.0.1') == ip('10.0.0.1')")).toBe(true)
    expect(run("quantity('1Gi') == quantity('1024Mi')")).toBe(true)
  })
})
