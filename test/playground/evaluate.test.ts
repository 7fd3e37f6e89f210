import { describe, expect, it } from 'vitest'
import { evaluatePlayground, examples } from '../../src/playground/evaluate/index.js'

// Expected texts: kubectl v1.37.2 against kube-apiserver v1.37.2 (`kubectl apply --dry-run=server -f -`), the
// example's material applied to the cluster first.

const deny = examples.find((e) => e.name.startsWith('Deny'))!.state

describe('evaluatePlayground', () => {
  it('a ValidatingAdmissionPolicy that denies: kubectl prints the Status', async () => {
    const r = await evaluatePlayground(deny)
    expect(r.allowed).toBe(false)
    expect(r.kubectl).toEqual([
      `The deployments "web" is invalid: : ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: replicas must be at most 5`,
    ])
    expect(r.markers).toEqual([])
  })

  it('the same policy allows 3 replicas', async () => {
    const r = await evaluatePlayground({ ...deny, object: deny.object.replace('replicas: 10', 'replicas: 3') })
    expect(r.allowed).toBe(true)
    expect(r.kubectl).toEqual(['deployment.apps/web created (server dry run)'])
  })
})
