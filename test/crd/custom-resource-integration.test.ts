import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { CustomResourceDefinitionObject } from '../../src/crd/crd.js'
import { type CustomResourceResult, validateCustomResource } from '../../src/crd/custom-resource.js'
import { CustomResourceDefinitions } from '../../src/crd/registry.js'

// End-to-end transcriptions of custom resource validation tests that run against a live apiserver:
//
// - kubernetes test/integration/apiserver/crd_validation_expressions_test.go (TestCustomResourceValidators,
//   TestCustomResourceValidatorsWithBlockingErrors, TestCustomResourceValidatorsWithSchemaConversion);
// - apiextensions-apiserver test/integration/validation_test.go (the cases about custom resources and
//   the CRD creation errors they depend on).
//
// A CRD create is `CustomResourceDefinitions.load([crd])` (a rejected CRD is in `problems`, with the
// Status the apiserver answers); a CR create is `.validate(cr)`, an update `.validate(cr, { oldObject })`
// with the stored object (`result.object`: pruned and defaulted) as the old object, an update of
// /status adds `subresource: 'status'`. The Go tests check `err.Error()` of the client's StatusError,
// which is the Status message: the assertions below check `status.message` the same way
// (`strings.Contains` → `toContain`). The dynamic client sends no fieldValidation, so the apiserver's
// default (Warn) applies.

type Obj = Record<string, any>

/** Go `err.Error()` of a rejected request: the Status message. */
function errText(r: CustomResourceResult | undefined): string {
  expect(r).toBeDefined()
  expect(r!.allowed).toBe(false)
  return r!.status!.message
}

function expectAllowed(r: CustomResourceResult | undefined): Obj {
  expect(r).toBeDefined()
  expect(r!.errors.map((e) => `${e.field}: ${e.detail}`)).toEqual([])
  expect(r!.allowed).toBe(true)
  return r!.object as Obj
}

function loadOne(crd: unknown): CustomResourceDefinitions {
  const crds = CustomResourceDefinitions.load([crd])
  expect(crds.problems.map((p) => p.status.message)).toEqual([])
  return crds
}

// ---------------------------------------------------------------------------------------------------
// kubernetes test/integration/apiserver/crd_validation_expressions_test.go
// ---------------------------------------------------------------------------------------------------

