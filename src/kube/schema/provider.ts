import type { TypeProvider } from '../../cel/checker/index.js'
import { listOf, mapOf, StringType, struct, type Type } from '../../cel/types/types.js'
import type { DeclType } from './decltype.js'
import { CEL_RESERVED } from './escaping.js'

/**
 * The checker's view of schema object types (apiserver pkg/cel/types.go DeclTypeProvider): object
 * nodes become struct types named as MaybeAssignTypeName names them (`<root>.<field>`,
 * `<root>.@idx` for list elements, `<root>.@elem` for map values), registered as they are reached,
 * so a large schema costs only what an expression touches.
 */
export class SchemaTypeProvider implements TypeProvider {
  private readonly names = new Map<string, DeclType>()

  /**
   * @param recognizeKeywordAsFieldName from compatibility version 1.31, `self.namespace` finds the
   *   property escaped as `__namespace__` (environment.go SetRecognizeKeywordAsFieldName).
   */
  constructor(private readonly recognizeKeywordAsFieldName: boolean) {}

  /** The CEL type of a declared type, naming its object types under `name`. */
  celType(decl: DeclType, name: string): Type {
    switch (decl.kind) {
      case 'simple':
        return decl.cel
      case 'list':
        return listOf(this.celType(decl.elem, `${name}.@idx`))
      case 'map':
        return mapOf(StringType, this.celType(decl.elem, `${name}.@elem`))
      case 'object':
        this.names.set(name, decl)
        return struct(name)
    }
  }

  findStructType(name: string): Type | undefined {
    return this.names.has(name) ? struct(name) : undefined
  }

  findFieldType(structType: Type, field: string): Type | undefined {
    const decl = this.names.get(structType.name)
    if (decl?.kind !== 'object') return undefined
    let f = decl.fields.get(field)
    if (f === undefined && this.recognizeKeywordAsFieldName && CEL_RESERVED.has(field))
      f = decl.fields.get(`__${field}__`)
    return f === undefined ? undefined : this.celType(f.type, `${structType.name}.${field}`)
  }

  fieldNames(structType: Type): string[] {
    const decl = this.names.get(structType.name)
    return decl?.kind === 'object' ? [...decl.fields.keys()] : []
  }
}
