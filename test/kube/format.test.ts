import { describe, expect, it } from 'vitest'
import { compile, standardEnv } from '../../src/cel/program.js'
import { type CelValue, Optional } from '../../src/cel/values/values.js'
import {
  type FormatValue,
  formatCosts,
  formatEqualsCost,
  formatLibrary,
  formatNames,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
} from '../../src/kube/library/format.js'

const env = standardEnv().extend({ libraries: [formatLibrary] })

function run(expr: string): CelValue {
  return compile(expr, { env }).evaluate({})
}

const none = Optional.none
const errors = (...messages: string[]) => new Optional(messages)

const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
const DNS1035_LABEL =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"

describe('apiserver pkg/cel/library/format_test.go TestFormat', () => {
  const cases: [string, CelValue][] = [
    ['format.dns1123Label().validate("my-label-name")', none],
    ['format.dns1123Subdomain().validate("apiextensions.k8s.io")', none],
    ['format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")', none],
    ['format.dns1123LabelPrefix().validate("my-label-prefix-")', none],
    ['format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")', none],
    ['format.dns1035LabelPrefix().validate("my-label-prefix-")', none],
    ['format.uri().validate("http://example.com")', none],
    ['format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")', none],
    ['format.byte().validate("aGVsbG8=")', none],
    ['format.date().validate("2021-01-01")', none],
    ['format.datetime().validate("2021-01-01T00:00:00Z")', none],
    ['format.dns1123Label().validate("contains a space")', errors(DNS1123_LABEL)],
    ['format.dns1123Subdomain().validate("contains a space")', errors(DNS1123_SUBDOMAIN)],
    ['format.dns1035Label().validate("contains a space")', errors(DNS1035_LABEL)],
    ['format.qualifiedName().validate("contains a space")', errors(NAME_PART)],
    ['format.dns1123LabelPrefix().validate("contains a space-")', errors(DNS1123_LABEL)],
    ['format.dns1123SubdomainPrefix().validate("contains a space-")', errors(DNS1123_SUBDOMAIN)],
    ['format.dns1035LabelPrefix().validate("contains a space-")', errors(DNS1035_LABEL)],
    ['format.dns1123Label().validate("my-label-name")', none],
    ['format.dns1123Subdomain().validate("example.com")', none],
    ['format.dns1035Label().validate("my-label-name")', none],
    ['format.qualifiedName().validate("my.name")', none],
    ['format.byte().validate("aGVsbG8=")', none],
    ['format.byte().validate("aGVsbG8")', errors('invalid base64')],
    ['format.date().validate("2020-01-01")', none],
    ['format.date().validate("2020-01-32")', errors('invalid date')],
    ['format.datetime().validate("2020-01-01T00:00:00Z")', none],
    ['format.datetime().validate("2020-01-32T00:00:00Z")', errors('invalid datetime')],
    ['format.named("unknown").hasValue()', false],
    ['format.labelValue().validate("my-cool-label-Value")', none],
    ['format.labelValue().validate("my-cool-label-Value!!\\n\\n!!!")', errors(LABEL_VALUE)],
  ]
  for (const [expr, want] of cases) it(expr, () => expect(run(expr)).toEqual(want))

  it('looks up and compares every constant format', () => {
    for (const lhs of formatNames) {
      expect(run(`format.named("${lhs}").hasValue()`)).toBe(true)
      expect(run(`format.named("${lhs}").value() == format.${lhs}()`)).toBe(true)
      for (const rhs of formatNames) if (rhs !== lhs) expect(run(`format.${lhs}() == format.${rhs}()`)).toBe(false)
    }
  })
})

describe('apiserver pkg/cel/library/format.go ConstantFormats', () => {
  it('has the fourteen formats, including portName', () => {
    expect([...formatNames].sort()).toEqual(
      [
        'dns1123Label',
        'dns1123Subdomain',
        'dns1035Label',
        'qualifiedName',
        'portName',
        'dns1123LabelPrefix',
        'dns1123SubdomainPrefix',
        'dns1035LabelPrefix',
        'labelValue',
        'uri',
        'uuid',
        'byte',
        'date',
        'datetime',
      ].sort(),
    )
    const f = run('format.portName()') as FormatValue
    expect(f.typeName).toBe('kubernetes.NamedFormat')
    expect(f.name).toBe('PortName')
  })
  it('uri validates with url.ParseRequestURI and reports its error', () => {
    expect(run('format.uri().validate("x")')).toEqual(errors('parse "x": invalid URI for request'))
  })
  it('declares the overload ids of format.go', () => {
    const ids = formatLibrary.functions.flatMap((f) => f.overloads.map((o) => o.id))
    expect(ids).toContain('format-validate')
    expect(ids).toContain('format-named')
    expect(ids).toContain('format.dns1123Label')
    expect(String(formatLibrary.functions.find((f) => f.name === 'validate')!.overloads[0]!.result)).toBe(
      'optional_type(list(string))',
    )
  })
})

