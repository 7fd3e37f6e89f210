import { AnyType, DynType, type Type } from '../../cel/types/types.js'
import type { NamedRuleWithOperations, ValidatingAdmissionPolicy } from '../../kube/admissionregistration/types.js'
import { DEFAULT_KUBE_VERSION, type KubeVersion } from '../../kube/environment.js'
import { gvkString } from '../../kube/openapi.js'
import type { RESTMapper } from '../../kube/resources.js'
import { type DeclType, schemaDeclType } from '../../kube/schema/decltype.js'
import { SchemaTypeProvider } from '../../kube/schema/provider.js'
import type { JSONSchemaProps } from '../../kube/schema/structural.js'
import type { GroupVersionKind, GroupVersionResource } from '../attributes.js'
import { CompositedCompiler, type OptionalVariableDeclarations } from '../cel/compile.js'

// ValidatingAdmissionPolicy type checking (apiserver pkg/admission/plugin/policy/validating/
// typechecking.go, release-1.36): the warnings the status controller writes to
// `status.typeChecking.expressionWarnings`. The kinds a policy matches (its resourceRules without
// wildcards, subresources skipped; sorted; at most 10) are resolved to schemas; each
// `validations[i].expression` and `messageExpression` is compiled once per kind with `object` and
// `oldObject` typed from the kind's schema (as a resource root) and `params` from paramKind's, in the
// StoredExpressions environment with the authorizer declared and the policy's variables composed
// (their own errors are not reported). Any output type is accepted. Warnings never change admission.
//
// Type names: the apiserver names the root types `<Kind><time.Now().Nanosecond()>`; kelp numbers
// them instead, `<Kind><n>` with n counting from 1 in the order the apiserver builds them (the
// matched kinds in sorted order, then the param kind), so the names in messages are deterministic:
// the first matched kind of a policy is always e.g. `Deployment1`.

const maxTypesToCheck = 10

/** ExpressionWarning (admissionregistration/v1): the expression's path and what is wrong with it. */
export interface TypeCheckWarning {
  readonly fieldRef: string
  readonly warning: string
}

/** TypeCheckingResult: the issues (an invalid expression) or an internal error, for one kind. */
export interface TypeCheckingResult {
  readonly gvk: GroupVersionKind
  /** The compiler's issues (cel-go Issues.String()). */
  readonly issues?: string
  /** An internal error. */
  readonly error?: string
}

/** TypeCheckingResult.String(): `"<gvk>: <issues>\n"`, `"<gvk>: type checking error: <err>\n"`, or "". */
export function resultString(r: TypeCheckingResult): string {
  if (r.issues === undefined && r.error === undefined) return ''
  if (r.error !== undefined) return `${gvkString(r.gvk)}: type checking error: ${r.error}\n`
  return `${gvkString(r.gvk)}: ${r.issues}\n`
}

/** TypeCheckingResults.String(): the non-empty results joined with "\n". */
export function resultsString(rs: readonly TypeCheckingResult[]): string {
  return rs
    .map(resultString)
    .filter((m) => m !== '')
    .join('\n')
}

export interface TypeCheckOptions {
  /**
   * The schema of a kind (SchemaResolver.ResolveSchema), or undefined when there is none; a kind
   * without a schema is not checked (params without one are dyn). A throw counts as not found, as
   * the apiserver only logs resolution errors.
   */
  readonly schemas: (gvk: GroupVersionKind) => JSONSchemaProps | undefined
  /** Resolves the rules' resources to kinds (RESTMapper.KindsFor). */
  readonly mapper: RESTMapper
  /** The apiserver version whose StoredExpressions environment the expressions compile in (default DEFAULT_KUBE_VERSION). */
  readonly version?: KubeVersion
}

/** TypeCheckingContext: the checked kinds with their declared types, the params', the variables. */
export interface TypeCheckingContext {
  readonly gvks: readonly GroupVersionKind[]
  readonly declTypes: readonly (NamedDeclType | undefined)[]
  readonly paramGVK: GroupVersionKind | undefined
  readonly paramDeclType: NamedDeclType | undefined
  readonly variables: readonly { readonly name: string; readonly expression: string }[]
}

/** A declared type with the name its root object type carries (MaybeAssignTypeName). */
export interface NamedDeclType {
  readonly decl: DeclType
  readonly name: string
}

/**
 * TypeChecker.Check: the warnings of the policy's validations, in order (`expression` then
 * `messageExpression` of each); empty when there are none.
 */
