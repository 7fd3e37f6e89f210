import { type FieldError, FieldPath, field, MarshaledJSON, OMIT } from '../../../kube/field.js'
import { deepEqualJSON } from '../../../kube/schema/deep-equal.js'
import { PLACEHOLDER_UID } from '../../../kube/system-fields.js'
import type { LabelSelector as PolicyLabelSelector } from '../../../kube/validation/label-selector.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, regexError } from '../../../kube/validation/names.js'
import { nameIsDNSSubdomain, validateObjectMetaFor } from '../../../kube/validation/objectmeta.js'
import { isObject as isObj, type JSONObject, sortedKeys } from '../../../kube/values/json.js'
import { validateNonnegative, validatePodTemplateSpec } from '../core/pod.js'
import { asSelector, selectorValue } from '../selectors.js'

// batch/v1 Job and CronJob (kubernetes v1.37.2 pkg/apis/batch/validation/validation.go: ValidateJobCreate
// / ValidateJobUpdate, ValidateCronJobCreate / ValidateCronJobUpdate, and the registry strategies of
// pkg/registry/batch/{job,cronjob}/strategy.go). On create the Job strategy's PrepareForCreate runs
// first: unless spec.manualSelector is true it adds the `job-name`, `batch.kubernetes.io/job-name`,
// `controller-uid` and `batch.kubernetes.io/controller-uid` template labels and the
// `batch.kubernetes.io/controller-uid` selector (the uid is the apiserver's fresh one: the create handler
// wipes the object's own metadata.uid and fills a new one before PrepareForCreate; offline a placeholder,
// docs/known-differences.md). Not done: spec.scheduling
// (WorkloadWithJob, alpha: the workloadbuilder checks), the update options that depend on the stored
// status (a suspended Job that never started may change its scheduling directives and, from 1.36,
// container resources; kelp reads status.startTime and status.active from the old object).

const obj = (v: unknown): JSONObject => (isObj(v) ? v : {})
const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined
const has = (o: JSONObject, k: string) => o[k] !== undefined && o[k] !== null
const META = FieldPath.of('metadata')
const SPEC = FieldPath.of('spec')

export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid'
export const LEGACY_JOB_NAME_LABEL = 'job-name'
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid'
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name'
/** The uid kelp gives a Job created without one (the apiserver generates a random one). */

const MAX_PARALLELISM_INDEXED = 100000
const MAX_FAILED_INDEXES_INDEXED = 100_000
const COMPLETIONS_SOFT_LIMIT = 100_000
const PARALLELISM_LIMIT_HIGH_COMPLETIONS = 10_000
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000
const MAX_POD_FAILURE_POLICY_RULES = 20
const MAX_ON_EXIT_CODES_VALUES = 255
const MAX_ON_POD_CONDITIONS_PATTERNS = 20
const MAX_MANAGED_BY_LENGTH = 63
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024
const MAX_SUCCESS_POLICY_RULES = 20

const POD_FAILURE_POLICY_ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore']
const ON_EXIT_CODES_OPERATORS = ['In', 'NotIn']
const CONDITION_STATUSES = ['False', 'True', 'Unknown']
const POD_REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed']

/** Go's %q of a []string (`["a" "b"]`). */
const goQuotedList = (l: readonly string[]) => `[${l.map((s) => JSON.stringify(s)).join(' ')}]`

/** A map[string]string bad value: JSON from 1.34, Go's %#v before. */
function mapValue(m: Record<string, string> | undefined, minor: number): { value: unknown; printed?: string } {
  if (minor >= 34) return { value: m ?? null }
  if (m === undefined) return { value: null, printed: 'map[string]string(nil)' }
  const ks = sortedKeys(m)
  return {
    value: m,
    printed: `map[string]string{${ks.map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`).join(', ')}}`,
  }
}
function invalidMap(p: FieldPath, m: Record<string, string> | undefined, detail: string, minor: number): FieldError {
  const v = mapValue(m, minor)
  const e = field.invalid(p, v.value, detail)
  return v.printed === undefined ? e : { ...e, printedValue: v.printed }
}

const labelsOf = (template: JSONObject): Record<string, string> | undefined => {
  const l = obj(template.metadata).labels
  return isObj(l) ? (l as Record<string, string>) : undefined
}

/** An []int32 bad value: JSON from 1.34, %#v before. */
function int32sValue(vals: number[], minor: number): { value: unknown; printedValue?: string } {
  return minor >= 34 ? { value: vals } : { value: vals, printedValue: `[]int32{${vals.join(', ')}}` }
}
interface Bounds {
  readonly min: bigint
  readonly max: bigint
  readonly names?: Readonly<Record<string, bigint>>
}

const MINUTES: Bounds = { min: 0n, max: 59n }
const HOURS: Bounds = { min: 0n, max: 23n }
const DOM: Bounds = { min: 1n, max: 31n }
const MONTHS: Bounds = {
  min: 1n,
  max: 12n,
  names: {
    jan: 1n,
    feb: 2n,
    mar: 3n,
    apr: 4n,
    may: 5n,
    jun: 6n,
    jul: 7n,
    aug: 8n,
    sep: 9n,
    oct: 10n,
    nov: 11n,
    dec: 12n,
  },
}
const DOW: Bounds = { min: 0n, max: 6n, names: { sun: 0n, mon: 1n, tue: 2n, wed: 3n, thu: 4n, fri: 5n, sat: 6n } }

class CronError extends Error {}
const fail = (m: string): never => {
  throw new CronError(m)
}

const INT64_MAX = (1n << 63n) - 1n
const INT64_MIN = -(1n << 63n)

/** Go's strconv.Quote for the ASCII-printable texts it sees here (other characters escaped as Go does). */
function strconvQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0) as number
    if (ch === '"' || ch === '\\') out += `\\${ch}`
    else if (c >= 0x20 && c < 0x7f) out += ch
    else if (c === 0x0a) out += '\\n'
    else if (c === 0x09) out += '\\t'
    else if (c === 0x0d) out += '\\r'
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`
    else if (c > 0xa0 && !/\s/u.test(ch)) out += ch
    else out += c <= 0xffff ? `\\u${c.toString(16).padStart(4, '0')}` : `\\U${c.toString(16).padStart(8, '0')}`
  }
  return `${out}"`
}

