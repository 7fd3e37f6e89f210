import { ErrorValue } from '../cel/common/errors.js'
import type { Activation } from '../cel/program.js'
import { type CelValue, Optional } from '../cel/values/values.js'
import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { errorString, type FieldError, FieldPath, field, OMIT, withReleaseValues } from '../kube/field.js'
import { type Correlation, MapList } from '../kube/schema/correlation.js'
import { type DeclType, schemaDeclType } from '../kube/schema/decltype.js'
import { escape } from '../kube/schema/escaping.js'
import { additionalPropertiesSchema, type JSONSchemaProps, type ValidationRule } from '../kube/schema/structural.js'
import { unstructuredToVal } from '../kube/schema/values.js'
import { isObject } from '../kube/values/json.js'
import { type CompilationResult, type CompileError, type CompileRulesOptions, compileRules } from './compilation.js'

// Running x-kubernetes-validations on a custom resource write (apiextensions-apiserver
// pkg/apiserver/schema/cel/validation.go Validator): every node's rules in order, then allOf
// rules, then children; transition rules only where an old value correlates (or optionalOldSelf);
// one runtime cost budget for the whole object; failures of unchanged values ratcheted to warnings.

/** MaxEvaluatedMessageExpressionSizeBytes. */
const MaxMessageExpressionBytes = 5120

/** Validator.create options: the compile options, and NewValidator's perCallLimit (tests only in Go). */
export interface ValidatorOptions extends CompileRulesOptions {
  /** The cost limit of one rule or messageExpression evaluation (default celconfig.PerCallLimit, 1,000,000). */
  readonly perCallLimit?: number
}

export interface ValidationResult {
  readonly errors: FieldError[]
  /** Ratcheted failures (`warning.AddWarning(ctx, "", err.Error())`): the field error texts. */
  readonly warnings: string[]
  readonly remainingBudget: number
}

/** A compiled x-kubernetes-validations tree (NewValidator). */
export class Validator {
  /** @internal use Validator.create */
  constructor(
    readonly schema: JSONSchemaProps,
    private readonly isResourceRoot: boolean,
    private readonly compiled: CompilationResult[],
    private readonly compilationErr: string | undefined,
    private readonly usesOldSelf: boolean,
    readonly items: Validator | undefined,
    readonly properties: ReadonlyMap<string, Validator> | undefined,
    readonly additionalProperties: Validator | undefined,
    readonly allOf: readonly Validator[],
  ) {}

  /** NewValidator's perCallLimit, set on the root (undefined: the programs' own limit, PerCallLimit). */
  private perCallLimit: number | undefined
  /** The apiserver's minor version (options.version), set on the root: it chooses the error texts. */
  private minor = minorOf(DEFAULT_KUBE_VERSION)

  /** NewValidator(s, isResourceRoot): undefined when no node of the schema has rules. */
  static create(s: JSONSchemaProps, isResourceRoot: boolean, options: ValidatorOptions = {}): Validator | undefined {
    if (!hasXValidations(s)) return undefined
    return Validator.build(s, isResourceRoot, options)
  }

  /**
   * validator(s, s, isResourceRoot, SchemaDeclType(s, isResourceRoot)): NewValidator without its
   * hasXValidations pre-check (which ignores rules under allOf), as the apiextensions tests call it.
   */
  static build(s: JSONSchemaProps, isResourceRoot: boolean, options: ValidatorOptions = {}): Validator | undefined {
    const opts = { ...options, expressions: options.expressions ?? 'stored' }
    const v = build(s, s, isResourceRoot, schemaDeclType(s, isResourceRoot), opts)
    if (v !== undefined) {
      v.perCallLimit = options.perCallLimit
      v.minor = minorOf(options.version ?? DEFAULT_KUBE_VERSION)
    }
    return v
  }

