import { describe, it } from 'vitest'
import { parse } from 'yaml'
import type { CustomResourceDefinitionObject } from '../../src/crd/crd.js'
import { CustomResourceDefinitions } from '../../src/crd/registry.js'
import type { JSONSchemaProps } from '../../src/kube/schema/structural.js'

// Transcription of apiextensions-apiserver test/integration/ratcheting_test.go TestRatchetingFunctionality
// (CRDValidationRatcheting, GA and on by default since 1.33): each case's sequence of CRD schema
// updates and server-side applies of one custom resource, and whether each apply is accepted.
//
// The harness (runTests) in kelp's terms:
// - the CRD is mycrds.mygroup.example.com, kind MyCoolCRD, namespaced, version v1beta1 with the
//   status subresource; `updateMyCRDV1Beta1Schema` replaces the version's openAPIV3Schema and loads the
//   CRD again (the Go operation fails when the CRD update is rejected: here when `problems` is not
//   empty); `patchMyCRDV1Beta1Schema` JSON-merge-patches the current schema first (RFC 7386, as
//   jsonpatch.MergePatch, then json.Unmarshal into JSONSchemaProps, which drops unknown keys). The
//   sentinel property Go adds to detect when the new schema is served is left out: kelp serves it at once.
// - `applyPatchOperation` is a server-side apply by the single field manager "manager": it owns every
//   field it applied, so the object after the apply is the applied configuration (fields it omits are
//   removed). That is a CREATE when no object exists, else an UPDATE of the stored object (the previous
//   result's `object`). The apply sends no fieldValidation: the apiserver's default, Warn.
// - Each case runs a second time with StatusSubresource: the schema becomes `{type: object, properties:
//   {status: <schema>}}` (schema patches are nested under properties.status), and each apply becomes
//   `{status: <patch>}`: a Create when the object does not exist (which drops status), then an apply to
//   /status (an UPDATE of /status of the stored object).
// - `expectError` expects the operation to fail.

type Obj = Record<string, any>

const group = 'mygroup.example.com'
const version = 'v1beta1'
const kind = 'MyCoolCRD'
const myCRDInstanceName = 'mycrdinstance'

const stringSchema: JSONSchemaProps = { type: 'string' }
const stringMapSchema: JSONSchemaProps = { type: 'object', additionalProperties: stringSchema }
const numberSchema: JSONSchemaProps = { type: 'integer' }
const numbersMapSchema: JSONSchemaProps = { type: 'object', additionalProperties: numberSchema }

/** The CRD of runTests, with the given v1beta1 schema. */
function myCRD(openAPIV3Schema: JSONSchemaProps): CustomResourceDefinitionObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `mycrds.${group}` },
    spec: {
      group,
      versions: [
        { name: version, served: true, storage: true, schema: { openAPIV3Schema }, subresources: { status: {} } },
      ],
      names: { plural: 'mycrds', kind, listKind: `${kind}List` },
      scope: 'Namespaced',
    },
  }
}

const initialSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    content: { type: 'object', additionalProperties: { type: 'string' } },
    num: { type: 'object', additionalProperties: { type: 'integer' } },
    status: { type: 'object' },
  },
}

/** FixTabsOrDie: strips the first line's leading tabs from every line, then tabs become two spaces. */
function fixTabsOrDie(input: string): string {
  let lines = input.split('\n')
  if (lines[0]!.length === 0 && lines.length > 1) lines = lines.slice(1)
  const prefix = /^\t*/.exec(lines[0]!)![0]
  lines = lines.map((line, i) => {
    if (i === lines.length - 1 && line.length <= prefix.length && line.trim() === '') return ''
    if (!line.startsWith(prefix)) throw new Error(`line ${i} doesn't start with expected number of tabs`)
    return line.slice(prefix.length)
  })
  return lines.join('\n').replaceAll('\t', '  ')
}

/** jsonpatch.MergePatch (RFC 7386). */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch
  const out: Obj = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = mergePatch(out[k], v)
  }
  return out
}

