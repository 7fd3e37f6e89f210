// Maps built from request data hold any key: a ConfigMap's data, labels, annotations and free-form
// fields may be named `__proto__`, `constructor`, `toString`, … (the apiserver stores each as given).
// A plain JS object answers `o[k]` for those with Object.prototype's members and turns
// `o.__proto__ = v` into a prototype change, so code copying input reads own properties only
// (`own`) and writes `__proto__` as a data property (`setOwn`).

type Obj = { readonly [key: string]: unknown }

/** `o[k]` when `o` has its own `k`, else undefined (never an inherited Object.prototype member). */
export function own<T = unknown>(o: { readonly [key: string]: T } | undefined | null, k: string): T | undefined {
  return o !== undefined && o !== null && Object.hasOwn(o, k) ? o[k] : undefined
}

/** `o[k] = v` as a data property: for `__proto__` too, which plain assignment would take as the prototype. */
export function setOwn<T>(o: { [key: string]: T }, k: string, v: T): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true })
  else o[k] = v
}

/** Whether `o` has its own `k`. */
export const hasOwn = (o: Obj | undefined | null, k: string): boolean =>
  o !== undefined && o !== null && Object.hasOwn(o, k)
