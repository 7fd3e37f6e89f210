import { describe, expect, it } from 'vitest'
import { aggregateString, errorString, FieldPath } from '../../src/kube/field.js'
import { emptyObjectMeta, type ObjectMeta } from '../../src/kube/objectmeta-unstructured.js'
import {
  nameIsDNSSubdomain,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from '../../src/kube/validation/objectmeta.js'

// apimachinery pkg/api/validation/objectmeta_test.go (master, i.e. 1.37, unless a case names an
// older tag): the ObjectMeta rules a custom resource's metadata goes through.

const meta = (p: Partial<ObjectMeta>): ObjectMeta => ({ ...emptyObjectMeta(), ...p })
const F = FieldPath.of('field')

describe('objectmeta_test.go TestValidateObjectMetaCustomName', () => {
  const fn = (s: string) => (s === 'test' ? [] : ['wrong value'])
  const cases: [string, Partial<ObjectMeta>, number][] = [
    ['valid name, empty generateName', { name: 'test', generateName: '' }, 0],
    ['valid name and generateName', { name: 'test', generateName: 'test' }, 0],
    ['invalid name, empty generateName', { name: 'invalid', generateName: '' }, 1],
    ['invalid name, valid generateName', { name: 'invalid', generateName: 'test' }, 1],
    ['invalid name, invalid generateName', { name: 'invalid', generateName: 'invalid' }, 2],
  ]
  for (const [name, input, n] of cases) {
    it(name, () => {
      const errs = validateObjectMeta(meta(input), false, fn, F)
      expect(errs.length).toBe(n)
      if (n > 0) expect(errorString(errs[0]!)).toContain('wrong value')
    })
  }
})

describe('objectmeta_test.go TestValidateObjectMetaNamespaces', () => {
  it('a dotted namespace', () => {
    const errs = validateObjectMeta(meta({ name: 'test', namespace: 'foo.bar' }), true, nameIsDNSSubdomain, F)
    expect(errs.length).toBe(1)
    expect(errorString(errs[0]!)).toContain('Invalid value: "foo.bar"')
  })
  it('a 64-character namespace', () => {
    const errs = validateObjectMeta(
      meta({ name: 'test', namespace: 'aB3'.repeat(21) + 'x' }),
      true,
      nameIsDNSSubdomain,
      F,
    )
    expect(errs.length).toBe(2)
    expect(errs.every((e) => errorString(e).includes('Invalid value'))).toBe(true)
  })
})

describe('objectmeta_test.go TestValidateObjectMetaOwnerReferences', () => {
  const ref = (apiVersion: string, kind: string, uid: string, controller?: boolean) => ({
    apiVersion,
    kind,
    name: 'name',
    uid,
    ...(controller === undefined ? {} : { controller }),
  })
  const crv = 'customresourceVersion'
  const twoControllers = [
    ref(crv, 'customresourceKind1', '1', false),
    ref(crv, 'customresourceKind2', '2', true),
    ref(crv, 'customresourceKind3', '3', true),
    ref(crv, 'customresourceKind4', '4'),
  ]
  const oneController = [
    ref(crv, 'customresourceKind', '1', false),
    ref(crv, 'customresourceKind', '2', true),
    ref(crv, 'customresourceKind', '3', false),
    ref(crv, 'customresourceKind', '4'),
  ]
  const cases: [string, ReturnType<typeof ref>[], string | undefined, number[]][] = [
    ['simple success - third party extension.', [ref(crv, 'customresourceKind', '1')], undefined, [36, 37]],
    [
      "simple failures - event shouldn't be set as an owner",
      [ref('v1', 'Event', '1')],
      'is disallowed from being an owner',
      [36, 37],
    ],
    [
      'simple failures - invalid apiVersion with too many slashes',
      [ref('a/b/c', 'Pod', '1')],
      'must be <group>/<version> or <version>',
      [37],
    ],
    [
      'simple failures - invalid apiVersion with empty version',
      [ref('foo/', 'Pod', '1')],
      'must be <group>/<version> or <version>',
      [37],
    ],
    ['simple success - apiVersion with no slashes (legacy core group)', [ref('v1', 'Pod', '1')], undefined, [37]],
    ['simple controller ref success - one reference with Controller set', oneController, undefined, [36, 37]],
    [
      'simple controller ref failure - two references with Controller set',
      twoControllers,
      'Only one reference can have Controller set to true. Found "true" in references for customresourceKind2/name and customresourceKind3/name',
      [36, 37],
    ],
  ]
  for (const [name, ownerReferences, message, minors] of cases) {
    for (const minor of minors) {
      it(`${name} (1.${minor})`, () => {
        const errs = validateObjectMeta(
          meta({ name: 'test', namespace: 'test', ownerReferences }),
          true,
          () => [],
          F,
          minor,
        )
        if (message === undefined) expect(errs).toEqual([])
        else expect(errorString(errs[0]!)).toContain(message)
      })
    }
  }
})

describe('objectmeta_test.go ValidateObjectMetaUpdate cases', () => {
  const at = (s: number) => s
  it('TestValidateObjectMetaUpdateIgnoresCreationTimestamp (one error each)', () => {
    const a = meta({ name: 'test', resourceVersion: '1' })
    const b = meta({ name: 'test', resourceVersion: '1', creationTimestamp: at(10) })
    const c = meta({ name: 'test', resourceVersion: '1', creationTimestamp: at(11) })
    expect(validateObjectMetaUpdate(a, b, F).length).toBe(1)
    expect(validateObjectMetaUpdate(b, a, F).length).toBe(1)
    expect(validateObjectMetaUpdate(b, c, F).length).toBe(1)
  })

  // &metav1.Time{} is the zero time, 0001-01-01T00:00:00Z
  const zero = -62135596800
  const fin = (finalizers: string[], deleting: boolean) =>
    meta({ name: 'test', resourceVersion: '1', finalizers, ...(deleting ? { deletionTimestamp: zero } : {}) })
  const finCases: [string, ObjectMeta, ObjectMeta, string][] = [
    ['invalid adding finalizers', fin(['x/a'], true), fin(['x/a', 'y/b'], true), 'y/b'],
    ['invalid changing finalizers', fin(['x/a'], true), fin(['x/b'], true), 'x/b'],
    ['valid removing finalizers', fin(['x/a', 'y/b'], true), fin(['x/a'], true), ''],
    ['valid adding finalizers for objects not being deleted', fin(['x/a'], false), fin(['x/a', 'y/b'], false), ''],
  ]
  for (const [name, old, next, contains] of finCases) {
    it(`TestValidateFinalizersUpdate: ${name}`, () => {
      const errs = validateObjectMetaUpdate(next, old, F)
      if (contains === '') expect(errs).toEqual([])
      else expect(aggregateString(errs)).toContain(contains)
    })
  }

  it('TestValidateFinalizersPreventConflictingFinalizers', () => {
    const errs = validateObjectMeta(
      meta({ name: 'test', finalizers: ['orphan', 'foregroundDeletion'] }),
      false,
      () => [],
      F,
    )
    expect(aggregateString(errs)).toContain('cannot be both set')
  })

  const now = 1000
  const later = 2000
  const del = (p: Partial<ObjectMeta>) => meta({ name: 'test', resourceVersion: '1', ...p })
  const delCases: [string, ObjectMeta, ObjectMeta, string[]][] = [
    ['valid without deletion fields', del({}), del({}), []],
    [
      'valid with deletion fields',
      del({ deletionTimestamp: now, deletionGracePeriodSeconds: 30 }),
      del({ deletionTimestamp: now, deletionGracePeriodSeconds: 30 }),
      [],
    ],
    [
      'invalid set deletionTimestamp',
      del({}),
      del({ deletionTimestamp: now }),
      ['field.deletionTimestamp: Invalid value: "1970-01-01T00:16:40Z": field is immutable'],
    ],
    [
      'invalid clear deletionTimestamp',
      del({ deletionTimestamp: now }),
      del({}),
      ['field.deletionTimestamp: Invalid value: null: field is immutable'],
    ],
    [
      'invalid change deletionTimestamp',
      del({ deletionTimestamp: now }),
      del({ deletionTimestamp: later }),
      ['field.deletionTimestamp: Invalid value: "1970-01-01T00:33:20Z": field is immutable'],
    ],
    [
      'invalid set deletionGracePeriodSeconds',
      del({}),
      del({ deletionGracePeriodSeconds: 30 }),
      ['field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable'],
    ],
    [
      'invalid clear deletionGracePeriodSeconds',
      del({ deletionGracePeriodSeconds: 30 }),
      del({}),
      ['field.deletionGracePeriodSeconds: Invalid value: null: field is immutable'],
    ],
    [
      'invalid change deletionGracePeriodSeconds',
      del({ deletionGracePeriodSeconds: 30 }),
      del({ deletionGracePeriodSeconds: 40 }),
      ['field.deletionGracePeriodSeconds: Invalid value: 40: field is immutable'],
    ],
  ]
  for (const [name, old, next, want] of delCases) {
    it(`TestValidateObjectMetaUpdatePreventsDeletionFieldMutation: ${name}`, () => {
      expect(validateObjectMetaUpdate(next, old, F).map(errorString)).toEqual(want)
    })
  }

  const genCases: [string, number, number, string[]][] = [
    ['invalid generation change - decremented', 5, 4, ['field.generation: Invalid value: 4: must not be decremented']],
    ['valid generation change - incremented by one', 1, 2, []],
    ['valid generation field - not updated', 5, 5, []],
  ]
  for (const [name, o, n, want] of genCases) {
    it(`TestObjectMetaGenerationUpdate: ${name}`, () => {
      const errs = validateObjectMetaUpdate(del({ generation: n }), del({ generation: o }), F)
      expect(errs.map(errorString)).toEqual(want)
    })
  }
})

describe('objectmeta_test.go', () => {
  it('TestValidateObjectMetaTrimsTrailingDash', () => {
    expect(validateObjectMeta(meta({ name: 'test', generateName: 'foo-' }), false, nameIsDNSSubdomain, F)).toEqual([])
  })

  const annotations = (a: Record<string, string>) =>
    validateObjectMeta(meta({ name: 'test', annotations: a }), false, () => [], F).filter(
      (e) => e.field === 'field.annotations',
    )
  const limit = 256 * 1024
  const success: Record<string, string>[] = [
    { simple: 'bar' },
    { 'now-with-dashes': 'bar' },
    { '1-starts-with-num': 'bar' },
    { '1234': 'bar' },
    { 'simple/simple': 'bar' },
    { 'now-with-dashes/simple': 'bar' },
    { 'now-with-dashes/now-with-dashes': 'bar' },
    { 'now.with.dots/simple': 'bar' },
    { 'now-with.dashes-and.dots/simple': 'bar' },
    { '1-num.2-num/3-num': 'bar' },
    { '1234/5678': 'bar' },
    { '1.2.3.4/5678': 'bar' },
    { UpperCase123: 'bar' },
    { a: 'b'.repeat(limit - 1) },
    { a: 'b'.repeat(limit / 2 - 1), c: 'd'.repeat(limit / 2 - 1) },
  ]
  success.forEach((a, i) => {
    it(`TestValidateAnnotations success ${i}`, () => expect(annotations(a)).toEqual([]))
  })
  const nameErrors: [Record<string, string>, string][] = [
    [{ 'nospecialchars^=@': 'bar' }, 'name part must consist of'],
    [{ 'cantendwithadash-': 'bar' }, 'name part must consist of'],
    [{ 'only/one/slash': 'bar' }, 'a valid label key must consist of'],
    [{ ['a'.repeat(254)]: 'bar' }, 'must be no more than'],
  ]
  nameErrors.forEach(([a, want], i) => {
    it(`TestValidateAnnotations name error ${i}`, () => {
      const errs = annotations(a)
      expect(errs.length).toBe(1)
      expect(errs[0]?.detail).toContain(want)
    })
  })
  const sizeErrors: Record<string, string>[] = [
    { a: 'b'.repeat(limit) },
    { a: 'b'.repeat(limit / 2), c: 'd'.repeat(limit / 2) },
  ]
  sizeErrors.forEach((a, i) => {
    it(`TestValidateAnnotations size error ${i}`, () => expect(annotations(a).length).toBe(1))
  })
})
