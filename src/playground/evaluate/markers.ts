import { isObject } from '../../kube/values/json.js'
import { FieldLocator, parsePath } from '../../kube/yaml/locate.js'
import type { LoadedObject } from '../../manifest/parse.js'
import { scalarAt } from './scalar-map.js'
import type { Marker, PaneId } from './types.js'

// Findings about a field of the material placed in its pane: at the field's key (kube/yaml/locate.ts), and a CEL
// error (`ERROR: <input>:L:C: …`, its line and its column in code points) at its character in the expression when
// the expression's value is read exactly here (scalar-map.ts: plain, quoted and block scalars).

const CEL_ERROR = /ERROR: <input>:(\d+):(\d+): /g

/** The value at a field path of an object (own keys only), or undefined. */
export function valueAt(object: unknown, path: string): unknown {
  let v: unknown = object
  for (const s of parsePath(path)) {
    if (Array.isArray(v) && s.index >= 0) v = v[s.index]
    else if (isObject(v) && Object.hasOwn(v, s.key)) v = v[s.key]
    else return undefined
  }
  return v
}

/**
 * The path of a field as the object writes it. A CustomResourceDefinition's errors name its schema as the
 * apiserver's internal version holds it when every version has the same one (`spec.validation.openAPIV3Schema`,
 * apiextensions' conversion): a v1 object writes it under its first version.
 */
export function writtenPath(object: unknown, field: string): string {
  const internal = 'spec.validation.openAPIV3Schema'
  if (!field.startsWith(internal) || valueAt(object, 'spec.validation') !== undefined) return field
  return `spec.versions[0].schema.openAPIV3Schema${field.slice(internal.length)}`
}

/** The UTF-16 offset of a CEL position (1-based line, 1-based column in code points) in the expression. */
export function celOffset(expression: string, line: number, column: number): number | undefined {
  let at = 0
  for (let l = 1; l < line; l++) {
    const nl = expression.indexOf('\n', at)
    if (nl < 0) return undefined
    at = nl + 1
  }
  for (let c = 1; c < column; c++) {
    if (at >= expression.length || expression[at] === '\n') return c === column ? at : undefined
    const code = expression.charCodeAt(at)
    at += code >= 0xd800 && code <= 0xdbff ? 2 : 1
  }
  return at
}

/** 1-based line and column of a text offset (columns in UTF-16 units, as the panes count them). */
export class LineIndex {
  private readonly starts: number[] = [0]
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1)
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0
    let hi = this.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((this.starts[mid] as number) <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: offset - (this.starts[lo] as number) + 1 }
  }
  offset(line: number, column: number): number {
    return (this.starts[line - 1] ?? 0) + column - 1
  }
}

/** One pane's text, for placing findings about the objects read from it. */
export class PaneText {
  private readonly locator: FieldLocator
  readonly lines: LineIndex
  constructor(
    readonly pane: PaneId,
    readonly text: string,
  ) {
    this.locator = new FieldLocator(text)
    this.lines = new LineIndex(text)
  }

  /**
   * Markers for a message about `field` of `object`: one per CEL error in it (at its character when the field is
   * an expression read exactly), else one at the field's key (at the object's start without a field).
   */
  markers(object: LoadedObject, field: string | undefined, severity: Marker['severity'], message: string): Marker[] {
    const start = {
      line: object.source.line ?? 1,
      ...(object.source.column !== undefined ? { column: object.source.column } : {}),
    }
    const at = (offset: number, end?: number): Pick<Marker, 'line' | 'column' | 'endLine' | 'endColumn'> => {
      const p = this.lines.position(offset)
      if (end === undefined) return p
      const e = this.lines.position(end)
      return { ...p, endLine: e.line, endColumn: e.column }
    }
    if (field === undefined || field === '')
      return [{ pane: this.pane, line: start.line, column: start.column ?? 1, severity, message }]
    let key: { line: number; column: number; exact: boolean }
    field = writtenPath(object.object, field)
    try {
      key = this.locator.locate(start, field)
    } catch {
      return [{ pane: this.pane, line: start.line, column: start.column ?? 1, severity, message }]
    }
    const keyOffset = this.lines.offset(key.line, key.column)
    const expression = valueAt(object.object, field)
    const errors = [...message.matchAll(CEL_ERROR)]
    if (!key.exact || typeof expression !== 'string' || errors.length === 0)
      return [{ pane: this.pane, line: key.line, column: key.column, severity, message }]
    const map = scalarAt(this.text, keyOffset)
    const exact = map !== undefined && map.value === expression
    const out: Marker[] = []
    for (let i = 0; i < errors.length; i++) {
      const m = errors[i] as RegExpExecArray
      // this error's text: its ERROR line and its snippet, with what the message says before the first one
      const end = i + 1 < errors.length ? (errors[i + 1] as RegExpExecArray).index : message.length
      const text = `${i === 0 ? message.slice(0, m.index) : ''}${message.slice(m.index, end).trimEnd()}`
      const offset = exact ? celOffset(expression, Number(m[1]), Number(m[2])) : undefined
      if (offset === undefined || map === undefined) {
        const place = map !== undefined ? at(map.start) : { line: key.line, column: key.column }
        out.push({ pane: this.pane, ...place, severity, message: text })
        continue
      }
      const source = map.offsets[offset] ?? (map.offsets[map.offsets.length - 1] ?? map.start) + 1
      out.push({ pane: this.pane, ...at(source, source + 1), severity, message: text })
    }
    return out
  }
}
