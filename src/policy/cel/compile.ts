import type { CheckedAst, TypeProvider } from '../../cel/checker/index.js'
import { CelError } from '../../cel/common/errors.js'
import type { Env } from '../../cel/env.js'
import { compile, type Program } from '../../cel/program.js'
import {
  AnyType,
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listOf,
  mapOf,
  NullType,
  StringType,
  TimestampType,
  type Type,
  UintType,
} from '../../cel/types/types.js'
import { AuthorizerType, ResourceCheckType } from '../../kube/authz/library.js'
import { DEFAULT_KUBE_VERSION, type KubeVersion, kubeEnv, PerCallLimit } from '../../kube/environment.js'
import { jsonPatchLibrary } from '../../kube/library/jsonpatch.js'
import { ObjectTypes } from '../../kube/object-types.js'
import { MutationTypes } from './mutation-types.js'

// The admission CEL compiler (apiserver pkg/admission/plugin/cel/compile.go and composition.go):
// the variables every admission expression sees, typed as the apiserver types them, and the
// composition of `spec.variables` (each compiled with only the earlier ones visible, then a field
// of `kubernetes.variables` typed by its output type). Policies run in the StoredExpressions
// environment with the per-call cost limit of the base environment.

export const ObjectVarName = 'object'
export const OldObjectVarName = 'oldObject'
export const ParamsVarName = 'params'
export const RequestVarName = 'request'
export const NamespaceVarName = 'namespaceObject'
export const AuthorizerVarName = 'authorizer'
export const RequestResourceAuthorizerVarName = 'authorizer.requestResource'
export const VariableVarName = 'variables'

/** Which optional variables an expression's environment declares (OptionalVariableDeclarations). */
export interface OptionalVariableDeclarations {
  readonly hasParams: boolean
  readonly hasAuthorizer: boolean
  /**
   * HasPatchTypes (mutating admission policies' mutations): the `Object` / `JSONPatch` types
   * (mutation.DynamicTypeResolver) and the `jsonpatch` library.
   */
  readonly hasPatchTypes?: boolean
}

/** apiserver pkg/cel Error: `Invalid` for the user's mistakes, `Internal` otherwise. */
export interface CompileError {
  readonly type: 'Invalid' | 'Internal'
  readonly detail: string
}

export interface CompilationResult {
  readonly expression: string
  readonly program?: Program
  readonly error?: CompileError
  readonly outputType?: Type
  /**
   * A variable that reads nothing of the request (no object, params, request, namespace or authorizer,
   * only constant variables): its value and cost are the same in every evaluation (condition.ts keeps
   * them once computed).
   */
  readonly constant?: boolean
  /**
   * A variable whose value can depend on nothing but `object`, `oldObject` and such variables (no params,
   * request, namespace or authorizer; readsObjectOnly): its definition, the same string for the same
   * variable of any policy compiled in the same environment (its name, expression, and the definitions of
   * the variables it reads, recursively). Policies of one request share such a variable's evaluation
   * (condition.ts RequestVariables).
   */
  readonly shareKey?: string
}

/** The request's variables; an expression that names none of them (as a word) cannot read the request. */
const REQUEST_NAMES = /\b(?:object|oldObject|params|request|namespaceObject|authorizer)\b/
/** `variables` not followed by `.name`: an access kelp does not follow (taken as non-constant). */
const OPAQUE_VARIABLES = /\bvariables\b(?!\s*\.\s*[A-Za-z_])/

/**
 * Whether an expression can read nothing of its activation but `variables.<name>` (each such read a
 * look-up of `variables`): it names none of the request's variables, and `variables` only before
 * `.name`. Textual, so conservative (a name in a string literal counts).
 */
export function readsOnlyVariables(expression: string): boolean {
  return !REQUEST_NAMES.test(expression) && !OPAQUE_VARIABLES.test(expression)
}

/** The request's variables but `object` and `oldObject` (readsObjectOnly). */
const NON_OBJECT_NAMES = /\b(?:params|request|namespaceObject|authorizer)\b/

/**
 * Whether an expression can read nothing of its activation but `object`, `oldObject` and
 * `variables.<name>`: textual, as readsOnlyVariables (a name in a string literal or a comprehension
 * variable's name counts as a read).
 */
function readsObjectOnly(expression: string): boolean {
  return !NON_OBJECT_NAMES.test(expression) && !OPAQUE_VARIABLES.test(expression)
}

