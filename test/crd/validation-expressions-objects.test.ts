import { describe } from 'vitest'
import {
  expressionsCase,
  integerType,
  intOrStringType,
  listMapType,
  listMapTypePtr,
  listSetType,
  listType,
  mapType,
  objectType,
  objectTypePtr,
  type Schema,
  stringType,
  withDefault,
  withNullable,
  withNullablePtr,
} from './helpers/schemas.js'

// apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go TestValidationExpressions:
// Kubernetes schema features (type and object meta, embedded resources, int-or-string, preserved
// unknown fields, nullability, property name escaping, invalid data).

const preserveUnknown: Schema = { 'x-kubernetes-preserve-unknown-fields': true }

describe('apiextensions validation_test.go TestValidationExpressions', () => {
  expressionsCase({
    name: 'typemeta and objectmeta access specified',
    obj: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
    },
    schema: objectTypePtr({
      kind: stringType,
      apiVersion: stringType,
      metadata: objectType({ name: stringType, generateName: stringType }),
    }),
    valid: [
      "self.kind == 'Pod'",
      "self.apiVersion == 'v1'",
      "self.metadata.name == 'foo'",
      "self.metadata.generateName == 'pickItForMe'",
    ],
    errors: {
      'has(self.metadata.namespace)': "undefined field 'namespace'",
    },
  })
  expressionsCase({
    name: 'typemeta and objectmeta access not specified',
    isRoot: true,
    obj: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
      spec: { field1: 'a' },
    },
    schema: objectTypePtr({
      spec: objectType({ field1: stringType }),
    }),
    valid: [
      "self.kind == 'Pod'",
      "self.apiVersion == 'v1'",
      "self.metadata.name == 'foo'",
      "self.metadata.generateName == 'pickItForMe'",
      "self.spec.field1 == 'a'",
    ],
    errors: {
      'has(self.metadata.namespace)': "undefined field 'namespace'",
    },
  })

  // Kubernetes special types
  expressionsCase({
    name: 'embedded object',
    obj: {
      embedded: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
        spec: { field1: 'a' },
      },
    },
    schema: objectTypePtr({
      embedded: { type: 'object', 'x-kubernetes-embedded-resource': true },
    }),
    valid: [
      // 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are always accessible
      // even if not specified in the schema.
      "self.embedded.kind == 'Pod'",
      "self.embedded.apiVersion == 'v1'",
      "self.embedded.metadata.name == 'foo'",
      "self.embedded.metadata.generateName == 'pickItForMe'",
    ],
    // only field declared in the schema can be field selected in CEL expressions
    errors: {
      'has(self.embedded.metadata.namespace)': "undefined field 'namespace'",
      'has(self.embedded.spec)': "undefined field 'spec'",
    },
  })
  expressionsCase({
    name: 'embedded object with properties',
    obj: {
      embedded: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
        spec: { field1: 'a' },
      },
    },
    schema: objectTypePtr({
      embedded: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        properties: {
          kind: stringType,
          apiVersion: stringType,
          metadata: objectType({ name: stringType, generateName: stringType }),
          spec: objectType({ field1: stringType }),
        },
      },
    }),
    valid: [
      // in this case 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are specified in the
      // schema, but they would be accessible even if they were not
      "self.embedded.kind == 'Pod'",
      "self.embedded.apiVersion == 'v1'",
      "self.embedded.metadata.name == 'foo'",
      "self.embedded.metadata.generateName == 'pickItForMe'",
      // the specified embedded fields are accessible
      "self.embedded.spec.field1 == 'a'",
    ],
    errors: {
      // only name and generateName are accessible on metadata
      'has(self.embedded.metadata.namespace)': "undefined field 'namespace'",
    },
  })
  expressionsCase({
    name: 'embedded object with usage of reserved keywords',
    obj: {
      embedded: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'reserved_keyword_namespace' },
        spec: { if: 'reserved_keyword_if' },
      },
    },
    schema: objectTypePtr({
      embedded: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        properties: {
          kind: stringType,
          apiVersion: stringType,
          metadata: objectType({ name: stringType, generateName: stringType, namespace: stringType }),
          spec: objectType({ if: stringType }),
        },
      },
    }),
    valid: [
      'has(self.embedded.metadata.namespace)',
      "self.embedded.metadata.namespace == 'reserved_keyword_namespace'",
      'has(self.embedded.spec.if)',
      "self.embedded.spec.if == 'reserved_keyword_if'",
    ],
  })
  expressionsCase({
    name: 'embedded object with preserve unknown',
    obj: {
      embedded: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' },
        spec: { field1: 'a' },
      },
    },
    schema: objectTypePtr({
      embedded: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        'x-kubernetes-embedded-resource': true,
      },
    }),
    valid: [
      // 'kind', 'apiVersion', 'metadata.name' and 'metadata.generateName' are always accessible
      // even if not specified in the schema, regardless of if x-kubernetes-preserve-unknown-fields is set.
      "self.embedded.kind == 'Pod'",
      "self.embedded.apiVersion == 'v1'",
      "self.embedded.metadata.name == 'foo'",
      "self.embedded.metadata.generateName == 'pickItForMe'",
      // the object exists
      'has(self.embedded)',
    ],
    // only field declared in the schema can be field selected in CEL expressions, regardless of if
    // x-kubernetes-preserve-unknown-fields is set.
    errors: {
      'has(self.embedded.spec)': "undefined field 'spec'",
    },
  })
  expressionsCase({
    name: 'string in intOrString',
    obj: { something: '25%' },
    schema: objectTypePtr({ something: intOrStringType() }),
    valid: [
      // In Kubernetes 1.24 and later, the CEL type returns false for an int-or-string comparison against the
      // other type, making it safe to write validation rules like:
      "self.something == '25%'",
      'self.something != 1',
      "self.something == 1 || self.something == '25%'",
      "self.something == '25%' || self.something == 1",
      // In Kubernetes 1.23 and earlier, all int-or-string access must be guarded by a type check to prevent
      // a runtime error attempting an equality check between string and int types.
      "type(self.something) == string && self.something == '25%'",
      "type(self.something) == int ? self.something == 1 : self.something == '25%'",
      // Because the type is dynamic it receives no type checking, and evaluates to false when compared to
      // other types at runtime.
      "self.something != ['anything']",
    ],
  })
  expressionsCase({
    name: 'int in intOrString',
    obj: { something: 1 },
    schema: objectTypePtr({ something: intOrStringType() }),
    valid: [
      // In Kubernetes 1.24 and later, the CEL type returns false for an int-or-string comparison against the
      // other type, making it safe to write validation rules like:
      'self.something == 1',
      "self.something != 'some string'",
      "self.something == 1 || self.something == '25%'",
      "self.something == '25%' || self.something == 1",
      // In Kubernetes 1.23 and earlier, all int-or-string access must be guarded by a type check to prevent
      // a runtime error attempting an equality check between string and int types.
      'type(self.something) == int && self.something == 1',
      "type(self.something) == int ? self.something == 1 : self.something == '25%'",
      // Because the type is dynamic it receives no type checking, and evaluates to false when compared to
      // other types at runtime.
      "self.something != ['anything']",
    ],
  })
  expressionsCase({
    name: 'null in intOrString',
    obj: { something: null },
    schema: objectTypePtr({ something: withNullable(true, intOrStringType()) }),
    valid: ['!has(self.something)'],
    errors: {
      'type(self.something) == int': 'no such key',
    },
  })
  expressionsCase({
    name: 'percent comparison using intOrString',
    obj: { min: '50%', current: 5, available: 10 },
    schema: objectTypePtr({ min: intOrStringType(), current: integerType, available: integerType }),
    valid: [
      // validate that if 'min' is a string that it is a percentage
      "type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')",
      // validate that 'min' can be either a exact value minimum, or a minimum as a percentage of 'available'
      "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
    ],
  })
  expressionsCase({
    name: 'preserve unknown fields',
    obj: {
      withUnknown: { field1: 'a', field2: 'b' },
      withUnknownList: [
        { field1: 'a', field2: 'b' },
        { field1: 'x', field2: 'y' },
        { field1: 'x', field2: 'y' },
        {},
        {},
      ],
      withUnknownFieldList: [{ fieldOfUnknownType: 'a' }, { fieldOfUnknownType: 1 }, { fieldOfUnknownType: 1 }],
      anyvalList: ['a', 2],
      anyvalMap: { k: '1' },
      anyvalField1: 1,
      anyvalField2: 'a',
    },
    schema: objectTypePtr({
      withUnknown: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      withUnknownList: listType({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      withUnknownFieldList: listType({
        type: 'object',
        properties: { fieldOfUnknownType: preserveUnknown },
      }),
      anyvalList: listType(preserveUnknown),
      anyvalMap: mapType(preserveUnknown),
      anyvalField1: preserveUnknown,
      anyvalField2: preserveUnknown,
    }),
    valid: [
      'has(self.withUnknown)',
      'self.withUnknownList.size() == 5',
      // fields that are unknown because they were not specified on the object schema are included in equality checks
      'self.withUnknownList[0] != self.withUnknownList[1]',
      'self.withUnknownList[1] == self.withUnknownList[2]',
      'self.withUnknownList[3] == self.withUnknownList[4]',
      // fields specified on the object schema that are unknown because the field's schema is unknown are also included equality checks
      'self.withUnknownFieldList[0] != self.withUnknownFieldList[1]',
      'self.withUnknownFieldList[1] == self.withUnknownFieldList[2]',
    ],
    errors: {
      // unknown fields cannot be field selected
      'has(self.withUnknown.field1)': "undefined field 'field1'",
      // if items type of a list, or additionalProperties type of a map, is unknown we treat entire list or map as unknown
      // If the type of a property is unknown it is not accessible in CEL
      'has(self.anyvalList)': "undefined field 'anyvalList'",
      'has(self.anyvalMap)': "undefined field 'anyvalMap'",
      'has(self.anyvalField1)': "undefined field 'anyvalField1'",
      'has(self.anyvalField2)': "undefined field 'anyvalField2'",
    },
  })
  expressionsCase({
    name: 'known and unknown fields',
    obj: {
      withUnknown: { known: 1, unknown: 'a' },
      withUnknownList: [
        { known: 1, unknown: 'a' },
        { known: 1, unknown: 'b' },
        { known: 1, unknown: 'b' },
        { known: 1 },
        { known: 1 },
        { known: 2 },
      ],
    },
    schema: {
      type: 'object',
      properties: {
        withUnknown: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: integerType },
        },
        withUnknownList: listType({
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: integerType },
        }),
      },
    },
    valid: [
      'self.withUnknown.known == 1',
      'self.withUnknownList[0] != self.withUnknownList[1]',
      // if the unknown fields are the same, they are equal
      'self.withUnknownList[1] == self.withUnknownList[2]',
      // if unknown fields are different, they are not equal
      'self.withUnknownList[0] != self.withUnknownList[1]',
      'self.withUnknownList[0] != self.withUnknownList[3]',
      'self.withUnknownList[0] != self.withUnknownList[5]',
      // if all fields are known, equality works as usual
      'self.withUnknownList[3] == self.withUnknownList[4]',
      'self.withUnknownList[4] != self.withUnknownList[5]',
    ],
    // only field declared in the schema can be field selected in CEL expressions
    errors: {
      'has(self.withUnknown.unknown)': "undefined field 'unknown'",
    },
  })
  expressionsCase({
    name: 'field nullability',
    obj: {
      setPlainStr: 'v1',
      setDefaultedStr: 'v2',
      setNullableStr: 'v3',
      setToNullNullableStr: null,

      // we don't run the defaulter in this test suite (depending on it would introduce a cycle)
      // so we fake it :(
      unsetDefaultedStr: 'default value',
    },
    schema: objectTypePtr({
      unsetPlainStr: stringType,
      unsetDefaultedStr: withDefault('default value', stringType),
      unsetNullableStr: withNullable(true, stringType),

      setPlainStr: stringType,
      setDefaultedStr: withDefault('default value', stringType),
      setNullableStr: withNullable(true, stringType),
      setToNullNullableStr: withNullable(true, stringType),
    }),
    valid: [
      '!has(self.unsetPlainStr)',
      "has(self.unsetDefaultedStr) && self.unsetDefaultedStr == 'default value'",
      '!has(self.unsetNullableStr)',
      "has(self.setPlainStr) && self.setPlainStr == 'v1'",
      "has(self.setDefaultedStr) && self.setDefaultedStr == 'v2'",
      "has(self.setNullableStr) && self.setNullableStr == 'v3'",
      // We treat null fields as absent fields, not as null valued fields.
      // Note that this is different than how we treat nullable list items or map values.
      'type(self.setNullableStr) != null_type',
      // a field that is set to null is treated the same as an absent field in validation rules
      '!has(self.setToNullNullableStr)',
    ],
    errors: {
      // the types used in validation rules don't integrate with CEL's Null type, so
      // all attempts to compare values with null are caught by the type checker at compilation time
      'self.unsetPlainStr == null': "no matching overload for '_==_' applied to '(string, null)",
      'self.unsetDefaultedStr != null': "no matching overload for '_!=_' applied to '(string, null)",
      'self.unsetNullableStr == null': "no matching overload for '_==_' applied to '(string, null)",
      'self.setPlainStr != null': "no matching overload for '_!=_' applied to '(string, null)",
      'self.setDefaultedStr != null': "no matching overload for '_!=_' applied to '(string, null)",
      'self.setNullableStr != null': "no matching overload for '_!=_' applied to '(string, null)",
    },
  })
  expressionsCase({
    name: 'null values in container types',
    obj: {
      m: { a: null, b: 'not-nil' },
      l: [null, 'not-nil'],
      s: [null, 'not-nil'],
    },
    schema: objectTypePtr({
      m: mapType(withNullablePtr(true, stringType)),
      l: listType(withNullablePtr(true, stringType)),
      s: listSetType(withNullablePtr(true, stringType)),
    }),
    valid: [
      'self.m.size() == 2',
      "'a' in self.m",
      "type(self.m['a']) == null_type", // null check using runtime type checking
      // "self.m['a'] == null",
      'self.l.size() == 2',
      'type(self.l[0]) == null_type',
      // "self.l[0] == null",
      'self.s.size() == 2',
      'type(self.s[0]) == null_type',
      // "self.s[0] == null",
    ],
    errors: {
      // TODO(jpbetz): Type checker does not support unions of (<type>, Null).
      // This will be available when "heterogeneous type" supported is added to cel-go.
      // In the meantime, the only other option would be to use dynamic types for nullable types, which
      // would disable type checking. We plan to wait for "heterogeneous type" support.
      //"self.m['a'] == null": "found no matching overload for '_==_' applied to '(string, null)",
      //"self.l[0] == null": "found no matching overload for '_==_' applied to '(string, null)",
      //"self.s[0] == null": "found no matching overload for '_==_' applied to '(string, null)",
    },
  })
  expressionsCase({
    name: 'escaping',
    obj: {
      // RESERVED symbols defined in the CEL lexer
      true: 1,
      false: 2,
      null: 3,
      in: 4,
      as: 5,
      break: 6,
      const: 7,
      continue: 8,
      else: 9,
      for: 10,
      function: 11,
      if: 12,
      import: 13,
      let: 14,
      loop: 15,
      package: 16,
      namespace: 17,
      return: 18,
      var: 19,
      void: 20,
      while: 21,
      // identifiers that are part of the CEL language
      int: 101,
      uint: 102,
      double: 103,
      bool: 104,
      string: 105,
      bytes: 106,
      list: 107,
      map: 108,
      null_type: 109,
      type: 110,
      // validation expression reserved identifiers
      self: 201,
      // identifiers of CEL builtin function and macro names
      getDate: 202,
      all: 203,
      size: '204',
      // identifiers that have _s
      _true: 301,
      // identifiers that have the characters we escape
      'dot.dot': 401,
      'dash-dash': 402,
      'slash/slash': 403,
      underscore_underscore: 404, // ok, this is not so weird, but it's one we'd like a test case for
      doubleunderscore__doubleunderscore: 405,
    },
    schema: objectTypePtr({
      true: integerType,
      false: integerType,
      null: integerType,
      in: integerType,
      as: integerType,
      break: integerType,
      const: integerType,
      continue: integerType,
      else: integerType,
      for: integerType,
      function: integerType,
      if: integerType,
      import: integerType,
      let: integerType,
      loop: integerType,
      package: integerType,
      namespace: integerType,
      return: integerType,
      var: integerType,
      void: integerType,
      while: integerType,

      int: integerType,
      uint: integerType,
      double: integerType,
      bool: integerType,
      string: integerType,
      bytes: integerType,
      list: integerType,
      map: integerType,
      null_type: integerType,
      type: integerType,

      self: integerType,

      getDate: integerType,
      all: integerType,
      size: stringType,

      _true: integerType,

      'dot.dot': integerType,
      'dash-dash': integerType,
      'slash/slash': integerType,
      underscore_underscore: integerType, // ok, this is not so weird, but it's one we'd like a test case for
      doubleunderscore__doubleunderscore: integerType,
    }),
    valid: [
      // CEL lexer RESERVED keywords must be escaped
      'self.__true__ == 1',
      'self.__false__ == 2',
      'self.__null__ == 3',
      'self.__in__ == 4',
      'self.__as__ == 5',
      'self.__break__ == 6',
      'self.__const__ == 7',
      'self.__continue__ == 8',
      'self.__else__ == 9',
      'self.__for__ == 10',
      'self.__function__ == 11',
      'self.__if__ == 12',
      'self.__import__ == 13',
      'self.__let__ == 14',
      'self.__loop__ == 15',
      'self.__package__ == 16',
      'self.__namespace__ == 17',
      'self.__return__ == 18',
      'self.__var__ == 19',
      'self.__void__ == 20',
      'self.__while__ == 21',
      'self.__true__ == 1',
      // CEL language identifiers do not need to be escaped, but would collide with builtin language identifier if bound as
      // root variable names, so are only field selectable as a field of 'self'.
      'self.int == 101',
      'self.uint == 102',
      'self.double == 103',
      'self.bool == 104',
      'self.string == 105',
      'self.bytes == 106',
      'self.list == 107',
      'self.map == 108',
      'self.null_type == 109',
      'self.type == 110',
      // if a property name is 'self', it can be field selected as 'self.self' (but not as just 'self' because we bind that
      // variable name to the locally scoped expression value.
      'self.self == 201',
      // CEL macro and function names do not need to be escaped because the parser can disambiguate them from the function and
      // macro identifiers.
      'self.getDate == 202',
      'self.all == 203',
      "self.size == '204'",
      // _ is not escaped
      'self._true == 301',
      'self.__true__ != 301',
      'self.dot__dot__dot == 401',
      'self.dash__dash__dash == 402',
      'self.slash__slash__slash == 403',
      'self.underscore_underscore == 404',
      'self.doubleunderscore__underscores__doubleunderscore == 405',
    ],
    errors: {
      // 'true' is a boolean literal, not a field name
      'self.true == 1': "mismatched input 'true' expecting IDENTIFIER",
      // 'self' is the locally scoped expression value
      'self == 201': "found no matching overload for '_==_'",
      // attempts to use identifiers that are not escapable are caught by the compiler since
      // we don't register declarations for them
      'self.__illegal__ == 301': "undefined field '__illegal__'",
    },
  })
  expressionsCase({
    name: 'map keys are not escaped',
    obj: { m: { '@': 1, '9': 2, int: 3, './-': 4, '👑': 5 } },
    schema: objectTypePtr({ m: mapType(integerType) }),
    valid: ["self.m['@'] == 1", "self.m['9'] == 2", "self.m['int'] == 3", "self.m['./-'] == 4", "self.m['👑'] == 5"],
  })
  expressionsCase({
    name: 'object types are not accessible',
    obj: {
      nestedInMap: { k1: { inMapField: 1 }, k2: { inMapField: 2 } },
      nestedInList: [{ inListField: 1 }, { inListField: 2 }],
    },
    schema: objectTypePtr({
      nestedInMap: mapType(objectTypePtr({ inMapField: integerType })),
      nestedInList: listType(objectTypePtr({ inListField: integerType })),
    }),
    valid: [
      // we do not expose a stable type for the self variable, even when it is an object that CEL
      // considers a named type. The only operation developers should be able to perform on the type is
      // equality checking.
      'type(self) == type(self)',
      "type(self.nestedInMap['k1']) == type(self.nestedInMap['k2'])",
      'type(self.nestedInList[0]) == type(self.nestedInList[1])',
    ],
    errors: {
      // Note that errors, like the below, do print the type name, but it changes each time a CRD is updated.
      // Type name printed in the below error will be of the form "<uuid>.nestedInList.@idx".
      // Developers may not cast the type of variables as a string:
      "string(type(self.nestedInList[0])).endsWith('.nestedInList.@idx')":
        "found no matching overload for 'string' applied to '(type",
    },
  })
  expressionsCase({
    name: 'listMaps with unsupported identity characters in property names',
    obj: {
      objs: [
        [
          { 'k!': 'a', 'k.': '1' },
          { 'k!': 'b', 'k.': '2' },
        ],
        [
          { 'k!': 'b', 'k.': '2' },
          { 'k!': 'a', 'k.': '1' },
        ],
        [
          { 'k!': 'b', 'k.': '2' },
          { 'k!': 'c', 'k.': '1' },
        ],
        [
          { 'k!': 'b', 'k.': '2' },
          { 'k!': 'a', 'k.': '3' },
        ],
      ],
    },
    schema: objectTypePtr({
      objs: listType(listMapTypePtr(['k!', 'k.'], objectTypePtr({ 'k!': stringType, 'k.': stringType }))),
    }),
    valid: [
      'self.objs[0] == self.objs[1]', // equal even though order is different
      "self.objs[0][0].k__dot__ == '1'", // '.' is a supported character in identifiers, but it is escaped
      'self.objs[0] != self.objs[2]', // not equal even though difference is in unsupported char
      'self.objs[0] != self.objs[3]', // not equal even though difference is in escaped char
    ],
    errors: {
      // '!' is not a supported character in identifiers, there is no way to access the field
      "self.objs[0][0].k! == '1'": "Syntax error: mismatched input '!' expecting",
    },
  })
  expressionsCase({
    name: 'invalid data',
    obj: {
      o: [],
      m: [],
      l: {},
      s: {},
      lm: {},
      intorstring: true,
      nullable: [null],
    },
    schema: objectTypePtr({
      o: objectType({ field: stringType }),
      m: mapType(stringType),
      l: listType(stringType),
      s: listSetType(stringType),
      lm: listMapType(['k'], objectTypePtr({ k: stringType, v: stringType })),
      intorstring: intOrStringType(),
      nullable: listType(stringType),
    }),
    errors: {
      // data is validated before CEL evaluation, so these errors should not be surfaced to end users
      'has(self.o)': 'invalid data, expected a map for the provided schema with type=object',
      'has(self.m)': 'invalid data, expected a map for the provided schema with type=object',
      'has(self.l)': 'invalid data, expected an array for the provided schema with type=array',
      'has(self.s)': 'invalid data, expected an array for the provided schema with type=array',
      'has(self.lm)': 'invalid data, expected an array for the provided schema with type=array',
      'has(self.intorstring)': 'invalid data, expected XIntOrString value to be either a string or integer',
      "self.nullable[0] == 'x'": 'invalid data, got null for schema with nullable=false',
      // TODO: also find a way to test the errors returned for: array with no items, object with no properties or additionalProperties, invalid listType and invalid type.
    },
  })
})
