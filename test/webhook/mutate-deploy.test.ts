import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { check } from '../../src/check/index.js'
import { DEFAULT_KUBE_VERSION } from '../../src/kube/environment.js'

// docs/deploy/mutatingwebhookconfiguration.yaml: kelp's /mutate registered as the apiserver expects
// (v1 reviews, no side effects, the reinvocation choice documented in the file), pointing at the same
// Service and CA as the validating webhook, accepted by `kelp check` (native validation of
// MutatingWebhookConfiguration) with nothing denied or warned.

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../docs/deploy')
type Obj = Record<string, any>
const load = (file: string): Obj[] =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => d.toJS() as Obj)

describe('docs/deploy: MutatingWebhookConfiguration', () => {
  const [mwc] = load('mutatingwebhookconfiguration.yaml') as [Obj]
  const [vwc] = load('validatingwebhookconfiguration.yaml') as [Obj]

  it('v1 reviews, no side effects, reinvocationPolicy Never, /mutate on the validating webhook Service', () => {
    expect(mwc.kind).toBe('MutatingWebhookConfiguration')
    expect(mwc.metadata.annotations).toEqual(vwc.metadata.annotations) // the same CA injection
    expect(mwc.webhooks).toHaveLength(1)
    const [w] = mwc.webhooks as [Obj]
    const [v] = vwc.webhooks as [Obj]
    expect(w).toMatchObject({
      name: 'mutate.kelp.dev',
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      failurePolicy: 'Fail',
      reinvocationPolicy: 'Never',
    })
    expect(w.clientConfig.service).toEqual({ ...v.clientConfig.service, path: '/mutate' })
    expect(w.namespaceSelector).toEqual(v.namespaceSelector)
    expect(w.matchConditions).toEqual(v.matchConditions)
    for (const r of w.rules) expect(r.operations).toEqual(['CREATE', 'UPDATE'])
    // and the file says why Never
    expect(readFileSync(join(DIR, 'mutatingwebhookconfiguration.yaml'), 'utf8')).toMatch(/IfNeeded here would/)
  })

  it('kelp check accepts it (native validation), nothing denied or warned', () => {
    const report = check({ paths: [join(DIR, 'mutatingwebhookconfiguration.yaml')], kubeVersion: DEFAULT_KUBE_VERSION })
    expect(report.summary).toMatchObject({ errors: 0, denied: 0, warned: 0 })
    const o = report.objects.find((x) => x.kind === 'MutatingWebhookConfiguration')
    expect(o?.outcome).toBe('allowed')
  })

  it('a webhook configuration refused by native validation would be reported (the check is real)', () => {
    const bad = readFileSync(join(DIR, 'mutatingwebhookconfiguration.yaml'), 'utf8').replace(
      'reinvocationPolicy: Never',
      'reinvocationPolicy: Sometimes',
    )
    const file = join(tmpdir(), `kelp-mwc-${process.pid}.yaml`)
    writeFileSync(file, bad)
    const report = check({ paths: [file], kubeVersion: DEFAULT_KUBE_VERSION })
    expect(report.summary.denied).toBe(1)
  })
})
