// Admission of one request, in kube-apiserver's order: each stage (one file each) writes its part into the
// request's state, or answers and ends the request there.

import { type AdmissionAttributesInput, withAttributeDefaults } from '../../policy/attributes.js'
import type { AdmitResult } from '../answer.js'
import { customResourceValidation } from './custom-resource.js'
import { decodeAndDefault } from './decode.js'
import { excludedResources } from './excluded.js'
import { generateName } from './generate-name.js'
import { inTreeMutatingPlugins, validatingAfterPodSecurity, validatingBeforePodSecurity } from './in-tree.js'
import { mutatingAdmission } from './mutating.js'
import { podSecurity } from './pod-security.js'
import { type AdmissionContext, type AdmissionStage, newState } from './state.js'
import { strategy } from './strategy.js'
import { validatingAdmission } from './validating.js'

/** The stages, in the order a create or update meets them in kube-apiserver; the last one always answers. */
export const ADMISSION_STAGES: readonly AdmissionStage[] = [
  excludedResources,
  generateName,
  decodeAndDefault,
  inTreeMutatingPlugins,
  mutatingAdmission,
  strategy,
  customResourceValidation,
  validatingBeforePodSecurity,
  podSecurity,
  validatingAfterPodSecurity,
  validatingAdmission,
]

/**
 * The answer to one request (`mutating: false`: no MutatingAdmissionPolicy runs): the stages of
 * ADMISSION_STAGES called one after the other, written out rather than looped over the list, so each call
 * site sees one function (V8 inlines it; a loop's one call site of eleven targets it cannot).
 */
export function admit(
  ctx: AdmissionContext,
  given: AdmissionAttributesInput,
  options: { readonly mutating?: boolean },
): AdmitResult {
  const s = newState(withAttributeDefaults(given), options.mutating !== false && ctx.mutatingHooks.length > 0)
  const answer =
    excludedResources(ctx, s) ??
    generateName(ctx, s) ??
    decodeAndDefault(ctx, s) ??
    inTreeMutatingPlugins(ctx, s) ??
    mutatingAdmission(ctx, s) ??
    strategy(ctx, s) ??
    customResourceValidation(ctx, s) ??
    validatingBeforePodSecurity(ctx, s) ??
    podSecurity(ctx, s) ??
    validatingAfterPodSecurity(ctx, s) ??
    validatingAdmission(ctx, s)
  return s.notRun === undefined ? answer : Object.assign({}, answer, { pluginsNotRun: s.notRun })
}