  /** Validate(fldPath, obj, oldObj, budget): errors, ratcheting warnings and the remaining budget. */
  validate(
    fldPath: FieldPath | undefined,
    obj: unknown,
    oldObj: unknown,
    costBudget: number,
    correlation?: Correlation,
  ): ValidationResult {
    const out: Out = {
      errors: [],
      warnings: [],
      budget: costBudget,
      call: this.perCallLimit === undefined ? undefined : { costLimit: this.perCallLimit },
      minor: this.minor,
    }
    this.run(fldPath, obj, oldObj, { current: correlation, parent: undefined }, out)
    return { errors: withReleaseValues(out.errors, out.minor), warnings: out.warnings, remainingBudget: out.budget }
  }

  /** Every compilation result in the tree, with its schema node (for reports and tests). */
  *rules(): Generator<CompilationResult> {
    yield* this.compiled
    if (this.items) yield* this.items.rules()
    for (const p of this.properties?.values() ?? []) yield* p.rules()
    if (this.additionalProperties) yield* this.additionalProperties.rules()
    for (const a of this.allOf) yield* a.rules()
  }

  private run(fldPath: FieldPath | undefined, obj: unknown, oldObj: unknown, corr: Ratchet, out: Out): void {
    if (obj === null || obj === undefined) return
    this.validateExpressions(fldPath, obj, oldObj, corr, out)
    if (out.budget < 0) return
    for (const a of this.allOf) {
      // allOf rules ratchet only on their parent's correlation
      a.run(fldPath, obj, oldObj, { current: undefined, parent: corr.parent }, out)
      if (out.budget < 0) return
    }
    if (Array.isArray(obj)) this.validateArray(fldPath, obj, Array.isArray(oldObj) ? oldObj : undefined, corr, out)
    else if (typeof obj === 'object')
      this.validateMap(fldPath, obj as Record<string, unknown>, isObject(oldObj) ? oldObj : undefined, corr, out)
  }

  private validateExpressions(
    fldPath: FieldPath | undefined,
    obj: unknown,
    oldObj: unknown,
    corr: Ratchet,
    out: Out,
  ): void {
    const type = this.schema.type ?? ''
    if (oldObj === null) oldObj = undefined
    if (this.compilationErr !== undefined) {
      out.errors.push(field.invalid(fldPath, type, `rule compiler initialization error: ${this.compilationErr}`))
      return
    }
    if (this.compiled.length === 0) return
    if (out.budget <= 0) {
      out.errors.push(
        field.invalid(
          fldPath,
          type,
          'validation failed due to running out of cost budget, no further validation rules will be run',
        ),
      )
      out.budget = -1
      return
    }
    const acts = this.activations(obj, oldObj)
    for (const compiled of this.compiled) {
      const rule = compiled.rule
      if (compiled.error !== undefined) {
        out.errors.push(field.invalid(fldPath, type, `rule compile error: ${compiled.error.detail}`))
        continue
      }
      const program = compiled.program
      if (program === undefined) continue
      const optionalOldSelf = rule.optionalOldSelf === true
      if (compiled.usesOldSelf && oldObj === undefined && !optionalOldSelf) continue
      const r = program.tryRun(optionalOldSelf ? acts.optional : acts.plain, out.call)
      if (r.cost > out.budget) {
        out.errors.push(
          field.invalid(
            fldPath,
            type,
            'validation failed due to running out of cost budget, no further validation rules will be run',
          ),
        )
        out.budget = -1
        return
      }
      out.budget -= r.cost
      if ('error' in r) {
        const msg = r.error.message
        if (msg.startsWith('no such overload')) {
          out.errors.push(
            field.invalid(
              fldPath,
              type,
              `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`,
            ),
          )
        } else if (msg.startsWith('operation cancelled: actual cost limit exceeded')) {
          out.errors.push(
            field.invalid(
              fldPath,
              type,
              `'${msg}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`,
            ),
          )
          out.budget = -1
          return
        } else out.errors.push(field.invalid(fldPath, type, `${msg} evaluating rule: ${ruleErrorString(rule)}`))
        continue
      }
      if (r.value === true) continue
      const path = compiled.normalizedRuleFieldPath
        ? fldPath === undefined
          ? FieldPath.of(compiled.normalizedRuleFieldPath)
          : fldPath.child(compiled.normalizedRuleFieldPath)
        : fldPath
      const ratchet = !compiled.usesOldSelf && shouldRatchet(corr)
      const add = (e: FieldError) => {
        if (ratchet) out.warnings.push(errorString(withReleaseValues([e], out.minor)[0] as FieldError))
        else out.errors.push(e)
      }
      let detail: string | undefined
      if (compiled.messageExpression !== undefined) {
        // The apiserver evaluates messageExpression with the non-optional activation (validation.go).
        const m = evalMessageExpression(
          compiled.messageExpression,
          rule.messageExpression ?? '',
          acts.plain,
          out.budget,
          out.call,
        )
        out.budget = m.remainingBudget
        if (m.stop !== undefined) {
          add(field.invalid(path, type, m.stop))
          out.budget = -1
          return
        }
        detail = m.message
      }
      detail ??= ruleMessageOrDefault(rule)
      // Up to 1.34 the bad value was the schema type (`Invalid value: "string": …`); kubernetes#132798
      // and #133832 (first in 1.35) show scalars' values and omit objects' and arrays'.
      const value = out.minor < 35 ? type : type === 'object' || type === 'array' ? OMIT : obj
      add(fieldErrorForReason(path, value, detail, rule.reason))
    }
  }

