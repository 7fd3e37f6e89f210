import { describe, expect, it } from 'vitest'
import { CustomResourceDefinitions } from '../../src/crd/registry.js'
import type { KubeVersion } from '../../src/kube/environment.js'
import { errorString } from '../../src/kube/field.js'
import { widgetCrd } from '../fixtures/widget-crd.js'

// A custom resource write answered as the target release answers it, through the registry
// (CustomResourceDefinitions.load(…, { version })). Two upstream changes meet here:
// - apiextensions-apiserver pkg/apiserver/schema/cel/validation.go: up to 1.34 a failed rule's bad
//   value is the schema type (release-1.32 validation_test.go: `root.foo: Invalid value: "string":
//   gotta be baz`, `Invalid value: "object": failed rule: self.m == 2`); kubernetes#132798 and
//   #133832 (first in 1.35) print the value of scalars and none for objects and arrays.
// - apimachinery pkg/util/validation/field/errors.go: up to 1.33 a nil bad value prints "null" and
//   maps / lists Go's %#v (`map[string]interface {}{"name":"a"}`); kubernetes#132314 (first in 1.34)
//   prints JSON. The field texts are apimachinery's own output at release-1.33 / release-1.34 (see
//   test/kube/field.test.ts); the list-type duplicate's value is listtype/validation.go's
//   `map[string]interface{}{keyField: key}`, the blocking error strategy.go's `field.Invalid(nil, nil, …)`.

const crd = widgetCrd({
  names: { kind: 'Widget', plural: 'widgets' },
  scope: 'Cluster',
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': [{ rule: 'self.size == "small"', message: 'must be small' }],
        properties: {
          size: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != "huge"' }] },
          mode: { type: 'string', enum: ['a', 'b'] },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
        },
      },
    },
  },
})

const widget = (spec: unknown) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec })
const errorsAt = (version: KubeVersion | undefined, spec: unknown) => {
  const crds = CustomResourceDefinitions.load([crd], version ? { version } : {})
  expect(crds.problems).toEqual([])
  const r = crds.validate(widget(spec))
  return { errors: r?.errors.map(errorString), message: r?.message }
}

describe('rule failures by release', () => {
  it('1.32 and 1.34: the schema type is the bad value', () => {
    for (const v of ['1.32', '1.34'] as const)
      expect(errorsAt(v, { size: 'huge' })).toEqual({
        errors: [
          'spec: Invalid value: "object": must be small',
          'spec.size: Invalid value: "string": failed rule: self != "huge"',
        ],
        message:
          'The Widget "w" is invalid: \n* spec: Invalid value: "object": must be small\n* spec.size: Invalid value: "string": failed rule: self != "huge"\n',
      })
  })
  it('1.35, 1.37 and the default: the value of a scalar, none for an object', () => {
    for (const v of ['1.35', '1.37', undefined] as const)
      expect(errorsAt(v, { size: 'huge' }).errors).toEqual([
        'spec: Invalid value: must be small',
        'spec.size: Invalid value: "huge": failed rule: self != "huge"',
      ])
  })
})

describe('structural errors by release', () => {
  const dup = { size: 'small', ports: [{ name: 'a' }, { name: 'a' }] }
  it('1.33: a duplicate map-list key in Go syntax', () => {
    expect(errorsAt('1.33', dup).errors).toEqual([
      'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"a"}',
    ])
  })
  it('1.34: as JSON', () => {
    expect(errorsAt('1.34', dup).errors).toEqual(['spec.ports[1]: Duplicate value: {"name":"a"}'])
  })
  const blocked = { size: 'small', mode: 'c' }
  const rest =
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'
  it('1.32: rules blocked by an earlier error, the nil bad value as "null"', () => {
    expect(errorsAt('1.32', blocked).errors).toEqual([
      'spec.mode: Unsupported value: "c": supported values: "a", "b"',
      `<nil>: Invalid value: "null": ${rest}`,
    ])
  })
  it('1.34: as null', () => {
    expect(errorsAt('1.34', blocked).errors).toEqual([
      'spec.mode: Unsupported value: "c": supported values: "a", "b"',
      `<nil>: Invalid value: null: ${rest}`,
    ])
  })
})

// pkg/registry/customresource/validator.go validateKubeFinalizerName: a finalizer name with a dot but
// no path got the generic hint up to release-1.31; kubernetes#127303 (first in 1.32) gives it its own.
describe('finalizer warnings by release', () => {
  const warningsAt = (version: KubeVersion) =>
    CustomResourceDefinitions.load([crd], { version }).validate({
      ...widget({ size: 'small' }),
      metadata: { name: 'w', finalizers: ['example.com'] },
    })?.warnings
  it('1.31: the generic hint', () => {
    expect(warningsAt('1.31')).toEqual([
      'metadata.finalizers: "example.com": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
    ])
  })
  it('1.32: the path hint', () => {
    expect(warningsAt('1.32')).toEqual([
      'metadata.finalizers: "example.com": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers',
    ])
  })
})
