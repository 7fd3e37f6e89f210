import type { TypeProvider } from '../cel/checker/index.js'
import { struct, type Type } from '../cel/types/types.js'

// Object types declared by name with their fields (apiserver pkg/cel/types.go NewObjectType as the
// admission compiler uses it for `kubernetes.AdmissionRequest`, `kubernetes.Namespace` and
// `kubernetes.variables`), chained to another provider (schemas of matched kinds) for other names.

export class ObjectTypes implements TypeProvider {
  private readonly types = new Map<string, Map<string, Type>>()

  constructor(private readonly next?: TypeProvider) {}

  /** Declares (or extends) object type `name`; returns its CEL type. */
  declare(name: string, fields: Readonly<Record<string, Type>> = {}): Type {
    let t = this.types.get(name)
    if (t === undefined) this.types.set(name, (t = new Map()))
    for (const [f, ft] of Object.entries(fields)) t.set(f, ft)
    return struct(name)
  }

  findStructType(name: string): Type | undefined {
    return this.types.has(name) ? struct(name) : this.next?.findStructType(name)
  }

  findFieldType(structType: Type, field: string): Type | undefined {
    const t = this.types.get(structType.name)
    if (t === undefined) return this.next?.findFieldType(structType, field)
    return t.get(field)
  }

  /** Message construction is the chained provider's (the mutation types `Object`, `JSONPatch`). */
  get newValue(): TypeProvider['newValue'] {
    const next = this.next
    return next?.newValue === undefined ? undefined : next.newValue.bind(next)
  }

  fieldNames(structType: Type): string[] {
    const t = this.types.get(structType.name)
    if (t === undefined) return this.next?.fieldNames?.(structType) ?? []
    return [...t.keys()]
  }
}