/** crdWithSchema: cluster-scoped, group mygroup.example.com, one version v1beta1 with the status subresource. */
function crdWithSchema(kind: string, schemaJson: string): CustomResourceDefinitionObject {
  const plural = `${kind.toLowerCase()}s`
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.mygroup.example.com` },
    spec: {
      group: 'mygroup.example.com',
      versions: [
        { name: 'v1beta1', served: true, storage: true, schema: JSON.parse(schemaJson), subresources: { status: {} } },
      ],
      names: { plural, kind },
      scope: 'Cluster',
    },
  }
}

const structuralSchemaWithValidators = `
{
  "openAPIV3Schema": {
    "description": "CRD with CEL validators",
    "type": "object",
    "x-kubernetes-validations": [
      { "rule": "self.spec.x + self.spec.y >= (has(self.status) ? self.status.z : 0)" }
    ],
    "properties": {
      "spec": {
        "type": "object",
        "properties": {
          "x": { "type": "integer", "default": 0 },
          "y": { "type": "integer", "default": 0 },
          "extra": {
            "type": "string",
            "x-kubernetes-validations": [ { "rule": "self.startsWith('anything')" } ]
          },
          "floatMap": {
            "type": "object",
            "additionalProperties": { "type": "number" },
            "x-kubernetes-validations": [ { "rule": "self.all(k, self[k] >= 0.2)" } ]
          },
          "assocList": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "type": "object",
              "properties": {
                "k": { "type": "string", "maxLength": 200},
                "v": { "type": "string", "maxLength": 200}
              },
              "required": ["k"]
            },
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["k"],
            "x-kubernetes-validations": [ { "rule": "self.exists(e, e.k == 'a' && e.v == '1')" } ]
          },
          "limit": {
            "nullable": true,
            "x-kubernetes-validations": [ { "rule": "type(self) == int && self == 123" } ],
            "x-kubernetes-int-or-string": true
          }
        }
      },
      "status": {
        "type": "object",
        "properties": { "z": { "type": "integer", "default": 0 } }
      }
    }
  }
}`

const structuralSchemaWithBlockingErr = `
{
  "openAPIV3Schema": {
    "description": "CRD with CEL validators",
    "type": "object",
    "x-kubernetes-validations": [
      {
        "rule": "self.spec.x + self.spec.y >= (has(self.status) ? self.status.z : 0)",
        "messageExpression": "\\"self.spec.x + self.spec.y must be greater than or equal to 0\\""
      }
    ],
    "properties": {
      "spec": {
        "type": "object",
        "properties": {
          "x": { "type": "integer", "default": 0 },
          "y": { "type": "integer", "default": 0 },
          "extra": {
            "type": "string",
            "maxLength": 200,
            "x-kubernetes-validations": [ { "rule": "self.startsWith('anything')" } ]
          },
          "floatMap": {
            "type": "object",
            "maxProperties": 100,
            "additionalProperties": { "type": "number" },
            "x-kubernetes-validations": [ { "rule": "self.all(k, self[k] >= 0.2)" } ]
          },
          "assocList": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "type": "object",
              "properties": {
                "k": { "type": "string" },
                "v": { "type": "string" }
              },
              "required": ["k", "v"]
            },
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["k"],
            "x-kubernetes-validations": [ { "rule": "self.exists(e, e.k == 'a' && e.v == '1')" } ]
          },
          "limit": {
            "nullable": true,
            "x-kubernetes-validations": [ { "rule": "type(self) == int && self == 123" } ],
            "x-kubernetes-int-or-string": true
          }
        }
      },
      "status": {
        "type": "object",
        "properties": { "z": { "type": "integer", "default": 0 } }
      }
    }
  }
}`

const itemsSchema = (type: 'array' | 'object') => `
{
  "openAPIV3Schema": {
    "description": "CRD with CEL validators",
    "type": "object",
    "properties": {
      "spec": {
        "type": "object",
        "properties": {
          "backend": {
            "type": "${type}",
            "maxItems": 100,
            "items": {
              "type": "object",
              "properties": { "replicas": { "type": "integer" } },
              "required": [ "replicas" ],
              "x-kubernetes-validations": [ { "rule": "0 <= self.replicas && self.replicas <= 10" } ]
            }
          }
        }
      }
    }
  }
}`
const structuralSchemaWithItemsUnderArray = itemsSchema('array')
const structuralSchemaWithItemsUnderObject = itemsSchema('object')

const metadataSchema = (rule: string) => `
{
  "openAPIV3Schema": {
    "description": "CRD with CEL validators",
    "type": "object",
    "x-kubernetes-validations": [ { "rule": "${rule}" } ],
    "properties": {
      "metadata": { "type": "object", "properties": { "name": { "type": "string" } } },
      "spec": { "type": "object", "properties": {} },
      "status": { "type": "object", "properties": {} }
    }
  }
}`
const structuralSchemaWithValidMetadataValidators = metadataSchema('self.metadata.name.size() > 3')
const structuralSchemaWithInvalidMetadataValidators = metadataSchema('self.metadata.labels.size() > 0')

const structuralSchemaWithValidTransitionRule = `
{
  "openAPIV3Schema": {
    "description": "CRD with CEL validators",
    "type": "object",
    "properties": {
      "spec": {
        "type": "object",
        "properties": {
          "someImmutableThing": { "type": "string" },
          "somethingElse": { "type": "string" }
        },
        "x-kubernetes-validations": [ { "rule": "self.someImmutableThing == oldSelf.someImmutableThing" } ]
      },
      "status": { "type": "object", "properties": {} }
    }
  }
}`

const structuralSchemaWithInvalidTransitionRule = `
{
  "openAPIV3Schema": {
    "description": "CRD with CEL validators",
    "type": "object",
    "properties": {
      "spec": {
        "type": "object",
        "properties": {
          "list": {
            "type": "array",
            "items": {
              "type": "string",
              "x-kubernetes-validations": [ { "rule": "self == oldSelf" } ]
            }
          }
        }
      },
      "status": { "type": "object", "properties": {} }
    }
  }
}`

const structuralSchemaWithDefaultMapKeyTransitionRule = `
{
  "openAPIV3Schema": {
    "description": "CRD with CEL validators",
    "type": "object",
    "properties": {
      "spec": {
        "type": "object",
        "properties": {
          "list": {
            "type": "array",
            "x-kubernetes-list-map-keys": [ "k1", "k2" ],
            "x-kubernetes-list-type": "map",
            "maxItems": 1000,
            "items": {
              "type": "object",
              "properties": {
                "k1": { "type": "string" },
                "k2": { "type": "string", "default": "DEFAULT" },
                "v": { "type": "string", "maxLength": 200 }
              },
              "required": ["k1"],
              "x-kubernetes-validations": [ { "rule": "self.v == oldSelf.v" } ]
            }
          }
        }
      },
      "status": { "type": "object", "properties": {} }
    }
  }
}`

const structuralSchemaWithCostLimit = `
{
  "openAPIV3Schema": {
    "description": "CRD with CEL validators",
    "type": "object",
    "properties": {
      "spec": {
        "type": "object",
        "properties": {
          "list": {
            "type": "array",
            "maxItems": 725,
            "items": { "type": "integer" },
            "x-kubernetes-validations": [ { "rule": "self.all(x, self.all(y, x == y))" } ]
          }
        }
      },
      "status": { "type": "object", "properties": {} }
    }
  }
}`

const structuralSchemaWithEmptyObject = `
{
  "openAPIV3Schema": {
    "description": "weird CRD with empty spec, unstructured status. designed to fit test fixtures.",
    "type": "object",
    "x-kubernetes-validations": [ { "rule": "[has(self.spec), has(self.status)].exists_one(x, x)" } ],
    "properties": {
      "spec": { "type": "object" },
      "status": { "type": "object", "additionalProperties": true }
    }
  }
}`

/** A CR of the CRD's only version; the Go tests name them with GenerateName("cr-1"). */
function cr(kind: string, name: string, fields: Obj): Obj {
  return { apiVersion: 'mygroup.example.com/v1beta1', kind, metadata: { name }, ...fields }
}

const opts = { fieldValidation: 'Warn' } as const

describe('crd_validation_expressions_test.go TestCustomResourceValidators', () => {
  describe('Structural schema', () => {
    const crds = loadOne(crdWithSchema('Structural', structuralSchemaWithValidators))

    it('CRD creation MUST allow data that is valid according to x-kubernetes-validations', () => {
      expectAllowed(crds.validate(cr('Structural', 'cr-1abcde', { spec: { x: 2, y: 2, limit: 123 } }), opts))
    })

    it('custom resource create and update MUST NOT allow data that is invalid according to x-kubernetes-validations if the feature gate is enabled', () => {
      // a spec create that is invalid MUST fail validation
      const invalid = cr('Structural', 'cr-1fghij', { spec: { x: -1, y: 0 } })
      expect(errText(crds.validate(invalid, opts))).toContain('failed rule: self.spec.x + self.spec.y')

      // a spec create that is valid MUST pass validation
      const valid = cr('Structural', 'cr-1fghij', {
        spec: {
          x: 2,
          y: 2,
          extra: 'anything?',
          floatMap: { key1: 0.2, key2: 0.3 },
          assocList: [{ k: 'a', v: '1' }],
          limit: null,
        },
      })
      const stored = expectAllowed(crds.validate(valid, opts))

      // spec updates that are invalid MUST fail validation
      const cases: { name: string; spec: Obj }[] = [
        { name: 'spec vs. status default value', spec: { x: 3, y: -4 } },
        { name: 'nested string field', spec: { extra: 'something' } },
        { name: 'nested array', spec: { floatMap: { key1: 0.1, key2: 0.2 } } },
        { name: 'nested associative list', spec: { assocList: [{ k: 'a', v: '2' }] } },
      ]
      let last: Obj = stored
      for (const tc of cases) {
        last = { ...stored, spec: tc.spec }
        const text = errText(crds.validate(last, { ...opts, oldObject: stored }))
        expect(text, tc.name).toContain('failed rule')
      }

      // a status update that is invalid MUST fail validation (the request's spec is the last case's;
      // an update of /status keeps the stored spec)
      const statusUpdate = { ...last, status: { z: 5 } }
      expect(errText(crds.validate(statusUpdate, { ...opts, oldObject: stored, subresource: 'status' }))).toContain(
        'failed rule: self.spec.x + self.spec.y',
      )

      // a status update this is valid MUST pass validation
      expectAllowed(crds.validate({ ...last, status: { z: 3 } }, { ...opts, oldObject: stored, subresource: 'status' }))
    })
  })

  it('CRD writes MUST fail for a non-structural schema containing x-kubernetes-validations', () => {
    // Go persists the non-structural v1beta1 CRD directly in etcd, then updates it with a rule: the
    // update must fail. kelp has no stored CRDs to update: the same CRD in v1 with the rule is created.
    const nonStructural = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'foos.nonstructural.cr.bar.com' },
      spec: {
        group: 'nonstructural.cr.bar.com',
        scope: 'Namespaced',
        names: { plural: 'foos', kind: 'Foo' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { foo: {} },
                'x-kubernetes-validations': [{ rule: 'has(self.foo)' }],
              },
            },
          },
        ],
      },
    }
    const crds = CustomResourceDefinitions.load([nonStructural])
    expect(crds.problems).toHaveLength(1)
    expect(crds.size).toBe(0)
  })

  it('CRD creation MUST fail if a x-kubernetes-validations rule accesses a metadata field other than name', () => {
    const crds = CustomResourceDefinitions.load([
      crdWithSchema('InvalidStructuralMetadata', structuralSchemaWithInvalidMetadataValidators),
    ])
    expect(crds.problems).toHaveLength(1)
    expect(crds.problems[0]!.status.message).toContain("undefined field 'labels'")
  })

  it('CRD creation MUST pass if a x-kubernetes-validations rule accesses metadata.name', () => {
    loadOne(crdWithSchema('ValidStructuralMetadata', structuralSchemaWithValidMetadataValidators))
  })

  it('CRD creation MUST pass for an CRD with empty field', () => {
    loadOne(crdWithSchema('WithEmptyObject', structuralSchemaWithEmptyObject))
  })

  it('CR creation MUST fail if a x-kubernetes-validations rule exceeds the runtime cost limit', () => {
    const crds = loadOne(crdWithSchema('RuntimeCostLimit', structuralSchemaWithCostLimit))
    const list = Array.from({ length: 725 }, () => 20) // genLargeArray(725, 20)
    const text = errText(crds.validate(cr('RuntimeCostLimit', 'cr-1klmno', { spec: { list } }), opts))
    expect(text).toContain('call cost exceeds limit')
  })

  describe('Schema with valid transition rule', () => {
    const crds = loadOne(crdWithSchema('ValidTransitionRule', structuralSchemaWithValidTransitionRule))
    const create = () =>
      expectAllowed(
        crds.validate(
          cr('ValidTransitionRule', 'cr-1pqrst', {
            spec: { someImmutableThing: 'original', somethingElse: 'original' },
          }),
          opts,
        ),
      )

    it('custom resource update MUST pass if a x-kubernetes-validations rule contains a valid transition rule', () => {
      const stored = create()
      const updated = { ...stored, spec: { ...stored.spec, somethingElse: 'new value' } }
      expectAllowed(crds.validate(updated, { ...opts, oldObject: stored }))
    })

    it('custom resource update MUST fail if a x-kubernetes-validations rule contains an invalid transition rule', () => {
      const stored = create()
      const updated = { ...stored, spec: { ...stored.spec, someImmutableThing: 'new value' } }
      expect(errText(crds.validate(updated, { ...opts, oldObject: stored }))).toContain(
        'failed rule: self.someImmutableThing == oldSelf.someImmutableThing',
      )
    })
  })

  it('CRD creation MUST fail if a x-kubernetes-validations rule contains invalid transition rule', () => {
    const crds = CustomResourceDefinitions.load([
      crdWithSchema('InvalidTransitionRule', structuralSchemaWithInvalidTransitionRule),
    ])
    expect(crds.problems).toHaveLength(1)
    expect(crds.problems[0]!.status.message).toContain(
      'oldSelf cannot be used on the uncorrelatable portion of the schema',
    )
  })

  describe('Schema with default map key transition rule', () => {
    const crds = loadOne(crdWithSchema('DefaultMapKeyTransitionRule', structuralSchemaWithDefaultMapKeyTransitionRule))

    it('custom resource update MUST fail if a x-kubernetes-validations if a transition rule contained in a mapList with default map keys fails validation', () => {
      const stored = expectAllowed(
        crds.validate(
          cr('DefaultMapKeyTransitionRule', 'cr-1uvwxy', { spec: { list: [{ k1: 'x', v: 'value' }] } }),
          opts,
        ),
      )
      const updated = structuredClone(stored)
      const item = updated.spec.list[0]
      item.k2 = 'DEFAULT'
      item.v = 'new value'
      expect(errText(crds.validate(updated, { ...opts, oldObject: stored }))).toContain(
        'failed rule: self.v == oldSelf.v',
      )
    })
  })
})

describe('crd_validation_expressions_test.go TestCustomResourceValidatorsWithBlockingErrors', () => {
  const crds = loadOne(crdWithSchema('Structural', structuralSchemaWithBlockingErr))
  const notChecked =
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'

  it('CRD creation MUST allow data that is valid according to x-kubernetes-validations', () => {
    expectAllowed(crds.validate(cr('Structural', 'cr-1abcde', { spec: { x: 2, y: 2, limit: 123 } }), opts))
  })

  it('custom resource create and update MUST NOT allow data if failed validation', () => {
    const text = errText(crds.validate(cr('Structural', 'cr-1fghij', { spec: { x: -1, y: 0 } }), opts))
    expect(text).toContain('self.spec.x + self.spec.y must be greater than or equal to 0')
  })

  it('custom resource create and update MUST NOT allow data if there is blocking error of MaxLength', () => {
    const obj = cr('Structural', 'cr-2abcde', {
      spec: { x: 2, y: 2, extra: 'x'.repeat(201), floatMap: { key1: 0.2, key2: 0.3 }, limit: null },
    })
    expect(errText(crds.validate(obj, opts))).toContain(notChecked)
  })

  it('custom resource create and update MUST NOT allow data if there is blocking error of MaxItems', () => {
    const assocList = Array.from({ length: 101 }, (_, i) => ({ k: 'a', v: `${i + 1}` }))
    const obj = cr('Structural', 'cr-2fghij', {
      spec: { x: 2, y: 2, floatMap: { key1: 0.2, key2: 0.3 }, assocList, limit: null },
    })
    expect(errText(crds.validate(obj, opts))).toContain(notChecked)
  })

  it('custom resource create and update MUST NOT allow data if there is blocking error of MaxProperties', () => {
    const floatMap: Obj = {}
    for (let i = 1; i <= 101; i++) floatMap[`key${i}`] = i / 10
    const obj = cr('Structural', 'cr-2klmno', {
      spec: { x: 2, y: 2, floatMap, assocList: [{ k: 'a', v: '1' }], limit: null },
    })
    expect(errText(crds.validate(obj, opts))).toContain(notChecked)
  })

  it('custom resource create and update MUST NOT allow data if there is blocking error of missing required field', () => {
    const obj = cr('Structural', 'cr-2pqrst', {
      spec: { x: 2, y: 2, floatMap: { key1: 0.2, key2: 0.3 }, assocList: [{ k: '1' }], limit: null },
    })
    expect(errText(crds.validate(obj, opts))).toContain(notChecked)
  })

  it('custom resource create and update MUST NOT allow data if there is blocking error of type', () => {
    const obj = cr('Structural', 'cr-2uvwxy', {
      spec: { x: 2, y: 2, floatMap: { key1: 0.2, key2: 0.3 }, assocList: [{ k: 'a', v: true }], limit: null },
    })
    expect(errText(crds.validate(obj, opts))).toContain(notChecked)
  })
})

describe('crd_validation_expressions_test.go TestCustomResourceValidatorsWithSchemaConversion', () => {
  it('an update after the CRD is replaced by one with items under an object reports the rule compiler error; a create the type error', () => {
    // Create CRD with normal items+array schema, and a valid CR instance
    const first = loadOne(crdWithSchema('Structural', structuralSchemaWithItemsUnderArray))
    const stored = expectAllowed(
      first.validate(cr('Structural', 'cr-1abcde', { spec: { backend: [{ replicas: 8 }] } }), opts),
    )

    // Update CRD with invalid schema items under object (Go: the CRD update succeeds)
    const second = loadOne(crdWithSchema('Structural', structuralSchemaWithItemsUnderObject))

    // an unrelated update to the persisted CR instance: the handler must not panic
    const updated = structuredClone(stored)
    updated.metadata.labels = { key: 'value' }
    // The stored test (2024) checks `Failed to convert`: apiextensions-apiserver 93b42bf ("Update with
    // stdlib errors", July 2024) lowercased the error of pkg/apiserver/schema/cel/compilation.go.
    expect(errText(second.validate(updated, { ...opts, oldObject: stored }))).toContain(
      'rule compiler initialization error: failed to convert to declType for CEL validation rules',
    )

    // Create another CR instance with an array and be rejected
    const text = errText(second.validate(cr('Structural', 'cr-2abcde', { spec: { backend: [{ replicas: 7 }] } }), opts))
    expect(text).toContain('Invalid value: "array": spec.backend in body must be of type object: "array"')
  })
})

// ---------------------------------------------------------------------------------------------------
// apiextensions-apiserver test/integration/validation_test.go
// ---------------------------------------------------------------------------------------------------

/** fixtures.NewNoxuV1CustomResourceDefinition: WishIHadChosenNoxu, v1beta1 with AllowAllSchema. */
function newNoxuV1CustomResourceDefinition(scope: 'Namespaced' | 'Cluster'): CustomResourceDefinitionObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'noxus.mygroup.example.com' },
    spec: {
      group: 'mygroup.example.com',
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { 'x-kubernetes-preserve-unknown-fields': true, type: 'object' } },
        },
      ],
      names: {
        plural: 'noxus',
        singular: 'nonenglishnoxu',
        kind: 'WishIHadChosenNoxu',
        shortNames: ['foo', 'bar', 'abc', 'def'],
        listKind: 'NoxuItemList',
        categories: ['all'],
      },
      scope,
    } as CustomResourceDefinitionObject['spec'],
  }
}

/** fixtures.NewNoxuInstance (num1 is noxuInstanceNum, math.MaxInt64: not exactly representable here, and not checked). */
function newNoxuInstance(namespace: string, name: string): Obj {
  return {
    apiVersion: 'mygroup.example.com/v1beta1',
    kind: 'WishIHadChosenNoxu',
    metadata: { namespace, name },
    content: { key: 'value' },
    num: { num1: 9007199254740991, num2: 1000000 },
  }
}

const validationSchema = (): Obj => ({
  type: 'object',
  required: ['alpha', 'beta'],
  properties: {
    alpha: {
      description: 'Alpha is an alphanumeric string with underscores',
      type: 'string',
      pattern: '^[a-zA-Z0-9_]*$',
    },
    beta: { description: 'Minimum value of beta is 10', type: 'number', minimum: 10 },
    gamma: { description: 'Gamma is restricted to foo, bar and baz', type: 'string', enum: ['foo', 'bar', 'baz'] },
  },
})

function noxuValidationCRD(v1Schema: Obj, v1beta1Schema: Obj): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'noxus.mygroup.example.com' },
    spec: {
      group: 'mygroup.example.com',
      names: {
        plural: 'noxus',
        singular: 'nonenglishnoxu',
        kind: 'WishIHadChosenNoxu',
        shortNames: ['foo', 'bar', 'abc', 'def'],
        listKind: 'NoxuItemList',
      },
      scope: 'Namespaced',
      versions: [
        { name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: v1beta1Schema } },
        { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: v1Schema } },
      ],
    },
  }
}

/** newNoxuValidationCRDs: the same schema for both versions; then v1's with a description. */
function newNoxuValidationCRDs(): Obj[] {
  const withDescription = { ...validationSchema(), description: 'test' }
  return [
    noxuValidationCRD(validationSchema(), validationSchema()),
    noxuValidationCRD(withDescription, validationSchema()),
  ]
}

function newNoxuValidationInstance(namespace: string, name: string): Obj {
  return {
    apiVersion: 'mygroup.example.com/v1beta1',
    kind: 'WishIHadChosenNoxu',
    metadata: { namespace, name },
    alpha: 'foo_123',
    beta: 10,
    gamma: 'bar',
    delta: 'hello',
  }
}

const versionsOf = (crd: Obj): string[] => (crd.spec.versions as { name: string }[]).map((v) => v.name)

describe('validation_test.go TestForProperValidationErrors', () => {
  const ns = 'not-the-default'
  const crds = loadOne(newNoxuV1CustomResourceDefinition('Namespaced'))
  const crd = crds.get('mygroup.example.com', 'WishIHadChosenNoxu')!

  // "bad version" (an object of apiVersion mygroup.example.com/v2 POSTed to the v1beta1 endpoint: `the
  // API version in the data (mygroup.example.com/v2) does not match the expected API version
  // (mygroup.example.com/v1beta1)`) is not transcribed: kelp has no request URL, the object's own
  // apiVersion selects the version.

  it('bad kind', () => {
    // POSTed to the noxus endpoint: the CRD is the endpoint's, the kind the object's own
    const instance = newNoxuInstance(ns, 'foo')
    instance.kind = 'SomethingElse'
    const r = validateCustomResource(crd, instance, opts)
    expect(errText(r)).toContain(
      'SomethingElse.mygroup.example.com "foo" is invalid: kind: Invalid value: "SomethingElse": must be WishIHadChosenNoxu',
    )
  })
})