describe('apimachinery pkg/util/validation/validation_test.go and pkg/api/validate/content/{dns,kube}_test.go', () => {
  it('TestIsDNS1123Label', () => {
    for (const v of [
      'a',
      'ab',
      'abc',
      'a1',
      'a-1',
      'a--1--2--b',
      '0',
      '01',
      '012',
      '1a',
      '1-a',
      '1--a--b--2',
      'a'.repeat(63),
    ]) {
      expect(isDNS1123Label(v), v).toEqual([])
    }
    for (const v of [
      '',
      'A',
      'ABC',
      'aBc',
      'A1',
      'A-1',
      '1-A',
      '-',
      'a-',
      '-a',
      '1-',
      '-1',
      '_',
      'a_',
      '_a',
      'a_b',
      '1_',
      '_1',
      '1_2',
      '.',
      'a.',
      '.a',
      'a.b',
      '1.',
      '.1',
      '1.2',
      ' ',
      'a ',
      ' a',
      'a b',
      '1 ',
      ' 1',
      '1 2',
      'a'.repeat(64),
    ]) {
      expect(isDNS1123Label(v).length, v).toBeGreaterThan(0)
    }
  })
  it('TestIsDNS1123Subdomain', () => {
    for (const v of [
      'a',
      'ab',
      'a--1--2--b',
      '0',
      '1--a--b--2',
      'a.a',
      'a--1--2--b.a',
      'a.1',
      '0.a',
      '1-a.a',
      '0.1',
      '1--a--b--2.1',
      'a.b.c.d.e',
      'aa.bb.cc.dd.ee',
      '1.2.3.4.5',
      '11.22.33.44.55',
      'a'.repeat(253),
    ]) {
      expect(isDNS1123Subdomain(v), v).toEqual([])
    }
    for (const v of [
      '',
      'A',
      'aBc',
      '-',
      'a-',
      '-a',
      '_',
      'a_b',
      '.',
      'a.',
      '.a',
      'a..b',
      '1..2',
      ' ',
      'a b',
      'A.a',
      'ab.A',
      'a.B.c.d.e',
      'a@b',
      'a,b',
      'a;b',
      'a:b',
      'a%b',
      'a?b',
      'a$b',
      'a'.repeat(254),
    ]) {
      expect(isDNS1123Subdomain(v).length, v).toBeGreaterThan(0)
    }
  })
  it('TestIsDNS1035Label', () => {
    for (const v of ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', 'a'.repeat(63)])
      expect(isDNS1035Label(v), v).toEqual([])
    for (const v of [
      '0',
      '01',
      '1a',
      '1--a--b--2',
      '',
      'A',
      'aBc',
      '-',
      'a-',
      '-a',
      'a_b',
      'a.b',
      'a b',
      'a'.repeat(64),
    ]) {
      expect(isDNS1035Label(v).length, v).toBeGreaterThan(0)
    }
  })
  it('TestIsValidPortName', () => {
    for (const v of ['telnet', 're-mail-ck', 'pop3', 'a', 'a-1', '1-a', 'a-1-b-2-c', '1-a-2-b-3']) {
      expect(isValidPortName(v), v).toEqual([])
    }
    for (const v of [
      'longerthan15characters',
      '',
      'a'.repeat(16),
      '12345',
      '1-2-3-4',
      '-begin',
      'end-',
      'two--hyphens',
      'whois++',
    ]) {
      expect(isValidPortName(v).length, v).toBeGreaterThan(0)
    }
  })
  it('TestIsQualifiedName / TestIsLabelKey', () => {
    for (const v of [
      'simple',
      'now-with-dashes',
      '1-starts-with-num',
      '1234',
      'simple/simple',
      'now-with-dashes/simple',
      'now.with.dots/simple',
      '1-num.2-num/3-num',
      '1234/5678',
      '1.2.3.4/5678',
      'Uppercase_Is_OK_123',
      'example.com/Uppercase_Is_OK_123',
      'requests.storage-foo',
      'a'.repeat(63),
      `${'a'.repeat(253)}/${'b'.repeat(63)}`,
    ]) {
      expect(isQualifiedName(v), v).toEqual([])
    }
    for (const v of [
      'nospecialchars%^=@',
      'cantendwithadash-',
      '-cantstartwithadash-',
      'only/one/slash',
      'Example.com/abc',
      'example_com/abc',
      'example.com/',
      '/simple',
      'a'.repeat(64),
      `${'a'.repeat(254)}/abc`,
    ]) {
      expect(isQualifiedName(v).length, v).toBeGreaterThan(0)
    }
  })
  it('TestIsValidLabelValue / TestIsLabelValue', () => {
    for (const v of ['simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', 'a'.repeat(63), '']) {
      expect(isValidLabelValue(v), v).toEqual([])
    }
    for (const v of [
      'nospecialchars%^=@',
      'Tama-nui-te-rā.is.Māori.sun',
      '\\backslashes\\are\\bad',
      '-starts-with-dash',
      'ends-with-dash-',
      '.starts.with.dot',
      'ends.with.dot.',
      'a'.repeat(64),
    ]) {
      expect(isValidLabelValue(v).length, v).toBeGreaterThan(0)
    }
  })
})

describe('apimachinery validation messages (validation.go / content/kube.go / content/dns.go)', () => {
  it('IsDNS1123Label: length, and dots in an otherwise valid subdomain', () => {
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots'])
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters'])
  })
  it('IsLabelKey: prefix and name messages', () => {
    expect(isQualifiedName('/simple')).toEqual(['prefix part must be non-empty'])
    expect(isQualifiedName('example.com/')).toEqual(['name part must be non-empty', NAME_PART])
    expect(isQualifiedName('Example.com/abc')).toEqual([`prefix part ${DNS1123_SUBDOMAIN}`])
    expect(isQualifiedName('a'.repeat(64))).toEqual(['name part must be no more than 63 characters'])
    expect(isQualifiedName('only/one/slash')).toEqual([
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ])
  })
  it('IsValidPortName lists every failed rule', () => {
    expect(isValidPortName('')).toEqual([
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'must contain at least one letter (a-z)',
    ])
    expect(isValidPortName('-a--')).toEqual([
      'must not contain consecutive hyphens',
      'must not begin or end with a hyphen',
    ])
  })
  it('lengths are UTF-8 bytes (Go len)', () => {
    expect(isValidLabelValue('é'.repeat(32))).toEqual(['must be no more than 63 characters', LABEL_VALUE])
  })
  it('maskTrailingDash (pkg/api/validation/generic.go) replaces the last two characters with "a"', () => {
    expect(run('format.dns1123LabelPrefix().validate("a_-")')).toEqual(none)
    expect(run('format.dns1035LabelPrefix().validate("-")')).toEqual(errors(DNS1035_LABEL))
  })
})

describe('kube-openapi pkg/validation/strfmt (default_test.go, and the validators of default.go / date / datetime)', () => {
  const valid = (name: string, s: string) => run(`format.${name}().validate(${JSON.stringify(s)})`) === none
  it('uuid (UUIDPattern allows upper case and missing hyphens)', () => {
    expect(valid('uuid', '123E4567-E89B-12D3-A456-426614174000')).toBe(true)
    expect(valid('uuid', '123e4567e89b12d3a456426614174000')).toBe(true)
    expect(run('format.uuid().validate("not-a-uuid")')).toEqual(errors('does not match the UUID format'))
  })
  it('byte (TestFormatBase64)', () => {
    expect(valid('byte', 'VGhpcyBpcyBhIGJ5dGUgYXJyYXkgd2l0aCB1bnByaW50YWJsZSBjaGFycywgYnV0IGl0IGFsc28gaXNu')).toBe(true)
    expect(valid('byte', 'ZWxpemFiZXRocG9zZXk')).toBe(false)
    expect(valid('byte', 'ZWxpemFiZXRocG9zZXk=')).toBe(true)
  })
  it('date: time.Parse("2006-01-02") checks month and day', () => {
    expect(valid('date', '2020-02-29')).toBe(true)
    expect(valid('date', '2021-02-29')).toBe(false)
    expect(valid('date', '2021-13-01')).toBe(false)
    expect(valid('date', '2021-1-01')).toBe(false)
  })
  it('datetime: IsDateTime', () => {
    expect(valid('datetime', '2021-01-01t23:59:59.123+01:00')).toBe(true)
    expect(valid('datetime', '2021-01-01T24:00:00Z')).toBe(false)
    expect(valid('datetime', '2021-01-01T00:00:00')).toBe(false)
  })
})

describe('apiserver pkg/cel/library/cost.go (format entries)', () => {
  it('validate: ceil((1 + size) * 0.1) * ceil(maxRegexSize * 0.25) at run time', () => {
    const label = run('format.dns1123Label()') as FormatValue
    expect(formatCosts['format-validate']!.actual!([label, 'my-label-name'], null)).toBe(2 * 8)
    const uri = run('format.uri()') as FormatValue
    expect(formatCosts['format-validate']!.actual!([uri, ''], null)).toBe(1 * 276)
  })
  it('validate estimate: ceil(ceil(size * 0.1) * 32); format.named 1; == on formats 1 (estimated 1..7)', () => {
    const est = formatCosts['format-validate']!.estimate!({ size: { min: 0n, max: 0n } }, [
      { size: { min: 0n, max: 63n } },
    ])
    expect(est!.cost).toEqual({ min: 0n, max: 224n })
    expect(formatCosts['format-named']!.actual!(['uuid'], null)).toBe(1)
    expect(formatEqualsCost.estimate!(undefined, [])!.cost).toEqual({ min: 1n, max: 7n })
  })
})
