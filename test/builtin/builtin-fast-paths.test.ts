import { describe, expect, it } from 'vitest'
import { DropDisabledTemplateFields } from '../../src/builtin/drop-disabled-pod.js'
import { validateAnnotationsAndFieldsMatch } from '../../src/builtin/validation/core/pod-security.js'
import { isNonInteger, quantity } from '../../src/builtin/validation/core/resources.js'
import { fractional, getWarningsForPodTemplate } from '../../src/builtin/warnings/pod.js'
import { defaultFeatureGates } from '../../src/kube/feature-gates.js'
import { FieldPath } from '../../src/kube/field.js'
import type { JSONObject } from '../../src/kube/values/json.js'

// The built-in path's shortcuts (issue 29) give the answers of the full computation. Expected values from a
// kube-apiserver v1.37.2 (`kubectl apply --dry-run=server -o yaml` of the Deployment below: its warnings and
// stored template) and from kubernetes v1.37.2 pkg/api/persistentvolumeclaim/util_test.go TestWarnings
// (`200m`, `100m` warned; `200`, `200Mi` not).

const template = (): JSONObject => ({
  metadata: { labels: { app: 'p' } },
  spec: {
    initContainers: [
      {
        name: 'init',
        image: 'busybox',
        restartPolicy: 'Always',
        startupProbe: { httpGet: { port: 80, protocol: 'H2C' } },
      },
    ],
    containers: [
      {
        name: 'a',
        image: 'busybox',
        livenessProbe: { grpc: { port: 9000, mode: 'TLS' } },
        readinessProbe: { httpGet: { port: 80, protocol: 'H2C' } },
        lifecycle: { postStart: { httpGet: { port: 81, protocol: 'H2C' } }, preStop: { httpGet: { port: 82 } } },
        resources: {
          limits: { memory: '1E', 'ephemeral-storage': '1000k' },
          requests: { memory: '4m', 'ephemeral-storage': '0' },
        },
      },
      {
        name: 'b',
        image: 'busybox',
        readinessProbe: { grpc: { port: 9000 } },
        resources: { limits: { memory: '512Mi' }, requests: { memory: '1500m' } },
      },
    ],
  },
})

describe('drop-disabled probes and handlers (H2CContainerProbe, GRPCContainerProbeTLS off in 1.37)', () => {
  it('drops every httpGet protocol and grpc mode as the apiserver stores the template', () => {
    const t = template()
    DropDisabledTemplateFields(t, undefined, defaultFeatureGates(37))
    const spec = t.spec as { initContainers: JSONObject[]; containers: JSONObject[] }
    expect(spec.initContainers[0]?.startupProbe).toEqual({ httpGet: { port: 80 } })
    expect(spec.containers[0]?.livenessProbe).toEqual({ grpc: { port: 9000 } })
    expect(spec.containers[0]?.readinessProbe).toEqual({ httpGet: { port: 80 } })
    expect(spec.containers[0]?.lifecycle).toEqual({
      postStart: { httpGet: { port: 81 } },
      preStop: { httpGet: { port: 82 } },
    })
    expect(spec.containers[1]?.readinessProbe).toEqual({ grpc: { port: 9000 } })
  })

  it('keeps them when the old template uses them (an update)', () => {
    const t = template()
    DropDisabledTemplateFields(t, template(), defaultFeatureGates(37))
    expect(t).toEqual(template())
  })

  it('reads lists holding non-objects without throwing, dropping from the objects only', () => {
    const t: JSONObject = { spec: { containers: [null, 3, { readinessProbe: { httpGet: { protocol: 'H2C' } } }] } }
    DropDisabledTemplateFields(t, undefined, defaultFeatureGates(37))
    expect(t).toEqual({ spec: { containers: [null, 3, { readinessProbe: { httpGet: {} } }] } })
  })
})

describe('fractional byte values (GetWarningsForPodTemplate)', () => {
  it('warns as the apiserver does, for 4m and 1500m only', () => {
    expect(getWarningsForPodTemplate(FieldPath.of('spec', 'template'), template(), 37).sort()).toEqual([
      'spec.template.spec.containers[0].resources.requests[memory]: fractional byte value "4m" is invalid, must be an integer',
      'spec.template.spec.containers[1].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer',
    ])
  })

  it.each([
    ['200m', '200m'],
    ['100m', '100m'],
    ['200', undefined],
    ['200Mi', undefined],
  ])('%s (persistentvolumeclaim TestWarnings)', (text, want) => {
    expect(fractional(text)).toBe(want)
  })

  // the shortcut for whole texts against the full parse and canonical form, on every suffix and edge
  const whole = ['0', '00', '7', '0Ki', '1E', '1Ei', '1000k', '512Mi', '9223372036854775807', '9223372036854775808']
  const more = [...whole, `${'9'.repeat(40)}`, `${'1'.repeat(30)}P`, '1e3', '1E3', '1.5Gi', '0.5', '1e-3', '+1', '-1Mi']
  it.each(more)('%s: the same answer as the full computation', (text) => {
    const q = quantity(text)
    expect(fractional(text)).toBe(q !== undefined && isNonInteger(q) ? q.toString() : undefined)
  })
  it('a whole text is never fractional', () => {
    for (const text of whole) expect(fractional(text)).toBeUndefined()
  })
})

describe('container seccomp and AppArmor annotation warnings (GetWarningsForPodTemplate)', () => {
  const at = FieldPath.of('spec', 'template')
  const annotated = (annotations: string): JSONObject => ({
    metadata: { annotations: JSON.parse(annotations) },
    spec: {
      containers: [{ name: 'a' }, { name: 'b', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }],
    },
  })
  // the same annotations but __proto__ on a Deployment's template: these two warnings from a kube-apiserver v1.37.2
  it('warns about one among other annotations, __proto__ included', () => {
    const t = annotated(
      '{"__proto__": "x", "container.seccomp.security.alpha.kubernetes.io/a": "runtime/default", "container.seccomp.security.alpha.kubernetes.io/b": "runtime/default", "container.apparmor.security.beta.kubernetes.io/a": "runtime/default"}',
    )
    expect(getWarningsForPodTemplate(at, t, 37).sort()).toEqual([
      'spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/a]: deprecated since v1.30; use the "appArmorProfile" field instead',
      'spec.template.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/a]: non-functional in v1.27+; use the "seccompProfile" field instead',
    ])
  })
  it('warns about none for other annotations', () => {
    expect(getWarningsForPodTemplate(at, annotated('{"__proto__": "x", "container.seccomp": "y"}'), 37)).toEqual([])
  })
})

describe('seccomp and AppArmor annotations against fields, without such annotations', () => {
  const spec = {
    securityContext: { seccompProfile: { type: 'RuntimeDefault' }, appArmorProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'a', securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'x' } } }],
  }
  const p = FieldPath.of('spec')
  it('finds nothing to match for other annotations, __proto__ included', () => {
    const annotations = JSON.parse('{"__proto__": "x", "example.com/a": "b", "container.seccomp": "y"}')
    expect(validateAnnotationsAndFieldsMatch(annotations, spec, p)).toEqual([])
    expect(validateAnnotationsAndFieldsMatch(undefined, spec, p)).toEqual([])
  })
  it('still matches one such annotation among others', () => {
    const annotations = JSON.parse(
      '{"__proto__": "x", "container.apparmor.security.beta.kubernetes.io/a": "unconfined"}',
    )
    expect(validateAnnotationsAndFieldsMatch(annotations, spec, p).map((e) => e.field)).toEqual([
      'spec.containers[0].securityContext.appArmorProfile.type',
    ])
  })
})
