import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import { timeFunctions } from '../../src/cel/stdlib/time.js'
import {
  addDurations,
  addTimestampDuration,
  Duration,
  durationHours,
  durationMilliseconds,
  durationMinutes,
  durationSeconds,
  formatDuration,
  formatTimestamp,
  MAX_UNIX_SECONDS,
  MIN_UNIX_SECONDS,
  negateDuration,
  parseDuration,
  parseDurationExact,
  parseGoDuration,
  parseRFC3339,
  parseTimestamp,
  subtractDurations,
  subtractTimestampDuration,
  subtractTimestamps,
  Timestamp,
  timestampFromUnix,
} from '../../src/cel/values/time.js'
import { goAtoi, resolveZone } from '../../src/cel/values/timezone.js'
import type { CelValue } from '../../src/cel/values/values.js'

// Expected values come from cel-spec tests/simple/testdata/timestamps.textproto (as shipped in
// @bufbuild/cel-spec), cel-go common/types/{timestamp,duration}_test.go, cel-go common/stdlib/standard.go
// examples, and Go's src/time/time_test.go (parseDurationTests) and src/time/format.go (time.Parse rules).

const MIN_INT64 = -9223372036854775808n
const MAX_INT64 = 9223372036854775807n
const sec = (s: number | bigint) => new Duration(BigInt(s) * 1_000_000_000n)
const ns = (n: number | bigint) => new Duration(BigInt(n))

/** Calls a declared overload by its cel-go id. */
function call(id: string, ...args: CelValue[]): CelValue {
  for (const f of timeFunctions) {
    for (const o of f.overloads) if (o.id === id) return o.impl(...args)
  }
  throw new Error(`no overload ${id}`)
}

function errorOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    if (e instanceof ErrorValue) return e.message
    throw e
  }
  throw new Error('expected an ErrorValue')
}

const ts = (s: string) => parseTimestamp(s)
const dur = (s: string) => parseDuration(s)