/** strconv.Atoi (64-bit int), its errors as mustParseInt wraps them. */
function mustParseInt(expr: string): bigint {
  const m = /^[+-]?[0-9]+$/.exec(expr)
  if (m === null)
    return fail(`failed to parse int from ${expr}: strconv.Atoi: parsing ${strconvQuote(expr)}: invalid syntax`)
  const n = BigInt(expr.startsWith('+') ? expr.slice(1) : expr)
  if (n > INT64_MAX || n < INT64_MIN)
    return fail(`failed to parse int from ${expr}: strconv.Atoi: parsing ${strconvQuote(expr)}: value out of range`)
  if (n < 0n) return fail(`negative number (${n}) not allowed: ${expr}`)
  return n
}

function parseIntOrName(expr: string, names: Bounds['names']): bigint {
  if (names !== undefined) {
    const v = names[expr.toLowerCase()]
    if (v !== undefined) return v
  }
  return mustParseInt(expr)
}

/** getRange: number | number "-" number [ "/" number ]. */
function getRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/')
  const lowAndHigh = (rangeAndStep[0] as string).split('-')
  const single = lowAndHigh.length === 1
  let start: bigint
  let end: bigint
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min
    end = r.max
  } else {
    start = parseIntOrName(lowAndHigh[0] as string, r.names)
    if (lowAndHigh.length === 1) end = start
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] as string, r.names)
    else end = fail(`too many hyphens: ${expr}`)
  }
  let step = 1n
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] as string)
    if (single) end = r.max
  } else if (rangeAndStep.length > 2) fail(`too many slashes: ${expr}`)
  if (start < r.min) fail(`beginning of range (${start}) below minimum (${r.min}): ${expr}`)
  if (end > r.max) fail(`end of range (${end}) above maximum (${r.max}): ${expr}`)
  if (start > end) fail(`beginning of range (${start}) beyond end of range (${end}): ${expr}`)
  if (step === 0n) fail(`step of range should be a positive number: ${expr}`)
}

function getField(f: string, r: Bounds): void {
  for (const expr of f.split(',').filter((x) => x.length > 0)) getRange(expr, r)
}

/** Go's strings.Fields (unicode.IsSpace separators). */
const goFields = (s: string): string[] =>
  s.split(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/).filter((x) => x.length > 0)

/** time.quote (the time package's own quoting: non-ASCII bytes as \xNN). */
function timeQuote(s: string): string {
  let out = '"'
  for (const b of new TextEncoder().encode(s)) {
    if (b >= 0x80 || b < 0x20) out += `\\x${b.toString(16).padStart(2, '0')}`
    else {
      const c = String.fromCharCode(b)
      out += c === '"' || c === '\\' ? `\\${c}` : c
    }
  }
  return `${out}"`
}

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1000000n,
  s: 1000000000n,
  m: 60n * 1000000000n,
  h: 3600n * 1000000000n,
}

/** time.ParseDuration's error, or undefined when the text parses. */
export function parseDurationError(orig: string): string | undefined {
  const invalid = `time: invalid duration ${timeQuote(orig)}`
  let s = orig
  let neg = false
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-'
    s = s.slice(1)
  }
  if (s === '0') return undefined
  if (s === '') return invalid
  let d = 0n
  const LIMIT = 1n << 63n
  while (s !== '') {
    if (!/^[.0-9]/.test(s)) return invalid
    const im = /^[0-9]*/.exec(s)?.[0] ?? ''
    let v = im.length > 0 ? BigInt(im) : 0n
    if (v > LIMIT) return invalid
    s = s.slice(im.length)
    const pre = im.length > 0
    let post = false
    let fracDigits = ''
    if (s.startsWith('.')) {
      s = s.slice(1)
      fracDigits = /^[0-9]*/.exec(s)?.[0] ?? ''
      s = s.slice(fracDigits.length)
      post = fracDigits.length > 0
    }
    if (!pre && !post) return invalid
    let i = 0
    while (i < s.length && !/[.0-9]/.test(s[i] as string)) i++
    if (i === 0) return `time: missing unit in duration ${timeQuote(orig)}`
    const u = s.slice(0, i)
    s = s.slice(i)
    const unit = UNITS[u]
    if (unit === undefined) return `time: unknown unit ${timeQuote(u)} in duration ${timeQuote(orig)}`
    if (v > LIMIT / unit) return invalid
    v *= unit
    if (fracDigits.length > 0) {
      v += BigInt(Math.floor(Number(`0.${fracDigits}`) * Number(unit)))
      if (v > LIMIT) return invalid
    }
    d += v
    if (d > LIMIT) return invalid
  }
  if (!neg && d > LIMIT - 1n) return invalid
  return undefined
}

// ---------------------------------------------------------------------------------------------
// time zones

