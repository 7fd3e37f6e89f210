import { describe, expect, it } from 'vitest'
import { BoolType } from '../../../src/cel/types/types.js'
import type { Authorize } from '../../../src/kube/authz/authorizer.js'
import { type KubeVersion, RuntimeCELCostBudget } from '../../../src/kube/environment.js'
import type { AdmissionAttributes } from '../../../src/policy/attributes.js'
import { type CompilationResult, CompositedCompiler } from '../../../src/policy/cel/compile.js'
import { compilationErrors, type ForInputOutcome, forInput, OutOfBudget } from '../../../src/policy/cel/condition.js'
import { createAdmissionRequest, createNamespaceObject } from '../../../src/policy/cel/request.js'
import {
  configMapParams,
  crdParams,
  denyAll,
  endpointCreateAttributes,
  endpointStatusUpdateAttributes,
  errorAll,
  newAuthzAllowMatch,
  newValidAttribute,
  podObject,
} from '../helpers.js'

// Transcribed from k8s.io/apiserver release-1.36 pkg/admission/plugin/cel/condition_test.go:
// TestCompile, TestCondition, TestRuntimeCELCostBudget, TestCompilationErrors. The Go
// ConditionCompiler is a plain (non-composited) compiler; ForInput is kelp's forInput with the
// request from CreateAdmissionRequest(attr, attr.GetResource(), attr.GetKind()).

/**
 * The Go tests set the environment's compatibility version directly; kelp's `new` environment of
 * apiserver version 1.N has compatibility version 1.(N−1), so compatibility 1.M is kelp version 1.(M+1).
 */
const versionForCompatibility = (minor: number) => `1.${minor + 1}` as KubeVersion

interface EnvSpec {
  readonly compatibility?: number
  readonly envType?: 'new' | 'stored'
  readonly perCallLimit?: number
}

function compiler(env: EnvSpec = {}): CompositedCompiler {
  return new CompositedCompiler({
    composition: false,
    expressions: env.envType ?? 'new',
    ...(env.compatibility === undefined ? {} : { version: versionForCompatibility(env.compatibility) }),
    ...(env.perCallLimit === undefined ? {} : { perCallLimit: env.perCallLimit }),
  })
}

function run(
  compiled: readonly CompilationResult[],
  attributes: AdmissionAttributes,
  opts: { params?: unknown; authorize?: Authorize; namespace?: Record<string, unknown>; budget?: number },
): ForInputOutcome {
  return forInput(
    compiled,
    {
      attributes,
      request: createAdmissionRequest(attributes, attributes.resource, attributes.kind),
      namespace: createNamespaceObject(opts.namespace),
      bindings: { params: opts.params, authorize: opts.authorize },
    },
    opts.budget ?? RuntimeCELCostBudget,
  )
}

describe('TestCompile', () => {
  const cases: { name: string; validation: string[]; errorExpressions: Record<string, string> }[] = [
    {
      name: 'invalid syntax',
      validation: ["1 < 'asdf'", '1 < 2'],
      errorExpressions: { "1 < 'asdf'": "found no matching overload for '_<_' applied to '(int, string)" },
    },
    {
      name: 'valid syntax',
      validation: [
        '1 < 2',
        "object.spec.string.matches('[0-9]+')",
        "request.kind.group == 'example.com' && request.kind.version == 'v1' && request.kind.kind == 'Fake'",
      ],
      errorExpressions: {},
    },
  ]
  for (const tc of cases) {
    it(tc.name, () => {
      const c = compiler()
      const results = tc.validation.map((e) => c.compile(e, [BoolType], { hasParams: false, hasAuthorizer: false }))
      expect(results).toHaveLength(tc.validation.length)
      for (const [i, r] of results.entries()) {
        const expectErr = tc.errorExpressions[tc.validation[i] as string]
        if (expectErr === undefined) expect(r.error).toBeUndefined()
        else expect(r.error?.detail).toContain(expectErr)
      }
    })
  }
})