describe('cel-spec timestamps.textproto', () => {
  it('timestamp_conversions', () => {
    expect(call('timestamp_to_int64', ts('2009-02-13T23:31:30Z'))).toBe(1234567890)
    expect(call('timestamp_to_string', ts('2009-02-13T23:31:30Z'))).toBe('2009-02-13T23:31:30Z')
    expect(call('timestamp_to_string', ts('9999-12-31T23:59:59.999999999Z'))).toBe('9999-12-31T23:59:59.999999999Z')
  })

  it('duration_conversions', () => {
    expect(call('duration_to_string', dur('1000000s'))).toBe('1000000s')
  })

  it('timestamp_selectors', () => {
    const t = ts('2009-02-13T23:31:30Z')
    expect(call('timestamp_to_day_of_month_1_based', t)).toBe(13)
    expect(call('timestamp_to_day_of_month', t)).toBe(12)
    expect(call('timestamp_to_day_of_week', t)).toBe(5)
    expect(call('timestamp_to_day_of_year', t)).toBe(43)
    expect(call('timestamp_to_year', t)).toBe(2009)
    expect(call('timestamp_to_hours', t)).toBe(23)
    expect(call('timestamp_to_milliseconds', ts('2009-02-13T23:31:20.123456789Z'))).toBe(123)
    expect(call('timestamp_to_minutes', t)).toBe(31)
    expect(call('timestamp_to_month', t)).toBe(1)
    expect(call('timestamp_to_seconds', t)).toBe(30)
  })

  it('timestamp_selectors_tz', () => {
    const t = ts('2009-02-13T23:31:30Z')
    const t2 = ts('2009-02-13T02:00:00Z')
    expect(call('timestamp_to_day_of_month_1_based_with_tz', t, 'Australia/Sydney')).toBe(14)
    expect(call('timestamp_to_day_of_month_with_tz', t, 'US/Central')).toBe(12)
    expect(call('timestamp_to_day_of_month_with_tz', t, '+11:00')).toBe(13)
    expect(call('timestamp_to_day_of_month_with_tz', t2, '-02:30')).toBe(11)
    expect(call('timestamp_to_day_of_month_with_tz', t2, 'America/St_Johns')).toBe(11)
    expect(call('timestamp_to_day_of_week_with_tz', t, 'UTC')).toBe(5)
    expect(call('timestamp_to_day_of_year_with_tz', t, 'US/Central')).toBe(43)
    expect(call('timestamp_to_year_with_tz', t, '-09:30')).toBe(2009)
    expect(call('timestamp_to_hours_with_tz', t, '02:00')).toBe(1)
    expect(call('timestamp_to_minutes_with_tz', t, 'Asia/Kathmandu')).toBe(16)
    expect(call('timestamp_to_month_with_tz', t, 'UTC')).toBe(1)
    expect(call('timestamp_to_seconds_tz', t, '-00:00')).toBe(30)
  })

  it('timestamp_arithmetic', () => {
    expect(call('add_timestamp_duration', ts('2009-02-13T23:00:00Z'), dur('240s'))).toEqual(ts('2009-02-13T23:04:00Z'))
    expect(call('add_duration_timestamp', dur('120s'), ts('2009-02-13T23:01:00Z'))).toEqual(ts('2009-02-13T23:03:00Z'))
    expect(call('add_duration_duration', dur('600s'), dur('50s'))).toEqual(dur('650s'))
    expect(call('add_timestamp_duration', ts('0001-01-01T00:00:01.000000001Z'), dur('-999999999ns'))).toEqual(
      ts('0001-01-01T00:00:00.000000002Z'),
    )
    expect(call('add_timestamp_duration', ts('0001-01-01T00:00:01.999999999Z'), dur('999999999ns'))).toEqual(
      ts('0001-01-01T00:00:02.999999998Z'),
    )
    expect(call('subtract_timestamp_duration', ts('2009-02-13T23:10:00Z'), dur('600s'))).toEqual(
      ts('2009-02-13T23:00:00Z'),
    )
    expect(call('subtract_timestamp_timestamp', ts('2009-02-13T23:31:00Z'), ts('2009-02-13T23:29:00Z'))).toEqual(
      dur('120s'),
    )
    expect(call('subtract_duration_duration', dur('900s'), dur('42s'))).toEqual(dur('858s'))
  })

  it('comparisons', () => {
    expect(call('less_equals_timestamp', ts('2009-02-13T23:00:00Z'), ts('2009-02-13T23:00:00Z'))).toBe(true)
    expect(call('less_equals_timestamp', ts('2009-02-13T23:00:00Z'), ts('2009-02-13T22:59:59Z'))).toBe(false)
    expect(call('less_equals_duration', dur('200s'), dur('200s'))).toBe(true)
    expect(call('less_equals_duration', dur('300s'), dur('200s'))).toBe(false)
    expect(call('less_timestamp', ts('2009-02-13T23:00:00Z'), ts('2009-03-13T23:00:00Z'))).toBe(true)
    expect(call('less_duration', dur('200s'), dur('300s'))).toBe(true)
    expect(call('greater_equals_timestamp', ts('2009-02-13T23:00:00Z'), ts('2009-02-13T23:00:00Z'))).toBe(true)
    expect(call('greater_equals_timestamp', ts('2009-02-13T22:58:00Z'), ts('2009-02-13T23:00:00Z'))).toBe(false)
    expect(call('greater_equals_duration', dur('200s'), dur('200s'))).toBe(true)
    expect(call('greater_equals_duration', dur('120s'), dur('200s'))).toBe(false)
    expect(call('greater_timestamp', ts('2009-02-13T23:59:00Z'), ts('2009-02-13T23:00:00Z'))).toBe(true)
    expect(call('greater_duration', dur('300s'), dur('200s'))).toBe(true)
  })

  it('duration_converters', () => {
    expect(call('duration_to_hours', dur('10000s'))).toBe(2)
    // The textproto wants the millisecond component (321); cel-go returns Duration.Milliseconds(), the total, and
    // lists this case in its conformance skips (conformance/BUILD.bazel: duration_converters/get_milliseconds).
    expect(call('duration_to_milliseconds', dur('123.321456789s'))).toBe(123321)
    expect(call('duration_to_minutes', dur('3730s'))).toBe(62)
    expect(call('duration_to_seconds', dur('3730s'))).toBe(3730)
  })

  // The textproto only says "range"; the texts are cel-go's (string.go, overflow.go, err.go).
  it('timestamp_range', () => {
    expect(errorOf(() => ts('0000-01-01T00:00:00Z'))).toBe('timestamp overflow')
    expect(errorOf(() => ts('10000-01-01T00:00:00Z'))).toBe(
      "type conversion error from 'string' to 'google.protobuf.Timestamp'",
    )
    expect(errorOf(() => addTimestampDuration(ts('0001-01-01T00:00:00Z'), dur('-1s')))).toBe('timestamp overflow')
    expect(errorOf(() => addTimestampDuration(ts('9999-12-31T23:59:59Z'), dur('1s')))).toBe('timestamp overflow')
    expect(errorOf(() => addTimestampDuration(ts('9999-12-31T23:59:59.999999999Z'), dur('1ns')))).toBe(
      'timestamp overflow',
    )
    expect(errorOf(() => addTimestampDuration(ts('0001-01-01T00:00:00Z'), dur('-1ns')))).toBe('timestamp overflow')
    expect(errorOf(() => subtractTimestamps(ts('9999-12-31T23:59:59Z'), ts('0001-01-01T00:00:00Z')))).toBe(
      'integer overflow',
    )
    expect(errorOf(() => subtractTimestamps(ts('0001-01-01T00:00:00Z'), ts('9999-12-31T23:59:59Z')))).toBe(
      'integer overflow',
    )
  })

  it('duration_range: these literals already overflow Go int64 nanoseconds', () => {
    for (const s of ['-320000000000s', '320000000000s', '-200000000000s', '200000000000s']) {
      expect(errorOf(() => dur(s))).toBe("type conversion error from 'string' to 'google.protobuf.Duration'")
    }
  })
})

