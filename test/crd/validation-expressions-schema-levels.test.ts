import { describe } from 'vitest'
import {
  cloneWithRule,
  integerType,
  listType,
  mapType,
  objectType,
  objectTypePtr,
  type Schema,
  schemaLevelsCase,
  stringType,
  withRule,
  withRulePtr,
} from './helpers/schemas.js'

// apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go
// TestValidationExpressionsAtSchemaLevels: rules at any level of the schema (items,
// additionalProperties, escaped and unescapable property names, allOf), validated from the
// resource root with an unlimited budget. `release132Errors`: the same case's expectations in the test
// at release-1.32, run again as a 1.32 apiserver.

function genMatchSelectorSchema(rule: string): Schema {
  return withRule(
    objectType({
      matchExpressions: listType(
        objectTypePtr({
          key: stringType,
          operator: stringType,
          values: listType(stringType),
        }),
      ),
    }),
    rule,
  )
}

const noOverload = "found no matching overload for '_==_' applied to '(int, string)"

describe('apiextensions validation_test.go TestValidationExpressionsAtSchemaLevels', () => {
  schemaLevelsCase({
    name: 'invalid rule under array items',
    obj: { f: [1] },
    schema: objectTypePtr({
      f: listType(cloneWithRule(integerType, "self == 'abc'")),
    }),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'invalid rule under array items, parent has rule',
    obj: { f: [1] },
    schema: objectTypePtr({
      f: withRule(listType(cloneWithRule(integerType, "self == 'abc'")), '1 == 1'),
    }),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'invalid rule under additionalProperties',
    obj: { f: { k: 1 } },
    schema: objectTypePtr({
      f: mapType(cloneWithRule(integerType, "self == 'abc'")),
    }),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'invalid rule under additionalProperties, parent has rule',
    obj: { f: { k: 1 } },
    schema: objectTypePtr({
      f: withRule(mapType(cloneWithRule(integerType, "self == 'abc'")), '1 == 1'),
    }),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'invalid rule under unescaped field name',
    obj: { f: { m: 1 } },
    schema: objectTypePtr({
      f: withRule(objectType({ m: integerType }), "self.m == 'abc'"),
    }),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'invalid rule under unescaped field name, parent has rule',
    obj: { f: { m: 1 } },
    schema: withRulePtr(
      objectTypePtr({
        f: withRule(objectType({ m: integerType }), "self.m == 'abc'"),
      }),
      '1 == 1',
    ),
    errors: [noOverload],
  })
  // check that escaped field names do not impact CEL rule validation
  schemaLevelsCase({
    name: 'invalid rule under escaped field name',
    obj: { 'f/2': { m: 1 } },
    schema: objectTypePtr({
      'f/2': withRule(objectType({ m: integerType }), "self.m == 'abc'"),
    }),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'invalid rule under escaped field name, parent has rule',
    obj: { 'f/2': { m: 1 } },
    schema: withRulePtr(
      objectTypePtr({
        'f/2': withRule(objectType({ m: integerType }), "self.m == 'abc'"),
      }),
      '1 == 1',
    ),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'failing rule under escaped field name',
    obj: { 'f/2': { m: 1 } },
    schema: objectTypePtr({
      'f/2': withRule(objectType({ m: integerType }), 'self.m == 2'),
    }),
    errors: ['Invalid value: failed rule: self.m == 2'],
    release132Errors: ['Invalid value: "object": failed rule: self.m == 2'],
  })
  // unescapable field names that are not accessed by the CEL rule are allowed and should not impact CEL rule validation
  schemaLevelsCase({
    name: 'invalid rule under unescapable field name',
    obj: { 'a@b': { m: 1 } },
    schema: objectTypePtr({
      'a@b': withRule(objectType({ m: integerType }), "self.m == 'abc'"),
    }),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'invalid rule under unescapable field name, parent has rule',
    obj: { 'f@2': { m: 1 } },
    schema: withRulePtr(
      objectTypePtr({
        'f@2': withRule(objectType({ m: integerType }), "self.m == 'abc'"),
      }),
      '1 == 1',
    ),
    errors: [noOverload],
  })
  schemaLevelsCase({
    name: 'failing rule under unescapable field name',
    obj: { 'a@b': { m: 1 } },
    schema: objectTypePtr({
      'a@b': withRule(objectType({ m: integerType }), 'self.m == 2'),
    }),
    errors: ['Invalid value: failed rule: self.m == 2'],
    release132Errors: ['Invalid value: "object": failed rule: self.m == 2'],
  })
  schemaLevelsCase({
    name: "matchExpressions - 'values' must be specified when 'operator' is 'In' or 'NotIn'",
    obj: { matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] },
    schema: genMatchSelectorSchema(
      `self.matchExpressions.all(rule, (rule.operator != "In" && rule.operator != "NotIn") || ((has(rule.values) && size(rule.values) > 0)))`,
    ),
    errors: ['failed rule'],
  })
  schemaLevelsCase({
    name: "matchExpressions - 'values' may not be specified when 'operator' is 'Exists' or 'DoesNotExist'",
    obj: { matchExpressions: [{ key: 'tier', operator: 'Exists', values: ['somevalue'] }] },
    schema: genMatchSelectorSchema(
      `self.matchExpressions.all(rule, (rule.operator != "Exists" && rule.operator != "DoesNotExist") || ((!has(rule.values) || size(rule.values) == 0)))`,
    ),
    errors: ['failed rule'],
  })
  schemaLevelsCase({
    name: 'matchExpressions - invalid selector operator',
    obj: { matchExpressions: [{ key: 'tier', operator: 'badop', values: [] }] },
    schema: genMatchSelectorSchema(
      `self.matchExpressions.all(rule, rule.operator == "In" || rule.operator == "NotIn" || rule.operator == "DoesNotExist")`,
    ),
    errors: ['failed rule'],
  })
  schemaLevelsCase({
    name: 'matchExpressions - invalid label value',
    obj: { matchExpressions: [{ key: 'badkey!', operator: 'Exists', values: [] }] },
    schema: genMatchSelectorSchema(
      `self.matchExpressions.all(rule, size(rule.key) <= 63 && rule.key.matches("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"))`,
    ),
    errors: ['failed rule'],
  })
  schemaLevelsCase({
    name: 'allOf rule',
    errors: [`key must be 'value' and key2 must be 'value2'`, `key must not be equal to key2`],
    obj: { key: 'value', key2: 'value' },
    schema: {
      type: 'object',
      properties: { key: stringType, key2: stringType },
      allOf: [
        {
          'x-kubernetes-validations': [
            {
              rule: "self.key == 'value' && self.key2 == 'value2'",
              message: "key must be 'value' and key2 must be 'value2'",
            },
          ],
        },
        {
          'x-kubernetes-validations': [{ rule: 'self.key != self.key2', message: 'key must not be equal to key2' }],
        },
      ],
    },
  })
  // anyOf is not suppored due to the fact that to properly implement it
  // the SchemaValidator would need to call out to CEL. This test
  // shows that a rule that would otherwise be an error has those
  // fields ignored (CRD validation shoulds will throw error in this case)
  schemaLevelsCase({
    name: 'anyOf rule ignored',
    obj: { key: 'value', key2: 'value' },
    schema: {
      type: 'object',
      properties: { key: stringType, key2: stringType },
      'x-kubernetes-validations': [{ rule: 'true' }],
      anyOf: [
        {
          'x-kubernetes-validations': [
            {
              rule: "self.key == 'value' && self.key2 == 'value2'",
              message: "key must be 'value' and key2 must be 'value2'",
            },
          ],
        },
        {
          'x-kubernetes-validations': [{ rule: 'self.key != self.key2', message: 'key must not be equal to key2' }],
        },
      ],
    },
  })
  // OneOf is not suppored due to the fact that to properly implement it
  // the SchemaValidator would need to call out to CEL. This test
  // shows that a rule that would otherwise be an error has those
  // fields ignored (CRD validation shoulds will throw error in this case)
  schemaLevelsCase({
    name: 'oneOf rule ignored',
    obj: { key: 'value', key2: 'value' },
    schema: {
      type: 'object',
      properties: { key: stringType, key2: stringType },
      'x-kubernetes-validations': [{ rule: 'true' }],
      oneOf: [
        {
          'x-kubernetes-validations': [
            {
              rule: "self.key == 'value' && self.key2 == 'value2'",
              message: "key must be 'value' and key2 must be 'value2'",
            },
          ],
        },
        {
          'x-kubernetes-validations': [{ rule: 'self.key != self.key2', message: 'key must not be equal to key2' }],
        },
      ],
    },
  })
  // Not is not suppored due to the fact that to properly implement it
  // the SchemaValidator would need to call out to CEL. This test
  // shows that a rule that would otherwise be an error has those
  // fields ignored (CRD validation shoulds will throw error in this case)
  schemaLevelsCase({
    name: 'not rule ignored',
    obj: { key: 'value', key2: 'value' },
    schema: {
      type: 'object',
      properties: { key: stringType, key2: stringType },
      'x-kubernetes-validations': [{ rule: 'true' }],
      not: {
        'x-kubernetes-validations': [
          {
            rule: "self.key == 'value' && self.key2 == 'value2'",
            message: "key must be 'value' and key2 must be 'value2'",
          },
        ],
      },
    },
  })
  schemaLevelsCase({
    name: 'allOf.items',
    obj: { myList: ['value', 'value2'] },
    errors: [`must be value2 or not value`, `len must be 5`],
    schema: {
      type: 'object',
      properties: {
        myList: {
          type: 'array',
          items: stringType,
          allOf: [
            {
              items: {
                'x-kubernetes-validations': [{ rule: 'self.size() == 5', message: 'len must be 5' }],
              },
            },
            {
              items: {
                'x-kubernetes-validations': [
                  { rule: `self == "value2" || self != "value"`, message: 'must be value2 or not value' },
                ],
              },
            },
          ],
        },
      },
    },
  })
  schemaLevelsCase({
    name: 'allOf.additionalProperties',
    obj: { myProperty: { key: 'value', key2: 'value2' } },
    errors: [
      `root.myProperty[key]: Invalid value: "value": must be value2 or not value`,
      `root.myProperty[key2]: Invalid value: "value2": len must be 5`,
    ],
    release132Errors: [
      `root.myProperty[key]: Invalid value: "string": must be value2 or not value`,
      `root.myProperty[key2]: Invalid value: "string": len must be 5`,
    ],
    schema: {
      type: 'object',
      // need to put all tests in Properties due to WithTypeAndObjectMeta
      // enforcing structs for all top level schemas
      properties: {
        myProperty: {
          type: 'object',
          additionalProperties: stringType,
          allOf: [
            {
              additionalProperties: {
                'x-kubernetes-validations': [
                  { rule: `self == "value2" || self != "value"`, message: 'must be value2 or not value' },
                  { rule: 'self.size() == 5', message: 'len must be 5' },
                ],
              },
            },
          ],
        },
      },
    },
  })
  schemaLevelsCase({
    name: 'allOf.properties',
    obj: { key: 'value', key2: 'value2' },
    errors: [
      `root.key: Invalid value: "value": must be value2 or not value`,
      `root.key2: Invalid value: "value2": len must be 5`,
    ],
    release132Errors: [
      `root.key: Invalid value: "string": must be value2 or not value`,
      `root.key2: Invalid value: "string": len must be 5`,
    ],
    schema: {
      type: 'object',
      properties: { key: stringType, key2: stringType },
      allOf: [
        {
          properties: {
            key: {
              'x-kubernetes-validations': [
                { rule: `self == "value2" || self != "value"`, message: 'must be value2 or not value' },
              ],
            },
            key2: {
              'x-kubernetes-validations': [{ rule: 'self.size() == 5', message: 'len must be 5' }],
            },
          },
        },
      ],
    },
  })
  schemaLevelsCase({
    name: 'allOf.items.allOf',
    obj: { myList: ['value', 'value2'] },
    errors: [`must be value2 or not value`, `len must be 5`],
    schema: {
      type: 'object',
      properties: {
        myList: {
          type: 'array',
          items: stringType,
          allOf: [
            {
              items: {
                allOf: [
                  {
                    'x-kubernetes-validations': [{ rule: 'self.size() == 5', message: 'len must be 5' }],
                  },
                ],
              },
            },
            {
              items: {
                allOf: [
                  {
                    'x-kubernetes-validations': [
                      { rule: `self == "value2" || self != "value"`, message: 'must be value2 or not value' },
                    ],
                  },
                ],
              },
            },
          ],
        },
      },
    },
  })
  schemaLevelsCase({
    name: 'properties.allOf.additionalProperties.allOf.properties',
    obj: { myProperty: { randomKey: { key: 'value', key2: 'value2' } } },
    errors: [`must be value2 or not value`, `len must be 5`],
    schema: {
      type: 'object',
      properties: {
        myProperty: {
          type: 'object',
          additionalProperties: objectTypePtr({ key: stringType, key2: stringType }),
        },
      },
      allOf: [
        {
          properties: {
            myProperty: {
              additionalProperties: {
                allOf: [
                  {
                    properties: {
                      key: {
                        'x-kubernetes-validations': [
                          { rule: `self == "value2" || self != "value"`, message: 'must be value2 or not value' },
                        ],
                      },
                      key2: {
                        'x-kubernetes-validations': [{ rule: 'self.size() == 5', message: 'len must be 5' }],
                      },
                    },
                  },
                ],
              },
            },
          },
        },
      ],
    },
  })
})
