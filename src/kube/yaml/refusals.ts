// What go-yaml v2's scanner refuses and js-yaml reads (test/e2e/yaml finds them against kubectl's
// reading), go-yaml v2 being YAML 1.1 where js-yaml is 1.2 (scannerc.go):
// - an anchor name with a character outside [0-9A-Za-z_-] (`&apps/v1`): yaml_parser_scan_anchor's
//   "did not find expected alphabetic or numeric character";
// - the escape `\/` in a double-quoted scalar: yaml_parser_scan_flow_scalar's "found unknown escape
//   character";
// - `?` inside a plain scalar of a flow collection (`[--url=http://x?y]`): yaml_parser_scan_plain_scalar
//   ends the scalar there, then the parser's "did not find expected ',' or ']'" (or '}').
// Watched through js-yaml's node listener, only in texts that hold `&`, `\/` or `?`.

import type { EventType, State } from 'js-yaml'

export interface Refusal {
  readonly message: string
  /** Offset in the text. */
  readonly at: number
}

interface ListenerState {
  readonly input: string
  readonly position: number
  readonly kind: string | null
  readonly anchor: string | null
}

const ANCHOR_CHAR = /^[0-9A-Za-z_-]*/
// after an anchor's name go-yaml takes a blank, the end, or one of these (anything else is its error)
const ANCHOR_END = '?:,]}%@`'

/** A listener for js-yaml's load, and the first refusal it saw; undefined when the text needs none. */
export function goYAMLWatch(
  text: string,
): { listener: (event: EventType, state: State) => void; refusal(): Refusal | undefined } | undefined {
  const anchors = text.includes('&')
  const escapes = text.includes('\\/')
  const questions = text.includes('?') && (text.includes('[') || text.includes('{'))
  if (!anchors && !escapes && !questions) return undefined
  let refusal: Refusal | undefined
  // the open nodes' start offsets, outermost first
  const opens: number[] = []
  const refuse = (message: string, at: number) => {
    if (refusal === undefined || at < refusal.at) refusal = { message, at }
  }
  return {
    refusal: () => refusal,
    listener: (event, st) => {
      // js-yaml's state holds more than @types/js-yaml declares
      const state = st as unknown as ListenerState
      if (event === 'open') {
        opens.push(state.position)
        return
      }
      const s = state.input
      const open = opens.pop() ?? 0
      if (anchors && state.anchor !== null) {
        const name = state.anchor
        const ok = (ANCHOR_CHAR.exec(name)?.[0] ?? '').length
        if (ok < name.length && !ANCHOR_END.includes(name[ok] as string)) {
          const at = s.indexOf(`&${name}`, open)
          refuse('did not find expected alphabetic or numeric character', at < 0 ? open : at + 1 + ok)
        }
      }
      if (state.kind !== 'scalar' || (!escapes && !questions)) return
      const start = contentStart(s, open, state.position)
      if (escapes && s[start] === '"') {
        const at = slashEscape(s, start, state.position)
        if (at >= 0) refuse('found unknown escape character', at)
      }
      if (questions && s[start] !== '"' && s[start] !== "'") {
        const q = s.indexOf('?', start + 1)
        if (q >= 0 && q < state.position) {
          // the innermost open collection is the scalar's: a flow one ends go-yaml's scalar at `?`
          const parent = opens.length > 0 ? s[contentStart(s, opens[opens.length - 1] as number, state.position)] : ''
          if (parent === '[' || parent === '{')
            refuse(`did not find expected ',' or '${parent === '[' ? ']' : '}'}'`, q)
        }
      }
    },
  }
}

/** Where a node opened at `from` begins: after separation spaces, comments and its properties. */
function contentStart(s: string, from: number, to: number): number {
  let i = from
  for (;;) {
    while (i < to && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++
    if (s[i] === '#') {
      while (i < to && s[i] !== '\n') i++
      continue
    }
    if (s[i] === '&' || s[i] === '!') {
      while (i < to && s[i] !== ' ' && s[i] !== '\t' && s[i] !== '\n') i++
      continue
    }
    return i
  }
}

/** Where the double-quoted scalar opening at `start` holds `\/`, or -1. */
function slashEscape(s: string, start: number, to: number): number {
  for (let j = start + 1; j < to; j++) {
    const c = s[j]
    if (c === '"') return -1
    if (c === '\\') {
      if (s[j + 1] === '/') return j
      j++
    }
  }
  return -1
}
