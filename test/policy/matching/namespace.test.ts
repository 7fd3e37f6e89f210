import { describe, expect, it } from 'vitest'
import { labelSelectorAsSelector } from '../../../src/kube/labels.js'
import { StatusError } from '../../../src/policy/matching/errors.js'
import { NamespaceMatcher, namespaceLookupFromObjects } from '../../../src/policy/matching/namespace.js'
import { attrs, gvk, gvr } from './helpers.js'

// Transcribed from k8s.io/apiserver v0.36.3
// pkg/admission/plugin/webhook/predicates/namespace/matcher_test.go.

const namespace1Labels = { runlevel: '1' }
const namespace1 = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '1', labels: namespace1Labels } }
const namespace2Labels = { runlevel: '2' }
const namespace2 = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '2', labels: namespace2Labels } }
const empty = gvk('', '', '')
const res = (r: string) => gvr('', '', r)

describe('TestGetNamespaceLabels', () => {
  // the lister knows namespace "1" only
  const matcher = new NamespaceMatcher(namespaceLookupFromObjects([namespace1]))
  const tests = [
    {
      name: 'request is for creating namespace, the labels should be from the object itself',
      attr: attrs(namespace2, null, empty, '', '2', res('namespaces'), '', 'CREATE'),
      expectedLabels: namespace2Labels,
    },
    {
      name: 'request is for updating namespace, the labels should be from the new object',
      attr: attrs(namespace2, null, empty, '2', '2', res('namespaces'), '', 'UPDATE'),
      expectedLabels: namespace2Labels,
    },
    {
      name: 'request is for deleting namespace, the labels should be from the cache',
      attr: attrs(namespace2, null, empty, '1', '1', res('namespaces'), '', 'DELETE'),
      expectedLabels: namespace1Labels,
    },
    {
      name: 'request is for namespace/finalizer',
      attr: attrs(null, null, empty, '1', 'mock-name', res('namespaces'), 'finalizers', 'CREATE'),
      expectedLabels: namespace1Labels,
    },
    {
      name: 'request is for pod',
      attr: attrs(null, null, empty, '1', 'mock-name', res('pods'), '', 'CREATE'),
      expectedLabels: namespace1Labels,
    },
  ]
  for (const tt of tests) it(tt.name, () => expect(matcher.getNamespaceLabels(tt.attr)).toEqual(tt.expectedLabels))
})

describe('TestNotExemptClusterScopedResource', () => {
  it('cluster scoped resources (but not a namespace) are not exempted', () => {
    const attr = attrs(null, null, empty, '', 'mock-name', gvr('', 'v1', 'nodes'), '', 'CREATE')
    const provider = { getParsedNamespaceSelector: () => labelSelectorAsSelector({}) }
    expect(new NamespaceMatcher().matchNamespaceSelector(provider, attr)).toEqual([true, undefined])
  })
})

describe('MatchNamespaceSelector (matcher.go), offline choices', () => {
  const matcher = new NamespaceMatcher(namespaceLookupFromObjects([namespace1, namespace2]))
  const sel = (s: Parameters<typeof labelSelectorAsSelector>[0]) => ({
    getParsedNamespaceSelector: () => labelSelectorAsSelector(s),
  })
  const podIn = (ns: string) => attrs(null, null, empty, ns, 'p', gvr('', 'v1', 'pods'), '', 'CREATE')

  it('cluster-scoped requests match even a selector that selects nothing', () => {
    const node = attrs(null, null, empty, '', 'n', gvr('', 'v1', 'nodes'), '', 'CREATE')
    expect(matcher.matchNamespaceSelector(sel({ matchLabels: { runlevel: 'x' } }), node)).toEqual([true, undefined])
  })

  it('a namespaced request is matched by its namespace labels', () => {
    const s = sel({ matchExpressions: [{ key: 'runlevel', operator: 'In', values: ['1'] }] })
    expect(matcher.matchNamespaceSelector(s, podIn('1'))).toEqual([true, undefined])
    expect(matcher.matchNamespaceSelector(s, podIn('2'))).toEqual([false, undefined])
  })

  it('a Namespace CREATE is matched by its own labels, not the lookup', () => {
    const s = sel({ matchLabels: { team: 'a' } })
    const ns = { kind: 'Namespace', metadata: { name: 'new', labels: { team: 'a' } } }
    expect(
      matcher.matchNamespaceSelector(s, attrs(ns, null, empty, 'new', 'new', res('namespaces'), '', 'CREATE')),
    ).toEqual([true, undefined])
  })

  it('an unknown namespace: NotFound, as when the namespace does not exist in the cluster', () => {
    const [m, err] = matcher.matchNamespaceSelector(sel({ matchLabels: { runlevel: '1' } }), podIn('missing'))
    expect(m).toBe(false)
    expect(err).toBeInstanceOf(StatusError)
    expect(err?.status).toEqual({
      status: 'Failure',
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "missing" not found',
      details: { group: '', kind: 'namespaces', name: 'missing' },
    })
    // an empty selector never looks the namespace up
    expect(matcher.matchNamespaceSelector(sel({}), podIn('missing'))).toEqual([true, undefined])
  })

  it('an invalid selector is an internal error', () => {
    const [m, err] = matcher.matchNamespaceSelector(
      sel({ matchExpressions: [{ key: 'k', operator: 'Bogus' }] }),
      podIn('1'),
    )
    expect(m).toBe(false)
    expect(err?.message).toBe('Internal error occurred: "Bogus" is not a valid label selector operator')
    expect(err?.status.code).toBe(500)
  })

  it('getNamespace throws NotFound for an unknown name', () => {
    expect(() => matcher.getNamespace('zzz')).toThrow('namespaces "zzz" not found')
    expect(matcher.getNamespace('2').labels).toEqual(namespace2Labels)
  })
})
