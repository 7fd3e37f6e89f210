import { describe, expect, test } from 'vitest'
import { b64, fieldTypes, type O, texts, tweak } from '../support.js'

// core/v1 ConfigMap and Secret: the tables of kubernetes v1.37.2
// pkg/apis/core/validation/validation_test.go. The Go tables only say valid / invalid; each case
// here also states the field path and error type ValidateConfigMap / ValidateSecret report.

const cm = (name: string, namespace: string, data?: O, binaryData?: O): O => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  ...(data ? { data } : {}),
  ...(binaryData ? { binaryData } : {}),
})
const MAX = 1024 * 1024

describe('validation_test.go TestValidateConfigMap', () => {
  const cases: [string, O, string[]][] = [
    ['valid', cm('validname', 'validns', { key: 'value' }, { bin: b64('value') }), []],
    ['max key length', cm('validname', 'validns', { ['a'.repeat(253)]: 'value' }), []],
    ['leading dot key', cm('validname', 'validns', { '.ab': 'value' }), []],
    ['empty name', cm('', 'validns'), ['metadata.name FieldValueRequired']],
    ['invalid name', cm('NoUppercaseOrSpecialCharsLike=Equals', 'validns'), ['metadata.name FieldValueInvalid']],
    ['invalid key', cm('validname', 'validns', { 'a*b': 'value' }), ['data[a*b] FieldValueInvalid']],
    ['empty namespace', cm('validname', ''), ['metadata.namespace FieldValueRequired']],
    [
      'invalid namespace',
      cm('validname', 'NoUppercaseOrSpecialCharsLike=Equals'),
      ['metadata.namespace FieldValueInvalid'],
    ],
    ['dot key', cm('validname', 'validns', { '.': 'value' }), ['data[.] FieldValueInvalid']],
    ['double dot key', cm('validname', 'validns', { '..': 'value' }), ['data[..] FieldValueInvalid']],
    [
      'over max key length',
      cm('validname', 'validns', { ['a'.repeat(254)]: 'value' }),
      [`data[${'a'.repeat(254)}] FieldValueInvalid`],
    ],
    ['over max size', cm('validname', 'validns', { key: 'a'.repeat(MAX + 1) }), ['[] FieldValueTooLong']],
    [
      'duplicated key',
      cm('validname', 'validns', { key: 'value1' }, { key: b64('value2') }),
      ['data[key] FieldValueInvalid'],
    ],
    [
      'binary data invalid key',
      cm('validname', 'validns', undefined, { 'a*b': b64('value') }),
      ['binaryData[a*b] FieldValueInvalid'],
    ],
    ['binary data leading dot key', cm('validname', 'validns', undefined, { '.ab': b64('value') }), []],
    [
      'binary data dot key',
      cm('validname', 'validns', undefined, { '.': b64('value') }),
      ['binaryData[.] FieldValueInvalid'],
    ],
    [
      'binary data double dot key',
      cm('validname', 'validns', undefined, { '..': b64('value') }),
      ['binaryData[..] FieldValueInvalid'],
    ],
    [
      'binary data over max key length',
      cm('validname', 'validns', undefined, { ['a'.repeat(254)]: b64('value') }),
      [`binaryData[${'a'.repeat(254)}] FieldValueInvalid`],
    ],
    [
      'binary data max size',
      cm('validname', 'validns', undefined, { bin: b64('a'.repeat(MAX + 1)) }),
      ['[] FieldValueTooLong'],
    ],
    ['binary data non utf-8 bytes', cm('validname', 'validns', undefined, { key: b64('\x00\xfe\x00\xff') }), []],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))

  test('messages', () => {
    expect(texts(cm('validname', 'validns', { 'a*b': 'v', '..x': 'v' }))).toEqual([
      'data[..x]: Invalid value: "..x": must not start with \'..\'',
      "data[a*b]: Invalid value: \"a*b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ])
    expect(texts(cm('validname', 'validns', { key: 'a'.repeat(MAX + 1) }))).toEqual([
      '[]: Too long: may not be more than 1048576 bytes',
    ])
    expect(texts(cm('validname', 'validns', { k: 'x' }, { k: b64('y') }))).toEqual([
      'data[k]: Invalid value: "k": duplicate of key present in binaryData',
    ])
  })
})

describe('validation_test.go TestValidateConfigMapUpdate', () => {
  const valid = (): O => ({
    ...cm('validname', 'validdns', { key: 'value' }),
    metadata: { name: 'validname', namespace: 'validdns', resourceVersion: '1' },
  })
  const configMap = valid()
  const immutable = tweak(valid(), (o) => (o.immutable = true))
  const mutable = tweak(valid(), (o) => (o.immutable = false))
  const withData = tweak(valid(), (o) => (o.data['key-2'] = 'value-2'))
  const immutableWithData = tweak(immutable, (o) => (o.data['key-2'] = 'value-2'))
  const changed = tweak(valid(), (o) => (o.data.key = 'foo'))
  const immutableChanged = tweak(immutable, (o) => (o.data.key = 'foo'))
  const noVersion = tweak(cm('validname', 'validns', { key: 'value' }), () => {})
  const cases: [string, O, O, string[]][] = [
    ['valid', configMap, configMap, []],
    // the namespace changes too (validdns → validns) in the Go table
    [
      'invalid',
      noVersion,
      configMap,
      ['metadata.resourceVersion FieldValueInvalid', 'metadata.namespace FieldValueInvalid'],
    ],
    ['mark configmap immutable', immutable, configMap, []],
    ['revert immutable configmap', configMap, immutable, ['immutable FieldValueForbidden']],
    ['mark immutable configmap mutable', mutable, immutable, ['immutable FieldValueForbidden']],
    ['add data in configmap', withData, configMap, []],
    ['add data in immutable configmap', immutableWithData, immutable, ['data FieldValueForbidden']],
    ['change data in configmap', changed, configMap, []],
    ['change data in immutable configmap', immutableChanged, immutable, ['data FieldValueForbidden']],
  ]
  for (const [name, n, o, want] of cases) test(name, () => expect(fieldTypes(n, o)).toEqual(want))
  test('message', () =>
    expect(texts(configMap, immutable)).toEqual(['immutable: Forbidden: field is immutable when `immutable` is set']))
})

const secret = (o: O = {}): O => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'foo', namespace: 'bar' },
  data: { 'data-1': b64('bar') },
  ...o,
})

