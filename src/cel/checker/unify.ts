import { DynType, listOf, mapOf, Type, typeOf } from '../types/types.js'

// Assignability and type-parameter unification, ported from cel-go's checker/types.go and
// checker/mapping.go (v0.26), plus common/types.Type.IsAssignableType / IsExactType.
//
// cel-go copies the substitution mapping before every assignability test and keeps the copy
// on success; here the mapping keeps an undo trail instead (`mark` / `rollback`), which gives
// the same results without copying a map per test.

/** Type-parameter substitutions (cel-go's mapping), keyed by the parameter's name. */
export class Mapping {
  private readonly subs = new Map<string, Type>()
  // Undo trail: names[i] had substitution prevs[i] (undefined = none) before the i-th add.
  // `top` is the live length (the arrays are never shrunk: setting an array's length is slow).
  private readonly names: string[] = []
  private readonly prevs: (Type | undefined)[] = []
  private top = 0

  find(t: Type): Type | undefined {
    return t.typeKind === 'type_param' && this.subs.size > 0 ? this.subs.get(t.name) : undefined
  }

  add(from: Type, to: Type): void {
    const i = this.top++
    this.names[i] = from.name
    this.prevs[i] = this.subs.get(from.name)
    this.subs.set(from.name, to)
  }

  mark(): number {
    return this.top
  }

  rollback(mark: number): void {
    while (this.top > mark) {
      const i = --this.top
      const prev = this.prevs[i]
      if (prev === undefined) this.subs.delete(this.names[i]!)
      else this.subs.set(this.names[i]!, prev)
      this.prevs[i] = undefined
    }
  }

  /** Keeps the substitutions made since `mark` for good (no enclosing test can undo them). */
  commit(mark: number): void {
    this.top = mark
  }

  /** Forgets everything (for reuse by the next check). */
  reset(): void {
    if (this.subs.size > 0) this.subs.clear()
    this.top = 0
  }
}

/** dyn or google.protobuf.Any (cel-go's isDyn in the checker). */
export function isDyn(t: Type): boolean {
  return t.typeKind === 'dyn' || t.typeKind === 'any'
}

export function isDynOrError(t: Type): boolean {
  return t.typeKind === 'dyn' || t.typeKind === 'any' || t.typeKind === 'error'
}

/** Type.IsExactType: same kind, name and parameters (type parameter names included). */
export function isExactType(a: Type, b: Type): boolean {
  if (a === b) return true
  if (a.typeKind !== b.typeKind || a.name !== b.name) return false
  const ap = a.params
  const bp = b.params
  if (ap.length !== bp.length) return false
  for (let i = 0; i < ap.length; i++) if (!isExactType(ap[i]!, bp[i]!)) return false
  return true
}

/** Type.IsAssignableType (defaultIsAssignableType): whether `from` may be used where `t` is declared. */
function isAssignableType(t: Type, from: Type): boolean {
  if (t === from) return true
  const k = t.typeKind
  if (k === 'dyn' || k === 'any' || k === 'type_param') return true
  if (k !== from.typeKind || t.name !== from.name) return false
  const tp = t.params
  const fp = from.params
  if (tp.length !== fp.length) return false
  for (let i = 0; i < tp.length; i++) if (!isAssignableType(tp[i]!, fp[i]!)) return false
  return true
}

