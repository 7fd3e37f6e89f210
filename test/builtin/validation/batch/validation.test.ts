import { describe, expect, it } from 'vitest'
import {
  CONTROLLER_UID_LABEL,
  cronScheduleError,
  validateCronJobCreate,
  validateCronJobUpdate,
  validateIndexesFormat,
  validateJobCreate,
  validateScheduleFormat,
  validateTimeZone,
} from '../../../../src/builtin/validation/batch/validation.js'
import { PLACEHOLDER_UID } from '../../../../src/kube/system-fields.js'
import '../../../../src/builtin/validation/core/pod.js'
import { errorString, FieldPath } from '../../../../src/kube/field.js'
import { errors, type O, texts, tweak } from '../support.js'

// kubernetes v1.37.2 pkg/apis/batch/validation/validation_test.go. The Go tables call ValidateJobCreate /
// ValidateCronJobCreate on internal objects that are neither defaulted nor prepared by the strategy: the
// "table" tests here call the same functions (validateJobCreate, validateCronJobCreate / validateCronJobUpdate) on the v1 JSON of those
// objects as written (the pod spec as podtest.MakePodSpec fills it); the "strategy" tests go through the
// registry (decode, defaults, PrepareForCreate's generated selector) as the apiserver does.

const container = (name: string): O => ({
  name,
  image: 'image',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File',
  terminationMessagePath: '/dev/termination-log',
})
/** podtest.MakePodSpec(SetRestartPolicy(rp)) */
const podSpec = (rp = 'OnFailure', inits = false): O => ({
  containers: [container('ctr')],
  ...(inits ? { initContainers: [container('def')] } : {}),
  dnsPolicy: 'ClusterFirst',
  restartPolicy: rp,
  terminationGracePeriodSeconds: 30,
})
const generatedSelector = (): O => ({
  matchLabels: {
    [CONTROLLER_UID_LABEL]: '1a2b3c',
    'controller-uid': '1a2b3c',
    'batch.kubernetes.io/job-name': 'myjob',
    'job-name': 'myjob',
  },
})
const meta = (): O => ({ name: 'myjob', namespace: 'default', uid: '1a2b3c' })
/** Selector validGeneratedSelector, template validPodTemplateSpecForGenerated (restart policy rp). */
const genJob = (spec: O = {}, rp = 'OnFailure'): O => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: meta(),
  spec: {
    selector: generatedSelector(),
    template: { metadata: { labels: generatedSelector().matchLabels }, spec: podSpec(rp, true) },
    ...spec,
  },
})
const never = (spec: O = {}) => genJob(spec, 'Never')
const manualJob = (labels: O, rp = 'OnFailure', spec: O = {}): O => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: meta(),
  spec: {
    selector: { matchLabels: { a: 'b' } },
    manualSelector: true,
    template: { metadata: { labels }, spec: podSpec(rp) },
    ...spec,
  },
})
const table = (job: O) => validateJobCreate(job, 37)

describe('TestValidateJobCreate successCases (batch/validation/validation_test.go)', () => {
  const cases: [string, O][] = [
    [
      'valid success policy',
      never({
        completionMode: 'Indexed',
        completions: 10,
        successPolicy: { rules: [{ succeededCount: 1, succeededIndexes: '0,2,4' }, { succeededIndexes: '1,3,5-9' }] },
      }),
    ],
    [
      'valid pod failure policy with negative exitCodes',
      never({
        podFailurePolicy: {
          rules: [
            { action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [-1073741819, -1073741676, -1073741510] } },
          ],
        },
      }),
    ],
    [
      'valid pod failure policy',
      never({
        podFailurePolicy: {
          rules: [
            { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
            { action: 'FailJob', onPodConditions: [{ type: 'CustomConditionType', status: 'False' }] },
            { action: 'Count', onExitCodes: { containerName: 'ctr', operator: 'In', values: [1, 2, 3] } },
            { action: 'Ignore', onExitCodes: { containerName: 'def', operator: 'In', values: [4] } },
            { action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [5, 6, 7] } },
          ],
        },
      }),
    ],
    [
      'valid pod failure policy with FailIndex',
      never({
        completionMode: 'Indexed',
        completions: 2,
        backoffLimitPerIndex: 1,
        podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [10] } }] },
      }),
    ],
    ['valid manual selector', manualJob({ a: 'b' })],
    ['valid generated selector', genJob()],
    ['valid pod replacement', genJob({ podReplacementPolicy: 'TerminatingOrFailed' })],
    ['valid pod replacement with failed', genJob({ podReplacementPolicy: 'Failed' })],
    [
      'valid hostnet',
      tweak(genJob(), (j) => {
        j.spec.template.spec.hostNetwork = true
        j.spec.template.spec.containers[0].ports = [{ containerPort: 12345, protocol: 'TCP' }]
      }),
    ],
    ['valid NonIndexed completion mode', genJob({ completionMode: 'NonIndexed' })],
    ['valid Indexed completion mode', genJob({ completionMode: 'Indexed', completions: 2, parallelism: 100000 })],
    [
      'valid parallelism and maxFailedIndexes for high completions when backoffLimitPerIndex is used',
      genJob({
        completionMode: 'Indexed',
        completions: 100_000,
        parallelism: 100_000,
        maxFailedIndexes: 100_000,
        backoffLimitPerIndex: 1,
      }),
    ],
    [
      'valid parallelism and maxFailedIndexes for unlimited completions when backoffLimitPerIndex is used',
      genJob({
        completionMode: 'Indexed',
        completions: 1_000_000_000,
        parallelism: 10_000,
        maxFailedIndexes: 10_000,
        backoffLimitPerIndex: 1,
      }),
    ],
    ['valid managedBy field', genJob({ managedBy: 'example.com/foo' })],
  ]
  for (const [name, job] of cases) it(name, () => expect(table(job).map(errorString)).toEqual([]))
  it('do not allow new batch labels (RequirePrefixedLabels false)', () => {
    const j = genJob()
    j.spec.selector = { matchLabels: { 'controller-uid': '1a2b3c', 'job-name': 'myjob' } }
    j.spec.template.metadata.labels = { 'controller-uid': '1a2b3c', 'job-name': 'myjob' }
    expect(validateJobCreate(j, 37, false)).toEqual([])
  })
})