describe('validation_test.go TestValidateSecret', () => {
  const sat = (ann?: O): O =>
    secret({
      metadata: { name: 'foo', namespace: 'bar', ...(ann ? { annotations: ann } : {}) },
      type: 'kubernetes.io/service-account-token',
    })
  const cases: [string, O, string[]][] = [
    ['valid', secret(), []],
    ['empty name', secret({ metadata: { name: '', namespace: 'bar' } }), ['metadata.name FieldValueRequired']],
    [
      'invalid name',
      secret({ metadata: { name: 'NoUppercaseOrSpecialCharsLike=Equals', namespace: 'bar' } }),
      ['metadata.name FieldValueInvalid'],
    ],
    [
      'empty namespace',
      secret({ metadata: { name: 'foo', namespace: '' } }),
      ['metadata.namespace FieldValueRequired'],
    ],
    [
      'invalid namespace',
      secret({ metadata: { name: 'foo', namespace: 'NoUppercaseOrSpecialCharsLike=Equals' } }),
      ['metadata.namespace FieldValueInvalid'],
    ],
    ['over max size', secret({ data: { over: b64('\0'.repeat(MAX + 1)) } }), ['data FieldValueTooLong']],
    ['invalid key', secret({ data: { 'data-1': b64('bar'), 'a*b': b64('whoops') } }), ['data[a*b] FieldValueInvalid']],
    ['valid service-account-token secret', sat({ 'kubernetes.io/service-account.name': 'foo' }), []],
    [
      'empty service-account-token annotation',
      sat({ 'kubernetes.io/service-account.name': '' }),
      ['metadata.annotations[kubernetes.io/service-account.name] FieldValueRequired'],
    ],
    [
      'missing service-account-token annotation',
      sat({}),
      ['metadata.annotations[kubernetes.io/service-account.name] FieldValueRequired'],
    ],
    [
      'missing service-account-token annotations',
      sat(),
      ['metadata.annotations[kubernetes.io/service-account.name] FieldValueRequired'],
    ],
    ['leading dot key', secret({ data: { 'data-1': b64('bar'), '.key': b64('bar') } }), []],
    ['dot key', secret({ data: { 'data-1': b64('bar'), '.': b64('bar') } }), ['data[.] FieldValueInvalid']],
    ['double dot key', secret({ data: { 'data-1': b64('bar'), '..': b64('bar') } }), ['data[..] FieldValueInvalid']],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('stringData is merged into data before validation', () => {
    expect(fieldTypes(secret({ stringData: { 'a b': 'x' } }))).toEqual(['data[a b] FieldValueInvalid'])
    expect(
      fieldTypes({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'foo', namespace: 'bar' },
        type: 'kubernetes.io/tls',
        stringData: { 'tls.crt': 'c', 'tls.key': 'k' },
      }),
    ).toEqual([])
  })
})

describe('validation_test.go TestValidateSecretUpdate', () => {
  const valid = (): O => secret({ metadata: { name: 'foo', namespace: 'bar', resourceVersion: '20' } })
  const s = valid()
  const immutable = tweak(s, (o) => (o.immutable = true))
  const mutable = tweak(s, (o) => (o.immutable = false))
  const withData = tweak(s, (o) => (o.data['data-2'] = b64('baz')))
  const immutableWithData = tweak(immutable, (o) => (o.data['data-2'] = b64('baz')))
  const changed = tweak(s, (o) => (o.data['data-1'] = b64('foo')))
  const immutableChanged = tweak(immutable, (o) => (o.data['data-1'] = b64('foo')))
  const cases: [string, O, O, string[]][] = [
    ['mark secret immutable', s, immutable, []],
    ['revert immutable secret', immutable, s, ['immutable FieldValueForbidden']],
    ['makr immutable secret mutable', immutable, mutable, ['immutable FieldValueForbidden']],
    ['add data in secret', s, withData, []],
    ['add data in immutable secret', immutable, immutableWithData, ['data FieldValueForbidden']],
    ['change data in secret', s, changed, []],
    ['change data in immutable secret', immutable, immutableChanged, ['data FieldValueForbidden']],
  ]
  for (const [name, o, n, want] of cases) test(name, () => expect(fieldTypes(n, o)).toEqual(want))
  test('type is immutable', () =>
    expect(
      texts(
        tweak(s, (o) => (o.type = 'kubernetes.io/tls')),
        s,
      ),
    ).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
      'data[tls.crt]: Required value',
      'data[tls.key]: Required value',
    ]))
})