type Expected = { value: boolean } | { error: string }

interface ConditionCase {
  readonly name: string
  readonly validations: readonly string[]
  readonly attributes: AdmissionAttributes
  readonly results: readonly Expected[]
  readonly hasParamKind?: boolean
  readonly params?: unknown
  readonly authorizer?: Authorize
  readonly testPerCallLimit?: number
  readonly namespaceObject?: Record<string, unknown>
  readonly compatibility?: number
  readonly envType?: 'new' | 'stored'
  readonly skip?: string
}

const T: Expected = { value: true }
const F: Expected = { value: false }

/** corev1.Namespace nsObject of TestCondition (typed: metadata.creationTimestamp null). */
const nsObject = {
  metadata: {
    name: 'test',
    labels: { env: 'test', foo: 'demo' },
    annotations: { annotation1: 'testAnnotation1' },
    finalizers: ['f1'],
    creationTimestamp: null,
  },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
}

const allFields =
  "authorizer.group('apps').resource('deployments').fieldSelector('foo=bar').labelSelector('apple=banana').subresource('status').namespace('test').name('backend').check('create').allowed()"
const deploymentStatus = {
  resourceRequest: true,
  apiGroup: 'apps',
  resource: 'deployments',
  subresource: 'status',
  namespace: 'test',
  name: 'backend',
  verb: 'create',
  apiVersion: '*',
}