describe('cel-go common/types/timestamp_test.go', () => {
  const unix = (s: number, n = 0) => new Timestamp(s, n)

  it('TestTimestampConvertToType', () => {
    const t = unix(7654, 321)
    expect(call('timestamp_to_int64', t)).toBe(7654)
    expect(call('timestamp_to_string', t)).toBe('1970-01-01T02:07:34.000000321Z')
    expect(call('timestamp_to_timestamp', t)).toBe(t)
  })

  it('TestTimestampOperators', () => {
    expect(addTimestampDuration(unix(3506), ns(3_600_000_000_000n - 1_000_000n))).toEqual(unix(7105, 999_000_000))
    expect(addTimestampDuration(unix(3506), ns(3_600_000_000_001n))).toEqual(unix(7106, 1))
    expect(errorOf(() => addTimestampDuration(unix(MAX_UNIX_SECONDS), sec(1)))).toBe('timestamp overflow')
    expect(addTimestampDuration(addTimestampDuration(unix(1), ns(1)), ns(-999_999_999))).toEqual(unix(0, 2))
    expect(addTimestampDuration(addTimestampDuration(unix(1), ns(999_999_999)), ns(999_999_999))).toEqual(
      unix(2, 999_999_998),
    )
    expect(subtractTimestamps(unix(100), unix(1))).toEqual(sec(99))
    expect(subtractTimestampDuration(unix(3506), sec(3600))).toEqual(unix(-94))
    expect(errorOf(() => subtractTimestampDuration(unix(-62135596800), sec(1)))).toBe('timestamp overflow')
    expect(subtractTimestampDuration(unix(-62135596800, 2), ns(-999_999_999))).toEqual(unix(-62135596799, 1))
    expect(subtractTimestamps(unix(2, 1), unix(0, 999_999_999))).toEqual(ns(1_000_000_002))
    expect(subtractTimestamps(unix(1, 1), unix(2, 999_999_999))).toEqual(ns(-2_000_000_000 + 2))
    expect(errorOf(() => subtractTimestampDuration(unix(1), ns(MIN_INT64)))).toBe('integer overflow')
  })

  it('TestTimestampGet* (America/Phoenix is UTC-7 all year)', () => {
    const t = unix(7506) // 1970-01-01T02:05:06Z
    expect(call('timestamp_to_day_of_year', t)).toBe(0)
    expect(call('timestamp_to_day_of_year_with_tz', t, 'America/Phoenix')).toBe(364)
    expect(call('timestamp_to_day_of_year_with_tz', t, '-07:00')).toBe(364)
    expect(call('timestamp_to_month', t)).toBe(0)
    expect(call('timestamp_to_month_with_tz', t, 'America/Phoenix')).toBe(11)
    expect(call('timestamp_to_hours', t)).toBe(2)
    expect(call('timestamp_to_hours_with_tz', t, 'America/Phoenix')).toBe(19)
    expect(call('timestamp_to_minutes', t)).toBe(5)
    expect(call('timestamp_to_minutes_with_tz', t, 'America/Phoenix')).toBe(5)
    expect(call('timestamp_to_seconds', t)).toBe(6)
    expect(call('timestamp_to_seconds_tz', t, 'America/Phoenix')).toBe(6)
  })
})

