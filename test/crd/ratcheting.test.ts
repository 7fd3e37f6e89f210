import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { Validator } from '../../src/crd/validator.js'
import { RuntimeCELCostBudget } from '../../src/kube/environment.js'
import { errorString, FieldPath } from '../../src/kube/field.js'
import { CorrelatedObject } from '../../src/kube/schema/correlation.js'
import type { JSONSchemaProps } from '../../src/kube/schema/structural.js'

// Transcription of apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go TestRatcheting.
// mustSchema / mustUnstructured decode YAML (tabs replaced by spaces, as FixTabsOrDie does); the
// schema stays apiextensions v1 JSON. Go records the ratcheted failures through a warning recorder on
// the context; kelp returns them as `warnings` (the same `err.Error()` texts).
//
// In the set cases the items are `type: number`: Go decodes `1`, `2` as float64 and kelp as JS
// numbers, and both convert them to CEL doubles under that schema.

const mustSchema = (src: string): JSONSchemaProps => parse(src) as JSONSchemaProps
const mustUnstructured = (src: string): unknown => parse(src)

interface Case {
  name: string
  schema: JSONSchemaProps
  oldObj: unknown
  newObj: unknown
  /** Errors with ratcheting enabled (substrings). */
  errors?: string[]
  /** Errors that ratcheting turns into warnings (exact texts). */
  warnings?: string[]
  runtimeCostBudget?: number
}

