import { describe, expect, it } from 'vitest'
import { type CelValue, compile, standardEnv } from '../../src/cel/index.js'
import { type AuthzAttributes, defaultAuthorize, rulesAuthorizer } from '../../src/kube/authz/authorizer.js'
import {
  AuthorizerType,
  authzLibrary,
  authzSelectorsLibrary,
  newAuthorizer,
  newResourceAuthorizer,
  ResourceCheckType,
} from '../../src/kube/authz/library.js'

// Semantics from k8s.io/apiserver pkg/cel/library/authz.go (function bodies and doc comments) and
// the offline authorizer kelp puts in place of kube-apiserver's authorizer chain.
const env = standardEnv().extend({ libraries: [authzLibrary, authzSelectorsLibrary] })

function run(expr: string, authorize = defaultAuthorize, seen: AuthzAttributes[] = []): CelValue {
  const authorizer = newAuthorizer({ username: 'alice', groups: ['dev'] }, (a) => {
    seen.push(a)
    return authorize(a)
  })
  return compile(expr, { env, declarations: { authorizer: AuthorizerType } }).evaluate({ authorizer })
}

describe('authz library (apiserver pkg/cel/library/authz.go)', () => {
  it('builds resource attributes as resourceCheck.Authorize does (APIVersion "*", ResourceRequest true)', () => {
    const seen: AuthzAttributes[] = []
    run(
      "authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('web').check('update').allowed()",
      defaultAuthorize,
      seen,
    )
    expect(seen).toEqual([
      {
        user: 'alice',
        groups: ['dev'],
        verb: 'update',
        resourceRequest: true,
        apiGroup: 'apps',
        apiVersion: '*',
        resource: 'deployments',
        subresource: 'scale',
        namespace: 'ns',
        name: 'web',
      },
    ])
  })
  it('path checks are non-resource requests', () => {
    const seen: AuthzAttributes[] = []
    run("authorizer.path('/healthz').check('get').allowed()", defaultAuthorize, seen)
    expect(seen[0]).toMatchObject({ resourceRequest: false, path: '/healthz', verb: 'get' })
  })
  it('errors with authz.go texts', () => {
    expect(() => run("authorizer.path('  ').check('get')")).toThrow('path must not be empty')
    expect(() => run("authorizer.group('').resource('').check('get')")).toThrow('resource must not be empty')
    // the name is validated first (DNS-1123 subdomain), then the namespace (DNS-1123 label)
    expect(() => run("authorizer.serviceAccount('ns', 'Bad_Name')")).toThrow('Invalid service account name')
    expect(() => run("authorizer.serviceAccount('a.b', 'ok')")).toThrow('Invalid service account namespace')
  })
  it('serviceAccount switches the principal to system:serviceaccount:<ns>:<name> with its groups', () => {
    const seen: AuthzAttributes[] = []
    run(
      "authorizer.serviceAccount('kube-system', 'builder').group('').resource('pods').check('list').allowed()",
      defaultAuthorize,
      seen,
    )
    expect(seen[0]).toMatchObject({
      user: 'system:serviceaccount:kube-system:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
    })
  })
  it('decisions: allowed only for Allow; reason, errored and error pass through', () => {
    const allow = rulesAuthorizer([{ verb: 'get', resource: 'pods', decision: 'allow', reason: 'rule 1' }])
    expect(run("authorizer.group('').resource('pods').check('get').allowed()", allow)).toBe(true)
    expect(run("authorizer.group('').resource('pods').check('get').reason()", allow)).toBe('rule 1')
    expect(run("authorizer.group('').resource('pods').check('delete').allowed()", allow)).toBe(false)
    const broken = () => ({ decision: 'NoOpinion' as const, error: 'webhook unreachable' })
    expect(run("authorizer.path('/x').check('get').errored()", broken)).toBe(true)
    expect(run("authorizer.path('/x').check('get').error()", broken)).toBe('webhook unreachable')
    expect(run("authorizer.path('/x').check('get').error()")).toBe('')
  })
  it('the documented offline default is no opinion (allowed() false)', () => {
    expect(run("authorizer.group('').resource('pods').check('get').allowed()")).toBe(false)
  })
  it('authorizer.requestResource is pre-filled from the request (NewResourceAuthorizerVal)', () => {
    const seen: AuthzAttributes[] = []
    const a = newAuthorizer({ username: 'bob', groups: [] }, (x) => {
      seen.push(x)
      return defaultAuthorize(x)
    })
    const rr = newResourceAuthorizer(a, { group: 'apps', resource: 'deployments', namespace: 'prod', name: 'web' })
    compile("rr.subresource('scale').check('patch').allowed()", {
      env,
      declarations: { rr: ResourceCheckType },
    }).evaluate({
      rr,
    })
    expect(seen[0]).toMatchObject({
      apiGroup: 'apps',
      resource: 'deployments',
      subresource: 'scale',
      namespace: 'prod',
      name: 'web',
      verb: 'patch',
    })
  })
  it('field and label selectors are passed as written', () => {
    const seen: AuthzAttributes[] = []
    run(
      "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').labelSelector('app=web').check('list').allowed()",
      defaultAuthorize,
      seen,
    )
    expect(seen[0]).toMatchObject({ fieldSelector: 'spec.nodeName=n1', labelSelector: 'app=web' })
  })
  it('check costs 350,000 at run time (apiserver pkg/cel/library/cost.go)', () => {
    const authorizer = newAuthorizer({ username: 'a', groups: [] }, defaultAuthorize)
    const { cost } = compile("authorizer.path('/healthz').check('get').allowed()", {
      env,
      declarations: { authorizer: AuthorizerType },
    }).run({ authorizer })
    // authorizer ident 1 + path 1 + check 350000 + allowed 1
    expect(cost).toBe(350_003)
  })
})
