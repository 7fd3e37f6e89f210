// The playground's engine (no DOM: Node and the browser): the contract the page builds on (types.ts).
export { examples } from '../examples.js'
export { decodeState, encodeState } from '../state.js'
export { evaluatePlayground } from './evaluate.js'
export type {
  CostRow,
  EvaluateOptions,
  Marker,
  PaneId,
  PatchOp,
  PlaygroundResult,
  PlaygroundState,
  SchemaSource,
} from './types.js'