const cases: Case[] = [
  {
    name: 'normal CEL expression',
    schema: mustSchema(`
      type: object
      properties:
        foo:
          type: string
          x-kubernetes-validations:
          - rule: self == "bar"
            message: "gotta be bar"
    `),
    oldObj: mustUnstructured(`
      foo: baz
    `),
    newObj: mustUnstructured(`
      foo: baz
    `),
    warnings: ['root.foo: Invalid value: "baz": gotta be bar'],
  },
  {
    name: 'normal CEL expression thats a descendent of an atomic array whose parent is totally unchanged',
    schema: mustSchema(`
      type: array
      x-kubernetes-list-type: atomic
      items:
        type: object
        properties:
          bar:
            type: string
            x-kubernetes-validations:
            - rule: self == "baz"
              message: "gotta be baz"
    `),
    oldObj: mustUnstructured(`
      - bar: bar
    `),
    newObj: mustUnstructured(`
      - bar: bar
    `),
    warnings: ['root[0].bar: Invalid value: "bar": gotta be baz'],
  },
  {
    name: 'normal CEL expression thats a descendent of a set whose parent is totally unchanged',
    schema: mustSchema(`
      type: array
      x-kubernetes-list-type: set
      items:
        type: number
        x-kubernetes-validations:
        - rule: int(self) % 2 == 1
          message: "gotta be odd"
    `),
    oldObj: mustUnstructured(`
      - 1
      - 2
    `),
    newObj: mustUnstructured(`
      - 1
      - 2
    `),
    warnings: ['root[1]: Invalid value: 2: gotta be odd'],
  },
  {
    name: 'normal CEL expression thats a descendent of a set and one of its siblings has changed',
    schema: mustSchema(`
      type: object
      properties:
        stringField:
          type: string
        setArray:
          type: array
          x-kubernetes-list-type: set
          items:
            type: number
            x-kubernetes-validations:
            - rule: int(self) % 2 == 1
              message: "gotta be odd"
    `),
    oldObj: mustUnstructured(`
      stringField: foo
      setArray:
      - 1
      - 3
      - 2
    `),
    newObj: mustUnstructured(`
      stringField: changed but ratcheted
      setArray:
      - 1
      - 3
      - 2
    `),
    warnings: ['root.setArray[2]: Invalid value: 2: gotta be odd'],
  },
  {
    name: 'descendent of a map list whose parent is unchanged',
    schema: mustSchema(`
      type: array
      x-kubernetes-list-type: map
      x-kubernetes-list-map-keys: ["key"]
      items:
        type: object
        properties:
          key:
            type: string
          value:
            type: string
            x-kubernetes-validations:
            - rule: self == "baz"
              message: "gotta be baz"
    `),
    oldObj: mustUnstructured(`
      - key: foo
        value: notbaz
      - key: bar
        value: notbaz
    `),
    newObj: mustUnstructured(`
      - key: foo
        value: notbaz
      - key: bar
        value: notbaz
      - key: baz
        value: baz
    `),
    warnings: [
      'root[0].value: Invalid value: "notbaz": gotta be baz',
      'root[1].value: Invalid value: "notbaz": gotta be baz',
    ],
  },
  {
    name: 'descendent of a map list whose siblings have changed',
    schema: mustSchema(`
      type: array
      x-kubernetes-list-type: map
      x-kubernetes-list-map-keys: ["key"]
      items:
        type: object
        properties:
          key:
            type: string
          value:
            type: string
            x-kubernetes-validations:
            - rule: self == "baz"
              message: "gotta be baz"
    `),
    oldObj: mustUnstructured(`
      - key: foo
        value: notbaz
      - key: bar
        value: notbaz
    `),
    newObj: mustUnstructured(`
      - key: foo
        value: baz
      - key: bar
        value: notbaz
    `),
    warnings: ['root[1].value: Invalid value: "notbaz": gotta be baz'],
  },
  {
    name: 'descendent of a map whose parent is totally unchanged',
    schema: mustSchema(`
      type: object
      properties:
        stringField:
          type: string
        mapField:
          type: object
          properties:
            foo:
              type: string
              x-kubernetes-validations:
              - rule: self == "baz"
                message: "gotta be baz"
            mapField:
              type: object
              properties:
                bar:
                  type: string
                  x-kubernetes-validations:
                  - rule: self == "baz"
                    message: "gotta be nested baz"
    `),
    oldObj: mustUnstructured(`
      stringField: foo
      mapField:
        foo: notbaz
        mapField:
          bar: notbaz
    `),
    newObj: mustUnstructured(`
      stringField: foo
      mapField:
        foo: notbaz
        mapField:
          bar: notbaz
    `),
    warnings: [
      'root.mapField.foo: Invalid value: "notbaz": gotta be baz',
      'root.mapField.mapField.bar: Invalid value: "notbaz": gotta be nested baz',
    ],
  },
  {
    name: 'descendent of a map whose siblings have changed',
    schema: mustSchema(`
      type: object
      properties:
        stringField:
          type: string
        mapField:
          type: object
          properties:
            foo:
              type: string
              x-kubernetes-validations:
              - rule: self == "baz"
                message: "gotta be baz"
            mapField:
              type: object
              properties:
                bar:
                  type: string
                  x-kubernetes-validations:
                  - rule: self == "baz"
                    message: "gotta be baz"
                otherBar:
                  type: string
                  x-kubernetes-validations:
                  - rule: self == "otherBaz"
                    message: "gotta be otherBaz"
    `),
    oldObj: mustUnstructured(`
      stringField: foo
      mapField:
        foo: baz
        mapField:
          bar: notbaz
          otherBar: nototherBaz
    `),
    newObj: mustUnstructured(`
      stringField: foo
      mapField:
        foo: notbaz
        mapField:
          bar: notbaz
          otherBar: otherBaz
    `),
    // Didn't get ratcheted because we changed its value from baz to notbaz
    errors: ['root.mapField.foo: Invalid value: "notbaz": gotta be baz'],
    // Ratcheted because its value remained the same, even though it is invalid
    warnings: ['root.mapField.mapField.bar: Invalid value: "notbaz": gotta be baz'],
  },
  {
    name: 'normal CEL expression thats a descendent of an atomic array whose siblings has changed',
    schema: mustSchema(`
      type: object
      properties:
        stringField:
          type: string
        atomicArray:
          type: array
          x-kubernetes-list-type: atomic
          items:
            type: object
            properties:
              bar:
                type: string
                x-kubernetes-validations:
                - rule: self == "baz"
                  message: "gotta be baz"
    `),
    oldObj: mustUnstructured(`
      stringField: foo
      atomicArray:
      - bar: bar
    `),
    newObj: mustUnstructured(`
      stringField: changed but ratcheted
      atomicArray:
      - bar: bar
    `),
    warnings: ['root.atomicArray[0].bar: Invalid value: "bar": gotta be baz'],
  },
  {
    name: "we can't ratchet a normal CEL expression from an uncorrelatable part of the schema whose parent nodes has changed",
    schema: mustSchema(`
      type: array
      x-kubernetes-list-type: atomic
      items:
        type: object
        properties:
          bar:
            type: string
            x-kubernetes-validations:
            - rule: self == "baz"
              message: "gotta be baz"
    `),
    oldObj: mustUnstructured(`
      - bar: bar
    `),
    newObj: mustUnstructured(`
      - bar: bar
      - bar: baz
    `),
    errors: ['root[0].bar: Invalid value: "bar": gotta be baz'],
  },
  {
    name: 'transition rules never ratchet for correlatable schemas',
    schema: mustSchema(`
      type: object
      properties:
        foo:
          type: string
          x-kubernetes-validations:
          - rule: oldSelf != "bar" && self == "baz"
            message: gotta be baz
    `),
    oldObj: mustUnstructured(`
      foo: bar
    `),
    newObj: mustUnstructured(`
      foo: bar
    `),
    errors: ['root.foo: Invalid value: "bar": gotta be baz'],
  },
  {
    name: 'changing field path does not change ratcheting logic',
    schema: mustSchema(`
      type: object
      x-kubernetes-validations:
      - rule: self.foo == "baz"
        message: gotta be baz
        fieldPath: ".foo"
      properties:
        bar:
          type: string
        foo:
          type: string
    `),
    oldObj: mustUnstructured(`
      foo: bar
    `),
    // Fieldpath is on unchanged field `foo`, but since rule is on the changed parent object we
    // still get an error
    newObj: mustUnstructured(`
      foo: bar
      bar: invalid
    `),
    errors: ['root.foo: Invalid value: gotta be baz'],
  },
  {
    name: 'cost budget errors are not ratcheted',
    schema: mustSchema(`
      type: string
      minLength: 5
      x-kubernetes-validations:
      - rule: self == "baz"
        message: gotta be baz
    `),
    oldObj: 'unchanged',
    newObj: 'unchanged',
    runtimeCostBudget: 1,
    errors: ['validation failed due to running out of cost budget, no further validation rules will be run'],
  },
  {
    name: 'compile errors are not ratcheted',
    schema: mustSchema(`
      type: string
      x-kubernetes-validations:
      - rule: asdausidyhASDNJm
        message: gotta be baz
    `),
    oldObj: 'unchanged',
    newObj: 'unchanged',
    errors: ["rule compile error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'asdausidyhASDNJm'"],
  },
  {
    name: 'typemeta fields are not ratcheted',
    schema: mustSchema(`
      type: object
      properties:
        apiVersion:
          type: string
          x-kubernetes-validations:
          - rule: self == "v1"
        kind:
          type: string
          x-kubernetes-validations:
          - rule: self == "Pod"
    `),
    oldObj: mustUnstructured(`
      apiVersion: v2
      kind: Baz
    `),
    newObj: mustUnstructured(`
      apiVersion: v2
      kind: Baz
    `),
    errors: [
      'root.apiVersion: Invalid value: "v2": failed rule: self == "v1"',
      'root.kind: Invalid value: "Baz": failed rule: self == "Pod"',
    ],
  },
  {
    name: 'nested typemeta fields may still be ratcheted',
    schema: mustSchema(`
      type: object
      properties:
        list:
          type: array
          x-kubernetes-list-type: map
          x-kubernetes-list-map-keys: ["name"]
          maxItems: 2
          items:
            type: object
            properties:
              name:
                type: string
              apiVersion:
                type: string
                x-kubernetes-validations:
                - rule: self == "v1"
              kind:
                type: string
                x-kubernetes-validations:
                - rule: self == "Pod"
        subField:
          type: object
          properties:
            apiVersion:
              type: string
              x-kubernetes-validations:
              - rule: self == "v1"
            kind:
              type: string
              x-kubernetes-validations:
              - rule: self == "Pod"
            otherField:
              type: string
    `),
    oldObj: mustUnstructured(`
      subField:
        apiVersion: v2
        kind: Baz
      list:
      - name: entry1
        apiVersion: v2
        kind: Baz
      - name: entry2
        apiVersion: v3
        kind: Bar
    `),
    newObj: mustUnstructured(`
      subField:
        apiVersion: v2
        kind: Baz
        otherField: newValue
      list:
      - name: entry1
        apiVersion: v2
        kind: Baz
        otherField: newValue2
      - name: entry2
        apiVersion: v3
        kind: Bar
        otherField: newValue3
    `),
    warnings: [
      'root.subField.apiVersion: Invalid value: "v2": failed rule: self == "v1"',
      'root.subField.kind: Invalid value: "Baz": failed rule: self == "Pod"',
      'root.list[0].apiVersion: Invalid value: "v2": failed rule: self == "v1"',
      'root.list[0].kind: Invalid value: "Baz": failed rule: self == "Pod"',
      'root.list[1].apiVersion: Invalid value: "v3": failed rule: self == "v1"',
      'root.list[1].kind: Invalid value: "Bar": failed rule: self == "Pod"',
    ],
  },
]