describe('cel-go common/types/duration_test.go', () => {
  const d = ns(7506n * 1_000_000_000n + 567n)

  it('TestDurationOperators', () => {
    expect(addDurations(d, d)).toEqual(ns(2n * (7506n * 1_000_000_000n + 567n)))
    expect(errorOf(() => addDurations(ns(MAX_INT64), ns(1)))).toBe('integer overflow')
    expect(errorOf(() => addDurations(ns(MAX_INT64), sec(1)))).toBe('integer overflow')
    expect(errorOf(() => addDurations(ns(MIN_INT64), sec(-1)))).toBe('integer overflow')
    expect(subtractDurations(d, d)).toEqual(ns(0))
    expect(errorOf(() => subtractDurations(ns(MAX_INT64), ns(-1)))).toBe('integer overflow')
    expect(errorOf(() => subtractDurations(ns(MIN_INT64), ns(1)))).toBe('integer overflow')
  })

  it('TestDurationConvertToType_Identity', () => {
    const d2 = ns(7506n * 1_000_000_000n + 1000n)
    expect(call('duration_to_string', d2)).toBe('7506.000001s')
    expect(call('duration_to_int64', d2)).toBe(7506000001000)
    expect(call('duration_to_duration', d2)).toBe(d2)
  })

  it('TestDurationNegate', () => {
    expect(negateDuration(ns(1234n * 1_000_000_000n + 1n))).toEqual(ns(-1234n * 1_000_000_000n - 1n))
    expect(errorOf(() => negateDuration(ns(MIN_INT64)))).toBe('integer overflow')
    expect(negateDuration(ns(MAX_INT64))).toEqual(ns(MIN_INT64 + 1n))
  })

  it('TestDurationGet*', () => {
    const d3 = sec(7506)
    expect(durationHours(d3)).toBe(2)
    expect(durationMinutes(d3)).toBe(125)
    expect(durationSeconds(d3)).toBe(7506)
    expect(durationMilliseconds(d3)).toBe(7506000)
  })

  it('int(duration) outside the safe range is a bigint', () => {
    expect(call('duration_to_int64', ns(MAX_INT64))).toBe(MAX_INT64)
  })
})

describe('cel-go common/stdlib/standard.go overload examples', () => {
  it('conversions', () => {
    expect(call('int64_to_timestamp', 1)).toEqual(ts('1970-01-01T00:00:01Z'))
    expect(call('timestamp_to_int64', ts('1970-01-01T00:00:01Z'))).toBe(1)
    expect(call('duration_to_int64', dur('1s'))).toBe(1000000000)
    expect(call('duration_to_string', dur('1h30m'))).toBe('5400s')
    expect(call('string_to_duration', '1h2m3s')).toEqual(dur('3723s'))
    expect(call('timestamp_to_string', ts('1970-01-01T00:00:00Z'))).toBe('1970-01-01T00:00:00Z')
  })

  it('arithmetic', () => {
    expect(call('add_duration_duration', dur('1m'), dur('1s'))).toEqual(dur('1m1s'))
    expect(call('add_duration_timestamp', dur('24h'), ts('2023-01-01T00:00:00Z'))).toEqual(ts('2023-01-02T00:00:00Z'))
    expect(call('add_timestamp_duration', ts('2023-01-01T00:00:00Z'), dur('24h1m2s'))).toEqual(
      ts('2023-01-02T00:01:02Z'),
    )
    expect(call('subtract_duration_duration', dur('1m'), dur('1s'))).toEqual(dur('59s'))
    expect(call('subtract_timestamp_duration', ts('2023-01-10T12:00:00Z'), dur('12h'))).toEqual(
      ts('2023-01-10T00:00:00Z'),
    )
    expect(call('subtract_timestamp_timestamp', ts('2023-01-10T12:00:00Z'), ts('2023-01-10T00:00:00Z'))).toEqual(
      dur('12h'),
    )
  })

  it('accessors', () => {
    const t = ts('2023-07-14T10:30:45.123Z')
    expect(call('timestamp_to_year', t)).toBe(2023)
    expect(call('timestamp_to_year_with_tz', ts('2023-01-01T05:30:00Z'), '-08:00')).toBe(2022)
    expect(call('timestamp_to_month', t)).toBe(6)
    expect(call('timestamp_to_month_with_tz', ts('2023-01-01T05:30:00Z'), 'America/Los_Angeles')).toBe(11)
    expect(call('timestamp_to_day_of_year', ts('2023-01-02T00:00:00Z'))).toBe(1)
    expect(call('timestamp_to_day_of_year_with_tz', ts('2023-01-01T05:00:00Z'), 'America/Los_Angeles')).toBe(364)
    expect(call('timestamp_to_day_of_month', t)).toBe(13)
    expect(call('timestamp_to_day_of_month_with_tz', ts('2023-07-01T05:00:00Z'), 'America/Los_Angeles')).toBe(29)
    expect(call('timestamp_to_day_of_month_1_based', t)).toBe(14)
    expect(call('timestamp_to_day_of_month_1_based_with_tz', ts('2023-07-01T05:00:00Z'), 'America/Los_Angeles')).toBe(
      30,
    )
    expect(call('timestamp_to_day_of_week', t)).toBe(5)
    expect(call('timestamp_to_day_of_week_with_tz', ts('2023-07-16T05:00:00Z'), 'America/Los_Angeles')).toBe(6)
    expect(call('timestamp_to_hours', t)).toBe(10)
    // standard.go's example comment says 2, but July is PDT (UTC-7) in the tz database Go reads: 10:30Z is 03:30
    expect(call('timestamp_to_hours_with_tz', t, 'America/Los_Angeles')).toBe(3)
    expect(call('timestamp_to_minutes', t)).toBe(30)
    expect(call('timestamp_to_minutes_with_tz', t, 'America/Los_Angeles')).toBe(30)
    expect(call('timestamp_to_seconds', t)).toBe(45)
    expect(call('timestamp_to_seconds_tz', t, 'America/Los_Angeles')).toBe(45)
    expect(call('timestamp_to_milliseconds', t)).toBe(123)
    expect(call('timestamp_to_milliseconds_with_tz', t, 'America/Los_Angeles')).toBe(123)
    expect(call('duration_to_hours', dur('3723s'))).toBe(1)
    expect(call('duration_to_minutes', dur('3723s'))).toBe(62)
    expect(call('duration_to_seconds', dur('3723.456s'))).toBe(3723)
  })
})

