import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { buildServingSets, readPolicyFiles } from '../../src/webhook/reload.js'

// kelp serve -p policies/ gets the bundled pack instantiated for its --kube-version, as kelp check does
// (src/engine/material-variables.ts): the release variable holds the target's minor, and the restricted
// policy knows the baseline one is bound with Deny (found by the e2e test: through the webhook the
// restricted policy warned next to the baseline Deny, and 1.32 kept 1.37's checks).

const policies = join(dirname(fileURLToPath(import.meta.url)), '../../policies')

describe('kelp serve: the bundled pack of the target release', () => {
  it.each(['1.32', '1.37'])('%s', async (version) => {
    const read = readPolicyFiles([
      join(policies, 'pod-security-baseline.yaml'),
      join(policies, 'pod-security-restricted.yaml'),
    ])
    const load = await buildServingSets(read, { version: version as '1.32', builtins: false })
    if (!load.ok) throw new Error(load.errors.join('\n'))
    const restricted = load.set.policies.find((h) => h.policy.metadata?.name === 'pod-security-restricted.kelp.dev')
    const variables = Object.fromEntries((restricted?.policy.spec?.variables ?? []).map((v) => [v.name, v.expression]))
    expect(variables.kubeMinor).toBe(version.slice(2))
    expect(variables.baselineEnforced).toBe('true')
  })
})
