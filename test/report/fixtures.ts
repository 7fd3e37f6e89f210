import type { Finding, ObjectResult, Report } from '../../src/report/model.js'
import { outcomeOf, summarize } from '../../src/report/model.js'

// Hand-built Reports for the formatter tests.

type ObjectSpec = Omit<ObjectResult, 'outcome'>

function obj(o: ObjectSpec): ObjectResult {
  return { ...o, outcome: outcomeOf(o.findings) }
}

export function report(objects: readonly ObjectSpec[], diagnostics: readonly Finding[] = []): Report {
  const objs = objects.map(obj)
  return {
    schemaVersion: 1,
    kelpVersion: '0.1.0',
    kubeVersion: '1.33',
    objects: objs,
    diagnostics,
    summary: summarize(objs, diagnostics),
  }
}

const deny: Finding = {
  level: 'deny',
  type: 'policy',
  message:
    "ValidatingAdmissionPolicy 'require-team' with binding 'require-team-binding' denied request: label team is required",
  source: { file: 'deploy.yaml', line: 1, column: 1, document: 0 },
  policy: 'require-team',
  binding: 'require-team-binding',
  rule: 'vap/require-team',
}

const warnReplicas: Finding = {
  level: 'warn',
  type: 'policy',
  message:
    "Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas': replicas should be at least 2",
  policy: 'replicas',
  binding: 'replicas',
  rule: 'vap/replicas',
}

/** A small report with one object of each outcome, and diagnostics of each kind. */
export const SMALL: Report = report(
  [
    {
      source: { file: 'deploy.yaml', line: 1, column: 1, document: 0 },
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'default',
      name: 'web',
      operation: 'CREATE',
      findings: [deny, { ...warnReplicas, source: { file: 'deploy.yaml', line: 9, column: 3, document: 0 } }],
    },
    {
      source: { file: 'deploy.yaml', line: 20, column: 1, document: 1 },
      apiVersion: 'v1',
      kind: 'Service',
      namespace: 'default',
      name: 'web',
      operation: 'CREATE',
      findings: [],
    },
    {
      source: { file: 'crs.yaml', line: 1, column: 1, document: 0 },
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      namespace: 'default',
      name: 'w1',
      operation: 'UPDATE',
      findings: [
        {
          level: 'deny',
          type: 'invalid',
          message: 'spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0',
          field: 'spec.size',
          rule: 'crd/Widget',
        },
      ],
    },
    {
      source: { file: 'crs.yaml', line: 12, column: 1, document: 1 },
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'team-a',
      name: 'api',
      operation: 'UPDATE',
      findings: [warnReplicas],
    },
    {
      source: { file: 'crs.yaml', line: 30, column: 1, document: 2 },
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: 'settings',
      operation: 'CREATE',
      findings: [
        {
          level: 'audit',
          type: 'policy',
          message: 'nobody',
          annotation: 'owner-audit/owner',
          policy: 'owner-audit',
          rule: 'vap/owner-audit',
        },
      ],
    },
    {
      source: { file: 'old.yaml', line: 1, column: 1 },
      apiVersion: 'policy/v1beta1',
      kind: 'PodSecurityPolicy',
      name: 'restricted',
      operation: 'CREATE',
      findings: [
        {
          level: 'deny',
          type: 'not-served',
          message:
            'resource mapping not found for name: "restricted" namespace: "" from "old.yaml": no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"\nensure CRDs are installed first',
          rule: 'api/removed',
        },
      ],
    },
  ],
  [
    {
      level: 'error',
      type: 'policy-material',
      message:
        'ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: spec.validations[0].expression: Invalid value: "object.spec.replicas >": compilation failed: ERROR: <input>:1:23: Syntax error: mismatched input \'<EOF>\'\n | object.spec.replicas >\n | ......................^',
      source: { file: 'policies.yaml', line: 3, column: 1, document: 0 },
      policy: 'bad',
      field: 'spec.validations[0].expression',
      rule: 'material/ValidatingAdmissionPolicy',
    },
    {
      level: 'warn',
      type: 'policy-material',
      message: 'spec.validations[0].expression: the estimated cost 2000000 is close to the limit',
      source: { file: 'policies.yaml', line: 40, column: 7, document: 2 },
      policy: 'expensive',
      rule: 'cost/expensive',
    },
    {
      level: 'error',
      type: 'parse',
      message: 'Implicit map keys need to be followed by map values',
      source: { file: '-', line: 4, column: 2 },
      rule: 'input/yaml',
    },
  ],
)

/** No objects, no diagnostics. */
export const EMPTY: Report = report([])

/** The example of docs/cli-json.md. */
// `kelp check k8s/ -p policies/`: policies of its own, so the bundled pack is left out (and noted)
export const DOCS_EXAMPLE: Report = {
  ...report(
    [
      {
        source: { file: 'k8s/app.yaml', line: 1, column: 1, document: 0 },
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'web',
        operation: 'CREATE',
        findings: [
          {
            level: 'deny',
            type: 'policy',
            message:
              "ValidatingAdmissionPolicy 'require-team-label' with binding 'require-team-label' denied request: every Deployment needs a team label",
            source: { file: 'k8s/app.yaml', line: 1, column: 1, document: 0 },
            policy: 'require-team-label',
            binding: 'require-team-label',
            rule: 'vap/require-team-label',
          },
        ],
      },
      {
        source: { file: 'k8s/app.yaml', line: 24, column: 1, document: 1 },
        apiVersion: 'v1',
        kind: 'Service',
        namespace: 'shop',
        name: 'web',
        operation: 'UPDATE',
        findings: [],
      },
    ],
    [
      {
        level: 'warn',
        type: 'policy-material',
        message: "spec.validations[0].expression: no such key: 'lables' is not a field of the object",
        source: { file: 'policies/team.yaml', line: 12, column: 19, document: 0 },
        policy: 'team-label-format',
        field: 'spec.validations[0].expression',
        rule: 'typecheck/team-label-format',
      },
      {
        level: 'info',
        type: 'policy-material',
        message:
          'the bundled policy pack (policies/) is not applied: the inputs hold admission policies of their own (ValidatingAdmissionPolicy "require-team-label", policies/team.yaml:1); --pack add applies it beside them',
        rule: 'pack/not-applied',
      },
    ],
  ),
  pack: { mode: 'auto', applied: false, reason: 'own-policies' },
}
