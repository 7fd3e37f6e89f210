import { describe, expect, it } from 'vitest'
import { decodeStruct } from '../../src/builtin/decode.js'
import { decodeBuiltin } from '../../src/builtin/index.js'
import { storedOnCreate } from '../../src/builtin/stored.js'
import { PolicySet } from '../../src/engine/policy-set.js'

// A list given empty (`[]`): Go's JSON decoding makes it a non-nil empty slice, which the defaulting functions
// (`if x == nil`) keep and validation sees; omitempty drops it when the object is marshalled (and the
// unstructured converter the policies read drops it as well: apimachinery runtime/converter.go toUnstructured,
// `omitempty && isEmpty`), and storage (protobuf) reads any empty list or map back nil. The expected answers
// are kube-apiserver 1.37.2's (`kubectl create --dry-run=server -o json`; the differential corpus's
// empty-list/* mutations ask it again).

type JSONObject = Record<string, unknown>

/** The value at a path of keys and indexes (undefined past a missing step). */
const at = (v: unknown, ...keys: (string | number)[]): unknown =>
  keys.reduce<unknown>(
    (x, k) => (typeof x === 'object' && x !== null ? (x as Record<string, unknown>)[k] : undefined),
    v,
  )

const hpa = (behavior: JSONObject): JSONObject => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'h', namespace: 'default' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3, behavior },
})

describe('decoding keeps a given empty list under keepEmpty', () => {
  const body = hpa({ scaleUp: { policies: [] } })
  it('kept', () => {
    const r = decodeStruct('autoscaling/v2.HorizontalPodAutoscaler', body, true, undefined, true)
    expect(r.keptEmpty).toBe(true)
    expect(at(r.object, 'spec', 'behavior', 'scaleUp')).toEqual({ policies: [] })
  })
  it('dropped as Go marshals it otherwise', () => {
    const r = decodeStruct('autoscaling/v2.HorizontalPodAutoscaler', body)
    expect(r.keptEmpty).toBeUndefined()
    expect(at(r.object, 'spec', 'behavior', 'scaleUp')).toEqual({})
  })
  it('decodeBuiltin returns the marshalled form unless asked', () => {
    const d = decodeBuiltin(body)?.object as JSONObject
    const scaleUp = ((d.spec as JSONObject).behavior as JSONObject).scaleUp as JSONObject
    // defaulting kept the empty list (copyHPAScalingRules: `if from.Policies != nil`), then omitempty dropped it
    expect(scaleUp.policies).toBeUndefined()
    expect(scaleUp.selectPolicy).toBe('Max')
    const kept = decodeBuiltin(body, { keepEmpty: true })
    expect(kept?.keptEmpty).toBe(true)
    expect(at(kept?.object, 'spec', 'behavior', 'scaleUp', 'policies')).toEqual([])
  })
})

describe('validation sees it (kube-apiserver 1.37.2)', () => {
  const set = PolicySet.build([])
  it.each([
    ['scaleUp', 'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy'],
    ['scaleDown', 'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy'],
  ])('behavior.%s.policies: []', (rule, message) => {
    const r = set.validate(hpa({ [rule]: { policies: [] } }))
    expect(r.allowed).toBe(false)
    expect(r.builtin?.message).toBe(`The HorizontalPodAutoscaler "h" is invalid: ${message}`)
  })
  it('absent policies are defaulted', () => {
    expect(set.validate(hpa({ scaleUp: { selectPolicy: 'Max' } })).allowed).toBe(true)
  })
})

describe('the policies and the stored object see it marshalled', () => {
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'no-empty' },
    spec: {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
        ],
      },
      validations: [
        { expression: '!has(object.spec.template.spec.tolerations)', message: 'tolerations seen' },
        { expression: '!has(object.spec.template.spec.containers[0].env)', message: 'env seen' },
      ],
    },
  }
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'no-empty' },
    spec: { policyName: 'no-empty', validationActions: ['Deny'] },
  }
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'a' } },
      template: {
        metadata: { labels: { app: 'a' } },
        spec: { tolerations: [], containers: [{ name: 'c', image: 'nginx', env: [] }] },
      },
    },
  }
  it('an omitempty empty list is absent to the policies and in the result', () => {
    const r = PolicySet.build([policy, binding]).validate(deployment)
    expect(r.violations).toEqual([])
    expect(r.allowed).toBe(true)
    expect(at(r.builtin?.object, 'spec', 'template', 'spec', 'tolerations')).toBeUndefined()
  })
  it('stored: a Role with rules: [] has rules null, a LimitRange with limits: [] limits null', () => {
    const role = decodeBuiltin({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r', namespace: 'default' },
      rules: [],
    })?.object as JSONObject
    // encoding/json writes the non-omitempty empty slice as []; the object read back from storage has nil
    expect(role.rules).toEqual([])
    expect(storedOnCreate(role, { namespace: 'default', namespaced: true }).rules).toBeNull()
    const lr = decodeBuiltin({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'l', namespace: 'default' },
      spec: { limits: [] },
    })?.object as JSONObject
    expect(storedOnCreate(lr, { namespace: 'default', namespaced: true }).spec).toEqual({ limits: null })
  })
})
