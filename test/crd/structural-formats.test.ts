import { describe, expect, it } from 'vitest'
import { defaultFormats, supportedFormat } from '../../src/crd/structural/formats.js'

// The string formats of kube-openapi pkg/validation/strfmt (default_test.go, date_test.go,
// time_test.go, duration_test.go, bson_test.go, kubernetes-extensions_test.go) and the
// version-dependent format support of apiextensions-apiserver pkg/apiserver/validation
// (formats_test.go).

const valid = (format: string, samples: readonly string[]) => {
  for (const s of samples)
    it(`${format} accepts ${JSON.stringify(s)}`, () => expect(defaultFormats.validates(format, s)).toBe(true))
}
const invalid = (format: string, samples: readonly string[]) => {
  for (const s of samples)
    it(`${format} rejects ${JSON.stringify(s)}`, () => expect(defaultFormats.validates(format, s)).toBe(false))
}

describe('strfmt default_test.go', () => {
  // TestFormatURI
  valid('uri', ['http://somewhere.com', 'http://somewhereelse.com'])
  invalid('uri', ['somewhere.com'])
  // TestFormatEmail
  valid('email', [
    'somebody@somewhere.com',
    'somebodyelse@somewhere.com',
    'blah@gmail.com',
    'test@d.verylongtoplevel',
    'email+tag@gmail.com',
    '" "@example.com',
    '"Abc\\@def"@example.com',
    '"Fred Bloggs"@example.com',
    '"Joe\\\\Blow"@example.com',
    '"Abc@def"@example.com',
    'customer/department=shipping@example.com',
    '$A12345@example.com',
    '!def!xyz%abc@example.com',
    '_somename@example.com',
    "!#$%&'*+-/=?^_`{}|~@example.com",
    "Miles.O'Brian@example.com",
    'postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws',
    'root@localhost',
    'john@com',
    'api@piston.ninja',
  ])
  invalid('email', ['somebody@somewhere@com'])
  // TestFormatHostname
  invalid('hostname', [
    'somewhere.com!',
    'user@email.domain',
    '1.1.1.1',
    'a'.repeat(256),
    ['x', 'y', 'a'.repeat(64)].join('.'),
    'www.example-.org',
    'www.--example.org',
    '-www.example.org',
    'www-.example.org',
    'www.d-.org',
    'www.-d.org',
    'www-',
    '-www',
    'www.ex ample.org',
    '_www.example.org',
    'www.ex;ample.org',
    'www.example_underscored.org',
    'www.詹姆斯.x',
    'a.b.c.d',
    '-xyz',
    'xyz-',
    'x.',
    'a.b.c.dot-',
    'a.b.c.é;ö',
  ])
  valid('hostname', [
    'somewhere.com',
    '888.com',
    'a.com',
    'a.b.com',
    'a.b.c.com',
    'a.b.c.d.com',
    'a.b.c.d.e.com',
    '1.com',
    '1.2.com',
    '1.2.3.com',
    '1.2.3.4.com',
    '99.domain.com',
    '99.99.domain.com',
    '1wwworg.example.com',
    '1000wwworg.example.com',
    'xn--bcher-kva.example.com',
    'xn-80ak6aa92e.co',
    'xn-80ak6aa92e.com',
    'xn--ls8h.la',
    '☁→❄→☃→☀→☺→☂→☹→✝.ws',
    'www.example.onion',
    'www.example.ôlà',
    'ôlà.ôlà',
    'ôlà.ôlà.ôlà',
    'ex$ample',
    'localhost',
    'example',
    'x',
    'x-y',
    'a.b.c.dot',
    'www.example.org',
    'a.b.c.d.e.f.g.dot',
    'ex=ample.com',
    '<foo>',
    'www.example-hyphenated.org',
    'www.詹姆斯.org',
    'www.élégigôö.org',
    'www.詹姆斯.london',
  ])
  // TestFormatIPv4, TestFormatIPv6, TestFormatCIDR, TestFormatMAC
  valid('ipv4', ['192.168.254.2', '127.0.0.1', '192.168.1.1', '192.168.1.01'])
  invalid('ipv4', ['198.168.254.2.2'])
  valid('ipv6', ['::2'])
  invalid('ipv6', ['127.0.0.1'])
  valid('cidr', ['192.168.254.2/24', '192.0.2.1/24', '192.0.02.1/24', '2001:db8:a0b:12f0::1/32'])
  invalid('cidr', ['198.168.254.2', '2001:db8:a0b:12f0::1'])
  valid('mac', ['06:05:04:03:02:01'])
  invalid('mac', ['01:02:03:04:05'])
  // TestFormatUUID3/4/5, TestFormatUUID: uuid.NewMD5 / NewSHA1(NameSpaceURL, "somewhere.com" and
  // "somewhereelse.com") as Python's uuid3 / uuid5 compute them; a fixed version-4 UUID for NewRandom
  valid('uuid3', ['fba4f6bb-77ab-3976-8146-0a48a348c416', 'd5500955-d3f8-3ae2-a872-0a9b9c16c503'])
  valid('uuid4', ['f47ac10b-58cc-4372-a567-0e02b2c3d479'])
  valid('uuid5', ['b1690c37-3ee8-5346-b699-8c23cac63839', '051fe46f-224a-544a-af5e-c946d53d98b6'])
  valid('uuid', ['b1690c37-3ee8-5346-b699-8c23cac63839', '051fe46f-224a-544a-af5e-c946d53d98b6'])
  invalid('uuid3', ['not-a-uuid'])
  invalid('uuid4', ['not-a-uuid'])
  invalid('uuid5', ['not-a-uuid'])
  invalid('uuid', ['not-a-uuid'])
  // TestFormatISBN, TestFormatISBN10, TestFormatISBN13
  valid('isbn', ['0321751043'])
  invalid('isbn', ['836217463'])
  valid('isbn10', ['0321751043'])
  invalid('isbn10', ['836217463'])
  valid('isbn13', ['978-0321751041'])
  invalid('isbn13', ['978-0321751042'])
  // TestFormatHexColor, TestFormatRGBColor, TestFormatSSN, TestFormatCreditCard, TestFormatPassword
  valid('hexcolor', ['#000000'])
  invalid('hexcolor', ['#fffffffz'])
  valid('rgbcolor', ['rgb(0,0,0)'])
  invalid('rgbcolor', ['rgb(300,0,0)'])
  valid('ssn', ['999 99 9999'])
  invalid('ssn', ['999 99 999'])
  valid('creditcard', ['4012-8888-8888-1881'])
  invalid('creditcard', ['9999-9999-9999-999'])
  valid('password', ['super secret!!!', 'even more secret'])
})