// The JSON names of apiextensions v1 JSONSchemaProps: json.Unmarshal keeps only these.
const schemaKeys = new Set([
  'id',
  '$schema',
  '$ref',
  'description',
  'type',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  'patternProperties',
  'dependencies',
  'additionalItems',
  'definitions',
  'externalDocs',
  'example',
  'nullable',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
])

/** json.Unmarshal into JSONSchemaProps: unknown keys are dropped, at every level. */
function asJSONSchemaProps(s: Obj): JSONSchemaProps {
  const out: Obj = {}
  const sub = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? asJSONSchemaProps(v) : v)
  const subs = (m: Obj) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, asJSONSchemaProps(v)]))
  for (const [k, v] of Object.entries(s)) {
    if (!schemaKeys.has(k)) continue
    if (k === 'properties' || k === 'patternProperties' || k === 'definitions') out[k] = subs(v)
    else if (k === 'items') out[k] = Array.isArray(v) ? v.map(asJSONSchemaProps) : asJSONSchemaProps(v)
    else if (k === 'additionalProperties' || k === 'additionalItems' || k === 'not') out[k] = sub(v)
    else if (k === 'allOf' || k === 'oneOf' || k === 'anyOf') out[k] = v.map(asJSONSchemaProps)
    else out[k] = v
  }
  return out as JSONSchemaProps
}

// --- operations -----------------------------------------------------------------------------------

interface Context {
  statusSubresource: boolean
  schema: JSONSchemaProps
  crds: CustomResourceDefinitions
  stored?: Obj
}

interface Operation {
  description: string
  /** Throws when the operation fails. */
  do(ctx: Context): void
}

function loadSchema(ctx: Context, schema: JSONSchemaProps): void {
  const crds = CustomResourceDefinitions.load([myCRD(schema)])
  if (crds.problems.length > 0) throw new Error(crds.problems.map((p) => p.status.message).join('\n'))
  ctx.schema = schema
  ctx.crds = crds
}

/** updateMyCRDV1Beta1Schema */
const updateSchema = (newSchema: JSONSchemaProps): Operation => ({
  description: 'Update CRD schema',
  do(ctx) {
    let sch = structuredClone(newSchema)
    if (ctx.statusSubresource) sch = { type: 'object', properties: { status: sch } }
    loadSchema(ctx, sch)
  },
})

/** patchMyCRDV1Beta1Schema */
const patchSchema = (description: string, patch: Obj): Operation => ({
  description,
  do(ctx) {
    const p = ctx.statusSubresource ? { properties: { status: patch } } : patch
    loadSchema(ctx, asJSONSchemaProps(mergePatch(structuredClone(ctx.schema), p) as Obj))
  },
})

function check(r: ReturnType<CustomResourceDefinitions['validate']>): Obj {
  if (r === undefined) throw new Error('no CRD for the object')
  if (!r.allowed) throw new Error(r.message ?? r.status?.message)
  return r.object as Obj
}

/** applyPatchOperation */
const apply = (description: string, patch: Obj | string): Operation => ({
  description,
  do(ctx) {
    let content = typeof patch === 'string' ? (parse(fixTabsOrDie(patch)) as Obj) : structuredClone(patch)
    if (ctx.statusSubresource) content = { status: content }
    const obj: Obj = {
      ...content,
      kind,
      apiVersion: `${group}/${version}`,
      metadata: { name: myCRDInstanceName, namespace: 'default' },
    }
    const opts = { fieldValidation: 'Warn' } as const
    if (ctx.statusSubresource) {
      // ApplyStatus will not create the object: it is created first (status dropped on create)
      ctx.stored ??= check(ctx.crds.validate(obj, opts))
      const updated = { ...ctx.stored, status: obj.status }
      ctx.stored = check(ctx.crds.validate(updated, { ...opts, oldObject: ctx.stored, subresource: 'status' }))
      return
    }
    // the applied configuration replaces what the manager applied before: metadata stays the stored one
    const next = ctx.stored === undefined ? obj : { ...obj, metadata: ctx.stored.metadata }
    ctx.stored = check(ctx.crds.validate(next, ctx.stored === undefined ? opts : { ...opts, oldObject: ctx.stored }))
  },
})

