import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import { nameIsDNSLabel, nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { annotations, arr, type JSONObject, num, obj, str, strs } from '../common.js'

// flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration: kubernetes v1.37.2
// pkg/apis/flowcontrol/validation/validation.go ValidateFlowSchema / ValidatePriorityLevelConfiguration
// (their updates run the same). The PriorityLevelConfiguration's union rules are declarative from 1.37
// (k8s.io/api flowcontrol/v1 zz_generated.validations.go, beta, enforced): `type` required, `limited` /
// `exempt` and `limitResponse.queuing` required with their discriminator and forbidden (no detail)
// without it; they replace the handwritten errors they cover and come after the others. The status is
// reset by PrepareForCreate (src/builtin/stored.ts), so it is not validated. Not modelled: the fixed
// specs of the mandatory objects (`exempt`, `catch-all`), which the cluster has already.

const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch']
const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser']
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User']
const PRIORITY_LEVEL_ENABLEMENT = ['Exempt', 'Limited']
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject']
const MAX_MATCHING_PRECEDENCE = 10000
const MAX_QUEUES = 10 * 1000 * 1000
const MAX_HASH_BITS = 60
const NS_ERR_INTRO = "each member of this list must be '*' or a DNS-1123 label; "
const PRESERVE_ZERO_SHARES = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares'

const hasWildcard = (l: string[]) => l.includes('*')

/** ValidateFlowSchema (also its update). */
export function validateFlowSchema(fs: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(fs, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  errs.push(...validateFlowSchemaSpec(str(obj(fs.metadata)?.name), obj(fs.spec) ?? {}, FieldPath.of('spec')))
  return errs
}

/** ValidateFlowSchemaUpdate: the create validation of the new object. */
export const validateFlowSchemaUpdate = (fs: JSONObject, _old: JSONObject, minor: number) =>
  validateFlowSchema(fs, minor)

/** ValidateFlowSchemaSpec. */
function validateFlowSchemaSpec(name: string, spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const mp = p.child('matchingPrecedence')
  const prec = num(spec.matchingPrecedence)
  if (prec <= 0) errs.push(field.invalid(mp, prec, 'must be a positive value'))
  if (prec > MAX_MATCHING_PRECEDENCE)
    errs.push(field.invalid(mp, prec, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`))
  if (prec === 1 && name !== 'exempt')
    errs.push(field.invalid(mp, prec, "only the schema named 'exempt' may have matchingPrecedence 1"))
  const dm = obj(spec.distinguisherMethod)
  if (dm !== undefined && !DISTINGUISHER_METHODS.includes(str(dm.type)))
    errs.push(
      field.notSupported(
        p.child('distinguisherMethod', 'type'),
        // the internal type's struct (no json tags): its Go field name
        new GoStruct([['Type', str(dm.type)]]),
        DISTINGUISHER_METHODS,
      ),
    )
  const plName = str(obj(spec.priorityLevelConfiguration)?.name)
  const np = p.child('priorityLevelConfiguration', 'name')
  if (plName.length > 0) for (const m of nameIsDNSSubdomain(plName, false)) errs.push(field.invalid(np, plName, m))
  else errs.push(field.required(np, 'must reference a priority level'))
  arr(spec.rules).forEach((r, i) => {
    errs.push(...validatePolicyRulesWithSubjects(obj(r) ?? {}, p.child('rules').index(i)))
  })
  return errs
}

/** ValidateFlowSchemaPolicyRulesWithSubjects. */
function validatePolicyRulesWithSubjects(rule: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const subjects = arr(rule.subjects)
  if (subjects.length > 0)
    subjects.forEach((s, i) => {
      errs.push(...validateSubject(obj(s) ?? {}, p.child('subjects').index(i)))
    })
  else errs.push(field.required(p.child('subjects'), 'subjects must contain at least one value'))
  const rr = arr(rule.resourceRules)
  const nr = arr(rule.nonResourceRules)
  if (rr.length === 0 && nr.length === 0)
    errs.push(field.required(p, 'at least one of resourceRules and nonResourceRules has to be non-empty'))
  rr.forEach((r, i) => {
    errs.push(...validateResourcePolicyRule(obj(r) ?? {}, p.child('resourceRules').index(i)))
  })
  nr.forEach((r, i) => {
    errs.push(...validateNonResourcePolicyRule(obj(r) ?? {}, p.child('nonResourceRules').index(i)))
  })
  return errs
}

const forbidUser = (p: FieldPath) =>
  field.forbidden(p.child('user'), "user is forbidden when subject kind is not 'User'")
const forbidGroup = (p: FieldPath) =>
  field.forbidden(p.child('group'), "group is forbidden when subject kind is not 'Group'")
const forbidSA = (p: FieldPath) =>
  field.forbidden(p.child('serviceAccount'), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'")

/** ValidateFlowSchemaSubject. */
function validateSubject(s: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const set = (k: string) => s[k] !== undefined && s[k] !== null
  switch (s.kind) {
    case 'ServiceAccount':
      errs.push(...validateServiceAccountSubject(obj(s.serviceAccount), p.child('serviceAccount')))
      if (set('user')) errs.push(forbidUser(p))
      if (set('group')) errs.push(forbidGroup(p))
      break
    case 'User':
      errs.push(...validateNamedSubject(obj(s.user), p.child('user'), "user is required when subject kind is 'User'"))
      if (set('serviceAccount')) errs.push(forbidSA(p))
      if (set('group')) errs.push(forbidGroup(p))
      break
    case 'Group':
      errs.push(
        ...validateNamedSubject(obj(s.group), p.child('group'), "group is required when subject kind is 'Group'"),
      )
      if (set('serviceAccount')) errs.push(forbidSA(p))
      if (set('user')) errs.push(forbidUser(p))
      break
    default:
      errs.push(field.notSupported(p.child('kind'), str(s.kind), SUBJECT_KINDS))
  }
  return errs
}

/** ValidateServiceAccountSubject. */
function validateServiceAccountSubject(sa: JSONObject | undefined, p: FieldPath): FieldError[] {
  if (sa === undefined) return [field.required(p, "serviceAccount is required when subject kind is 'ServiceAccount'")]
  const errs: FieldError[] = []
  const name = str(sa.name)
  if (name.length === 0) errs.push(field.required(p.child('name'), ''))
  else if (name !== '*')
    for (const m of nameIsDNSSubdomain(name, false)) errs.push(field.invalid(p.child('name'), name, m))
  const ns = str(sa.namespace)
  if (ns.length > 0) for (const m of nameIsDNSLabel(ns, false)) errs.push(field.invalid(p.child('namespace'), ns, m))
  else errs.push(field.required(p.child('namespace'), 'must specify namespace for service account'))
  return errs
}

/** ValidateUserSubject / ValidateGroupSubject. */
function validateNamedSubject(s: JSONObject | undefined, p: FieldPath, missing: string): FieldError[] {
  if (s === undefined) return [field.required(p, missing)]
  return str(s.name).length === 0 ? [field.required(p.child('name'), '')] : []
}

/** The verbs check both rule kinds share. */
function validateVerbs(verbs: string[], p: FieldPath): FieldError[] {
  if (verbs.length === 0) return [field.required(p, 'verbs must contain at least one value')]
  if (hasWildcard(verbs))
    return verbs.length > 1 ? [field.invalid(p, verbs, "if '*' is present, must not specify other verbs")] : []
  if (!verbs.every((v) => SUPPORTED_VERBS.includes(v))) return [field.notSupported(p, verbs, SUPPORTED_VERBS)]
  return []
}

/** ValidateFlowSchemaNonResourcePolicyRule. */
function validateNonResourcePolicyRule(rule: JSONObject, p: FieldPath): FieldError[] {
  const errs = validateVerbs(strs(rule.verbs), p.child('verbs'))
  const urls = strs(rule.nonResourceURLs)
  const up = p.child('nonResourceURLs')
  if (urls.length === 0) errs.push(field.required(up, 'nonResourceURLs must contain at least one value'))
  else if (hasWildcard(urls)) {
    if (urls.length > 1)
      errs.push(field.invalid(up, urls, "if '*' is present, must not specify other non-resource URLs"))
  } else
    urls.forEach((u, i) => {
      const e = validateNonResourceURLPath(u, up.index(i))
      if (e !== undefined) errs.push(e)
    })
  return errs
}

/** ValidateFlowSchemaResourcePolicyRule. */
function validateResourcePolicyRule(rule: JSONObject, p: FieldPath): FieldError[] {
  const errs = validateVerbs(strs(rule.verbs), p.child('verbs'))
  const groups = strs(rule.apiGroups)
  if (groups.length === 0)
    errs.push(field.required(p.child('apiGroups'), 'resource rules must supply at least one api group'))
  else if (groups.length > 1 && hasWildcard(groups))
    errs.push(field.invalid(p.child('apiGroups'), groups, "if '*' is present, must not specify other api groups"))
  const resources = strs(rule.resources)
  if (resources.length === 0)
    errs.push(field.required(p.child('resources'), 'resource rules must supply at least one resource'))
  else if (resources.length > 1 && hasWildcard(resources))
    errs.push(field.invalid(p.child('resources'), resources, "if '*' is present, must not specify other resources"))
  const namespaces = strs(rule.namespaces)
  const np = p.child('namespaces')
  if (namespaces.length === 0 && rule.clusterScope !== true)
    errs.push(field.required(np, 'resource rules that are not cluster scoped must supply at least one namespace'))
  else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1)
      errs.push(field.invalid(np, namespaces, "if '*' is present, must not specify other namespaces"))
  } else
    namespaces.forEach((ns, i) => {
      for (const m of nameIsDNSLabel(ns, false)) errs.push(field.invalid(np.index(i), ns, NS_ERR_INTRO + m))
    })
  return errs
}

/** ValidateNonResourceURLPath. */
function validateNonResourceURLPath(path: string, p: FieldPath): FieldError | undefined {
  if (path.length === 0) return field.invalid(p, path, 'must not be empty')
  if (path === '/') return undefined
  if (!path.startsWith('/')) return field.invalid(p, path, 'must start with slash')
  if (path.includes(' ')) return field.invalid(p, path, 'must not contain white-space')
  if (path.includes('//')) return field.invalid(p, path, 'must not contain double slash')
  const wildcards = path.split('*').length - 1
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith('/*')))
    return field.invalid(p, path, 'wildcard can only do suffix matching')
  return undefined
}

/** ValidatePriorityLevelConfiguration (also its update). */
export function validatePriorityLevelConfiguration(pl: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(pl, { namespaced: false, nameFn: nameIsDNSSubdomain, minor })
  if (Object.hasOwn(annotations(pl), PRESERVE_ZERO_SHARES))
    errs.push(
      field.forbidden(FieldPath.of('metadata', 'annotations'), `annotation '${PRESERVE_ZERO_SHARES}' is forbidden`),
    )
  const spec = obj(pl.spec) ?? {}
  const p = FieldPath.of('spec')
  errs.push(...validatePriorityLevelConfigurationSpec(spec, str(obj(pl.metadata)?.name), p, minor < 37))
  if (minor >= 37) errs.push(...declarativeSpec(spec, p))
  return errs
}

/** ValidatePriorityLevelConfiguration on update. */
export const validatePriorityLevelConfigurationUpdate = (pl: JSONObject, _old: JSONObject, minor: number) =>
  validatePriorityLevelConfiguration(pl, minor)

/** ValidatePriorityLevelConfigurationSpec; `covered`: with the errors the declarative rules cover from 1.37. */
function validatePriorityLevelConfigurationSpec(
  spec: JSONObject,
  name: string,
  p: FieldPath,
  covered: boolean,
): FieldError[] {
  const errs: FieldError[] = []
  const type = str(spec.type)
  if ((name === 'exempt') !== (type === 'Exempt'))
    errs.push(field.invalid(p.child('type'), type, "must be 'Exempt' if and only if `name` is 'exempt'"))
  const limited = obj(spec.limited)
  const exempt = obj(spec.exempt)
  if (type === 'Exempt') {
    if (covered && limited !== undefined)
      errs.push(field.forbidden(p.child('limited'), 'must be nil if the type is not Limited'))
    if (exempt !== undefined) errs.push(...validateExempt(exempt, p.child('exempt')))
  } else if (type === 'Limited') {
    if (covered && exempt !== undefined)
      errs.push(field.forbidden(p.child('exempt'), 'must be nil if the type is Limited'))
    if (limited !== undefined) errs.push(...validateLimited(limited, p.child('limited'), covered))
    else if (covered) errs.push(field.required(p.child('limited'), 'must not be empty when type is Limited'))
  } else if (type !== '') errs.push(field.notSupported(p.child('type'), type, PRIORITY_LEVEL_ENABLEMENT))
  else if (covered) errs.push(field.required(p.child('type'), ''))
  return errs
}

/** Validate_PriorityLevelConfigurationSpec (zz_generated.validations.go): the union rules, then the type. */
function declarativeSpec(spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const type = str(spec.type)
  const set = (k: string) => spec[k] !== undefined && spec[k] !== null
  if (type !== 'Exempt' && set('exempt')) errs.push(field.forbidden(p.child('exempt'), ''))
  if (type === 'Limited' && !set('limited')) errs.push(field.required(p.child('limited'), ''))
  if (type !== 'Limited' && set('limited')) errs.push(field.forbidden(p.child('limited'), ''))
  if (type === '') errs.push(field.required(p.child('type'), ''))
  const lr = obj(obj(spec.limited)?.limitResponse)
  if (lr !== undefined) {
    const lp = p.child('limited', 'limitResponse')
    const lrType = str(lr.type)
    const queuing = lr.queuing !== undefined && lr.queuing !== null
    if (lrType === 'Queue' && !queuing) errs.push(field.required(lp.child('queuing'), ''))
    if (lrType !== 'Queue' && queuing) errs.push(field.forbidden(lp.child('queuing'), ''))
    if (lrType === '') errs.push(field.required(lp.child('type'), ''))
  }
  return errs
}

/** ValidateLimitedPriorityLevelConfiguration. */
function validateLimited(l: JSONObject, p: FieldPath, covered: boolean): FieldError[] {
  const errs: FieldError[] = []
  const shares = num(l.nominalConcurrencyShares)
  if (shares < 0)
    errs.push(field.invalid(p.child('nominalConcurrencyShares'), shares, 'must be a non-negative integer'))
  errs.push(...validateLimitResponse(obj(l.limitResponse) ?? {}, p.child('limitResponse'), covered))
  errs.push(...validateLendablePercent(l.lendablePercent, p))
  if (typeof l.borrowingLimitPercent === 'number' && l.borrowingLimitPercent < 0)
    errs.push(
      field.invalid(
        p.child('borrowingLimitPercent'),
        l.borrowingLimitPercent,
        'if specified, must be a non-negative integer',
      ),
    )
  return errs
}

function validateLendablePercent(v: unknown, p: FieldPath): FieldError[] {
  if (typeof v === 'number' && !(v >= 0 && v <= 100))
    return [field.invalid(p.child('lendablePercent'), v, 'must be between 0 and 100, inclusive')]
  return []
}

/** ValidateExemptPriorityLevelConfiguration. */
function validateExempt(e: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (typeof e.nominalConcurrencyShares === 'number' && e.nominalConcurrencyShares < 0)
    errs.push(
      field.invalid(p.child('nominalConcurrencyShares'), e.nominalConcurrencyShares, 'must be a non-negative integer'),
    )
  errs.push(...validateLendablePercent(e.lendablePercent, p))
  return errs
}

/** ValidateLimitResponse (`covered`: as validatePriorityLevelConfigurationSpec). */
function validateLimitResponse(lr: JSONObject, p: FieldPath, covered: boolean): FieldError[] {
  const type = str(lr.type)
  const q = obj(lr.queuing)
  const qp = p.child('queuing')
  if (type === 'Reject')
    return covered && q !== undefined
      ? [field.forbidden(qp, 'must be nil if limited.limitResponse.type is not Limited')]
      : []
  if (type === 'Queue') {
    if (q !== undefined) return validateQueuing(q, qp)
    return covered ? [field.required(qp, 'must not be empty if limited.limitResponse.type is Limited')] : []
  }
  if (type === '') return covered ? [field.required(p.child('type'), '')] : []
  return [field.notSupported(p.child('type'), type, LIMIT_RESPONSE_TYPES)]
}

/** ValidatePriorityLevelQueuingConfiguration. */
function validateQueuing(q: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const limit = num(q.queueLengthLimit)
  const queues = num(q.queues)
  const hand = num(q.handSize)
  if (limit <= 0) errs.push(field.invalid(p.child('queueLengthLimit'), limit, 'must be positive'))
  if (queues <= 0) errs.push(field.invalid(p.child('queues'), queues, 'must be positive'))
  else if (queues > MAX_QUEUES)
    errs.push(field.invalid(p.child('queues'), queues, `must not be greater than ${MAX_QUEUES}`))
  const hp = p.child('handSize')
  if (hand <= 0) errs.push(field.invalid(hp, hand, 'must be positive'))
  else if (hand > queues) errs.push(field.invalid(hp, hand, `should not be greater than queues (${queues})`))
  else if (Math.ceil(Math.log2(queues) * hand) > MAX_HASH_BITS)
    errs.push(
      field.invalid(
        hp,
        hand,
        `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${MAX_HASH_BITS}`,
      ),
    )
  return errs
}