// The same test at release-1.32 (pkg/apiserver/schema/cel/validation_test.go TestRatcheting): before
// kubernetes#132798 / #133832 (first in 1.35) a failed rule's bad value was the schema type. The cases
// are the same but for the first one's message ("gotta be baz" there); only their expectations differ.
const release132: Record<string, Pick<Case, 'errors' | 'warnings'> & { message?: string }> = {
  'normal CEL expression': { message: 'gotta be baz', warnings: ['root.foo: Invalid value: "string": gotta be baz'] },
  'normal CEL expression thats a descendent of an atomic array whose parent is totally unchanged': {
    warnings: ['root[0].bar: Invalid value: "string": gotta be baz'],
  },
  'normal CEL expression thats a descendent of a set whose parent is totally unchanged': {
    warnings: ['root[1]: Invalid value: "number": gotta be odd'],
  },
  'normal CEL expression thats a descendent of a set and one of its siblings has changed': {
    warnings: ['root.setArray[2]: Invalid value: "number": gotta be odd'],
  },
  'descendent of a map list whose parent is unchanged': {
    warnings: [
      'root[0].value: Invalid value: "string": gotta be baz',
      'root[1].value: Invalid value: "string": gotta be baz',
    ],
  },
  'descendent of a map list whose siblings have changed': {
    warnings: ['root[1].value: Invalid value: "string": gotta be baz'],
  },
  'descendent of a map whose parent is totally unchanged': {
    warnings: [
      'root.mapField.foo: Invalid value: "string": gotta be baz',
      'root.mapField.mapField.bar: Invalid value: "string": gotta be nested baz',
    ],
  },
  'descendent of a map whose siblings have changed': {
    errors: ['root.mapField.foo: Invalid value: "string": gotta be baz'],
    warnings: ['root.mapField.mapField.bar: Invalid value: "string": gotta be baz'],
  },
  'normal CEL expression thats a descendent of an atomic array whose siblings has changed': {
    warnings: ['root.atomicArray[0].bar: Invalid value: "string": gotta be baz'],
  },
  "we can't ratchet a normal CEL expression from an uncorrelatable part of the schema whose parent nodes has changed": {
    errors: ['root[0].bar: Invalid value: "string": gotta be baz'],
  },
  'transition rules never ratchet for correlatable schemas': {
    errors: ['root.foo: Invalid value: "string": gotta be baz'],
  },
  'changing field path does not change ratcheting logic': {
    errors: ['root.foo: Invalid value: "object": gotta be baz'],
  },
  'typemeta fields are not ratcheted': {
    errors: [
      'root.apiVersion: Invalid value: "string": failed rule: self == "v1"',
      'root.kind: Invalid value: "string": failed rule: self == "Pod"',
    ],
  },
  'nested typemeta fields may still be ratcheted': {
    warnings: [
      'root.subField.apiVersion: Invalid value: "string": failed rule: self == "v1"',
      'root.subField.kind: Invalid value: "string": failed rule: self == "Pod"',
      'root.list[0].apiVersion: Invalid value: "string": failed rule: self == "v1"',
      'root.list[0].kind: Invalid value: "string": failed rule: self == "Pod"',
      'root.list[1].apiVersion: Invalid value: "string": failed rule: self == "v1"',
      'root.list[1].kind: Invalid value: "string": failed rule: self == "Pod"',
    ],
  },
}