describe('validation_test.go TestCustomResourceValidation', () => {
  newNoxuValidationCRDs().forEach((noxuDefinition, i) => {
    it(`noxu CRD #${i}: an instance is created in every version`, () => {
      const crds = loadOne(noxuDefinition)
      for (const v of versionsOf(noxuDefinition)) {
        const instance = newNoxuValidationInstance('not-the-default', 'foo')
        instance.apiVersion = `mygroup.example.com/${v}`
        const stored = expectAllowed(crds.validate(instance, opts))
        expect(stored.delta, 'unknown field pruned').toBeUndefined()
      }
    })
  })
})

const fixtureItemsAndType = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.tests.example.com
spec:
  group: tests.example.com
  version: v1beta1
  names:
    plural: foos
    singular: foo
    kind: Foo
    listKind: Foolist
  scope: Cluster
  versions:
  - name: v1beta1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          items-no-type:
            type: object
            properties:
              items:
                type: array
                items:
                  type: object
          items-items-no-type:
            type: object
            properties:
              items:
                type: array
                items:
                  type: array
                  items:
                    type: object
          items-properties-items-no-type:
            type: object
            properties:
              items:
                type: array
                items:
                  type: object
                  properties:
                    items:
                      type: array
                      items:
                        type: object
          type-array-no-items:
            type: object
            properties:
              type:
                type: string
          items-and-type:
            type: object
            properties:
              type:
                type: string
              items:
                type: array
                items:
                  type: object
          default-with-items-and-no-type:
            type: object
            properties:
              type:
                type: string
              items:
                type: array
                items:
                  type: object
            default: {"items": []}
          issue-84880:
            type: object
            properties:
              volumes:
                type: array
                items:
                  type: object
                  properties:
                    downwardAPI:
                      type: object
                      properties:
                        items:
                          items:
                            properties:
                              path:
                                type: string
                            required:
                            - path
                            type: object
                          type: array
