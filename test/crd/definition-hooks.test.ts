import { describe, expect, it } from 'vitest'
import type { CelSchemaInput, DefaultValueInput, JSONSchemaProps } from '../../src/crd/definition/index.js'
import { validateCustomResourceDefinition } from '../../src/crd/definition/index.js'
import { errorString, field } from '../../src/kube/field.js'
import { widgetCrd } from '../fixtures/widget-crd.js'

// Where and with what the hooks are called: validateCustomResourceDefinitionValidation and
// ValidateCustomResourceDefinitionOpenAPISchema (validation.go) compile a node's rules only when the
// schema is structural with valid defaults and nothing at the node or below it is wrong; CEL
// contexts follow properties, additionalProperties and items (cel_validation.go).

type Json = Record<string, unknown>

function crd(schema: Json, versions?: Json[]): Json {
  return widgetCrd({ schema, versions })
}

function record(obj: unknown): { inputs: CelSchemaInput[]; errors: string[] } {
  const inputs: CelSchemaInput[] = []
  const errors = validateCustomResourceDefinition(obj, {
    celRules: (input) => {
      inputs.push(input)
      return []
    },
  }).map(errorString)
  return { inputs, errors }
}

const rule = (r: string) => ({ 'x-kubernetes-validations': [{ rule: r }] })
const sitePaths = (i: CelSchemaInput) => i.sites.map((s) => s.path.toString())

describe('validation_test.go TestCelContext schema: sites and their order', () => {
  // the schema of TestCelContext, as a CRD root
  const schema = {
    type: 'object',
    ...rule('self.size() < 100'),
    additionalProperties: {
      type: 'array',
      items: {
        type: 'object',
        ...rule('has(self.field)'),
        properties: { field: { type: 'string', ...rule("self.startsWith('abc')") } },
      },
    },
  }
  it('children are compiled before their parent', () => {
    // additionalProperties at the root is not structural: take it one level down
    const { inputs, errors } = record(crd({ type: 'object', properties: { m: schema } }))
    expect(errors).toEqual([])
    expect(inputs).toHaveLength(1)
    const input = inputs[0] as CelSchemaInput
    expect(input.rootPath.toString()).toBe('spec.validation.openAPIV3Schema')
    const M = 'spec.validation.openAPIV3Schema.properties[m]'
    expect(sitePaths(input)).toEqual([
      `${M}.additionalProperties.items.properties[field]`,
      `${M}.additionalProperties.items`,
      M,
    ])
    expect(input.sites.map((s) => s.steps)).toEqual([
      [
        { kind: 'property', name: 'm' },
        { kind: 'additionalProperties' },
        { kind: 'items' },
        { kind: 'property', name: 'field' },
      ],
      [{ kind: 'property', name: 'm' }, { kind: 'additionalProperties' }, { kind: 'items' }],
      [{ kind: 'property', name: 'm' }],
    ])
    // items of a list that is not a map list cannot be correlated
    expect(input.sites.map((s) => s.uncorrelatablePath?.toString())).toEqual([
      `${M}.additionalProperties`,
      `${M}.additionalProperties`,
      undefined,
    ])
    expect(input.suppressPerExpressionCost).toBe(false)
    expect(input.preexistingRules.size).toBe(0)
  })
})

