import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { check } from '../../src/check/index.js'
import { DEFAULT_KUBE_VERSION } from '../../src/kube/environment.js'

// docs/deploy: every manifest parses, `kelp check docs/deploy` (the bundled pack: Pod Security
// baseline Deny, restricted Warn, best practices) finds nothing to deny or warn about, and the pieces
// fit together (the names, labels and ports the manifests refer to one another by).

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const DIR = join(ROOT, 'docs/deploy')
const yamlFiles = readdirSync(DIR).filter((f) => f.endsWith('.yaml'))

type Obj = Record<string, any>
const docs: { file: string; object: Obj }[] = []
for (const file of yamlFiles)
  for (const d of parseAllDocuments(readFileSync(join(DIR, file), 'utf8'))) {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]?.message}`)
    const object = d.toJS() as Obj | null
    if (object !== null) docs.push({ file, object })
  }
const one = (kind: string, name?: string): Obj => {
  const found = docs.filter((d) => d.object.kind === kind && (name === undefined || d.object.metadata?.name === name))
  expect(found, `${kind} ${name ?? ''}`).toHaveLength(1)
  return (found[0] as { object: Obj }).object
}

describe('docs/deploy', () => {
  it('has the manifests, and every YAML document parses', () => {
    expect(yamlFiles.sort()).toEqual(
      expect.arrayContaining([
        'certificate.yaml',
        'deployment.yaml',
        'kustomization.yaml',
        'pdb.yaml',
        'service.yaml',
        'validatingwebhookconfiguration.yaml',
      ]),
    )
    for (const f of yamlFiles)
      expect(
        docs.some((d) => d.file === f),
        f,
      ).toBe(true)
    const kustomization = one('Kustomization')
    expect([...kustomization.resources].sort()).toEqual(yamlFiles.filter((f) => f !== 'kustomization.yaml').sort())
  })

  it('kelp check docs/deploy: no errors, nothing denied or warned under the bundled pack', () => {
    const report = check({ paths: [DIR], kubeVersion: DEFAULT_KUBE_VERSION })
    expect(report.summary).toMatchObject({ errors: 0, denied: 0, warned: 0, audited: 0 })
    const deployment = report.objects.find((o) => o.kind === 'Deployment')
    expect(deployment?.outcome).toBe('allowed')
    expect(deployment?.findings).toEqual([])
    // only the kinds kelp has no schema for (cert-manager's, kustomize's) are skipped
    for (const o of report.objects.filter((x) => x.outcome === 'skipped'))
      expect(['Issuer', 'Certificate', 'Kustomization']).toContain(o.kind)
  })

  it('Deployment: 2+ replicas spread over nodes, probes, resources, restricted security context, mounts', () => {
    const d = one('Deployment', 'kelp-webhook')
    expect(d.spec.replicas).toBeGreaterThanOrEqual(2)
    const pod = d.spec.template.spec
    expect(pod.topologySpreadConstraints.map((t: Obj) => t.topologyKey)).toContain('kubernetes.io/hostname')
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } })
    const c = pod.containers[0]
    expect(c.readinessProbe.httpGet).toMatchObject({ path: '/readyz', scheme: 'HTTPS' })
    expect(c.livenessProbe.httpGet).toMatchObject({ path: '/healthz', scheme: 'HTTPS' })
    expect(c.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    })
    expect(Object.keys(c.resources.requests).sort()).toEqual(['cpu', 'memory'])
    expect(Object.keys(c.resources.limits).sort()).toEqual(['cpu', 'memory'])
    const volumes = Object.fromEntries(pod.volumes.map((v: Obj) => [v.name, v]))
    const mounts = Object.fromEntries(c.volumeMounts.map((m: Obj) => [m.name, m.mountPath]))
    expect(volumes.policies.configMap.name).toBe('kelp-policies')
    expect(c.args).toContain(`--policies=${mounts.policies}`)
    const cert = one('Certificate', 'kelp-webhook-tls')
    expect(volumes.tls.secret.secretName).toBe(cert.spec.secretName)
    expect(c.args).toContain(`--tls-cert=${mounts.tls}/tls.crt`)
    expect(c.args).toContain(`--tls-key=${mounts.tls}/tls.key`)
    for (const m of c.volumeMounts) expect(m.subPath, 'subPath mounts are never updated').toBeUndefined()
    expect(pod.serviceAccountName).toBe(one('ServiceAccount').metadata.name)
  })

  it('termination: the grace period covers the preStop sleep, the shutdown delay and the 25 s shutdown timeout', () => {
    const pod = one('Deployment', 'kelp-webhook').spec.template.spec
    const c = pod.containers[0]
    const preStop = c.lifecycle.preStop.sleep.seconds
    const delay = Number(
      /^--shutdown-delay=(\d+)$/.exec(c.args.find((a: string) => a.startsWith('--shutdown-delay=')))?.[1],
    )
    expect(preStop).toBeGreaterThan(0)
    expect(delay).toBeGreaterThan(0) // not ready first, answering while the endpoints update
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + delay + 25)
  })

  it('Service, PodDisruptionBudget and certificate point at the Deployment', () => {
    const d = one('Deployment', 'kelp-webhook')
    const labels = d.spec.template.metadata.labels
    const svc = one('Service', 'kelp-webhook')
    expect(labels).toMatchObject(svc.spec.selector)
    const portName = svc.spec.ports[0].targetPort
    expect(d.spec.template.spec.containers[0].ports.map((p: Obj) => p.name)).toContain(portName)
    const pdb = one('PodDisruptionBudget')
    expect(labels).toMatchObject(pdb.spec.selector.matchLabels)
    expect(pdb.spec.maxUnavailable ?? d.spec.replicas - pdb.spec.minAvailable).toBeLessThan(d.spec.replicas)
    const cert = one('Certificate', 'kelp-webhook-tls')
    const ns = d.metadata.namespace
    expect(cert.spec.dnsNames).toContain(`${svc.metadata.name}.${ns}.svc`)
  })

  it('ValidatingWebhookConfiguration: v1 reviews, no side effects, timeout, failurePolicy, scope, CA injection', () => {
    const vwc = one('ValidatingWebhookConfiguration')
    const cert = one('Certificate', 'kelp-webhook-tls')
    expect(vwc.metadata.annotations['cert-manager.io/inject-ca-from']).toBe(
      `${cert.metadata.namespace}/${cert.metadata.name}`,
    )
    const svc = one('Service', 'kelp-webhook')
    for (const w of vwc.webhooks) {
      expect(w.admissionReviewVersions).toEqual(['v1'])
      expect(w.sideEffects).toBe('None')
      expect(w.timeoutSeconds).toBeGreaterThanOrEqual(1)
      expect(w.timeoutSeconds).toBeLessThanOrEqual(30)
      expect(['Fail', 'Ignore']).toContain(w.failurePolicy)
      expect(w.clientConfig.service).toMatchObject({
        namespace: svc.metadata.namespace,
        name: svc.metadata.name,
        path: '/validate',
        port: svc.spec.ports[0].port,
      })
      const excluded = w.namespaceSelector.matchExpressions.find(
        (e: Obj) => e.key === 'kubernetes.io/metadata.name' && e.operator === 'NotIn',
      )
      expect(excluded.values).toEqual(expect.arrayContaining(['kube-system', svc.metadata.namespace]))
      expect(w.matchConditions.map((m: Obj) => m.expression).join('\n')).toContain(
        `system:serviceaccount:${svc.metadata.namespace}:${one('ServiceAccount').metadata.name}`,
      )
      expect(w.rules.length).toBeGreaterThan(0)
    }
  })

  it('Dockerfile: multi-stage build, production dependencies only, non-root, kelp serve by default, the CLI as a target', () => {
    const text = readFileSync(join(DIR, 'Dockerfile'), 'utf8')
    // build, runtime, and the two images over the runtime: cli (--target cli) and serve (the last, the default)
    expect(text.match(/^FROM /gm)).toEqual(['FROM ', 'FROM ', 'FROM ', 'FROM '])
    expect(text).toMatch(/^FROM runtime AS cli\nENTRYPOINT \["node", "\/app\/dist\/cli\/kelp\.cjs"\]$/m)
    expect(text.trimEnd()).toMatch(
      /FROM runtime AS serve\nEXPOSE 8443\nENTRYPOINT \["node", "dist\/cli\/kelp\.cjs", "serve"\]$/,
    )
    expect(text).toMatch(/^FROM node:20[-\w.]* AS build$/m)
    expect(text).toMatch(/^RUN npm ci --ignore-scripts$/m)
    expect(text).toMatch(/^RUN npm run build$/m)
    expect(text).toMatch(/^RUN npm ci --omit=dev/m)
    expect(text).toMatch(/^USER 1000:1000$/m)
    expect(text).toMatch(/^ENTRYPOINT \["node", "dist\/cli\/kelp\.cjs", "serve"\]$/m)
    // the user the Deployment runs as is the image's
    expect(one('Deployment', 'kelp-webhook').spec.template.spec.securityContext.runAsUser).toBe(1000)
  })
})
