import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { check } from '../../src/check/index.js'
import { format } from '../../src/report/index.js'
import { reportValidator } from '../report/schemas.js'

// Audit findings in `kelp check -o json` as docs/cli-json.md documents them (issue 26): messages without
// kubectl-style prefixes (the formatters add `Audit: `), a policy's auditAnnotations as `annotation` (the key
// `<policy>/<key>`) with the value as `message`; the real output validated against docs/kelp-report.schema.json.

const dir = mkdtempSync(join(tmpdir(), 'kelp-audit-'))
const file = join(dir, 'audit.yaml')
writeFileSync(
  file,
  `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: audit-p}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}
  validations:
  - {expression: "false", message: always fails}
  auditAnnotations:
  - {key: seen, valueExpression: "'cm ' + object.metadata.name"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: audit-b}
spec: {policyName: audit-p, validationActions: [Audit]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c1}
`,
)

describe('audit findings in -o json', () => {
  const report = check({ paths: [file], kubeVersion: '1.37' })
  const json = JSON.parse(format(report, 'json')) as { objects: { findings: Record<string, unknown>[] }[] }

  it('validate against the documented schema', () => {
    expect(reportValidator()(json)).toEqual([])
  })

  it('are worded and keyed as docs/cli-json.md says', () => {
    expect(json.objects[0]?.findings.map(({ source: _s, ...f }) => f)).toEqual([
      {
        level: 'audit',
        type: 'policy',
        message: "validation failed for ValidatingAdmissionPolicy 'audit-p' with binding 'audit-b': always fails",
        policy: 'audit-p',
        binding: 'audit-b',
        rule: 'vap/audit-p',
      },
      {
        level: 'info',
        type: 'policy',
        message: 'cm c1',
        policy: 'audit-p',
        rule: 'audit/audit-p',
        annotation: 'audit-p/seen',
      },
    ])
  })

  it('print in text as before for the Audit action, as Audit: <key>=<value> for the annotation', () => {
    const text = format(report, 'text', { color: false })
    expect(text).toContain(
      "\n  Audit: validation failed for ValidatingAdmissionPolicy 'audit-p' with binding 'audit-b': always fails\n",
    )
    expect(text).toContain('\n  Audit: audit-p/seen=cm c1\n')
  })
})