export function typeCheck(policy: ValidatingAdmissionPolicy, options: TypeCheckOptions): TypeCheckWarning[] {
  const ctx = createContext(policy, options)
  const warnings: TypeCheckWarning[] = []
  const checker = new ExpressionChecker(ctx, options.version ?? DEFAULT_KUBE_VERSION)
  ;(policy.spec?.validations ?? []).forEach((v, i) => {
    const results = checker.check(v.expression ?? '')
    if (results.length !== 0)
      warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: resultsString(results) })
    // messageExpression is optional
    if ((v.messageExpression ?? '') === '') return
    const mr = checker.check(v.messageExpression ?? '')
    if (mr.length !== 0)
      warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: resultsString(mr) })
  })
  return warnings
}

/**
 * CreateContext: the kinds to check (those whose schema is found) with their declared types, and
 * the param kind's.
 */
export function createContext(policy: ValidatingAdmissionPolicy, options: TypeCheckOptions): TypeCheckingContext {
  let counter = 0
  const declType = (gvk: GroupVersionKind): NamedDeclType | undefined | 'notfound' => {
    let s: JSONSchemaProps | undefined
    try {
      s = options.schemas(gvk)
    } catch {
      // resolution failures are logged by the apiserver, and the kind skipped
      return 'notfound'
    }
    if (s === undefined) return 'notfound'
    const decl = schemaDeclType(s, true)
    if (decl === undefined) return undefined
    return { decl, name: `${gvk.kind}${++counter}` }
  }
  const gvks: GroupVersionKind[] = []
  const declTypes: (NamedDeclType | undefined)[] = []
  for (const gvk of typesToCheck(policy, options.mapper)) {
    const d = declType(gvk)
    if (d === 'notfound') continue
    gvks.push(gvk)
    declTypes.push(d)
  }
  const paramGVK = paramsGVK(policy)
  let paramDeclType: NamedDeclType | undefined
  if (paramGVK !== undefined) {
    const d = declType(paramGVK)
    paramDeclType = d === 'notfound' ? undefined : d
  }
  const variables = (policy.spec?.variables ?? []).map((v) => ({ name: v.name ?? '', expression: v.expression ?? '' }))
  return { gvks, declTypes, paramGVK, paramDeclType, variables }
}

/** Compiles expressions against every kind of a context (CheckExpression), reusing the compilers. */
class ExpressionChecker {
  private compilers: CompositedCompiler[] | undefined
  private readonly decls: OptionalVariableDeclarations

  constructor(
    private readonly ctx: TypeCheckingContext,
    private readonly version: KubeVersion,
  ) {
    this.decls = { hasParams: ctx.paramGVK !== undefined, hasAuthorizer: true }
  }

  /** The compiler of each kind, its variables compiled (as the apiserver does before each expression). */
  private compilersFor(): CompositedCompiler[] {
    if (this.compilers !== undefined) return this.compilers
    this.compilers = this.ctx.gvks.map((_, i) => {
      // StoredExpressions: `self.namespace`-style keyword field names resolve (RecognizeKeywordAsFieldName)
      const provider = new SchemaTypeProvider(true)
      const typeOf = (d: NamedDeclType | undefined): Type =>
        d === undefined ? DynType : provider.celType(d.decl, d.name)
      const compiler = new CompositedCompiler({
        version: this.version,
        expressions: 'stored',
        requestResourceAuthorizer: false,
        typeProvider: provider,
        objectType: typeOf(this.ctx.declTypes[i]),
        paramsType: typeOf(this.ctx.paramDeclType),
      })
      compiler.compileAndStoreVariables(this.ctx.variables, this.decls)
      return compiler
    })
    return this.compilers
  }

  check(expression: string): TypeCheckingResult[] {
    const results: TypeCheckingResult[] = []
    const compilers = this.compilersFor()
    this.ctx.gvks.forEach((gvk, i) => {
      const result = (compilers[i] as CompositedCompiler).compile(expression, [AnyType], this.decls)
      const err = result.error
      if (err === undefined) return
      if (err.type === 'Invalid') {
        results.push({ gvk, issues: err.detail.replace(/^compilation failed: /, '') })
      } else if (!err.detail.startsWith('program instantiation failed')) {
        // the apiserver's type checker only checks: it never builds the program
        results.push({ gvk, error: err.detail })
      }
    })
    return results
  }
}

/** paramsGVK: paramKind's kind (schema.ParseGroupVersion of its apiVersion); undefined when none. */
export function paramsGVK(policy: ValidatingAdmissionPolicy): GroupVersionKind | undefined {
  const pk = policy.spec?.paramKind
  if (pk === undefined) return undefined
  const gv = pk.apiVersion ?? ''
  let group = ''
  let version = ''
  if (gv !== '' && gv !== '/') {
    const slashes = gv.split('/').length - 1
    if (slashes === 0) version = gv
    else if (slashes === 1) [group, version] = gv.split('/') as [string, string]
    else return undefined
  }
  const kind = pk.kind ?? ''
  if (group === '' && version === '' && kind === '') return undefined
  return { group, version, kind }
}

