import { describe } from 'vitest'
import {
  dateFormat,
  doubleType,
  durationFormat,
  expressionsCase,
  integerType,
  listMapType,
  listMapTypePtr,
  listSetType,
  listType,
  listTypePtr,
  mapType,
  mapTypePtr,
  objectType,
  objectTypePtr,
  objs,
  schemas,
  stringType,
  ValsEqualThemselvesAndDataLiteral,
  withNullable,
} from './helpers/schemas.js'

// apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go TestValidationExpressions:
// lists, sets, map lists, maps and objects (cases "lists" … "listSet access", "container type
// composition", "stdlib list functions").

describe('apiextensions validation_test.go TestValidationExpressions', () => {
  expressionsCase({
    name: 'lists',
    obj: objs([1, 2, 3], [1, 2, 3]),
    schema: schemas(listType(integerType), listType(integerType)),
    valid: [
      ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', '[1, 2, 3]'),
      '1 in self.val1',
      'self.val2[0] in self.val1',
      '!(0 in self.val1)',
      'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]',
      'self.val1 + [4, 5] == [1, 2, 3, 4, 5]',
    ],
    errors: {
      // Mixed type lists are not allowed since we have HomogeneousAggregateLiterals enabled
      "[1, 'a', false].filter(x, string(x) == 'a')":
        "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'",
    },
  })
  expressionsCase({
    name: 'ext lists version 3',
    obj: objs([1, 2, 3], [1, 2, 3]),
    schema: schemas(listType(integerType), listType(integerType)),
    valid: [
      'lists.range(4) == [0,1,2,3]',
      'lists.range(0) == []',
      '[5,1,2,3].reverse() == [3,2,1,5]',
      '[].reverse() == []',
      '[1].reverse() == [1]',
      "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
      '[false, true, true].reverse().reverse() == [false, true, true]',
      '[1,2,3,4].slice(0, 4) == [1,2,3,4]',
      '[1,2,3,4].slice(0, 0) == []',
      '[1,2,3,4].slice(1, 1) == []',
      '[1,2,3,4].slice(4, 4) == []',
      '[1,2,3,4].slice(1, 3) == [2, 3]',
      'dyn([]).flatten() == []',
      'dyn([1,2,3,4]).flatten() == [1,2,3,4]',
      '[].sort() == []',
      '[1].sort() == [1]',
      '[4, 3, 2, 1].sort() == [1, 2, 3, 4]',
      '["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]',
      '[].sortBy(e, e) == []',
      '["a"].sortBy(e, e) == ["a"]',
      '[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]',
      '[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]',
      'lists.range(3).sortBy(e, -e) == [2, 1, 0]',
      '["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]',
      "[{'name': 'foo'}, {'name': 'bar'}, {'name': 'baz'}].sortBy(e, e.name) == [{'name': 'bar'}, {'name': 'baz'}, {'name': 'foo'}]",
      '[].distinct() == []',
      '[1].distinct() == [1]',
      '[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]',
      "['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']",
      '[[1], [1], [2]].distinct() == [[1], [2]]',
      "[{'name': 'a'}, {'name': 'b'}, {'name': 'a'}].distinct() == [{'name': 'a'}, {'name': 'b'}]",
      '[[1],[2],[3,4]].flatten() == [1,2,3,4]',
    ],
    errors: {
      '[1,2,3,4].slice(3, 0) != [1,2]': 'cannot slice(3, 0), start index must be less than or equal to end index',
      '[1,2,3,4].slice(0, 10) != [1,2]': 'cannot slice(0, 10), list is length 4',
      '[1,2,3,4].slice(-5, 10) != [1,2]': 'cannot slice(-5, 10), negative indexes not supported',
      '[1,2,3,4].slice(-5, -3) != [1,2]': 'cannot slice(-5, -3), negative indexes not supported',
      '[[1],[2],[3,4]].flatten(-1) == [1,2,3,4]':
        'level must be non-negative evaluating rule: [[1],[2],[3,4]].flatten(-1) == [1,2,3,4]',
      '["d", 3, 2, "c"].sort() == ["a", "b", "c", "d"]': "expected type 'string' but found 'int'",
    },
  })
  expressionsCase({
    name: 'string lists',
    obj: objs(['a', 'b', 'c']),
    schema: schemas(listType(stringType)),
    valid: [
      // Join function
      "self.val1.join('-') == 'a-b-c'",
      "['a', 'b', 'c'].join('-') == 'a-b-c'",
      "self.val1.join() == 'abc'",
      "['a', 'b', 'c'].join() == 'abc'",
    ],
  })
  expressionsCase({
    name: 'listSets',
    obj: objs(['a', 'b', 'c'], ['a', 'c', 'b']),
    schema: schemas(listSetType(stringType), listSetType(stringType)),
    valid: [
      // equal even though order is different
      "self.val1 == ['c', 'b', 'a']",
      'self.val1 == self.val2',
      "'a' in self.val1",
      'self.val2[0] in self.val1',
      "!('x' in self.val1)",
      "self.val1 + self.val2 == ['a', 'b', 'c']",
      "self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']",
      // Join function
      "self.val1.join('-') == 'a-b-c'",
      "['a', 'b', 'c'].join('-') == 'a-b-c'",
      "self.val1.join() == 'abc'",
      "['a', 'b', 'c'].join() == 'abc'",
      // CEL sets functions
      "sets.contains(['a', 'b'], [])",
      "sets.contains(['a', 'b'], ['b'])",
      "!sets.contains(['a', 'b'], ['c'])",
      'sets.equivalent([], [])',
      "sets.equivalent(['c', 'b', 'a'], ['b', 'c', 'a'])",
      "!sets.equivalent(['a', 'b'], ['b', 'c'])",
      "sets.intersects(['a', 'b'], ['b', 'c'])",
      '!sets.intersects([], [])',
      "!sets.intersects(['a', 'b'], [])",
      "!sets.intersects(['a', 'b'], ['c', 'd'])",
      'sets.contains([1, 2], [2])',
      'sets.contains([true, false], [false])',
      'sets.contains([1.25, 1.5], [1.5])',
      "sets.contains([{'a': 1}, {'b': 2}], [{'b': 2}])",
      'sets.contains([[1, 2], [3, 4]], [[3, 4]])',
      "sets.contains([timestamp('2000-01-01T00:00:00.000+01:00'), timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
      "sets.contains([duration('1h'), duration('2h')], [duration('2h')])",
      'sets.equivalent([1, 2], [1, 2])',
      'sets.equivalent([true, false], [true, false])',
      'sets.equivalent([1.25, 1.5], [1.25, 1.5])',
      "sets.equivalent([{'a': 1}, {'b': 2}], [{'a': 1}, {'b': 2}])",
      'sets.equivalent([[1, 2], [3, 4]], [[1, 2], [3, 4]])',
      "sets.equivalent([timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
      "sets.equivalent([duration('1h'), duration('2h')], [duration('1h'), duration('2h')])",
      'sets.intersects([1, 2], [2])',
      'sets.intersects([true, false], [false])',
      'sets.intersects([1.25, 1.5], [1.5])',
      "sets.intersects([{'a': 1}, {'b': 2}], [{'b': 2}])",
      'sets.intersects([[1, 2], [3, 4]], [[3, 4]])',
      "sets.intersects([timestamp('2000-01-01T00:00:00.000+01:00'), timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
      "sets.intersects([duration('1h'), duration('2h')], [duration('2h')])",
    ],
  })
  expressionsCase({
    name: 'listMaps',
    obj: {
      objs: [
        [
          { k: 'a', v: '1' },
          { k: 'b', v: '2' },
        ],
        [
          { k: 'b', v: '2' },
          { k: 'a', v: '1' },
        ],
        [
          { k: 'b', v: '3' },
          { k: 'a', v: '1' },
        ],
        [{ k: 'c', v: '4' }],
      ],
    },
    schema: objectTypePtr({
      objs: listType(listMapTypePtr(['k'], objectTypePtr({ k: stringType, v: stringType }))),
    }),
    valid: [
      'self.objs[0] == self.objs[1]', // equal even though order is different
      'self.objs[0] + self.objs[2] == self.objs[2]', // rhs overwrites lhs values
      'self.objs[2] + self.objs[0] == self.objs[0]',
      'self.objs[0] == [self.objs[0][0], self.objs[0][1]]', // equal against a declared list
      'self.objs[0] == [self.objs[0][1], self.objs[0][0]]',
      'self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]', // concat against a declared list
      'size(self.objs[0] + [self.objs[3][0]]) == 3',
    ],
    errors: {
      "self.objs[0] == {'k': 'a', 'v': '1'}": "no matching overload for '_==_'", // objects cannot be compared against a data literal map
    },
  })
  expressionsCase({
    name: 'maps',
    obj: objs({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    schema: schemas(mapType(stringType), mapType(stringType)),
    valid: [
      'self.val1 == self.val2', // equal even though order is different
      "'k1' in self.val1",
      "!('k3' in self.val1)",
      "self.val1 == {'k1': 'a', 'k2': 'b'}",
    ],
    errors: {
      // Mixed type maps are not allowed since we have HomogeneousAggregateLiterals enabled
      "{'k1': 'a', 'k2': 1, 'k2': false}": "expected type 'string' but found 'int'",
    },
  })
  expressionsCase({
    name: 'objects',
    obj: {
      objs: [
        { f1: 'a', f2: 'b' },
        { f1: 'a', f2: 'b' },
      ],
    },
    schema: objectTypePtr({
      objs: listType(objectTypePtr({ f1: stringType, f2: stringType })),
    }),
    valid: ['self.objs[0] == self.objs[1]'],
    errors: {
      "self.objs[0] == {'f1': 'a', 'f2': 'b'}": "found no matching overload for '_==_'", // objects cannot be compared against a data literal map
    },
  })
  expressionsCase({
    name: 'object access',
    obj: {
      a: { b: 1, d: null },
      a1: { b1: { c1: 4 } },
      a3: {},
    },
    schema: objectTypePtr({
      a: objectType({
        b: integerType,
        c: integerType,
        d: withNullable(true, integerType),
      }),
      a1: objectType({
        b1: objectType({ c1: integerType }),
        d2: objectType({ e2: integerType }),
      }),
    }),
    // https://github.com/google/cel-spec/blob/master/doc/langdef.md#field-selection
    valid: [
      'has(self.a.b)',
      '!has(self.a.c)',
      '!has(self.a.d)', // We treat null value fields the same as absent fields in CEL
      'has(self.a1.b1.c1)',
      '!(has(self.a1.d2) && has(self.a1.d2.e2))', // must check intermediate optional fields (see below no such key error for d2)
      '!has(self.a1.d2)',
    ],
    errors: {
      'has(self.a.z)': "undefined field 'z'", // may not reference undefined fields, not even with has
      "self.a['b'] == 1": "no matching overload for '_[_]'", // only allowed on maps, not objects
      'has(self.a1.d2.e2)': 'no such key: d2', // has only checks last element in path, when d2 is absent in value, this is an error
    },
  })
  expressionsCase({
    name: 'map access',
    obj: { val: { b: 1, d: 2 } },
    schema: objectTypePtr({ val: mapType(integerType) }),
    valid: [
      // idiomatic map access
      "!('a' in self.val)",
      "'b' in self.val",
      "!('c' in self.val)",
      "'d' in self.val",
      // field selection also possible if map key is a valid CEL identifier
      '!has(self.val.a)',
      'has(self.val.b)',
      '!has(self.val.c)',
      'has(self.val.d)',
      'self.val.all(k, self.val[k] > 0)',
      'self.val.exists(k, self.val[k] > 1)',
      'self.val.exists_one(k, self.val[k] == 2)',
      '!self.val.exists(k, self.val[k] > 2)',
      '!self.val.exists_one(k, self.val[k] > 0)',
      'size(self.val) == 2',
      'self.val.map(k, self.val[k]).exists(v, v == 1)',
      'size(self.val.filter(k, self.val[k] > 1)) == 1',
      // two variable comprehensions
      'self.val.all(k, v, v > 0)',
      'self.val.exists(k, v, v == 2)',
      'self.val.existsOne(k, v, v == 2)',
      'self.val.transformMap(k, v, v > 1, v + 1).size() == 1',
      'self.val.transformMap(k, v, v + 1).size() == 2',
      "self.val.transformMapEntry(k, v, v > 1, {k + '2': v + 1}).size() == 1",
      "self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2",
    ],
    errors: {
      "self.val['c'] == 1": 'no such key: c',
    },
  })
  expressionsCase({
    name: 'listMap access',
    obj: {
      listMap: [
        { k: 'a1', v: 'b1' },
        { k: 'a2', v: 'b2' },
        { k: 'a3', v: 'b3', v2: 'z' },
      ],
    },
    schema: objectTypePtr({
      listMap: listMapType(['k'], objectTypePtr({ k: stringType, v: stringType, v2: stringType })),
    }),
    valid: [
      'has(self.listMap[0].v)',
      "self.listMap.all(m, m.k.startsWith('a'))",
      "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')",
      "self.listMap.exists(m, m.k.endsWith('1'))",
      "self.listMap.exists_one(m, m.k == 'a3')",
      "!self.listMap.all(m, m.k.endsWith('1'))",
      "!self.listMap.exists(m, m.v == 'x')",
      "!self.listMap.exists_one(m, m.k.startsWith('a'))",
      "size(self.listMap.filter(m, m.k == 'a1')) == 1",
      "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')",
      "self.listMap.map(m, m.v).exists(v, v == 'b1')",
      // test comprehensions where the field used in predicates is unset on all but one of the elements:
      // - with has checks:
      "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')",
      "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')",
      "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')",
      "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1",
      // undocumented overload of map that takes a filter argument. This is the same as .filter().map()
      "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1",
      "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1",
      // - without has checks:
      // all() and exists() macros ignore errors from predicates so long as the condition holds for at least one element
      "self.listMap.exists(m, m.v2 == 'z')",
      "!self.listMap.all(m, m.v2 != 'z')",
      // two variable comprehensions
      "!self.listMap.all(i, m, has(m.v2) && m.v2 != 'z')",
      "self.listMap.exists(i, m, has(m.v2) && m.v2 == 'z')",
      "self.listMap.existsOne(i, m, has(m.v2) && m.v2 == 'z')",
      "self.listMap.transformList(i, m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1",
      'self.listMap.transformList(i, m, m.v).size() == 3',
    ],
    errors: {
      // test comprehensions where the field used in predicates is unset on all but one of the elements: (error cases)
      // - without has checks:
      // if all() predicate evaluates to false or error for all elements, any error encountered is raised
      "self.listMap.all(m, m.v2 == 'z')": 'no such key: v2',
      // exists one() is stricter than map() or exists(), it requires exactly one predicate evaluate to true and the rest
      // evaluate to false, any error encountered is raised
      "self.listMap.exists_one(m, m.v2 == 'z')": 'no such key: v2',
      // filter and map raise any error encountered
      "self.listMap.filter(m, m.v2 == 'z').size() == 1": 'no such key: v2',
      'self.listMap.map(m, m.v2).size() == 1': 'no such key: v2',
      // undocumented overload of map that takes a filter argument. This is the same as .filter().map()
      "self.listMap.map(m, m.v2 == 'z', m.v2).size() == 1": 'no such key: v2',
    },
  })
  expressionsCase({
    name: 'list access',
    obj: { array: [1, 1, 2, 2, 3, 3, 4, 5] },
    schema: objectTypePtr({ array: listType(integerType) }),
    valid: [
      '2 in self.array',
      'self.array.all(e, e > 0)',
      'self.array.exists(e, e > 2)',
      'self.array.exists_one(e, e > 4)',
      '!self.array.all(e, e < 2)',
      '!self.array.exists(e, e < 0)',
      '!self.array.exists_one(e, e == 2)',
      'self.array.all(e, e < 100)',
      'size(self.array.filter(e, e%2 == 0)) == 3',
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)',
      'size(self.array) == 8',
      // two variable comprehensions
      'self.array.all(i, e, e > 0)',
      'self.array.exists(i, e, e > 2)',
      'self.array.existsOne(i, e, e > 4)',
      'self.array.transformList(i, e, e > 2, e * 2).size() > 0',
      'self.array.transformList(i, e, e * 2).size() > 0',
    ],
    errors: {
      'self.array[100] == 0': 'index out of bounds: 100',
    },
  })
  expressionsCase({
    name: 'listSet access',
    obj: { set: [1, 2, 3, 4, 5] },
    schema: objectTypePtr({ set: listType(integerType) }),
    valid: [
      '3 in self.set',
      'self.set.all(e, e > 0)',
      'self.set.exists(e, e > 3)',
      'self.set.exists_one(e, e == 3)',
      '!self.set.all(e, e < 3)',
      '!self.set.exists(e, e < 0)',
      '!self.set.exists_one(e, e > 3)',
      'self.set.all(e, e < 10)',
      'size(self.set.filter(e, e%2 == 0)) == 2',
      'self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)',
      'size(self.set) == 5',
    ],
  })
  expressionsCase({
    name: 'container type composition',
    obj: {
      obj: { field: 'a' },
      mapOfMap: { x: { y: 'b' } },
      mapOfObj: { k: { field2: 'c' } },
      mapOfListMap: { o: [{ k: '1', v: 'd' }] },
      mapOfList: { l: ['e'] },
      listMapOfObj: [{ k2: '2', v2: 'f' }],
      listOfMap: [{ z: 'g' }],
      listOfObj: [{ field3: 'h' }],
      listOfListMap: [[{ k3: '3', v3: 'i' }]],
    },
    schema: objectTypePtr({
      obj: objectType({ field: stringType }),
      mapOfMap: mapType(mapTypePtr(stringType)),
      mapOfObj: mapType(objectTypePtr({ field2: stringType })),
      mapOfListMap: mapType(listMapTypePtr(['k'], objectTypePtr({ k: stringType, v: stringType }))),
      mapOfList: mapType(listTypePtr(stringType)),
      listMapOfObj: listMapType(['k2'], objectTypePtr({ k2: stringType, v2: stringType })),
      listOfMap: listType(mapTypePtr(stringType)),
      listOfObj: listType(objectTypePtr({ field3: stringType })),
      listOfListMap: listType(listMapTypePtr(['k3'], objectTypePtr({ k3: stringType, v3: stringType }))),
    }),
    valid: [
      "self.obj.field == 'a'",
      "self.mapOfMap['x']['y'] == 'b'",
      "self.mapOfObj['k'].field2 == 'c'",
      "self.mapOfListMap['o'].exists(e, e.k == '1' && e.v == 'd')",
      "self.mapOfList['l'][0] == 'e'",
      "self.listMapOfObj.exists(e, e.k2 == '2' && e.v2 == 'f')",
      "self.listOfMap[0]['z'] == 'g'",
      "self.listOfObj[0].field3 == 'h'",
      "self.listOfListMap[0].exists(e, e.k3 == '3' && e.v3 == 'i')",
    ],
    errors: {},
  })
  expressionsCase({
    name: 'stdlib list functions',
    obj: {
      ints: [1, 2, 2, 3],
      unsortedInts: [2, 1],
      emptyInts: [],

      doubles: [1.0, 2.0, 2.0, 3.0], // float64
      unsortedDoubles: [2.0, 1.0], // float64
      emptyDoubles: [],

      intBackedDoubles: [1, 2, 2, 3],
      unsortedIntBackedDDoubles: [2, 1],
      emptyIntBackedDDoubles: [],

      durations: ['1s', '1m', '1m', '1h'],
      unsortedDurations: ['1m', '1s'],
      emptyDurations: [],

      strings: ['a', 'b', 'b', 'c'],
      unsortedStrings: ['b', 'a'],
      emptyStrings: [],

      dates: ['2000-01-01', '2000-02-01', '2000-02-01', '2010-01-01'],
      unsortedDates: ['2000-02-01', '2000-01-01'],
      emptyDates: [],

      objs: [
        { f1: 'a', f2: 'a' },
        { f1: 'a', f2: 'b' },
        { f1: 'a', f2: 'b' },
        { f1: 'a', f2: 'c' },
      ],
    },
    schema: objectTypePtr({
      ints: listType(integerType),
      unsortedInts: listType(integerType),
      emptyInts: listType(integerType),

      doubles: listType(doubleType),
      unsortedDoubles: listType(doubleType),
      emptyDoubles: listType(doubleType),

      intBackedDoubles: listType(doubleType),
      unsortedIntBackedDDoubles: listType(doubleType),
      emptyIntBackedDDoubles: listType(doubleType),

      durations: listType(durationFormat),
      unsortedDurations: listType(durationFormat),
      emptyDurations: listType(durationFormat),

      strings: listType(stringType),
      unsortedStrings: listType(stringType),
      emptyStrings: listType(stringType),

      dates: listType(dateFormat),
      unsortedDates: listType(dateFormat),
      emptyDates: listType(dateFormat),

      objs: listType(objectTypePtr({ f1: stringType, f2: stringType })),
    }),
    valid: [
      'self.ints.sum() == 8',
      'self.ints.min() == 1',
      'self.ints.max() == 3',
      'self.emptyInts.sum() == 0',
      'self.ints.isSorted()',
      'self.emptyInts.isSorted()',
      'self.unsortedInts.isSorted() == false',
      'self.ints.indexOf(2) == 1',
      'self.ints.lastIndexOf(2) == 2',
      'self.ints.indexOf(10) == -1',
      'self.ints.lastIndexOf(10) == -1',
      'self.doubles.sum() == 8.0',
      'self.doubles.min() == 1.0',
      'self.doubles.max() == 3.0',
      'self.emptyDoubles.sum() == 0.0',
      'self.doubles.isSorted()',
      'self.emptyDoubles.isSorted()',
      'self.unsortedDoubles.isSorted() == false',
      'self.doubles.indexOf(2.0) == 1',
      'self.doubles.lastIndexOf(2.0) == 2',
      'self.doubles.indexOf(10.0) == -1',
      'self.doubles.lastIndexOf(10.0) == -1',
      'self.intBackedDoubles.sum() == 8.0',
      'self.intBackedDoubles.min() == 1.0',
      'self.intBackedDoubles.max() == 3.0',
      'self.emptyIntBackedDDoubles.sum() == 0.0',
      'self.intBackedDoubles.isSorted()',
      'self.emptyDoubles.isSorted()',
      'self.unsortedIntBackedDDoubles.isSorted() == false',
      'self.intBackedDoubles.indexOf(2.0) == 1',
      'self.intBackedDoubles.lastIndexOf(2.0) == 2',
      'self.intBackedDoubles.indexOf(10.0) == -1',
      'self.intBackedDoubles.lastIndexOf(10.0) == -1',
      "self.durations.sum() == duration('1h2m1s')",
      "self.durations.min() == duration('1s')",
      "self.durations.max() == duration('1h')",
      "self.emptyDurations.sum() == duration('0')",
      'self.durations.isSorted()',
      'self.emptyDurations.isSorted()',
      'self.unsortedDurations.isSorted() == false',
      "self.durations.indexOf(duration('1m')) == 1",
      "self.durations.lastIndexOf(duration('1m')) == 2",
      "self.durations.indexOf(duration('2m')) == -1",
      "self.durations.lastIndexOf(duration('2m')) == -1",
      "self.strings.min() == 'a'",
      "self.strings.max() == 'c'",
      'self.strings.isSorted()',
      'self.emptyStrings.isSorted()',
      'self.unsortedStrings.isSorted() == false',
      "self.strings.indexOf('b') == 1",
      "self.strings.lastIndexOf('b') == 2",
      "self.strings.indexOf('x') == -1",
      "self.strings.lastIndexOf('x') == -1",
      "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
      "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
      'self.dates.isSorted()',
      'self.emptyDates.isSorted()',
      'self.unsortedDates.isSorted() == false',
      "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
      "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
      "self.dates.indexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
      "self.dates.lastIndexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
      // array, map and object types use structural equality (aka "deep equals")
      '[[1], [2]].indexOf([1]) == 0',
      "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
      'self.objs.indexOf(self.objs[1]) == 1',
      'self.objs.lastIndexOf(self.objs[1]) == 2',
      // avoiding empty list error with min and max by appending an acceptable default minimum value
      '([0] + self.emptyInts).min() == 0',
      // handle CEL's dynamic dispatch appropriately (special cases to handle an empty list)
      'dyn([]).sum() == 0',
      'dyn([1, 2]).sum() == 3',
      'dyn([1.0, 2.0]).sum() == 3.0',
      '[].sum() == 0', // An empty list returns an 0 int
    ],
    errors: {
      // return an error for min/max on empty list
      'self.emptyInts.min() == 1': 'min called on empty list',
      'self.emptyInts.max() == 3': 'max called on empty list',
      'self.emptyDoubles.min() == 1.0': 'min called on empty list',
      'self.emptyDoubles.max() == 3.0': 'max called on empty list',
      "self.emptyStrings.min() == 'a'": 'min called on empty list',
      "self.emptyStrings.max() == 'c'": 'max called on empty list',
      // only allow sum on numeric types and duration
      "['a', 'b'].sum() == 'c'": "found no matching overload for 'sum' applied to 'list(string).()", // compiler type checking error
      // only allow min/max/indexOf/lastIndexOf on comparable types
      '[[1], [2]].min() == [1]': "found no matching overload for 'min' applied to 'list(list(int)).()", // compiler type checking error
      "[{'a': 1}, {'b': 2}].max() == {'b': 2}":
        "found no matching overload for 'max' applied to 'list(map(string, int)).()", // compiler type checking error
    },
  })
})