const conditionCases: readonly ConditionCase[] = [
  {
    name: 'valid syntax for object',
    validations: ['has(object.subsets) && object.subsets.size() < 2'],
    attributes: newValidAttribute(undefined, false),
    results: [T],
  },
  {
    name: 'valid syntax for metadata',
    validations: ["object.metadata.name == 'endpoints1'"],
    attributes: newValidAttribute(undefined, false),
    results: [T],
  },
  {
    name: 'valid syntax for oldObject',
    validations: ['oldObject == null', 'object != null'],
    attributes: newValidAttribute(undefined, false),
    results: [T, T],
  },
  {
    name: 'valid syntax for request',
    validations: ["request.operation == 'CREATE'"],
    attributes: newValidAttribute(undefined, false),
    results: [T],
  },
  {
    name: 'valid syntax for configMap',
    validations: ['request.namespace != params.data.fakeString'],
    attributes: newValidAttribute(undefined, false),
    results: [T],
    hasParamKind: true,
    params: configMapParams,
  },
  {
    name: 'test failure',
    validations: ['object.subsets.size() > 2'],
    attributes: newValidAttribute(undefined, false),
    results: [F],
    hasParamKind: true,
    params: configMapParams,
  },
  {
    name: 'test failure with multiple validations',
    validations: ['has(object.subsets)', 'object.subsets.size() > 2'],
    attributes: newValidAttribute(undefined, false),
    results: [T, F],
    hasParamKind: true,
    params: configMapParams,
  },
  {
    name: 'test failure policy with multiple failed validations',
    validations: ['oldObject != null', 'object.subsets.size() > 2'],
    attributes: newValidAttribute(undefined, false),
    results: [F, F],
    hasParamKind: true,
    params: configMapParams,
  },
  {
    name: 'test Object null in delete',
    validations: ['oldObject != null', 'object == null'],
    attributes: newValidAttribute(undefined, true),
    results: [T, T],
    hasParamKind: true,
    params: configMapParams,
  },
  {
    name: 'test runtime error',
    validations: ['oldObject.x == 100'],
    attributes: newValidAttribute(undefined, true),
    results: [{ error: "expression 'oldObject.x == 100' resulted in error" }],
    hasParamKind: true,
    params: configMapParams,
  },
  {
    name: 'test against crd param',
    validations: ['object.subsets.size() < params.spec.testSize'],
    attributes: newValidAttribute(undefined, false),
    results: [T],
    hasParamKind: true,
    params: crdParams,
  },
  {
    name: 'test compile failure',
    validations: ['fail to compile test', 'object.subsets.size() > params.spec.testSize'],
    attributes: newValidAttribute(undefined, false),
    results: [{ error: 'compilation error' }, F],
    hasParamKind: true,
    params: crdParams,
  },
  {
    name: 'test pod',
    validations: ["object.spec.nodeName == 'testnode'"],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    hasParamKind: true,
    params: crdParams,
  },
  {
    name: 'test deny paramKind without paramRef',
    validations: ['params != null'],
    attributes: newValidAttribute(podObject, false),
    results: [F],
    hasParamKind: true,
  },
  {
    // params: a nil *unstructured.Unstructured, which ForInput binds as null
    name: 'test allow paramKind without paramRef',
    validations: ['params == null'],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    hasParamKind: true,
    params: null,
  },
  {
    name: 'test authorizer allow resource check',
    validations: [
      "authorizer.group('').resource('endpoints').check('create').allowed()",
      "authorizer.group('').resource('endpoints').check('create').errored()",
    ],
    attributes: newValidAttribute(podObject, false),
    results: [T, F],
    authorizer: newAuthzAllowMatch({ resourceRequest: true, resource: 'endpoints', verb: 'create', apiVersion: '*' }),
  },
  {
    name: 'test authorizer error using fieldSelector with 1.30 compatibility',
    validations: [allFields],
    attributes: newValidAttribute(podObject, false),
    results: [{ error: 'fieldSelector' }],
    authorizer: newAuthzAllowMatch({ ...deploymentStatus, fieldSelector: 'foo=bar', labelSelector: 'apple=banana' }),
    compatibility: 30,
  },
  {
    name: 'test authorizer allow resource check with all fields',
    validations: [allFields],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    authorizer: newAuthzAllowMatch({ ...deploymentStatus, fieldSelector: 'foo=bar', labelSelector: 'apple=banana' }),
    compatibility: 31,
  },
  {
    // The Go record carries FieldSelectorParsingErr / LabelSelectorParsingErr; kelp hands the
    // callback the selector text, so the matching record holds the unparsable texts.
    name: 'test authorizer allow resource check with parse failures',
    validations: [
      "authorizer.group('apps').resource('deployments').fieldSelector('foo badoperator bar').labelSelector('apple badoperator banana').subresource('status').namespace('test').name('backend').check('create').allowed()",
    ],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    authorizer: newAuthzAllowMatch({
      ...deploymentStatus,
      fieldSelector: 'foo badoperator bar',
      labelSelector: 'apple badoperator banana',
    }),
    compatibility: 31,
  },
  {
    name: 'test authorizer allow resource check with all fields, without gate',
    validations: [allFields],
    attributes: newValidAttribute(podObject, false),
    results: [{ error: 'fieldSelector' }],
    authorizer: newAuthzAllowMatch(deploymentStatus),
    compatibility: 31,
    skip: 'turns the AuthorizeWithSelectors feature gate off (emulating 1.33); kelp has no feature gates: its environments hold the libraries of their version',
  },
  {
    name: 'test authorizer not allowed resource check one incorrect field',
    validations: [
      "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
    ],
    attributes: newValidAttribute(podObject, false),
    results: [F],
    authorizer: newAuthzAllowMatch({ ...deploymentStatus, resource: 'deployments-xxxx' }),
  },
  {
    name: 'test authorizer reason',
    validations: ["authorizer.group('').resource('endpoints').check('create').reason() == 'fake reason'"],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    authorizer: denyAll,
  },
  {
    name: 'test authorizer error',
    validations: [
      "authorizer.group('').resource('endpoints').check('create').errored()",
      "authorizer.group('').resource('endpoints').check('create').error() == 'fake authz error'",
      "authorizer.group('').resource('endpoints').check('create').allowed()",
    ],
    attributes: newValidAttribute(podObject, false),
    results: [T, T, F],
    authorizer: errorAll,
  },
  {
    name: 'test authorizer allow path check',
    validations: ["authorizer.path('/healthz').check('get').allowed()"],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    authorizer: newAuthzAllowMatch({ path: '/healthz', verb: 'get' }),
  },
  {
    name: 'test authorizer decision is denied path check',
    validations: ["authorizer.path('/healthz').check('get').allowed() == false"],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    authorizer: denyAll,
  },
  {
    name: 'test request resource authorizer allow check',
    validations: ["authorizer.requestResource.check('custom-verb').allowed()"],
    attributes: endpointCreateAttributes(),
    results: [T],
    authorizer: newAuthzAllowMatch({
      resourceRequest: true,
      apiGroup: '',
      resource: 'endpoints',
      subresource: '',
      namespace: 'default',
      name: 'endpoints1',
      verb: 'custom-verb',
      apiVersion: '*',
    }),
  },
  {
    name: 'test subresource request resource authorizer allow check',
    validations: ["authorizer.requestResource.check('custom-verb').allowed()"],
    attributes: endpointStatusUpdateAttributes(),
    results: [T],
    authorizer: newAuthzAllowMatch({
      resourceRequest: true,
      apiGroup: '',
      resource: 'endpoints',
      subresource: 'status',
      namespace: 'default',
      name: 'endpoints1',
      verb: 'custom-verb',
      apiVersion: '*',
    }),
  },
  {
    name: 'test serviceAccount authorizer allow check',
    validations: [
      "authorizer.serviceAccount('default', 'test-serviceaccount').group('').resource('endpoints').namespace('default').name('endpoints1').check('custom-verb').allowed()",
    ],
    attributes: endpointCreateAttributes(),
    results: [T],
    authorizer: newAuthzAllowMatch({
      user: 'system:serviceaccount:default:test-serviceaccount',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
      resourceRequest: true,
      apiGroup: '',
      resource: 'endpoints',
      namespace: 'default',
      name: 'endpoints1',
      verb: 'custom-verb',
      apiVersion: '*',
    }),
  },
  {
    name: 'test perCallLimit exceed',
    validations: ['object.subsets.size() < params.spec.testSize'],
    attributes: newValidAttribute(undefined, false),
    results: [{ error: 'operation cancelled: actual cost limit exceeded' }],
    hasParamKind: true,
    params: crdParams,
    testPerCallLimit: 1,
  },
  {
    name: 'test namespaceObject',
    validations: [
      "namespaceObject.metadata.name == 'test'",
      "'env' in namespaceObject.metadata.labels && namespaceObject.metadata.labels.env == 'test'",
      "('fake' in namespaceObject.metadata.labels) && namespaceObject.metadata.labels.fake == 'test'",
      "namespaceObject.spec.finalizers[0] == 'kubernetes'",
      "namespaceObject.status.phase == 'Active'",
      'size(namespaceObject.metadata.managedFields) == 1',
      'size(namespaceObject.metadata.ownerReferences) == 1',
      "'env' in namespaceObject.metadata.annotations",
    ],
    attributes: newValidAttribute(podObject, false),
    results: [
      T,
      T,
      F,
      T,
      T,
      { error: "undefined field 'managedFields'" },
      { error: "undefined field 'ownerReferences'" },
      F,
    ],
    namespaceObject: nsObject,
  },
  {
    name: 'cel lib not recognized in version earlier than introduced version',
    validations: ['isQuantity("20M")'],
    attributes: newValidAttribute(podObject, false),
    results: [{ error: 'isQuantity' }],
    // compatibility 1.27 is a kelp 1.28 environment: outside SUPPORTED_VERSIONS (1.30+), but kubeEnv builds it
    compatibility: 27,
  },
  {
    name: 'cel lib recognized in version later than introduced version',
    validations: ['isQuantity("20M")'],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    compatibility: 30,
  },
  {
    // compatibility 1.2: the StoredExpressions environment keeps every option not removed, whatever the version
    name: 'cel lib always recognized in stored expression',
    validations: ['isQuantity("20M")'],
    attributes: newValidAttribute(podObject, false),
    results: [T],
    envType: 'stored',
  },
]

