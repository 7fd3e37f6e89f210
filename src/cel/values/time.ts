import { CelObject, Kind } from './base.js'

// Timestamps and durations with nanosecond precision (JS Date has milliseconds only).

/** google.protobuf.Timestamp: seconds since the Unix epoch and nanoseconds in [0, 1e9). Range 0001-01-01..9999-12-31. */
export class Timestamp extends CelObject {
  constructor(
    readonly seconds: number,
    readonly nanos: number,
  ) {
    super()
  }
  override get kind(): Kind {
    return Kind.Timestamp
  }
}

/** google.protobuf.Duration as Go's time.Duration: int64 nanoseconds. */
export class Duration extends CelObject {
  constructor(readonly nanos: bigint) {
    super()
  }
  override get kind(): Kind {
    return Kind.Duration
  }
}
