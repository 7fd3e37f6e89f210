// `kelp/webhook`: the admission webhook as a library. The framework-neutral handler (AdmissionReview v1
// in, AdmissionReview out) for node:http(s), Express, Fastify, …, and the `kelp serve` server itself.
// A separate entry point so that `import … from 'kelp-k8s'` does not load the server and prom-client.

export { createLogger, LOG_LEVELS, type Logger, type LoggerOptions, type LogLevel } from '../report/log.js'
export { BODY_LIMIT } from './body.js'
export {
  ADMISSION_API_VERSION,
  ADMISSION_KIND,
  type AdmissionHandler,
  type AdmissionHandlerOptions,
  type AdmissionMode,
  type AdmissionResponse,
  type AdmissionReviewResponse,
  type AdmitEvent,
  admissionResponse,
  createAdmissionHandler,
  errorResponse,
  type HandlerResponse,
  mutationResponse,
  parseAdmissionReview,
  type ResponseStatus,
  stringifyExact,
  webhookAuditAnnotationKey,
} from './handler.js'
export { createMetrics, type WebhookMetrics } from './metrics.js'
export { DEFAULT_PORT, type ServeOptions, startWebhookServer, type WebhookServer } from './server.js'
export type { ReloadResult } from './watch.js'