let zonesByLower: Map<string, string> | undefined

/**
 * Whether time.LoadLocation(name) succeeds, as far as Node's ICU time zone data tells: "" / UTC /
 * Local always; otherwise a name ICU accepts, case-sensitively for canonical names and UTC (Go
 * reads case-sensitive file names; ICU ignores case). ICU aliases are accepted in any case.
 */
export function timeZoneExists(name: string): boolean {
  // Factory: in the tz database (and Go's), not in ICU
  if (name === '' || name === 'UTC' || name === 'Local' || name === 'Factory') return true
  let resolved: string
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return false
  }
  if (resolved === name) return true
  if (resolved.toLowerCase() === name.toLowerCase()) return false
  if (zonesByLower === undefined) {
    zonesByLower = new Map()
    for (const z of Intl.supportedValuesOf('timeZone')) zonesByLower.set(z.toLowerCase(), z)
  }
  const exact = zonesByLower.get(name.toLowerCase())
  return exact === undefined || exact === name
}

/** time.LoadLocation's error text, or undefined. */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return 'time: invalid location name'
  return timeZoneExists(name) ? undefined : `unknown time zone ${name}`
}

// ---------------------------------------------------------------------------------------------

/** ParseCronScheduleWithPanicRecovery(schedule): the error text, or undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    parseStandard(spec)
    return undefined
  } catch (e) {
    if (e instanceof CronError) return e.message
    throw e
  }
}

function parseStandard(input: string): void {
  let spec = input
  if (spec.length === 0) fail('empty spec string')
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const i = spec.indexOf(' ')
    const eq = spec.indexOf('=')
    // spec[eq+1 : i] with i = -1 panics; the panic is recovered by the apiserver's wrapper
    if (i < 0) fail('invalid schedule format: runtime error: slice bounds out of range [:-1]')
    const loc = spec.slice(eq + 1, i)
    const err = loadLocationError(loc)
    if (err !== undefined) fail(`provided bad location ${loc}: ${err}`)
    spec = spec.slice(i).trim()
  }
  if (spec.startsWith('@')) {
    parseDescriptor(spec)
    return
  }
  const fields = goFields(spec)
  if (fields.length !== 5) fail(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`)
  getField(fields[0] as string, MINUTES)
  getField(fields[1] as string, HOURS)
  getField(fields[2] as string, DOM)
  getField(fields[3] as string, MONTHS)
  getField(fields[4] as string, DOW)
}

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'])

function parseDescriptor(d: string): void {
  if (DESCRIPTORS.has(d)) return
  const every = '@every '
  if (d.startsWith(every)) {
    const err = parseDurationError(d.slice(every.length))
    if (err !== undefined) fail(`failed to parse duration ${d}: ${err}`)
    return
  }
  fail(`unrecognized descriptor: ${d}`)
}

/** The internal batch.SuccessPolicy as json.Marshal prints it (no json tags: Go field names). */
function successPolicyValue(sp: JSONObject): MarshaledJSON {
  const rules = sp.rules
  const r = Array.isArray(rules)
    ? `[${rules
        .map((x) => {
          const o = obj(x)
          const si = typeof o.succeededIndexes === 'string' ? JSON.stringify(o.succeededIndexes) : 'null'
          const sc = num(o.succeededCount)
          return `{"SucceededIndexes":${si},"SucceededCount":${sc === undefined ? 'null' : sc}}`
        })
        .join(',')}]`
    : 'null'
  return new MarshaledJSON(`{"Rules":${r}}`)
}

// ---------------------------------------------------------------------------------------------
// indexes (validateIndexesFormat / parseIndexInterval)

class IndexError extends Error {}
const goAtoi = (s: string): number | undefined => (/^[+-]?[0-9]+$/.test(s) ? Number(s) : undefined)

function parseIndexInterval(interval: string, completions: number): [number, number] {
  const limits = interval.split('-')
  if (limits.length > 2)
    throw new IndexError(
      `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`,
    )
  const x = goAtoi(limits[0] as string)
  if (x === undefined) throw new IndexError(`cannot convert string to integer for index: ${JSON.stringify(limits[0])}`)
  if (x >= completions) throw new IndexError(`too large index: ${JSON.stringify(limits[0])}`)
  if (limits.length > 1) {
    const y = goAtoi(limits[1] as string)
    if (y === undefined)
      throw new IndexError(`cannot convert string to integer for index: ${JSON.stringify(limits[1])}`)
    if (y >= completions) throw new IndexError(`too large index: ${JSON.stringify(limits[1])}`)
    if (x >= y) throw new IndexError(`non-increasing order, previous: ${x}, current: ${y}`)
    return [x, y]
  }
  return [x, x]
}

/** validateIndexesFormat: [total, error]. */
export function validateIndexesFormat(indexes: string, completions: number): [number, string | undefined] {
  if (indexes.length === 0) return [0, undefined]
  let last: number | undefined
  let total = 0
  try {
    for (const interval of indexes.split(',')) {
      const [x, y] = parseIndexInterval(interval, completions)
      if (last !== undefined && last >= x)
        throw new IndexError(`non-increasing order, previous: ${last}, current: ${x}`)
      total += y - x + 1
      last = y
    }
  } catch (e) {
    if (e instanceof IndexError) return [0, e.message]
    throw e
  }
  return [total, undefined]
}

// ---------------------------------------------------------------------------------------------
// JobSpec

