import { describe, expect, test } from 'vitest'
// the match conditions' compile hook, as the engine installs it (src/engine/admission-validation.ts)
import '../../../../src/engine/admission-validation.js'
import { aggregateString } from '../../../../src/kube/field.js'
import { errors, fieldTypes, type O, texts, tweak } from '../support.js'

// admissionregistration.k8s.io/v1 webhook configurations: kubernetes v1.37.2
// pkg/apis/admissionregistration/validation/validation_test.go TestValidateValidatingWebhookConfiguration,
// TestValidateMutatingWebhookConfiguration (the cases listed), and the Update tests (options from the old
// object). Go checks that the aggregated error contains expectedError ("" = no error); so does this,
// after v1 decoding and defaulting (failurePolicy, matchPolicy, timeoutSeconds, selectors, scope and
// service port are defaulted; sideEffects and admissionReviewVersions are not).

const url = { url: 'https://example.com' }
const cfg = (kind: string, hooks: O[], defaultVersions = true): O => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind,
  metadata: { name: 'config' },
  webhooks: hooks.map((h) =>
    defaultVersions && !h.admissionReviewVersions ? { ...h, admissionReviewVersions: ['v1beta1'] } : h,
  ),
})
const rule = (operations: string[] | undefined, resources = ['a']) => ({
  ...(operations ? { operations } : {}),
  apiGroups: ['a'],
  apiVersions: ['a'],
  resources,
})
const hook = (extra: O = {}): O => ({ name: 'webhook.k8s.io', clientConfig: url, sideEffects: 'None', ...extra })
const svc = (path?: string, port?: number) => ({
  service: {
    namespace: 'ns',
    name: 'n',
    ...(path !== undefined ? { path } : {}),
    ...(port !== undefined ? { port } : {}),
  },
})

