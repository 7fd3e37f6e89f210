// kelp check's peers and their offline schemas, shared by bench/peers.js (the differential corpus) and
// bench/cold.js (the cold-CLI corpora): kubeconform and kubectl-validate, built from the Go module proxy by
// test/e2e/peers/build.sh into .cache/peers/.
//
// Schemas, offline: kubeconform gets JSON schemas generated here, the built-in kinds from the Kubernetes module's
// api/openapi-spec/swagger.json (refs into one _definitions.json) and the custom resources from the CRDs'
// openAPIV3Schema (x-kubernetes-int-or-string as string-or-integer), in the CRDs-catalog layout
// (<group>/<kind>_<version>.json); kubectl-validate gets the module's OpenAPI v3 documents as --local-schemas
// (its own embedded schemas stop at 1.30) and the CRD files as --local-crds (directories of symbolic links).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import yaml from 'js-yaml'

/** A peer built into `peers` (.cache/peers): its binary and version. */
export function peerTool(peers, name) {
  const dir = existsSync(peers) ? readdirSync(peers).find((d) => d.startsWith(`${name}-`)) : undefined
  if (!dir) throw new Error(`${name} not built: bash test/e2e/peers/build.sh`)
  return { bin: join(peers, dir, name), version: dir.slice(name.length + 1) }
}

const intOrString = (s) => {
  if (Array.isArray(s)) return s.map(intOrString)
  if (typeof s !== 'object' || s === null) return s
  if (s['x-kubernetes-int-or-string']) return { oneOf: [{ type: 'string' }, { type: 'integer' }] }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, intOrString(v)]))
}

/**
 * The built-in kinds' schemas of `kubeVersion` (k8s.io/kubernetes in the Go module cache) written afresh under
 * `dir`: `kubeconform` (its -schema-location is `schemaLocation`) and `kubectl-validate` (--local-schemas).
 */
export function builtinSchemas(dir, kubeVersion) {
  const modules = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim()
  const spec = join(modules, `k8s.io/kubernetes@${kubeVersion}`, 'api/openapi-spec')
  if (!existsSync(spec)) throw new Error(`${spec} missing: go mod download k8s.io/kubernetes@${kubeVersion}`)
  rmSync(dir, { recursive: true, force: true })
  const kubeconform = join(dir, 'kubeconform')
  const kubectlValidate = join(dir, 'kubectl-validate')
  mkdirSync(kubeconform, { recursive: true })
  const swagger = JSON.parse(readFileSync(join(spec, 'swagger.json'), 'utf8'))
  // IntOrString is `type: string, format: int-or-string` there: a string or an integer, as the schemas kubeconform
  // publishes have it (openapi2jsonschema), else every integer port or maxUnavailable is refused
  for (const [name, def] of Object.entries(swagger.definitions))
    if (def.format === 'int-or-string')
      swagger.definitions[name] = { description: def.description, oneOf: [{ type: 'string' }, { type: 'integer' }] }
  const rewrite = (v) =>
    JSON.parse(JSON.stringify(v).replaceAll('"#/definitions/', '"../_definitions.json#/definitions/'))
  writeFileSync(join(kubeconform, '_definitions.json'), JSON.stringify({ definitions: swagger.definitions }))
  for (const def of Object.values(swagger.definitions)) {
    for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
      const group = join(kubeconform, gvk.group === '' ? gvk.version : gvk.group)
      mkdirSync(group, { recursive: true })
      writeFileSync(join(group, `${gvk.kind.toLowerCase()}_${gvk.version}.json`), JSON.stringify(rewrite(def)))
    }
  }
  for (const file of readdirSync(join(spec, 'v3'))) {
    const m = /^(apis?)(?:__(.+?))?__(v[^_]+)_openapi\.json$/.exec(file) ?? /^api__(v1)_openapi\.json$/.exec(file)
    if (!m) continue
    const target = file.startsWith('api__')
      ? join(kubectlValidate, 'api', 'v1.json')
      : join(kubectlValidate, 'apis', m[2], `${m[3]}.json`)
    mkdirSync(join(target, '..'), { recursive: true })
    writeFileSync(target, readFileSync(join(spec, 'v3', file)))
  }
  return {
    kubeconform,
    kubectlValidate,
    schemaLocation: `${kubeconform}/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json`,
  }
}

/**
 * The CRDs of `crdFiles` for both peers: their versions' schemas added to kubeconform's tree, and `links` (a new
 * directory of symbolic links to the files) for kubectl-validate's --local-crds. Returns the CRDs seen.
 */
export function crdSchemas(schemas, crdFiles, links) {
  mkdirSync(links, { recursive: true })
  let crds = 0
  for (const [i, f] of crdFiles.entries()) {
    symlinkSync(f, join(links, `${String(i).padStart(4, '0')}-${basename(f)}`))
    for (const crd of yaml.loadAll(readFileSync(f, 'utf8'))) {
      if (crd?.kind !== 'CustomResourceDefinition') continue
      crds++
      for (const v of crd.spec.versions ?? []) {
        const dir = join(schemas.kubeconform, crd.spec.group)
        mkdirSync(dir, { recursive: true })
        writeFileSync(
          join(dir, `${crd.spec.names.kind.toLowerCase()}_${v.name}.json`),
          JSON.stringify(intOrString(v.schema?.openAPIV3Schema ?? {})),
        )
      }
    }
  }
  return crds
}

/** kubeconform's arguments: strict, missing schemas (kinds with no CRD given) skipped, `extra` then the paths. */
export const kubeconformArgs = (schemas, paths, extra = []) => [
  '-schema-location',
  schemas.schemaLocation,
  '-ignore-missing-schemas',
  '-strict',
  ...extra,
  ...paths,
]

/** kubectl-validate's arguments: the local schemas (and CRDs, when `links` holds any), `extra`, the paths. */
export const kubectlValidateArgs = (schemas, paths, links, extra = []) => [
  '--version',
  '1.30',
  '--local-schemas',
  schemas.kubectlValidate,
  ...(links && existsSync(links) && readdirSync(links).length > 0 ? ['--local-crds', links] : []),
  ...extra,
  ...paths,
]