function validateOnExitCodes(req: JSONObject, p: FieldPath, names: Set<string>, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const op = str(req.operator)
  const opPath = p.child('operator')
  if (op === '') errs.push(field.required(opPath, `valid values: ${goQuotedList(ON_EXIT_CODES_OPERATORS)}`))
  else if (!ON_EXIT_CODES_OPERATORS.includes(op)) errs.push(field.notSupported(opPath, op, ON_EXIT_CODES_OPERATORS))
  if (typeof req.containerName === 'string' && !names.has(req.containerName))
    errs.push(
      field.invalid(
        p.child('containerName'),
        req.containerName,
        'must be one of the container or initContainer names in the pod template',
      ),
    )
  const vp = p.child('values')
  const values = arr(req.values).map((v) => num(v) ?? 0)
  if (values.length === 0) {
    const v = int32sValue(values, minor)
    errs.push({
      ...field.invalid(vp, Array.isArray(req.values) ? [] : null, 'at least one value is required'),
      ...(v.printedValue === undefined
        ? {}
        : { printedValue: Array.isArray(req.values) ? '[]int32{}' : '[]int32(nil)' }),
    })
  } else if (values.length > MAX_ON_EXIT_CODES_VALUES)
    errs.push(field.tooMany(vp, values.length, MAX_ON_EXIT_CODES_VALUES))
  let ordered = true
  const seen = new Set<number>()
  values.forEach((v, j) => {
    const ip = vp.index(j)
    if (op === 'In' && v === 0) errs.push(field.invalid(ip, v, 'must not be 0 for the In operator'))
    if (seen.has(v)) errs.push(field.duplicate(ip, v))
    else seen.add(v)
    if (j > 0 && (values[j - 1] as number) > v) ordered = false
  })
  if (!ordered) {
    const v = int32sValue(values, minor)
    const e = field.invalid(vp, v.value, 'must be ordered')
    errs.push(v.printedValue === undefined ? e : { ...e, printedValue: v.printedValue })
  }
  return errs
}

function validateOnPodConditions(patterns: unknown[], p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  if (patterns.length > MAX_ON_POD_CONDITIONS_PATTERNS)
    errs.push(field.tooMany(p, patterns.length, MAX_ON_POD_CONDITIONS_PATTERNS))
  patterns.forEach((x, j) => {
    const pat = obj(x)
    const pp = p.index(j)
    const type = str(pat.type)
    for (const m of isQualifiedName(type, minor)) errs.push(field.invalid(pp.child('type'), type, m))
    const status = str(pat.status)
    const sp = pp.child('status')
    if (status === '') errs.push(field.required(sp, `valid values: ${goQuotedList(CONDITION_STATUSES)}`))
    else if (!CONDITION_STATUSES.includes(status)) errs.push(field.notSupported(sp, status, CONDITION_STATUSES))
  })
  return errs
}

function validatePodFailurePolicy(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const rules = arr(obj(spec.podFailurePolicy).rules)
  const rp = p.child('rules')
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES)
    errs.push(field.tooMany(rp, rules.length, MAX_POD_FAILURE_POLICY_RULES))
  const ts = obj(obj(spec.template).spec)
  const names = new Set<string>()
  for (const c of [...arr(ts.containers), ...arr(ts.initContainers)]) names.add(str(obj(c).name))
  rules.forEach((x, i) => {
    const rule = obj(x)
    const p2 = rp.index(i)
    const ap = p2.child('action')
    const action = str(rule.action)
    if (action === '') errs.push(field.required(ap, `valid values: ${goQuotedList(POD_FAILURE_POLICY_ACTIONS)}`))
    else if (action === 'FailIndex') {
      if (!has(spec, 'backoffLimitPerIndex'))
        errs.push(field.invalid(ap, action, 'requires the backoffLimitPerIndex to be set'))
    } else if (!POD_FAILURE_POLICY_ACTIONS.includes(action))
      errs.push(field.notSupported(ap, action, POD_FAILURE_POLICY_ACTIONS))
    const onExit = isObj(rule.onExitCodes)
    const conds = arr(rule.onPodConditions)
    if (onExit) errs.push(...validateOnExitCodes(obj(rule.onExitCodes), p2.child('onExitCodes'), names, minor))
    if (conds.length > 0) errs.push(...validateOnPodConditions(conds, p2.child('onPodConditions'), minor))
    if (onExit && conds.length > 0)
      errs.push(field.invalid(p2, OMIT, 'specifying both OnExitCodes and OnPodConditions is not supported'))
    if (!onExit && conds.length === 0)
      errs.push(field.invalid(p2, OMIT, 'specifying one of OnExitCodes and OnPodConditions is required'))
  })
  return errs
}