describe('timestamp(string) is Go time.Parse(time.RFC3339, s) (src/time/format.go)', () => {
  const reject = "type conversion error from 'string' to 'google.protobuf.Timestamp'"

  it('accepts offsets and keeps them for string() (cel-go Timestamp.ConvertToType: t.Format(RFC3339Nano))', () => {
    const t = ts('2009-02-13T23:31:30+01:00')
    expect(t.seconds).toBe(1234567890 - 3600)
    expect(formatTimestamp(t)).toBe('2009-02-13T23:31:30+01:00')
    expect(formatTimestamp(ts('2009-02-13T23:31:30.5-08:30'))).toBe('2009-02-13T23:31:30.5-08:30')
    expect(formatTimestamp(ts('2009-02-13T23:31:30+00:00'))).toBe('2009-02-13T23:31:30Z')
    expect(formatTimestamp(ts('2009-02-13T23:31:30-00:00'))).toBe('2009-02-13T23:31:30Z')
    // Duration.Add returns time.Unix(...).In(x.Location())
    expect(formatTimestamp(addTimestampDuration(t, dur('1h')))).toBe('2009-02-14T00:31:30+01:00')
    // accessors without a zone are UTC (DefaultUTCTimeZone)
    expect(call('timestamp_to_hours', t)).toBe(22)
  })

  it('is lenient where Go is: 1-digit hour, comma fraction, long fractions truncated, offsets up to 24:60', () => {
    expect(ts('2009-02-13T3:31:30Z')).toEqual(ts('2009-02-13T03:31:30Z')) // stdHour: getnum(value, false)
    expect(ts('2009-02-13T23:31:30,5Z').nanos).toBe(500_000_000) // commaOrPeriod
    expect(ts('2009-02-13T23:31:30.1234567891Z').nanos).toBe(123_456_789) // parseNanoseconds keeps 9 digits
    expect(ts('2009-02-13T23:31:30.000000001Z').nanos).toBe(1)
    expect(ts('2009-02-13T23:31:30+24:00').seconds).toBe(1234567890 - 86400) // "range test use > rather than >="
    expect(ts('2009-02-13T23:31:30-23:60').seconds).toBe(1234567890 + 86400)
  })

  it('rejects what Go rejects', () => {
    for (const s of [
      '',
      '2009-02-13',
      '2009-02-13t23:31:30Z',
      '2009-02-13T23:31:30z',
      '2009-02-13 23:31:30Z',
      '2009-02-13T23:31:30',
      '2009-02-13T23:31:30.Z',
      '2009-02-13T23:31:30+0100',
      '2009-02-13T23:31:30+25:00',
      '2009-02-13T23:31:30+01:61',
      '2009-02-13T23:31:30Z ',
      ' 2009-02-13T23:31:30Z',
      '2009-02-30T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2009-13-01T00:00:00Z',
      '2009-00-01T00:00:00Z',
      '2009-02-00T00:00:00Z',
      '2009-2-13T23:31:30Z',
      '2009-02-13T24:00:00Z',
      '2009-02-13T23:60:00Z',
      '2009-02-13T23:31:60Z',
      '2009-02-13T23:1:30Z',
      '+2009-02-13T23:31:30Z',
    ]) {
      expect(parseRFC3339(s), s).toBeUndefined()
      expect(errorOf(() => parseTimestamp(s))).toBe(reject)
    }
    expect(ts('2008-02-29T00:00:00Z').seconds).toBe(1204243200)
    expect(ts('2000-02-29T00:00:00Z').seconds).toBe(951782400)
  })

  it('checks cel-go range [minUnixTime, maxUnixTime] on the instant, not the written date', () => {
    expect(ts('0001-01-01T00:00:00Z').seconds).toBe(MIN_UNIX_SECONDS)
    expect(ts('9999-12-31T23:59:59.999999999Z').seconds).toBe(MAX_UNIX_SECONDS)
    expect(errorOf(() => ts('0001-01-01T00:00:00+01:00'))).toBe('timestamp overflow')
    expect(errorOf(() => ts('9999-12-31T23:59:59-01:00'))).toBe('timestamp overflow')
    const early = ts('0000-12-31T23:00:00-01:00')
    expect(early.seconds).toBe(MIN_UNIX_SECONDS)
    expect(formatTimestamp(early)).toBe('0000-12-31T23:00:00-01:00')
  })

  it('timestamp(int) is Unix seconds within the same range (cel-go int.go)', () => {
    expect(formatTimestamp(timestampFromUnix(0))).toBe('1970-01-01T00:00:00Z')
    expect(formatTimestamp(timestampFromUnix(-1))).toBe('1969-12-31T23:59:59Z')
    expect(formatTimestamp(timestampFromUnix(MIN_UNIX_SECONDS))).toBe('0001-01-01T00:00:00Z')
    expect(errorOf(() => timestampFromUnix(MAX_UNIX_SECONDS + 1))).toBe('timestamp overflow')
    expect(errorOf(() => timestampFromUnix(MIN_UNIX_SECONDS - 1))).toBe('timestamp overflow')
    expect(errorOf(() => timestampFromUnix(MAX_INT64))).toBe('timestamp overflow')
  })

  it('round-trips every second of the range through string()', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MIN_UNIX_SECONDS, max: MAX_UNIX_SECONDS }),
        fc.integer({ min: 0, max: 999_999_999 }),
        (s, n) => {
          const t = new Timestamp(s, n)
          const back = ts(formatTimestamp(t))
          expect([back.seconds, back.nanos]).toEqual([s, n])
          // the same instant as JS Date sees it (milliseconds)
          expect(formatTimestamp(new Timestamp(s, 0)).slice(0, 19)).toBe(new Date(s * 1000).toISOString().slice(0, 19))
        },
      ),
    )
  })
})