/**
 * A definition's shareKey: a short name interned for its parts (the variables it reads by their own keys, so
 * a key stays short however deep the chain), one string per distinct content so that Map look-ups of equal
 * keys compare by identity. Names come from a counter, never reused, so two contents never share one; the
 * table is bounded: past the limit it starts again, which costs only sharing across the restart. (No hash:
 * the core also runs in a browser, without node:crypto.)
 */
const SHARE_KEYS = new Map<string, string>()
const SHARE_KEYS_LIMIT = 4096
let shareKeyCount = 0

function shareKeyOf(parts: readonly string[]): string {
  const content = JSON.stringify(parts)
  const hit = SHARE_KEYS.get(content)
  if (hit !== undefined) return hit
  if (SHARE_KEYS.size >= SHARE_KEYS_LIMIT) SHARE_KEYS.clear()
  const key = `v${(shareKeyCount++).toString(36)}`
  SHARE_KEYS.set(content, key)
  return key
}

/** Whether a variable's expression is constant, given the variables found constant before it. */
function isConstantExpression(expression: string, constants: ReadonlySet<string>): boolean {
  if (!readsOnlyVariables(expression)) return false
  for (const m of expression.matchAll(/\bvariables\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/g))
    if (!constants.has(m[1] as string)) return false
  return true
}

/** The object types compile.go builds: BuildRequestType and BuildNamespaceType. */
function declareAdmissionTypes(types: ObjectTypes): { request: Type; namespace: Type } {
  const gvk = types.declare('kubernetes.GroupVersionKind', { group: StringType, version: StringType, kind: StringType })
  const gvr = types.declare('kubernetes.GroupVersionResource', {
    group: StringType,
    version: StringType,
    resource: StringType,
  })
  const userInfo = types.declare('kubernetes.UserInfo', {
    username: StringType,
    uid: StringType,
    groups: listOf(StringType),
    extra: mapOf(StringType, listOf(StringType)),
  })
  const request = types.declare('kubernetes.AdmissionRequest', {
    kind: gvk,
    resource: gvr,
    subResource: StringType,
    requestKind: gvk,
    requestResource: gvr,
    requestSubResource: StringType,
    name: StringType,
    namespace: StringType,
    operation: StringType,
    userInfo,
    dryRun: BoolType,
    options: DynType,
  })
  const condition = types.declare('kubernetes.NamespaceCondition', {
    status: StringType,
    type: StringType,
    lastTransitionTime: TimestampType,
    message: StringType,
    reason: StringType,
  })
  const namespace = types.declare('kubernetes.Namespace', {
    metadata: types.declare('kubernetes.NamespaceMetadata', {
      name: StringType,
      generateName: StringType,
      namespace: StringType,
      labels: mapOf(StringType, StringType),
      annotations: mapOf(StringType, StringType),
      UID: StringType,
      creationTimestamp: TimestampType,
      deletionGracePeriodSeconds: IntType,
      deletionTimestamp: TimestampType,
      generation: IntType,
      resourceVersion: StringType,
      finalizers: listOf(StringType),
    }),
    spec: types.declare('kubernetes.NamespaceSpec', { finalizers: listOf(StringType) }),
    status: types.declare('kubernetes.NamespaceStatus', {
      conditions: listOf(condition),
      phase: StringType,
    }),
  })
  return { request, namespace }
}

/** convertCelTypeToDeclType: a variable's field type in `kubernetes.variables`. */
export function variableFieldType(t: Type | undefined): Type {
  if (t === undefined) return DynType
  for (const p of [
    AnyType,
    BoolType,
    BytesType,
    DoubleType,
    DurationType,
    IntType,
    NullType,
    StringType,
    TimestampType,
    UintType,
  ]) {
    if (t.typeKind === p.typeKind && t.params.length === 0 && t.name === p.name) return p
  }
  if (t.typeKind === 'list' && t.params.length === 1) return listOf(variableFieldType(t.params[0]))
  if (t.typeKind === 'map' && t.params.length === 2)
    return mapOf(variableFieldType(t.params[0]), variableFieldType(t.params[1]))
  return DynType
}