describe('TestValidateJobCreate errorCases (the first error: field and text)', () => {
  const ruleFailJob = (onExitCodes: O) => ({ podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes }] } })
  const cases: [string, O][] = [
    ['spec.managedBy: Too long: may not be more than 63 bytes', genJob({ managedBy: `example.com/${'x'.repeat(60)}` })],
    [
      'spec.managedBy: Invalid value: "invalid custom controller name": must be a domain-prefixed path (such as "acme.io/foo")',
      genJob({ managedBy: 'invalid custom controller name' }),
    ],
    [
      'spec.successPolicy: Invalid value: {"Rules":[]}: requires indexed completion mode',
      never({ successPolicy: { rules: [] } }),
    ],
    [
      'spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified',
      never({ completionMode: 'Indexed', completions: 5, successPolicy: {} }),
    ],
    [
      'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified',
      never({ completionMode: 'Indexed', completions: 5, successPolicy: { rules: [{}] } }),
    ],
    [
      'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "invalid-format": error parsing succeededIndexes: cannot convert string to integer for index: "invalid"',
      never({
        completionMode: 'Indexed',
        completions: 5,
        successPolicy: { rules: [{ succeededIndexes: 'invalid-format' }] },
      }),
    ],
    [
      'spec.successPolicy.rules[0].succeededIndexes: Too long: may not be more than 65536 bytes',
      never({
        completionMode: 'Indexed',
        completions: 5,
        successPolicy: { rules: [{ succeededIndexes: '1'.repeat(65537) }] },
      }),
    ],
    [
      'spec.successPolicy.rules[0].succeededCount: Invalid value: -1: must be greater than or equal to 0',
      never({ completionMode: 'Indexed', completions: 5, successPolicy: { rules: [{ succeededCount: -1 }] } }),
    ],
    [
      'spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)',
      never({ completionMode: 'Indexed', completions: 5, successPolicy: { rules: [{ succeededCount: 6 }] } }),
    ],
    [
      'spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of indexes in the specified succeededIndexes field)',
      never({
        completionMode: 'Indexed',
        completions: 5,
        successPolicy: { rules: [{ succeededCount: 4, succeededIndexes: '0-2' }] },
      }),
    ],
    [
      'spec.successPolicy.rules: Too many: 21: must have at most 20 items',
      never({
        completionMode: 'Indexed',
        completions: 5,
        successPolicy: { rules: Array.from({ length: 21 }, () => ({ succeededCount: 5 })) },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      never({ podFailurePolicy: { rules: [{ action: 'FailJob' }] } }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 11',
      never(ruleFailJob({ operator: 'In', values: [11, 11] })),
    ],
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 256: must have at most 255 items',
      never(ruleFailJob({ operator: 'In', values: Array.from({ length: 256 }, (_, i) => i) })),
    ],
    [
      'spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items',
      never({
        podFailurePolicy: {
          rules: Array.from({ length: 21 }, (_, i) => ({
            action: 'FailJob',
            onExitCodes: { operator: 'In', values: [i + 1] },
          })),
        },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onPodConditions: Too many: 21: must have at most 20 items',
      never({
        podFailurePolicy: {
          rules: [
            {
              action: 'FailJob',
              onPodConditions: Array.from({ length: 21 }, (_, i) => ({ type: `CustomType_${i}`, status: 'True' })),
            },
          ],
        },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 13',
      never(ruleFailJob({ operator: 'In', values: [12, 13, 13, 13] })),
    ],
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [19,11]: must be ordered',
      never(ruleFailJob({ operator: 'In', values: [19, 11] })),
    ],
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []: at least one value is required',
      never(ruleFailJob({ operator: 'In', values: [] })),
    ],
    [
      'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
      never({ podFailurePolicy: { rules: [{ action: '', onExitCodes: { operator: 'In', values: [1, 2, 3] } }] } }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: ["In" "NotIn"]',
      never(ruleFailJob({ operator: '', values: [1, 2, 3] })),
    ],
    [
      'spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      never({
        podFailurePolicy: {
          rules: [
            {
              action: 'FailJob',
              onExitCodes: { containerName: 'ctr', operator: 'In', values: [1, 2, 3] },
              onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }],
            },
          ],
        },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
      never({
        podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1, 0, 2] } }] },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[1].onExitCodes.containerName: Invalid value: "xyz": must be one of the container or initContainer names in the pod template',
      never({
        podFailurePolicy: {
          rules: [
            { action: 'Ignore', onExitCodes: { containerName: 'ctr', operator: 'In', values: [1, 2, 3] } },
            { action: 'FailJob', onExitCodes: { containerName: 'xyz', operator: 'In', values: [5, 6, 7] } },
          ],
        },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "UnknownAction": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      never({
        podFailurePolicy: {
          rules: [
            { action: 'UnknownAction', onExitCodes: { containerName: 'ctr', operator: 'In', values: [1, 2, 3] } },
          ],
        },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "UnknownOperator": supported values: "In", "NotIn"',
      never({
        podFailurePolicy: {
          rules: [{ action: 'Ignore', onExitCodes: { operator: 'UnknownOperator', values: [1, 2, 3] } }],
        },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: valid values: ["False" "True" "Unknown"]',
      never({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "UnknownStatus": supported values: "False", "True", "Unknown"',
      never({
        podFailurePolicy: {
          rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'UnknownStatus' }] }],
        },
      }),
    ],
    [
      'spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: "": name part must be non-empty',
      never({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ status: 'True' }] }] } }),
    ],
    [
      "spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"Invalid Condition Type\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      never({
        podFailurePolicy: {
          rules: [{ action: 'Ignore', onPodConditions: [{ type: 'Invalid Condition Type', status: 'True' }] }],
        },
      }),
    ],
    [
      'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
      never({
        podReplacementPolicy: 'TerminatingOrFailed',
        podFailurePolicy: {
          rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
        },
      }),
    ],
    [
      'spec.podReplacementPolicy: Unsupported value: "": supported values: "Failed", "TerminatingOrFailed"',
      never({ podReplacementPolicy: '' }),
    ],
    [
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
      tweak(genJob({ podFailurePolicy: { rules: [] } }), (j) => delete j.spec.template.spec.initContainers),
    ],
    ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0', genJob({ parallelism: -1 })],
    ['spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0', genJob({ backoffLimit: -1 })],
    [
      'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
      genJob({ backoffLimitPerIndex: 1 }),
    ],
    [
      'spec.backoffLimitPerIndex: Invalid value: -1: must be greater than or equal to 0',
      genJob({ backoffLimitPerIndex: -1, completionMode: 'Indexed' }),
    ],
    [
      'spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions',
      genJob({ completions: 10, maxFailedIndexes: 11, backoffLimitPerIndex: 1, completionMode: 'Indexed' }),
    ],
    [
      'spec.maxFailedIndexes: Required value: must be specified when completions is above 100000',
      genJob({ completions: 100_001, backoffLimitPerIndex: 1, completionMode: 'Indexed' }),
    ],
    [
      'spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
      genJob({
        completions: 100_001,
        parallelism: 50_000,
        backoffLimitPerIndex: 1,
        maxFailedIndexes: 1,
        completionMode: 'Indexed',
      }),
    ],
    [
      'spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000',
      genJob({ completions: 100_001, backoffLimitPerIndex: 1, maxFailedIndexes: 100_001, completionMode: 'Indexed' }),
    ],
    [
      'spec.maxFailedIndexes: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
      genJob({ completions: 100_001, backoffLimitPerIndex: 1, maxFailedIndexes: 50_000, completionMode: 'Indexed' }),
    ],
    [
      'spec.maxFailedIndexes: Invalid value: -1: must be greater than or equal to 0',
      genJob({ backoffLimitPerIndex: 1, maxFailedIndexes: -1, completionMode: 'Indexed' }),
    ],
    [
      'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
      genJob({ maxFailedIndexes: 1, completionMode: 'Indexed' }),
    ],
    ['spec.completions: Invalid value: -1: must be greater than or equal to 0', genJob({ completions: -1 })],
    [
      'spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      genJob({ activeDeadlineSeconds: -1 }),
    ],
    ['spec.selector: Required value', tweak(genJob(), (j) => delete j.spec.selector)],
    [
      'spec.template.metadata.labels: Invalid value: {"y":"z"}: `selector` does not match template `labels`',
      manualJob({ y: 'z' }),
    ],
    [
      'spec.template.metadata.labels: Invalid value: {"controller-uid":"4d5e6f"}: `selector` does not match template `labels`',
      manualJob({ 'controller-uid': '4d5e6f' }),
    ],
    ['spec.template.spec.restartPolicy: Required value', manualJob({ a: 'b' }, 'Always')],
    ['spec.template.spec.restartPolicy: Unsupported value', manualJob({ a: 'b' }, 'Invalid')],
    [
      'spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0',
      genJob({ ttlSecondsAfterFinished: -1 }),
    ],
    ['spec.completions: Required value: when completion mode is Indexed', genJob({ completionMode: 'Indexed' })],
    [
      'spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed',
      genJob({ completionMode: 'Indexed', completions: 2, parallelism: 100001 }),
    ],
    [
      "spec.template.metadata.labels[controller-uid]: Required value: must be '1a2b3c'",
      tweak(genJob(), (j) => delete j.spec.template.metadata.labels['controller-uid']),
    ],
    ['metadata.uid: Required value', tweak(genJob(), (j) => delete j.metadata.uid)],
    [
      'spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` not auto-generated',
      tweak(genJob(), (j) => {
        j.spec.selector = { matchLabels: { a: 'b' } }
        j.spec.template.metadata.labels.a = 'b'
      }),
    ],
    [
      "spec.template.metadata.labels[batch.kubernetes.io/controller-uid]: Required value: must be '1a2b3c'",
      tweak(genJob(), (j) => delete j.spec.template.metadata.labels[CONTROLLER_UID_LABEL]),
    ],
  ]
  for (const [want, job] of cases) {
    it(want, () => {
      const errs = table(job).map(errorString)
      expect(errs.length).toBeGreaterThan(0)
      expect(errs[0]).toContain(want)
    })
  }
})

