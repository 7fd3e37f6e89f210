import { AnyType } from '../../cel/types/types.js'
import type { CompileHook } from '../../kube/admissionregistration/compile-hook.js'
import type { KubeVersion } from '../../kube/environment.js'
import { CompositedCompiler } from './compile.js'

// The CEL half of policy API validation: the compile hook validateValidatingAdmissionPolicy calls,
// backed by the admission compiler (compile.go) in the environment the apiserver uses for the
// expression (NewExpressions for a new one, StoredExpressions for one the old object had), with the
// variables composed so far. Validation checks the output type itself.

export function policyCompileHook(options: { readonly version?: KubeVersion } = {}): CompileHook {
  // one compiler per (environment, composition, variable list): variables are part of the environment.
  // Validation compiles a policy's variables in order, each with the ones before it declared: the
  // compiler of the shorter list is extended by one variable and moved to the longer list's key, so n
  // variables cost 2n compilations instead of n²/2.
  const compilers = new Map<string, CompositedCompiler>()
  const keyOf = (expressions: string, ctx: Parameters<CompileHook>[2], defs: readonly unknown[]) =>
    JSON.stringify([expressions, ctx.composition, ctx.hasParams, defs])
  return (expression, kind, ctx) => {
    const expressions = ctx.environment === 'NewExpressions' ? 'new' : 'stored'
    const defs = ctx.variableDefinitions
    const key = keyOf(expressions, ctx, defs)
    let compiler = compilers.get(key)
    const shorter = defs.length > 0 ? keyOf(expressions, ctx, defs.slice(0, -1)) : undefined
    if (compiler === undefined && shorter !== undefined && compilers.has(shorter)) {
      compiler = compilers.get(shorter) as CompositedCompiler
      compilers.delete(shorter)
      compiler.compileAndStoreVariables(defs.slice(-1), { hasParams: ctx.hasParams, hasAuthorizer: true })
      compilers.set(key, compiler)
    }
    if (compiler === undefined) {
      compiler = new CompositedCompiler({
        ...(options.version !== undefined ? { version: options.version } : {}),
        expressions,
        composition: ctx.composition,
      })
      compiler.compileAndStoreVariables(ctx.variableDefinitions, { hasParams: ctx.hasParams, hasAuthorizer: true })
      compilers.set(key, compiler)
    }
    const hasPatchTypes = kind === 'jsonPatch' || kind === 'applyConfiguration'
    const r = compiler.compile(expression, [AnyType], {
      hasParams: ctx.hasParams,
      hasAuthorizer: ctx.hasAuthorizer,
      ...(hasPatchTypes ? { hasPatchTypes } : {}),
    })
    if (r.error !== undefined) {
      // the hook returns the compiler's issues; validation adds `compilation failed: `
      return { error: r.error.detail.replace(/^compilation failed: /, '') }
    }
    return { outputType: r.outputType?.toString() ?? 'dyn' }
  }
}