describe('duration(string) is Go time.ParseDuration (src/time/time_test.go)', () => {
  const H = 3_600_000_000_000n
  const M = 60_000_000_000n
  const S = 1_000_000_000n
  const MS = 1_000_000n
  const US = 1_000n
  const parseDurationTests: [string, bigint][] = [
    ['0', 0n],
    ['5s', 5n * S],
    ['30s', 30n * S],
    ['1478s', 1478n * S],
    ['-5s', -5n * S],
    ['+5s', 5n * S],
    ['-0', 0n],
    ['+0', 0n],
    ['5.0s', 5n * S],
    ['5.6s', 5n * S + 600n * MS],
    ['5.s', 5n * S],
    ['.5s', 500n * MS],
    ['1.0s', S],
    ['1.00s', S],
    ['1.004s', S + 4n * MS],
    ['1.0040s', S + 4n * MS],
    ['100.00100s', 100n * S + MS],
    ['10ns', 10n],
    ['11us', 11n * US],
    ['12µs', 12n * US],
    ['12μs', 12n * US],
    ['13ms', 13n * MS],
    ['14s', 14n * S],
    ['15m', 15n * M],
    ['16h', 16n * H],
    ['3h30m', 3n * H + 30n * M],
    ['10.5s4m', 4n * M + 10n * S + 500n * MS],
    ['-2m3.4s', -(2n * M + 3n * S + 400n * MS)],
    ['1h2m3s4ms5us6ns', H + 2n * M + 3n * S + 4n * MS + 5n * US + 6n],
    ['39h9m14.425s', 39n * H + 9n * M + 14n * S + 425n * MS],
    ['52763797000ns', 52763797000n],
    ['0.3333333333333333333h', 20n * M],
    ['9007199254740993ns', (1n << 53n) + 1n],
    ['9223372036854775807ns', MAX_INT64],
    ['9223372036854775.807us', MAX_INT64],
    ['9223372036s854ms775us807ns', MAX_INT64],
    ['-9223372036854775808ns', MIN_INT64],
    ['-9223372036854775.808us', MIN_INT64],
    ['-9223372036s854ms775us808ns', MIN_INT64],
    ['-2562047h47m16.854775808s', MIN_INT64],
    ['0.100000000000000000000h', 6n * M],
    ['0.830103483285477580700h', 49n * M + 48n * S + 372539827n],
  ]
  const parseDurationErrorTests: [string, string][] = [
    ['', '""'],
    ['3', '"3"'],
    ['-', '"-"'],
    ['s', '"s"'],
    ['.', '"."'],
    ['-.', '"-."'],
    ['.s', '".s"'],
    ['+.s', '"+.s"'],
    ['1d', '"1d"'],
    ['\uFFFD', '"\\xef\\xbf\\xbd"'],
    ['\uFFFD hello \uFFFD world', '"\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"'],
    ['9223372036854775810ns', '"9223372036854775810ns"'],
    ['9223372036854775808ns', '"9223372036854775808ns"'],
    ['-9223372036854775809ns', '"-9223372036854775809ns"'],
    ['9223372036854776us', '"9223372036854776us"'],
    ['3000000h', '"3000000h"'],
    ['9223372036854775.808us', '"9223372036854775.808us"'],
    ['9223372036854ms775us808ns', '"9223372036854ms775us808ns"'],
  ]

  it('parseDurationTests', () => {
    for (const [s, want] of parseDurationTests) expect(parseGoDuration(s), s).toBe(want)
  })

  it('parseDurationErrorTests (the error quotes the input)', () => {
    for (const [s, quoted] of parseDurationErrorTests) {
      const got = parseGoDuration(s)
      expect(typeof got, s).toBe('string')
      expect(got as string).toContain(quoted)
      expect(errorOf(() => parseDuration(s))).toBe("type conversion error from 'string' to 'google.protobuf.Duration'")
    }
  })

  it('error texts of time.ParseDuration', () => {
    expect(parseGoDuration('1d')).toBe('time: unknown unit "d" in duration "1d"')
    expect(parseGoDuration('3')).toBe('time: missing unit in duration "3"')
    expect(parseGoDuration('00')).toBe('time: missing unit in duration "00"')
    expect(parseGoDuration('x')).toBe('time: invalid duration "x"')
    expect(parseGoDuration('1s ')).toBe('time: unknown unit "s " in duration "1s "')
  })

  it('the number fast path agrees with the line-by-line port', () => {
    const piece = fc.oneof(
      fc.constantFrom('ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h', 'd', '', '.', '-', 'x', 'sm'),
      fc.stringMatching(/^[0-9]{0,20}$/),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const s = parts.join('')
        expect(parseGoDuration(s)).toEqual(parseDurationExact(s))
      }),
      { numRuns: 5000 },
    )
  })
})

