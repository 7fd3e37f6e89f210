// Stage 2: the name a CREATE with metadata.generateName and no name gets.

import { needsNameGeneration, SimpleNameGenerator } from '../../kube/names.js'
import { isObject } from '../../kube/values/json.js'
import type { AdmissionContext, AdmissionState } from './state.js'

/**
 * The store's Create names the object before the strategy's validation and validating admission
 * (registry/store.go Create: SetName(GenerateName(...)) ahead of BeforeCreate and createValidation;
 * rest.AdmissionToValidateObjectFunc then takes the request's name from the object). Mutating admission
 * runs before it in the handler: that stage takes the name off again (mutating.ts).
 */
export function generateName(ctx: AdmissionContext, s: AdmissionState): undefined {
  const a = s.request
  if (a.operation !== 'CREATE' || a.subResource !== '' || !isObject(a.object)) return
  const metadata = a.object.metadata
  if (!needsNameGeneration(metadata)) return
  const generatedName = (ctx.options.generateName ?? SimpleNameGenerator)(metadata.generateName, a.object)
  s.generatedName = generatedName
  s.named = { generatedName }
  s.attrs = {
    ...a,
    name: a.name === '' ? generatedName : a.name,
    object: { ...a.object, metadata: { ...metadata, name: generatedName } },
  }
}
