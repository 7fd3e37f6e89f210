import { describe } from 'vitest'
import {
  expressionsCase,
  listType,
  listTypePtr,
  mapType,
  objectType,
  objectTypePtr,
  objs,
  schemas,
  stringType,
} from './helpers/schemas.js'

// apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go TestValidationExpressions:
// libraries (regex, URL, quantity, IP / CIDR, format, optionals), transition rules and runtime
// cost (cases "stdlib regex functions" … "format").

describe('apiextensions validation_test.go TestValidationExpressions', () => {
  expressionsCase({
    name: 'stdlib regex functions',
    obj: { str: 'this is a 123 string 456' },
    schema: objectTypePtr({ str: stringType }),
    valid: [
      "self.str.find('[0-9]+') == '123'",
      "self.str.find('[0-9]+') != '456'",
      "self.str.find('xyz') == ''",
      "self.str.findAll('[0-9]+') == ['123', '456']",
      "self.str.findAll('[0-9]+', 0) == []",
      "self.str.findAll('[0-9]+', 1) == ['123']",
      "self.str.findAll('[0-9]+', 2) == ['123', '456']",
      "self.str.findAll('[0-9]+', 3) == ['123', '456']",
      "self.str.findAll('[0-9]+', -1) == ['123', '456']",
      "self.str.findAll('xyz') == []",
      "self.str.findAll('xyz', 1) == []",
    ],
    errors: {
      // Invalid regex with a string constant regex pattern is compile time error
      "self.str.find(')') == ''":
        'compile error: program instantiation failed: error parsing regexp: unexpected ): `)`',
      "self.str.findAll(')') == []":
        'compile error: program instantiation failed: error parsing regexp: unexpected ): `)`',
      "self.str.findAll(')', 1) == []":
        'compile error: program instantiation failed: error parsing regexp: unexpected ): `)`',
      "self.str.matches('x++')": 'invalid matches argument',
    },
  })
  expressionsCase({
    name: 'URL parsing',
    obj: { url: 'https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor' },
    schema: objectTypePtr({ url: stringType }),
    valid: [
      "url('/path').getScheme() == ''",
      "url('https://example.com/').getScheme() == 'https'",
      "url('https://example.com:80/').getHost() == 'example.com:80'",
      "url('https://example.com/').getHost() == 'example.com'",
      "url('https://[::1]:80/').getHost() == '[::1]:80'",
      "url('https://[::1]/').getHost() == '[::1]'",
      "url('/path').getHost() == ''",
      "url('https://example.com:80/').getHostname() == 'example.com'",
      "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
      "url('https://[::1]/').getHostname() == '::1'",
      "url('/path').getHostname() == ''",
      "url('https://example.com:80/').getPort() == '80'",
      "url('https://example.com/').getPort() == ''",
      "url('/path').getPort() == ''",
      "url('https://example.com/path').getEscapedPath() == '/path'",
      "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
      "url('https://example.com').getEscapedPath() == ''",
      "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
      "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
      "url('https://example.com/path?').getQuery() == {}",
      "url('https://example.com/path').getQuery() == {}",
      // test with string input
      "url(self.url).getScheme() == 'https'",
      "url(self.url).getHost() == 'kubernetes.io:80'",
      "url(self.url).getHostname() == 'kubernetes.io'",
      "url(self.url).getPort() == '80'",
      "url(self.url).getEscapedPath() == '/docs/home'",
      "url(self.url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
      "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
      "isURL('/path') == true",
      "isURL('https://a:b:c/') == false",
      "isURL('../relative-path') == false",
    ],
  })
  expressionsCase({
    name: 'transition rules',
    obj: { v: 'new' },
    oldObj: { v: 'old' },
    schema: objectTypePtr({ v: stringType }),
    valid: ['oldSelf.v != self.v', "oldSelf.v == 'old' && self.v == 'new'"],
  })
  expressionsCase({
    name: 'skipped transition rule for nil old primitive',
    expectSkipped: true,
    obj: 'exists',
    oldObj: undefined, // nil
    schema: stringType,
    valid: ['oldSelf == self'],
  })
  expressionsCase({
    name: 'skipped transition rule for nil old array',
    expectSkipped: true,
    obj: [],
    oldObj: undefined, // nil
    schema: listTypePtr(stringType),
    valid: ['oldSelf == self'],
  })
  expressionsCase({
    name: 'skipped transition rule for nil old object',
    expectSkipped: true,
    obj: { f: 'exists' },
    oldObj: undefined, // nil
    schema: objectTypePtr({ f: stringType }),
    valid: ['oldSelf.f == self.f'],
  })
  expressionsCase({
    name: 'skipped transition rule for old with non-nil interface but nil value',
    expectSkipped: true,
    obj: [],
    oldObj: null, // nilInterfaceOfStringSlice(): a nil []interface{} held in an interface{}, i.e. JSON null
    schema: listTypePtr(stringType),
    valid: ['oldSelf == self'],
  })
  expressionsCase({
    name: 'authorizer is not supported for CRD Validation Rules',
    obj: [],
    oldObj: [],
    schema: objectTypePtr({}),
    errors: {
      "authorizer.path('/healthz').check('get').allowed()": "undeclared reference to 'authorizer'",
    },
  })
  expressionsCase({
    name: 'optionals', // https://github.com/google/cel-spec/wiki/proposal-246
    obj: {
      presentObj: { presentStr: 'value' },
      m: { k: 'v' },
      l: ['a'],
    },
    schema: objectTypePtr({
      presentObj: objectType({ presentStr: stringType }),
      absentObj: objectType({ absentStr: stringType }),
      m: mapType(stringType),
      l: listType(stringType),
    }),
    valid: [
      "self.?presentObj.?presentStr == optional.of('value')",
      "self.presentObj.?presentStr == optional.of('value')",
      "self.presentObj.?presentStr.or(optional.of('nope')) == optional.of('value')",
      "self.presentObj.?presentStr.orValue('') == 'value'",
      'self.presentObj.?presentStr.hasValue() == true',
      "self.presentObj.?presentStr.optMap(v, v == 'value').hasValue()",
      'self.?absentObj.?absentStr == optional.none()',
      "self.?absentObj.?absentStr.or(optional.of('nope')) == optional.of('nope')",
      "self.?absentObj.?absentStr.orValue('nope') == 'nope'",
      'self.?absentObj.?absentStr.hasValue() == false',
      "self.?absentObj.?absentStr.optMap(v, v == 'value').hasValue() == false",
      "self.m[?'k'] == optional.of('v')",
      "self.m[?'k'].or(optional.of('nope')) == optional.of('v')",
      "self.m[?'k'].orValue('') == 'v'",
      "self.m[?'k'].hasValue() == true",
      "self.m[?'k'].optMap(v, v == 'v').hasValue()",
      "self.m[?'x'] == optional.none()",
      "self.m[?'x'].or(optional.of('nope')) == optional.of('nope')",
      "self.m[?'x'].orValue('nope') == 'nope'",
      "self.m[?'x'].hasValue() == false",
      "self.m[?'x'].hasValue() == false",
      "self.l[?0] == optional.of('a')",
      'self.l[?1] == optional.none()',
      "self.l[?0].orValue('') == 'a'",
      'self.l[?0].hasValue() == true',
      "self.l[?0].optMap(v, v == 'a').hasValue()",
      'self.l[?1] == optional.none()',
      "self.l[?1].or(optional.of('nope')) == optional.of('nope')",
      "self.l[?1].orValue('nope') == 'nope'",
      'self.l[?1].hasValue() == false',
      'self.l[?1].hasValue() == false',
      'optional.ofNonZeroValue(1).hasValue()',
      'optional.ofNonZeroValue(uint(1)).hasValue()',
      'optional.ofNonZeroValue(1.1).hasValue()',
      "optional.ofNonZeroValue('a').hasValue()",
      'optional.ofNonZeroValue(true).hasValue()',
      "optional.ofNonZeroValue(['a']).hasValue()",
      "optional.ofNonZeroValue({'k': 'v'}).hasValue()",
      "optional.ofNonZeroValue(timestamp('2011-08-18T00:00:00.000+01:00')).hasValue()",
      "optional.ofNonZeroValue(duration('19h3m37s10ms')).hasValue()",
      'optional.ofNonZeroValue(null) == optional.none()',
      'optional.ofNonZeroValue(0) == optional.none()',
      'optional.ofNonZeroValue(uint(0)) == optional.none()',
      'optional.ofNonZeroValue(0.0) == optional.none()',
      "optional.ofNonZeroValue('') == optional.none()",
      'optional.ofNonZeroValue(false) == optional.none()',
      'optional.ofNonZeroValue([]) == optional.none()',
      'optional.ofNonZeroValue({}) == optional.none()',
      "optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00.000+00:00')) == optional.none()",
      "optional.ofNonZeroValue(duration('0s')) == optional.none()",
      "{?'k': optional.none(), 'k2': 'v2'} == {'k2': 'v2'}",
      "{?'k': optional.of('v'), 'k2': 'v2'} == {'k': 'v', 'k2': 'v2'}",
      "['a', ?optional.none(), 'c'] == ['a', 'c']",
      "['a', ?optional.of('v'), 'c'] == ['a', 'v', 'c']",
    ],
    errors: {
      'self.absentObj.?absentStr == optional.none()': 'no such key: absentObj', // missing ?. operator on first deref is an error
    },
  })
  expressionsCase({
    name: 'quantity',
    obj: objs('20', '200M'),
    schema: schemas(stringType, stringType),
    valid: [
      'isQuantity(self.val1)',
      'isQuantity(self.val2)',
      'isQuantity("20Mi")',
      'quantity(self.val2) == quantity("0.2G") && quantity("0.2G") == quantity("200M")',
      'quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")',
      'quantity(self.val1).isLessThan(quantity("100M"))',
      'quantity(self.val2).isGreaterThan(quantity("50M"))',
      'quantity(self.val2).compareTo(quantity("0.2G")) == 0',
      'quantity("50k").add(quantity(self.val1)) == quantity("50.02k")',
      'quantity("50k").sub(quantity(self.val1)) == quantity("49980")',
      'quantity(self.val1).isInteger()',
    ],
  })
  expressionsCase({
    name: 'cost for extended lib calculated correctly: isSorted',
    obj: objs('20', '200M'),
    schema: schemas(stringType, stringType),
    valid: ['[1,2,3,4].isSorted()'],
    expectedCost: 4,
  })
  expressionsCase({
    name: 'cost for extended lib calculated correctly: url',
    obj: objs('20', '200M'),
    schema: schemas(stringType, stringType),
    valid: ["url('https:://kubernetes.io/').getHostname() != 'test'"],
    expectedCost: 4,
  })
  expressionsCase({
    name: 'cost for extended lib calculated correctly: split',
    obj: objs('20', '200M'),
    schema: schemas(stringType, stringType),
    valid: ["size('abc 123 def 123'.split(' ')) > 0"],
    expectedCost: 5,
  })
  expressionsCase({
    name: 'cost for extended lib calculated correctly: join',
    obj: objs('20', '200M'),
    schema: schemas(stringType, stringType),
    valid: ["size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0"],
    expectedCost: 7,
  })
  expressionsCase({
    name: 'IP and CIDR',
    obj: objs('20', '200M'),
    schema: schemas(stringType, stringType),
    valid: [
      'isIP("192.168.0.1")',
      'ip.isCanonical("127.0.0.1")',
      'ip("192.168.0.1").family() > 0',
      'ip("0.0.0.0").isUnspecified()',
      'ip("127.0.0.1").isLoopback()',
      'ip("224.0.0.1").isLinkLocalMulticast()',
      'ip("192.168.0.1").isGlobalUnicast()',
      'type(ip("192.168.0.1")) == net.IP',
      'cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))',
      'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")',
      'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))',
      'type(cidr("2001:db8::/32").ip()) == net.IP',
      "cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()",
      "cidr('192.168.0.0/16').prefixLength() == 16",
      "cidr('::1/128').ip().family() == 6",
    ],
  })
  expressionsCase({
    name: 'format',
    obj: objs('20', '200M'),
    schema: schemas(stringType, stringType),
    valid: [
      'format.dns1123Label().validate("my-label-name") == optional.none()',
      'format.dns1123Subdomain().validate("apiextensions.k8s.io") == optional.none()',
      'format.qualifiedName().validate("apiextensions.k8s.io/v1beta1") == optional.none()',
      'format.dns1123LabelPrefix().validate("my-label-prefix-") == optional.none()',
      'format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-") == optional.none()',
      'format.dns1035LabelPrefix().validate("my-label-prefix-") == optional.none()',
      'format.uri().validate("http://example.com") == optional.none()',
      'format.uuid().validate("123e4567-e89b-12d3-a456-426614174000") == optional.none()',
      'format.byte().validate("aGVsbG8=") == optional.none()',
      'format.date().validate("2021-01-01") == optional.none()',
      'format.datetime().validate("2021-01-01T00:00:00Z") == optional.none()',
      'format.named("dns1123Label").value().validate("my-name") == optional.none()',
      "format.dns1123Label().validate(\"contains a space\").value()[0] == \"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \\'-\\', and must start and end with an alphanumeric character (e.g. \\'my-name\\',  or \\'123-abc\\', regex used for validation is \\'[a-z0-9]([-a-z0-9]*[a-z0-9])?\\')\"",
      '!format.named("unknown").hasValue()',
    ],
  })
})
