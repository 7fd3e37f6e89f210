import { type FunctionDecl, fn, memberOverload, overload } from '../functions.js'
import { BoolType, DurationType, IntType, StringType, TimestampType } from '../types/types.js'
import { compareTimestamps } from '../values/equality.js'
import {
  addDurations,
  addTimestampDuration,
  civilFromDays,
  type Duration,
  daysFromCivil,
  durationHours,
  durationMilliseconds,
  durationMinutes,
  durationSeconds,
  formatDuration,
  formatTimestamp,
  intToDuration,
  parseDuration,
  parseTimestamp,
  subtractDurations,
  subtractTimestampDuration,
  subtractTimestamps,
  type Timestamp,
  timestampFromUnix,
} from '../values/time.js'
import { localSeconds, resolveZone } from '../values/timezone.js'
import { mkInt } from '../values/values.js'

// cel-go v0.26 timestamp / duration functions (common/stdlib/standard.go, overload ids from
// common/overloads/overloads.go): conversions, arithmetic, ordering and the accessors. Accessors
// without a time zone use UTC (cel-go binds them to inTimeZone(ts, "UTC"), and Kubernetes sets
// DefaultUTCTimeZone); month, day of month, day of year and day of week are 0-based, getDate 1-based.

const T = TimestampType
const D = DurationType
const I = IntType
const S = StringType
const B = BoolType

// ---- calendar fields of a wall-clock time in seconds since the epoch

function days(local: number): number {
  return Math.floor(local / 86400)
}
function secondOfDay(local: number): number {
  return local - days(local) * 86400
}
const fullYear = (local: number) => civilFromDays(days(local)) >> 9
const month0 = (local: number) => ((civilFromDays(days(local)) >> 5) & 15) - 1
const date1 = (local: number) => civilFromDays(days(local)) & 31
const dayOfMonth0 = (local: number) => (civilFromDays(days(local)) & 31) - 1
const dayOfWeek = (local: number) => (((days(local) + 4) % 7) + 7) % 7 // 1970-01-01 was a Thursday
const dayOfYear0 = (local: number) => {
  const dn = days(local)
  return dn - daysFromCivil(civilFromDays(dn) >> 9, 1, 1)
}
const hours = (local: number) => Math.floor(secondOfDay(local) / 3600)
const minutes = (local: number) => Math.floor(secondOfDay(local) / 60) % 60
const seconds = (local: number) => secondOfDay(local) % 60

/** A timestamp accessor: `name()` in UTC and `name(tz)`; getHours … getMilliseconds also take a duration. */
function accessor(name: string, id: string, tzId: string, field: (local: number) => number): FunctionDecl {
  return fn(
    name,
    memberOverload(id, [T], I, (t: Timestamp) => field(t.seconds)),
    memberOverload(tzId, [T, S], I, (t: Timestamp, tz: string) => field(localSeconds(t.seconds, resolveZone(tz)))),
  )
}

function withDuration(decl: FunctionDecl, id: string, f: (d: Duration) => number): FunctionDecl {
  return fn(decl.name, ...decl.overloads, memberOverload(id, [D], I, f))
}

const millis = (t: Timestamp) => Math.floor(t.nanos / 1e6)

