// Admission of one request, in kube-apiserver's order: each stage (one file each) writes its part into the
// request's state, or answers and ends the request there.

import { type AdmissionAttributesInput, withAttributeDefaults } from '../../policy/attributes.js'
import type { AdmitResult } from '../answer.js'
import { customResourceValidation } from './custom-resource.js'
import { decodeAndDefault } from './decode.js'
import { excludedResources } from './excluded.js'
import { generateName } from './generate-name.js'
import { inTreeMutatingPlugins } from './in-tree.js'
import { mutatingAdmission } from './mutating.js'
import type { AdmissionContext, AdmissionStage } from './state.js'
import { newState } from './state.js'
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
  validatingAdmission,
]

/** The answer to one request (`mutating: false`: no MutatingAdmissionPolicy runs). */
export function admit(
  ctx: AdmissionContext,
  given: AdmissionAttributesInput,
  options: { readonly mutating?: boolean },
): AdmitResult {
  const s = newState(withAttributeDefaults(given), options.mutating !== false && ctx.mutatingHooks.length > 0)
  for (let i = 0; i < ADMISSION_STAGES.length; i++) {
    const answer = (ADMISSION_STAGES[i] as AdmissionStage)(ctx, s)
    if (answer !== undefined) return answer
  }
  throw new Error('admission: no stage answered') // validatingAdmission always answers
}
