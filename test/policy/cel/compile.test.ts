import { describe, expect, it } from 'vitest'
import { BoolType, NullType, StringType } from '../../../src/cel/types/types.js'
import { CompositedCompiler } from '../../../src/policy/cel/compile.js'

// Transcribed from k8s.io/apiserver release-1.36 pkg/admission/plugin/cel/compile_test.go.
// The Go test compiles with a plain Compiler (no `variables`) in the NewExpressions environment
// unless the case names StoredExpressions. Each expression is compiled twice: as a validation
// (returns bool) and as an auditAnnotation valueExpression `string(<expr>)` (returns string or null).

interface Case {
  readonly name: string
  readonly expressions?: readonly string[]
  readonly hasParams?: boolean
  readonly hasAuthorizer?: boolean
  readonly errorExpressions?: Readonly<Record<string, string>>
  readonly envType?: 'new' | 'stored'
  /** Why the case cannot run offline (it is then skipped). */
  readonly skip?: string
}

const cases: readonly Case[] = [
  {
    name: 'invalid syntax',
    errorExpressions: {
      "1 < 'asdf'": "found no matching overload for '_<_' applied to '(int, string)",
      "'asdf'.contains('x'": "Syntax error: missing ')' at",
    },
  },
  { name: 'with params', expressions: ['object.foo < params.x'], hasParams: true },
  { name: 'namespaceObject', expressions: ["namespaceObject.metadata.name.startsWith('test')"], hasParams: true },
  {
    name: 'without params',
    errorExpressions: { 'object.foo < params.x': "undeclared reference to 'params'" },
    hasParams: false,
  },
  { name: 'oldObject comparison', expressions: ['object.foo == oldObject.foo'] },
  { name: 'object null checks', expressions: ['object == null || oldObject == null || object.foo == oldObject.foo'] },
  {
    name: 'invalid root var',
    errorExpressions: { 'object.foo < invalid.x': "undeclared reference to 'invalid'" },
    hasParams: false,
  },
  {
    name: 'function library',
    expressions: [
      "object.spec.string.matches('[0-9]+')",
      "object.spec.string.findAll('[0-9]+').size() > 0",
      'object.spec.list.isSorted()',
      "url(object.spec.endpoint).getHostname() in ['ok1', 'ok2']",
    ],
  },
  {
    name: 'valid request',
    expressions: [
      "request.kind.group == 'example.com' && request.kind.version == 'v1' && request.kind.kind == 'Fake'",
      "request.resource.group == 'example.com' && request.resource.version == 'v1' && request.resource.resource == 'fake' && request.subResource == 'scale'",
      "request.requestKind.group == 'example.com' && request.requestKind.version == 'v1' && request.requestKind.kind == 'Fake'",
      "request.requestResource.group == 'example.com' && request.requestResource.version == 'v1' && request.requestResource.resource == 'fake' && request.requestSubResource == 'scale'",
      "request.name == 'fake-name'",
      "request.namespace == 'fake-namespace'",
      "request.operation == 'CREATE'",
      "request.userInfo.username == 'admin'",
      "request.userInfo.uid == '014fbff9a07c'",
      "request.userInfo.groups == ['system:authenticated', 'my-admin-group']",
      "request.userInfo.extra == {'some-key': ['some-value1', 'some-value2']}",
      'request.dryRun == false',
      "request.options == {'whatever': 'you want'}",
    ],
  },
  {
    name: 'invalid request',
    errorExpressions: {
      "request.foo1 == 'nope'": "undefined field 'foo1'",
      "request.resource.foo2 == 'nope'": "undefined field 'foo2'",
      "request.requestKind.foo3 == 'nope'": "undefined field 'foo3'",
      "request.requestResource.foo4 == 'nope'": "undefined field 'foo4'",
      "request.userInfo.foo5 == 'nope'": "undefined field 'foo5'",
    },
  },
  { name: 'with authorizer', hasAuthorizer: true, expressions: ["authorizer.group('') != null"] },
  {
    name: 'without authorizer',
    errorExpressions: { "authorizer.group('') != null": "undeclared reference to 'authorizer'" },
  },
  {
    name: 'compile with storage environment should recognize functions available only in the storage environment',
    expressions: ['test() == true'],
    envType: 'stored',
    skip: 'the Go test extends the base env with library.Test() (a test-only `test()` function introduced at 1.999); kelp has no test library to add',
  },
  {
    // Holds in kelp only because `test()` exists in no kelp environment (see the case above).
    name: 'compile with supported environment should not recognize functions available only in the storage environment',
    errorExpressions: { 'test() == true': "undeclared reference to 'test'" },
    envType: 'new',
  },
  {
    name: 'valid namespaceObject',
    expressions: [
      'namespaceObject.metadata != null',
      "namespaceObject.metadata.name == 'test'",
      "namespaceObject.metadata.generateName == 'test'",
      "namespaceObject.metadata.namespace == 'testns'",
      "'test' in namespaceObject.metadata.labels",
      "'test' in namespaceObject.metadata.annotations",
      "namespaceObject.metadata.UID == '12345'",
      'type(namespaceObject.metadata.creationTimestamp) == google.protobuf.Timestamp',
      'type(namespaceObject.metadata.deletionTimestamp) == google.protobuf.Timestamp',
      'namespaceObject.metadata.deletionGracePeriodSeconds == 5',
      'namespaceObject.metadata.generation == 2',
      "namespaceObject.metadata.resourceVersion == 'v1'",
      "namespaceObject.metadata.finalizers[0] == 'testEnv'",
      "namespaceObject.spec.finalizers[0] == 'testEnv'",
      "namespaceObject.status.phase == 'Active'",
      "namespaceObject.status.conditions[0].status == 'True'",
      "namespaceObject.status.conditions[0].type == 'NamespaceDeletionDiscoveryFailure'",
      'type(namespaceObject.status.conditions[0].lastTransitionTime) == google.protobuf.Timestamp',
      "namespaceObject.status.conditions[0].message == 'Unknow'",
      "namespaceObject.status.conditions[0].reason == 'Invalid'",
    ],
  },
  {
    name: 'invalid namespaceObject',
    errorExpressions: {
      "namespaceObject.foo1 == 'nope'": "undefined field 'foo1'",
      "namespaceObject.metadata.foo2 == 'nope'": "undefined field 'foo2'",
      "namespaceObject.spec.foo3 == 'nope'": "undefined field 'foo3'",
      "namespaceObject.status.foo4 == 'nope'": "undefined field 'foo4'",
      "namespaceObject.status.conditions[0].foo5 == 'nope'": "undefined field 'foo5'",
    },
  },
]

