import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { apiVersionStatus } from '../engine/api-versions.js'
import { type AdmitResult, materialKind, PolicySet, type PolicySetOptions } from '../engine/policy-set.js'
import type { KubeVersion } from '../kube/environment.js'
import { errorString } from '../kube/field.js'
import type { OpenAPIV3Document } from '../kube/openapi.js'
import { forbiddenStatus } from '../policy/dispatcher.js'
import { type Finding, type ObjectResult, outcomeOf, type Report, summarize } from '../report/model.js'
import { expandPaths, type JSONObject, type LoadedObject, loadManifests, parseManifests } from './load.js'
import { VERSION } from './version.js'

// `kelp check`: load manifests → build the policy set from the policy material found in them (and
// --policies, else the bundled pack) → admit every other object as kubectl apply would (CREATE, or
// UPDATE when the old revision has it) → a Report. No Kubernetes rule lives here: the engine decides,
// this file only turns its answers into findings with their source positions.

export interface CheckOptions {
  readonly paths: readonly string[]
  /** Extra policy material (VAPs, bindings, params, CRDs, Namespaces). */
  readonly policies?: readonly string[]
  /** The previous revision: files or directories. */
  readonly old?: readonly string[]
  /** The previous revision as a git revision: each input file is read at that revision. */
  readonly base?: string
  /** The CEL environment's version (the nearest kelp supports to the target). */
  readonly kubeVersion: KubeVersion
  /** The target release for API versions (default: kubeVersion). */
  readonly target?: string
  /** Namespace for namespaced objects without one (kubectl's context namespace). */
  readonly namespace?: string
  readonly stdin?: () => string
  /** OpenAPI v3 documents (JSON files) of built-in group-versions, for type checking the policies. */
  readonly openapi?: readonly string[]
}

/** Reads OpenAPI v3 documents (`kubectl get --raw /openapi/v3/apis/apps/v1 > apps-v1.json`). */
function loadOpenAPI(paths: readonly string[], diagnostics: Finding[]): OpenAPIV3Document[] {
  const docs: OpenAPIV3Document[] = []
  for (const file of expandPaths(paths).files) {
    try {
      docs.push(JSON.parse(readFileSync(file, 'utf8')) as OpenAPIV3Document)
    } catch (e) {
      diagnostics.push({
        level: 'error',
        type: 'parse',
        rule: 'input/openapi',
        message: `--openapi ${file}: ${(e as Error).message}`,
        source: { file },
      })
    }
  }
  return docs
}

/** The bundled policy pack (policies/ at the package root). */
export function bundledPoliciesDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../policies')
}

const isMaterial = (o: JSONObject): boolean => materialKind(o) !== undefined

const meta = (o: JSONObject): JSONObject =>
  typeof o.metadata === 'object' && o.metadata !== null ? (o.metadata as JSONObject) : {}

/** Identity across revisions: API group (not version), kind, namespace, name. */
function identity(o: JSONObject, defaultNamespace: string): string {
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const group = av.includes('/') ? av.slice(0, av.indexOf('/')) : ''
  const m = meta(o)
  return [group, o.kind, m.namespace ?? defaultNamespace, m.name ?? m.generateName ?? ''].join('\0')
}