  /** The activations of a node: self (and oldSelf) as schema-typed values, built once per node. */
  private activations(obj: unknown, oldObj: unknown): { plain: Activation; optional: Activation } {
    const conv = (v: unknown): CelValue | ErrorValue => {
      try {
        return unstructuredToVal(v, this.schema, this.isResourceRoot)
      } catch (e) {
        if (e instanceof ErrorValue) return e
        throw e
      }
    }
    const self = conv(obj)
    if (!this.usesOldSelf) return { plain: act(self, undefined), optional: act(self, undefined) }
    const old = oldObj === undefined ? undefined : conv(oldObj)
    return {
      plain: act(self, old),
      optional: act(self, old === undefined ? Optional.none : old instanceof ErrorValue ? old : new Optional(old)),
    }
  }

  private validateMap(
    fldPath: FieldPath | undefined,
    obj: Record<string, unknown>,
    oldObj: Record<string, unknown> | undefined,
    corr: Ratchet,
    out: Out,
  ): void {
    if (out.budget < 0) return
    const mapType = this.schema['x-kubernetes-map-type']
    const correlatable = mapType === undefined || mapType === 'granular' || mapType === 'atomic'
    const old = (k: string) =>
      correlatable && oldObj !== undefined && Object.hasOwn(oldObj, k) ? oldObj[k] : undefined
    if (this.additionalProperties !== undefined) {
      for (const [k, v] of Object.entries(obj)) {
        this.additionalProperties.run(keyPath(fldPath, k), v, old(k), ratchetKey(corr, k), out)
        if (out.budget < 0) return
      }
    }
    if (this.properties !== undefined) {
      // Only properties with rules below them have validators: look those up rather than walk every key.
      for (const [k, sub] of this.properties) {
        if (!Object.hasOwn(obj, k)) continue
        sub.run(childPath(fldPath, k), obj[k], old(k), ratchetKey(corr, k), out)
        if (out.budget < 0) return
      }
    }
  }

  private validateArray(
    fldPath: FieldPath | undefined,
    obj: readonly unknown[],
    oldObj: readonly unknown[] | undefined,
    corr: Ratchet,
    out: Out,
  ): void {
    if (out.budget < 0 || this.items === undefined) return
    const oldItems = MapList.make(this.schema, oldObj)
    for (let i = 0; i < obj.length; i++) {
      this.items.run(indexPath(fldPath, i), obj[i], oldItems?.get(obj[i]), ratchetIndex(corr, i), out)
      if (out.budget < 0) return
    }
  }
}

interface Out {
  errors: FieldError[]
  warnings: string[]
  budget: number
  /** The per-call cost limit override (Compile's perCallLimit). */
  readonly call: { costLimit: number } | undefined
  /** The apiserver's minor version. */
  readonly minor: number
}