function validateSuccessPolicy(spec: JSONObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const rules = arr(obj(spec.successPolicy).rules)
  const rp = p.child('rules')
  if (rules.length === 0)
    errs.push(field.required(rp, 'at least one rules must be specified when the successPolicy is specified'))
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errs.push(field.tooMany(rp, rules.length, MAX_SUCCESS_POLICY_RULES))
  const completions = num(spec.completions) ?? 0
  rules.forEach((x, i) => {
    const rule = obj(x)
    const p2 = rp.index(i)
    const hasIdx = typeof rule.succeededIndexes === 'string'
    const count = num(rule.succeededCount)
    if (count === undefined && !hasIdx)
      errs.push(field.required(p2, 'at least one of succeededCount or succeededIndexes must be specified'))
    let total = 0
    if (hasIdx) {
      const si = rule.succeededIndexes as string
      const sp = p2.child('succeededIndexes')
      if (si.length > MAX_SUCCEEDED_INDEXES_LENGTH) errs.push(field.tooLong(sp, MAX_SUCCEEDED_INDEXES_LENGTH))
      const [t, err] = validateIndexesFormat(si, completions)
      total = t
      if (err !== undefined) errs.push(field.invalid(sp, si, `error parsing succeededIndexes: ${err}`))
    }
    if (count !== undefined) {
      const cp = p2.child('succeededCount')
      errs.push(...validateNonnegative(count, cp))
      if (count > completions)
        errs.push(
          field.invalid(
            cp,
            count,
            `must be less than or equal to ${completions} (the number of specified completions)`,
          ),
        )
      if (hasIdx && count > total)
        errs.push(
          field.invalid(
            cp,
            count,
            `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
          ),
        )
    }
  })
  return errs
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+"
const HTTP_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/

/** validation.IsDomainPrefixedPath. */
function isDomainPrefixedPath(p: FieldPath, v: string): FieldError[] {
  if (v.length === 0) return [field.required(p, '')]
  const slash = v.indexOf('/')
  if (slash <= 0 || slash === v.length - 1)
    return [field.invalid(p, v, 'must be a domain-prefixed path (such as "acme.io/foo")')]
  const host = v.slice(0, slash)
  const path = v.slice(slash + 1)
  const errs = isDNS1123Subdomain(host).map((m) => field.invalid(p, host, m))
  if (!HTTP_PATH.test(path)) errs.push(field.invalid(p, path, regexError('Invalid path', HTTP_PATH_FMT)))
  return errs
}

/** validateJobSpec (oldSpec undefined on create). */
function validateJobSpecCommon(spec: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const nn = (k: string) => {
    const v = num(spec[k])
    if (v !== undefined) errs.push(...validateNonnegative(v, p.child(k)))
  }
  nn('parallelism')
  nn('completions')
  nn('activeDeadlineSeconds')
  nn('backoffLimit')
  nn('ttlSecondsAfterFinished')
  nn('backoffLimitPerIndex')
  const parallelism = num(spec.parallelism)
  const completions = num(spec.completions)
  const blpi = num(spec.backoffLimitPerIndex)
  const mfi = num(spec.maxFailedIndexes)
  if (mfi !== undefined) {
    errs.push(...validateNonnegative(mfi, p.child('maxFailedIndexes')))
    if (blpi === undefined)
      errs.push(field.required(p.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'))
  }
  if (typeof spec.managedBy === 'string') {
    errs.push(...isDomainPrefixedPath(p.child('managedBy'), spec.managedBy))
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH)
      errs.push(field.tooLong(p.child('managedBy'), MAX_MANAGED_BY_LENGTH))
  }
  const mode = typeof spec.completionMode === 'string' ? spec.completionMode : undefined
  if (mode !== undefined) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed')
      errs.push(field.notSupported(p.child('completionMode'), mode, ['NonIndexed', 'Indexed']))
    if (mode === 'Indexed') {
      if (completions === undefined)
        errs.push(field.required(p.child('completions'), 'when completion mode is Indexed'))
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_INDEXED)
        errs.push(
          field.invalid(
            p.child('parallelism'),
            parallelism,
            `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`,
          ),
        )
      if (completions !== undefined && mfi !== undefined && mfi > completions)
        errs.push(field.invalid(p.child('maxFailedIndexes'), mfi, 'must be less than or equal to completions'))
      if (mfi !== undefined && mfi > MAX_FAILED_INDEXES_INDEXED)
        errs.push(
          field.invalid(
            p.child('maxFailedIndexes'),
            mfi,
            `must be less than or equal to ${MAX_FAILED_INDEXES_INDEXED}`,
          ),
        )
      if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && blpi !== undefined) {
        const tail = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`
        if (mfi === undefined)
          errs.push(
            field.required(
              p.child('maxFailedIndexes'),
              `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`,
            ),
          )
        if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_HIGH_COMPLETIONS)
          errs.push(
            field.invalid(
              p.child('parallelism'),
              parallelism,
              `must be less than or equal to ${PARALLELISM_LIMIT_HIGH_COMPLETIONS} ${tail}`,
            ),
          )
        if (mfi !== undefined && mfi > MAX_FAILED_INDEXES_HIGH_COMPLETIONS)
          errs.push(
            field.invalid(
              p.child('maxFailedIndexes'),
              mfi,
              `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} ${tail}`,
            ),
          )
      }
    }
  }
  if (mode === undefined || mode === 'NonIndexed') {
    if (blpi !== undefined)
      errs.push(field.invalid(p.child('backoffLimitPerIndex'), blpi, 'requires indexed completion mode'))
    if (mfi !== undefined)
      errs.push(field.invalid(p.child('maxFailedIndexes'), mfi, 'requires indexed completion mode'))
  }
  if (isObj(spec.podFailurePolicy)) errs.push(...validatePodFailurePolicy(spec, p.child('podFailurePolicy'), minor))
  if (isObj(spec.successPolicy)) {
    if (mode !== 'Indexed')
      errs.push(
        field.invalid(
          p.child('successPolicy'),
          successPolicyValue(spec.successPolicy),
          'requires indexed completion mode',
        ),
      )
    else errs.push(...validateSuccessPolicy(spec, p.child('successPolicy')))
  }
  if (typeof spec.podReplacementPolicy === 'string') {
    const prp = spec.podReplacementPolicy
    if (isObj(spec.podFailurePolicy)) {
      if (prp !== 'Failed') errs.push(field.notSupported(p.child('podReplacementPolicy'), prp, ['Failed']))
    } else if (!POD_REPLACEMENT_POLICIES.includes(prp))
      errs.push(field.notSupported(p.child('podReplacementPolicy'), prp, POD_REPLACEMENT_POLICIES))
  }
  const template = obj(spec.template)
  errs.push(...validatePodTemplateSpec(template, p.child('template'), { minor }))
  const rp = str(obj(template.spec).restartPolicy)
  const rpPath = p.child('template', 'spec', 'restartPolicy')
  if (rp === 'Always' || rp === '') errs.push(field.required(rpPath, 'valid values: "OnFailure", "Never"'))
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(field.notSupported(rpPath, rp, ['OnFailure', 'Never']))
  else if (isObj(spec.podFailurePolicy) && rp !== 'Never')
    errs.push(field.invalid(rpPath, rp, 'only "Never" is supported when podFailurePolicy is specified'))
  return errs
}

/** ValidateJobSpec: validateJobSpec, the selector and its match of the template labels. */
function validateJobSpec(spec: JSONObject, p: FieldPath, minor: number, allowInvalidLabelValue: boolean): FieldError[] {
  const errs = validateJobSpecCommon(spec, p, minor)
  if (!isObj(spec.selector)) errs.push(field.required(p.child('selector'), ''))
  else
    errs.push(
      ...validateLabelSelector(
        spec.selector as unknown as PolicyLabelSelector,
        { allowInvalidLabelValueInSelector: allowInvalidLabelValue },
        p.child('selector'),
        minor,
      ),
    )
  const sel = asSelector(spec.selector)
  const template = obj(spec.template)
  if (sel !== undefined && !sel.matches(labelsOf(template) ?? {}))
    errs.push(
      invalidMap(
        p.child('template', 'metadata', 'labels'),
        labelsOf(template),
        '`selector` does not match template `labels`',
        minor,
      ),
    )
  return errs
}

/** ValidateHasLabel. */
function validateHasLabel(
  template: JSONObject,
  p: FieldPath,
  key: string,
  expected: string,
  minor: number,
): FieldError[] {
  const labels = labelsOf(template)
  const lp = p.child('labels').key(key)
  if (labels === undefined || !Object.hasOwn(labels, key)) return [field.required(lp, `must be '${expected}'`)]
  if (labels[key] !== expected) return [invalidMap(lp, labels, `must be '${expected}'`, minor)]
  return []
}

/** validateGeneratedSelector. */
function validateGeneratedSelector(job: JSONObject, requirePrefixed: boolean, minor: number): FieldError[] {
  const spec = obj(job.spec)
  if (spec.manualSelector === true || !isObj(spec.selector)) return []
  const errs: FieldError[] = []
  const meta = obj(job.metadata)
  const uid = str(meta.uid)
  const name = str(meta.name)
  if (uid === '') errs.push(field.required(META.child('uid'), ''))
  const template = obj(spec.template)
  const tp = SPEC.child('template', 'metadata')
  errs.push(...validateHasLabel(template, tp, LEGACY_CONTROLLER_UID_LABEL, uid, minor))
  errs.push(...validateHasLabel(template, tp, LEGACY_JOB_NAME_LABEL, name, minor))
  const expected: Record<string, string> = {}
  if (requirePrefixed) {
    errs.push(...validateHasLabel(template, tp, CONTROLLER_UID_LABEL, uid, minor))
    errs.push(...validateHasLabel(template, tp, JOB_NAME_LABEL, name, minor))
    expected[CONTROLLER_UID_LABEL] = uid
    expected[JOB_NAME_LABEL] = name
  }
  expected[LEGACY_CONTROLLER_UID_LABEL] = uid
  expected[LEGACY_JOB_NAME_LABEL] = name
  const sel = asSelector(spec.selector)
  if (sel !== undefined && !sel.matches(expected))
    errs.push(field.invalid(SPEC.child('selector'), selectorValue(spec.selector), '`selector` not auto-generated'))
  return errs
}

/** validateNameAllowsCompletions. */
function validateNameAllowsCompletions(job: JSONObject): FieldError[] {
  const spec = obj(job.spec)
  const completions = num(spec.completions)
  if (spec.completionMode !== 'Indexed' || completions === undefined || completions <= 0) return []
  const name = str(obj(job.metadata).name)
  const host = `${name}-${completions - 1}`
  if (isDNS1123Label(host).length === 0) return []
  return [field.invalid(META.child('name'), name, `will not able to create pod with invalid DNS label: ${host}`)]
}

/**
 * The Job strategy's PrepareForCreate: generateSelectorIfNeeded (on a copy), with the uid the create handler
 * gave the object (apiserver endpoints/handlers/create.go: rest.WipeObjectMetaSystemFields, then
 * rest.FillObjectMetaSystemFields with a fresh uuid): a uid in the manifest is not the one the labels get.
 */
export function prepareJobForCreate(job: JSONObject): JSONObject {
  const o = structuredClone(job)
  const meta = obj(o.metadata)
  meta.uid = PLACEHOLDER_UID
  o.metadata = meta
  const spec = obj(o.spec)
  if (spec.manualSelector === true) return o
  const template = obj(spec.template)
  const tmeta = obj(template.metadata)
  const labels = isObj(tmeta.labels) ? (tmeta.labels as Record<string, string>) : {}
  const name = str(meta.name)
  const uid = str(meta.uid)
  for (const k of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) if (!Object.hasOwn(labels, k)) labels[k] = name
  for (const k of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) if (!Object.hasOwn(labels, k)) labels[k] = uid
  tmeta.labels = labels
  template.metadata = tmeta
  spec.template = template
  const selector = isObj(spec.selector) ? spec.selector : {}
  const ml = isObj(selector.matchLabels) ? (selector.matchLabels as Record<string, string>) : {}
  if (!Object.hasOwn(ml, CONTROLLER_UID_LABEL)) ml[CONTROLLER_UID_LABEL] = uid
  selector.matchLabels = ml
  spec.selector = selector
  o.spec = spec
  return o
}

const immutable = (nv: unknown, ov: unknown, p: FieldPath, value: unknown = nv ?? null): FieldError[] =>
  deepEqualJSON(nv ?? null, ov ?? null) ? [] : [field.invalid(p, value, 'field is immutable')]

/** validatePodTemplateUpdate (the options from validationOptionsForJob). */
function validatePodTemplateUpdate(
  spec: JSONObject,
  oldSpec: JSONObject,
  old: JSONObject,
  minor: number,
): FieldError[] {
  const template = obj(spec.template)
  let oldTemplate = obj(oldSpec.template)
  const status = obj(old.status)
  const suspended = oldSpec.suspend === true
  const notStarted = status.startTime === undefined || status.startTime === null
  const suspendedCond = arr(status.conditions).some((c) => obj(c).type === 'Suspended' && obj(c).status === 'True')
  const mutableTemplate = suspended && (notStarted || suspendedCond) && (num(status.active) ?? 0) === 0
  // MutableSchedulingDirectivesForSuspendedJobs (beta, on, from 1.35); MutablePodResourcesForSuspendedJobs (beta, on, from 1.35)
  const allowScheduling = minor >= 35 ? mutableTemplate : suspended && notStarted
  const allowResources = minor >= 35 && mutableTemplate
  if (allowScheduling) {
    const ot = structuredClone(oldTemplate)
    const os = obj(ot.spec)
    const ns = obj(template.spec)
    const na = isObj(ns.affinity) ? ns.affinity : undefined
    const oa = isObj(os.affinity) ? os.affinity : undefined
    if (na === undefined && oa !== undefined) {
      delete oa.nodeAffinity
      if (Object.keys(oa).length === 0) delete os.affinity
    } else if (na !== undefined && oa === undefined) {
      os.affinity = na.nodeAffinity === undefined ? {} : { nodeAffinity: na.nodeAffinity }
    } else if (na !== undefined && oa !== undefined) {
      if (na.nodeAffinity === undefined) delete oa.nodeAffinity
      else oa.nodeAffinity = na.nodeAffinity
    }
    const copy = (to: JSONObject, from: JSONObject, k: string) => {
      if (from[k] === undefined) delete to[k]
      else to[k] = from[k]
    }
    copy(os, ns, 'nodeSelector')
    copy(os, ns, 'tolerations')
    copy(os, ns, 'schedulingGates')
    const om = obj(ot.metadata)
    const nm = obj(template.metadata)
    copy(om, nm, 'annotations')
    copy(om, nm, 'labels')
    ot.metadata = om
    ot.spec = os
    oldTemplate = ot
  }
  const tp = SPEC.child('template')
  if (!suspended || !allowResources) return immutable(template, oldTemplate, tp)
  // validatePodResourceUpdatesOnly
  const ns = obj(template.spec)
  const os = structuredClone(obj(oldTemplate.spec))
  for (const k of ['containers', 'initContainers']) {
    const n = arr(ns[k])
    const o = arr(os[k])
    if (n.length !== o.length) continue
    n.forEach((c, i) => {
      const oc = obj(o[i])
      if (oc.name === obj(c).name) {
        if (obj(c).resources === undefined) delete oc.resources
        else oc.resources = obj(c).resources
      }
    })
  }
  return immutable(ns, os, FieldPath.of('spec', 'template.spec'))
}

function validateCompletionsUpdate(spec: JSONObject, oldSpec: JSONObject): FieldError[] {
  const p = SPEC.child('completions')
  if (spec.completionMode !== 'Indexed') return immutable(spec.completions, oldSpec.completions, p)
  const c = num(spec.completions)
  if (c === num(oldSpec.completions) || c === undefined) return []
  if (c !== num(spec.parallelism)) return [field.invalid(p, c, 'can only be modified in tandem with spec.parallelism')]
  return []
}

/** LabelSelectorHasInvalidLabelValue. */
function selectorHasInvalidLabelValue(s: unknown): boolean {
  return arr(obj(s).matchExpressions).some((e) =>
    arr(obj(e).values).some((v) => typeof v === 'string' && isValidLabelValueLike(v)),
  )
}
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/
const isValidLabelValueLike = (v: string) => v.length > 63 || !LABEL_VALUE.test(v)

/** ValidateJobCreate (after the strategy's PrepareForCreate, which the engine path runs first). */
export function validateJobCreate(job: JSONObject, minor: number, requirePrefixedLabels = true): FieldError[] {
  const errs = validateObjectMetaFor(job, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, path: META })
  errs.push(...validateGeneratedSelector(job, requirePrefixedLabels, minor))
  errs.push(...validateJobSpec(obj(job.spec), SPEC, minor, false))
  errs.push(...validateNameAllowsCompletions(job))
  return errs
}

