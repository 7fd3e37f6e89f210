// The one place where policy validation needs more than the object's shape: compiling its CEL
// expressions. The compile environment lives in src/policy/cel (the engine hands it in); validation calls
// the hook exactly where ValidateValidatingAdmissionPolicy compiles (plugin/cel Compiler
// CompileCELExpression / CompositedCompiler CompileAndStoreVariable) and wraps what it returns into
// the field error Go reports (cel-condition.ts).

/** Which expression of a policy is compiled: it decides the declared variables and the result type. */
export type ExpressionKind =
  | 'validation'
  | 'messageExpression'
  | 'matchCondition'
  | 'variable'
  | 'auditAnnotation'
  /** A MutatingAdmissionPolicy's mutations: compiled with the patch types (`Object`, `JSONPatch`). */
  | 'jsonPatch'
  | 'applyConfiguration'

/** environment.Type: which environment an expression compiles in. */
export type EnvironmentType = 'NewExpressions' | 'StoredExpressions'

/** A variable the composition environment holds (CompositionEnv.AddField). */
export interface VariableDefinition {
  readonly name: string
  readonly expression: string
}

/** plugincel.OptionalVariableDeclarations and the composition state an expression compiles against. */
export interface CompileContext {
  /** `params` is declared (the policy has a paramKind). */
  readonly hasParams: boolean
  /**
   * The names of the variables declared under `variables` when this expression compiles, in
   * declaration order: every earlier variable whose expression was compiled, valid or not (a variable
   * that failed to compile is declared as `dyn`, as Go's CompositionEnv does). Empty when there is no
   * composition.
   */
  readonly variables: readonly string[]
  /** The same variables with their expressions, for a compiler that types them itself. */
  readonly variableDefinitions: readonly VariableDefinition[]
  /**
   * Whether the policy compiles with the composition compiler (it has at least one variable): only then
   * is `variables` declared at all. Match conditions always compile without composition.
   */
  readonly composition: boolean
  /** `authorizer` and `authorizer.requestResource` are declared (false for messageExpression only). */
  readonly hasAuthorizer: boolean
  /**
   * NewExpressions on create and for changed expressions; StoredExpressions for an expression the old
   * object already had (update).
   */
  readonly environment: EnvironmentType
}

/**
 * What a compile hook may return: undefined when the expression compiled; a string, the compiler's
 * error text (cel-go `issues.String()`, e.g. `ERROR: <input>:1:5: undeclared reference to 'x'`), which
 * validation reports as `<path>: Invalid value: "<expr>": compilation failed: <text>`; or an object
 * carrying that text and/or the expression's output type (CEL type name: `bool`, `string`,
 * `null_type`, `dyn`, `int`, …), which validation checks against the kind's result type
 * (`must evaluate to bool`, `must evaluate to string`, `must evaluate to one of [string null_type]`).
 */
export type CompileOutcome = string | undefined | CompileResult

export interface CompileResult {
  readonly error?: string
  readonly outputType?: string
}

export type CompileHook = (expression: string, kind: ExpressionKind, context: CompileContext) => CompileOutcome

export interface PolicyValidationHooks {
  /** Absent: no expression is compiled (every other check still runs). */
  readonly compile?: CompileHook
}