export const timeFunctions: FunctionDecl[] = [
  fn(
    'timestamp',
    overload('timestamp_to_timestamp', [T], T, (t: Timestamp) => t),
    overload('int64_to_timestamp', [I], T, timestampFromUnix),
    overload('string_to_timestamp', [S], T, parseTimestamp),
  ),
  fn(
    'duration',
    overload('duration_to_duration', [D], D, (d: Duration) => d),
    overload('int64_to_duration', [I], D, intToDuration),
    overload('string_to_duration', [S], D, parseDuration),
  ),
  fn(
    'int',
    overload('duration_to_int64', [D], I, (d: Duration) => mkInt(d.nanos)),
    overload('timestamp_to_int64', [T], I, (t: Timestamp) => t.seconds),
  ),
  fn(
    'string',
    overload('duration_to_string', [D], S, formatDuration),
    overload('timestamp_to_string', [T], S, formatTimestamp),
  ),

  fn(
    '_+_',
    overload('add_duration_duration', [D, D], D, addDurations),
    overload('add_duration_timestamp', [D, T], T, (d: Duration, t: Timestamp) => addTimestampDuration(t, d)),
    overload('add_timestamp_duration', [T, D], T, addTimestampDuration),
  ),
  fn(
    '_-_',
    overload('subtract_duration_duration', [D, D], D, subtractDurations),
    overload('subtract_timestamp_duration', [T, D], T, subtractTimestampDuration),
    overload('subtract_timestamp_timestamp', [T, T], D, subtractTimestamps),
  ),
  fn(
    '_<_',
    overload('less_timestamp', [T, T], B, (a: Timestamp, b: Timestamp) => compareTimestamps(a, b) < 0),
    overload('less_duration', [D, D], B, (a: Duration, b: Duration) => a.nanos < b.nanos),
  ),
  fn(
    '_<=_',
    overload('less_equals_timestamp', [T, T], B, (a: Timestamp, b: Timestamp) => compareTimestamps(a, b) <= 0),
    overload('less_equals_duration', [D, D], B, (a: Duration, b: Duration) => a.nanos <= b.nanos),
  ),
  fn(
    '_>_',
    overload('greater_timestamp', [T, T], B, (a: Timestamp, b: Timestamp) => compareTimestamps(a, b) > 0),
    overload('greater_duration', [D, D], B, (a: Duration, b: Duration) => a.nanos > b.nanos),
  ),
  fn(
    '_>=_',
    overload('greater_equals_timestamp', [T, T], B, (a: Timestamp, b: Timestamp) => compareTimestamps(a, b) >= 0),
    overload('greater_equals_duration', [D, D], B, (a: Duration, b: Duration) => a.nanos >= b.nanos),
  ),

  accessor('getFullYear', 'timestamp_to_year', 'timestamp_to_year_with_tz', fullYear),
  accessor('getMonth', 'timestamp_to_month', 'timestamp_to_month_with_tz', month0),
  accessor('getDayOfYear', 'timestamp_to_day_of_year', 'timestamp_to_day_of_year_with_tz', dayOfYear0),
  accessor('getDayOfMonth', 'timestamp_to_day_of_month', 'timestamp_to_day_of_month_with_tz', dayOfMonth0),
  accessor('getDate', 'timestamp_to_day_of_month_1_based', 'timestamp_to_day_of_month_1_based_with_tz', date1),
  accessor('getDayOfWeek', 'timestamp_to_day_of_week', 'timestamp_to_day_of_week_with_tz', dayOfWeek),
  withDuration(
    accessor('getHours', 'timestamp_to_hours', 'timestamp_to_hours_with_tz', hours),
    'duration_to_hours',
    durationHours,
  ),
  withDuration(
    accessor('getMinutes', 'timestamp_to_minutes', 'timestamp_to_minutes_with_tz', minutes),
    'duration_to_minutes',
    durationMinutes,
  ),
  withDuration(
    // cel-go's id really is `timestamp_to_seconds_tz` (no `_with`)
    accessor('getSeconds', 'timestamp_to_seconds', 'timestamp_to_seconds_tz', seconds),
    'duration_to_seconds',
    durationSeconds,
  ),
  fn(
    'getMilliseconds',
    memberOverload('timestamp_to_milliseconds', [T], I, millis),
    // the zone cannot change the milliseconds, but an invalid zone is still an error
    memberOverload('timestamp_to_milliseconds_with_tz', [T, S], I, (t: Timestamp, tz: string) => {
      resolveZone(tz)
      return millis(t)
    }),
    memberOverload('duration_to_milliseconds', [D], I, durationMilliseconds),
  ),
]