describe('validation_test.go TestCostInfo: maxCardinality', () => {
  const map = (maxProperties?: number): Json => ({
    type: 'object',
    ...(maxProperties === undefined ? {} : { maxProperties }),
  })
  const array = (maxItems?: number): Json => ({ type: 'array', ...(maxItems === undefined ? {} : { maxItems }) })
  const object = (): Json => ({ type: 'object' })
  const unboundedMap = (): Json => ({ type: 'object', map: true })
  /** Nests the chain (each the parent of the next) and a string leaf with a rule, under root property x. */
  function chain(schemas: Json[]): Json {
    let child: Json = { type: 'string', ...rule('self == "a"') }
    for (let i = schemas.length - 1; i >= 0; i--) {
      const { map: isMap, ...s } = schemas[i] as Json
      if (s.type === 'array') child = { ...s, items: child }
      else if (isMap === true || 'maxProperties' in s) child = { ...s, additionalProperties: child }
      else child = { ...s, properties: { c: child } }
    }
    return { type: 'object', properties: { x: child } }
  }
  const cases: [string, Json[], bigint | undefined][] = [
    ['object', [object()], 1n],
    ['array', [array(5)], 5n],
    ['unbounded array', [array()], undefined],
    ['map', [map(10)], 10n],
    ['unbounded map', [unboundedMap()], undefined],
    ['array inside map', [map(5), array(5)], 25n],
    ['unbounded array inside bounded map', [map(5), array()], undefined],
    ['object inside array', [array(3), object()], 3n],
    ['map inside object inside array', [array(2), object(), map(4)], 8n],
    [
      'integer overflow bounds check',
      [array(Number.MAX_SAFE_INTEGER), array(Number.MAX_SAFE_INTEGER)],
      (1n << 64n) - 1n,
    ],
  ]
  for (const [name, schemas, expected] of cases) {
    it(name, () => {
      const { inputs, errors } = record(crd(chain(schemas)))
      expect(errors).toEqual([])
      const sites = inputs[0]?.sites ?? []
      expect(sites).toHaveLength(1)
      expect(sites[0]?.maxCardinality).toBe(expected)
    })
  }
})

describe('gating: CEL runs only without schema errors at the node or below (validation.go)', () => {
  it('a structural error anywhere: no CEL context, the hook is not called', () => {
    const { inputs, errors } = record(
      crd({ type: 'object', ...rule('true'), properties: { a: { description: 'no type' } } }),
    )
    expect(inputs).toEqual([])
    expect(errors).toEqual([
      'spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields',
    ])
  })
  it('a schema error below a node drops the node, not its siblings or their ancestors without errors', () => {
    const schema = {
      type: 'object',
      properties: {
        bad: {
          type: 'object',
          ...rule('true'),
          properties: { l: { type: 'string', 'x-kubernetes-list-type': 'set' } },
        },
        good: { type: 'string', ...rule('self == "x"') },
      },
    }
    const { inputs, errors } = record(crd(schema))
    expect(errors).toEqual([
      'spec.validation.openAPIV3Schema.properties[bad].properties[l].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified',
    ])
    expect(inputs.flatMap(sitePaths)).toEqual(['spec.validation.openAPIV3Schema.properties[good]'])
  })
  it('an error in the node’s own rule checks drops the node', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'true' }, { rule: 'true', message: ' ' }] },
      },
    }
    const { inputs } = record(crd(schema))
    expect(inputs.flatMap(sitePaths)).toEqual([])
  })
  it('properties of an object with an unknown map type: children are sites, uncorrelatable within the object', () => {
    const schema = {
      type: 'object',
      properties: {
        o: { type: 'object', 'x-kubernetes-map-type': 'other', properties: { a: { type: 'string', ...rule('true') } } },
      },
    }
    const { inputs, errors } = record(crd(schema))
    expect(errors).toEqual([
      'spec.validation.openAPIV3Schema.properties[o].x-kubernetes-map-type: Unsupported value: "other": supported values: "atomic", "granular"',
    ])
    const site = inputs[0]?.sites[0]
    expect(site?.path.toString()).toBe('spec.validation.openAPIV3Schema.properties[o].properties[a]')
    expect(site?.uncorrelatablePath?.toString()).toBe('spec.validation.openAPIV3Schema.properties[o]')
  })
  it('items of a map list are correlatable', () => {
    const schema = {
      type: 'object',
      properties: {
        l: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } }, ...rule('true') },
        },
      },
    }
    const { inputs } = record(crd(schema))
    expect(inputs[0]?.sites.map((s) => [s.path.toString(), s.uncorrelatablePath])).toEqual([
      ['spec.validation.openAPIV3Schema.properties[l].items', undefined],
    ])
  })
})