describe('strfmt date_test.go TestDate_IsDate', () => {
  const cases: [string, boolean][] = [
    ['2017-12-22', true],
    ['2017-1-1', false],
    ['17-13-22', false],
    ['2017-02-29', false],
    ['1900-02-29', false],
    ['2100-02-29', false],
    ['2000-02-29', true],
    ['2400-02-29', true],
    ['2017-13-22', false],
    ['2017-12-32', false],
    ['20171-12-32', false],
    ['YYYY-MM-DD', false],
    ['20-17-2017', false],
    ['2017-12-22T01:02:03Z', false],
  ]
  for (const [v, ok] of cases) it(v, () => expect(defaultFormats.validates('date', v)).toBe(ok))
})

describe('strfmt time_test.go', () => {
  // TestDateTime_IsDateTime_errorCases
  invalid('date-time', [
    'zor',
    'zorg',
    'zorgTx',
    '1972-12-31Tx',
    '1972-12-31T24:40:00.000Z',
    '1972-12-31T23:63:00.000Z',
    '1972-12-31T23:59:60.000Z',
  ])
  // testCases of ParseDateTime that are RFC 3339 date-times with a zone
  valid('date-time', ['2014-12-15T08:00:00.000Z', '2011-08-18T19:03:37.000000000+01:00', '2014-12-15T19:30:20Z'])
})