describe('TestCondition', () => {
  for (const tc of conditionCases) {
    const test = tc.skip === undefined ? it : it.skip
    test(tc.name, () => {
      const c = compiler({
        ...(tc.compatibility === undefined ? {} : { compatibility: tc.compatibility }),
        ...(tc.envType === undefined ? {} : { envType: tc.envType }),
        ...(tc.testPerCallLimit === undefined ? {} : { perCallLimit: tc.testPerCallLimit }),
      })
      const decls = { hasParams: tc.hasParamKind ?? false, hasAuthorizer: tc.authorizer !== undefined }
      const compiled = tc.validations.map((e) => c.compile(e, [BoolType], decls))
      expect(compiled).toHaveLength(tc.validations.length)
      const out = run(compiled, tc.attributes, {
        params: tc.params,
        ...(tc.authorizer === undefined ? {} : { authorize: tc.authorizer }),
        ...(tc.namespaceObject === undefined ? {} : { namespace: tc.namespaceObject }),
      })
      if ('batchError' in out) throw new Error(`unexpected error: ${out.batchError}`)
      expect(out.results).toHaveLength(tc.results.length)
      for (const [i, want] of tc.results.entries()) {
        const got = out.results[i]
        if ('error' in want) expect(got?.error).toContain(want.error)
        else {
          expect(got?.error).toBeUndefined()
          expect(got?.value).toBe(want.value)
        }
      }
    })
  }
})

