import { readFileSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { instantiatePack } from '../check/pack.js'
import { type AdmitResult, isAdmissionStatus, materialKind, PolicySet } from '../engine/policy-set.js'
import type { KubeVersion } from '../kube/environment.js'
import { expandPaths, type JSONObject, loadManifests, parseManifests } from '../manifest/load.js'
import { readError, SKIPPED_DIRECTORIES } from '../manifest/paths.js'
import type { UserInfo } from '../policy/attributes.js'
import { location, pushAll } from '../report/common.js'

// `kelp test`: policy test suites (docs/policy-tests.md). Each suite builds a policy set from its
// `policies` files and checks, per test, what the engine answers against the expectation. The
// material is instantiated for the target release as the bundled pack is (src/check/pack.ts), so a
// suite of the pack tests what `kelp check --kube-version X` applies.

export type Expectation = 'admit' | 'deny' | 'warn'

interface ObjectRef {
  readonly kind?: string
  readonly name?: string
  readonly namespace?: string
}

interface TestCase {
  readonly name?: string
  readonly object?: JSONObject
  readonly resource?: ObjectRef
  readonly oldObject?: JSONObject
  readonly oldResource?: ObjectRef
  readonly operation?: 'CREATE' | 'UPDATE' | 'DELETE'
  readonly userInfo?: UserInfo
  readonly expect?: Expectation
  readonly message?: string
  /** The number of `Warning:` lines the request gets (checked when set). */
  readonly warnings?: number
  /** The releases the test applies to (`>=1.34`, `<1.32`, `1.37`, `>=1.31 <1.35`); all when unset. */
  readonly kubeVersions?: string
  /**
   * The object after the MutatingAdmissionPolicies, matched as a subset (subsetMismatch): every field
   * given must be there with that value; `null` asserts a field absent (or null).
   */
  readonly mutated?: JSONObject
  /** The RFC 6902 patch from the object the mutating policies received to the mutated one, exactly. */
  readonly patch?: readonly unknown[]
}

interface Suite {
  readonly apiVersion?: string
  readonly kind?: string
  readonly metadata?: { readonly name?: string }
  readonly policies?: readonly string[]
  readonly resources?: readonly string[]
  readonly tests?: readonly TestCase[]
}

export interface TestResult {
  readonly suite: string
  readonly file: string
  readonly name: string
  readonly passed: boolean
  /** Why it failed (expectation vs outcome), or the suite error. */
  readonly failure?: string
  readonly durationMs: number
}

export interface SuiteRun {
  readonly file: string
  readonly name: string
  readonly results: readonly TestResult[]
  /** A suite that cannot run (bad file, refused policy material): the runner exits 2. */
  readonly error?: string
}

/**
 * The suite files among `paths`: files as given; in directories, `*.kelp-test.yaml` / `.yml`, not looking
 * into `node_modules` directories.
 */
export function findSuites(paths: readonly string[]): string[] {
  const out: string[] = []
  for (const p of paths) {
    let dir = false
    try {
      dir = statSync(p).isDirectory()
    } catch {
      out.push(p) // reported as unreadable when run
      continue
    }
    if (!dir) out.push(p)
    // installed packages' suites are theirs to run, and walking node_modules takes long
    else
      pushAll(
        out,
        expandPaths([p], { skipDirectories: SKIPPED_DIRECTORIES }).files.filter((f) => /\.kelp-test\.ya?ml$/.test(f)),
      )
  }
  return out
}

/**
 * Whether `version` (`1.<minor>`) is in `range`: space-separated comparisons (`>=1.34`, `<1.37`, `1.36`),
 * all of which must hold; undefined when the range cannot be read.
 */
export function inVersionRange(version: string, range: string): boolean | undefined {
  const minor = (v: string) => (/^1\.(\d+)$/.test(v) ? Number(v.slice(2)) : undefined)
  const target = minor(version)
  const terms = range.trim().split(/\s+/)
  if (target === undefined || terms.length === 0 || terms[0] === '') return undefined
  let ok = true
  for (const term of terms) {
    const m = /^(>=|<=|>|<|=)?(1\.\d+)$/.exec(term)
    const bound = m ? minor(m[2] as string) : undefined
    if (!m || bound === undefined) return undefined
    const op = m[1] ?? '='
    const holds =
      op === '>='
        ? target >= bound
        : op === '<='
          ? target <= bound
          : op === '>'
            ? target > bound
            : op === '<'
              ? target < bound
              : target === bound
    ok &&= holds
  }
  return ok
}

function outcome(r: AdmitResult): Expectation {
  if (!r.allowed) return 'deny'
  return r.warnings.length > 0 ? 'warn' : 'admit'
}

/** What a denial says: the policy's Status, or the built-in / custom resource refusal in kubectl's words. */
const denialText = (r: AdmitResult): string =>
  (isAdmissionStatus(r.status) ? r.status.message : undefined) ??
  r.customResource?.message ??
  r.builtin?.message ??
  r.status?.message ??
  ''

function describe(r: AdmitResult): string {
  if (!r.allowed) return `deny (${denialText(r)})`
  if (r.warnings.length > 0) return `warn (${r.warnings.join(' | ')})`
  return 'admit'
}

const isPlainObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v)

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  const numeric = (x: unknown) => typeof x === 'bigint' || typeof x === 'number'
  if (typeof a === 'bigint' || typeof b === 'bigint') return numeric(a) && numeric(b) && String(a) === String(b)
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  if (!isPlainObject(a) || !isPlainObject(b)) return false
  const ka = Object.keys(a)
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
}