`

describe('validation_test.go TestCustomResourceItemsValidation', () => {
  it('creates the CRD and a CR whose fields are named items and type', () => {
    // Go decodes the manifest with the typed codec, which drops spec.version (not a v1 field)
    const crd = parse(fixtureItemsAndType) as Obj
    delete crd.spec.version
    const crds = loadOne(crd)
    const u = {
      apiVersion: 'tests.example.com/v1beta1',
      kind: 'Foo',
      metadata: { name: 'foo' },
      'items-no-type': { items: [{}] },
      'items-items-no-type': { items: [[{}]] },
      'items-properties-items-no-type': { items: [{ items: [{}] }] },
      'type-array-no-items': { type: 'array' },
      'items-and-type': { items: [{}], type: 'array' },
      'issue-84880': { volumes: [{ downwardAPI: { items: [{ path: 'annotations' }] } }] },
    }
    expectAllowed(crds.validate(u, opts))
  })
})

describe('validation_test.go TestCustomResourceUpdateValidation', () => {
  newNoxuValidationCRDs().forEach((noxuDefinition, i) => {
    it(`noxu CRD #${i}: an update without alpha and beta is rejected in every version`, () => {
      const crds = loadOne(noxuDefinition)
      for (const v of versionsOf(noxuDefinition)) {
        const instance = newNoxuValidationInstance('not-the-default', 'foo')
        instance.apiVersion = `mygroup.example.com/${v}`
        const stored = expectAllowed(crds.validate(instance, opts))
        // invalidate the instance
        const invalid = {
          apiVersion: 'mygroup.example.com/v1beta1',
          kind: 'WishIHadChosenNoxu',
          metadata: { namespace: 'not-the-default', name: 'foo' },
          gamma: 'bar',
          delta: 'hello',
        }
        const r = crds.validate(invalid, { ...opts, oldObject: stored })
        expect(r?.allowed, `alpha and beta should be present while updating (${v})`).toBe(false)
      }
    })
  })
})