/** Each input file as it was at git revision `rev` (files absent there contribute nothing). */
function loadAtRevision(rev: string, files: readonly string[]): { objects: LoadedObject[]; errors: Finding[] } {
  const objects: LoadedObject[] = []
  const errors: Finding[] = []
  for (const file of files) {
    if (file === '-') continue
    const dir = dirname(resolve(file))
    let top: string
    try {
      top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' }).trim()
    } catch {
      errors.push({
        level: 'error',
        type: 'parse',
        rule: 'input/git',
        message: `--base: ${file} is not in a git work tree`,
        source: { file },
      })
      continue
    }
    const rel = relative(top, resolve(file)).split('\\').join('/')
    let text: string
    try {
      text = execFileSync('git', ['show', `${rev}:${rel}`], {
        cwd: top,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
    } catch {
      continue // new in this revision
    }
    const r = parseManifests(text, `${rev}:${rel}`)
    objects.push(...r.objects)
    errors.push(...r.errors)
  }
  return { objects, errors }
}

/** What the admission of each object needs: built once, shared by the main thread and the workers. */
export interface Prepared {
  /** The objects a worker builds the same policy set from (material, Namespaces, params). */
  readonly context: readonly JSONObject[]
  readonly buildOptions: PolicySetOptions
  readonly toAdmit: readonly LoadedObject[]
  readonly olds: ReadonlyMap<string, JSONObject>
  readonly target: string
  readonly defaultNamespace: string
  readonly diagnostics: Finding[]
}

/** Loads the inputs, the material and the old revision, and builds the policy set. */
export function prepare(options: CheckOptions): { prepared: Prepared; set: PolicySet } {
  const defaultNamespace = options.namespace ?? 'default'
  const inputs = loadManifests(options.paths, options.stdin)
  const diagnostics: Finding[] = [...inputs.errors]

  const material: LoadedObject[] = inputs.objects.filter((o) => isMaterial(o.object))
  const toAdmit: LoadedObject[] = inputs.objects.filter((o) => !isMaterial(o.object))
  if (options.policies !== undefined && options.policies.length > 0) {
    const extra = loadManifests(options.policies)
    diagnostics.push(...extra.errors)
    material.push(...extra.objects)
  }
  const hasPolicies = material.some((o) => materialKind(o.object) !== 'CustomResourceDefinition')
  if (!hasPolicies && existsSync(bundledPoliciesDir())) {
    const pack = loadManifests([bundledPoliciesDir()])
    material.push(...pack.objects.filter((o) => !o.source.file.includes(`${join('policies', 'tests')}`)))
    diagnostics.push(...pack.errors)
  }

  // every object is context too: Namespaces for selectors, params for paramRefs
  const all = [...material, ...toAdmit]
  const buildOptions: PolicySetOptions = {
    version: options.kubeVersion,
    ...(options.openapi ? { openapi: loadOpenAPI(options.openapi, diagnostics) } : {}),
  }
  const context = all.map((o) => o.object)
  const set = PolicySet.build(context, buildOptions)
  for (const d of set.diagnostics) {
    const src = all[d.index]?.source
    diagnostics.push({
      level: d.level,
      type: 'policy-material',
      rule: d.field?.startsWith('spec.validations') ? 'material/type-checking' : `material/${d.kind}`,
      message: `${d.kind} "${d.name}": ${d.message}`,
      ...(src !== undefined ? { source: src } : {}),
      ...(d.field !== undefined ? { field: d.field } : {}),
    })
  }
  for (const p of set.problems) {
    const src = all[p.index]?.source
    diagnostics.push({
      level: 'error',
      type: 'policy-material',
      rule: `material/${p.kind}`,
      message: p.message,
      ...(src !== undefined ? { source: src } : {}),
      ...(p.errors[0]?.field ? { field: p.errors[0].field } : {}),
    })
  }

  // the previous revision: --old paths or --base
  const olds = new Map<string, JSONObject>()
  const oldLoaded =
    options.base !== undefined
      ? loadAtRevision(options.base, expandPaths(options.paths).files)
      : options.old !== undefined && options.old.length > 0
        ? loadManifests(options.old)
        : { objects: [], errors: [] }
  diagnostics.push(...oldLoaded.errors)
  for (const o of oldLoaded.objects) olds.set(identity(o.object, defaultNamespace), o.object)

  // transition rules never run on CREATE: without an old revision they are not checked at all
  if (oldLoaded.objects.length === 0) {
    for (const crd of set.crds) {
      let count = 0
      for (const v of crd.versions.values()) {
        for (const r of v.celValidator()?.rules() ?? []) if (r.usesOldSelf && r.rule.optionalOldSelf !== true) count++
      }
      if (count === 0) continue
      const src = material.find(
        (o) => o.object.kind === 'CustomResourceDefinition' && meta(o.object).name === crd.name,
      )?.source
      diagnostics.push({
        level: 'info',
        type: 'policy-material',
        rule: 'material/transition-rules',
        message: `CustomResourceDefinition "${crd.name}": ${count} transition rule${count === 1 ? '' : 's'} (oldSelf) ${count === 1 ? 'runs' : 'run'} only on UPDATE; give the previous revision (--old or --base) to check ${count === 1 ? 'it' : 'them'}`,
        ...(src !== undefined ? { source: src } : {}),
      })
    }
  }
  const target = options.target ?? options.kubeVersion
  // what a worker needs to build the same set: the material, Namespaces and param objects (not every object)
  const paramKinds = new Set(
    set.policies.flatMap((h) => {
      const pk = h.policy.spec?.paramKind
      return pk ? [`${pk.apiVersion}|${pk.kind}`] : []
    }),
  )
  const workerContext = context.filter(
    (o) =>
      isMaterial(o) || (o.apiVersion === 'v1' && o.kind === 'Namespace') || paramKinds.has(`${o.apiVersion}|${o.kind}`),
  )
  return {
    prepared: { context: workerContext, buildOptions, toAdmit, olds, target, defaultNamespace, diagnostics },
    set,
  }
}

/** Admits a run of objects against a built set. */
export function admitAll(
  set: PolicySet,
  objects: readonly LoadedObject[],
  olds: ReadonlyMap<string, JSONObject>,
  target: string,
  defaultNamespace: string,
  onProgress?: (done: number, total: number) => void,
): ObjectResult[] {
  const out: ObjectResult[] = []
  for (const o of objects) {
    out.push(admitOne(set, o, olds, target, defaultNamespace))
    if (onProgress !== undefined && (out.length & 63) === 0) onProgress(out.length, objects.length)
  }
  return out
}

/** The report of admitted objects. */
export function report(prepared: Prepared, objects: readonly ObjectResult[]): Report {
  return {
    schemaVersion: 1,
    kelpVersion: VERSION,
    kubeVersion: prepared.target,
    objects,
    diagnostics: prepared.diagnostics,
    summary: summarize(objects, prepared.diagnostics),
  }
}

/** Runs the check on this thread and returns the report (the caller formats it and picks the exit code). */
export function check(options: CheckOptions): Report {
  const { prepared, set } = prepare(options)
  return report(prepared, admitAll(set, prepared.toAdmit, prepared.olds, prepared.target, prepared.defaultNamespace))
}

function admitOne(
  set: PolicySet,
  loaded: LoadedObject,
  olds: ReadonlyMap<string, JSONObject>,
  kubeVersion: string,
  defaultNamespace: string,
): ObjectResult {
  const o = loaded.object
  const source = loaded.source
  const m = meta(o)
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : ''
  const kind = typeof o.kind === 'string' ? o.kind : ''
  const oldObject = olds.get(identity(o, defaultNamespace))
  const findings: Finding[] = []
  const at = (f: Omit<Finding, 'source'>): Finding => ({ ...f, source })

  const lifecycle = apiVersionStatus(apiVersion, kind, kubeVersion)
  // not served at the target: removed, not yet introduced, or off unless --runtime-config enables it
  const notServed =
    lifecycle.status === 'removed' || (lifecycle.status === 'unknown' && lifecycle.message !== undefined)
      ? lifecycle.message
      : lifecycle.offByDefault?.message
  if (notServed !== undefined) {
    const use = lifecycle.replacement ? `; use ${lifecycle.replacement.apiVersion} ${lifecycle.replacement.kind}` : ''
    const detail =
      lifecycle.status === 'removed'
        ? ` (removed in v${lifecycle.removedIn}${use})`
        : lifecycle.offByDefault
          ? ` (not served by default: --runtime-config=${lifecycle.offByDefault.runtimeConfig})`
          : lifecycle.introducedIn
            ? ` (introduced in v${lifecycle.introducedIn})`
            : ''
    const rule = lifecycle.status === 'removed' ? 'api/removed' : 'api/not-served'
    findings.push(at({ level: 'deny', type: 'not-served', rule, message: `${notServed}${detail}` }))
  } else {
    if (lifecycle.status === 'deprecated' && lifecycle.warning !== undefined) {
      findings.push(at({ level: 'warn', type: 'deprecated', rule: 'api/deprecated', message: lifecycle.warning }))
    }
    const request = set.request(o, {
      ...(oldObject !== undefined ? { oldObject } : {}),
      namespace: defaultNamespace,
    })
    const result = 'error' in request ? set.validate(o) : set.admit(request)
    const denial = (message: string, reason: string) =>
      'error' in request ? message : forbiddenStatus(request, message, reason).message
    findings.push(...findingsOf(result, kind, denial).map(at))
  }
  const namespace = typeof m.namespace === 'string' ? m.namespace : undefined
  return {
    source,
    apiVersion,
    kind,
    ...(namespace !== undefined ? { namespace } : {}),
    name: String(m.name ?? m.generateName ?? ''),
    operation: oldObject === undefined ? 'CREATE' : 'UPDATE',
    outcome: outcomeOf(findings),
    findings,
  }
}

/** The engine's answer as findings (no source yet). */
/**
 * The engine's answer as findings (no source yet). A Deny is worded as the apiserver's Status message
 * (`deployments.apps "web" is forbidden: ValidatingAdmissionPolicy …`) with its reason, from which the
 * formatters print kubectl's line.
 */
function findingsOf(
  r: AdmitResult,
  kind: string,
  denial: (message: string, reason: string) => string,
): Omit<Finding, 'source'>[] {
  const out: Omit<Finding, 'source'>[] = []
  const cr = r.customResource
  if (r.status?.code === 404 && cr === undefined) {
    out.push({
      level: 'info',
      type: 'not-served',
      rule: 'kind/unknown',
      message: `${r.status.message} (no CRD for it was given: not validated)`,
    })
    return out
  }
  if (cr !== undefined && !cr.allowed) {
    if (cr.errors.length > 0) {
      for (const e of cr.errors) {
        out.push({
          level: 'deny',
          type: 'invalid',
          rule: `crd/${kind}`,
          message: errorString(e),
          ...(e.field ? { field: e.field } : {}),
        })
      }
    } else {
      out.push({
        level: 'deny',
        type: cr.status?.code === 404 ? 'not-served' : 'invalid',
        rule: `crd/${kind}`,
        message: cr.message ?? '',
      })
    }
  }
  for (const v of r.violations) {
    const who =
      v.binding !== undefined
        ? `ValidatingAdmissionPolicy '${v.policy}' with binding '${v.binding}'`
        : `ValidatingAdmissionPolicy '${v.policy}'`
    const base = {
      type: 'policy' as const,
      rule: `vap/${v.policy}`,
      policy: v.policy,
      ...(v.binding !== undefined ? { binding: v.binding } : {}),
    }
    for (const action of v.actions) {
      if (action === 'Deny') {
        const reason = v.reason ?? 'Invalid'
        out.push({ ...base, level: 'deny', reason, message: denial(`${who} denied request: ${v.message}`, reason) })
      } else if (action === 'Warn')
        out.push({ ...base, level: 'warn', message: `Validation failed for ${who}: ${v.message}` })
      else if (action === 'Audit')
        out.push({ ...base, level: 'audit', message: `Audit: validation failed for ${who}: ${v.message}` })
    }
  }
  // warnings the policies' Warn actions did not already give (deprecated CRD versions, unknown fields)
  const policyWarnings = new Set(out.filter((f) => f.level === 'warn').map((f) => f.message))
  for (const w of r.warnings) {
    if (!policyWarnings.has(w)) out.push({ level: 'warn', type: 'deprecated', rule: `warning/${kind}`, message: w })
  }
  for (const [key, value] of Object.entries(r.auditAnnotations)) {
    if (key === 'validation.policy.admission.k8s.io/validation_failure') continue
    out.push({
      level: 'info',
      type: 'policy',
      rule: `audit/${key.split('/')[0]}`,
      message: `audit annotation ${key}: ${value}`,
    })
  }
  return out
}
