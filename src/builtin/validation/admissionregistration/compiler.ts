import type {
  CompileContext,
  CompileHook,
  EnvironmentType,
  ExpressionKind,
  VariableDefinition,
} from '../../../kube/admissionregistration/compile-hook.js'

// createCompiler: the compiler one policy's expressions share. With variables it is the stateful
// CompositedCompiler (plugin/cel composition.go): each variable compiled through
// compileAndStoreVariable is declared for everything compiled after it, valid or not. Without
// variables, and always for match conditions, the stateless compiler (no `variables`).

export interface CompileOptions {
  readonly hasParams: boolean
  readonly hasAuthorizer: boolean
  readonly environment: EnvironmentType
}

export class PolicyCompiler {
  private readonly stored = new Map<string, string>()

  constructor(
    private readonly hook: CompileHook,
    /** Whether this is the composition compiler. */
    readonly composition: boolean,
  ) {}

  private context(opts: CompileOptions): CompileContext {
    const variableDefinitions: VariableDefinition[] = [...this.stored].map(([name, expression]) => ({
      name,
      expression,
    }))
    return {
      hasParams: opts.hasParams,
      hasAuthorizer: opts.hasAuthorizer,
      environment: opts.environment,
      composition: this.composition,
      variables: variableDefinitions.map((v) => v.name),
      variableDefinitions,
    }
  }

  /** CompileCELExpression. */
  compile(expression: string, kind: ExpressionKind, opts: CompileOptions) {
    return this.hook(expression, kind, this.context(opts))
  }

  /** CompositedCompiler.CompileAndStoreVariable: compiles, then declares the variable (as dyn if it failed). */
  compileAndStoreVariable(name: string, expression: string, opts: CompileOptions) {
    const outcome = this.hook(expression, 'variable', this.context(opts))
    this.stored.set(name, expression)
    return outcome
  }
}

/** createCompiler(needsComposition). */
export function createCompiler(hook: CompileHook, allowComposition: boolean): PolicyCompiler {
  return new PolicyCompiler(hook, allowComposition)
}