describe('validation_test.go TestZeroValueValidation', () => {
  const crdManifest = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: zeros.tests.example.com
spec:
  group: tests.example.com
  names:
    plural: zeros
    singular: zero
    kind: Zero
    listKind: Zerolist
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          string:
            type: string
          string_default:
            type: string
            default: ""
          string_null:
            type: string
            nullable: true

          boolean:
            type: boolean
          boolean_default:
            type: boolean
            default: false
          boolean_null:
            type: boolean
            nullable: true

          number:
            type: number
          number_default:
            type: number
            default: 0.0
          number_null:
            type: number
            nullable: true

          integer:
            type: integer
          integer_default:
            type: integer
            default: 0
          integer_null:
            type: integer
            nullable: true

          array:
            type: array
            items:
              type: string
          array_default:
            type: array
            items:
              type: string
            default: []
          array_null:
            type: array
            nullable: true
            items:
              type: string

          object:
            type: object
            properties:
              a:
                type: string
          object_default:
            type: object
            properties:
              a:
                type: string
            default: {}
          object_null:
            type: object
            nullable: true
            properties:
              a:
                type: string
`

  it('zero values are kept, nulls of nullable fields kept, defaults applied', () => {
    const crds = loadOne(parse(crdManifest))
    const crObj = {
      apiVersion: 'tests.example.com/v1',
      kind: 'Zero',
      metadata: { name: 'myzero' },
      string: '',
      string_null: null,
      boolean: false,
      boolean_null: null,
      number: 0,
      number_null: null,
      integer: 0,
      integer_null: null,
      array: [],
      array_null: null,
      object: {},
      object_null: null,
    }
    const created = expectAllowed(crds.validate(crObj, opts))
    expect(created).toEqual({
      apiVersion: 'tests.example.com/v1',
      kind: 'Zero',
      metadata: created.metadata,

      string: '',
      string_null: null,
      boolean: false,
      boolean_null: null,
      number: 0,
      number_null: null,
      integer: 0,
      integer_null: null,
      array: [],
      array_null: null,
      object: {},
      object_null: null,

      string_default: '',
      boolean_default: false,
      number_default: 0,
      integer_default: 0,
      array_default: [],
      object_default: {},
    })
    expect(created.metadata.name).toBe('myzero')
  })
})

describe('validation_test.go TestCustomResourceValidationErrors', () => {
  const ns = 'not-the-default'
  const tests: { name: string; instanceFn: () => Obj; expectedErrors: string[] }[] = [
    {
      name: 'bad alpha',
      instanceFn: () => ({ ...newNoxuValidationInstance(ns, 'foo'), alpha: 'foo_123!' }),
      expectedErrors: ["alpha in body should match '^[a-zA-Z0-9_]*$'"],
    },
    {
      name: 'bad beta',
      instanceFn: () => ({ ...newNoxuValidationInstance(ns, 'foo'), beta: 5 }),
      expectedErrors: ['beta in body should be greater than or equal to 10'],
    },
    {
      name: 'bad gamma',
      instanceFn: () => ({ ...newNoxuValidationInstance(ns, 'foo'), gamma: 'qux' }),
      expectedErrors: ['gamma: Unsupported value: "qux": supported values: "foo", "bar", "baz"'],
    },
    {
      name: 'absent alpha and beta',
      instanceFn: () => ({
        apiVersion: 'mygroup.example.com/v1beta1',
        kind: 'WishIHadChosenNoxu',
        metadata: { namespace: 'not-the-default', name: 'foo' },
        gamma: 'bar',
        delta: 'hello',
      }),
      expectedErrors: ['alpha: Required value', 'beta: Required value'],
    },
  ]
  newNoxuValidationCRDs().forEach((noxuDefinition, i) => {
    const crds = loadOne(noxuDefinition)
    for (const tc of tests) {
      it(`noxu CRD #${i}: ${tc.name}`, () => {
        for (const v of versionsOf(noxuDefinition)) {
          const instance = tc.instanceFn()
          instance.apiVersion = `mygroup.example.com/${v}`
          const text = errText(crds.validate(instance, opts))
          for (const expected of tc.expectedErrors) expect(text, v).toContain(expected)
        }
      })
    }
  })
})