function runCase(c: Case, version?: '1.32') {
  // NewValidator(c.schema, false, celconfig.PerCallLimit)
  const validator = Validator.create(c.schema, false, version ? { version } : {})
  expect(validator).toBeDefined()
  const budget =
    c.runtimeCostBudget !== undefined && c.runtimeCostBudget !== 0 ? c.runtimeCostBudget : RuntimeCELCostBudget
  const { errors, warnings } = (validator as Validator).validate(
    FieldPath.of('root'),
    c.newObj,
    c.oldObj,
    budget,
    // WithRatcheting(common.NewCorrelatedObject(c.newObj, c.oldObj, &model.Structural{Structural: c.schema}))
    new CorrelatedObject(c.newObj, c.oldObj, c.schema),
  )
  const errs = errors.map(errorString)
  const expectedErrors = c.errors ?? []
  const expectedWarnings = c.warnings ?? []
  expect(errs, 'must have expected number of errors').toHaveLength(expectedErrors.length)
  expect(warnings, 'must have expected number of warnings').toHaveLength(expectedWarnings.length)
  for (const expectedErr of expectedErrors)
    expect(
      errs.some((e) => e.includes(expectedErr)),
      `expected error ${JSON.stringify(expectedErr)} not found in ${JSON.stringify(errs)}`,
    ).toBe(true)
  for (const expectedWarning of expectedWarnings)
    expect(warnings, `expected warning ${JSON.stringify(expectedWarning)} not found`).toContain(expectedWarning)
}

describe('validation_test.go TestRatcheting at release-1.32 (Kubernetes 1.32)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const old = release132[c.name]
      const schema = old?.message
        ? (JSON.parse(JSON.stringify(c.schema).replace('gotta be bar', old.message)) as JSONSchemaProps)
        : c.schema
      runCase(
        {
          ...c,
          schema,
          ...(old?.errors ? { errors: old.errors } : {}),
          ...(old?.warnings ? { warnings: old.warnings } : {}),
        },
        '1.32',
      )
    })
  }
})

describe('validation_test.go TestRatcheting', () => {
  for (const c of cases) it(c.name, () => runCase(c))
})