/**
 * typesToCheck: the kinds of matchConstraints.resourceRules (rules with a wildcard group or version
 * are skipped, as are wildcard and subresource resources), each rule's groups, versions and
 * resources tried in sorted order; collection stops once 10 kinds were found (duplicates count).
 * Sorted by group, version, kind.
 */
export function typesToCheck(policy: ValidatingAdmissionPolicy, mapper: RESTMapper): GroupVersionKind[] {
  const rules = policy.spec?.matchConstraints?.resourceRules ?? []
  const found = new Map<string, GroupVersionKind>()
  const sorted = () =>
    [...found.values()].sort(
      (a, b) => compare(a.group, b.group) || compare(a.version, b.version) || compare(a.kind, b.kind),
    )
  for (const rule of rules) {
    const groups = extractGroups(rule)
    if (groups.length === 0) continue
    const versions = extractVersions(rule)
    if (versions.length === 0) continue
    const resources = extractResources(rule)
    if (resources.length === 0) continue
    groups.sort(compare)
    versions.sort(compare)
    resources.sort(compare)
    // the count is per rule, as in Go
    let count = 0
    for (const group of groups)
      for (const version of versions)
        for (const resource of resources) {
          for (const k of kindsFor(mapper, { group, version, resource })) {
            if (k.group === '' && k.version === '' && k.kind === '') continue
            found.set(`${k.group}/${k.version}/${k.kind}`, k)
            count++
            if (count === maxTypesToCheck) return sorted()
          }
        }
  }
  return sorted()
}

/** Go's strings.Compare / sort.Strings order: by UTF-8 bytes. */
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

function extractGroups(rule: NamedRuleWithOperations): string[] {
  const groups = [...(rule.apiGroups ?? [])]
  return groups.some((g) => g.includes('*')) ? [] : groups
}

function extractVersions(rule: NamedRuleWithOperations): string[] {
  const versions = [...(rule.apiVersions ?? [])]
  return versions.some((v) => v.includes('*')) ? [] : versions
}

function extractResources(rule: NamedRuleWithOperations): string[] {
  // skip wildcard and subresources
  return (rule.resources ?? []).filter((r) => !r.includes('*') && !r.includes('/'))
}

/**
 * RESTMapper.KindsFor as the apiserver's discovery mapper answers it (apimachinery
 * meta.DefaultRESTMapper over every served group-version, client-go restmapper/discovery.go): the
 * resource matches a served plural or singular name (lower-cased; a CRD's spec.names.singular); a group and version match exactly; a version alone matches that
 * version in every group (so `""`/`v1`/`events` is also events.k8s.io/v1 Event); a group alone
 * matches every version of the group (or of the groups it prefixes, when it names none exactly).
 */
export function kindsFor(mapper: RESTMapper, gvr: GroupVersionResource): GroupVersionKind[] {
  const resource = gvr.resource.toLowerCase()
  const version = gvr.version === '__internal' ? '' : gvr.version
  if (resource === '') return []
  const entries = mapper
    .resources()
    .flatMap((r) => {
      const kind = { group: r.group, version: r.version, kind: r.kind }
      // discovery's singularName (a CRD's spec.names.singular), else client-go restmapper's guess
      const singular = r.singular ?? r.kind.toLowerCase()
      return singular === r.resource
        ? [{ group: r.group, version: r.version, resource: r.resource, kind }]
        : [
            { group: r.group, version: r.version, resource: r.resource, kind },
            { group: r.group, version: r.version, resource: singular, kind },
          ]
    })
    .filter((e) => e.resource === resource)
  const hasGroup = gvr.group !== ''
  const hasVersion = version !== ''
  if (hasGroup && hasVersion) return entries.filter((e) => e.group === gvr.group && e.version === version).map(kindOf)
  if (hasGroup) {
    const exact = entries.filter((e) => e.group === gvr.group)
    if (exact.length > 0) return exact.map(kindOf)
    return entries.filter((e) => e.group.startsWith(gvr.group)).map(kindOf)
  }
  if (hasVersion) return entries.filter((e) => e.version === version).map(kindOf)
  return entries.map(kindOf)
}

function kindOf(e: { kind: GroupVersionKind }): GroupVersionKind {
  return e.kind
}
