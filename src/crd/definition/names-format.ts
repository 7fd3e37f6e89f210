// Moved to src/kube/validation/names.ts (issue 19); this re-export stays until nothing imports this path.
export * from '../../kube/validation/names.js'
