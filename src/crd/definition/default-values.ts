import { aggregateString, type FieldError, type FieldPath, field } from '../../kube/field.js'
import { coerce, validateEmbeddedMeta } from './embedded-meta.js'
import type { DefaultValueValidator } from './hooks.js'
import { wouldPrune } from './prune.js'
import { sortedKeys, structuralItems, structuralProperties } from './structural.js'
import type { JSONSchemaProps } from './types.js'

// structuraldefaulting.ValidateDefaults (apiextensions pkg/apiserver/schema/defaulting/validation.go):
// each default must already be pruned and give valid TypeMeta / ObjectMeta; a default inside
// metadata is checked on the object it would produce. The schema value validation and the CEL rules
// of each default are the DefaultValueValidator's (hooks.ts). additionalProperties are not followed:
// defaults are forbidden there.

/** RuntimeCELCostBudget: all defaults of one schema share it. */
const RUNTIME_CEL_COST_BUDGET = 10_000_000

type Step = { readonly kind: 'child'; readonly name: string } | { readonly kind: 'index' }

/** A SurroundingObjectFunc: the steps from the enclosing resource root to the current node. */
interface Surrounding {
  readonly steps: readonly Step[]
}

/** Builds the surrounding object of a value (NewRootObjectFunc().WithTypeMeta(...), then Child / Index). */
function surroundingObject(f: Surrounding, focus: unknown): Record<string, unknown> | undefined {
  let x = focus
  for (let i = f.steps.length - 1; i >= 0; i--) {
    const s = f.steps[i] as Step
    x = s.kind === 'child' ? { [s.name]: x } : [x]
  }
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return undefined
  const obj = x as Record<string, unknown>
  if (!Object.hasOwn(obj, 'kind')) obj.kind = 'Validation'
  if (!Object.hasOwn(obj, 'apiVersion')) obj.apiVersion = 'validation/v1'
  return obj
}

interface State {
  remaining: number
  readonly errs: FieldError[]
  readonly hook: DefaultValueValidator | undefined
}

export function validateDefaults(
  pth: FieldPath,
  s: JSONSchemaProps,
  requirePrunedDefaults: boolean,
  hook: DefaultValueValidator | undefined,
): FieldError[] {
  const root: JSONSchemaProps = { ...s, 'x-kubernetes-embedded-resource': true }
  const state: State = { remaining: RUNTIME_CEL_COST_BUDGET, errs: [], hook }
  validate(pth, root, root, { steps: [] }, false, requirePrunedDefaults, state)
  return state.errs
}

/** Returns false once the cost budget is spent (Go returns up the whole walk). */
function validate(
  pth: FieldPath,
  s: JSONSchemaProps | undefined,
  rootSchema: JSONSchemaProps,
  f: Surrounding,
  insideMeta: boolean,
  requirePrunedDefaults: boolean,
  st: State,
): boolean {
  if (s === undefined) return true
  if (s['x-kubernetes-embedded-resource'] === true) {
    insideMeta = false
    f = { steps: [] }
    rootSchema = s
  }
  const isResourceRoot = s === rootSchema
  if (s.default !== undefined) {
    const value = s.default
    const defaultPath = pth.child('default')
    let ok = true
    if (insideMeta) {
      // TypeMeta / ObjectMeta defaults: check the object they would produce
      const obj = surroundingObject(f, structuredClone(value))
      if (obj !== undefined) {
        const coerceErr = coerce(undefined, obj, rootSchema, true)
        if (coerceErr !== undefined) {
          st.errs.push(field.invalid(defaultPath, value, `must result in valid metadata: ${errorText(coerceErr)}`))
          ok = false
        } else {
          const metaErrs = validateEmbeddedMeta(undefined, obj, rootSchema, true)
          if (metaErrs.length > 0) {
            st.errs.push(
              field.invalid(defaultPath, value, `must result in valid metadata: ${aggregateString(metaErrs)}`),
            )
            ok = false
          }
        }
      }
    } else {
      if (requirePrunedDefaults && wouldPrune(value, s, s['x-kubernetes-embedded-resource'] === true))
        st.errs.push(field.invalid(defaultPath, value, 'must not have unknown fields'))
      const embedded = s['x-kubernetes-embedded-resource'] === true
      const coerceErr = coerce(defaultPath, value, s, embedded)
      if (coerceErr !== undefined) {
        st.errs.push(coerceErr)
        ok = false
      } else {
        const metaErrs = validateEmbeddedMeta(defaultPath, value, s, embedded)
        if (metaErrs.length > 0) {
          st.errs.push(...metaErrs)
          ok = false
        }
      }
    }
    if (ok && st.hook !== undefined) {
      const r = st.hook({ path: defaultPath, value, schema: s, isResourceRoot, remainingCostBudget: st.remaining })
      st.errs.push(...r.errors)
      st.remaining = r.remainingCostBudget
      if (st.remaining < 0) return false
    }
  }
  const items = structuralItems(s)
  if (items !== undefined) {
    const next = { steps: [...f.steps, { kind: 'index' as const }] }
    if (!validate(pth.child('items'), items, rootSchema, next, insideMeta, requirePrunedDefaults, st)) return false
  }
  const props = structuralProperties(s)
  for (const k of sortedKeys(props)) {
    const subInsideMeta =
      insideMeta ||
      (s['x-kubernetes-embedded-resource'] === true && (k === 'metadata' || k === 'apiVersion' || k === 'kind'))
    const next = { steps: [...f.steps, { kind: 'child' as const, name: k }] }
    if (
      !validate(pth.child('properties').key(k), props?.[k], rootSchema, next, subInsideMeta, requirePrunedDefaults, st)
    )
      return false
  }
  return true
}

/** field.Error.Error() of a possibly path-less error (`<nil>` when Go's path is nil). */
function errorText(e: FieldError): string {
  return aggregateString([e])
}