export interface CompilerOptions {
  /** The apiserver version whose StoredExpressions environment the policy compiles in (default DEFAULT_KUBE_VERSION). */
  readonly version?: KubeVersion
  /**
   * Types of `object` / `oldObject` / `params` (dyn unless given): the status type checker declares
   * the matched kinds' schema types here, with their provider.
   */
  readonly objectType?: Type
  readonly paramsType?: Type
  readonly typeProvider?: TypeProvider
  /** NewExpressions (API validation of a new expression) or StoredExpressions (runtime; default). */
  readonly expressions?: 'new' | 'stored'
  /** Declare `variables` (the composition compiler; false for the plain condition compiler). */
  readonly composition?: boolean
  /**
   * Declare `authorizer.requestResource` with `authorizer` (default true). The status type checker's
   * environment (typechecking.go buildEnvSet) declares `authorizer` alone.
   */
  readonly requestResourceAuthorizer?: boolean
  /**
   * The per-expression cost limit compiled into every program (celconfig.PerCallLimit, 1M; the
   * apiserver's tests lower it with `celgo.CostLimit`). Evaluation uses each program's own limit.
   */
  readonly perCallLimit?: number
  /**
   * Checked ASTs kept from an earlier process (the bundled pack's, built with kelp): an expression
   * found there is planned without parsing and checking it again. Keyed by checkedKey().
   */
  readonly checkedCache?: CheckedCache
}

/**
 * Checked ASTs by the environment they were checked in (checkedContext(): the release, the
 * declarations, the variables so far) and their text. A miss compiles as usual; `put`, when given,
 * is offered each fresh check.
 */
export interface CheckedCache {
  get(context: string, expression: string): CheckedAst | undefined
  put?(context: string, expression: string, ast: CheckedAst): void
}

/**
 * CompositedCompiler: one per policy (its variables are part of the environment). Compile the
 * variables first (`compileAndStoreVariables`), then the policy's expressions.
 */
export class CompositedCompiler {
  private readonly types: ObjectTypes
  private readonly envs = new Map<string, Env>()
  private readonly admissionTypes: { request: Type; namespace: Type }
  readonly variables = new Map<string, CompilationResult>()
  private patchTypes: MutationTypes | undefined
  /** The variables declared so far with their field types: part of every later expression's environment. */
  private variableSignature = ''

  constructor(private readonly options: CompilerOptions = {}) {
    this.types = new ObjectTypes(options.typeProvider)
    this.admissionTypes = declareAdmissionTypes(this.types)
    this.types.declare('kubernetes.variables')
  }

  /** The environment an expression with these declarations is compiled in (for its cost estimate). */
  env(decls: OptionalVariableDeclarations): Env {
    const key = `${decls.hasParams}/${decls.hasAuthorizer}/${decls.hasPatchTypes === true}`
    let env = this.envs.get(key)
    if (env === undefined) {
      const objectType = this.options.objectType ?? DynType
      const variables: Record<string, Type> = {
        [ObjectVarName]: objectType,
        [OldObjectVarName]: objectType,
        [NamespaceVarName]: this.admissionTypes.namespace,
        [RequestVarName]: this.admissionTypes.request,
      }
      if (this.options.composition !== false) {
        variables[VariableVarName] = this.types.findStructType('kubernetes.variables') as Type
      }
      if (decls.hasParams) variables[ParamsVarName] = this.options.paramsType ?? DynType
      if (decls.hasAuthorizer) {
        variables[AuthorizerVarName] = AuthorizerType
        if (this.options.requestResourceAuthorizer !== false)
          variables[RequestResourceAuthorizerVarName] = ResourceCheckType
      }
      env = kubeEnv({
        version: this.options.version ?? DEFAULT_KUBE_VERSION,
        expressions: this.options.expressions ?? 'stored',
      }).extend({
        variables,
        ...(decls.hasPatchTypes === true ? { libraries: [jsonPatchLibrary] } : {}),
      })
      this.envs.set(key, env)
    }
    return env
  }

  /** CompileAndStoreVariables: in order; a failed variable still becomes a (dyn) field. */
  compileAndStoreVariables(
    variables: readonly { readonly name: string; readonly expression: string }[],
    decls: OptionalVariableDeclarations,
  ): void {
    const constants = new Set<string>()
    const context = this.shareContext()
    for (const v of variables) {
      const compiled = this.compile(v.expression, [AnyType], decls)
      const shareKey = compiled.program === undefined ? undefined : this.shareKey(v, context)
      const result =
        compiled.program !== undefined && isConstantExpression(v.expression, constants)
          ? { ...compiled, constant: true, ...(shareKey !== undefined ? { shareKey } : {}) }
          : shareKey !== undefined
            ? { ...compiled, shareKey }
            : compiled
      if (result.constant === true) constants.add(v.name)
      const field = variableFieldType(result.outputType)
      this.types.declare('kubernetes.variables', { [v.name]: field })
      this.variables.set(v.name, result)
      this.variableSignature += `${JSON.stringify(v.name)}:${field.toString()};`
    }
  }

