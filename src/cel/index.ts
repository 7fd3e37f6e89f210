// The CEL language core: public API.
export type { Expr, ParsedAst } from './common/ast.js'
export { CelCompileError, CelError, CelEvalError, type CelStage } from './common/errors.js'
export { Env, type EnvOptions } from './env.js'
export type { FunctionDecl, Library, OverloadDecl } from './functions.js'
export { fn, memberOverload, overload } from './functions.js'
export {
  type Activation,
  type CompileOptions,
  compile,
  type EvalOptions,
  type EvalResult,
  evaluate,
  Program,
  standardEnv,
} from './program.js'
export { celLibraries } from './stdlib/index.js'
export { parse } from './syntax/index.js'
export * from './types/types.js'
export { Duration, Timestamp } from './values/time.js'
export { CelMap, type CelValue, Double, Kind, kindOf, OpaqueValue, Optional, Uint } from './values/values.js'