interface BudgetCase {
  readonly name: string
  readonly validations: readonly string[]
  readonly attributes: AdmissionAttributes
  readonly hasParamKind?: boolean
  readonly params?: unknown
  readonly authorizer?: Authorize
  /** -1: celconfig.RuntimeCELCostBudget. */
  readonly testRuntimeCELCostBudget: number
  readonly exceedBudget?: boolean
  readonly expectRemainingBudget?: number
  readonly exceedPerCallLimit?: boolean
}

const checkCost = 350000
const denyCheck = "!authorizer.group('').resource('endpoints').check('create').allowed()"

const budgetCases: readonly BudgetCase[] = [
  {
    name: 'expression exceed RuntimeCELCostBudget at fist expression',
    validations: ['has(object.subsets) && object.subsets.size() < 2', 'has(object.subsets)'],
    attributes: newValidAttribute(undefined, false),
    testRuntimeCELCostBudget: 1,
    exceedBudget: true,
  },
  {
    name: 'expression exceed RuntimeCELCostBudget at last expression',
    validations: ['has(object.subsets) && object.subsets.size() < 2', 'object.subsets.size() > 2'],
    attributes: newValidAttribute(undefined, false),
    hasParamKind: true,
    params: configMapParams,
    testRuntimeCELCostBudget: 5,
    exceedBudget: true,
  },
  {
    name: 'test RuntimeCELCostBudge is not exceed',
    validations: ['oldObject != null', 'object.subsets.size() > 2'],
    attributes: newValidAttribute(undefined, false),
    hasParamKind: true,
    params: configMapParams,
    testRuntimeCELCostBudget: 10,
    expectRemainingBudget: 4,
  },
  {
    name: 'test RuntimeCELCostBudge exactly covers',
    validations: ['oldObject != null', 'object.subsets.size() > 2'],
    attributes: newValidAttribute(undefined, false),
    hasParamKind: true,
    params: configMapParams,
    testRuntimeCELCostBudget: 6,
    expectRemainingBudget: 0,
  },
  {
    name: 'test RuntimeCELCostBudge exactly covers then constant',
    validations: ['oldObject != null', 'object.subsets.size() > 2', 'true'],
    attributes: newValidAttribute(undefined, false),
    hasParamKind: true,
    params: configMapParams,
    testRuntimeCELCostBudget: 6,
    expectRemainingBudget: 0,
  },
  {
    name: 'Extended library cost: authz check',
    validations: [denyCheck],
    attributes: newValidAttribute(undefined, false),
    testRuntimeCELCostBudget: checkCost + 5,
    expectRemainingBudget: 0,
    authorizer: denyAll,
  },
  ...(['', 'With StrictCostEnforcementForVAP enabled: '] as const).flatMap((prefix): BudgetCase[] => [
    {
      name: `${prefix}Extended library cost: isSorted()`,
      validations: ['[1,2,3,4].isSorted()'],
      attributes: newValidAttribute(undefined, false),
      testRuntimeCELCostBudget: 4,
      expectRemainingBudget: 0,
    },
    {
      name: `${prefix}Extended library cost: url`,
      validations: ["url('https:://kubernetes.io/').getHostname() == 'kubernetes.io'"],
      attributes: newValidAttribute(undefined, false),
      testRuntimeCELCostBudget: 4,
      expectRemainingBudget: 0,
    },
    {
      name: `${prefix}Extended library cost: split`,
      validations: ["size('abc 123 def 123'.split(' ')) > 0"],
      attributes: newValidAttribute(undefined, false),
      testRuntimeCELCostBudget: 5,
      expectRemainingBudget: 0,
    },
    {
      name: `${prefix}Extended library cost: join`,
      validations: ["size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0"],
      attributes: newValidAttribute(undefined, false),
      testRuntimeCELCostBudget: 7,
      expectRemainingBudget: 0,
    },
    {
      name: `${prefix}Extended library cost: find`,
      validations: ["size('abc 123 def 123'.find('123')) > 0"],
      attributes: newValidAttribute(undefined, false),
      testRuntimeCELCostBudget: 4,
      expectRemainingBudget: 0,
    },
    {
      name: `${prefix}Extended library cost: quantity`,
      validations: ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")'],
      attributes: newValidAttribute(undefined, false),
      testRuntimeCELCostBudget: 6,
      expectRemainingBudget: 0,
    },
  ]),
  {
    name: 'With StrictCostEnforcementForVAP enabled: expression exceed RuntimeCELCostBudget at fist expression',
    validations: [denyCheck, 'has(object.subsets)'],
    attributes: newValidAttribute(undefined, false),
    testRuntimeCELCostBudget: 35000,
    exceedBudget: true,
    authorizer: denyAll,
  },
  {
    name: 'With StrictCostEnforcementForVAP enabled: expression exceed RuntimeCELCostBudget at last expression',
    validations: [denyCheck, denyCheck],
    attributes: newValidAttribute(undefined, false),
    testRuntimeCELCostBudget: 700000,
    exceedBudget: true,
    authorizer: denyAll,
  },
  {
    name: 'With StrictCostEnforcementForVAP enabled: test RuntimeCELCostBudge is not exceed',
    validations: [denyCheck, denyCheck],
    attributes: newValidAttribute(undefined, false),
    hasParamKind: true,
    params: configMapParams,
    testRuntimeCELCostBudget: 700011,
    expectRemainingBudget: 1,
    authorizer: denyAll,
  },
  {
    name: 'With StrictCostEnforcementForVAP enabled: test RuntimeCELCostBudge exactly covers',
    validations: [denyCheck, denyCheck],
    attributes: newValidAttribute(undefined, false),
    hasParamKind: true,
    params: configMapParams,
    testRuntimeCELCostBudget: 700010,
    expectRemainingBudget: 0,
    authorizer: denyAll,
  },
  {
    name: 'With StrictCostEnforcementForVAP enabled: per call limit exceeds',
    validations: [`${denyCheck} && ${denyCheck} && ${denyCheck}`],
    attributes: newValidAttribute(undefined, false),
    hasParamKind: true,
    params: configMapParams,
    authorizer: denyAll,
    exceedPerCallLimit: true,
    testRuntimeCELCostBudget: -1,
  },
]

