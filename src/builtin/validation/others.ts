// The native validators of issue 19's kinds outside Pod, apps and batch: importing this module
// registers them all (src/builtin/validation/registry.ts).
import './config.js'
import './service.js'
import './rbac.js'
import './namespace.js'
import './networking.js'
import './pvc.js'
import './quota.js'
import './ingress.js'
import './policy.js'
import './scheduling.js'
import './autoscaling.js'
import './webhooks.js'
