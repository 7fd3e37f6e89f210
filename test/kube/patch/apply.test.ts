import { describe, expect, it } from 'vitest'
import type { GroupVersionKind } from '../../../src/kube/gvk.js'
import {
  kubectlApplyPatch,
  LastAppliedConfigAnnotation,
  lastAppliedConfiguration,
  withLastAppliedAnnotation,
} from '../../../src/kube/patch/apply.js'
import { builtinPatchMeta } from '../../../src/kube/patch/patch-meta.js'
import { type Map, yamlMap } from './helpers.js'

// kubectl apply (client-side) of a new manifest over an object the old manifest's apply stored. The
// expected patches are what kubectl's patcher sends (strategicpatch.CreateThreeWayMergePatch with the
// kind's patch tags; jsonmergepatch for custom resources), worked out from the Go code's rules.

const schemaFor = (gvk: GroupVersionKind) => builtinPatchMeta('1.33', gvk)
const m = (text: string) => yamlMap(text) as Map

/** The stored object: the old manifest as its apply created it (annotation included) plus what the server added. */
function stored(oldManifest: Map, serverFields: (o: Map) => void): Map {
  const o = withLastAppliedAnnotation(oldManifest)
  serverFields(o)
  return o
}

describe('the last-applied-configuration annotation', () => {
  it('is compact Go JSON of the object without it, keys sorted, HTML escaped, then a newline', () => {
    const cm = m(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  namespace: default
data:
  a: "<b>&"
`)
    expect(lastAppliedConfiguration(cm)).toBe(
      '{"apiVersion":"v1","data":{"a":"\\u003cb\\u003e\\u0026"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"x","namespace":"default"}}\n',
    )
    const annotated = withLastAppliedAnnotation(cm)
    expect((annotated['metadata'] as Map)['annotations']).toEqual({
      [LastAppliedConfigAnnotation]: lastAppliedConfiguration(cm),
    })
    // applying it again leaves the annotation out of itself
    expect(lastAppliedConfiguration(annotated)).toBe(lastAppliedConfiguration(cm))
  })
})

describe('Deployment: a container image changed, an env var removed', () => {
  const oldManifest = m(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: nginx:1.25
        env:
        - {name: A, value: "1"}
        - {name: B, value: "2"}
      - name: sidecar
        image: busybox:1.36
`)
  const newManifest = m(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: nginx:1.26
        env:
        - {name: A, value: "1"}
      - name: sidecar
        image: busybox:1.36
`)
  const current = stored(oldManifest, (o) => {
    const spec = o['spec'] as Map
    spec['replicas'] = 1
    spec['strategy'] = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } }
    const pod = (spec['template'] as Map)['spec'] as Map
    pod['restartPolicy'] = 'Always'
    for (const c of pod['containers'] as Map[]) c['imagePullPolicy'] = 'IfNotPresent'
  })

  it('sends the image by merge key, the env var as a delete directive, $setElementOrder for both lists', () => {
    const r = kubectlApplyPatch({
      lastApplied: oldManifest,
      modified: newManifest,
      current,
      gvk: { group: 'apps', version: 'v1', kind: 'Deployment' },
      schemaFor,
    })
    expect(r.patchType).toBe('strategic')
    expect(r.unchanged).toBe(false)
    expect(r.patch).toEqual({
      metadata: { annotations: { [LastAppliedConfigAnnotation]: lastAppliedConfiguration(newManifest) } },
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }],
            containers: [
              {
                name: 'app',
                image: 'nginx:1.26',
                '$setElementOrder/env': [{ name: 'A' }],
                env: [{ name: 'B', $patch: 'delete' }],
              },
            ],
          },
        },
      },
    })
    const pod = ((r.result['spec'] as Map)['template'] as Map)['spec'] as Map
    // what the server set stays; the rest follows the new manifest
    expect(pod['containers']).toEqual([
      { name: 'app', image: 'nginx:1.26', env: [{ name: 'A', value: '1' }], imagePullPolicy: 'IfNotPresent' },
      { name: 'sidecar', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' },
    ])
    expect(pod['restartPolicy']).toBe('Always')
    expect((r.result['spec'] as Map)['replicas']).toBe(1)
  })
})

describe('Service: a port added', () => {
  const oldManifest = m(`
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
`)
  const newManifest = m(`
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
  - {name: https, port: 443, targetPort: 8443}
`)
  const current = stored(oldManifest, (o) => {
    const spec = o['spec'] as Map
    spec['clusterIP'] = '10.96.0.10'
    spec['clusterIPs'] = ['10.96.0.10']
    spec['type'] = 'ClusterIP'
    spec['ipFamilies'] = ['IPv4']
    spec['ipFamilyPolicy'] = 'SingleStack'
    ;(spec['ports'] as Map[])[0]!['protocol'] = 'TCP'
  })

  it('merges ports by their merge key `port`', () => {
    const r = kubectlApplyPatch({
      lastApplied: oldManifest,
      modified: newManifest,
      current,
      gvk: { group: '', version: 'v1', kind: 'Service' },
      schemaFor,
    })
    expect(r.patch['spec']).toEqual({
      '$setElementOrder/ports': [{ port: 80 }, { port: 443 }],
      ports: [{ name: 'https', port: 443, targetPort: 8443 }],
    })
    const spec = r.result['spec'] as Map
    expect(spec['ports']).toEqual([
      { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
      { name: 'https', port: 443, targetPort: 8443 },
    ])
    expect(spec['clusterIP']).toBe('10.96.0.10')
    expect(spec['ipFamilyPolicy']).toBe('SingleStack')
  })

  it('a port removed from the manifest is deleted by merge key', () => {
    const r = kubectlApplyPatch({
      lastApplied: newManifest,
      modified: oldManifest,
      current: stored(newManifest, () => {}),
      gvk: { group: '', version: 'v1', kind: 'Service' },
      schemaFor,
    })
    expect(r.patch['spec']).toEqual({
      '$setElementOrder/ports': [{ port: 80 }],
      ports: [{ port: 443, $patch: 'delete' }],
    })
    expect((r.result['spec'] as Map)['ports']).toEqual([{ name: 'http', port: 80, targetPort: 8080 }])
  })
})

describe('Job applied again unchanged', () => {
  const manifest = m(`
apiVersion: batch/v1
kind: Job
metadata: {name: pi, namespace: default}
spec:
  template:
    metadata:
      labels: {app: pi}
    spec:
      restartPolicy: Never
      containers:
      - name: pi
        image: perl:5.34
        command: [perl, -Mbignum=bpi, -wle, print bpi(2000)]
`)
  // what the create stored: a generated selector and labels, defaults
  const current = stored(manifest, (o) => {
    const meta = o['metadata'] as Map
    meta['uid'] = '0b9c8a3e-0000-4000-8000-000000000001'
    meta['labels'] = { 'batch.kubernetes.io/controller-uid': '0b9c8a3e-0000-4000-8000-000000000001' }
    const spec = o['spec'] as Map
    spec['backoffLimit'] = 6
    spec['completions'] = 1
    spec['parallelism'] = 1
    spec['selector'] = { matchLabels: { 'batch.kubernetes.io/controller-uid': '0b9c8a3e-0000-4000-8000-000000000001' } }
    const tmeta = (spec['template'] as Map)['metadata'] as Map
    tmeta['labels'] = {
      app: 'pi',
      'batch.kubernetes.io/controller-uid': '0b9c8a3e-0000-4000-8000-000000000001',
      'batch.kubernetes.io/job-name': 'pi',
    }
  })

  it('is a patch {}: unchanged, the stored object kept', () => {
    for (const lastApplied of [manifest, lastAppliedConfiguration(manifest)]) {
      const r = kubectlApplyPatch({
        lastApplied,
        modified: manifest,
        current,
        gvk: { group: 'batch', version: 'v1', kind: 'Job' },
        schemaFor,
      })
      expect(r.patch).toEqual({})
      expect(r.unchanged).toBe(true)
      expect(r.result).toEqual(current)
    }
  })
})

describe('custom resources: JSON merge patch', () => {
  const oldManifest = m(`
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec:
  size: 3
  colors: [red, blue]
  extra: {a: 1}
`)
  const newManifest = m(`
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec:
  size: 3
  colors: [red]
`)
  it('sends changed lists whole and removed fields as null', () => {
    const current = stored(oldManifest, (o) => {
      ;(o['metadata'] as Map)['generation'] = 1
      ;(o['spec'] as Map)['defaulted'] = true
    })
    const r = kubectlApplyPatch({
      lastApplied: oldManifest,
      modified: newManifest,
      current,
      gvk: { group: 'example.com', version: 'v1', kind: 'Widget' },
      schemaFor,
    })
    expect(r.patchType).toBe('merge')
    expect(r.patch).toEqual({
      metadata: { annotations: { [LastAppliedConfigAnnotation]: lastAppliedConfiguration(newManifest) } },
      spec: { colors: ['red'], extra: null },
    })
    expect(r.result['spec']).toEqual({ size: 3, colors: ['red'], defaulted: true })
  })

  it('refuses a renamed object (kubectl: precondition failed)', () => {
    const renamed = { ...newManifest, metadata: { name: 'w2', namespace: 'default' } }
    expect(() =>
      kubectlApplyPatch({
        lastApplied: oldManifest,
        modified: renamed,
        current: stored(oldManifest, () => {}),
        gvk: { group: 'example.com', version: 'v1', kind: 'Widget' },
        schemaFor,
      }),
    ).toThrow('precondition failed')
  })
})