describe('TestRuntimeCELCostBudget', () => {
  for (const tc of budgetCases) {
    it(tc.name, () => {
      const c = compiler()
      // HasAuthorizer: true for every case; the authorizer is bound only when the case has one
      const decls = { hasParams: tc.hasParamKind ?? false, hasAuthorizer: true }
      const compiled = tc.validations.map((e) => c.compile(e, [BoolType], decls))
      expect(compiled).toHaveLength(tc.validations.length)
      const budget = tc.testRuntimeCELCostBudget < 0 ? RuntimeCELCostBudget : tc.testRuntimeCELCostBudget
      const out = run(compiled, tc.attributes, {
        params: tc.params,
        ...(tc.authorizer === undefined ? {} : { authorize: tc.authorizer }),
        budget,
      })
      if (tc.exceedPerCallLimit) {
        const results = 'batchError' in out ? [] : out.results
        expect(results.some((r) => r.error?.includes('operation cancelled: actual cost limit exceeded'))).toBe(true)
      }
      if (tc.exceedBudget) {
        expect('batchError' in out).toBe(true)
        if ('batchError' in out) {
          expect(out.batchError).toContain(
            'validation failed due to running out of cost budget, no further validation rules will be run',
          )
          expect(out.outOfBudget).toBe(true)
        }
        return
      }
      if ('batchError' in out) throw new Error(`unexpected error: ${out.batchError}`)
      if (tc.expectRemainingBudget !== undefined) expect(out.remainingBudget).toBe(tc.expectRemainingBudget)
    })
  }
})

