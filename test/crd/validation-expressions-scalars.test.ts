import { describe } from 'vitest'
import {
  booleanType,
  byteType,
  dateFormat,
  dateTimeFormat,
  doubleType,
  durationFormat,
  expressionsCase,
  floatType,
  int32Type,
  int64Type,
  integerType,
  numberType,
  objectTypePtr,
  objs,
  schemas,
  stringType,
  ValsEqualThemselvesAndDataLiteral,
} from './helpers/schemas.js'

// apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go TestValidationExpressions:
// scalar types, formats and conversions (cases "integers" … "conversions").

const MaxInt64 = 9223372036854775807n // int64(math.MaxInt64)
const MaxInt32 = 2147483647 // math.MaxInt32
const MaxFloat64 = Number.MAX_VALUE // math.MaxFloat64
const MaxFloat32 = 3.4028234663852886e38 // float32(math.MaxFloat32), exactly representable as a float64
/** fmt.Sprintf("%d", n) */
const goD = (n: bigint | number): string => String(n)
/** fmt.Sprintf("%f", x) of an integral float64: every digit, then six zero decimals. */
const goF = (x: number): string => `${BigInt(x)}.000000`

describe('apiextensions validation_test.go TestValidationExpressions', () => {
  // tests where val1 and val2 are equal but val3 is different
  // equality, comparisons and type specific functions
  expressionsCase({
    name: 'integers',
    // 1st obj and schema args are for "self.val1" field, 2nd for "self.val2" and so on.
    obj: objs(MaxInt64, MaxInt64, MaxInt32, MaxInt32, MaxInt64, MaxInt64),
    schema: schemas(integerType, integerType, int32Type, int32Type, int64Type, int64Type),
    valid: [
      ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', goD(MaxInt64)),
      ValsEqualThemselvesAndDataLiteral('self.val3', 'self.val4', goD(MaxInt32)),
      ValsEqualThemselvesAndDataLiteral('self.val5', 'self.val6', goD(MaxInt64)),
      'self.val1 == self.val6', // integer with no format is the same as int64
      'type(self.val1) == int',
      `self.val3 + 1 == ${goD(MaxInt32)} + 1`, // CEL integers are 64 bit
      'type(self.val3) == int',
      'type(self.val5) == int',
    ],
    errors: {
      'self.val1 + 1 == 0': 'integer overflow',
      'self.val5 + 1 == 0': 'integer overflow',
      '1 / 0 == 1 / 0': 'division by zero',
    },
  })
  expressionsCase({
    name: 'numbers',
    obj: objs(MaxFloat64, MaxFloat64, MaxFloat32, MaxFloat32, MaxFloat64, MaxFloat64, 1),
    schema: schemas(numberType, numberType, floatType, floatType, doubleType, doubleType, doubleType),
    valid: [
      ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', goF(MaxFloat64)),
      ValsEqualThemselvesAndDataLiteral('self.val3', 'self.val4', goF(MaxFloat32)),
      ValsEqualThemselvesAndDataLiteral('self.val5', 'self.val6', goF(MaxFloat64)),
      'self.val1 == self.val6', // number with no format is the same as float64
      'type(self.val1) == double',
      'type(self.val3) == double',
      'type(self.val5) == double',

      // Use a int64 value with a number openAPI schema type since float representations of whole numbers
      // (e.g. 1.0, 0.0) can convert to int representations (e.g. 1, 0) in yaml to json translation, and
      // then get parsed as int64s.
      'type(self.val7) == double',
      'self.val7 == 1.0',
    ],
  })
  expressionsCase({
    name: 'numeric comparisons',
    obj: objs(
      5, // val1, integer type, integer value
      10, // val2, integer type, integer value
      15, // val3, integer type, integer value
      10.0, // val4, number type, parsed from decimal literal (float64)
      10.0, // val5, float type, parsed from decimal literal (float64)
      10.0, // val6, double type, parsed from decimal literal (float64)
      10, // val7, number type, parsed from integer literal
      10, // val8, float type, parsed from integer literal
      10, // val9, double type, parsed from integer literal
    ),
    schema: schemas(
      integerType,
      integerType,
      integerType,
      numberType,
      floatType,
      doubleType,
      numberType,
      floatType,
      doubleType,
    ),
    valid: [
      // xref: https://github.com/google/cel-spec/wiki/proposal-210
      // compare integers with all float types
      'double(self.val1) < self.val4',
      'double(self.val1) <= self.val4',
      'double(self.val2) <= self.val4',
      'double(self.val2) == self.val4',
      'double(self.val2) >= self.val4',
      'double(self.val3) > self.val4',
      'double(self.val3) >= self.val4',
      'self.val1 < int(self.val4)',
      'self.val2 == int(self.val4)',
      'self.val3 > int(self.val4)',
      'double(self.val1) < self.val5',
      'double(self.val2) == self.val5',
      'double(self.val3) > self.val5',
      'self.val1 < int(self.val5)',
      'self.val2 == int(self.val5)',
      'self.val3 > int(self.val5)',
      'double(self.val1) < self.val6',
      'double(self.val2) == self.val6',
      'double(self.val3) > self.val6',
      'self.val1 < int(self.val6)',
      'self.val2 == int(self.val6)',
      'self.val3 > int(self.val6)',
      // Also compare with float types backed by integer values,
      // which is how integer literals are parsed from JSON for custom resources.
      'double(self.val1) < self.val7',
      'double(self.val2) == self.val7',
      'double(self.val3) > self.val7',
      'self.val1 < int(self.val7)',
      'self.val2 == int(self.val7)',
      'self.val3 > int(self.val7)',
      'double(self.val1) < self.val8',
      'double(self.val2) == self.val8',
      'double(self.val3) > self.val8',
      'self.val1 < int(self.val8)',
      'self.val2 == int(self.val8)',
      'self.val3 > int(self.val8)',
      'double(self.val1) < self.val9',
      'double(self.val2) == self.val9',
      'double(self.val3) > self.val9',
      'self.val1 < int(self.val9)',
      'self.val2 == int(self.val9)',
      'self.val3 > int(self.val9)',
      // compare literal integers and floats
      'double(5) < 10.0',
      'double(10) == 10.0',
      'double(15) > 10.0',
      '5 < int(10.0)',
      '10 == int(10.0)',
      '15 > int(10.0)',
      // compare integers with literal floats
      'double(self.val1) < 10.0',
      'double(self.val2) == 10.0',
      'double(self.val3) > 10.0',
      // Cross Type Numeric Comparisons: integers with all float types
      'self.val1 < self.val4',
      'self.val1 <= self.val4',
      'self.val2 <= self.val4',
      'self.val2 >= self.val4',
      'self.val3 > self.val4',
      'self.val3 >= self.val4',
      'self.val1 < self.val4',
      'self.val3 > self.val4',
      'self.val1 < self.val5',
      'self.val3 > self.val5',
      'self.val1 < self.val5',
      'self.val3 > self.val5',
      'self.val1 < self.val6',
      'self.val3 > self.val6',
      'self.val1 < self.val6',
      'self.val3 > self.val6',
      // Cross Type Numeric Comparisons: float types backed by integer values,
      // which is how integer literals are parsed from JSON for custom resources.
      'self.val1 < self.val7',
      'self.val3 > self.val7',
      'self.val1 < int(self.val7)',
      'self.val3 > int(self.val7)',
      'self.val1 < self.val8',
      'self.val3 > self.val8',
      'self.val1 < self.val8',
      'self.val3 > self.val8',
      'self.val1 < self.val9',
      'self.val3 > self.val9',
      'self.val1 < self.val9',
      'self.val3 > self.val9',
      // Cross Type Numeric Comparisons: literal integers and floats
      '5 < 10.0',
      '15 > 10.0',
      '5 < 10.0',
      '15 > 10.0',
      // Cross Type Numeric Comparisons: integers with literal floats
      'self.val1 < 10.0',
      'self.val3 > 10.0',
    ],
  })
  expressionsCase({
    name: 'unicode strings',
    obj: objs('Rook takes 👑', 'Rook takes 👑'),
    schema: schemas(stringType, stringType),
    valid: [
      ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "'Rook takes 👑'"),
      "self.val1.startsWith('Rook')",
      "!self.val1.startsWith('knight')",
      "self.val1.contains('takes')",
      "!self.val1.contains('gives')",
      "self.val1.endsWith('👑')",
      "!self.val1.endsWith('pawn')",
      "self.val1.matches('^[^0-9]*$')",
      "!self.val1.matches('^[0-9]*$')",
      'type(self.val1) == string',
      'size(self.val1) == 12',
      // string functions (https://github.com/google/cel-go/blob/v0.9.0/ext/strings.go)
      "self.val1.charAt(3) == 'k'",
      "self.val1.indexOf('o') == 1",
      "self.val1.indexOf('o', 2) == 2",
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'",
      "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'",
      "self.val1.split(' ') == ['Rook', 'takes', '👑']",
      "self.val1.split(' ', 2) == ['Rook', 'takes 👑']",
      "self.val1.substring(5) == 'takes 👑'",
      "self.val1.substring(0, 4) == 'Rook'",
      "self.val1.substring(4, 10).trim() == 'takes'",
      "self.val1.upperAscii() == 'ROOK TAKES 👑'",
      "self.val1.lowerAscii() == 'rook takes 👑'",
      "'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 1.000000 60s 2000-01-01T00:00:00Z'",
      "'%e'.format([3.14]) == '3.140000×10⁰⁰'",
      "'%o %o %o'.format([7, 8, 9]) == '7 10 11'",
      "'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'",
    ],
    errors: {
      // Invalid regex with a string constant regex pattern is compile time error
      "self.val1.matches(')')": 'compile error: compilation failed: ERROR: <input>:1:19: invalid matches argument',
    },
  })
  expressionsCase({
    name: 'escaped strings',
    obj: objs('l1\nl2', 'l1\nl2'),
    schema: schemas(stringType, stringType),
    valid: [ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "'l1\\nl2'"), "self.val1 == '''l1\nl2'''"],
  })
  expressionsCase({
    name: 'bytes',
    obj: objs('QUI=', 'QUI='),
    schema: schemas(byteType, byteType),
    valid: [
      'self.val1 == self.val2',
      "self.val1 == b'AB'",
      "self.val1 == bytes('AB')",
      "self.val1 == b'\\x41\\x42'",
      'type(self.val1) == bytes',
      'size(self.val1) == 2',
    ],
  })
  expressionsCase({
    name: 'booleans',
    obj: objs(true, true, false, false),
    schema: schemas(booleanType, booleanType, booleanType, booleanType),
    valid: [
      ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', 'true'),
      ValsEqualThemselvesAndDataLiteral('self.val3', 'self.val4', 'false'),
      'self.val1 != self.val4',
      'type(self.val1) == bool',
    ],
  })
  expressionsCase({
    name: 'duration format',
    obj: objs('1h2m3s4ms', '1h2m3s4ms'),
    schema: schemas(durationFormat, durationFormat),
    valid: [
      ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "duration('1h2m3s4ms')"),
      "self.val1 == duration('1h2m') + duration('3s4ms')",
      'self.val1.getHours() == 1',
      'self.val1.getMinutes() == 62',
      'self.val1.getSeconds() == 3723',
      'self.val1.getMilliseconds() == 3723004',
      'type(self.val1) == google.protobuf.Duration',
    ],
    errors: {
      "duration('1')": 'compilation failed: ERROR: <input>:1:10: invalid duration argument',
      "duration('1d')": 'compilation failed: ERROR: <input>:1:10: invalid duration argument',
      "duration('1us') < duration('1nns')": 'compilation failed: ERROR: <input>:1:28: invalid duration argument',
    },
  })
  expressionsCase({
    name: 'date format',
    obj: objs('1997-07-16', '1997-07-16'),
    schema: schemas(dateFormat, dateFormat),
    valid: [
      ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "timestamp('1997-07-16T00:00:00.000Z')"),
      'self.val1.getDate() == 16',
      'self.val1.getMonth() == 06', // zero based indexing
      'self.val1.getFullYear() == 1997',
      'type(self.val1) == google.protobuf.Timestamp',
    ],
  })
  expressionsCase({
    name: 'date-time format',
    obj: objs('2011-08-18T19:03:37.010000000+01:00', '2011-08-18T19:03:37.010000000+01:00'),
    schema: schemas(dateTimeFormat, dateTimeFormat),
    valid: [
      ValsEqualThemselvesAndDataLiteral('self.val1', 'self.val2', "timestamp('2011-08-18T19:03:37.010+01:00')"),
      "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
      "self.val1.getDate('01:00') == 18",
      "self.val1.getMonth('01:00') == 7", // zero based indexing
      "self.val1.getFullYear('01:00') == 2011",
      "self.val1.getHours('01:00') == 19",
      "self.val1.getMinutes('01:00') == 03",
      "self.val1.getSeconds('01:00') == 37",
      "self.val1.getMilliseconds('01:00') == 10",
      "self.val1.getHours('UTC') == 18", // TZ in string is 1hr off of UTC
      'type(self.val1) == google.protobuf.Timestamp',
    ],
    errors: {
      "timestamp('1000-00-00T00:00:00Z')": 'compilation failed: ERROR: <input>:1:11: invalid timestamp',
      "timestamp('1000-01-01T00:00:00ZZ')": 'compilation failed: ERROR: <input>:1:11: invalid timestamp',
      'timestamp(-62135596801)': 'compilation failed: ERROR: <input>:1:11: invalid timestamp',
    },
  })
  expressionsCase({
    name: 'enums',
    obj: { enumStr: 'Pending' },
    schema: objectTypePtr({
      enumStr: { type: 'string', enum: ['Pending', 'Available', 'Bound', 'Released', 'Failed'] },
    }),
    valid: ["self.enumStr == 'Pending'", "self.enumStr in ['Pending', 'Available']"],
  })
  expressionsCase({
    name: 'conversions',
    obj: objs(
      10, // int64(10)
      10.0, // float64
      10.49,
      10.5,
      true,
      '10',
      'MTA=',
      '3723.004s',
      '1h2m3s4ms',
      '2011-08-18T19:03:37.01+01:00',
      '2011-08-18T19:03:37.01+01:00',
      '2011-08-18T00:00:00Z',
      '2011-08-18',
    ),
    schema: schemas(
      integerType,
      numberType,
      numberType,
      numberType,
      booleanType,
      stringType,
      byteType,
      stringType,
      durationFormat,
      stringType,
      dateTimeFormat,
      stringType,
      dateFormat,
    ),
    valid: [
      'int(self.val2) == self.val1',
      'int(self.val3) == self.val1',
      'int(self.val4) == self.val1',
      'int(self.val6) == self.val1',
      'double(self.val1) == self.val2',
      'double(self.val6) == self.val2',
      'bytes(self.val6) == self.val7',
      'string(self.val1) == self.val6',
      "string(self.val2) == '10'",
      "string(self.val3) == '10.49'",
      "string(self.val4) == '10.5'",
      "string(self.val5) == 'true'",
      'string(self.val7) == self.val6',
      'duration(self.val8) == self.val9',
      'string(self.val9) == self.val8',
      'timestamp(self.val10) == self.val11',
      'string(self.val11) == self.val10',
      'timestamp(self.val12) == self.val13',
      'string(self.val13) == self.val12',
    ],
  })
})