describe('string(duration): strconv.FormatFloat(d.Seconds(), f, -1, 64) + "s" (cel-go duration.go)', () => {
  it('prints seconds in shortest form', () => {
    expect(formatDuration(dur('1m'))).toBe('60s') // cel-spec / Kubernetes docs
    expect(formatDuration(dur('1.5s'))).toBe('1.5s')
    expect(formatDuration(ns(-1))).toBe('-0.000000001s')
    expect(formatDuration(ns(1))).toBe('0.000000001s')
    expect(formatDuration(ns(150))).toBe('0.00000015s')
    expect(formatDuration(ns(0))).toBe('0s')
    expect(formatDuration(dur('-1.5h'))).toBe('-5400s')
  })

  it('goes through a float64, as Go does (largest durations lose their last digits)', () => {
    expect(formatDuration(ns(MAX_INT64))).toBe('9223372036.854776s')
    expect(formatDuration(ns(MIN_INT64))).toBe('-9223372036.854776s')
  })

  it('accessors truncate Go float64 results (Duration.Hours of 2000000h-1ns rounds up to 2000000)', () => {
    expect(durationHours(ns(2_000_000n * 3_600_000_000_000n - 1n))).toBe(2000000)
    expect(durationHours(dur('-1.5h'))).toBe(-1)
    expect(durationMinutes(dur('-90s'))).toBe(-1)
    expect(durationSeconds(ns(-1))).toBe(0)
    expect(Object.is(durationSeconds(ns(-1)), 0)).toBe(true)
    expect(durationMilliseconds(ns(-1_999_999))).toBe(-1)
  })
})

describe('duration(int) (declared int64_to_duration; cel-go Int.ConvertToType has no duration case)', () => {
  it('always fails', () => {
    expect(errorOf(() => call('int64_to_duration', 5))).toBe(
      "type conversion error from 'int' to 'google.protobuf.Duration'",
    )
  })
})

