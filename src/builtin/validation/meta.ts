// Kept for src/engine's import until its strategy stage calls beforeCreate / beforeUpdate (issue 27,
// item 5): the generic registry steps around a kind's validation are in src/builtin/strategy.ts.
export { type BuiltinValidation, type BuiltinValidationRequest, validateBuiltin } from '../strategy.js'
