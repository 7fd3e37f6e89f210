import type { Correlation } from '../../kube/schema/correlation.js'
import type { OpenAPISchema } from './convert.js'
import { Result } from './openapi-errors.js'
import { SchemaValidator, type ValidatorEnv, type ValueValidator } from './validator.js'

// apiextensions-apiserver pkg/apiserver/validation/ratcheting.go (CRDValidationRatcheting, GA in
// 1.33): the schema validator follows the correlated old object down properties, map entries and
// map-list items; wherever a node has errors and is deep-equal to its old value, they become
// warnings. Where no old value correlates (new fields, set/atomic list items, apiVersion and kind at
// the root) the subtree is validated plainly. allOf/anyOf/oneOf/not are validated plainly inside the
// node, so their errors ratchet with the node. The apiserver discards the warnings; they are kept
// here to tell which errors were ratcheted.

export class RatchetingValueValidator implements ValueValidator {
  constructor(
    private readonly correlation: Correlation,
    private readonly schema: OpenAPISchema,
    private readonly path: string,
    private readonly env: ValidatorEnv,
  ) {}

  validate(_value?: unknown): Result {
    const s = new SchemaValidator(this.schema, this.path, this.env, {
      newValidatorForField: (field, schema, path) => this.subPropertyValidator(field, schema, path),
      newValidatorForIndex: (index, schema, path) => this.subIndexValidator(index, schema, path),
    })
    const res = s.validate(this.correlation.value)
    if (res.isValid()) return res
    if (this.correlation.cachedDeepEqual()) return new Result().mergeAsWarnings(res)
    return res
  }

  private subPropertyValidator(field: string, schema: OpenAPISchema, path: string): ValueValidator {
    const child = this.correlation.key(field)
    // apiVersion and kind are converted alike on both sides, so a change there cannot be seen
    if (child === undefined || (this.path === '' && (field === 'kind' || field === 'apiVersion'))) {
      return new SchemaValidator(schema, path, this.env)
    }
    return new RatchetingValueValidator(child, schema, path, this.env)
  }

  private subIndexValidator(index: number, schema: OpenAPISchema, path: string): ValueValidator {
    const child = this.correlation.index(index)
    if (child === undefined) return new SchemaValidator(schema, path, this.env)
    return new RatchetingValueValidator(child, schema, path, this.env)
  }
}