function minorOf(version: string): number {
  return Number(/^1\.(\d+)$/.exec(version)?.[1] ?? 0)
}

/** ratchetingOptions: the node's correlation and its nearest correlatable parent's. */
interface Ratchet {
  readonly current: Correlation | undefined
  readonly parent: Correlation | undefined
}

function shouldRatchet(r: Ratchet): boolean {
  if (r.current !== undefined) return r.current.cachedDeepEqual()
  return r.parent?.cachedDeepEqual() ?? false
}

function ratchetKey(r: Ratchet, k: string): Ratchet {
  if (r.current === undefined) return r
  // the root's apiVersion and kind never ratchet
  if (r.parent === undefined && (k === 'apiVersion' || k === 'kind')) return { current: undefined, parent: undefined }
  return { current: r.current.key(k), parent: r.current }
}

function ratchetIndex(r: Ratchet, i: number): Ratchet {
  if (r.current === undefined) return r
  return { current: r.current.index(i), parent: r.current }
}

function childPath(p: FieldPath | undefined, name: string): FieldPath {
  return p === undefined ? FieldPath.of(name) : p.child(name)
}
function keyPath(p: FieldPath | undefined, k: string): FieldPath {
  return p === undefined ? FieldPath.ofKey(k) : p.key(k)
}
function indexPath(p: FieldPath | undefined, i: number): FieldPath {
  return p === undefined ? FieldPath.ofKey(String(i)) : p.index(i)
}

function act(self: CelValue | ErrorValue, oldSelf: CelValue | ErrorValue | undefined): Activation {
  // A conversion error is the variable's value: reading it fails the rule with that error.
  const a: Record<string, CelValue> = {}
  defineVar(a, 'self', self)
  if (oldSelf !== undefined) defineVar(a, 'oldSelf', oldSelf)
  return a
}

function defineVar(a: Record<string, CelValue>, name: string, v: CelValue | ErrorValue): void {
  if (v instanceof ErrorValue)
    Object.defineProperty(a, name, {
      enumerable: true,
      get() {
        throw new ErrorValue(v.message)
      },
    })
  else a[name] = v
}

function ruleErrorString(rule: ValidationRule): string {
  return rule.message !== undefined && rule.message.length > 0 ? rule.message.trim() : rule.rule.trim()
}

function ruleMessageOrDefault(rule: ValidationRule): string {
  return rule.message === undefined || rule.message.length === 0
    ? `failed rule: ${ruleErrorString(rule)}`
    : rule.message.trim()
}

function fieldErrorForReason(
  path: FieldPath | undefined,
  value: unknown,
  detail: string,
  reason: string | undefined,
): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return field.forbidden(path, detail)
    case 'FieldValueRequired':
      return field.required(path, detail)
    case 'FieldValueDuplicate':
      return field.duplicate(path, value)
    default:
      return field.invalid(path, value, detail)
  }
}

/** Go strings.TrimSpace (Unicode White_Space, as Go's unicode.IsSpace). */
function goTrimSpace(s: string): string {
  return s.replace(/^[\s\u0085]+|[\s\u0085]+$/g, '')
}

/**
 * evalMessageExpression: the trimmed message when it is a non-empty string of at most 5 KiB with
 * no line break; cost errors stop validation (`stop`); other problems fall back to the message.
 */
