import { installWebhookCompileHook } from '../builtin/validation/admissionregistration/webhooks.js'
import { policyCompileHook } from '../policy/cel/validation-hook.js'

// The CEL half of admission-registration validation (pkg/apis/admissionregistration/validation compiles
// with plugin/cel): the validation lives in builtin/ and the admission CEL environment in policy/, siblings
// that may not import each other, so the engine joins them. The policy kinds get the hook from
// PolicySet.build (validateValidatingAdmissionPolicy(p, { compile })); the webhook configurations, validated
// through the built-in registry, get this factory, installed when the engine loads.
installWebhookCompileHook((version) => policyCompileHook(version !== undefined ? { version } : {}))
