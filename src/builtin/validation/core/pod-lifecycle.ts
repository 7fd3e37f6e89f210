import { type FieldError, type FieldPath, field, GoStruct } from '../../../kube/field.js'
import {
  arr,
  isObj,
  type JSONObject,
  obj,
  optNum,
  str,
  validateNonnegativeField,
  validatePortNumOrName,
} from '../common.js'

// Container handlers and per-container policies (kubernetes v1.37.2
// pkg/apis/core/validation/validation.go): validateHandler (exec, httpGet, tcpSocket, grpc, sleep),
// validateSleepAction, validateProbe and the liveness / readiness / startup rules, validateLifecycle,
// validateResizePolicy, validateContainerRestartPolicy, validateInitContainerRestartPolicy,
// AccumulateUniqueHostPorts, and the allow-list of validateEphemeralContainers.
// Release differences: PodLifecycleSleepActionAllowZero (beta, on from 1.33) lets a sleep be 0;
// ContainerRestartRules (beta, on from 1.35) and RestartAllContainersOnContainerExits (beta, on from
// 1.36) open container restart rules. lifecycle.stopSignal (ContainerStopSignals, alpha) is dropped by
// the strategy before validation in every supported release, so it is not checked.

const HTTP_SCHEMES = ['HTTP', 'HTTPS']
const HTTP_PROTOCOLS = ['HTTP/1.1', 'HTTP2']
const GRPC_MODES = ['Plaintext', 'TLS']
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/

function validateHTTPGet(x: JSONObject, q: FieldPath): FieldError[] {
  const e: FieldError[] = []
  if (str(x.path).length === 0) e.push(field.required(q.child('path'), ''))
  e.push(...validatePortNumOrName(x.port, q.child('port')))
  const scheme = str(x.scheme)
  if (!HTTP_SCHEMES.includes(scheme)) e.push(field.notSupported(q.child('scheme'), scheme, HTTP_SCHEMES))
  for (const hd of arr(x.httpHeaders)) {
    const name = str(obj(hd)?.name)
    if (!HTTP_HEADER_NAME.test(name))
      e.push(
        field.invalid(
          q.child('httpHeaders'),
          name,
          "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
        ),
      )
  }
  if (typeof x.protocol === 'string') {
    const pr = x.protocol
    if (!HTTP_PROTOCOLS.includes(pr)) e.push(field.notSupported(q.child('protocol'), pr, HTTP_PROTOCOLS))
    else if (pr === 'HTTP2' && scheme !== 'HTTP')
      e.push(field.invalid(q.child('protocol'), pr, 'is only supported with HTTP (H2C)'))
    else if (pr === 'HTTP2' && str(x.host).length > 0)
      e.push(field.invalid(q.child('host'), str(x.host), 'must be empty when `protocol` is "HTTP2"'))
  }
  return e
}