/** ValidateJob (after the strategy's PrepareForCreate selector and labels). */
export function validateJob(job: JSONObject, minor: number): FieldError[] {
  return validateJobCreate(prepareJobForCreate(job), minor, true)
}

/** ValidateJobUpdate. */
export function validateJobUpdate(job: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const spec = obj(job.spec)
  const oldSpec = obj(old.spec)
  const errs = validateObjectMetaFor(job, {
    namespaced: true,
    nameFn: nameIsDNSSubdomain,
    minor,
    oldObject: old,
    path: META,
  })
  errs.push(...validateJobSpec(spec, SPEC, minor, selectorHasInvalidLabelValue(oldSpec.selector)))
  errs.push(...validateCompletionsUpdate(spec, oldSpec))
  errs.push(
    ...immutable(
      spec.selector,
      oldSpec.selector,
      SPEC.child('selector'),
      isObj(spec.selector) ? selectorValue(spec.selector) : null,
    ),
  )
  errs.push(...validatePodTemplateUpdate(spec, oldSpec, old, minor))
  for (const k of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'])
    errs.push(
      ...immutable(
        spec[k],
        oldSpec[k],
        SPEC.child(k),
        k === 'successPolicy' && isObj(spec[k]) ? successPolicyValue(spec[k] as JSONObject) : (spec[k] ?? null),
      ),
    )
  errs.push(...validateNameAllowsCompletions(job))
  return errs
}

// ---------------------------------------------------------------------------------------------
// CronJob

const TZ_PART = /^[A-Za-z.\-_0-9+]{1,14}$/

/** validateScheduleFormat. */
export function validateScheduleFormat(
  schedule: string,
  allowTZ: boolean,
  hasTimeZone: boolean,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const err = cronScheduleError(schedule)
  if (err !== undefined) errs.push(field.invalid(p, schedule, err))
  if (allowTZ && schedule.includes('TZ') && hasTimeZone)
    errs.push(field.invalid(p, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'))
  else if (!allowTZ && schedule.includes('TZ'))
    errs.push(field.invalid(p, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'))
  return errs
}

/** validateTimeZone. */
export function validateTimeZone(tz: unknown, p: FieldPath): FieldError[] {
  if (typeof tz !== 'string') return []
  if (tz.length === 0) return [field.invalid(p, tz, 'timeZone must be nil or non-empty string')]
  for (const part of tz.split('/'))
    if (part === '.' || part === '..' || part.startsWith('-') || !TZ_PART.test(part))
      return [field.invalid(p, tz, `unknown time zone ${tz}`)]
  const errs: FieldError[] = []
  if (tz.toLowerCase() === 'local')
    errs.push(
      field.invalid(p, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'),
    )
  const err = loadLocationError(tz)
  if (err !== undefined) errs.push(field.invalid(p, tz, err))
  return errs
}

/** ValidateJobTemplateSpec. */
function validateJobTemplateSpec(t: JSONObject, p: FieldPath, minor: number): FieldError[] {
  const spec = obj(t.spec)
  const errs = validateJobSpecCommon(spec, p.child('spec'), minor)
  if (isObj(spec.selector))
    errs.push(
      field.invalid(p.child('spec', 'selector'), selectorValue(spec.selector), '`selector` will be auto-generated'),
    )
  if (spec.manualSelector === true)
    errs.push(field.notSupported(p.child('spec', 'manualSelector'), true, ['nil', 'false']))
  return errs
}

const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace']

/** validateCronJobSpec. */
function validateCronJobSpec(spec: JSONObject, oldSpec: JSONObject | undefined, minor: number): FieldError[] {
  const errs: FieldError[] = []
  const schedule = str(spec.schedule)
  if (schedule.length === 0) errs.push(field.required(SPEC.child('schedule'), ''))
  else {
    const allowTZ = oldSpec !== undefined && str(oldSpec.schedule).includes('TZ')
    errs.push(...validateScheduleFormat(schedule, allowTZ, typeof spec.timeZone === 'string', SPEC.child('schedule')))
  }
  const sds = num(spec.startingDeadlineSeconds)
  if (sds !== undefined) errs.push(...validateNonnegative(sds, SPEC.child('startingDeadlineSeconds')))
  if (oldSpec === undefined || oldSpec.timeZone !== spec.timeZone)
    errs.push(...validateTimeZone(spec.timeZone, SPEC.child('timeZone')))
  const cp = str(spec.concurrencyPolicy)
  if (cp === '') errs.push(field.required(SPEC.child('concurrencyPolicy'), ''))
  else if (!CONCURRENCY_POLICIES.includes(cp))
    errs.push(field.notSupported(SPEC.child('concurrencyPolicy'), cp, CONCURRENCY_POLICIES))
  errs.push(...validateJobTemplateSpec(obj(spec.jobTemplate), SPEC.child('jobTemplate'), minor))
  for (const k of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    const v = num(spec[k])
    if (v !== undefined) errs.push(...validateNonnegative(v, SPEC.child(k)))
  }
  return errs
}

/** ValidateCronJobCreate. */
export function validateCronJobCreate(cj: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(cj, { namespaced: true, nameFn: nameIsDNSSubdomain, minor, path: META })
  errs.push(...validateCronJobSpec(obj(cj.spec), undefined, minor))
  const name = str(obj(cj.metadata).name)
  if (name.length > 52) errs.push(field.invalid(META.child('name'), name, 'must be no more than 52 characters'))
  return errs
}

/** ValidateCronJobUpdate. */
export function validateCronJobUpdate(cj: JSONObject, old: JSONObject, minor: number): FieldError[] {
  const errs = validateObjectMetaFor(cj, {
    namespaced: true,
    nameFn: nameIsDNSSubdomain,
    minor,
    oldObject: old,
    path: META,
  })
  errs.push(...validateCronJobSpec(obj(cj.spec), obj(old.spec), minor))
  return errs
}
