import type {
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyBindingSpec,
} from '../../../kube/admissionregistration/types.js'
import { type FieldError, FieldPath, field } from '../../../kube/field.js'
import { isDNS1123Subdomain } from '../../../kube/validation/names.js'
import {
  nameIsDNSSubdomain,
  validateObjectMetaJSON as validateObjectMeta,
} from '../../../kube/validation/objectmeta.js'
import { validateMatchResources } from './match-resources.js'
import { validateParamRef } from './param-ref.js'
import { validateValidationActions } from './validation-actions.js'

// ValidateValidatingAdmissionPolicyBinding and ValidateValidatingAdmissionPolicyBindingUpdate
// (pkg/apis/admissionregistration/validation/validation.go). A binding has no CEL: its validation
// needs no hook, and an update is validated exactly as a create.

/** validateValidatingAdmissionPolicyBindingSpec. */
export function validateValidatingAdmissionPolicyBindingSpec(
  spec: ValidatingAdmissionPolicyBindingSpec,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const policyName = spec.policyName ?? ''
  if (policyName.length === 0) errs.push(field.required(fldPath.child('policyName'), ''))
  else
    for (const msg of isDNS1123Subdomain(policyName))
      errs.push(field.invalid(fldPath.child('policyName'), policyName, msg))
  errs.push(...validateParamRef(spec.paramRef, fldPath.child('paramRef')))
  errs.push(...validateMatchResources(spec.matchResources, fldPath.child('matchResources')))
  errs.push(...validateValidationActions(spec.validationActions, fldPath.child('validationActions')))
  return errs
}

/** ValidateValidatingAdmissionPolicyBinding: the create of a (defaulted) v1 or v1beta1 binding. */
export function validateValidatingAdmissionPolicyBinding(binding: ValidatingAdmissionPolicyBinding): FieldError[] {
  return [
    ...validateObjectMeta(binding.metadata ?? {}, false, nameIsDNSSubdomain, FieldPath.of('metadata')),
    ...validateValidatingAdmissionPolicyBindingSpec(binding.spec ?? {}, FieldPath.of('spec')),
  ]
}

/** ValidateValidatingAdmissionPolicyBindingUpdate: the new binding alone decides. */
export function validateValidatingAdmissionPolicyBindingUpdate(
  newBinding: ValidatingAdmissionPolicyBinding,
  _oldBinding: ValidatingAdmissionPolicyBinding,
): FieldError[] {
  return validateValidatingAdmissionPolicyBinding(newBinding)
}