  /**
   * What a variable's evaluation depends on besides its definition and the request: the environment
   * (release, expressions, declarations) and the per-call cost limit. Undefined (not shared) where
   * outside types take part, as for checkedContext.
   */
  private shareContext(): string | undefined {
    const o = this.options
    if (o.objectType !== undefined || o.paramsType !== undefined || o.typeProvider !== undefined) return undefined
    if (o.composition === false) return undefined
    return `${o.version ?? DEFAULT_KUBE_VERSION}/${o.expressions ?? 'stored'}/${o.requestResourceAuthorizer !== false}/${o.perCallLimit ?? PerCallLimit}`
  }

  /**
   * A compiled variable's shareKey: undefined unless it reads only `object`, `oldObject` and variables
   * declared before it that have one (a variable not declared yet fails to compile, or is read as
   * another policy's variable could not be).
   */
  private shareKey(v: { readonly name: string; readonly expression: string }, context: string | undefined) {
    if (context === undefined || !readsObjectOnly(v.expression)) return undefined
    const reads: string[] = []
    for (const m of v.expression.matchAll(/\bvariables\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/g)) {
      const name = m[1] as string
      const key = this.variables.get(name)?.shareKey
      if (key === undefined) return undefined
      reads.push(name, key)
    }
    return shareKeyOf([context, v.name, v.expression, ...reads])
  }

  /**
   * What an expression's check depends on besides kelp's own code: the release and expression
   * environment, the optional declarations and the variables declared before it. Undefined (not
   * cached) where outside types take part (the status type checker's object types, mutations).
   */
  private checkedContext(decls: OptionalVariableDeclarations): string | undefined {
    const o = this.options
    if (o.objectType !== undefined || o.paramsType !== undefined || o.typeProvider !== undefined) return undefined
    if (decls.hasPatchTypes === true) return undefined
    const env = `${o.version ?? DEFAULT_KUBE_VERSION}/${o.expressions ?? 'stored'}/${o.composition !== false}/${o.requestResourceAuthorizer !== false}`
    return `${env}/${decls.hasParams}/${decls.hasAuthorizer}\n${this.variableSignature}`
  }

  /** CompileCELExpression: the program, or the error the apiserver reports. */
  compile(expression: string, returnTypes: readonly Type[], decls: OptionalVariableDeclarations): CompilationResult {
    let program: Program
    const cache = this.options.checkedCache
    const context = cache === undefined ? undefined : this.checkedContext(decls)
    const checked = context === undefined ? undefined : cache?.get(context, expression)
    try {
      program = compile(expression, {
        env: this.env(decls),
        typeProvider: decls.hasPatchTypes === true ? (this.patchTypes ??= new MutationTypes(this.types)) : this.types,
        costLimit: this.options.perCallLimit ?? PerCallLimit,
        ...(checked !== undefined ? { checked } : {}),
      })
      if (context !== undefined && checked === undefined && cache?.put !== undefined && 'types' in program.ast)
        cache.put(context, expression, program.ast as CheckedAst)
    } catch (e) {
      if (e instanceof CelError && (e.stage === 'parse' || e.stage === 'check')) {
        const detail = 'issues' in e ? `compilation failed: ${e.message}` : `program instantiation failed: ${e.message}`
        return { expression, error: { type: 'issues' in e ? 'Invalid' : 'Internal', detail } }
      }
      throw e
    }
    const out = program.outputType
    const found = returnTypes.some((t) => t === AnyType || sameType(out, t))
    if (!found) {
      const detail =
        returnTypes.length === 1
          ? `must evaluate to ${returnTypes[0]?.toString()} but got ${out.toString()}`
          : `must evaluate to one of [${returnTypes.map((t) => t.toString()).join(' ')}] but got ${out.toString()}`
      return { expression, error: { type: 'Invalid', detail } }
    }
    return { expression, program, outputType: out }
  }
}

/** cel-go Type.IsExactType: same kind, name and parameters. */
function sameType(a: Type, b: Type): boolean {
  if (a.typeKind !== b.typeKind || a.name !== b.name || a.params.length !== b.params.length) return false
  return a.params.every((p, i) => sameType(p, b.params[i] as Type))
}