describe('Job through the strategy (decode, defaults, PrepareForCreate)', () => {
  const job = (spec: O = {}): O => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'perl' }] } }, ...spec },
  })
  it('a plain Job is valid: the selector and labels are generated', () => expect(texts(job())).toEqual([]))
  it('restartPolicy defaulted to Always is Required', () => {
    const j = tweak(job(), (x) => delete x.spec.template.spec.restartPolicy)
    expect(texts(j)).toEqual(['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'])
  })
  it('a user selector without manualSelector is not auto-generated', () => {
    const t = texts(job({ selector: { matchLabels: { a: 'b' } } }))
    expect(t).toContain(
      `spec.selector: Invalid value: {"matchLabels":{"a":"b","${CONTROLLER_UID_LABEL}":"${PLACEHOLDER_UID}"}}: \`selector\` not auto-generated`,
    )
  })
  // the real apiserver (kube-apiserver 1.37.2, kubectl apply --dry-run=server of argo-cd's
  // gitops-engine/pkg/health/testdata/job-succeeded.yaml, a Job dumped from a cluster with its uid and generated
  // labels) answered `The Job "succeed" is invalid: * spec.selector: … \`selector\` not auto-generated
  // * spec.template.metadata.labels[controller-uid]: … must be '<its fresh uid>'`: the create handler replaces the
  // manifest's uid before PrepareForCreate generates the selector
  it("a manifest's own uid and labels of it are not the uid the create gives: not auto-generated", () => {
    const u = '95052288-f609-11e8-aa53-42010a80021b'
    const labels = { 'controller-uid': u, 'job-name': 'pi' }
    const j = tweak(job({ selector: { matchLabels: { 'controller-uid': u } } }), (x) => {
      x.metadata.uid = u
      x.spec.template.metadata = { labels }
    })
    expect(
      texts(j)
        .map((t) => t.replace(/: Invalid value: .*: /, ': '))
        .sort(),
    ).toEqual([
      'spec.selector: `selector` not auto-generated',
      `spec.template.metadata.labels[controller-uid]: must be '${PLACEHOLDER_UID}'`,
    ])
  })
  it('indexed Job whose last pod hostname is not a DNS label', () => {
    const j = tweak(job({ completionMode: 'Indexed', completions: 10 }), (x) => (x.metadata.name = 'a'.repeat(62)))
    expect(texts(j)).toContain(
      `metadata.name: Invalid value: "${'a'.repeat(62)}": will not able to create pod with invalid DNS label: ${'a'.repeat(62)}-9`,
    )
  })
})

