import type { Expr } from '../common/ast.js'

// Qualified names (cel-go common/containers): select chains read as dotted names, and the
// candidate names a container gives a name.

/** `a.b.c` for an ident/select chain (test-only selects excluded), else undefined (containers.ToQualifiedName). */
export function qualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name
  if (e.kind !== 'select' || e.testOnly) return undefined
  const operand = qualifiedName(e.operand)
  return operand === undefined ? undefined : `${operand}.${e.field}`
}

/** The identifier at the root of a select chain, without building the name. */
export function rootIdent(e: Expr): string | undefined {
  while (e.kind === 'select') {
    if (e.testOnly) return undefined
    e = e.operand
  }
  return e.kind === 'ident' ? e.name : undefined
}

/**
 * ResolveCandidateNames: `.x` is absolute; otherwise `x` in container `a.b` is tried as
 * `a.b.x`, `a.x`, then `x`.
 */
export function candidateNames(container: string, name: string): string[] {
  if (name.charCodeAt(0) === 46 /* . */) return [name.slice(1)]
  if (container === '') return [name]
  const out = [`${container}.${name}`]
  for (let i = container.lastIndexOf('.'); i >= 0; i = i > 0 ? container.lastIndexOf('.', i - 1) : -1) {
    out.push(`${container.slice(0, i)}.${name}`)
  }
  out.push(name)
  return out
}