const shared: [string, O[], boolean, string][] = [
  [
    'AdmissionReviewVersions are required',
    [hook({ sideEffects: 'Unknown' })],
    false,
    'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
  ],
  [
    'should fail on bad AdmissionReviewVersion value',
    [hook({ admissionReviewVersions: ['0v'] })],
    true,
    'Invalid value: "0v": a DNS-1035 label',
  ],
  ['should pass on valid AdmissionReviewVersion', [hook({ admissionReviewVersions: ['v1beta1'] })], true, ''],
  [
    'should pass on mix of accepted and unaccepted AdmissionReviewVersion',
    [hook({ admissionReviewVersions: ['v1beta1', 'invalid-version'] })],
    true,
    '',
  ],
  [
    'should fail on invalid AdmissionReviewVersion',
    [hook({ admissionReviewVersions: ['invalidVersion'] })],
    true,
    'Invalid value: ["invalidVersion"]',
  ],
  [
    'should fail on duplicate AdmissionReviewVersion',
    [hook({ admissionReviewVersions: ['v1beta1', 'v1beta1'] })],
    true,
    'Invalid value: "v1beta1": duplicate version',
  ],
  [
    'all Webhooks must have a fully qualified name',
    [hook(), hook({ name: 'k8s.io' }), hook({ name: '' })],
    true,
    'webhooks[1].name: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots, webhooks[2].name: Required value',
  ],
  [
    'Webhooks must have unique names when created',
    [hook({ sideEffects: 'Unknown' }), hook({ sideEffects: 'Unknown' })],
    true,
    'webhooks[1].name: Duplicate value: "webhook.k8s.io"',
  ],
  [
    'Operations must not be empty or nil',
    [hook({ rules: [rule([]), rule(undefined)] })],
    true,
    'webhooks[0].rules[0].operations: Required value, webhooks[0].rules[1].operations: Required value',
  ],
  ['"" is NOT a valid operation', [hook({ rules: [rule(['CREATE', ''])] })], true, 'Unsupported value: ""'],
  [
    'operation must be either create/update/delete/connect',
    [hook({ rules: [rule(['PATCH'])] })],
    true,
    'Unsupported value: "PATCH"',
  ],
  [
    'wildcard operation cannot be mixed with other strings',
    [hook({ rules: [rule(['CREATE', '*'])] })],
    true,
    "if '*' is present, must not specify other operations",
  ],
  [
    'resource "*" can co-exist with resources that have subresources',
    [hook({ rules: [rule(['CREATE'], ['*', 'a/b', 'a/*', '*/b'])] })],
    true,
    '',
  ],
  [
    'resource "*" cannot mix with resources that don\'t have subresources',
    [hook({ rules: [rule(['CREATE'], ['*', 'a'])] })],
    true,
    "if '*' is present, must not specify other resources without subresources",
  ],
  [
    'resource a/* cannot mix with a/x',
    [hook({ rules: [rule(['CREATE'], ['a/*', 'a/x'])] })],
    true,
    `webhooks[0].rules[0].resources[1]: Invalid value: "a/x": if 'a/*' is present, must not specify a/x`,
  ],
  ['resource a/* can mix with a', [hook({ rules: [rule(['CREATE'], ['a/*', 'a'])] })], true, ''],
  [
    'resource */a cannot mix with x/a',
    [hook({ rules: [rule(['CREATE'], ['*/a', 'x/a'])] })],
    true,
    `webhooks[0].rules[0].resources[1]: Invalid value: "x/a": if '*/a' is present, must not specify x/a`,
  ],
  [
    'resource */* cannot mix with other resources',
    [hook({ rules: [rule(['CREATE'], ['*/*', 'a'])] })],
    true,
    `webhooks[0].rules[0].resources: Invalid value: ["*/*","a"]: if '*/*' is present, must not specify other resources`,
  ],
  [
    'FailurePolicy can only be "Ignore" or "Fail"',
    [hook({ failurePolicy: 'other' })],
    true,
    'webhooks[0].failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore"',
  ],
  [
    'AdmissionReviewVersions are required (second)',
    [hook()],
    false,
    'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
  ],
  [
    'SideEffects are required',
    [tweak(hook(), (h) => delete h.sideEffects)],
    true,
    'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
  ],
  [
    'SideEffects can only be "None" or "NoneOnDryRun" when created',
    [hook({ sideEffects: 'other' })],
    true,
    'webhooks[0].sideEffects: Unsupported value: "other": supported values: "None", "NoneOnDryRun"',
  ],
  ['both service and URL missing', [hook({ clientConfig: {} })], true, 'exactly one of'],
  [
    'both service and URL provided',
    [hook({ clientConfig: { ...url, ...svc() } })],
    true,
    '[0].clientConfig: Required value: exactly one of url or service is required',
  ],
  [
    'blank URL',
    [hook({ clientConfig: { url: '' } })],
    true,
    '[0].clientConfig.url: Invalid value: "": host must be specified',
  ],
  ['wrong scheme', [hook({ clientConfig: { url: 'http://example.com' } })], true, 'https'],
  ['missing host', [hook({ clientConfig: { url: 'https:///fancy/webhook' } })], true, 'host must be specified'],
  [
    'fragment',
    [hook({ clientConfig: { url: 'https://example.com/#bookmark' } })],
    true,
    '"bookmark": fragments are not permitted',
  ],
  [
    'query',
    [hook({ clientConfig: { url: 'https://example.com?arg=value' } })],
    true,
    '"arg=value": query parameters are not permitted',
  ],
  [
    'user',
    [hook({ clientConfig: { url: 'https://harry.potter@example.com/' } })],
    true,
    '"harry.potter": user information is not permitted',
  ],
  ['just totally wrong', [hook({ clientConfig: { url: 'arbitrary\\\\string' } })], true, 'host must be specified'],
  [
    'path must start with slash',
    [hook({ clientConfig: svc('foo/') })],
    true,
    `clientConfig.service.path: Invalid value: "foo/": must start with a '/'`,
  ],
  ['path accepts slash', [hook({ clientConfig: svc('/') })], true, ''],
  ['path accepts no trailing slash', [hook({ clientConfig: svc('/foo') })], true, ''],
  [
    'path fails //',
    [hook({ clientConfig: svc('//') })],
    true,
    'clientConfig.service.path: Invalid value: "//": segment[0] may not be empty',
  ],
  [
    'path no empty step',
    [hook({ clientConfig: svc('/foo//bar/') })],
    true,
    'clientConfig.service.path: Invalid value: "/foo//bar/": segment[1] may not be empty',
  ],
  [
    'path no empty step 2',
    [hook({ clientConfig: svc('/foo/bar//') })],
    true,
    'clientConfig.service.path: Invalid value: "/foo/bar//": segment[2] may not be empty',
  ],
  [
    'path no non-subdomain',
    [hook({ clientConfig: svc('/apis/foo.bar/v1alpha1/--bad') })],
    true,
    'clientConfig.service.path: Invalid value: "/apis/foo.bar/v1alpha1/--bad": segment[3]: a lowercase RFC 1123 subdomain',
  ],
  [
    'invalid port 0',
    [hook({ clientConfig: svc('https://apis/foo.bar', 0) })],
    true,
    'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
  ],
  [
    'invalid port >65535',
    [hook({ clientConfig: svc('https://apis/foo.bar', 65536) })],
    true,
    'Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive',
  ],
  [
    'timeout seconds cannot be greater than 30',
    [hook({ timeoutSeconds: 31 })],
    true,
    'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
  ],
  [
    'timeout seconds cannot be smaller than 1',
    [hook({ timeoutSeconds: 0 })],
    true,
    'webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds',
  ],
  [
    'timeout seconds must be positive',
    [hook({ timeoutSeconds: -1 })],
    true,
    'webhooks[0].timeoutSeconds: Invalid value: -1: the timeout value must be between 1 and 30 seconds',
  ],
  [
    'valid timeout seconds',
    [
      hook({ timeoutSeconds: 1 }),
      hook({ name: 'webhook2.k8s.io', timeoutSeconds: 15 }),
      hook({ name: 'webhook3.k8s.io', timeoutSeconds: 30 }),
    ],
    true,
    '',
  ],
  [
    'single match condition must have a name',
    [hook({ matchConditions: [{ expression: 'true' }] })],
    true,
    'webhooks[0].matchConditions[0].name: Required value',
  ],
  [
    'all match conditions must have a name',
    [
      hook({ matchConditions: [{ expression: 'true' }, { expression: 'true' }] }),
      hook({ name: 'webhook.k8s.io2', matchConditions: [{ expression: 'true' }] }),
    ],
    true,
    'webhooks[0].matchConditions[0].name: Required value, webhooks[0].matchConditions[1].name: Required value, webhooks[1].matchConditions[0].name: Required value',
  ],
  [
    'single match condition must have a qualified name',
    [hook({ matchConditions: [{ name: '-hello', expression: 'true' }] })],
    true,
    `webhooks[0].matchConditions[0].name: Invalid value: "-hello": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName'`,
  ],
  [
    'expression is required',
    [hook({ matchConditions: [{ name: 'webhook.k8s.io' }] })],
    true,
    'webhooks[0].matchConditions[0].expression: Required value',
  ],
  [
    'expression is required to have some value',
    [hook({ matchConditions: [{ name: 'webhook.k8s.io', expression: '' }] })],
    true,
    'webhooks[0].matchConditions[0].expression: Required value',
  ],
  [
    'invalid expression',
    [hook({ matchConditions: [{ name: 'webhook.k8s.io', expression: 'object.x in [1, 2, ' }] })],
    true,
    // Go: "… Syntax error: missing ']' at '<EOF>'"; kelp's CEL parser recovers differently
    // (docs/known-differences.md): the text is compared up to the parser's message
    `webhooks[0].matchConditions[0].expression: Invalid value: "object.x in [1, 2,": compilation failed: ERROR: <input>:1:19: Syntax error: `,
  ],
  [
    'unique names same hook',
    [
      hook({
        matchConditions: [
          { name: 'webhook.k8s.io', expression: 'true' },
          { name: 'webhook.k8s.io', expression: 'true' },
        ],
      }),
    ],
    true,
    'matchConditions[1].name: Duplicate value: "webhook.k8s.io"',
  ],
  [
    'repeat names allowed across different hooks',
    [
      hook({ matchConditions: [{ name: 'webhook.k8s.io', expression: 'true' }] }),
      hook({ name: 'webhook2.k8s.io', matchConditions: [{ name: 'webhook.k8s.io', expression: 'true' }] }),
    ],
    true,
    '',
  ],
  [
    'must evaluate to bool',
    [hook({ matchConditions: [{ name: 'webhook.k8s.io', expression: '6' }] })],
    true,
    'webhooks[0].matchConditions[0].expression: Invalid value: "6": must evaluate to bool',
  ],
  [
    'max of 64 match conditions',
    [hook({ matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `test${i}`, expression: 'true' })) })],
    true,
    'webhooks[0].matchConditions: Too many: 65: must have at most 64 items',
  ],
]