/** Whether t1 is assignable to t2, recording substitutions in m (no rollback on failure). */
function internalIsAssignable(m: Mapping, t1: Type, t2: Type): boolean {
  const k1 = t1.typeKind
  const k2 = t2.typeKind
  if (k2 === 'type_param') {
    const r = isValidTypeSubstitution(m, t1, t2)
    if (r === VALID) return true
    // Not valid and already substituted: t1 cannot be a substitution for t2 either.
    if (r === INVALID_HAS_SUB) return false
  }
  if (k1 === 'type_param') return isValidTypeSubstitution(m, t2, t1) === VALID
  if (isDynOrError(t1) || isDynOrError(t2)) return true
  // The nullness rules of the legacy checker.
  if (k1 === 'null_type') return isAssignableNull(t2)
  if (k2 === 'null_type') return isAssignableNull(t1)
  switch (k1) {
    case 'bool':
    case 'bytes':
    case 'double':
    case 'int':
    case 'string':
    case 'uint':
    case 'duration':
    case 'timestamp':
    case 'struct':
      return isAssignableType(t1, t2)
    case 'type':
      return k2 === 'type'
    case 'opaque':
    case 'list':
    case 'map':
      return k1 === k2 && t1.name === t2.name && internalIsAssignableList(m, t1.params, t2.params)
    default:
      return false
  }
}

const VALID = 0
const INVALID_HAS_SUB = 1
const INVALID = 2

/**
 * Whether t2 (a type parameter, or its substitution) is a valid substitution for t1: its
 * substitution equals or accepts t1 (then the more general of the two is kept), or it has none
 * and does not occur in t1 (then t1 becomes its substitution).
 */
function isValidTypeSubstitution(m: Mapping, t1: Type, t2: Type): number {
  if (t1.typeKind === t2.typeKind && isExactType(t1, t2)) return VALID
  const sub = m.find(t2)
  if (sub !== undefined) {
    if (t1.typeKind === sub.typeKind && isExactType(t1, sub)) return VALID
    if (internalIsAssignable(m, t1, sub)) {
      const general = mostGeneral(t1, sub)
      if (notReferencedIn(m, t2, general)) m.add(t2, general)
      return VALID
    }
    return INVALID_HAS_SUB
  }
  if (notReferencedIn(m, t2, t1)) {
    m.add(t2, t1)
    return VALID
  }
  return INVALID
}

function internalIsAssignableList(m: Mapping, l1: readonly Type[], l2: readonly Type[]): boolean {
  if (l1.length !== l2.length) return false
  for (let i = 0; i < l1.length; i++) if (!internalIsAssignable(m, l1[i]!, l2[i]!)) return false
  return true
}

/** Types null may be assigned to: messages, opaque types, Any, durations and timestamps (legacy rule). */
function isAssignableNull(t: Type): boolean {
  switch (t.typeKind) {
    case 'opaque':
    case 'struct':
    case 'any':
    case 'duration':
    case 'timestamp':
    case 'null_type':
    case 'dyn':
    case 'type_param':
      return true
    default:
      return false
  }
}

/**
 * Whether t1 is assignable to t2; on success the substitutions it needed are kept, otherwise
 * the mapping is left as it was. Only for top-level tests (it commits its own trail).
 */
export function isAssignable(m: Mapping, t1: Type, t2: Type): boolean {
  const mark = m.mark()
  if (internalIsAssignable(m, t1, t2)) {
    m.commit(mark)
    return true
  }
  m.rollback(mark)
  return false
}

/** isAssignable for argument lists: the first `n` types of l1 against those of l2 (same arity checked by the caller). */
export function isAssignableList(m: Mapping, l1: readonly Type[], l2: readonly Type[], n: number): boolean {
  const mark = m.mark()
  for (let i = 0; i < n; i++) {
    if (!internalIsAssignable(m, l1[i]!, l2[i]!)) {
      m.rollback(mark)
      return false
    }
  }
  m.commit(mark)
  return true
}