describe('hook calls and the place of their errors', () => {
  it('one call per distinct version schema, with its root path', () => {
    const a = { type: 'object', ...rule('true') }
    const b = { type: 'object', ...rule('false') }
    const versions = [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: a } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: b } },
    ]
    const { inputs } = record(crd(a, versions))
    expect(inputs.map((i) => i.rootPath.toString())).toEqual([
      'spec.versions[0].schema.openAPIV3Schema',
      'spec.versions[1].schema.openAPIV3Schema',
    ])
    expect(inputs.map((i) => (i.root as JSONSchemaProps)['x-kubernetes-validations']?.[0]?.rule)).toEqual([
      'true',
      'false',
    ])
  })
  it('CEL errors come after the schema errors of the same schema, before later checks', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', 'x-kubernetes-list-map-keys': ['k'] },
        b: { type: 'string', ...rule('self.nope') },
      },
    }
    const obj = crd(schema)
    const spec = obj.spec as Json
    spec.names = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'Widget' }
    ;(spec.versions as Json[])[0] = {
      ...((spec.versions as Json[])[0] as Json),
      additionalPrinterColumns: [{ name: 'B', type: 'text', jsonPath: '.spec.b' }],
    }
    const errs = validateCustomResourceDefinition(obj, {
      celRules: (input) =>
        input.sites.map((s) =>
          field.invalid(s.path.child('x-kubernetes-validations').index(0).child('rule'), 'x', 'from hook'),
        ),
    }).map(errorString)
    expect(errs).toEqual([
      'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
      'spec.validation.openAPIV3Schema.properties[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty',
      'spec.validation.openAPIV3Schema.properties[b].x-kubernetes-validations[0].rule: Invalid value: "x": from hook',
      'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
    ])
  })
})

describe('the defaults hook (structuraldefaulting.ValidateDefaults)', () => {
  it('is called per default after pruning and metadata checks passed', () => {
    const calls: DefaultValueInput[] = []
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', default: 'x' },
        o: { type: 'object', properties: { x: { type: 'string' } }, default: { y: 1 } },
      },
    }
    const errs = validateCustomResourceDefinition(crd(schema), {
      defaultValues: (input) => {
        calls.push(input)
        return {
          errors: [field.invalid(input.path, input.value, 'hook')],
          remainingCostBudget: input.remainingCostBudget - 1,
        }
      },
    }).map(errorString)
    expect(calls.map((c) => [c.path.toString(), c.value, c.isResourceRoot, c.remainingCostBudget])).toEqual([
      ['spec.validation.openAPIV3Schema.properties[a].default', 'x', false, 10_000_000],
      ['spec.validation.openAPIV3Schema.properties[o].default', { y: 1 }, false, 9_999_999],
    ])
    expect(errs).toEqual([
      'spec.validation.openAPIV3Schema.properties[a].default: Invalid value: "x": hook',
      'spec.validation.openAPIV3Schema.properties[o].default: Invalid value: {"y":1}: must not have unknown fields',
      'spec.validation.openAPIV3Schema.properties[o].default: Invalid value: {"y":1}: hook',
    ])
  })
  it('a spent budget stops the walk', () => {
    let n = 0
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', default: 'x' }, b: { type: 'string', default: 'y' } },
    }
    validateCustomResourceDefinition(crd(schema), {
      defaultValues: () => {
        n++
        return { errors: [], remainingCostBudget: -1 }
      },
    })
    expect(n).toBe(1)
  })
  it('default errors disable CEL', () => {
    const schema = {
      type: 'object',
      ...rule('true'),
      properties: { o: { type: 'object', properties: { x: { type: 'string' } }, default: { y: 1 } } },
    }
    expect(record(crd(schema)).inputs).toEqual([])
  })
})