/** expectError */
const expectError = (op: Operation): Operation => ({
  description: `Expect Error: ${op.description}`,
  do(ctx) {
    let failed = false
    try {
      op.do(ctx)
    } catch {
      failed = true
    }
    if (!failed) throw new Error('expected error')
  },
})

interface RatchetingTestCase {
  name: string
  operations: Operation[]
  skipStatus?: boolean
}

function runTests(cases: RatchetingTestCase[]): void {
  for (const c of cases) {
    const run = (statusSubresource: boolean) => {
      const ctx: Context = { statusSubresource, schema: initialSchema, crds: CustomResourceDefinitions.load([]) }
      loadSchema(ctx, initialSchema)
      c.operations.forEach((op, i) => {
        try {
          op.do(ctx)
        } catch (e) {
          throw new Error(`failed operation ${i} (${op.description}): ${(e as Error).message}`)
        }
      })
    }
    it(c.name, () => run(false))
    if (c.skipStatus !== true) it(`Status: ${c.name}`, () => run(true))
  }
}

// --- TestRatchetingFunctionality --------------------------------------------------------------------

describe('ratcheting_test.go TestRatchetingFunctionality', () => {
  runTests([
    {
      name: 'Minimum Maximum',
      operations: [
        updateSchema({
          type: 'object',
          properties: { hasMinimum: numberSchema, hasMaximum: numberSchema, hasMinimumAndMaximum: numberSchema },
        }),
        apply('Create an object that complies with the schema', {
          hasMinimum: 0,
          hasMaximum: 1000,
          hasMinimumAndMaximum: 50,
        }),
        patchSchema('Add stricter minimums and maximums that violate the previous object', {
          properties: {
            hasMinimum: { minimum: 10 },
            hasMaximum: { maximum: 20 },
            hasMinimumAndMaximum: { minimum: 10, maximum: 20 },
            noRestrictions: { type: 'integer' },
          },
        }),
        apply('Add new fields that validates successfully without changing old ones', { noRestrictions: 50 }),
        expectError(apply('Change a single old field to be invalid', { hasMinimum: 5 })),
        expectError(apply('Change multiple old fields to be invalid', { hasMinimum: 5, hasMaximum: 21 })),
        apply('Change single old field to be valid', { hasMinimum: 11 }),
        apply('Change multiple old fields to be valid', { hasMaximum: 19, hasMinimumAndMaximum: 15 }),
      ],
    },
    {
      name: 'Enum',
      operations: [
        // Create schema with some enum element
        updateSchema({ type: 'object', properties: { enumField: stringSchema } }),
        apply('Create an instance with a soon-to-be-invalid value', { enumField: 'okValueNowBadValueLater' }),
        patchSchema('restrict `enumField` to an enum of A, B, or C', {
          properties: { enumField: { enum: ['A', 'B', 'C'] }, otherField: { type: 'string' } },
        }),
        apply('An invalid patch with no changes is a noop', { enumField: 'okValueNowBadValueLater' }),
        apply('Add a new field, and include old value in our patch', {
          enumField: 'okValueNowBadValueLater',
          otherField: 'anythingGoes',
        }),
        expectError(apply('Set enumField to invalid value D', { enumField: 'D' })),
        apply('Set to a valid value', { enumField: 'A' }),
        expectError(
          apply('After setting a valid value, return to the old, accepted value', {
            enumField: 'okValueNowBadValueLater',
          }),
        ),
      ],
    },
    {
      name: 'AdditionalProperties',
      operations: [
        updateSchema({ type: 'object', properties: { nums: numbersMapSchema, content: stringMapSchema } }),
        apply('Create an instance', {
          nums: { num1: 1, num2: 1000000 },
          content: { k1: 'some content', k2: 'other content' },
        }),
        patchSchema('set minimum value for fields with additionalProperties', {
          properties: { nums: { additionalProperties: { minimum: 1000 } } },
        }),
        apply('updating validating field num2 to another validating value, but rachet invalid field num1', {
          nums: { num1: 1, num2: 2000 },
        }),
        expectError(apply('update field num1 to different invalid value', { nums: { num1: 2, num2: 2000 } })),
      ],
    },
    {
      name: 'MinProperties MaxProperties',
      operations: [
        updateSchema({
          type: 'object',
          properties: {
            restricted: { type: 'object', additionalProperties: stringSchema },
            unrestricted: { type: 'object', additionalProperties: stringSchema },
          },
        }),
        apply('Create instance', { restricted: { key1: 'hi', key2: 'there' } }),
        patchSchema('set both minProperties and maxProperties to 1 to violate the previous object', {
          properties: { restricted: { minProperties: 1, maxProperties: 1 } },
        }),
        apply("ratchet violating object 'restricted' around changes to unrelated field", {
          restricted: { key1: 'hi', key2: 'there' },
          unrestricted: { key1: 'yo' },
        }),
        expectError(
          apply('make invalid changes to previously ratcheted invalid field', {
            restricted: { key1: 'changed', key2: 'there' },
            unrestricted: { key1: 'yo' },
          }),
        ),
        patchSchema('remove maxProeprties, set minProperties to 2', {
          properties: { restricted: { minProperties: 2, maxProperties: null } },
        }),
        apply('a new value', { restricted: { key1: 'hi', key2: 'there', key3: 'buddy' } }),
        expectError(
          apply('violate new validation by removing keys', { restricted: { key1: 'hi', key2: null, key3: null } }),
        ),
        patchSchema('remove minProperties, set maxProperties to 1', {
          properties: { restricted: { minProperties: null, maxProperties: 1 } },
        }),
        apply('modify only the other key, ratcheting maxProperties for field `restricted`', {
          restricted: { key1: 'hi', key2: 'there', key3: 'buddy' },
          unrestricted: { key1: 'value', key2: 'value' },
        }),
        expectError(
          apply('modifying one value in the object with maxProperties restriction, but keeping old fields', {
            restricted: { key1: 'hi', key2: 'theres', key3: 'buddy' },
          }),
        ),
      ],
    },
    {
      name: 'MinItems',
      operations: [
        updateSchema({
          type: 'object',
          properties: { field: stringSchema, array: { type: 'array', items: stringSchema } },
        }),
        apply('Create instance', { array: ['value1', 'value2', 'value3'] }),
        patchSchema('change minItems on array to 10, invalidates previous object', {
          properties: { array: { minItems: 10 } },
        }),
        apply('keep invalid field `array` unchanged, add new field with ratcheting', {
          array: ['value1', 'value2', 'value3'],
          field: 'value',
        }),
        expectError(
          apply('modify array element without satisfying property', { array: ['value2', 'value2', 'value3'] }),
        ),
        expectError(
          apply('add array element without satisfying proeprty', { array: ['value1', 'value2', 'value3', 'value4'] }),
        ),
        apply('make array valid', { array: ['value1', 'value2', 'value3', '4', '5', '6', '7', '8', '9', '10'] }),
        expectError(apply('revert to original value', { array: ['value1', 'value2', 'value3'] })),
      ],
    },
    {
      name: 'MaxItems',
      operations: [
        updateSchema({
          type: 'object',
          properties: { field: stringSchema, array: { type: 'array', items: stringSchema } },
        }),
        apply('create instance', { array: ['value1', 'value2', 'value3'] }),
        patchSchema('change maxItems on array to 1, invalidates previous object', {
          properties: { array: { maxItems: 1 } },
        }),
        apply('ratchet old value of array through an update to another field', {
          array: ['value1', 'value2', 'value3'],
          field: 'value',
        }),
        expectError(
          apply('modify array element without satisfying property', { array: ['value2', 'value2', 'value3'] }),
        ),
        expectError(apply('remove array element without satisfying proeprty', { array: ['value1', 'value2'] })),
        apply('change array to valid value that satisfies maxItems', { array: ['value1'] }),
        expectError(apply('revert to previous invalid ratcheted value', { array: ['value1', 'value2', 'value3'] })),
      ],
    },
    {
      name: 'MinLength MaxLength',
      operations: [
        updateSchema({
          type: 'object',
          properties: { minField: stringSchema, maxField: stringSchema, otherField: stringSchema },
        }),
        apply('create instance', { minField: 'value', maxField: 'valueThatsVeryLongSee' }),
        patchSchema("set minField maxLength to 10, and maxField's minLength to 15", {
          properties: { minField: { minLength: 10 }, maxField: { maxLength: 15 } },
        }),
        apply('add new field `otherField`, ratcheting `minField` and `maxField`', {
          minField: 'value',
          maxField: 'valueThatsVeryLongSee',
          otherField: 'otherValue',
        }),
        apply('make minField valid, ratcheting old value for maxField', {
          minField: 'valuelength13',
          maxField: 'valueThatsVeryLongSee',
          otherField: 'otherValue',
        }),
        apply('make maxField shorter', { maxField: 'l2' }),
        expectError(apply('make maxField too long', { maxField: 'valuewithlength17' })),
        expectError(apply('revert minFIeld to previously ratcheted value', { minField: 'value' })),
        expectError(apply('revert maxField to previously ratcheted value', { maxField: 'valueThatsVeryLongSee' })),
      ],
    },
    {
      name: 'Pattern',
      operations: [
        updateSchema({ type: 'object', properties: { field: stringSchema } }),
        apply('create instance', { field: 'doesnt abide pattern' }),
        patchSchema('add pattern validation on `field`', {
          properties: { field: { pattern: '^[1-9]+$' }, otherField: { type: 'string' } },
        }),
        apply('add unrelated field, ratcheting old invalid field', {
          field: 'doesnt abide pattern',
          otherField: 'added',
        }),
        expectError(apply('change field to invalid value', { field: 'w123', otherField: 'added' })),
        apply('change field to a valid value', { field: '123', otherField: 'added' }),
      ],
    },
    {
      name: 'Format Addition and Change',
      operations: [
        updateSchema({ type: 'object', properties: { field: stringSchema } }),
        apply('create instance', { field: 'doesnt abide any format' }),
        patchSchema("change `field`'s format to `byte", {
          properties: { field: { format: 'byte' }, otherField: { type: 'string' } },
        }),
        apply('add unrelated otherField, ratchet invalid old field format', {
          field: 'doesnt abide any format',
          otherField: 'value',
        }),
        expectError(apply('change field to an invalid string', { field: 'asd' })),
        apply('change field to a valid byte string', { field: 'dGhpcyBpcyBwYXNzd29yZA==' }),
        patchSchema("change `field`'s format to date-time", { properties: { field: { format: 'date-time' } } }),
        apply("change otherField, ratchet `field`'s invalid byte format", {
          field: 'dGhpcyBpcyBwYXNzd29yZA==',
          otherField: 'value2',
        }),
        apply('change `field` to a valid value', { field: '2018-11-13T20:20:39+00:00', otherField: 'value2' }),
        expectError(
          apply('revert `field` to previously ratcheted value', {
            field: 'dGhpcyBpcyBwYXNzd29yZA==',
            otherField: 'value2',
          }),
        ),
        expectError(apply('revert `field` to its initial value from creation', { field: 'doesnt abide any format' })),
      ],
    },
    {
      name: 'Map Type List Reordering Grandfathers Invalid Key',
      operations: [
        updateSchema({
          type: 'object',
          properties: {
            field: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name', 'port'],
              items: {
                type: 'object',
                required: ['name', 'port'],
                properties: { name: stringSchema, port: numberSchema, field: stringSchema },
              },
            },
          },
        }),
        apply('create instance with three soon-to-be-invalid keys', {
          field: [
            { name: 'nginx', port: 443, field: 'value' },
            { name: 'etcd', port: 2379, field: 'value' },
            { name: 'kube-apiserver', port: 6443, field: 'value' },
          ],
        }),
        patchSchema("set `field`'s maxItems to 2, which is exceeded by all of previous object's elements", {
          properties: { field: { maxItems: 2 } },
        }),
        apply('reorder invalid objects which have too many properties, but do not modify them or change keys', {
          field: [
            { name: 'kube-apiserver', port: 6443, field: 'value' },
            { name: 'nginx', port: 443, field: 'value' },
            { name: 'etcd', port: 2379, field: 'value' },
          ],
        }),
        expectError(
          apply('attempt to change one of the fields of the items which exceed maxItems', {
            field: [
              { name: 'kube-apiserver', port: 6443, field: 'value' },
              { name: 'nginx', port: 443, field: 'value' },
              { name: 'etcd', port: 2379, field: 'value' },
              { name: 'dev', port: 8080, field: 'value' },
            ],
          }),
        ),
        patchSchema('Require even numbered port in key, remove maxItems requirement', {
          properties: { field: { maxItems: null, items: { properties: { port: { multipleOf: 2 } } } } },
        }),
        apply('reorder fields without changing anything', {
          field: [
            { name: 'nginx', port: 443, field: 'value' },
            { name: 'etcd', port: 2379, field: 'value' },
            { name: 'kube-apiserver', port: 6443, field: 'value' },
          ],
        }),
        apply('use "invalid" keys despite changing order and changing sibling fields to the key', {
          field: [
            { name: 'nginx', port: 443, field: 'value' },
            { name: 'etcd', port: 2379, field: 'value' },
            {
              name: 'kube-apiserver',
              port: 6443,
              field: 'this is a changed value for an an invalid but grandfathered key',
            },
            { name: 'dev', port: 8080, field: 'value' },
          ],
        }),
      ],
    },
    {
      name: 'ArrayItems do not correlate by index',
      operations: [
        updateSchema({
          type: 'object',
          properties: { values: { type: 'array', items: stringMapSchema }, otherField: stringSchema },
        }),
        apply('create instance with length 5 values', {
          values: [
            { name: '1', key: 'value' },
            { name: '2', key: 'value' },
          ],
        }),
        patchSchema('Set minimum length of 6 for values of elements in the items array', {
          properties: { values: { items: { additionalProperties: { minLength: 6 } } } },
        }),
        expectError(
          apply('change value to one that exceeds minLength', {
            values: [
              { name: '1', key: 'value' },
              { name: '2', key: 'bad' },
            ],
          }),
        ),
        apply('add new fields without touching the map', {
          values: [
            { name: '1', key: 'value' },
            { name: '2', key: 'value' },
          ],
          otherField: 'hello world',
        }),
        // (This test shows an array cannpt be correlated by index with its old value)
        expectError(
          apply(
            'add new, valid fields to elements of the array, failing to ratchet unchanged old fields within the array elements by correlating by index due to atomic list',
            {
              values: [
                { name: '1', key: 'value' },
                { name: '2', key: 'value', key2: 'valid value' },
              ],
            },
          ),
        ),
        expectError(
          apply('reorder the array, preventing index correlation', {
            values: [
              { name: '2', key: 'value', key2: 'valid value' },
              { name: '1', key: 'value' },
            ],
          }),
        ),
      ],
    },
    {
      name: 'CEL Optional OldSelf',
      skipStatus: true, // oldSelf can never be null for a status update.
      operations: [
        updateSchema({
          type: 'object',
          properties: {
            field: {
              type: 'string',
              'x-kubernetes-validations': [
                { rule: '!oldSelf.hasValue()', message: 'oldSelf must be null', optionalOldSelf: true },
              ],
            },
          },
        }),
        apply('create instance passes since oldself is null', { field: 'value' }),
        expectError(apply('update field fails, since oldself is not null', { field: 'value2' })),
        expectError(
          apply('noop update field fails, since oldself is not null and transition rules are not ratcheted', {
            field: 'value',
          }),
        ),
      ],
    },
    // Features that should not ratchet: AllOf_should_not_ratchet, OneOf_should_not_ratchet,
    // AnyOf_should_not_ratchet and Not_should_not_ratchet have no operations in the Go test (nothing to
    // transcribe).
    {
      name: 'CEL_transition_rules_should_not_ratchet',
      operations: [
        updateSchema({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
        apply(
          'create instance with strings that do not start with k8s',
          `
						myStringField: myStringValue
						myOtherField: myOtherField
					`,
        ),
        updateSchema({
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: {
            myStringField: {
              type: 'string',
              'x-kubernetes-validations': [{ rule: "oldSelf != 'myStringValue' || self == 'validstring'" }],
            },
          },
        }),
        expectError(
          apply(
            'try to change one field to valid value, but unchanged field fails to be ratcheted by transition rule',
            `
						myOtherField: myNewOtherField
						myStringField: myStringValue
					`,
          ),
        ),
        apply(
          'change both fields to valid values',
          `
						myStringField: validstring
						myOtherField: myNewOtherField
					`,
        ),
      ],
    },
    // Future Functionality, disabled tests (the Go comment; the case runs)
    {
      name: 'CEL Add Change Rule',
      operations: [
        updateSchema({
          type: 'object',
          properties: {
            field: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                properties: { stringField: stringSchema, intField: numberSchema, otherIntField: numberSchema },
              },
            },
          },
        }),
        apply('create instance with strings that do not start with k8s', {
          field: {
            object1: { stringField: 'a string', intField: 5 },
            object2: { stringField: 'another string', intField: 15 },
            object3: { stringField: 'a third string', intField: 7 },
          },
        }),
        patchSchema('require that stringField value start with `k8s`', {
          properties: {
            field: {
              additionalProperties: {
                properties: {
                  stringField: {
                    'x-kubernetes-validations': [
                      { rule: "self.startsWith('k8s')", message: 'strings must have k8s prefix' },
                    ],
                  },
                },
              },
            },
          },
        }),
        apply('add a new entry that follows the new rule, ratchet old values', {
          field: {
            object1: { stringField: 'a string', intField: 5 },
            object2: { stringField: 'another string', intField: 15 },
            object3: { stringField: 'a third string', intField: 7 },
            object4: { stringField: 'k8s third string', intField: 7 },
          },
        }),
        apply('modify a sibling to an invalid value, ratcheting the unchanged invalid value', {
          field: {
            object1: { stringField: 'a string', intField: 15 },
            object2: { stringField: 'another string', intField: 10, otherIntField: 20 },
          },
        }),
        expectError(
          apply('change a previously ratcheted field to an invalid value', {
            field: {
              object2: { stringField: 'a changed string' },
              object3: { stringField: 'a changed third string' },
            },
          }),
        ),
        // As in Go, this patch puts `stringField` directly under additionalProperties (not under its
        // properties): json.Unmarshal drops the unknown key, so the schema does not change.
        patchSchema('require that stringField values are also odd length', {
          properties: {
            field: {
              additionalProperties: {
                stringField: {
                  'x-kubernetes-validations': [
                    { rule: "self.startsWith('k8s')", message: 'strings must have k8s prefix' },
                    { rule: 'len(self) % 2 == 1', message: 'strings must have odd length' },
                  ],
                },
              },
            },
          },
        }),
        apply(
          'have mixed ratcheting of one or two CEL rules, object4 is ratcheted by one rule, object1 is ratcheting 2 rules',
          {
            field: {
              object1: { stringField: 'a string', intField: 1000 }, // invalid. even number length, no k8s prefix
              object4: { stringField: 'k8s third string', intField: 7000 }, // invalid. even number length. ratcheted
            },
          },
        ),
        expectError(
          apply('swap keys between valuesin the map', {
            field: {
              object1: { stringField: 'k8s third string', intField: 1000 },
              object4: { stringField: 'a string', intField: 7000 },
            },
          }),
        ),
        apply('fix keys', {
          field: {
            object1: { stringField: 'k8s a stringy', intField: 1000 },
            object4: { stringField: 'k8s third stringy', intField: 7000 },
          },
        }),
      ],
    },
    // "Change list to set" is Disabled in the Go test (SSA cannot interpret the invalid live object
    // as a set): not transcribed.
  ])
})
