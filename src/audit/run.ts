import { withoutGeneratedCode } from '../cel/program.js'
import { GENERATE_FROM_OBJECTS } from '../check/admit.js'
import { findingsOf } from '../check/findings.js'
import { materialKind } from '../engine/material.js'
import { PolicySet } from '../engine/policy-set.js'
import type { KubeVersion } from '../kube/environment.js'
import { RESTMapper, type ResourceInfo } from '../kube/resources.js'
import { isObject, type JSONObject } from '../kube/values/json.js'
import { loadManifests } from '../manifest/load.js'
import { forbiddenStatus } from '../policy/generic/status.js'
import { type Finding, type ObjectResult, outcomeOf, type Report, SummaryCounter } from '../report/model.js'
import { VERSION } from '../report/version.js'
import { type Cluster, ClusterError } from './cluster.js'
import { auditTargets, listPath, rulesOf } from './targets.js'

// `kelp audit`: what policies would do to the objects a cluster already holds. kube-apiserver only ever admits
// writes; this asks, of every stored object a policy matches, what a create of it would meet now: the candidate
// policies (-p) and, with `clusterPolicies`, the ones installed. The objects are read page by page and admitted
// as they come (bounded memory: a page at a time, and only results worth keeping), each as the policies see a
// stored object: as the cluster holds it (defaulted), without the fields the server sets (uid, resourceVersion,
// managedFields, …), with native validation not run again (the cluster accepted it).

export interface AuditOptions {
  /** Policy material files (VAPs, MAPs, bindings, params, CRDs, Namespaces). */
  readonly policies: readonly string[]
  /** Also the ValidatingAdmissionPolicies and bindings installed in the cluster. */
  readonly clusterPolicies?: boolean
  /** One namespace's objects (and the cluster-scoped ones), else every namespace. */
  readonly namespace?: string
  /** The CEL environment and the REST mapping's release (from the cluster's /version when absent). */
  readonly kubeVersion: KubeVersion
  readonly target: string
  /** Keep every object's result (PolicyReports list passes), or only those with findings. */
  readonly keep?: 'all' | 'findings'
  readonly onProgress?: (objects: number, resource: string) => void
}

/** The metadata fields the server sets on a write: absent from the object a create sends. */
const SERVER_FIELDS = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'managedFields',
  'generation',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]

/** The stored object as a create would send it: without what the server sets (a copy). */
export function asCreate(o: JSONObject): JSONObject {
  if (!isObject(o.metadata)) return o
  const meta: JSONObject = {}
  // defined, not assigned: a key `__proto__` stays a key
  for (const [k, v] of Object.entries(o.metadata))
    if (!SERVER_FIELDS.includes(k))
      Object.defineProperty(meta, k, { value: v, enumerable: true, writable: true, configurable: true })
  return { ...o, metadata: meta }
}

const ADMISSION_GROUP = 'admissionregistration.k8s.io'