describe('validation_test.go TestValidateDockerConfigSecret', () => {
  const cfg = (data: O) => secret({ type: 'kubernetes.io/dockercfg', data })
  const json = (data: O) => secret({ type: 'kubernetes.io/dockerconfigjson', data })
  const good =
    '{"https://index.docker.io/v1/": {"auth": "Y2x1ZWRyb29sZXIwMDAxOnBhc3N3b3Jk","email": "fake@example.com"}}'
  const cases: [string, O, string[]][] = [
    ['valid dockercfg', cfg({ '.dockercfg': b64(good) }), []],
    ['missing dockercfg', cfg({}), ['data[.dockercfg] FieldValueRequired']],
    ['empty dockercfg', cfg({ '.dockercfg': '' }), ['data[.dockercfg] FieldValueInvalid']],
    ['invalid dockercfg', cfg({ '.dockercfg': b64('bad') }), ['data[.dockercfg] FieldValueInvalid']],
    ['valid config.json', json({ '.dockerconfigjson': b64(`{"auths":${good}}`) }), []],
    ['missing config.json', json({}), ['data[.dockerconfigjson] FieldValueRequired']],
    ['empty config.json', json({ '.dockerconfigjson': '' }), ['data[.dockerconfigjson] FieldValueInvalid']],
    ['invalid config.json', json({ '.dockerconfigjson': b64('bad') }), ['data[.dockerconfigjson] FieldValueInvalid']],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))
  test('encoding/json messages', () => {
    const msg = (s: string) => texts(json({ '.dockerconfigjson': b64(s) }))
    expect(msg('')).toEqual([
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input',
    ])
    expect(msg('bad')).toEqual([
      `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'b' looking for beginning of value`,
    ])
    expect(msg('{"auths":{}')).toEqual([
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input',
    ])
    expect(msg('{"a" 1}')).toEqual([
      `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character '1' after object key`,
    ])
    expect(msg('[]')).toEqual([
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
    ])
    expect(msg('{} x')).toEqual([
      `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'x' after top-level value`,
    ])
    expect(msg('null')).toEqual([])
  })
})

describe('validation_test.go TestValidateBasicAuthSecret', () => {
  const cases: [string, O, string[]][] = [
    [
      'valid',
      secret({ type: 'kubernetes.io/basic-auth', data: { username: b64('username'), password: b64('password') } }),
      [],
    ],
    [
      'missing username and password',
      secret({ type: 'kubernetes.io/basic-auth', data: {} }),
      ['data[username] FieldValueRequired', 'data[password] FieldValueRequired'],
    ],
    ['username only', secret({ type: 'kubernetes.io/basic-auth', data: { username: '' } }), []],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))
})

describe('validation_test.go TestValidateSSHAuthSecret', () => {
  const cases: [string, O, string[]][] = [
    ['valid', secret({ type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': b64('foo-bar-baz') } }), []],
    [
      'missing private key',
      secret({ type: 'kubernetes.io/ssh-auth', data: {} }),
      ['data[ssh-privatekey] FieldValueRequired'],
    ],
    [
      'empty private key',
      secret({ type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } }),
      ['data[ssh-privatekey] FieldValueRequired'],
    ],
  ]
  for (const [name, o, want] of cases) test(name, () => expect(fieldTypes(o)).toEqual(want))
})

describe('validation_test.go TestValidateTLSSecret', () => {
  test('empty certificate chain', () =>
    expect(
      fieldTypes(
        secret({
          metadata: { name: 'tls-cert', namespace: 'namespace' },
          data: { 'tls.crt': b64('public key'), 'tls.key': b64('private key') },
        }),
      ),
    ).toEqual([]))
  // The Go cases have no type (Opaque) and no namespace: errs[0] is the namespace's Required value
  for (const name of ['missing public key', 'missing private key'])
    test(name, () =>
      expect(fieldTypes(secret({ metadata: { name: 'tls-cert' }, data: { 'tls.crt': b64('public key') } }))).toEqual([
        'metadata.namespace FieldValueRequired',
      ]),
    )
  test('kubernetes.io/tls requires both keys', () =>
    expect(fieldTypes(secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('public key') } }))).toEqual([
      'data[tls.key] FieldValueRequired',
    ]))
})