const show = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x))

/**
 * Where `got` does not hold `want`, as a JSON path and the two values (undefined: it holds it). Maps
 * match as subsets (keys of `want` only; `null` wants the key absent or null), lists element by element
 * with the same length (each element a subset match), anything else by equality.
 */
export function subsetMismatch(want: unknown, got: unknown, path = ''): string | undefined {
  if (want === null)
    return got === null || got === undefined ? undefined : `${path || '/'}: expected no value, got ${show(got)}`
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${path || '/'}: expected a list, got ${show(got) ?? 'nothing'}`
    if (got.length !== want.length)
      return `${path || '/'}: expected ${want.length} item(s), got ${got.length}: ${show(got)}`
    for (let i = 0; i < want.length; i++) {
      const m = subsetMismatch(want[i], got[i], `${path}/${i}`)
      if (m !== undefined) return m
    }
    return undefined
  }
  if (isPlainObject(want)) {
    if (!isPlainObject(got)) return `${path || '/'}: expected an object, got ${show(got) ?? 'nothing'}`
    for (const k of Object.keys(want)) {
      const m = subsetMismatch(want[k], got[k], `${path}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`)
      if (m !== undefined) return m
    }
    return undefined
  }
  return deepEqual(want, got) ? undefined : `${path || '/'}: expected ${show(want)}, got ${show(got) ?? 'nothing'}`
}

const refMatches = (o: JSONObject, ref: ObjectRef) => {
  const m = (o.metadata ?? {}) as JSONObject
  return (
    (ref.kind === undefined || o.kind === ref.kind) &&
    (ref.name === undefined || m.name === ref.name) &&
    (ref.namespace === undefined || (m.namespace ?? 'default') === ref.namespace)
  )
}

/** What a value is, in words, for the errors of {@link suiteShapeError}. */
function what(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  const text = typeof v === 'string' ? JSON.stringify(v) : String(v)
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text
  return `${typeof v === 'bigint' ? 'a number' : `a ${typeof v}`} (${shown})`
}

const isScalar = (v: unknown) => ['string', 'number', 'bigint', 'boolean'].includes(typeof v)

/**
 * Where a suite's fields do not have the types docs/policy-tests.md gives them (a list where a list is
 * expected, a mapping where an object is), as `<path>: must be …, not …`; undefined when they all do.
 * Values of the right type are checked where they are used (an unknown `expect` fails its test).
 */
export function suiteShapeError(suite: JSONObject): string | undefined {
  const bad = (path: string, want: string, v: unknown) => `${path}: must be ${want}, not ${what(v)}`
  const mapping = (path: string, v: unknown) =>
    v === undefined || isPlainObject(v) ? undefined : bad(path, 'a mapping', v)
  const string = (path: string, v: unknown) =>
    v === undefined || typeof v === 'string' ? undefined : bad(path, 'a string', v)
  const strings = (path: string, v: unknown): string | undefined => {
    if (v === undefined) return undefined
    if (!Array.isArray(v)) return bad(path, 'a list of strings', v)
    const i = v.findIndex((x) => typeof x !== 'string')
    return i < 0 ? undefined : bad(`${path}[${i}]`, 'a string', v[i])
  }
  const ref = (path: string, v: unknown) => {
    if (v === undefined) return undefined
    if (!isPlainObject(v)) return bad(path, 'a mapping (kind, name, namespace)', v)
    return string(`${path}.kind`, v.kind) ?? string(`${path}.name`, v.name) ?? string(`${path}.namespace`, v.namespace)
  }
  // an empty value (`policies:`) is null: no entries, as before
  const meta = suite.metadata ?? undefined
  const first =
    mapping('metadata', meta) ??
    string('metadata.name', isPlainObject(meta) ? meta.name : undefined) ??
    strings('policies', suite.policies ?? undefined) ??
    strings('resources', suite.resources ?? undefined)
  if (first !== undefined) return first
  const tests = suite.tests
  if (tests === undefined || tests === null) return undefined
  if (!Array.isArray(tests)) return bad('tests', 'a list of tests', tests)
  for (let i = 0; i < tests.length; i++) {
    const t: unknown = tests[i]
    const at = `tests[${i}]`
    if (!isPlainObject(t)) return bad(at, 'a mapping (one test)', t)
    const user = t.userInfo
    const problem =
      (t.name === undefined || isScalar(t.name) ? undefined : bad(`${at}.name`, 'a string', t.name)) ??
      mapping(`${at}.object`, t.object) ??
      mapping(`${at}.oldObject`, t.oldObject) ??
      ref(`${at}.resource`, t.resource) ??
      ref(`${at}.oldResource`, t.oldResource) ??
      (t.operation === undefined || ['CREATE', 'UPDATE', 'DELETE'].includes(t.operation as string)
        ? undefined
        : bad(`${at}.operation`, 'CREATE, UPDATE or DELETE', t.operation)) ??
      mapping(`${at}.userInfo`, user) ??
      (isPlainObject(user)
        ? (string(`${at}.userInfo.username`, user.username) ??
          string(`${at}.userInfo.uid`, user.uid) ??
          strings(`${at}.userInfo.groups`, user.groups) ??
          mapping(`${at}.userInfo.extra`, user.extra))
        : undefined) ??
      string(`${at}.expect`, t.expect) ??
      string(`${at}.message`, t.message) ??
      (t.warnings === undefined || (typeof t.warnings === 'number' && Number.isInteger(t.warnings) && t.warnings >= 0)
        ? undefined
        : bad(`${at}.warnings`, 'a count (0, 1, …)', t.warnings)) ??
      (t.kubeVersions === undefined || typeof t.kubeVersions === 'string' || typeof t.kubeVersions === 'number'
        ? undefined
        : bad(`${at}.kubeVersions`, 'a string (">=1.34", "<1.37", "1.36")', t.kubeVersions)) ??
      mapping(`${at}.mutated`, t.mutated) ??
      (t.patch === undefined || Array.isArray(t.patch) ? undefined : bad(`${at}.patch`, 'a list', t.patch))
    if (problem !== undefined) return problem
  }
  return undefined
}

/** The fields docs/policy-tests.md gives a suite, a test, an object reference and userInfo. */
const SUITE_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'policies', 'resources', 'tests'])
const METADATA_FIELDS = new Set(['name', 'namespace', 'labels', 'annotations'])
const TEST_FIELDS = new Set([
  'name',
  'object',
  'resource',
  'oldObject',
  'oldResource',
  'operation',
  'userInfo',
  'expect',
  'message',
  'warnings',
  'kubeVersions',
  'mutated',
  'patch',
])
const REF_FIELDS = new Set(['kind', 'name', 'namespace'])
const USER_FIELDS = new Set(['username', 'uid', 'groups', 'extra'])

/**
 * The suite's fields docs/policy-tests.md does not define, in apimachinery's strict-decoding words
 * (`unknown field "tests[0].mesage"`), all of them; undefined when there are none. A misspelled
 * `mesage:` or `warning:` would otherwise assert nothing and pass. Objects (`object`, `mutated`, …)
 * are not looked into: they are Kubernetes objects, any field goes.
 */
export function suiteUnknownFields(suite: JSONObject): string | undefined {
  const unknown: string[] = []
  const check = (v: unknown, known: ReadonlySet<string>, at: string) => {
    if (!isPlainObject(v)) return
    for (const k of Object.keys(v)) if (!known.has(k)) unknown.push(at === '' ? k : `${at}.${k}`)
  }
  check(suite, SUITE_FIELDS, '')
  check(suite.metadata, METADATA_FIELDS, 'metadata')
  if (Array.isArray(suite.tests))
    suite.tests.forEach((t: unknown, i) => {
      const at = `tests[${i}]`
      check(t, TEST_FIELDS, at)
      if (!isPlainObject(t)) return
      check(t.resource, REF_FIELDS, `${at}.resource`)
      check(t.oldResource, REF_FIELDS, `${at}.oldResource`)
      check(t.userInfo, USER_FIELDS, `${at}.userInfo`)
    })
  return unknown.length === 0 ? undefined : unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')
}

/** The kinds a suite's `policies` must hold one of for it to test anything. */
const POLICY_KINDS: ReadonlySet<string> = new Set([
  'ValidatingAdmissionPolicy',
  'MutatingAdmissionPolicy',
  'CustomResourceDefinition',
])

/** Runs one suite file. */
export function runSuite(file: string, kubeVersion: KubeVersion): SuiteRun {
  let suite: Suite
  try {
    const parsed = parseManifests(readFileSync(file), file)
    if (parsed.errors.length > 0) {
      const e = parsed.errors[0]
      return { file, name: file, results: [], error: `${location(e?.source) || file}: ${e?.message}` }
    }
    suite = (parsed.objects[0]?.object ?? {}) as Suite
  } catch (e) {
    return { file, name: file, results: [], error: readError(file, e) }
  }
  if (suite.kind !== 'PolicyTest') {
    const name = typeof suite.metadata?.name === 'string' ? suite.metadata.name : file
    return { file, name, results: [], error: `${file}: not a PolicyTest (kind: ${String(suite.kind)})` }
  }
  // a field of the wrong type (`tests: 5`) is the suite's error, named with its path, not a TypeError
  const shape = suiteShapeError(suite as unknown as JSONObject)
  if (shape !== undefined) return { file, name: file, results: [], error: `${file}: ${shape}` }
  // a misspelled field is an error, not an expectation left out (as kyverno test reads its files)
  const unknown = suiteUnknownFields(suite as unknown as JSONObject)
  if (unknown !== undefined) return { file, name: file, results: [], error: `${file}: ${unknown}` }
  const name = suite.metadata?.name ?? file
  const base = dirname(file)
  const material = loadManifests((suite.policies ?? []).map((p) => resolve(base, p)))
  const resources = loadManifests((suite.resources ?? []).map((p) => resolve(base, p)))
  const errors = [...material.errors, ...resources.errors]
  if (errors.length > 0) {
    const e = errors[0]
    // file:line of a document that does not read; an unreadable file's message names it (no `file:0:`)
    const at = e?.source?.line !== undefined ? `${location(e.source)}: ` : ''
    return { file, name, results: [], error: `${at}${e?.message}` }
  }
  // a suite whose policies load nothing would pass every `expect: admit` without testing a policy
  if (!material.objects.some((o) => POLICY_KINDS.has(materialKind(o.object) ?? ''))) {
    const listed = suite.policies ?? []
    const why =
      listed.length === 0
        ? 'policies lists no file'
        : `${listed.join(', ')} ${listed.length === 1 ? 'holds' : 'hold'} no ValidatingAdmissionPolicy, MutatingAdmissionPolicy or CustomResourceDefinition`
    return { file, name, results: [], error: `${file}: loads no policy (${why})` }
  }
  const set = PolicySet.build(
    [...instantiatePack(material.objects, kubeVersion), ...resources.objects].map((o) => o.object),
    { version: kubeVersion },
  )
  if (set.problems.length > 0) return { file, name, results: [], error: set.problems.map((p) => p.message).join('\n') }
  const find = (ref: ObjectRef | undefined): JSONObject | undefined =>
    ref === undefined ? undefined : resources.objects.map((o) => o.object).find((o) => refMatches(o, ref))

  // tests for other releases are left out (not run, not counted)
  const tests = (suite.tests ?? []).flatMap((t, i) => {
    if (t.kubeVersions === undefined) return [{ t, i }]
    return inVersionRange(kubeVersion, String(t.kubeVersions)) === false ? [] : [{ t, i }]
  })
  const results = tests.map(({ t, i }): TestResult => {
    const started = performance.now()
    const testName = t.name === undefined ? `test ${i + 1}` : String(t.name)
    const fail = (failure: string): TestResult => ({
      suite: name,
      file,
      name: testName,
      passed: false,
      failure,
      durationMs: performance.now() - started,
    })
    const object = t.object ?? find(t.resource)
    if (t.kubeVersions !== undefined && inVersionRange(kubeVersion, String(t.kubeVersions)) === undefined)
      return fail(`kubeVersions: cannot read ${JSON.stringify(t.kubeVersions)} (e.g. ">=1.34", "<1.37", "1.36")`)
    if (object === undefined)
      return fail(t.resource ? `resource not found: ${JSON.stringify(t.resource)}` : 'no object or resource')
    const oldObject = t.oldObject ?? find(t.oldResource)
    if (t.oldResource !== undefined && oldObject === undefined)
      return fail(`oldResource not found: ${JSON.stringify(t.oldResource)}`)
    if (t.expect !== 'admit' && t.expect !== 'deny' && t.expect !== 'warn')
      return fail(`expect must be admit, deny or warn, not ${String(t.expect)}`)
    const r = set.validate(object, {
      ...(oldObject !== undefined ? { oldObject } : {}),
      ...(t.operation !== undefined ? { operation: t.operation } : {}),
      ...(t.userInfo !== undefined ? { userInfo: t.userInfo } : {}),
    })
    const got = outcome(r)
    if (got !== t.expect) return fail(`expected ${t.expect}, got ${describe(r)}`)
    if (t.message !== undefined) {
      const texts = got === 'deny' ? [denialText(r)] : r.warnings
      if (!texts.some((x) => x.includes(t.message as string))) {
        return fail(
          `expected a ${got === 'deny' ? 'denial' : 'warning'} containing ${JSON.stringify(t.message)}, got ${describe(r)}`,
        )
      }
    }
    if (t.warnings !== undefined && r.warnings.length !== t.warnings)
      return fail(
        `expected ${t.warnings} warning(s), got ${r.warnings.length}: ${describe(r)} ${r.warnings.join(' | ')}`,
      )
    if (t.mutated !== undefined || t.patch !== undefined) {
      // a request the mutating policies denied has no mutated object
      if (r.mutationErrors !== undefined && r.mutationErrors.length > 0)
        return fail(`expected a mutated object, got ${describe(r)}`)
      if (t.mutated !== undefined) {
        if (!isPlainObject(t.mutated)) return fail('mutated must be an object')
        // unmutated: the object the policies received (decoded and defaulted when built-in)
        const got = r.mutatedObject ?? r.builtin?.object ?? object
        const m = subsetMismatch(t.mutated, got)
        if (m !== undefined) return fail(`mutated object: ${m}`)
      }
      if (t.patch !== undefined) {
        if (!Array.isArray(t.patch)) return fail('patch must be a list of RFC 6902 operations')
        const got = r.patch ?? []
        if (!deepEqual(t.patch, got)) return fail(`expected the patch ${show(t.patch)}, got ${show(got)}`)
      }
    }
    return { suite: name, file, name: testName, passed: true, durationMs: performance.now() - started }
  })
  return { file, name, results }
}