describe('TestCompileValidatingPolicyExpression', () => {
  for (const tc of cases) {
    describe(tc.name, () => {
      // NewCompiler (not composited): no `variables`
      const compiler = new CompositedCompiler({ expressions: tc.envType ?? 'new', composition: false })
      const decls = { hasParams: tc.hasParams ?? false, hasAuthorizer: tc.hasAuthorizer ?? false }
      const test = tc.skip === undefined ? it : it.skip
      for (const expr of tc.expressions ?? []) {
        test(`${expr} / expression`, () => {
          expect(compiler.compile(expr, [BoolType], decls).error).toBeUndefined()
        })
        test(`${expr} / auditAnnotation.valueExpression`, () => {
          expect(compiler.compile(`string(${expr})`, [StringType, NullType], decls).error).toBeUndefined()
        })
      }
      for (const [expr, expectErr] of Object.entries(tc.errorExpressions ?? {})) {
        test(`${expr} / expression`, () => {
          const r = compiler.compile(expr, [BoolType], decls)
          expect(r.error?.detail).toContain(expectErr)
        })
        test(`${expr} / auditAnnotation.valueExpression`, () => {
          const r = compiler.compile(`string(${expr})`, [StringType, NullType], decls)
          expect(r.error?.detail).toContain(expectErr)
        })
      }
    })
  }
})
