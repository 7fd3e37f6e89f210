import fc from 'fast-check'

// Property tests explore new inputs on every local run; in CI (CI=true) they replay one fixed seed
// so that a run on a clean clone is reproducible and a red run means a change broke something.
// KELP_FC_SEED overrides both (fast-check prints the seed of any failure to replay it).
const fixed = process.env.KELP_FC_SEED ?? (process.env.CI ? '20261202' : undefined)
if (fixed !== undefined) fc.configureGlobal({ seed: Number(fixed) })