describe('validation_test.go TestCRValidationOnCRDUpdate', () => {
  // The CRD update is a second load of the CRD with the updated schema.
  newNoxuValidationCRDs().forEach((_, i) => {
    for (const v of ['v1beta1', 'v1']) {
      it(`noxu CRD #${i}, version ${v}: a CR rejected by required gamma is accepted once gamma is not required`, () => {
        const definition = newNoxuValidationCRDs()[i]!
        const version = (definition.spec.versions as Obj[]).find((x) => x.name === v)!
        // set stricter schema
        version.schema.openAPIV3Schema.required = ['alpha', 'beta', 'gamma']
        const instanceToCreate = newNoxuValidationInstance('not-the-default', 'foo')
        delete instanceToCreate.gamma
        instanceToCreate.apiVersion = `mygroup.example.com/${v}`

        // CR is rejected
        const rejected = loadOne(definition).validate(instanceToCreate, opts)
        expect(rejected?.allowed).toBe(false)
        expect(rejected?.status?.code).toBe(422) // apierrors.IsInvalid

        // update the CRD to a less stricter schema: CR is now accepted
        version.schema.openAPIV3Schema.required = ['alpha', 'beta']
        expectAllowed(loadOne(definition).validate(instanceToCreate, opts))
      })
    }
  })
})