describe('TestValidateJobUpdate (template and fields immutable)', () => {
  const job = (): O => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', uid: 'u1', resourceVersion: '1' },
    spec: {
      completions: 1,
      selector: { matchLabels: { [CONTROLLER_UID_LABEL]: 'u1' } },
      template: {
        metadata: {
          labels: {
            [CONTROLLER_UID_LABEL]: 'u1',
            'controller-uid': 'u1',
            'job-name': 'pi',
            'batch.kubernetes.io/job-name': 'pi',
          },
        },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'perl' }] },
      },
    },
  })
  it('mutable fields (parallelism, activeDeadlineSeconds, suspend) may change', () => {
    expect(
      texts(
        tweak(job(), (j) => Object.assign(j.spec, { parallelism: 3, activeDeadlineSeconds: 5, suspend: true })),
        job(),
      ),
    ).toEqual([])
  })
  it('completions is immutable for NonIndexed', () => {
    expect(
      errors(
        tweak(job(), (j) => (j.spec.completions = 2)),
        job(),
      ).map((e) => `${e.field} ${e.type}`),
    ).toEqual(['spec.completions FieldValueInvalid'])
  })
  it('the template is immutable unless suspended', () => {
    const f = errors(
      tweak(job(), (j) => (j.spec.template.spec.containers[0].image = 'x')),
      job(),
    )
    expect(f.map((e) => `${e.field} ${e.detail}`)).toEqual(['spec.template field is immutable'])
  })
  it('a suspended Job that never started may change its scheduling directives and resources', () => {
    const old = tweak(job(), (j) => (j.spec.suspend = true))
    const n = tweak(old, (j) => {
      j.spec.template.spec.nodeSelector = { a: 'b' }
      j.spec.template.spec.containers[0].resources = { limits: { cpu: '1' } }
    })
    expect(texts(n, old)).toEqual([])
    const m = tweak(old, (j) => (j.spec.template.spec.containers[0].image = 'x'))
    expect(errors(m, old).map((e) => e.field)).toEqual(['spec.template.spec'])
  })
  it('indexed completions may change in tandem with parallelism', () => {
    const old = tweak(job(), (j) =>
      Object.assign(j.spec, { completionMode: 'Indexed', completions: 2, parallelism: 2 }),
    )
    expect(
      texts(
        tweak(old, (j) => Object.assign(j.spec, { completions: 3, parallelism: 3 })),
        old,
      ),
    ).toEqual([])
    expect(
      texts(
        tweak(old, (j) => (j.spec.completions = 3)),
        old,
      ),
    ).toEqual(['spec.completions: Invalid value: 3: can only be modified in tandem with spec.parallelism'])
  })
  it('selector, completionMode, podFailurePolicy, backoffLimitPerIndex, managedBy are immutable', () => {
    const f = errors(
      tweak(job(), (j) => {
        j.spec.selector.matchLabels.x = 'y'
        j.spec.template.metadata.labels.x = 'y'
      }),
      job(),
    ).map((e) => `${e.field} ${e.detail}`)
    expect(f).toEqual(['spec.selector field is immutable', 'spec.template field is immutable'])
    expect(
      errors(
        tweak(job(), (j) => (j.spec.managedBy = 'a.io/b')),
        job(),
      ).map((e) => e.field),
    ).toEqual(['spec.managedBy'])
  })
})

const cronJob = (spec: O = {}, name = 'mycronjob'): O => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name, namespace: 'default', uid: '1a2b3c', resourceVersion: '1' },
  spec: {
    schedule: '* * * * ?',
    concurrencyPolicy: 'Allow',
    jobTemplate: { spec: { template: { spec: podSpec('OnFailure') } } },
    ...spec,
  },
})
const cron = (cj: O, old?: O) =>
  (old ? validateCronJobUpdate(cj, old, 37) : validateCronJobCreate(cj, 37)).map(errorString)
const jt = (spec: O) => ({ jobTemplate: { spec: { template: { spec: podSpec('OnFailure') }, ...spec } } })

describe('TestValidateCronJob (batch/validation/validation_test.go)', () => {
  it('successCases', () => {
    expect(cron(cronJob())).toEqual([])
    expect(cron(tweak(cronJob(), (c) => (c.spec.jobTemplate.spec.template.spec.hostNetwork = true)))).toEqual([])
    expect(cron(cronJob({ schedule: '@hourly' }))).toEqual([])
    expect(cron(cronJob({ timeZone: 'America/New_York' }))).toEqual([])
  })
  const cases: [string, O][] = [
    ['spec.schedule: Invalid value', cronJob({ schedule: 'error' })],
    ['spec.schedule: Required value', cronJob({ schedule: '' })],
    ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string', cronJob({ timeZone: '' })],
    [
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      cronJob({ timeZone: 'Local' }),
    ],
    [
      'spec.timeZone: Invalid value: " Continent/Zone": unknown time zone  Continent/Zone',
      cronJob({ timeZone: ' Continent/Zone' }),
    ],
    [
      'spec.timeZone: Invalid value: "Continent/InvalidZone": unknown time zone Continent/InvalidZone',
      cronJob({ timeZone: 'Continent/InvalidZone' }),
    ],
    ['spec.timeZone: Invalid value: " ": unknown time zone  ', cronJob({ timeZone: ' ' })],
    [
      'spec.timeZone: Invalid value: "Continent/Zone ": unknown time zone Continent/Zone ',
      cronJob({ timeZone: 'Continent/Zone ' }),
    ],
    [
      'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      cronJob({ startingDeadlineSeconds: -1 }),
    ],
    [
      'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      cronJob({ successfulJobsHistoryLimit: -1 }),
    ],
    [
      'spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      cronJob({ failedJobsHistoryLimit: -1 }),
    ],
    ['spec.concurrencyPolicy: Required value', cronJob({ concurrencyPolicy: '' })],
    [
      'spec.jobTemplate.spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      cronJob(jt({ parallelism: -1 })),
    ],
    [
      'spec.jobTemplate.spec.completions: Invalid value: -1: must be greater than or equal to 0',
      cronJob(jt({ completions: -1 })),
    ],
    [
      'spec.jobTemplate.spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      cronJob(jt({ activeDeadlineSeconds: -1 })),
    ],
    [
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      cronJob(jt({ selector: { matchLabels: { a: 'b' } } })),
    ],
    ['metadata.name: Invalid value', cronJob({}, `10000000002000000000300000000040000000005000000000123`)],
    ['spec.jobTemplate.spec.manualSelector: Unsupported value', cronJob(jt({ manualSelector: true }))],
    [
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value',
      tweak(cronJob(), (c) => (c.spec.jobTemplate.spec.template.spec.restartPolicy = 'Always')),
    ],
    [
      'spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value',
      tweak(cronJob(), (c) => (c.spec.jobTemplate.spec.template.spec.restartPolicy = 'Invalid')),
    ],
    [
      'spec.jobTemplate.spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0',
      cronJob(jt({ ttlSecondsAfterFinished: -1 })),
    ],
  ]
  for (const [want, cj] of cases) {
    it(want, () => {
      const errs = cron(cj)
      expect(errs.length).toBeGreaterThan(0)
      expect(errs[0]).toContain(want)
    })
  }
  it('the 52-character name limit is not applied on update', () => {
    const c = cronJob({}, 'a'.repeat(53))
    expect(cron(c, c)).toEqual([])
  })
})