describe('time zone arguments (cel-go inTimeZone, Go time.LoadLocation, strconv.Atoi)', () => {
  const t = ts('2009-02-13T23:31:30Z')

  it('fixed offsets: hours and minutes, sign taken from the first character', () => {
    expect(call('timestamp_to_hours_with_tz', t, '+05:30')).toBe(5)
    expect(call('timestamp_to_minutes_with_tz', t, '+05:30')).toBe(1)
    expect(call('timestamp_to_minutes_with_tz', t, '-00:30')).toBe(1)
    expect(call('timestamp_to_hours_with_tz', t, '-00:30')).toBe(23)
    expect(call('timestamp_to_hours_with_tz', t, '+1:00')).toBe(0)
    expect(resolveZone('-08:00')).toBe(-8 * 3600)
    expect(resolveZone('+14:00')).toBe(14 * 3600)
  })

  it('IANA names, including daylight saving time and LMT before 1883', () => {
    expect(call('timestamp_to_hours_with_tz', ts('2023-07-14T10:30:45Z'), 'America/New_York')).toBe(6)
    expect(call('timestamp_to_hours_with_tz', ts('2023-01-14T10:30:45Z'), 'America/New_York')).toBe(5)
    // New York LMT was -4:56:02 (tz database)
    expect(call('timestamp_to_seconds_tz', ts('1800-01-01T00:00:00Z'), 'America/New_York')).toBe(58)
    expect(call('timestamp_to_year_with_tz', ts('0001-01-01T00:00:00Z'), 'America/New_York')).toBe(0)
    expect(call('timestamp_to_year_with_tz', ts('9999-12-31T23:00:00Z'), 'Asia/Tokyo')).toBe(10000)
    // tz database: New York springs forward at 2023-03-12 07:00:00Z (01:59:59 EST, then 03:00:00 EDT)
    expect(call('timestamp_to_hours_with_tz', ts('2023-03-12T06:59:59Z'), 'America/New_York')).toBe(1)
    expect(call('timestamp_to_hours_with_tz', ts('2023-03-12T07:00:00Z'), 'America/New_York')).toBe(3)
    expect(call('timestamp_to_hours_with_tz', t, 'UTC')).toBe(23)
    expect(call('timestamp_to_hours_with_tz', t, 'Etc/GMT+5')).toBe(18) // POSIX sign: GMT+5 is UTC-5
    expect(call('timestamp_to_hours_with_tz', t, '')).toBe(23) // LoadLocation("") is UTC
  })

  it('errors', () => {
    expect(errorOf(() => resolveZone('Mars/Olympus'))).toBe('unknown time zone Mars/Olympus')
    expect(errorOf(() => resolveZone('america/new_york'))).toBe('unknown time zone america/new_york')
    expect(errorOf(() => resolveZone('PST'))).toBe('unknown time zone PST')
    expect(errorOf(() => resolveZone('../etc/passwd'))).toBe('time: invalid location name')
    expect(errorOf(() => resolveZone('/etc/localtime'))).toBe('time: invalid location name')
    expect(errorOf(() => resolveZone('+aa:00'))).toBe('strconv.Atoi: parsing "+aa": invalid syntax')
    expect(errorOf(() => resolveZone('05:'))).toBe('strconv.Atoi: parsing "": invalid syntax')
    expect(errorOf(() => resolveZone('05:3 '))).toBe('strconv.Atoi: parsing "3 ": invalid syntax')
    expect(errorOf(() => call('timestamp_to_milliseconds_with_tz', t, 'Nowhere'))).toBe('unknown time zone Nowhere')
  })

  it('strconv.Atoi (src/strconv/atoi.go and atoi_test.go)', () => {
    expect(goAtoi('-12')).toBe(-12n)
    expect(goAtoi('+12')).toBe(12n)
    expect(goAtoi('9223372036854775807')).toBe(MAX_INT64)
    expect(goAtoi('-9223372036854775808')).toBe(MIN_INT64)
    expect(goAtoi('9223372036854775808')).toBe('strconv.Atoi: parsing "9223372036854775808": value out of range')
    expect(goAtoi('12345678901234567890x')).toBe('strconv.Atoi: parsing "12345678901234567890x": invalid syntax')
    expect(goAtoi('123456789012345678901x')).toBe('strconv.Atoi: parsing "123456789012345678901x": value out of range')
    expect(goAtoi('+')).toBe('strconv.Atoi: parsing "+": invalid syntax')
    expect(goAtoi('1_000')).toBe('strconv.Atoi: parsing "1_000": invalid syntax')
    expect(goAtoi('\t1')).toBe('strconv.Atoi: parsing "\\t1": invalid syntax')
  })
})