/** Audits the cluster's objects against the policies; the report kelp check's formatters print. */
export async function audit(cluster: Cluster, options: AuditOptions): Promise<Report> {
  const diagnostics: Finding[] = []
  const couldNotRead = (what: string, e: unknown) => {
    if (!(e instanceof ClusterError)) throw e
    diagnostics.push({
      level: 'warn',
      type: 'policy-material',
      rule: 'audit/unreadable',
      message: `could not read ${what}: ${e.message}`,
      source: { file: e.path },
    })
  }
  const readAll = async (path: string, apiVersion: string, kind: string): Promise<JSONObject[] | undefined> => {
    const out: JSONObject[] = []
    try {
      for await (const page of cluster.list(path, apiVersion, kind)) for (const o of page) out.push(o)
      return out
    } catch (e) {
      couldNotRead(path, e)
      return undefined
    }
  }

  // the material: the files', then (trusted: the cluster accepted them) the cluster's own
  const loaded = loadManifests(options.policies)
  diagnostics.push(...loaded.errors)
  const material: JSONObject[] = loaded.objects.map((o) => o.object)
  const fromCluster = new Set<object>()
  const trust = (objects: readonly JSONObject[] | undefined) => {
    for (const o of objects ?? []) {
      fromCluster.add(o)
      material.push(o)
    }
  }
  if (options.clusterPolicies === true) {
    const v = `${ADMISSION_GROUP}/v1`
    trust(await readAll(`/apis/${v}/validatingadmissionpolicies`, v, 'ValidatingAdmissionPolicy'))
    trust(await readAll(`/apis/${v}/validatingadmissionpolicybindings`, v, 'ValidatingAdmissionPolicyBinding'))
  }
  const crdVersion = 'apiextensions.k8s.io/v1'
  trust(await readAll(`/apis/${crdVersion}/customresourcedefinitions`, crdVersion, 'CustomResourceDefinition'))
  const namespaces = await readAll('/api/v1/namespaces', 'v1', 'Namespace')
  trust(namespaces)

  // the params the policies name (paramKind), read where the mapper serves them
  const policies = material.filter((o) => {
    const k = materialKind(o)
    return k === 'ValidatingAdmissionPolicy' || k === 'MutatingAdmissionPolicy'
  })
  const mapper = new RESTMapper({ release: options.target })
  for (const o of material) if (materialKind(o) === 'CustomResourceDefinition') addCRD(mapper, o)
  const paramKinds = new Set<string>()
  for (const p of policies) {
    const pk = isObject(p.spec) && isObject(p.spec.paramKind) ? p.spec.paramKind : undefined
    if (pk !== undefined && typeof pk.apiVersion === 'string' && typeof pk.kind === 'string')
      paramKinds.add(`${pk.apiVersion}|${pk.kind}`)
  }
  for (const key of paramKinds) {
    const [apiVersion = '', kind = ''] = key.split('|')
    const i = apiVersion.indexOf('/')
    const gvk = {
      group: i < 0 ? '' : apiVersion.slice(0, i),
      version: i < 0 ? apiVersion : apiVersion.slice(i + 1),
      kind,
    }
    const r = mapper.resourcesForKind(gvk)[0]
    if (r !== undefined) trust(await readAll(listPath(r), apiVersion, kind))
  }

  const set = PolicySet.build(material, {
    version: options.kubeVersion,
    release: options.target,
    trusted: (o: object) => fromCluster.has(o),
    // every Namespace was read: one that is not there does not exist (unless they could not be read)
    namespaces: namespaces === undefined ? 'assume' : 'strict',
    builtins: false,
  })
  for (const p of set.problems)
    diagnostics.push({ level: 'error', type: 'policy-material', rule: `material/${p.kind}`, message: p.message })

  const counter = new SummaryCounter()
  const results: ObjectResult[] = []
  let seen = 0
  for (const r of auditTargets(rulesOf(policies), set.mapper)) {
    const path = listPath(r, options.namespace)
    const apiVersion = r.group === '' ? r.version : `${r.group}/${r.version}`
    try {
      for await (const page of cluster.list(path, apiVersion, r.kind)) {
        for (const stored of page) {
          // a listing's length is not known ahead: the first GENERATE_FROM_OBJECTS objects are admitted with CEL
          // on the closure evaluator, as a `kelp check` of that many is (generating pays only past them)
          const result =
            seen < GENERATE_FROM_OBJECTS
              ? withoutGeneratedCode(() => admitStored(set, stored, r))
              : admitStored(set, stored, r)
          counter.add(result)
          if (options.keep === 'all' || result.findings.length > 0) results.push(result)
          seen++
        }
        options.onProgress?.(seen, `${r.resource}${r.group === '' ? '' : `.${r.group}`}`)
      }
    } catch (e) {
      couldNotRead(path, e)
    }
  }
  return {
    schemaVersion: 1,
    kelpVersion: VERSION,
    kubeVersion: options.target,
    objects: results,
    diagnostics,
    summary: counter.summary(diagnostics),
  }
}

function addCRD(mapper: RESTMapper, crd: JSONObject): void {
  const spec = isObject(crd.spec) ? crd.spec : {}
  const names = isObject(spec.names) ? spec.names : {}
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : []
  if (typeof spec.group !== 'string' || typeof names.kind !== 'string' || typeof names.plural !== 'string') return
  mapper.addCRD({
    group: spec.group,
    kind: names.kind,
    plural: names.plural,
    namespaced: spec.scope !== 'Cluster',
    versions: versions.filter((v) => v.served === true && typeof v.name === 'string').map((v) => String(v.name)),
  })
}

/** One stored object admitted as a create of it would be now. */
function admitStored(set: PolicySet, stored: JSONObject, r: ResourceInfo): ObjectResult {
  const o = asCreate(stored)
  const meta = isObject(o.metadata) ? o.metadata : {}
  const name = typeof meta.name === 'string' ? meta.name : ''
  const namespace = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : undefined
  const kind = String(o.kind ?? '')
  const request = set.request(o, { operation: 'CREATE' })
  const answer = set.validate(o, { operation: 'CREATE' })
  const denial = (message: string, reason: string) =>
    'error' in request ? message : forbiddenStatus(request, message, reason).message
  // the object's own path on the apiserver
  const source = { file: `${listPath(r, namespace)}/${name}` }
  const findings = findingsOf(answer, kind, denial).map((f): Finding => ({ ...f, source }))
  return {
    source,
    apiVersion: String(o.apiVersion ?? ''),
    kind,
    ...(namespace !== undefined ? { namespace } : {}),
    name,
    operation: 'CREATE',
    outcome: outcomeOf(findings),
    findings,
  }
}
