import { describe, expect, it } from 'vitest'
import { escapeData, escapeProperty, formatGitHub } from '../../src/report/github.js'
import { EMPTY, report, SMALL } from './fixtures.js'

describe('github', () => {
  it('prints one workflow command per finding, then the summary', () => {
    expect(formatGitHub(SMALL, { root: '/repo' })).toBe(
      [
        `::error file=policies.yaml,line=3,col=1,title=material/ValidatingAdmissionPolicy::ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: spec.validations[0].expression: Invalid value: "object.spec.replicas >": compilation failed: ERROR: <input>:1:23: Syntax error: mismatched input '<EOF>'%0A | object.spec.replicas >%0A | ......................^`,
        '::warning file=policies.yaml,line=40,col=7,title=cost/expensive::spec.validations[0].expression: the estimated cost 2000000 is close to the limit',
        '::error title=input/yaml::Implicit map keys need to be followed by map values',
        "::error file=deploy.yaml,line=1,col=1,title=Deployment default/web (vap/require-team)::Error from server (Forbidden): error when creating \"deploy.yaml\": ValidatingAdmissionPolicy 'require-team' with binding 'require-team-binding' denied request: label team is required",
        "::warning file=deploy.yaml,line=9,col=3,title=Deployment default/web (vap/replicas)::Warning: Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas': replicas should be at least 2",
        '::error file=crs.yaml,line=1,col=1,title=Widget default/w1 (crd/Widget)::The Widget "w1" is invalid: spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0',
        "::warning file=crs.yaml,line=12,col=1,title=Deployment team-a/api (vap/replicas)::Warning: Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas': replicas should be at least 2",
        '::notice file=crs.yaml,line=30,col=1,title=ConfigMap default/settings (vap/owner-audit)::Audit: owner-audit/owner=nobody',
        '::error file=old.yaml,line=1,col=1,title=PodSecurityPolicy restricted (api/removed)::error: resource mapping not found for name: "restricted" namespace: "" from "old.yaml": no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"%0Aensure CRDs are installed first',
        '6 objects (4 created, 2 updated): 1 allowed, 2 denied, 1 warned, 1 audited, 1 not served; 2 errors',
      ].join('\n'),
    )
    expect(formatGitHub(EMPTY)).toBe('0 objects: 0 allowed, 0 denied, 0 warned; 0 errors')
  })

  it('escapes as @actions/core does, so no message can end or start a command', () => {
    expect(escapeData('100% done\r\nnext::x, y: z')).toBe('100%25 done%0D%0Anext::x, y: z')
    expect(escapeProperty('a%b\nc:d,e')).toBe('a%25b%0Ac%3Ad%2Ce')
    const r = report([
      {
        source: { file: '/repo/a,b:c.yaml', line: 2, column: 5 },
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'n',
        name: 'x,y',
        operation: 'CREATE',
        findings: [{ level: 'warn', type: 'policy', message: 'line1\n::error::injected 50%', rule: 'vap/p' }],
      },
    ])
    const out = formatGitHub(r, { root: '/repo' })
    expect(out.split('\n')[0]).toBe(
      '::warning file=a%2Cb%3Ac.yaml,line=2,col=5,title=ConfigMap n/x%2Cy (vap/p)::Warning: line1%0A::error::injected 50%25',
    )
    expect(out.split('\n')).toHaveLength(2)
  })

  it('shows control characters from the input as \\xNN: no terminal escape reaches the job log (issue 25)', () => {
    const r = report([
      {
        source: { file: '/repo/e\x1b[2Kvil.yaml', line: 1, column: 1 },
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'n',
        name: 'bell\x07',
        operation: 'CREATE',
        findings: [
          {
            level: 'deny',
            type: 'policy',
            message:
              "ValidatingAdmissionPolicy 'p' denied request: \x1b]8;;http://x\x07link\x1b]8;;\x07 \x9b31m\x7f\tend",
            rule: 'vap/p\x1b',
          },
        ],
      },
    ])
    const line = formatGitHub(r, { root: '/repo' }).split('\n')[0]!
    expect(line).toBe(
      '::error file=e\\x1b[2Kvil.yaml,line=1,col=1,title=ConfigMap n/bell\\x07 (vap/p\\x1b)::' +
        // kubectl quotes the file with Go's %q (`\x1b`), and the message shows the escape as it is
        'Error from server (Forbidden): error when creating "/repo/e\\x1b[2Kvil.yaml": ' +
        "ValidatingAdmissionPolicy 'p' denied request: \\x1b]8;;http://x\\x07link\\x1b]8;;\\x07 \\x9b31m\\x7f\tend",
    )
    expect(line).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/)
  })

  it('gives paths relative to the root, and none for stdin', () => {
    const at = (file: string, root?: string) =>
      formatGitHub(report([{ ...SMALL.objects[0]!, source: { file } }]), root !== undefined ? { root } : {})
        .split('\n')[0]!
        .replace(/,title=.*/, '')
    // the finding's own source (deploy.yaml:1:1) wins over the object's
    expect(at('/repo/x.yaml', '/repo')).toBe('::error file=deploy.yaml,line=1,col=1')
    const own = (file: string, root?: string) =>
      formatGitHub(
        report([{ ...SMALL.objects[2]!, source: { file, line: 7 } }]),
        root !== undefined ? { root } : {},
      ).split('\n')[0]!
    expect(own('/repo/k8s/w.yaml', '/repo')).toMatch(/^::error file=k8s\/w\.yaml,line=7,title=/)
    expect(own('./k8s/w.yaml')).toMatch(/^::error file=k8s\/w\.yaml,line=7,title=/)
    expect(own('/other/w.yaml', '/repo')).toMatch(/^::error file=\/other\/w\.yaml,line=7,title=/)
    expect(own('-')).toMatch(/^::error title=Widget default\/w1 \(crd\/Widget\)::/)
  })
})
