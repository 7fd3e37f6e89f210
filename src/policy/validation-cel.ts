import { AnyType } from '../cel/types/types.js'
import type { KubeVersion } from '../kube/environment.js'
import { CompositedCompiler } from './compile.js'
import type { CompileHook } from './validation/hooks.js'

// The CEL half of policy API validation: the compile hook validateValidatingAdmissionPolicy calls,
// backed by the admission compiler (compile.go) in the environment the apiserver uses for the
// expression (NewExpressions for a new one, StoredExpressions for one the old object had), with the
// variables composed so far. Validation checks the output type itself.

export function policyCompileHook(options: { readonly version?: KubeVersion } = {}): CompileHook {
  // one compiler per (environment, composition, variable list): variables are part of the environment
  const compilers = new Map<string, CompositedCompiler>()
  return (expression, _kind, ctx) => {
    const expressions = ctx.environment === 'NewExpressions' ? 'new' : 'stored'
    const key = JSON.stringify([expressions, ctx.composition, ctx.hasParams, ctx.variableDefinitions])
    let compiler = compilers.get(key)
    if (compiler === undefined) {
      compiler = new CompositedCompiler({
        ...(options.version !== undefined ? { version: options.version } : {}),
        expressions,
        composition: ctx.composition,
      })
      compiler.compileAndStoreVariables(ctx.variableDefinitions, { hasParams: ctx.hasParams, hasAuthorizer: true })
      compilers.set(key, compiler)
    }
    const r = compiler.compile(expression, [AnyType], { hasParams: ctx.hasParams, hasAuthorizer: ctx.hasAuthorizer })
    if (r.error !== undefined) {
      // the hook returns the compiler's issues; validation adds `compilation failed: `
      return { error: r.error.detail.replace(/^compilation failed: /, '') }
    }
    return { outputType: r.outputType?.toString() ?? 'dyn' }
  }
}