describe('TestValidateCronJobScheduleTZ', () => {
  const tz = cronJob({ schedule: 'TZ=UTC 0 * * * *' })
  const plain = cronJob({ schedule: '0 * * * *' })
  it('create with TZ in schedule fails', () =>
    expect(cron(tz)).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ]))
  it('update removing TZ works', () => expect(cron(plain, tz)).toEqual([]))
  it('update not modifying TZ works', () => expect(cron(tz, tz)).toEqual([]))
  it('update not modifying TZ but adding .spec.timeZone fails', () =>
    expect(
      cron(
        tweak(tz, (c) => (c.spec.timeZone = 'UTC')),
        tz,
      )[0],
    ).toContain('cannot use both timeZone field and TZ or CRON_TZ in schedule'))
  it('update adding TZ fails', () => expect(cron(tz, plain)[0]).toContain('cannot use TZ or CRON_TZ in schedule'))
})

describe('TestValidateScheduleFormatPanicRecovery / NormalCases', () => {
  const p = FieldPath.of('spec', 'schedule')
  for (const s of ['TZ=0', 'TZ=', 'CRON_TZ=UTC', 'TZ=Invalid/Timezone']) {
    it(`${s}: invalid schedule format`, () => {
      const errs = validateScheduleFormat(s, false, false, p)
      expect(errs[0]?.type).toBe('FieldValueInvalid')
      expect(errs[0]?.detail).toContain('invalid schedule format')
    })
  }
  it('normal cases', () => {
    expect(validateScheduleFormat('0 0 * * *', false, false, p)).toEqual([])
    expect(validateScheduleFormat('0 0 * * *', false, true, p)).toEqual([])
    expect(validateScheduleFormat('TZ=UTC 0 0 * * *', false, false, p)[0]?.detail).toContain(
      'cannot use TZ or CRON_TZ in schedule',
    )
    expect(validateScheduleFormat('TZ=UTC 0 0 * * *', true, false, p)).toEqual([])
    expect(validateScheduleFormat('TZ=UTC 0 0 * * *', true, true, p)[0]?.detail).toBe(
      'cannot use both timeZone field and TZ or CRON_TZ in schedule',
    )
  })
})

