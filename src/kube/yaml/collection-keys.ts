import { goQuote } from '../../cel/ext/quote.js'
import { compareStrings } from '../../cel/values/strings.js'
import { yamlPackage } from './yaml-package.js'

// A mapping or a sequence used as a mapping key: go-yaml v2 refuses it when it decodes into interface{}
// (decode.go mapping(): a Go map key must be hashable, `failf("invalid map key: %#v", k.Interface())`), so
// kubectl says `error converting YAML to JSON: yaml: invalid map key: map[interface {}]interface {}{…}`;
// js-yaml instead turns such a key into the text `[object Object]`. An unrendered Helm template is where it
// is met: `name: {{ include "x" . }}` is a flow mapping whose key is a flow mapping. Only texts holding `{{`
// are looked at (decode.ts), with the position-keeping `yaml` parser, loaded then (yaml-package.ts).

type YamlModule = typeof import('yaml')

/** A value as Go's `%#v` prints it inside an interface{} (go-yaml v2's decoded types). */
function goSharpV(node: unknown, Y: YamlModule): string {
  if (Y.isMap(node)) {
    const entries = node.items.map((p) => `${goSharpV(p.key, Y)}:${goSharpV(p.value, Y)}`)
    // fmt prints a map's entries sorted by key (Go's string order)
    return `map[interface {}]interface {}{${entries.sort(compareStrings).join(', ')}}`
  }
  if (Y.isSeq(node)) return `[]interface {}{${node.items.map((i) => goSharpV(i, Y)).join(', ')}}`
  const v = Y.isScalar(node) ? node.value : node
  if (v === null || v === undefined) return 'interface {}(nil)'
  if (typeof v === 'string') return goQuote(v)
  return String(v)
}

/** The first mapping or sequence written as a mapping key, in go-yaml's words, with its offset in `text`. */
export function collectionKey(text: string): { message: string; at: number } | undefined {
  const Y = yamlPackage()
  const doc = Y.parseDocument(text, { version: '1.1', uniqueKeys: false })
  let found: { message: string; at: number } | undefined
  Y.visit(doc, {
    Pair(_, pair) {
      const key = pair.key
      if (!Y.isMap(key) && !Y.isSeq(key)) return undefined
      const at = key.range?.[0] ?? 0
      // where the parser met an error before the key, its reading there is not go-yaml's (js-yaml, which read the
      // text without one, is kept): a quoted scalar's line less indented than its parent's, which go-yaml takes
      if (doc.errors.some((e) => e.pos[0] <= at)) return Y.visit.BREAK
      found = { message: `invalid map key: ${goSharpV(key, Y)}`, at }
      return Y.visit.BREAK
    },
  })
  return found
}
