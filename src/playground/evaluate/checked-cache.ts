import type { CheckedAst } from '../../cel/checker/index.js'
import type { CheckedCache } from '../../policy/cel/compile.js'

// The checked ASTs of the expressions compiled so far, by environment and text (policy/cel/compile.ts's
// CheckedCache, which kelp check fills from its build for the bundled pack): a material keystroke parses and
// checks only the expressions it changed. The most recent CHECKED entries are kept.

const CHECKED = 4096
const asts = new Map<string, CheckedAst>()

export const checkedCache: CheckedCache = {
  get: (context, expression) => asts.get(`${context}\u0000${expression}`),
  put: (context, expression, ast) => {
    asts.set(`${context}\u0000${expression}`, ast)
    if (asts.size > CHECKED) asts.delete(asts.keys().next().value as string)
  },
}
