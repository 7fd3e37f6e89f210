import { readFileSync } from 'node:fs'
import { loadAll } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import type { ValidatingAdmissionPolicy } from '../../../src/kube/admissionregistration/types.js'
import type { AdmissionAttributes } from '../../../src/policy/attributes.js'
import { RequestVariables } from '../../../src/policy/cel/condition.js'
import { PolicyValidator, type ValidateInput } from '../../../src/policy/validating/validator.js'
import { newValidAttribute } from '../helpers.js'

// The bundled pack's two PodSecurity policies define two dozen variables alike (pod, spec, containers,
// the baseline controls' lists): with RequestVariables the second policy of a request takes the first's
// evaluations (each replayed with its cost). The apiserver evaluates each policy's variables in its own
// composition (validating/validator.go Validate); the oracle is each policy validated on its own, with
// no shared store. Fixed pods of the shapes PodSecurity's checks look at, passing and failing.

const pack = ['pod-security-baseline.yaml', 'pod-security-restricted.yaml', 'best-practices.yaml'].flatMap((f) =>
  (
    loadAll(readFileSync(new URL(`../../../policies/${f}`, import.meta.url), 'utf8')) as ValidatingAdmissionPolicy[]
  ).filter((d) => d?.kind === 'ValidatingAdmissionPolicy'),
)

const restricted = {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  runAsNonRoot: true,
  seccompProfile: { type: 'RuntimeDefault' },
}
const container = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  image: `r.example/${name}:1`,
  ...extra,
})
const deployment = (spec: Record<string, unknown>, labels: Record<string, string> = { app: 'web' }) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec } },
})

const objects: Record<string, unknown>[] = [
  deployment({ containers: [container('a'), container('b')] }),
  deployment({ containers: [container('a', { securityContext: restricted })] }),
  deployment({ containers: [container('a', { securityContext: { privileged: true } }), container('b')] }),
  // one field apart from the one before: not privileged
  deployment({ containers: [container('a', { securityContext: { privileged: false } }), container('b')] }),
  deployment({ hostNetwork: true, containers: [container('a', { ports: [{ containerPort: 80, hostPort: 80 }] })] }),
  deployment({
    initContainers: [container('init', { securityContext: { runAsUser: 0 } })],
    containers: [container('a', { image: 'r.example/a:latest' })],
  }),
  // an ephemeral container: in the PodSecurity policies' `containers`, not in best-practices' (same name,
  // another definition: not shared)
  deployment({
    containers: [container('a')],
    ephemeralContainers: [container('debug', { image: 'r.example/debug:latest' })],
  }),
  // keys that name Object.prototype's properties, as data
  JSON.parse(
    JSON.stringify(
      deployment({ containers: [container('a')] }, { app: 'web', 'app.kubernetes.io/name': 'web', x: 'y' }),
    )
      .replace('"x":"y"', '"__proto__":"p","constructor":"c"')
      .replace('"containers":[', '"nodeSelector":{"__proto__":"n"},"containers":['),
  ) as Record<string, unknown>,
]

const input = (attributes: AdmissionAttributes, requestVariables?: RequestVariables): ValidateInput => ({
  matchedResource: { group: 'apps', version: 'v1', resource: 'deployments' },
  attributes,
  params: null,
  authorize: () => ({ decision: 'NoOpinion' as const }),
  ...(requestVariables !== undefined ? { requestVariables } : {}),
})

const attributesOf = (object: Record<string, unknown>): AdmissionAttributes => ({
  ...newValidAttribute(object, false),
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
})

describe('the bundled pack: the same decisions with the request-shared variables', () => {
  it('every policy of each request, in order, one store per request, reused validators', () => {
    const shared = pack.map((p) => new PolicyValidator(p))
    let denied = 0
    for (const object of [...objects, ...objects]) {
      const a = attributesOf(object)
      const store = new RequestVariables()
      for (const [i, policy] of pack.entries()) {
        const got = (shared[i] as PolicyValidator).validate(input(a, store))
        expect(got, `${policy.metadata?.name}`).toEqual(new PolicyValidator(policy).validate(input(a)))
        if (got.decisions.some((d) => d.action === 'Deny')) denied++
      }
      // the two PodSecurity policies' common variables are kept once
      expect(store.of(a).size).toBeGreaterThan(20)
    }
    expect(denied).toBeGreaterThan(0)
  })

  it('the __proto__ object admits with what its labels and nodeSelector hold, as data', () => {
    const object = objects[objects.length - 1] as Record<string, unknown>
    const labels = (object.metadata as Record<string, unknown>).labels as Record<string, unknown>
    expect(Object.hasOwn(labels, '__proto__')).toBe(true)
    const a = attributesOf(object)
    const store = new RequestVariables()
    const names = pack.map((p) => p.metadata?.name)
    const results = pack.map((p) => new PolicyValidator(p).validate(input(a, store)))
    // recommended-labels finds app.kubernetes.io/name among them; baseline has nothing to deny
    expect(results[names.indexOf('recommended-labels.kelp.dev')]?.decisions.map((d) => d.action)).toEqual(['Admit'])
    expect(results[names.indexOf('pod-security-baseline.kelp.dev')]?.decisions.every((d) => d.action === 'Admit')).toBe(
      true,
    )
  })
})
