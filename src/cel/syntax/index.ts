// The CEL parser: text → AST (src/cel/common/ast.ts), as cel-go v0.26's parser builds it.
export {
  type Adorner,
  formatGoFloat,
  formatLiteral,
  goQuote,
  goQuoteBytes,
  kindAdorner,
  kindAndIdAdorner,
  locationAdorner,
  toDebugString,
} from './debug.js'
export {
  ACCUMULATOR_NAME,
  HIDDEN_ACCUMULATOR_NAME,
  KUBERNETES_MACROS,
  MACRO_DEFS,
  type MacroDef,
  STANDARD_MACROS,
} from './macros.js'
export { type ParseOptions, parse } from './parser.js'
