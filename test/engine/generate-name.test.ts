import { describe, expect, it } from 'vitest'
import { validateCustomResource } from '../../src/crd/custom-resource.js'
import { CustomResourceDefinitions } from '../../src/crd/registry.js'
import { PolicySet } from '../../src/engine/policy-set.js'
import {
  MAX_GENERATED_NAME_LENGTH,
  RANDOM_ALPHABET,
  SimpleNameGenerator,
  simpleNameGenerator,
} from '../../src/kube/names.js'
import { widgetCrd } from '../fixtures/widget-crd.js'

// metadata.generateName on CREATE. Kubernetes sources:
// - apiserver pkg/storage/names/generate.go: SimpleNameGenerator, maxNameLength 63, randomLength 5,
//   MaxGeneratedNameLength = 58; generate_test.go TestSimpleNameGenerator ("foo" → prefix "foo", not "foo");
// - apimachinery pkg/util/rand/rand.go: alphanums = "bcdfghjklmnpqrstvwxz2456789";
// - apiserver pkg/registry/generic/registry/store.go create: the name is set before rest.BeforeCreate
//   (the strategy's Validate) and createValidation (validating admission), and
//   pkg/registry/rest/create.go AdmissionToValidateObjectFunc takes the request's name from the object.

type Obj = Record<string, any>
const suffix = `[${RANDOM_ALPHABET}]{5}`

describe('SimpleNameGenerator', () => {
  it('alphabet and length are utilrand / names.go', () => {
    expect(RANDOM_ALPHABET).toBe('bcdfghjklmnpqrstvwxz2456789')
    expect(MAX_GENERATED_NAME_LENGTH).toBe(58)
  })

  it('the base plus 5 characters of the alphabet (TestSimpleNameGenerator)', () => {
    for (let i = 0; i < 50; i++) {
      const name = SimpleNameGenerator('foo')
      expect(name).toMatch(new RegExp(`^foo${suffix}$`))
    }
  })

  it('a base longer than 58 is cut to 58, so the name is at most 63', () => {
    const base = 'a'.repeat(70)
    const name = SimpleNameGenerator(base)
    expect(name).toMatch(new RegExp(`^a{58}${suffix}$`))
    expect(name.length).toBe(63)
    expect(SimpleNameGenerator('b'.repeat(58))).toMatch(new RegExp(`^b{58}${suffix}$`))
  })

  it('deterministic with a given random source', () => {
    const gen = () => simpleNameGenerator(() => 0)
    expect(gen()('web-')).toBe('web-bbbbb')
    expect(simpleNameGenerator(() => 0.9999)('x')).toBe('x99999')
  })
})

const crd = widgetCrd({
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { size: { type: 'integer' } },
        'x-kubernetes-validations': [{ rule: 'self.size <= 3', message: 'size must be at most 3' }],
      },
    },
  },
})

const widget = (size: number, metadata: Obj = { generateName: 'w-' }) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { namespace: 'default', ...metadata },
  spec: { size },
})

describe('a custom resource with generateName only', () => {
  const crds = CustomResourceDefinitions.load([crd])
  const def = [...crds][0]!

  it('is admitted with the generated name (no "name or generateName is required")', () => {
    const r = validateCustomResource(def, widget(1))
    expect(r.errors).toEqual([])
    expect(r.allowed).toBe(true)
    expect((r.object as Obj).metadata.name).toMatch(new RegExp(`^w-${suffix}$`))
    expect((r.object as Obj).metadata.generateName).toBe('w-')
  })

  it('its CEL rules run, and the Invalid status names the generated object', () => {
    const r = validateCustomResource(def, widget(5), { generateName: (b) => `${b}abcde` })
    expect(r.allowed).toBe(false)
    expect(r.errors.map((e) => [e.field, e.detail])).toEqual([['spec', 'size must be at most 3']])
    expect(r.status?.message).toMatch(
      /^Widget\.example\.com "w-abcde" is invalid: spec: Invalid value: .*size must be at most 3$/,
    )
  })

  it('a given name is kept; an UPDATE generates nothing', () => {
    const gen = () => 'never'
    const named = validateCustomResource(def, widget(1, { name: 'mine', generateName: 'w-' }), { generateName: gen })
    expect((named.object as Obj).metadata.name).toBe('mine')
    const old = { ...widget(1, { name: 'mine' }) }
    const upd = validateCustomResource(def, widget(1, { name: 'mine', generateName: 'w-' }), {
      oldObject: old,
      generateName: gen,
    })
    expect((upd.object as Obj).metadata.name).toBe('mine')
  })

  it('a JSON null name decodes to "" in Go: generated', () => {
    const r = validateCustomResource(def, widget(1, { name: null, generateName: 'w-' }), {
      generateName: (b) => `${b}zzzzz`,
    })
    expect(r.allowed).toBe(true)
    expect((r.object as Obj).metadata.name).toBe('w-zzzzz')
  })
})

const policy = (expression: string, messageExpression?: string) => [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'names' },
    spec: {
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: ['', 'example.com'],
            apiVersions: ['v1'],
            operations: ['CREATE'],
            resources: ['configmaps', 'widgets'],
          },
        ],
      },
      validations: [{ expression, ...(messageExpression ? { messageExpression } : {}) }],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'names-binding' },
    spec: { policyName: 'names', validationActions: ['Deny'] },
  },
]

describe('ValidatingAdmissionPolicies see the generated name', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cfg-', namespace: 'default' } }

  it('object.metadata.name and request.name are the generated name; the Forbidden status names it', () => {
    const set = PolicySet.build(policy("object.metadata.name == 'x'", "object.metadata.name + '/' + request.name"), {
      generateName: (b) => `${b}q2w4r`,
    })
    const r = set.validate(cm)
    expect(r.allowed).toBe(false)
    expect(r.generatedName).toBe('cfg-q2w4r')
    expect(r.status?.message).toBe(
      `configmaps "cfg-q2w4r" is forbidden: ValidatingAdmissionPolicy 'names' with binding 'names-binding' denied request: cfg-q2w4r/cfg-q2w4r`,
    )
  })

  it('random by default: the shape of SimpleNameGenerator', () => {
    const set = PolicySet.build(policy("object.metadata.name.startsWith('cfg-') && object.metadata.name.size() == 9"))
    const r = set.validate(cm)
    expect(r.violations).toEqual([])
    expect(r.allowed).toBe(true)
    expect(r.generatedName).toMatch(new RegExp(`^cfg-${suffix}$`))
  })

  it('a custom resource: its CRD rules and then the policies see one generated name', () => {
    let calls = 0
    const set = PolicySet.build([crd, ...policy("object.metadata.name == 'w-00000'")], {
      generateName: (b) => `${b}${String(calls++).padStart(5, '0')}`,
    })
    const denied = set.validate(widget(5))
    expect(denied.customResource?.errors.map((e) => e.detail)).toEqual(['size must be at most 3'])
    expect(denied.customResource?.status?.message).toContain('"w-00000" is invalid')
    const ok = PolicySet.build([crd, ...policy("object.metadata.name == 'w-00000'")], {
      generateName: (b) => `${b}00000`,
    }).validate(widget(1))
    expect(ok.customResource?.allowed).toBe(true)
    expect(ok.violations).toEqual([])
    expect(ok.allowed).toBe(true)
    expect(calls).toBe(1)
  })

  it('no generation on UPDATE, or when a name is given', () => {
    const set = PolicySet.build(policy('true'), { generateName: () => 'never' })
    expect(set.validate({ ...cm, metadata: { ...cm.metadata, name: 'given' } }).generatedName).toBeUndefined()
  })
})