describe('validation_test.go TestForbiddenFieldsInSchema', () => {
  newNoxuValidationCRDs().forEach((_, i) => {
    for (const v of ['v1beta1', 'v1']) {
      it(`noxu CRD #${i}, version ${v}`, () => {
        const noxuDefinition = newNoxuValidationCRDs()[i]!
        const validationSchema = (noxuDefinition.spec.versions as Obj[]).find((x) => x.name === v)!.schema
          .openAPIV3Schema as Obj
        const existingProperties = validationSchema.properties
        delete validationSchema.properties
        validationSchema.additionalProperties = false
        expect(
          CustomResourceDefinitions.load([structuredClone(noxuDefinition)]).problems,
          'additionalProperties cannot be set to false',
        ).toHaveLength(1)
        // reset
        validationSchema.properties = existingProperties
        delete validationSchema.additionalProperties

        validationSchema.properties.zeta = { type: 'array', uniqueItems: true, additionalProperties: true }
        expect(
          CustomResourceDefinitions.load([structuredClone(noxuDefinition)]).problems,
          'uniqueItems cannot be set to true',
        ).toHaveLength(1)

        validationSchema.$ref = '#/definition/zeta'
        // (UniqueItems: false is omitted by Go's omitempty)
        validationSchema.properties.zeta = { type: 'array', items: { type: 'object' } }
        expect(
          CustomResourceDefinitions.load([structuredClone(noxuDefinition)]).problems,
          '$ref cannot be non-empty string',
        ).toHaveLength(1)

        delete validationSchema.$ref
        loadOne(noxuDefinition)
      })
    }
  })
})