/** validateSleepAction (gracePeriod undefined: the pod's own error is reported elsewhere). */
function validateSleep(x: JSONObject, q: FieldPath, gracePeriod: number | undefined, minor: number) {
  if (gracePeriod === undefined) return []
  const s = optNum(x.seconds) ?? 0
  if (minor >= 33) {
    if (s < 0 || s > gracePeriod)
      return [field.invalid(q, s, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`)]
  } else if (s <= 0 || s > gracePeriod)
    return [
      field.invalid(
        q,
        s,
        minor === 32
          ? `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`
          : `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod})`,
      ),
    ]
  return []
}

type HandlerKind = 'probe' | 'lifecycle'

/** validateHandler over the handler kinds a probe (exec, httpGet, tcpSocket, grpc) or a lifecycle hook (exec, httpGet, tcpSocket, sleep) has. */
export function validateHandler(
  h: JSONObject,
  kind: HandlerKind,
  gracePeriod: number | undefined,
  p: FieldPath,
  minor: number,
): FieldError[] {
  const errs: FieldError[] = []
  let n = 0
  const one = (k: string, f: (x: JSONObject, q: FieldPath) => FieldError[]) => {
    if (!isObj(h[k])) return
    if (n > 0) errs.push(field.forbidden(p.child(k), 'may not specify more than 1 handler type'))
    else {
      n++
      errs.push(...f(h[k] as JSONObject, p.child(k)))
    }
  }
  one('exec', (x, q) => (arr(x.command).length === 0 ? [field.required(q.child('command'), '')] : []))
  one('httpGet', validateHTTPGet)
  one('tcpSocket', (x, q) => validatePortNumOrName(x.port, q.child('port')))
  if (kind === 'probe')
    one('grpc', (x, q) => {
      const e = validatePortNumOrName(optNum(x.port) ?? 0, q.child('port'))
      if (typeof x.mode === 'string' && !GRPC_MODES.includes(x.mode))
        e.push(field.notSupported(q.child('mode'), x.mode, GRPC_MODES))
      return e
    })
  else one('sleep', (x, q) => validateSleep(x, q, gracePeriod, minor))
  if (n === 0) errs.push(field.required(p, 'must specify a handler type'))
  return errs
}

export type ProbeKind = 'liveness' | 'readiness' | 'startup'

/** validateLivenessProbe / validateReadinessProbe / validateStartupProbe (validateProbe first). */
export function validateProbe(probe: unknown, kind: ProbeKind, p: FieldPath, minor: number): FieldError[] {
  if (!isObj(probe)) return []
  const errs = validateHandler(probe, 'probe', undefined, p, minor)
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'])
    errs.push(...validateNonnegativeField(optNum(probe[k]) ?? 0, p.child(k)))
  const tgps = optNum(probe.terminationGracePeriodSeconds)
  if (tgps !== undefined && tgps <= 0)
    errs.push(field.invalid(p.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'))
  if (kind !== 'readiness') {
    const st = optNum(probe.successThreshold) ?? 0
    if (st !== 1) errs.push(field.invalid(p.child('successThreshold'), st, 'must be 1'))
  } else if (tgps !== undefined)
    errs.push(field.invalid(p.child('terminationGracePeriodSeconds'), tgps, 'must not be set for readinessProbes'))
  return errs
}

/** The three probes of a container, in Go's order. */
export function validateProbes(c: JSONObject, p: FieldPath, minor: number): FieldError[] {
  return [
    ...validateProbe(c.livenessProbe, 'liveness', p.child('livenessProbe'), minor),
    ...validateProbe(c.readinessProbe, 'readiness', p.child('readinessProbe'), minor),
    ...validateProbe(c.startupProbe, 'startup', p.child('startupProbe'), minor),
  ]
}

/** validateLifecycle (postStart, preStop). */
export function validateLifecycle(lc: JSONObject, gracePeriod: number | undefined, p: FieldPath, minor: number) {
  const errs: FieldError[] = []
  if (isObj(lc.postStart))
    errs.push(...validateHandler(lc.postStart, 'lifecycle', gracePeriod, p.child('postStart'), minor))
  if (isObj(lc.preStop)) errs.push(...validateHandler(lc.preStop, 'lifecycle', gracePeriod, p.child('preStop'), minor))
  return errs
}

const RESIZE_RESOURCES = ['cpu', 'memory']
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer']

/** validateResizePolicy. */
export function validateResizePolicy(list: unknown, p: FieldPath, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  arr(list).forEach((x, i) => {
    const rp = obj(x) ?? {}
    const name = str(rp.resourceName)
    const policy = str(rp.restartPolicy)
    if (seen.has(name)) errs.push(field.duplicate(p.index(i), name))
    seen.add(name)
    if (name === '') errs.push(field.required(p, ''))
    else if (!RESIZE_RESOURCES.includes(name)) errs.push(field.notSupported(p, name, RESIZE_RESOURCES))
    if (policy === '') errs.push(field.required(p, ''))
    else if (!RESIZE_POLICIES.includes(policy)) errs.push(field.notSupported(p, policy, RESIZE_POLICIES))
    if (podRestartPolicy === 'Never' && policy !== 'NotRequired')
      errs.push(field.invalid(p, policy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"))
  })
  return errs
}

/** The internal []core.ContainerResizePolicy as json.Marshal prints it. */
export const resizePolicyValue = (list: unknown): GoStruct[] =>
  arr(list).map(
    (x) =>
      new GoStruct([
        ['ResourceName', str(obj(x)?.resourceName)],
        ['RestartPolicy', str(obj(x)?.restartPolicy)],
      ]),
  )

const CONTAINER_RESTART_POLICIES = ['Always', 'Never', 'OnFailure']
const RULE_OPERATORS = ['In', 'NotIn']

/** validateContainerRestartPolicy (restartPolicy and restartPolicyRules of any container). */
export function validateContainerRestartPolicy(c: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const rules = arr(c.restartPolicyRules)
  const rp = p.child('restartPolicy')
  if (typeof c.restartPolicy !== 'string') {
    if (rules.length === 0) return errs
    errs.push(field.required(rp, 'must specify restartPolicy when restart rules are used'))
  } else if (!CONTAINER_RESTART_POLICIES.includes(c.restartPolicy))
    errs.push(field.notSupported(rp, c.restartPolicy, CONTAINER_RESTART_POLICIES))
  if (rules.length > 20) errs.push(field.tooMany(p.child('restartPolicyRules'), rules.length, 20))
  const actions = minor >= 36 ? ['Restart', 'RestartAllContainers'] : ['Restart']
  rules.forEach((x, i) => {
    const rule = obj(x) ?? {}
    const rp2 = p.child('restartPolicyRules').index(i)
    const action = str(rule.action)
    if (!actions.includes(action)) errs.push(field.notSupported(rp2.child('action'), action, actions))
    const ec = obj(rule.exitCodes)
    if (ec !== undefined) {
      const op = str(ec.operator)
      if (!RULE_OPERATORS.includes(op))
        errs.push(field.notSupported(rp2.child('exitCodes', 'operator'), op, RULE_OPERATORS))
      const values = arr(ec.values)
      if (values.length > 255) errs.push(field.tooMany(rp2.child('exitCodes', 'values'), values.length, 255))
    } else errs.push(field.required(rp2.child('exitCodes'), 'must be specified'))
  })
  return errs
}

/** The restartPolicy rule of a regular container (ContainerRestartRules on from 1.35). */
export function validateRegularContainerRestartPolicy(c: JSONObject, p: FieldPath, minor: number): FieldError[] {
  if (minor >= 35) return validateContainerRestartPolicy(c, p, minor)
  if (typeof c.restartPolicy === 'string')
    return [field.forbidden(p.child('restartPolicy'), 'may not be set for non-init containers')]
  return []
}

/** validateInitContainerRestartPolicy. */
export function validateInitContainerRestartPolicy(c: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const rules = arr(c.restartPolicyRules)
  if (typeof c.restartPolicy !== 'string') {
    return rules.length > 0
      ? [field.required(p.child('restartPolicy'), 'must specify restartPolicy when restart rules are used')]
      : []
  }
  if (minor >= 35) {
    if (c.restartPolicy === 'Always') {
      if (minor >= 36) return validateContainerRestartPolicy(c, p, minor)
      if (rules.length > 0)
        return [
          field.forbidden(
            p.child('restartPolicyRules'),
            'restartPolicyRules are not allowed for init containers with restart policy Always',
          ),
        ]
      return []
    }
    return validateContainerRestartPolicy(c, p, minor)
  }
  return c.restartPolicy === 'Always' ? [] : [field.notSupported(p.child('restartPolicy'), c.restartPolicy, ['Always'])]
}

/** AccumulateUniqueHostPorts over `containers`, their paths indexed from `p` as Go does. */
export function checkHostPortConflicts(containers: unknown[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  containers.forEach((c, ci) => {
    arr(obj(c)?.ports).forEach((x, pi) => {
      const port = obj(x) ?? {}
      const hp = optNum(port.hostPort) ?? 0
      if (hp === 0) return
      const k = `${str(port.protocol)}/${str(port.hostIP)}/${hp}`
      if (seen.has(k)) errs.push(field.duplicate(p.index(ci).child('ports').index(pi).child('hostPort'), k))
      else seen.add(k)
    })
  })
  return errs
}

// EphemeralContainerCommon's fields in declaration order, with whether an ephemeral container may set them.
const EPHEMERAL_FIELDS: readonly (readonly [string, boolean])[] = [
  ['name', true],
  ['image', true],
  ['command', true],
  ['args', true],
  ['workingDir', true],
  ['ports', false],
  ['envFrom', true],
  ['env', true],
  ['resources', false],
  ['resizePolicy', false],
  ['restartPolicy', false],
  ['restartPolicyRules', false],
  ['volumeMounts', true],
  ['volumeDevices', true],
  ['livenessProbe', false],
  ['readinessProbe', false],
  ['startupProbe', false],
  ['lifecycle', false],
  ['terminationMessagePath', true],
  ['terminationMessagePolicy', true],
  ['imagePullPolicy', true],
  ['securityContext', true],
  ['stdin', true],
  ['stdinOnce', true],
  ['tty', true],
]

/** Whether a decoded value differs from its Go zero value (nil / empty struct / empty slice count as set). */
function isSetValue(k: string, v: unknown): boolean {
  if (v === undefined || v === null) return false
  if (k === 'resources') {
    // a core.ResourceRequirements struct: set when any of its maps / slices is non-nil
    const r = obj(v) ?? {}
    return ['limits', 'requests', 'claims'].some((f) => r[f] !== undefined && r[f] !== null)
  }
  return true
}

/** validateFieldAllowList for an ephemeral container: the fields it may not set. */
export function validateEphemeralAllowList(c: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  for (const [k, allowed] of EPHEMERAL_FIELDS)
    if (!allowed && isSetValue(k, c[k]))
      errs.push(field.forbidden(p.child(k), 'cannot be set for an Ephemeral Container'))
  return errs
}
