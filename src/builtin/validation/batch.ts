// Kept for src/engine's imports until they follow the group folders (issue 27, item 5): batch/validation.ts.
export { PLACEHOLDER_UID } from './batch/validation.js'

import '../strategy.js'