/** Whether t1 is equal to or less specific (closer to dyn) than t2. */
function isEqualOrLessSpecific(t1: Type, t2: Type): boolean {
  const k1 = t1.typeKind
  const k2 = t2.typeKind
  if (isDyn(t1) || k1 === 'type_param') return true
  if (isDyn(t2) || k2 === 'type_param') return false
  if (k1 !== k2) return false
  switch (k1) {
    case 'opaque': {
      if (t1.name !== t2.name || t1.params.length !== t2.params.length) return false
      for (let i = 0; i < t1.params.length; i++) if (!isEqualOrLessSpecific(t1.params[i]!, t2.params[i]!)) return false
      return true
    }
    case 'list':
      return isEqualOrLessSpecific(t1.params[0]!, t2.params[0]!)
    case 'map':
      return isEqualOrLessSpecific(t1.params[0]!, t2.params[0]!) && isEqualOrLessSpecific(t1.params[1]!, t2.params[1]!)
    case 'type':
      return true
    default:
      return isExactType(t1, t2)
  }
}

/** The more general of two types known to unify. */
export function mostGeneral(t1: Type, t2: Type): Type {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2
}

/**
 * The occurs check: t does not appear in `within`, directly or through substitutions. It also
 * looks inside `type(T)`: cel-go types `{}.map(c, [c, type(c)])` as list(list(dyn)) (cel-spec's
 * checking suite), which needs the check to reject binding a variable to `type(itself)`.
 */
function notReferencedIn(m: Mapping, t: Type, within: Type): boolean {
  if (isExactType(t, within)) return false
  switch (within.typeKind) {
    case 'type_param': {
      const sub = m.find(within)
      return sub === undefined ? true : notReferencedIn(m, t, sub)
    }
    case 'opaque':
    case 'list':
    case 'map':
    case 'type':
      for (const p of within.params) if (!notReferencedIn(m, t, p)) return false
      return true
    default:
      return true
  }
}

/**
 * Replaces bound type parameters by their substitutions, and unbound ones by dyn when
 * `toDyn`. Returns `t` itself when nothing changes.
 */
export function substitute(m: Mapping, t: Type, toDyn: boolean): Type {
  const sub = m.find(t)
  if (sub !== undefined) return substitute(m, sub, toDyn)
  const k = t.typeKind
  if (k === 'type_param') return toDyn ? DynType : t
  const ps = t.params
  if (ps.length === 0) return t
  switch (k) {
    case 'list': {
      const e = substitute(m, ps[0]!, toDyn)
      return e === ps[0] ? t : listOf(e)
    }
    case 'map': {
      const a = substitute(m, ps[0]!, toDyn)
      const b = substitute(m, ps[1]!, toDyn)
      return a === ps[0] && b === ps[1] ? t : mapOf(a, b)
    }
    case 'type': {
      const e = substitute(m, ps[0]!, toDyn)
      return e === ps[0] ? t : typeOf(e)
    }
    case 'opaque': {
      let out: Type[] | undefined
      for (let i = 0; i < ps.length; i++) {
        const p = substitute(m, ps[i]!, toDyn)
        if (p !== ps[i] && out === undefined) out = ps.slice(0, i)
        out?.push(p)
      }
      return out === undefined ? t : new Type('opaque', t.name, out)
    }
    default:
      return t
  }
}

/** Whether t contains no type parameter (then substitution leaves it unchanged). */
export function isGround(t: Type): boolean {
  if (t.typeKind === 'type_param') return false
  const ps = t.params
  for (let i = 0; i < ps.length; i++) if (!isGround(ps[i]!)) return false
  return true
}

/**
 * Instantiates a declaration's type parameters: names[i] becomes the fresh variable
 * `fresh(base + i)`; types without parameters are returned as they are.
 */
export function instantiate(t: Type, names: readonly string[], base: number, fresh: (n: number) => Type): Type {
  if (t.typeKind === 'type_param') {
    const i = names.indexOf(t.name)
    return i < 0 ? t : fresh(base + i)
  }
  const ps = t.params
  if (ps.length === 0) return t
  let out: Type[] | undefined
  for (let i = 0; i < ps.length; i++) {
    const p = instantiate(ps[i]!, names, base, fresh)
    if (p !== ps[i] && out === undefined) out = ps.slice(0, i)
    out?.push(p)
  }
  return out === undefined ? t : new Type(t.typeKind, t.name, out)
}
