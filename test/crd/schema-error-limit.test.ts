import { describe, expect, it } from 'vitest'
import { CustomResourceDefinitions } from '../../src/crd/registry.js'
import { MAX_SCHEMA_ERRORS } from '../../src/crd/structural/openapi-errors.js'
import { widgetCrd } from '../fixtures/widget-crd.js'

// A custom resource with very many wrongly typed values (issue 25: a 3 MiB body of `[0,0,…]` where the schema
// wants objects is 1.5 million errors). Asked of kube-apiserver 1.37.2 (`kubectl create --dry-run=server`, a
// list of objects given N zeros): 1,000 and 20,000 items are answered with every error, one line each,
// `* spec.items[i]: Invalid value: "integer": spec.items[i] in body must be of type object: "integer"` (after 0.2
// and 25 s); 30,000 and 100,000 items end in `Error from server (Timeout): … Timeout: request did not complete
// within requested timeout - context deadline exceeded` (its error deduplication is quadratic). kelp answers
// the list in linear time up to MAX_SCHEMA_ERRORS (it took minutes at 100,000 items before) and the Timeout past it.

const crds = CustomResourceDefinitions.load([
  widgetCrd({
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
          },
        },
      },
    },
  }),
])

const widget = (n: number) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default' },
  spec: { items: new Array(n).fill(0) },
})

describe('custom resources with very many schema errors', () => {
  it('20,000 wrongly typed items: every error, as the apiserver lists them', () => {
    expect(crds.problems).toEqual([])
    const started = performance.now()
    const r = crds.validate(widget(20_000))
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(r?.allowed).toBe(false)
    const lines = (r?.message ?? '').split('\n')
    expect(lines[0]).toBe('The Widget "w" is invalid: ')
    expect(lines.length).toBe(20_002) // the text ends with a newline
    // kubectl printed 2,117,808 bytes for it (the message; 102,808 for 1,000 items)
    expect(r?.message?.length).toBe(2_117_808)
    expect(lines[1]).toBe(
      '* spec.items[0]: Invalid value: "integer": spec.items[0] in body must be of type object: "integer"',
    )
    expect(lines[20_000]).toBe(
      '* spec.items[19999]: Invalid value: "integer": spec.items[19999] in body must be of type object: "integer"',
    )
  })

  it('past MAX_SCHEMA_ERRORS: the Timeout the apiserver answers, without building the errors', () => {
    expect(MAX_SCHEMA_ERRORS).toBeLessThanOrEqual(100_000) // the apiserver timed out at 30,000 and 100,000
    const started = performance.now()
    const r = crds.validate(widget(1_500_000))
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(r?.allowed).toBe(false)
    expect(r?.status).toEqual({
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    })
  })

  it('the bound is per validation: the next object is validated in full', () => {
    expect(crds.validate(widget(MAX_SCHEMA_ERRORS + 1))?.status?.code).toBe(504)
    const r = crds.validate(widget(3))
    expect(r?.status?.code).toBe(422)
    expect(r?.errors.length).toBe(3)
  })
})
