import type { CompileHook, CompileOutcome } from '../../../../src/kube/admissionregistration/compile-hook.js'

// A stand-in for the policy CEL environment (src/policy/cel/compile.ts), enough to reproduce the
// compiler texts the Go tables of pkg/apis/admissionregistration/validation/validation_test.go
// expect. It answers from the context validation passes: `params` only with hasParams, `variables.x`
// only for x declared before, `test()` only in the StoredExpressions environment (the Go update test
// adds library.Test() there alone).

/** The CEL output type of the few expression shapes the tables use. */
function outputType(expr: string): string {
  if (/^'[^']*'$/.test(expr) || /^string\(/.test(expr)) return 'string'
  if (/^(true|false)$/.test(expr) || /==|<|>/.test(expr)) return 'bool'
  if (/^\d+ \+ \d+$/.test(expr) || /^variables\.\w+ \+ 1$/.test(expr)) return 'int'
  return 'dyn'
}

export const fakeCompile: CompileHook = (expr, _kind, ctx): CompileOutcome => {
  if (/\[1, 2,\s*$/.test(expr))
    return `ERROR: <input>:1:${expr.length + 1}: Syntax error: missing ']' at '<EOF>'\n | ${expr}\n | ${'.'.repeat(expr.length)}^`
  if (/\bparams\b/.test(expr) && !ctx.hasParams)
    return `ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | ${expr}\n | ^`
  if (/\btest\(\)/.test(expr) && ctx.environment !== 'StoredExpressions')
    return `ERROR: <input>:1:${expr.indexOf('test(') + 5}: undeclared reference to 'test' (in container '')`
  if (expr === "114 + '514'")
    return "ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(int, string)'\n | 114 + '514'\n | ....^"
  for (const m of expr.matchAll(/\bvariables\.(\w+)/g)) {
    if (!ctx.composition) return "ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')"
    if (!ctx.variables.includes(m[1] as string))
      return `ERROR: <input>:1:${(m.index ?? 0) + 10}: undefined field '${m[1]}'`
  }
  return { outputType: outputType(expr) }
}
