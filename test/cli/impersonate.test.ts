import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import yaml from 'js-yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { userInfoOf } from '../../src/cli/impersonate.js'

// kelp check --as / --as-group / --as-uid / --as-user-extra (kubectl's impersonation flags, cli-runtime
// genericclioptions/config_flags.go): who sends the requests. Expected values: what the real kube-apiserver
// v1.37.2 stored for the same CertificateSigningRequest under `kubectl create --dry-run=server -o json` with the
// same flags (its strategy's PrepareForCreate copies the requester into the spec,
// pkg/registry/certificates/certificates/strategy.go; the user made by the impersonation filter,
// apiserver pkg/endpoints/filters/impersonation/impersonation.go).

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const cli = join(root, 'dist/cli/kelp.cjs')

function kelp(args: string[], input: string) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

// openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj /CN=cluster-kinds-ec (test/e2e/differential)
const REQUEST =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIVU1IMENBUUF3R3pFWk1CY0dBMVVFQXd3UVkyeDFjM1JsY2kxcmFXNWtjeTFsWXpCWk1CTUdCeXFHU000OQpBZ0VHQ0NxR1NNNDlBd0VIQTBJQUJMOUdNYUtaZlMxVVRtSE9FeGtFZVFGZjYrN05wUWpzMTB6V0huQjVZZ21hCi9ueEJaRDRXYWx5NDZrT2pBRENBS1NteUt0REtqTDJFTktHZE91ZXdHQW1nQURBS0JnZ3Foa2pPUFFRREFnTkgKQURCRUFpQVNJdWN2NS9raGNWTlhiQ1gwR0p3eE44clZJdVV4TlVOS09LZDRKOGx3dmdJZ0ZtZzZUU05odFJDUApCaHFBSEJJS0RJcTBZVk1wODJQdXpNMXZQTWlZYWdJPQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K'
// the manifest claims an identity: the strategy replaces it with the requester's
const CSR = `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: csr-ec
spec:
  request: ${REQUEST}
  signerName: example.com/signer
  usages: [digital signature, key encipherment, client auth]
  expirationSeconds: 86400
  username: mallory
  uid: "0"
  groups: [system:masters]
  extra: {x: ["y"]}
status:
  conditions: [{type: Approved, status: "True"}]
`
const base = {
  expirationSeconds: 86400,
  request: REQUEST,
  signerName: 'example.com/signer',
  usages: ['digital signature', 'key encipherment', 'client auth'],
}

/** The stored object's spec and status (kelp check -o yaml). */
function stored(args: string[], input = CSR) {
  const r = kelp(['check', '--pack', 'off', '-o', 'yaml', ...args, '-'], input)
  expect(r.code, r.err).toBe(0)
  return yaml.load(r.out) as { spec: Record<string, unknown>; status: unknown }
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (npm test does)`)
})

describe('kelp check --as: the requester of a CertificateSigningRequest', () => {
  it('user, groups, uid and extra as the apiserver stored them (kubectl create --as … --dry-run=server)', () => {
    const s = stored([
      '--as',
      'alice',
      '--as-group',
      'system:masters',
      '--as-uid',
      '42',
      '--as-user-extra',
      'a=1',
      '--as-user-extra',
      'a=2',
      '--as-user-extra',
      'b=x=y',
      '--as-user-extra',
      'noeq',
    ])
    expect(s.spec).toEqual({
      ...base,
      username: 'alice',
      uid: '42',
      groups: ['system:masters', 'system:authenticated'],
      extra: { a: ['1', '2'], b: ['x=y'] },
    })
    expect(s.status).toEqual({})
  })

  it('system:authenticated appended once, after the groups given; a service account given groups keeps them', () => {
    expect(
      stored(['--as', 'bob', '--as-group', 'system:masters', '--as-group', 'system:authenticated', '--as-group', 'z'])
        .spec,
    ).toEqual({
      ...base,
      username: 'bob',
      groups: ['system:masters', 'system:authenticated', 'z'],
    })
    expect(stored(['--as', 'system:serviceaccount:ns1:sa', '--as-group', 'system:masters']).spec).toEqual({
      ...base,
      username: 'system:serviceaccount:ns1:sa',
      groups: ['system:masters', 'system:authenticated'],
    })
  })

  it('without --as: the default user (docs/library.md: kelp, system:authenticated); on several threads too', () => {
    expect(stored([]).spec).toEqual({ ...base, username: 'kelp', groups: ['system:authenticated'] })
    const two = `${CSR}---\n${CSR.replace('name: csr-ec', 'name: csr-ec-2')}`
    const r = kelp(['check', '--pack', 'off', '-o', 'yaml', '--jobs', '2', '--as', 'carol', '-'], two)
    const docs = yaml.loadAll(r.out) as { spec: { username: string; groups: string[] } }[]
    expect(docs.map((d) => [d.spec.username, d.spec.groups])).toEqual([
      ['carol', ['system:authenticated']],
      ['carol', ['system:authenticated']],
    ])
  })

  it('what policies read of request.userInfo', () => {
    const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: no-alice}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  validations:
  - expression: "request.userInfo.username != 'alice' && !('dev' in request.userInfo.groups)"
    message: not you
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: no-alice}
spec: {policyName: no-alice, validationActions: [Deny]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
`
    const outcome = (args: string[]) => {
      const r = kelp(['check', '-o', 'json', ...args, '-'], policy)
      return (JSON.parse(r.out) as { objects: { outcome: string }[] }).objects.map((o) => o.outcome)
    }
    expect(outcome([])).toEqual(['allowed'])
    expect(outcome(['--as', 'alice'])).toEqual(['denied'])
    expect(outcome(['--as', 'bob', '--as-group', 'dev'])).toEqual(['denied'])
    expect(outcome(['--as', 'bob'])).toEqual(['allowed'])
  })

  it('--as-group, --as-uid or --as-user-extra without --as: a usage error (exit 2)', () => {
    for (const args of [
      ['--as-group', 'g'],
      ['--as-uid', '1'],
      ['--as-user-extra', 'a=b'],
    ]) {
      const r = kelp(['check', '--pack', 'off', ...args, '-'], CSR)
      expect(r.code).toBe(2)
      expect(r.err).toContain('--as-group, --as-uid and --as-user-extra need --as')
    }
  })
})

describe('userInfoOf: the impersonation filter (apiserver v0.37.2 pkg/endpoints/filters/impersonation/impersonation.go)', () => {
  const flags = (as: string | undefined, asGroup: string[] = []) => ({ as, asGroup, asUserExtra: [] })
  it("a service account's groups when none are given (serviceaccount.MakeGroupNames), then system:authenticated", () => {
    expect(userInfoOf(flags('system:serviceaccount:ns1:sa'))?.groups).toEqual([
      'system:serviceaccounts',
      'system:serviceaccounts:ns1',
      'system:authenticated',
    ])
  })
  it('system:anonymous is in system:unauthenticated; system:unauthenticated given keeps system:authenticated out', () => {
    expect(userInfoOf(flags('system:anonymous'))?.groups).toEqual(['system:unauthenticated'])
    expect(userInfoOf(flags('bob', ['system:unauthenticated']))?.groups).toEqual(['system:unauthenticated'])
  })
  it('an extra key __proto__ is a key', () => {
    const u = userInfoOf({ as: 'a', asGroup: [], asUserExtra: ['__proto__=x'] })
    expect(Object.hasOwn(u?.extra ?? {}, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(u?.extra)).toBe(Object.prototype)
  })
  it('no --as: no user (the default)', () => {
    expect(userInfoOf(flags(undefined))).toBeUndefined()
  })
})
