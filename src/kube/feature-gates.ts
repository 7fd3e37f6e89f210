import { VERSIONED_FEATURE_GATES } from './feature-gates.generated.js'

// The default of a Kubernetes feature gate in a target release (1.<minor>), as an apiserver with that
// --emulation-version reads it from its versioned specs (component-base featuregate: the last spec at or
// before the version; a gate is off before its first spec). The table (feature-gates.generated.ts) holds
// the gates whose fields the strategies drop when off (src/builtin/drop-disabled.ts).

export type FeatureGate = keyof typeof VERSIONED_FEATURE_GATES

/** Whether `gate` is on by default in release 1.`minor`. */
export function featureEnabled(gate: FeatureGate, minor: number): boolean {
  let on = false
  for (const [version, defaultValue] of VERSIONED_FEATURE_GATES[gate]) if (version <= minor) on = defaultValue
  return on
}

/** A gate set: whether each gate is on (a release's defaults, or a test's choice). */
export type FeatureGates = (gate: FeatureGate) => boolean

const defaults = new Map<number, FeatureGates>()

/** The default gate set of release 1.`minor` (computed once per release: the strategies ask per object). */
export function defaultFeatureGates(minor: number): FeatureGates {
  let gates = defaults.get(minor)
  if (gates === undefined) {
    const on = new Set<FeatureGate>()
    for (const gate of Object.keys(VERSIONED_FEATURE_GATES) as FeatureGate[])
      if (featureEnabled(gate, minor)) on.add(gate)
    gates = (gate) => on.has(gate)
    defaults.set(minor, gates)
  }
  return gates
}