for (const [fn, kind] of [
  ['TestValidateValidatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
  ['TestValidateMutatingWebhookConfiguration', 'MutatingWebhookConfiguration'],
] as const) {
  describe(`validation_test.go ${fn}`, () => {
    for (const [name, hooks, defaultVersions, expected] of shared)
      test(name, () => {
        const errs = errors(cfg(kind, hooks, defaultVersions))
        if (expected === '') expect(errs.map((e) => `${e.field} ${e.type}`)).toEqual([])
        else expect(aggregateString(errs)).toContain(expected)
      })
    test('names ending in .static.k8s.io are reserved (1.37, ManifestBasedAdmissionControlConfig)', () => {
      const o = tweak(cfg(kind, [hook()]), (x) => (x.metadata.name = 'a.static.k8s.io'))
      expect(texts(o)).toEqual([
        'metadata.name: Invalid value: "a.static.k8s.io": names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API',
      ])
      expect(fieldTypes(o, undefined, 36)).toEqual([])
    })
  })
}

describe('validation_test.go TestValidateMutatingWebhookConfiguration (reinvocationPolicy)', () => {
  test('reinvocationPolicy can only be IfNeeded or Never', () =>
    expect(texts(cfg('MutatingWebhookConfiguration', [hook({ reinvocationPolicy: 'other' })]))).toEqual([
      'webhooks[0].reinvocationPolicy: Unsupported value: "other": supported values: "IfNeeded", "Never"',
    ]))
})

for (const [fn, K] of [
  ['TestValidateValidatingWebhookConfigurationUpdate', 'ValidatingWebhookConfiguration'],
  ['TestValidateMutatingWebhookConfigurationUpdate', 'MutatingWebhookConfiguration'],
] as const)
  describe(`validation_test.go ${fn}`, () => {
    const rv = (o: O) => tweak(o, (x) => (x.metadata.resourceVersion = '1'))
    const cases: [string, O[], O[], string][] = [
      [
        'should pass on valid new AdmissionReviewVersion',
        [hook({ admissionReviewVersions: ['v1beta1'] })],
        [hook()],
        '',
      ],
      [
        'should pass on invalid AdmissionReviewVersion with invalid previous versions',
        [hook({ admissionReviewVersions: ['invalid-v1', 'invalid-v2'] })],
        [hook({ admissionReviewVersions: ['invalid-v0'] })],
        '',
      ],
      [
        'should fail on invalid AdmissionReviewVersion with valid previous versions',
        [hook({ admissionReviewVersions: ['invalid-v1'] })],
        [hook({ admissionReviewVersions: ['v1beta1', 'invalid-v1'] })],
        'Invalid value: ["invalid-v1"]',
      ],
      [
        'should fail on invalid AdmissionReviewVersion with missing previous versions',
        [hook({ admissionReviewVersions: ['invalid-v1'] })],
        [hook()],
        'Invalid value: ["invalid-v1"]',
      ],
      [
        'Webhooks must have unique names when old config has unique names',
        [hook({ sideEffects: 'Unknown' }), hook({ sideEffects: 'Unknown' })],
        [hook({ sideEffects: 'Unknown' })],
        'webhooks[1].name: Duplicate value: "webhook.k8s.io"',
      ],
      [
        'Webhooks can have duplicate names when old config has duplicate names',
        [hook({ sideEffects: 'Unknown' }), hook({ sideEffects: 'Unknown' })],
        [hook({ sideEffects: 'Unknown' }), hook({ sideEffects: 'Unknown' })],
        '',
      ],
      [
        'Webhooks must compile CEL expressions with StoredExpression environment if already in use',
        [hook({ matchConditions: [{ name: 'checkStorage', expression: 'test() == true' }] })],
        [hook({ matchConditions: [{ name: 'checkStorage', expression: 'test() == true' }] })],
        '',
      ],
      [
        'Webhooks must compile CEL expressions with NewExpression environment if not already in use',
        [hook({ matchConditions: [{ name: 'checkStorage', expression: 'test() == true' }] })],
        [hook({ matchConditions: [{ name: 'checkStorage', expression: 'true' }] })],
        "undeclared reference to 'test'",
      ],
    ]
    for (const [name, n, old, expected] of cases)
      test(name, () => {
        const errs = errors(rv(cfg(K, n)), rv(cfg(K, old)))
        if (expected === '') expect(errs.map((e) => `${e.field} ${e.type}`)).toEqual([])
        else expect(aggregateString(errs)).toContain(expected)
      })
  })
