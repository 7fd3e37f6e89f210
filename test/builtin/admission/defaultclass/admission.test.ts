import { describe, expect, it } from 'vitest'
import { admitDefaultIngressClass, admitDefaultStorageClass } from '../../../../src/builtin/admission/default-class.js'
import type { JSONObject } from '../../../../src/kube/values/json.js'

// The rows of kubernetes plugin/pkg/admission/storage/storageclass/setdefault/admission_test.go and
// plugin/pkg/admission/network/defaultingressclass/admission_test.go TestAdmission (v1.37.2): the classes that
// exist, the claim's / Ingress's class, the class it has after Admit.

const cls = (name: string, annotation: string, isDefault?: string, creationTimestamp?: string): JSONObject => ({
  metadata: {
    name,
    ...(creationTimestamp !== undefined ? { creationTimestamp } : {}),
    ...(isDefault !== undefined ? { annotations: { [annotation]: isDefault } } : {}),
  },
})

describe('DefaultStorageClass (setdefault/admission_test.go)', () => {
  const a = 'storageclass.kubernetes.io/is-default-class'
  const defaultClass1 = cls('default1', a, 'true')
  const defaultClass2 = cls('default2', a, 'true')
  const classWithFalseDefault = cls('nondefault1', a, 'false')
  const classWithNoDefault = cls('nondefault2', a)
  const classWithEmptyDefault = cls('nondefault2', a, '')
  // 2022-01-01T00:00:00.000000001Z and 2022-01-01T00:00:00Z
  const classWithCreateTime1 = cls('default1', a, 'true', '2022-01-01T00:00:00.000000001Z')
  const classWithCreateTime2 = cls('default2', a, 'true', '2022-01-01T00:00:00Z')
  const others = [classWithFalseDefault, classWithNoDefault, classWithEmptyDefault]
  const claim = (storageClassName?: string): JSONObject => ({
    metadata: { name: 'claim', namespace: 'ns' },
    spec: storageClassName === undefined ? {} : { storageClassName },
  })
  it.each<[string, JSONObject[], string | undefined, string | undefined]>([
    ['no default, no modification of PVCs', others, undefined, undefined],
    ['one default, modify PVC with class=nil', [defaultClass1, ...others], undefined, 'default1'],
    ["one default, no modification of PVC with class=''", [defaultClass1, ...others], '', ''],
    ["one default, no modification of PVC with class='foo'", [defaultClass1, ...others], 'foo', 'foo'],
    ["two defaults, no modification of PVC with class=''", [defaultClass1, defaultClass2, ...others], '', ''],
    ["two defaults, no modification of PVC with class='foo'", [defaultClass1, defaultClass2, ...others], 'foo', 'foo'],
    [
      'two defaults with same creation time, choose the one with smaller name',
      [defaultClass2, defaultClass1, ...others],
      undefined,
      'default1',
    ],
    [
      'two defaults, choose the one with newer creation time',
      [classWithCreateTime1, classWithCreateTime2, ...others],
      undefined,
      'default1',
    ],
  ])('%s', (_name, classes, given, expected) => {
    const pvc = claim(given)
    admitDefaultStorageClass(pvc, classes)
    expect((pvc.spec as JSONObject).storageClassName).toBe(expected)
  })

  it('a newer class wins over a smaller name, to the nanosecond (GetDefaultClass)', () => {
    const older = cls('a', a, 'true', '2022-01-01T00:00:00.5Z')
    const newer = cls('b', a, 'true', '2022-01-01T00:00:00.500000001Z')
    const pvc = claim()
    admitDefaultStorageClass(pvc, [older, newer])
    expect((pvc.spec as JSONObject).storageClassName).toBe('b')
  })

  it('the beta annotation marks a default; the beta class annotation on a claim names its class', () => {
    const beta = cls('beta', 'storageclass.beta.kubernetes.io/is-default-class', 'true')
    const pvc = claim()
    admitDefaultStorageClass(pvc, [beta])
    expect((pvc.spec as JSONObject).storageClassName).toBe('beta')
    const annotated: JSONObject = {
      metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'x' } },
      spec: {},
    }
    admitDefaultStorageClass(annotated, [beta])
    expect((annotated.spec as JSONObject).storageClassName).toBeUndefined()
  })
})

describe('DefaultIngressClass (defaultingressclass/admission_test.go)', () => {
  const a = 'ingressclass.kubernetes.io/is-default-class'
  const defaultClass1 = cls('default1', a, 'true')
  const defaultClass2 = cls('default2', a, 'true')
  const others = [cls('nondefault1', a, 'false'), cls('nondefault2', a), cls('nondefault2', a, '')]
  const t1 = cls('default1', a, 'true', '2022-01-01T00:00:00.000000001Z')
  const t2 = cls('default2', a, 'true', '2022-01-01T00:00:00Z')
  const ingress = (field?: string, annotation?: string): JSONObject => ({
    metadata: {
      name: 'testing',
      namespace: 'testing',
      ...(annotation !== undefined ? { annotations: { 'kubernetes.io/ingress.class': annotation } } : {}),
    },
    spec: field === undefined ? {} : { ingressClassName: field },
  })
  it.each<[string, JSONObject[], string | undefined, string | undefined, string | undefined]>([
    ['no default, no modification of Ingress', others, undefined, undefined, undefined],
    ['one default, modify Ingress with class=nil', [defaultClass1, ...others], undefined, undefined, 'default1'],
    ["one default, no modification of Ingress with class field=''", [defaultClass1, ...others], '', undefined, ''],
    [
      "one default, no modification of Ingress with class field='foo'",
      [defaultClass1, ...others],
      'foo',
      undefined,
      'foo',
    ],
    [
      "one default, no modification of Ingress with class annotation='foo'",
      [defaultClass1, ...others],
      undefined,
      'foo',
      undefined,
    ],
    [
      'two defaults with the same creation time, choose the one with the lower name',
      [defaultClass1, defaultClass2, ...others],
      undefined,
      undefined,
      'default1',
    ],
    [
      "two defaults, no modification with Ingress with class field=''",
      [defaultClass1, defaultClass2, ...others],
      '',
      undefined,
      '',
    ],
    [
      'two defaults, choose the one with the newer creation time',
      [t1, t2, ...others],
      undefined,
      undefined,
      'default1',
    ],
  ])('%s', (_name, classes, field, annotation, expected) => {
    const ing = ingress(field, annotation)
    admitDefaultIngressClass(ing, classes)
    expect((ing.spec as JSONObject).ingressClassName).toBe(expected)
  })
})