function evalMessageExpression(
  program: NonNullable<CompilationResult['messageExpression']>,
  source: string,
  activation: Activation,
  remainingBudget: number,
  call: { costLimit: number } | undefined,
): { message?: string; stop?: string; remainingBudget: number } {
  const r = program.tryRun(activation, call)
  if (r.cost > remainingBudget)
    return {
      stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
      remainingBudget: -1,
    }
  const rest = remainingBudget - r.cost
  if ('error' in r) {
    if (r.error.message.startsWith('operation cancelled: actual cost limit exceeded'))
      return {
        stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(source)}`,
        remainingBudget: -1,
      }
    return { remainingBudget: rest }
  }
  if (typeof r.value !== 'string') return { remainingBudget: rest }
  const trimmed = goTrimSpace(r.value)
  if (Buffer.byteLength(trimmed, 'utf8') > MaxMessageExpressionBytes || trimmed.includes('\n') || trimmed.length === 0)
    return { remainingBudget: rest }
  return { message: trimmed, remainingBudget: rest }
}

function hasXValidations(s: JSONSchemaProps | undefined): boolean {
  if (s === undefined) return false
  if ((s['x-kubernetes-validations']?.length ?? 0) > 0) return true
  if (hasXValidations(s.items)) return true
  if (hasXValidations(additionalPropertiesSchema(s))) return true
  for (const p of Object.values(s.properties ?? {})) if (hasXValidations(p)) return true
  return false
}

/** validator(): the node's rules compiled against its declared type, and the children's validators. */
function build(
  validationSchema: JSONSchemaProps,
  nodeSchema: JSONSchemaProps,
  isResourceRoot: boolean,
  declType: DeclType | undefined,
  options: CompileRulesOptions,
): Validator | undefined {
  const compilationSchema =
    validationSchema === nodeSchema
      ? nodeSchema
      : { ...nodeSchema, 'x-kubernetes-validations': validationSchema['x-kubernetes-validations'] }
  const compiled = compileRules(compilationSchema, declType, options)
  const compilationErr = Array.isArray(compiled) ? undefined : (compiled as CompileError).detail
  const results = Array.isArray(compiled) ? compiled : []
  const elemType =
    declType !== undefined && (declType.kind === 'list' || declType.kind === 'map') ? declType.elem : undefined

  let items: Validator | undefined
  if (validationSchema.items !== undefined && nodeSchema.items !== undefined)
    items = build(
      validationSchema.items,
      nodeSchema.items,
      nodeSchema.items['x-kubernetes-embedded-resource'] === true,
      elemType,
      options,
    )

  let properties: Map<string, Validator> | undefined
  const vprops = validationSchema.properties
  if (vprops !== undefined && Object.keys(vprops).length > 0) {
    properties = new Map()
    for (const [k, vp] of Object.entries(vprops)) {
      const np = nodeSchema.properties?.[k]
      if (np === undefined) continue
      let fieldType: DeclType | undefined
      const escaped = escape(k)
      if (escaped !== undefined) {
        if (declType === undefined || declType.kind !== 'object') continue
        fieldType = declType.fields.get(escaped)?.type
        if (fieldType === undefined) continue
      } else {
        // not accessible from the parent, but its own rules still run against its own type
        fieldType = schemaDeclType(np, np['x-kubernetes-embedded-resource'] === true)
        if (fieldType === undefined) continue
      }
      const p = build(vp, np, np['x-kubernetes-embedded-resource'] === true, fieldType, options)
      if (p !== undefined) properties.set(k, p)
    }
  }

  let additionalProperties: Validator | undefined
  const vap = additionalPropertiesSchema(validationSchema)
  const nap = additionalPropertiesSchema(nodeSchema)
  if (vap !== undefined && nap !== undefined)
    additionalProperties = build(vap, nap, nap['x-kubernetes-embedded-resource'] === true, elemType, options)

  const allOf: Validator[] = []
  for (const a of validationSchema.allOf ?? []) {
    const v = build(a, nodeSchema, isResourceRoot, declType, options)
    if (v !== undefined) allOf.push(v)
  }

  if (
    results.length > 0 ||
    compilationErr !== undefined ||
    items !== undefined ||
    additionalProperties !== undefined ||
    (properties !== undefined && properties.size > 0) ||
    allOf.length > 0
  ) {
    const usesOldSelf = results.some((r) => r.usesOldSelf)
    return new Validator(
      nodeSchema,
      isResourceRoot,
      results,
      compilationErr,
      usesOldSelf,
      items,
      properties,
      additionalProperties,
      allOf,
    )
  }
  return undefined
}