describe('robfig/cron v3 ParseStandard error texts (parser.go)', () => {
  const cases: [string, string | undefined][] = [
    ['* * * * *', undefined],
    ['*/5 1-3,7 L * *', 'failed to parse int from L: strconv.Atoi: parsing "L": invalid syntax'],
    ['0 0 * JAN-mar SUN', undefined],
    ['error', 'expected exactly 5 fields, found 1: [error]'],
    ['* * * *  * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-2 * * * *', 'beginning of range (5) beyond end of range (2): 5-2'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/1/2 * * * *', 'too many slashes: */1/2'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['-1 * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    [
      '99999999999999999999 * * * *',
      'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range',
    ],
    ['@every 1h30m', undefined],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['@every 5x', 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
    ['@every ', 'failed to parse duration @every : time: invalid duration ""'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['', 'empty spec string'],
    ['TZ=Nowhere/City 0 * * * *', 'provided bad location Nowhere/City: unknown time zone Nowhere/City'],
    ['CRON_TZ=Europe/Paris 0 * * * *', undefined],
  ]
  for (const [s, want] of cases) it(JSON.stringify(s), () => expect(cronScheduleError(s)).toBe(want))
})

describe('TestTimeZones (the zones of go1.19)', () => {
  const zones: string[] = [
    'Africa/Abidjan',
    'Africa/Accra',
    'Africa/Addis_Ababa',
    'Africa/Algiers',
    'Africa/Asmara',
    'Africa/Asmera',
    'Africa/Bamako',
    'Africa/Bangui',
    'Africa/Banjul',
    'Africa/Bissau',
    'Africa/Blantyre',
    'Africa/Brazzaville',
    'Africa/Bujumbura',
    'Africa/Cairo',
    'Africa/Casablanca',
    'Africa/Ceuta',
    'Africa/Conakry',
    'Africa/Dakar',
    'Africa/Dar_es_Salaam',
    'Africa/Djibouti',
    'Africa/Douala',
    'Africa/El_Aaiun',
    'Africa/Freetown',
    'Africa/Gaborone',
    'Africa/Harare',
    'Africa/Johannesburg',
    'Africa/Juba',
    'Africa/Kampala',
    'Africa/Khartoum',
    'Africa/Kigali',
    'Africa/Kinshasa',
    'Africa/Lagos',
    'Africa/Libreville',
    'Africa/Lome',
    'Africa/Luanda',
    'Africa/Lubumbashi',
    'Africa/Lusaka',
    'Africa/Malabo',
    'Africa/Maputo',
    'Africa/Maseru',
    'Africa/Mbabane',
    'Africa/Mogadishu',
    'Africa/Monrovia',
    'Africa/Nairobi',
    'Africa/Ndjamena',
    'Africa/Niamey',
    'Africa/Nouakchott',
    'Africa/Ouagadougou',
    'Africa/Porto-Novo',
    'Africa/Sao_Tome',
    'Africa/Timbuktu',
    'Africa/Tripoli',
    'Africa/Tunis',
    'Africa/Windhoek',
    'America/Adak',
    'America/Anchorage',
    'America/Anguilla',
    'America/Antigua',
    'America/Araguaina',
    'America/Argentina/Buenos_Aires',
    'America/Argentina/Catamarca',
    'America/Argentina/ComodRivadavia',
    'America/Argentina/Cordoba',
    'America/Argentina/Jujuy',
    'America/Argentina/La_Rioja',
    'America/Argentina/Mendoza',
    'America/Argentina/Rio_Gallegos',
    'America/Argentina/Salta',
    'America/Argentina/San_Juan',
    'America/Argentina/San_Luis',
    'America/Argentina/Tucuman',
    'America/Argentina/Ushuaia',
    'America/Aruba',
    'America/Asuncion',
    'America/Atikokan',
    'America/Atka',
    'America/Bahia',
    'America/Bahia_Banderas',
    'America/Barbados',
    'America/Belem',
    'America/Belize',
    'America/Blanc-Sablon',
    'America/Boa_Vista',
    'America/Bogota',
    'America/Boise',
    'America/Buenos_Aires',
    'America/Cambridge_Bay',
    'America/Campo_Grande',
    'America/Cancun',
    'America/Caracas',
    'America/Catamarca',
    'America/Cayenne',
    'America/Cayman',
    'America/Chicago',
    'America/Chihuahua',
    'America/Coral_Harbour',
    'America/Cordoba',
    'America/Costa_Rica',
    'America/Creston',
    'America/Cuiaba',
    'America/Curacao',
    'America/Danmarkshavn',
    'America/Dawson',
    'America/Dawson_Creek',
    'America/Denver',
    'America/Detroit',
    'America/Dominica',
    'America/Edmonton',
    'America/Eirunepe',
    'America/El_Salvador',
    'America/Ensenada',
    'America/Fort_Nelson',
    'America/Fort_Wayne',
    'America/Fortaleza',
    'America/Glace_Bay',
    'America/Godthab',
    'America/Goose_Bay',
    'America/Grand_Turk',
    'America/Grenada',
    'America/Guadeloupe',
    'America/Guatemala',
    'America/Guayaquil',
    'America/Guyana',
    'America/Halifax',
    'America/Havana',
    'America/Hermosillo',
    'America/Indiana/Indianapolis',
    'America/Indiana/Knox',
    'America/Indiana/Marengo',
    'America/Indiana/Petersburg',
    'America/Indiana/Tell_City',
    'America/Indiana/Vevay',
    'America/Indiana/Vincennes',
    'America/Indiana/Winamac',
    'America/Indianapolis',
    'America/Inuvik',
    'America/Iqaluit',
    'America/Jamaica',
    'America/Jujuy',
    'America/Juneau',
    'America/Kentucky/Louisville',
    'America/Kentucky/Monticello',
    'America/Knox_IN',
    'America/Kralendijk',
    'America/La_Paz',
    'America/Lima',
    'America/Los_Angeles',
    'America/Louisville',
    'America/Lower_Princes',
    'America/Maceio',
    'America/Managua',
    'America/Manaus',
    'America/Marigot',
    'America/Martinique',
    'America/Matamoros',
    'America/Mazatlan',
    'America/Mendoza',
    'America/Menominee',
    'America/Merida',
    'America/Metlakatla',
    'America/Mexico_City',
    'America/Miquelon',
    'America/Moncton',
    'America/Monterrey',
    'America/Montevideo',
    'America/Montreal',
    'America/Montserrat',
    'America/Nassau',
    'America/New_York',
    'America/Nipigon',
    'America/Nome',
    'America/Noronha',
    'America/North_Dakota/Beulah',
    'America/North_Dakota/Center',
    'America/North_Dakota/New_Salem',
    'America/Nuuk',
    'America/Ojinaga',
    'America/Panama',
    'America/Pangnirtung',
    'America/Paramaribo',
    'America/Phoenix',
    'America/Port-au-Prince',
    'America/Port_of_Spain',
    'America/Porto_Acre',
    'America/Porto_Velho',
    'America/Puerto_Rico',
    'America/Punta_Arenas',
    'America/Rainy_River',
    'America/Rankin_Inlet',
    'America/Recife',
    'America/Regina',
    'America/Resolute',
    'America/Rio_Branco',
    'America/Rosario',
    'America/Santa_Isabel',
    'America/Santarem',
    'America/Santiago',
    'America/Santo_Domingo',
    'America/Sao_Paulo',
    'America/Scoresbysund',
    'America/Shiprock',
    'America/Sitka',
    'America/St_Barthelemy',
    'America/St_Johns',
    'America/St_Kitts',
    'America/St_Lucia',
    'America/St_Thomas',
    'America/St_Vincent',
    'America/Swift_Current',
    'America/Tegucigalpa',
    'America/Thule',
    'America/Thunder_Bay',
    'America/Tijuana',
    'America/Toronto',
    'America/Tortola',
    'America/Vancouver',
    'America/Virgin',
    'America/Whitehorse',
    'America/Winnipeg',
    'America/Yakutat',
    'America/Yellowknife',
    'Antarctica/Casey',
    'Antarctica/Davis',
    'Antarctica/DumontDUrville',
    'Antarctica/Macquarie',
    'Antarctica/Mawson',
    'Antarctica/McMurdo',
    'Antarctica/Palmer',
    'Antarctica/Rothera',
    'Antarctica/South_Pole',
    'Antarctica/Syowa',
    'Antarctica/Troll',
    'Antarctica/Vostok',
    'Arctic/Longyearbyen',
    'Asia/Aden',
    'Asia/Almaty',
    'Asia/Amman',
    'Asia/Anadyr',
    'Asia/Aqtau',
    'Asia/Aqtobe',
    'Asia/Ashgabat',
    'Asia/Ashkhabad',
    'Asia/Atyrau',
    'Asia/Baghdad',
    'Asia/Bahrain',
    'Asia/Baku',
    'Asia/Bangkok',
    'Asia/Barnaul',
    'Asia/Beirut',
    'Asia/Bishkek',
    'Asia/Brunei',
    'Asia/Calcutta',
    'Asia/Chita',
    'Asia/Choibalsan',
    'Asia/Chongqing',
    'Asia/Chungking',
    'Asia/Colombo',
    'Asia/Dacca',
    'Asia/Damascus',
    'Asia/Dhaka',
    'Asia/Dili',
    'Asia/Dubai',
    'Asia/Dushanbe',
    'Asia/Famagusta',
    'Asia/Gaza',
    'Asia/Harbin',
    'Asia/Hebron',
    'Asia/Ho_Chi_Minh',
    'Asia/Hong_Kong',
    'Asia/Hovd',
    'Asia/Irkutsk',
    'Asia/Istanbul',
    'Asia/Jakarta',
    'Asia/Jayapura',
    'Asia/Jerusalem',
    'Asia/Kabul',
    'Asia/Kamchatka',
    'Asia/Karachi',
    'Asia/Kashgar',
    'Asia/Kathmandu',
    'Asia/Katmandu',
    'Asia/Khandyga',
    'Asia/Kolkata',
    'Asia/Krasnoyarsk',
    'Asia/Kuala_Lumpur',
    'Asia/Kuching',
    'Asia/Kuwait',
    'Asia/Macao',
    'Asia/Macau',
    'Asia/Magadan',
    'Asia/Makassar',
    'Asia/Manila',
    'Asia/Muscat',
    'Asia/Nicosia',
    'Asia/Novokuznetsk',
    'Asia/Novosibirsk',
    'Asia/Omsk',
    'Asia/Oral',
    'Asia/Phnom_Penh',
    'Asia/Pontianak',
    'Asia/Pyongyang',
    'Asia/Qatar',
    'Asia/Qostanay',
    'Asia/Qyzylorda',
    'Asia/Rangoon',
    'Asia/Riyadh',
    'Asia/Saigon',
    'Asia/Sakhalin',
    'Asia/Samarkand',
    'Asia/Seoul',
    'Asia/Shanghai',
    'Asia/Singapore',
    'Asia/Srednekolymsk',
    'Asia/Taipei',
    'Asia/Tashkent',
    'Asia/Tbilisi',
    'Asia/Tehran',
    'Asia/Tel_Aviv',
    'Asia/Thimbu',
    'Asia/Thimphu',
    'Asia/Tokyo',
    'Asia/Tomsk',
    'Asia/Ujung_Pandang',
    'Asia/Ulaanbaatar',
    'Asia/Ulan_Bator',
    'Asia/Urumqi',
    'Asia/Ust-Nera',
    'Asia/Vientiane',
    'Asia/Vladivostok',
    'Asia/Yakutsk',
    'Asia/Yangon',
    'Asia/Yekaterinburg',
    'Asia/Yerevan',
    'Atlantic/Azores',
    'Atlantic/Bermuda',
    'Atlantic/Canary',
    'Atlantic/Cape_Verde',
    'Atlantic/Faeroe',
    'Atlantic/Faroe',
    'Atlantic/Jan_Mayen',
    'Atlantic/Madeira',
    'Atlantic/Reykjavik',
    'Atlantic/South_Georgia',
    'Atlantic/St_Helena',
    'Atlantic/Stanley',
    'Australia/ACT',
    'Australia/Adelaide',
    'Australia/Brisbane',
    'Australia/Broken_Hill',
    'Australia/Canberra',
    'Australia/Currie',
    'Australia/Darwin',
    'Australia/Eucla',
    'Australia/Hobart',
    'Australia/LHI',
    'Australia/Lindeman',
    'Australia/Lord_Howe',
    'Australia/Melbourne',
    'Australia/North',
    'Australia/NSW',
    'Australia/Perth',
    'Australia/Queensland',
    'Australia/South',
    'Australia/Sydney',
    'Australia/Tasmania',
    'Australia/Victoria',
    'Australia/West',
    'Australia/Yancowinna',
    'Brazil/Acre',
    'Brazil/DeNoronha',
    'Brazil/East',
    'Brazil/West',
    'Canada/Atlantic',
    'Canada/Central',
    'Canada/Eastern',
    'Canada/Mountain',
    'Canada/Newfoundland',
    'Canada/Pacific',
    'Canada/Saskatchewan',
    'Canada/Yukon',
    'CET',
    'Chile/Continental',
    'Chile/EasterIsland',
    'CST6CDT',
    'Cuba',
    'EET',
    'Egypt',
    'Eire',
    'EST',
    'EST5EDT',
    'Etc/GMT',
    'Etc/GMT+0',
    'Etc/GMT+1',
    'Etc/GMT+10',
    'Etc/GMT+11',
    'Etc/GMT+12',
    'Etc/GMT+2',
    'Etc/GMT+3',
    'Etc/GMT+4',
    'Etc/GMT+5',
    'Etc/GMT+6',
    'Etc/GMT+7',
    'Etc/GMT+8',
    'Etc/GMT+9',
    'Etc/GMT-0',
    'Etc/GMT-1',
    'Etc/GMT-10',
    'Etc/GMT-11',
    'Etc/GMT-12',
    'Etc/GMT-13',
    'Etc/GMT-14',
    'Etc/GMT-2',
    'Etc/GMT-3',
    'Etc/GMT-4',
    'Etc/GMT-5',
    'Etc/GMT-6',
    'Etc/GMT-7',
    'Etc/GMT-8',
    'Etc/GMT-9',
    'Etc/GMT0',
    'Etc/Greenwich',
    'Etc/UCT',
    'Etc/Universal',
    'Etc/UTC',
    'Etc/Zulu',
    'Europe/Amsterdam',
    'Europe/Andorra',
    'Europe/Astrakhan',
    'Europe/Athens',
    'Europe/Belfast',
    'Europe/Belgrade',
    'Europe/Berlin',
    'Europe/Bratislava',
    'Europe/Brussels',
    'Europe/Bucharest',
    'Europe/Budapest',
    'Europe/Busingen',
    'Europe/Chisinau',
    'Europe/Copenhagen',
    'Europe/Dublin',
    'Europe/Gibraltar',
    'Europe/Guernsey',
    'Europe/Helsinki',
    'Europe/Isle_of_Man',
    'Europe/Istanbul',
    'Europe/Jersey',
    'Europe/Kaliningrad',
    'Europe/Kiev',
    'Europe/Kirov',
    'Europe/Lisbon',
    'Europe/Ljubljana',
    'Europe/London',
    'Europe/Luxembourg',
    'Europe/Madrid',
    'Europe/Malta',
    'Europe/Mariehamn',
    'Europe/Minsk',
    'Europe/Monaco',
    'Europe/Moscow',
    'Europe/Nicosia',
    'Europe/Oslo',
    'Europe/Paris',
    'Europe/Podgorica',
    'Europe/Prague',
    'Europe/Riga',
    'Europe/Rome',
    'Europe/Samara',
    'Europe/San_Marino',
    'Europe/Sarajevo',
    'Europe/Saratov',
    'Europe/Simferopol',
    'Europe/Skopje',
    'Europe/Sofia',
    'Europe/Stockholm',
    'Europe/Tallinn',
    'Europe/Tirane',
    'Europe/Tiraspol',
    'Europe/Ulyanovsk',
    'Europe/Uzhgorod',
    'Europe/Vaduz',
    'Europe/Vatican',
    'Europe/Vienna',
    'Europe/Vilnius',
    'Europe/Volgograd',
    'Europe/Warsaw',
    'Europe/Zagreb',
    'Europe/Zaporozhye',
    'Europe/Zurich',
    'Factory',
    'GB',
    'GB-Eire',
    'GMT',
    'GMT+0',
    'GMT-0',
    'GMT0',
    'Greenwich',
    'Hongkong',
    'HST',
    'Iceland',
    'Indian/Antananarivo',
    'Indian/Chagos',
    'Indian/Christmas',
    'Indian/Cocos',
    'Indian/Comoro',
    'Indian/Kerguelen',
    'Indian/Mahe',
    'Indian/Maldives',
    'Indian/Mauritius',
    'Indian/Mayotte',
    'Indian/Reunion',
    'Iran',
    'Israel',
    'Jamaica',
    'Japan',
    'Kwajalein',
    'Libya',
    'MET',
    'Mexico/BajaNorte',
    'Mexico/BajaSur',
    'Mexico/General',
    'MST',
    'MST7MDT',
    'Navajo',
    'NZ',
    'NZ-CHAT',
    'Pacific/Apia',
    'Pacific/Auckland',
    'Pacific/Bougainville',
    'Pacific/Chatham',
    'Pacific/Chuuk',
    'Pacific/Easter',
    'Pacific/Efate',
    'Pacific/Enderbury',
    'Pacific/Fakaofo',
    'Pacific/Fiji',
    'Pacific/Funafuti',
    'Pacific/Galapagos',
    'Pacific/Gambier',
    'Pacific/Guadalcanal',
    'Pacific/Guam',
    'Pacific/Honolulu',
    'Pacific/Johnston',
    'Pacific/Kanton',
    'Pacific/Kiritimati',
    'Pacific/Kosrae',
    'Pacific/Kwajalein',
    'Pacific/Majuro',
    'Pacific/Marquesas',
    'Pacific/Midway',
    'Pacific/Nauru',
    'Pacific/Niue',
    'Pacific/Norfolk',
    'Pacific/Noumea',
    'Pacific/Pago_Pago',
    'Pacific/Palau',
    'Pacific/Pitcairn',
    'Pacific/Pohnpei',
    'Pacific/Ponape',
    'Pacific/Port_Moresby',
    'Pacific/Rarotonga',
    'Pacific/Saipan',
    'Pacific/Samoa',
    'Pacific/Tahiti',
    'Pacific/Tarawa',
    'Pacific/Tongatapu',
    'Pacific/Truk',
    'Pacific/Wake',
    'Pacific/Wallis',
    'Pacific/Yap',
    'Poland',
    'Portugal',
    'PRC',
    'PST8PDT',
    'ROC',
    'ROK',
    'Singapore',
    'Turkey',
    'UCT',
    'Universal',
    'US/Alaska',
    'US/Aleutian',
    'US/Arizona',
    'US/Central',
    'US/East-Indiana',
    'US/Eastern',
    'US/Hawaii',
    'US/Indiana-Starke',
    'US/Michigan',
    'US/Mountain',
    'US/Pacific',
    'US/Samoa',
  ]
  it(`${zones.length} zones load`, () => {
    const bad = zones.filter((z) => validateTimeZone(z, FieldPath.of('tz')).length > 0)
    expect(bad).toEqual([])
  })
  it('the wrong case of a canonical zone is unknown (Go reads case-sensitive names)', () => {
    expect(validateTimeZone('america/new_york', FieldPath.of('tz')).map(errorString)).toEqual([
      'tz: Invalid value: "america/new_york": unknown time zone america/new_york',
    ])
    expect(validateTimeZone('local', FieldPath.of('tz')).map((e) => e.detail)).toEqual([
      'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      'unknown time zone local',
    ])
  })
})

describe('TestValidateIndexesString', () => {
  const cases: [string, number, number, string | undefined][] = [
    ['', 10, 0, undefined],
    ['0', 10, 1, undefined],
    ['0,2,4-7', 10, 6, undefined],
    ['1-3,3', 10, 0, 'non-increasing order, previous: 3, current: 3'],
    [
      '1-3-5',
      10,
      0,
      'the fragment "1-3-5" violates the requirement that an index interval can have at most two parts separated by \'-\'',
    ],
    ['a', 10, 0, 'cannot convert string to integer for index: "a"'],
    ['10', 10, 0, 'too large index: "10"'],
    ['3-1', 10, 0, 'non-increasing order, previous: 3, current: 1'],
  ]
  for (const [s, c, total, err] of cases)
    it(JSON.stringify(s), () => expect(validateIndexesFormat(s, c)).toEqual([total, err]))
})