describe('TestCompilationErrors', () => {
  const ok: CompilationResult = { expression: '' }
  const err = (detail: string): CompilationResult => ({ expression: '', error: { type: 'Invalid', detail } })
  const cases: { name: string; results: CompilationResult[]; expected: string[] }[] = [
    { name: 'no errors, empty list', results: [], expected: [] },
    { name: 'no errors, several results', results: [ok, ok, ok], expected: [] },
    {
      name: 'all errors',
      results: [err('error1'), err('error2'), err('error3')],
      expected: ['error1', 'error2', 'error3'],
    },
    {
      name: 'mixed errors and non errors',
      results: [ok, err('error1'), ok, err('error2'), ok, ok, err('error3'), ok],
      expected: ['error1', 'error2', 'error3'],
    },
  ]
  for (const tc of cases) {
    it(tc.name, () => expect(compilationErrors(tc.results)).toEqual(tc.expected))
  }
})

it('OutOfBudget is the apiserver text', () => {
  expect(OutOfBudget).toBe(
    'validation failed due to running out of cost budget, no further validation rules will be run',
  )
})

// Not in the Go tables: CreateNamespaceObject keeps the typed Namespace's pointer fields when set,
// because the unstructured converter (apimachinery runtime/converter.go isEmpty) treats a pointer
// as empty only when nil; so a terminating namespace's `deletionGracePeriodSeconds: 0` is visible.
describe('CreateNamespaceObject pointer fields', () => {
  it('deletionGracePeriodSeconds 0 and deletionTimestamp are kept; unset ones are absent', () => {
    const c = compiler()
    const decls = { hasParams: false, hasAuthorizer: false }
    const compiled = [
      'namespaceObject.metadata.deletionGracePeriodSeconds == 0',
      'has(namespaceObject.metadata.deletionTimestamp)',
      'has(namespaceObject.metadata.generation)',
    ].map((e) => c.compile(e, [BoolType], decls))
    const terminating = {
      metadata: {
        name: 'test',
        deletionGracePeriodSeconds: 0,
        deletionTimestamp: '2024-01-01T00:00:00Z',
        generation: 0,
      },
      spec: {},
      status: { phase: 'Terminating' },
    }
    const out = run(compiled, newValidAttribute(undefined, false), { namespace: terminating })
    if ('batchError' in out) throw new Error(out.batchError)
    expect(out.results.map((r) => r.value)).toEqual([true, true, false])
    expect(createNamespaceObject({ metadata: { name: 'test' } })?.metadata).toEqual({
      name: 'test',
      creationTimestamp: null,
    })
  })
})
