import { goQuote } from '../../../cel/ext/quote.js'
import { type FieldError, FieldPath, field, GoStruct } from '../../../kube/field.js'
import type { LabelSelector } from '../../../kube/validation/label-selector.js'
import { validateLabelSelector } from '../../../kube/validation/label-selector.js'
import {
  arr,
  isObj,
  type JSONObject,
  nameIsDNSSubdomain,
  obj,
  objectMeta,
  objectMetaUpdate,
  str,
  strs,
  validateImmutableField,
} from '../common.js'

// rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding: kubernetes v1.37.2
// pkg/apis/rbac/validation/validation.go, plus the declarative rules of pkg/apis/rbac/v1
// zz_generated.validations.go that are enforced: from 1.36 (DeclarativeValidationBeta on) the beta
// `Required` of rules[*].verbs, subjects[*].name and roleRef.name replace the handwritten errors they
// cover (rest.ValidateDeclarativelyWithMigrationChecks: covered handwritten errors dropped, the
// declarative ones appended after the handwritten list, with an empty detail). The alpha roleRef
// immutability is not enforced; the handwritten one is.

const GROUP = 'rbac.authorization.k8s.io'

/** ValidateRBACName: content.IsPathSegmentName, the prefix flag ignored. */
const rbacName = (name: string): string[] => {
  if (name === '.' || name === '..') return [`may not be '${name}'`]
  const errs: string[] = []
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`)
  return errs
}

/** Whether the beta declarative rules are enforced (DeclarativeValidationBeta: on from 1.36). */
const beta = (minor: number) => minor >= 36

/** ValidatePolicyRule; `declared` collects the beta Required of verbs. */
function validatePolicyRule(
  rule: JSONObject,
  namespaced: boolean,
  p: FieldPath,
  minor: number,
  declared: FieldError[],
) {
  const errs: FieldError[] = []
  if (strs(rule.verbs).length === 0) {
    if (beta(minor)) declared.push(field.required(p.child('verbs'), ''))
    else errs.push(field.required(p.child('verbs'), 'verbs must contain at least one value'))
  }
  const urls = strs(rule.nonResourceURLs)
  if (urls.length > 0) {
    if (namespaced)
      errs.push(field.invalid(p.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'))
    if (strs(rule.apiGroups).length > 0 || strs(rule.resources).length > 0 || strs(rule.resourceNames).length > 0)
      errs.push(
        field.invalid(
          p.child('nonResourceURLs'),
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      )
    return errs
  }
  if (strs(rule.apiGroups).length === 0)
    errs.push(field.required(p.child('apiGroups'), 'resource rules must supply at least one api group'))
  if (strs(rule.resources).length === 0)
    errs.push(field.required(p.child('resources'), 'resource rules must supply at least one resource'))
  return errs
}

function validateRules(o: JSONObject, namespaced: boolean, minor: number, declared: FieldError[]): FieldError[] {
  const errs: FieldError[] = []
  arr(o.rules).forEach((r, i) => {
    errs.push(...validatePolicyRule(obj(r) ?? {}, namespaced, FieldPath.of('rules').index(i), minor, declared))
  })
  return errs
}

/** ValidateRole's checks; `declared` gets the declarative errors. */
function validateRoleFields(o: JSONObject, minor: number, declared: FieldError[]): FieldError[] {
  return [...objectMeta(o, true, rbacName, minor), ...validateRules(o, true, minor, declared)]
}

/** ValidateClusterRole's checks; `declared` gets the declarative errors. */
function validateClusterRoleFields(
  o: JSONObject,
  minor: number,
  declared: FieldError[],
  allowInvalidLabelValueInSelector = false,
): FieldError[] {
  const errs = [...objectMeta(o, false, rbacName, minor), ...validateRules(o, false, minor, declared)]
  const agg = o.aggregationRule
  if (isObj(agg)) {
    const sels = arr(agg.clusterRoleSelectors)
    const p = FieldPath.of('aggregationRule', 'clusterRoleSelectors')
    if (sels.length === 0)
      errs.push(field.required(p, 'at least one clusterRoleSelector required if aggregationRule is non-nil'))
    sels.forEach((s, i) => {
      errs.push(
        ...validateLabelSelector(
          (obj(s) ?? {}) as LabelSelector,
          { allowInvalidLabelValueInSelector },
          p.index(i),
          minor,
        ),
      )
    })
  }
  return errs
}

/** ValidateRoleBindingSubject. */
function validateSubject(s: JSONObject, namespaced: boolean, p: FieldPath, minor: number, declared: FieldError[]) {
  const errs: FieldError[] = []
  const name = str(s.name)
  const apiGroup = str(s.apiGroup)
  if (name.length === 0) (beta(minor) ? declared : errs).push(field.required(p.child('name'), ''))
  switch (str(s.kind)) {
    case 'ServiceAccount':
      if (name.length > 0)
        for (const m of nameIsDNSSubdomain(name, false)) errs.push(field.invalid(p.child('name'), name, m))
      if (apiGroup.length > 0) errs.push(field.notSupported(p.child('apiGroup'), apiGroup, ['']))
      if (!namespaced && str(s.namespace).length === 0) errs.push(field.required(p.child('namespace'), ''))
      break
    case 'User':
    case 'Group':
      if (apiGroup !== GROUP) errs.push(field.notSupported(p.child('apiGroup'), apiGroup, [GROUP]))
      break
    default:
      errs.push(field.notSupported(p.child('kind'), str(s.kind), ['ServiceAccount', 'User', 'Group']))
  }
  return errs
}

/** ValidateRoleBinding / ValidateClusterRoleBinding; `declared` gets subjects' then roleRef's Required. */
export function validateBinding(o: JSONObject, namespaced: boolean, minor: number, declared: FieldError[]) {
  const errs = objectMeta(o, namespaced, rbacName, minor)
  const ref = obj(o.roleRef) ?? {}
  const refGroup = str(ref.apiGroup)
  if (refGroup !== GROUP) errs.push(field.notSupported(FieldPath.of('roleRef', 'apiGroup'), refGroup, [GROUP]))
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole']
  if (!kinds.includes(str(ref.kind)))
    errs.push(field.notSupported(FieldPath.of('roleRef', 'kind'), str(ref.kind), kinds))
  const refName = str(ref.name)
  const refDeclared: FieldError[] = []
  if (refName.length === 0) (beta(minor) ? refDeclared : errs).push(field.required(FieldPath.of('roleRef', 'name'), ''))
  else for (const m of rbacName(refName)) errs.push(field.invalid(FieldPath.of('roleRef', 'name'), refName, m))
  arr(o.subjects).forEach((s, i) => {
    errs.push(...validateSubject(obj(s) ?? {}, namespaced, FieldPath.of('subjects').index(i), minor, declared))
  })
  declared.push(...refDeclared)
  return errs
}

/** A v1 RoleRef as the internal struct's field order marshals it (the bad value of immutability). */
const roleRefValue = (r: unknown) => {
  const o = obj(r) ?? {}
  return { APIGroup: str(o.apiGroup), Kind: str(o.kind), Name: str(o.name) }
}

type Kind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding'

/** Validate<Kind> (old undefined) / Validate<Kind>Update of the four RBAC kinds. */
function validateCreateOrUpdate(kind: Kind, o: JSONObject, old: JSONObject | undefined, minor: number): FieldError[] {
  const declared: FieldError[] = []
  let errs: FieldError[]
  switch (kind) {
    case 'Role':
      errs = validateRoleFields(o, minor, declared)
      break
    case 'ClusterRole':
      errs = validateClusterRoleFields(o, minor, declared, old !== undefined && hasInvalidLabelValueInSelector(old))
      break
    default:
      errs = validateBinding(o, kind === 'RoleBinding', minor, declared)
  }
  if (old !== undefined) {
    errs.push(...objectMetaUpdate(o, old, minor))
    if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') {
      const nr = roleRefValue(o.roleRef)
      const or = roleRefValue(old.roleRef)
      // before 1.37 the handwritten check says `cannot change roleRef`; from 1.37 it is ValidateImmutableField
      const e = validateImmutableField(nr, or, FieldPath.of('roleRef'))
      errs.push(
        ...e.map((x) => ({
          ...x,
          badValue: roleRefStruct(nr),
          ...(minor <= 36 ? { detail: 'cannot change roleRef' } : {}),
          // before 1.34 ErrorBody printed the struct with %#v
          ...(minor <= 33
            ? {
                printedValue: `rbac.RoleRef{APIGroup:${goQuote(nr.APIGroup)}, Kind:${goQuote(nr.Kind)}, Name:${goQuote(nr.Name)}}`,
              }
            : {}),
        })),
      )
      // declarative rules skip an unchanged roleRef on update (ratcheting): its handwritten error stays
      if (e.length === 0 && str(nr.Name) === '' && beta(minor)) {
        const i = declared.findIndex((d) => d.field === 'roleRef.name')
        if (i >= 0) {
          declared.splice(i, 1)
          errs.push(field.required(FieldPath.of('roleRef', 'name'), ''))
        }
      }
    }
  }
  return [...errs, ...declared]
}

/** The internal rbac.RoleRef as json.Marshal prints it (no JSON tags: Go field names, in order). */
const roleRefStruct = (r: { APIGroup: string; Kind: string; Name: string }) =>
  new GoStruct([
    ['APIGroup', r.APIGroup],
    ['Kind', r.Kind],
    ['Name', r.Name],
  ])

/** hasInvalidLabelValueInLabelSelector of the old ClusterRole (clusterrole/strategy.go). */
function hasInvalidLabelValueInSelector(old: JSONObject): boolean {
  const agg = obj(old.aggregationRule)
  if (agg === undefined) return false
  for (const s of arr(agg.clusterRoleSelectors)) {
    const errs = validateLabelSelector((obj(s) ?? {}) as LabelSelector, {}, FieldPath.of('x'))
    if (errs.some((e) => e.field.includes('values'))) return true
  }
  return false
}

/** ValidateRole. */
export function validateRole(o: JSONObject, minor: number): FieldError[] {
  return validateCreateOrUpdate('Role', o, undefined, minor)
}

/** ValidateRoleUpdate. */
export function validateRoleUpdate(o: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateCreateOrUpdate('Role', o, old, minor)
}

/** ValidateClusterRole. */
export function validateClusterRole(o: JSONObject, minor: number): FieldError[] {
  return validateCreateOrUpdate('ClusterRole', o, undefined, minor)
}

/** ValidateClusterRoleUpdate. */
export function validateClusterRoleUpdate(o: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateCreateOrUpdate('ClusterRole', o, old, minor)
}

/** ValidateRoleBinding. */
export function validateRoleBinding(o: JSONObject, minor: number): FieldError[] {
  return validateCreateOrUpdate('RoleBinding', o, undefined, minor)
}

/** ValidateRoleBindingUpdate. */
export function validateRoleBindingUpdate(o: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateCreateOrUpdate('RoleBinding', o, old, minor)
}

/** ValidateClusterRoleBinding. */
export function validateClusterRoleBinding(o: JSONObject, minor: number): FieldError[] {
  return validateCreateOrUpdate('ClusterRoleBinding', o, undefined, minor)
}

/** ValidateClusterRoleBindingUpdate. */
export function validateClusterRoleBindingUpdate(o: JSONObject, old: JSONObject, minor: number): FieldError[] {
  return validateCreateOrUpdate('ClusterRoleBinding', o, old, minor)
}
