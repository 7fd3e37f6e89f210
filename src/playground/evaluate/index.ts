// The playground's engine (no DOM: Node and the browser), the contract the page builds on (types.ts). In a page,
// Node's Buffer is stood in for (buffer-shim.ts, first: modules below read it), and the `yaml` package is given
// to the core, which requires it from Node elsewhere (kube/yaml/yaml-package.ts).
import './buffer-shim.js'
import * as YAML from 'yaml'
import { provideYamlPackage } from '../../kube/yaml/yaml-package.js'

provideYamlPackage(YAML)

export { examples } from '../examples.js'
export { decodeState, encodeState } from '../state.js'
export { evaluatePlayground } from './run.js'
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