describe('strfmt duration_test.go', () => {
  // TestIsDuration_Failed, TestDuration's failing inputs
  invalid('duration', [
    '45 weeekks',
    'yada',
    'three week',
    `${'9'.repeat(55)} weeks`,
    '12 parsecs',
    '12 y',
    '12 phours',
  ])
  // TestDuration, TestDurationParser, TestIsDuration_Caveats
  valid('duration', ['0ms', '2ms', '45 weeks', '45 weekz', '12 hours', '12 minutes'])
  const forms = ['ns', 'us', 'µs', 'ms', 's', 'm', 'h', 'hr', 'd', 'w', 'wk']
  const long = ['nanoseconds', 'nanos', 'microseconds', 'micros', 'millis', 'milliseconds', 'second', 'sec', 'min']
  const long2 = ['minute', 'hour', 'day', 'week']
  valid(
    'duration',
    [...forms, ...long, ...long2].flatMap((u) => [`1${u}`, `1  ${u}`]),
  )
})

describe('strfmt bson_test.go, kubernetes-extensions_test.go', () => {
  valid('bsonobjectid', ['507f1f77bcf86cd799439011'])
  const goodShort = [
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
  ]
  const badShort = [
    ...['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', '-a', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2'],
    ...['.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'a'.repeat(64)],
    ...['a-', '1-'],
  ]
  valid('k8s-short-name', goodShort)
  invalid('k8s-short-name', badShort)
  const goodLong = [
    ...['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2'],
    ...[
      'a.a',
      'ab.a',
      'abc.a',
      'a1.a',
      'a-1.a',
      'a--1--2--b.a',
      'a.1',
      'ab.1',
      'abc.1',
      'a1.1',
      'a-1.1',
      'a--1--2--b.1',
    ],
    ...['0.a', '01.a', '012.a', '1a.a', '1-a.a', '0.1', '01.1', '012.1', '1a.1', '1-a.1', '1--a--b--2.1'],
    ...['a.b.c.d.e', 'aa.bb.cc.dd.ee', '1.2.3.4.5', '11.22.33.44.55', 'a'.repeat(253)],
  ]
  const badLong = [
    ...['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', '-a', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2'],
    ...['.', 'a.', '.a', 'a..b', '1.', '.1', '1..2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2'],
    ...['A.a', 'aB.a', 'ab.A', 'A1.a', 'a1.A', 'A.1', 'aB.1', 'A1.1', '1A.1', '0.A', '01.A', '012.A', '1A.a', '1a.A'],
    ...['A.B.C.D.E', 'AA.BB.CC.DD.EE', 'a.B.c.d.e', 'aa.bB.cc.dd.ee', 'a@b', 'a,b', 'a_b', 'a;b'],
    ...['a:b', 'a%b', 'a?b', 'a$b', 'a'.repeat(254), 'a-', '1-'],
  ]
  valid('k8s-long-name', goodLong)
  invalid('k8s-long-name', badLong)
})

describe('apiextensions validation/formats_test.go TestGetUnrecognizedFormats', () => {
  const cases: [string, string, string[], number, boolean][] = [
    ['empty format', '', ['string'], 0, false],
    ['recognized format at version 1.0', 'email', ['string'], 0, false],
    ['unrecognized format at version 1.0', 'unknown-format', ['string'], 0, true],
    ['recognized format with normalization', 'k8s-short-name', ['string'], 34, false],
    ['unrecognized format with normalization', 'k8s-long-name', ['string'], 33, true],
    ['format introduced in later version', 'k8s-short-name', ['string'], 0, true],
    ['format with dash normalization', 'k8sshortname', ['string'], 34, false],
    ['recognized format at exact version', 'uuid', ['string'], 0, false],
    ['recognized format at higher version', 'email', ['string'], 35, false],
    ['unrecognized format for integer type is reported', 'unknown-format', ['integer'], 0, true],
    ['unrecognized format for string,null type is reported', 'unknown-format', ['string', 'null'], 0, true],
    ['unrecognized format for no type is reported', 'unknown-format', [], 0, true],
  ]
  for (const [name, format, types, minor, unrecognized] of cases) {
    it(name, () => expect(format !== '' && supportedFormat(format, types, minor) === '').toBe(unrecognized))
  }
})

describe('apiextensions validation/formats_test.go TestRegistryFormats', () => {
  const supported = [
    ...['bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5'],
    ...['isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password', 'date'],
    ...['duration', 'datetime', 'k8s-short-name', 'k8s-long-name'],
  ]
  for (const f of supported) it(f, () => expect(defaultFormats.containsName(f)).toBe(true))
})
