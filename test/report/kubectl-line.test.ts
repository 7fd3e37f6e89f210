import { describe, expect, it } from 'vitest'
import { kubectlLine } from '../../src/report/common.js'
import type { Finding } from '../../src/report/model.js'

// kubectl pkg/cmd/util/helpers.go checkErr: an Invalid StatusError prints `The <details.kind> "<details.name>"
// is invalid: ` and its causes as `<field>: <message>` (an admission denial has one cause with no field);
// any other reason prints `Error from server (<reason>): <message>`.

const denial = (reason: string): Finding => ({
  level: 'deny',
  type: 'policy',
  rule: 'vap/p',
  reason,
  message: `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no`,
})

describe('kubectlLine for admission denials', () => {
  it('reason Invalid: from the Status details, resource without group, empty cause field', () => {
    expect(kubectlLine(denial('Invalid'))).toBe(
      `The deployments "web" is invalid: : ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no`,
    )
  })
  it('reason Forbidden: the Status message', () => {
    expect(kubectlLine(denial('Forbidden'))).toBe(
      `Error from server (Forbidden): deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no`,
    )
  })
})
