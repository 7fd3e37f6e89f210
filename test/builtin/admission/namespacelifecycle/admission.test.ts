import { describe, expect, it } from 'vitest'
import { namespaceLifecycle } from '../../../../src/builtin/admission/namespace-lifecycle.js'

// k8s.io/apiserver pkg/admission/plugin/namespace/lifecycle/admission.go Admit (v0.37.2): a create in a namespace
// that does not exist is the namespace's NotFound. The texts are kube-apiserver v1.37.2's (kubectl apply
// --dry-run=server of a Pod in namespace Bad_NS: `namespaces "Bad_NS" not found`).

const pod = { group: '', kind: 'Pod' }

describe('NamespaceLifecycle', () => {
  it('answers NotFound for a namespace that cannot exist (not a DNS label)', () => {
    expect(namespaceLifecycle({ operation: 'CREATE', namespace: 'Bad_NS', kind: pod })).toBe(
      'namespaces "Bad_NS" not found',
    )
    expect(namespaceLifecycle({ operation: 'CREATE', namespace: 'a.b', kind: pod })).toBe('namespaces "a.b" not found')
    // %q: Go quotes the name
    expect(namespaceLifecycle({ operation: 'CREATE', namespace: 'a"b', kind: pod })).toBe(
      'namespaces "a\\"b" not found',
    )
  })
  it('lets through a valid name, cluster-scoped objects, Namespaces themselves and updates', () => {
    expect(namespaceLifecycle({ operation: 'CREATE', namespace: 'team-a', kind: pod })).toBeUndefined()
    expect(
      namespaceLifecycle({ operation: 'CREATE', namespace: '', kind: { group: '', kind: 'Node' } }),
    ).toBeUndefined()
    expect(
      namespaceLifecycle({ operation: 'CREATE', namespace: 'Bad_NS', kind: { group: '', kind: 'Namespace' } }),
    ).toBeUndefined()
    expect(namespaceLifecycle({ operation: 'UPDATE', namespace: 'Bad_NS', kind: pod })).toBeUndefined()
  })
})
