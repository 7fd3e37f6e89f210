// Runtime kinds of CEL values. Plain JS values carry most of CEL (see values.ts); the few
// that JSON cannot express are instances of CelObject subclasses, which carry their kind.

export const Kind = {
  Null: 0,
  Bool: 1,
  Int: 2,
  Uint: 3,
  Double: 4,
  String: 5,
  Bytes: 6,
  List: 7,
  Map: 8,
  Timestamp: 9,
  Duration: 10,
  Type: 11,
  Optional: 12,
  /** Library-defined values (Kubernetes Quantity, IP, CIDR, URL, Semver, ...). */
  Opaque: 13,
} as const
export type Kind = (typeof Kind)[keyof typeof Kind]

/** Base of every class-backed CEL value; `kind` lives on the prototype of each subclass. */
export abstract class CelObject {
  abstract get kind(): Kind
}
