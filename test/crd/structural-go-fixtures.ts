// Test tables transcribed mechanically from the Go tests of apiextensions-apiserver pkg/apiserver/schema
// (pruning/algorithm_test.go TestPrune, defaulting/algorithm_test.go TestDefault, defaulting/prunenulls_test.go
// TestPruneNonNullableNullsWithoutDefaults, listtype/validation_test.go TestValidateListSetsAndMaps,
// objectmeta/algorithm_test.go TestCoerce): Go struct literals of structural schemas written as the
// equivalent v1 JSONSchemaProps, JSON inputs and expectations kept verbatim.
export const PRUNE = [
  {
    name: 'empty',
    json: 'null',
    expectedObject: 'null',
  },
  {
    name: 'scalar',
    json: '4',
    schema: {},
    expectedObject: '4',
  },
  {
    name: 'scalar array',
    json: '[1,2]',
    schema: {
      items: {},
    },
    expectedObject: '[1,2]',
  },
  {
    name: 'object array',
    json: '[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]',
    schema: {
      items: {
        properties: {
          a: {},
          c: {},
        },
      },
    },
    expectedObject: '[{"a":1},{},{"a":1,"c":3}]',
    expectedPruned: ['[1].b', '[2].b'],
  },
  {
    name: 'object array with nil schema',
    json: '[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]',
    expectedObject: '[{},{},{}]',
    expectedPruned: ['[0].a', '[1].b', '[2].a', '[2].b', '[2].c'],
  },
  {
    name: 'object array object',
    json: '{"array":[{"a":1},{"b":1},{"a":1,"b":2,"c":3}],"unspecified":{"a":1},"specified":{"a":1,"b":2,"c":3}}',
    schema: {
      properties: {
        array: {
          items: {
            properties: {
              a: {},
              c: {},
            },
          },
        },
        specified: {
          properties: {
            a: {},
            c: {},
          },
        },
      },
    },
    expectedObject: '{"array":[{"a":1},{},{"a":1,"c":3}],"specified":{"a":1,"c":3}}',
    expectedPruned: ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'],
  },
  {
    name: 'nested x-kubernetes-preserve-unknown-fields',
    json: '\n{\n  "unspecified":"bar",\n  "alpha": "abc",\n  "beta": 42.0,\n  "unspecifiedObject": {"unspecified": "bar"},\n  "pruning": {\n     "unspecified": "bar",\n     "unspecifiedObject": {"unspecified": "bar"},\n     "pruning": {"unspecified": "bar"},\n     "apiVersion": "unknown",\n     "preserving": {"unspecified": "bar"}\n  },\n  "preserving": {\n     "unspecified": "bar",\n     "unspecifiedObject": {"unspecified": "bar"},\n     "pruning": {"unspecified": "bar"},\n     "preserving": {"unspecified": "bar"},\n     "preservingUnknownType": [{"foo":true},{"bar":true}]\n  },\n  "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {\n     "foo": {\n        "specified": {"unspecified":"bar"},\n        "unspecified": "bar"\n     }\n  },\n  "preservingAdditionalPropertiesKeyPruneValues": {\n     "foo": {\n        "specified": {"unspecified":"bar"},\n        "unspecified": "bar"\n     }\n  }\n}\n',
    schema: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        alpha: {
          type: 'string',
        },
        beta: {
          type: 'number',
        },
        pruning: {
          type: 'object',
          properties: {
            preserving: {
              type: 'object',
              'x-kubernetes-preserve-unknown-fields': true,
            },
            pruning: {
              type: 'object',
            },
          },
        },
        preserving: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: {
            preserving: {
              type: 'object',
              'x-kubernetes-preserve-unknown-fields': true,
            },
            preservingUnknownType: {
              'x-kubernetes-preserve-unknown-fields': true,
            },
            pruning: {
              type: 'object',
            },
          },
        },
        preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: {
          'x-kubernetes-preserve-unknown-fields': true,
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: {
              specified: {
                type: 'object',
              },
            },
          },
        },
        preservingAdditionalPropertiesKeyPruneValues: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: {
              specified: {
                type: 'object',
              },
            },
          },
        },
      },
    },
    expectedObject:
      '\n{\n  "unspecified":"bar",\n  "alpha": "abc",\n  "beta": 42.0,\n  "unspecifiedObject": {"unspecified": "bar"},\n  "pruning": {\n     "pruning": {},\n     "preserving": {"unspecified": "bar"}\n  },\n  "preserving": {\n     "unspecified": "bar",\n     "unspecifiedObject": {"unspecified": "bar"},\n     "pruning": {},\n     "preserving": {"unspecified": "bar"},\n     "preservingUnknownType": [{"foo":true},{"bar":true}]\n  },\n  "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {\n     "foo": {\n        "specified": {}\n     }\n  },\n  "preservingAdditionalPropertiesKeyPruneValues": {\n     "foo": {\n        "specified": {}\n     }\n  }\n}\n',
    expectedPruned: [
      'preserving.pruning.unspecified',
      'preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified',
      'preservingAdditionalPropertiesKeyPruneValues.foo.unspecified',
      'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified',
      'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified',
      'pruning.apiVersion',
      'pruning.pruning.unspecified',
      'pruning.unspecified',
      'pruning.unspecifiedObject',
    ],
  },
  {
    name: 'additionalProperties with schema',
    json: '{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1}}}',
    schema: {
      properties: {
        a: {},
        c: {
          additionalProperties: {
            type: 'integer',
          },
        },
      },
    },
    expectedObject: '{"a":1,"c":{"a":1,"b":2,"c":{}}}',
    expectedPruned: ['b', 'c.c.a'],
  },
  {
    name: 'additionalProperties with bool',
    json: '{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1, "apiVersion": "unknown"}}}',
    schema: {
      properties: {
        a: {},
        c: {
          additionalProperties: false,
        },
      },
    },
    expectedObject: '{"a":1,"c":{"a":1,"b":2,"c":{}}}',
    expectedPruned: ['b', 'c.c.a', 'c.c.apiVersion'],
  },
  {
    name: 'x-kubernetes-embedded-resource',
    json: '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance",\n    "unspecified": "bar"\n  },\n  "unspecified":"bar",\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "preserving": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "nested": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar",\n      "embedded": {\n        "apiVersion": "foo/v1",\n        "kind": "Foo",\n        "unspecified": "bar",\n        "metadata": {\n          "name": "instance",\n          "unspecified": "bar"\n        },\n        "spec": {\n          "unspecified": "bar"\n        }\n      }\n    }\n  }\n}\n',
    schema: {
      type: 'object',
      properties: {
        pruned: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: {
              type: 'object',
            },
          },
        },
        preserving: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        nested: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: {
              type: 'object',
              properties: {
                embedded: {
                  type: 'object',
                  'x-kubernetes-embedded-resource': true,
                  properties: {
                    spec: {
                      type: 'object',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    expectedObject:
      '\n{\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n    }\n  },\n  "preserving": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "nested": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "embedded": {\n        "apiVersion": "foo/v1",\n        "kind": "Foo",\n        "metadata": {\n          "name": "instance",\n          "unspecified": "bar"\n        },\n        "spec": {\n        }\n      }\n    }\n  }\n}\n',
    expectedPruned: [
      'nested.spec.embedded.spec.unspecified',
      'nested.spec.embedded.unspecified',
      'nested.spec.unspecified',
      'nested.unspecified',
      'pruned.spec.unspecified',
      'pruned.unspecified',
      'unspecified',
    ],
  },
  {
    name: 'x-kubernetes-embedded-resource, with root=true',
    json: '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance",\n    "namespace": "myns",\n    "labels":{"foo":"bar"},\n    "unspecified": "bar"\n  },\n  "unspecified":"bar",\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "namespace": "myns",\n      "labels":{"foo":"bar"},\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "preserving": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "namespace": "myns",\n      "labels":{"foo":"bar"},\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "nested": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "namespace": "myns",\n      "labels":{"foo":"bar"},\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar",\n      "embedded": {\n        "apiVersion": "foo/v1",\n        "kind": "Foo",\n        "unspecified": "bar",\n        "metadata": {\n          "name": "instance",\n          "namespace": "myns",\n          "labels":{"foo":"bar"},\n          "unspecified": "bar"\n        },\n        "spec": {\n          "unspecified": "bar"\n        }\n      }\n    }\n  }\n}\n',
    isResourceRoot: true,
    schema: {
      type: 'object',
      properties: {
        metadata: {
          type: 'object',
        },
        pruned: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            metadata: {
              type: 'object',
            },
            spec: {
              type: 'object',
            },
          },
        },
        preserving: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        nested: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: {
              type: 'object',
              properties: {
                embedded: {
                  type: 'object',
                  'x-kubernetes-embedded-resource': true,
                  properties: {
                    metadata: {
                      type: 'object',
                    },
                    spec: {
                      type: 'object',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    expectedObject:
      '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance",\n    "namespace": "myns",\n    "labels": {"foo": "bar"},\n    "unspecified": "bar"\n  },\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "metadata": {\n      "name": "instance",\n      "namespace": "myns",\n      "labels": {"foo": "bar"},\n      "unspecified": "bar"\n    },\n    "spec": {\n    }\n  },\n  "preserving": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "namespace": "myns",\n      "labels": {"foo": "bar"},\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "nested": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "metadata": {\n      "name": "instance",\n      "namespace": "myns",\n      "labels": {"foo": "bar"},\n      "unspecified": "bar"\n    },\n    "spec": {\n      "embedded": {\n        "apiVersion": "foo/v1",\n        "kind": "Foo",\n        "metadata": {\n          "name": "instance",\n          "namespace": "myns",\n          "labels": {"foo": "bar"},\n          "unspecified": "bar"\n        },\n        "spec": {\n        }\n      }\n    }\n  }\n}\n',
    expectedPruned: [
      'nested.spec.embedded.spec.unspecified',
      'nested.spec.embedded.unspecified',
      'nested.spec.unspecified',
      'nested.unspecified',
      'pruned.spec.unspecified',
      'pruned.unspecified',
      'unspecified',
    ],
  },
] as const
export const DEFAULT = [
  {
    name: 'empty',
    json: 'null',
    schema: null,
    expected: 'null',
  },
  {
    name: 'scalar',
    json: '4',
    schema: {
      default: 'foo',
    },
    expected: '4',
  },
  {
    name: 'scalar array',
    json: '[1,2]',
    schema: {
      items: {
        default: 'foo',
      },
    },
    expected: '[1,2]',
  },
  {
    name: 'object array',
    json: '[{"a":1},{"b":1},{"c":1}]',
    schema: {
      items: {
        properties: {
          a: {
            default: 'A',
          },
          b: {
            default: 'B',
          },
          c: {
            default: 'C',
          },
        },
      },
    },
    expected: '[{"a":1,"b":"B","c":"C"},{"a":"A","b":1,"c":"C"},{"a":"A","b":"B","c":1}]',
  },
  {
    name: 'object array object',
    json: '{"array":[{"a":1},{"b":2}],"object":{"a":1},"additionalProperties":{"x":{"a":1},"y":{"b":2}}}',
    schema: {
      properties: {
        array: {
          items: {
            properties: {
              a: {
                default: 'A',
              },
              b: {
                default: 'B',
              },
            },
          },
        },
        object: {
          properties: {
            a: {
              default: 'N',
            },
            b: {
              default: 'O',
            },
          },
        },
        additionalProperties: {
          additionalProperties: {
            properties: {
              a: {
                default: 'alpha',
              },
              b: {
                default: 'beta',
              },
            },
          },
        },
        foo: {
          default: 'bar',
        },
      },
    },
    expected:
      '{"array":[{"a":1,"b":"B"},{"a":"A","b":2}],"object":{"a":1,"b":"O"},"additionalProperties":{"x":{"a":1,"b":"beta"},"y":{"a":"alpha","b":2}},"foo":"bar"}',
  },
  {
    name: 'empty and null',
    json: '[{},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":null},{"a":[]},{"a":{}}]',
    schema: {
      items: {
        properties: {
          a: {
            default: 'A',
          },
        },
      },
    },
    expected: '[{"a":"A"},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":"A"},{"a":[]},{"a":{}}]',
  },
  {
    name: 'null in nullable list',
    json: '[null]',
    schema: {
      nullable: true,
      items: {
        properties: {
          a: {
            default: 'A',
          },
        },
      },
    },
    expected: '[null]',
  },
  {
    name: 'null in non-nullable list',
    json: '[null]',
    schema: {
      items: {
        default: 'A',
      },
    },
    expected: '["A"]',
  },
  {
    name: 'null in nullable object',
    json: '{"a": null}',
    schema: {
      properties: {
        a: {
          nullable: true,
          default: 'A',
        },
      },
    },
    expected: '{"a": null}',
  },
  {
    name: 'null in non-nullable object',
    json: '{"a": null}',
    schema: {
      properties: {
        a: {
          default: 'A',
        },
      },
    },
    expected: '{"a": "A"}',
  },
  {
    name: 'null in nullable object with additionalProperties',
    json: '{"a": null}',
    schema: {
      additionalProperties: {
        nullable: true,
        default: 'A',
      },
    },
    expected: '{"a": null}',
  },
  {
    name: 'null in non-nullable object with additionalProperties',
    json: '{"a": null}',
    schema: {
      additionalProperties: {
        default: 'A',
      },
    },
    expected: '{"a": "A"}',
  },
  {
    name: 'null unknown field',
    json: '{"a": null}',
    schema: {
      additionalProperties: true,
    },
    expected: '{"a": null}',
  },
] as const
export const PRUNE_NULLS = [
  {
    name: 'empty',
    json: 'null',
    schema: null,
    expected: 'null',
  },
  {
    name: 'scalar',
    json: '4',
    schema: {
      default: 'foo',
    },
    expected: '4',
  },
  {
    name: 'scalar array',
    json: '[1,null]',
    schema: null,
    expected: '[1,null]',
  },
  {
    name: 'object array',
    json: '[{"a":null},{"b":null},{"c":null},{"d":null},{"e":null}]',
    schema: {
      items: {
        properties: {
          a: {
            default: 'A',
          },
          b: {
            nullable: true,
          },
          c: {
            default: 'C',
            nullable: true,
          },
          d: {},
        },
      },
    },
    expected: '[{"a":null},{"b":null},{"c":null},{},{"e":null}]',
  },
] as const
export const LISTTYPE = [
  {
    name: 'nil',
  },
  {
    name: 'no schema',
    obj: {},
  },
  {
    name: 'no object',
    schema: {},
  },
  {
    name: 'list without schema',
    obj: {
      array: ['a', 'b', 'a'],
    },
  },
  {
    name: 'list without items',
    obj: {
      array: ['a', 'b', 'a'],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          type: 'array',
        },
      },
    },
  },
  {
    name: 'set list with one item',
    obj: {
      array: ['a'],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          'x-kubernetes-list-type': 'set',
          type: 'array',
        },
      },
    },
  },
  {
    name: 'set list with two equal items',
    obj: {
      array: ['a', 'a'],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          'x-kubernetes-list-type': 'set',
          type: 'array',
        },
      },
    },
    errors: [
      {
        type: 'duplicate',
        path: 'root.array[1]',
      },
    ],
  },
  {
    name: 'set list with two different items',
    obj: {
      array: ['a', 'b'],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          'x-kubernetes-list-type': 'set',
          type: 'array',
        },
      },
    },
  },
  {
    name: 'set list with multiple duplicated items',
    obj: {
      array: ['a', 'a', 'b', 'c', 'd', 'c'],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          'x-kubernetes-list-type': 'set',
          type: 'array',
        },
      },
    },
    errors: [
      {
        type: 'duplicate',
        path: 'root.array[1]',
      },
      {
        type: 'duplicate',
        path: 'root.array[5]',
      },
    ],
  },
  {
    name: 'normal list with items',
    obj: {
      array: ['a', 'b', 'a'],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
      },
    },
  },
  {
    name: 'set list with items',
    obj: {
      array: ['a', 'b', 'a'],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: {
            type: 'string',
          },
        },
      },
    },
    errors: [
      {
        type: 'duplicate',
        path: 'root.array[2]',
      },
    ],
  },
  {
    name: 'set list with items under additionalProperties',
    obj: {
      array: ['a', 'b', 'a'],
    },
    schema: {
      type: 'object',
      additionalProperties: {
        type: 'array',
        'x-kubernetes-list-type': 'set',
        items: {
          type: 'string',
        },
      },
    },
    errors: [
      {
        type: 'duplicate',
        path: 'root[array][2]',
      },
    ],
  },
  {
    name: 'set list with items under items',
    obj: {
      array: [
        ['a', 'b', 'a'],
        ['b', 'b', 'a'],
      ],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          type: 'array',
          items: {
            type: 'array',
            'x-kubernetes-list-type': 'set',
            items: {
              type: 'string',
            },
          },
        },
      },
    },
    errors: [
      {
        type: 'duplicate',
        path: 'root.array[0][2]',
      },
      {
        type: 'duplicate',
        path: 'root.array[1][1]',
      },
    ],
  },
  {
    name: 'nested set lists',
    obj: {
      array: ['a', 'b', 'a', ['b', 'b', 'a']],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: {
            type: 'array',
            'x-kubernetes-list-type': 'set',
          },
        },
      },
    },
    errors: [
      {
        type: 'duplicate',
        path: 'root.array[2]',
      },
      {
        type: 'duplicate',
        path: 'root.array[3][1]',
      },
    ],
  },
  {
    name: 'set list with compound map items',
    obj: {
      strings: ['a', 'b', 'a'],
      integers: [1, 2, 1],
      booleans: [false, true, true],
      float64: [1.0, 2.0, 2.0],
      nil: ['a', null, null],
      'empty maps': [
        {
          a: 'b',
        },
        {},
        {},
      ],
      'map values': [
        {
          a: 'b',
        },
        {
          a: 'c',
        },
        {
          a: 'b',
        },
      ],
      'nil values': [
        {
          a: null,
        },
        {
          b: 'c',
          a: null,
        },
      ],
      array: [[], ['a'], ['b'], ['a']],
      'nil array': [[], [null], [null, null], [null], ['a']],
      'multiple duplicates': [
        {
          a: 'b',
        },
        {
          a: 'c',
        },
        {
          a: 'b',
        },
        {
          a: 'c',
        },
        {
          a: 'c',
        },
      ],
    },
    schema: {
      type: 'object',
      properties: {
        strings: {
          type: 'array',
          items: {
            type: 'string',
          },
          'x-kubernetes-list-type': 'set',
        },
        integers: {
          type: 'array',
          items: {
            type: 'integer',
          },
          'x-kubernetes-list-type': 'set',
        },
        booleans: {
          type: 'array',
          items: {
            type: 'boolean',
          },
          'x-kubernetes-list-type': 'set',
        },
        float64: {
          type: 'array',
          items: {
            type: 'number',
          },
          'x-kubernetes-list-type': 'set',
        },
        nil: {
          type: 'array',
          items: {
            type: 'string',
            nullable: true,
          },
          'x-kubernetes-list-type': 'set',
        },
        'empty maps': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
          },
          'x-kubernetes-list-type': 'set',
        },
        'map values': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
          },
          'x-kubernetes-list-type': 'set',
        },
        'nil values': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
              nullable: true,
            },
          },
          'x-kubernetes-list-type': 'set',
        },
        array: {
          type: 'array',
          items: {
            type: 'array',
            items: {
              type: 'string',
            },
          },
          'x-kubernetes-list-type': 'set',
        },
        'nil array': {
          type: 'array',
          items: {
            type: 'array',
            items: {
              type: 'string',
              nullable: true,
            },
          },
          'x-kubernetes-list-type': 'set',
        },
        'multiple duplicates': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
          },
          'x-kubernetes-list-type': 'set',
        },
      },
    },
    errors: [
      {
        type: 'duplicate',
        path: 'root.strings[2]',
      },
      {
        type: 'duplicate',
        path: 'root.integers[2]',
      },
      {
        type: 'duplicate',
        path: 'root.booleans[2]',
      },
      {
        type: 'duplicate',
        path: 'root.float64[2]',
      },
      {
        type: 'duplicate',
        path: 'root.nil[2]',
      },
      {
        type: 'duplicate',
        path: 'root.empty maps[2]',
      },
      {
        type: 'duplicate',
        path: 'root.map values[2]',
      },
      {
        type: 'duplicate',
        path: 'root.array[3]',
      },
      {
        type: 'duplicate',
        path: 'root.nil array[3]',
      },
      {
        type: 'duplicate',
        path: 'root.multiple duplicates[2]',
      },
      {
        type: 'duplicate',
        path: 'root.multiple duplicates[3]',
      },
    ],
  },
  {
    name: 'set list with compound array items',
    obj: {
      array: [[], ['a'], ['a']],
    },
    schema: {
      type: 'object',
      properties: {
        array: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: {
            type: 'string',
          },
        },
      },
    },
    errors: [
      {
        type: 'duplicate',
        path: 'root.array[2]',
      },
    ],
  },
  {
    name: 'map list with compound map items',
    obj: {
      strings: ['a'],
      integers: [1],
      booleans: [false],
      float64: [1.0],
      nil: [null],
      array: [['a']],
      'one key': [
        {
          a: '0',
          c: '2',
        },
        {
          a: '1',
          c: '1',
        },
        {
          a: '1',
          c: '2',
        },
        {},
      ],
      'two keys': [
        {
          a: '1',
          b: '1',
          c: '1',
        },
        {
          a: '1',
          b: '2',
          c: '2',
        },
        {
          a: '1',
          b: '2',
          c: '3',
        },
        {},
      ],
      'undefined key': [
        {
          a: '1',
          b: '1',
          c: '1',
        },
        {
          a: '1',
          c: '2',
        },
        {
          a: '1',
          c: '3',
        },
        {},
      ],
      'compound key': [
        {
          a: [],
          c: '1',
        },
        {
          a: null,
          c: '1',
        },
        {
          a: ['a'],
          c: '1',
        },
        {
          a: ['a', 42],
          c: '2',
        },
        {
          a: ['a', 42],
          c: ['3'],
        },
      ],
      'nil key': [
        {
          a: [],
          c: '1',
        },
        {
          a: null,
          c: '1',
        },
        {
          c: '1',
        },
        {
          a: null,
        },
      ],
      'nil item': [
        null,
        {
          a: '0',
          c: '1',
        },
        {
          a: null,
        },
        {
          c: '1',
        },
      ],
      'nil item multiple keys': [
        null,
        {
          b: '0',
          c: '1',
        },
        {
          a: null,
        },
        {
          c: '1',
        },
      ],
      'multiple duplicates': [
        {
          a: [],
          c: '1',
        },
        {
          a: null,
          c: '1',
        },
        {
          a: ['a'],
          c: '1',
        },
        {
          a: ['a', 42],
          c: '2',
        },
        {
          a: ['a', 42],
          c: ['3'],
        },
        {
          a: ['a'],
          c: '1',
          d: '1',
        },
        {
          a: ['a'],
          c: '1',
          d: '2',
        },
      ],
    },
    schema: {
      type: 'object',
      properties: {
        strings: {
          type: 'array',
          items: {
            type: 'string',
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        integers: {
          type: 'array',
          items: {
            type: 'integer',
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        booleans: {
          type: 'array',
          items: {
            type: 'boolean',
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        float64: {
          type: 'array',
          items: {
            type: 'number',
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        nil: {
          type: 'array',
          items: {
            type: 'string',
            nullable: true,
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        array: {
          type: 'array',
          items: {
            type: 'array',
            items: {
              type: 'string',
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        'one key': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        'two keys': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a', 'b'],
        },
        'undefined key': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a', 'b'],
        },
        'compound key': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
              nullable: true,
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        'nil key': {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              a: {
                type: 'array',
                nullable: true,
                items: {
                  type: 'string',
                },
              },
              c: {
                type: 'string',
              },
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        'nil item': {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              a: {
                type: 'array',
                nullable: true,
                items: {
                  type: 'string',
                },
              },
              c: {
                type: 'string',
              },
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
        'nil item multiple keys': {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              a: {
                type: 'array',
                nullable: true,
                items: {
                  type: 'string',
                },
              },
              b: {
                type: 'string',
              },
              c: {
                type: 'string',
              },
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a', 'b'],
        },
        'multiple duplicates': {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: {
              type: 'string',
              nullable: true,
            },
          },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['a'],
        },
      },
    },
    errors: [
      {
        type: 'invalid',
        path: 'root.strings[0]',
      },
      {
        type: 'invalid',
        path: 'root.integers[0]',
      },
      {
        type: 'invalid',
        path: 'root.booleans[0]',
      },
      {
        type: 'invalid',
        path: 'root.float64[0]',
      },
      {
        type: 'invalid',
        path: 'root.array[0]',
      },
      {
        type: 'duplicate',
        path: 'root.one key[2]',
      },
      {
        type: 'duplicate',
        path: 'root.two keys[2]',
      },
      {
        type: 'duplicate',
        path: 'root.undefined key[2]',
      },
      {
        type: 'duplicate',
        path: 'root.compound key[4]',
      },
      {
        type: 'duplicate',
        path: 'root.nil key[3]',
      },
      {
        type: 'duplicate',
        path: 'root.nil item[3]',
      },
      {
        type: 'duplicate',
        path: 'root.nil item multiple keys[3]',
      },
      {
        type: 'duplicate',
        path: 'root.multiple duplicates[4]',
      },
      {
        type: 'duplicate',
        path: 'root.multiple duplicates[5]',
      },
    ],
  },
] as const
export const COERCE = [
  {
    name: 'empty',
    json: 'null',
    schema: null,
    expected: 'null',
  },
  {
    name: 'scalar',
    json: '4',
    schema: {},
    expected: '4',
  },
  {
    name: 'scalar array',
    json: '[1,2]',
    schema: {
      items: {},
    },
    expected: '[1,2]',
  },
  {
    name: 'x-kubernetes-embedded-resource',
    json: '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance",\n    "unspecified": "bar"\n  },\n  "unspecified":"bar",\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "preserving": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "nested": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar",\n      "embedded": {\n        "apiVersion": "foo/v1",\n        "kind": "Foo",\n        "unspecified": "bar",\n        "metadata": {\n          "name": "instance",\n          "unspecified": "bar"\n        },\n        "spec": {\n          "unspecified": "bar"\n        }\n      }\n    }\n  }\n}\n',
    schema: {
      type: 'object',
      properties: {
        pruned: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: {
              type: 'object',
            },
          },
        },
        preserving: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        nested: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: {
              type: 'object',
              properties: {
                embedded: {
                  type: 'object',
                  'x-kubernetes-embedded-resource': true,
                  properties: {
                    spec: {
                      type: 'object',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    expected:
      '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance",\n    "unspecified": "bar"\n  },\n  "unspecified":"bar",\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "preserving": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "nested": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance"\n    },\n    "spec": {\n      "unspecified": "bar",\n      "embedded": {\n        "apiVersion": "foo/v1",\n        "kind": "Foo",\n        "unspecified": "bar",\n        "metadata": {\n          "name": "instance"\n        },\n        "spec": {\n          "unspecified": "bar"\n        }\n      }\n    }\n  }\n}\n',
    expectedUnknownFields: [
      'nested.metadata.unspecified',
      'nested.spec.embedded.metadata.unspecified',
      'preserving.metadata.unspecified',
      'pruned.metadata.unspecified',
    ],
  },
  {
    name: 'x-kubernetes-embedded-resource, with includeRoot=true',
    json: '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance",\n    "unspecified": "bar"\n  },\n  "unspecified":"bar",\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "preserving": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "nested": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance",\n      "unspecified": "bar"\n    },\n    "spec": {\n      "unspecified": "bar",\n      "embedded": {\n        "apiVersion": "foo/v1",\n        "kind": "Foo",\n        "unspecified": "bar",\n        "metadata": {\n          "name": "instance",\n          "unspecified": "bar"\n        },\n        "spec": {\n          "unspecified": "bar"\n        }\n      }\n    }\n  }\n}\n',
    includeRoot: true,
    schema: {
      type: 'object',
      properties: {
        pruned: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: {
              type: 'object',
            },
          },
        },
        preserving: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        nested: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: {
              type: 'object',
              properties: {
                embedded: {
                  type: 'object',
                  'x-kubernetes-embedded-resource': true,
                  properties: {
                    spec: {
                      type: 'object',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    expected:
      '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance"\n  },\n  "unspecified":"bar",\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "preserving": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance"\n    },\n    "spec": {\n      "unspecified": "bar"\n    }\n  },\n  "nested": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "unspecified": "bar",\n    "metadata": {\n      "name": "instance"\n    },\n    "spec": {\n      "unspecified": "bar",\n      "embedded": {\n        "apiVersion": "foo/v1",\n        "kind": "Foo",\n        "unspecified": "bar",\n        "metadata": {\n          "name": "instance"\n        },\n        "spec": {\n          "unspecified": "bar"\n        }\n      }\n    }\n  }\n}',
    expectedUnknownFields: [
      'metadata.unspecified',
      'nested.metadata.unspecified',
      'nested.spec.embedded.metadata.unspecified',
      'preserving.metadata.unspecified',
      'pruned.metadata.unspecified',
    ],
  },
  {
    name: 'without name',
    json: '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance"\n  },\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "metadata": {\n      "namespace": "kube-system"\n    }\n  }\n}\n',
    schema: {
      type: 'object',
      properties: {
        pruned: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
        },
      },
    },
    expected:
      '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance"\n  },\n  "pruned": {\n    "apiVersion": "foo/v1",\n    "kind": "Foo",\n    "metadata": {\n      "namespace": "kube-system"\n    }\n  }\n}\n',
  },
  {
    name: 'x-kubernetes-embedded-resource, with dropInvalidFields=true',
    json: '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance"\n  },\n  "pruned": {\n    "apiVersion": 42,\n    "kind": 42,\n    "metadata": {\n      "name": "instance",\n\t  "namespace": ["abc"],\n      "labels": {\n        "foo": 42\n      }\n    }\n  }\n}\n',
    dropInvalidFields: true,
    schema: {
      type: 'object',
      properties: {
        pruned: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: {
              type: 'object',
            },
          },
        },
      },
    },
    expected:
      '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance"\n  },\n  "pruned": {\n    "metadata": {\n      "name": "instance"\n    }\n  }\n}\n',
  },
  {
    name: 'invalid metadata type, with dropInvalidFields=true',
    json: '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance"\n  },\n  "pruned": {\n    "apiVersion": 42,\n    "kind": 42,\n    "metadata": [42]\n  }\n}\n',
    dropInvalidFields: true,
    schema: {
      type: 'object',
      properties: {
        pruned: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
        },
      },
    },
    expected:
      '\n{\n  "apiVersion": "foo/v1",\n  "kind": "Foo",\n  "metadata": {\n    "name": "instance"\n  },\n  "pruned": {\n    "metadata": [42]\n  }\n}\n',
  },
] as const
