// What go-yaml v2's scanner refuses and js-yaml reads (test/e2e/yaml finds them against kubectl's
// reading): an anchor name with a character outside [0-9A-Za-z_-] (`&apps/v1`: "did not find expected
// alphabetic or numeric character", scannerc.go yaml_parser_scan_anchor), and the escape `\/` in a
// double-quoted scalar ("found unknown escape character": YAML 1.2 added it, go-yaml v2 reads 1.1).
// Watched through js-yaml's node listener, only in texts that hold `&` or `\/`.

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
  if (!anchors && !escapes) return undefined
  let refusal: Refusal | undefined
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
      const open = opens.pop() ?? 0
      if (anchors && state.anchor !== null) {
        const name = state.anchor
        const ok = (ANCHOR_CHAR.exec(name)?.[0] ?? '').length
        if (ok < name.length && !ANCHOR_END.includes(name[ok] as string)) {
          const at = state.input.indexOf(`&${name}`, open)
          refuse('did not find expected alphabetic or numeric character', at < 0 ? open : at + 1 + ok)
        }
      }
      if (escapes && state.kind === 'scalar') {
        const at = slashEscape(state.input, open, state.position)
        if (at >= 0) refuse('found unknown escape character', at)
      }
    },
  }
}

/** Where a double-quoted scalar in [from, to) (after separation and properties) holds `\/`, or -1. */
function slashEscape(s: string, from: number, to: number): number {
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
    break
  }
  if (s[i] !== '"') return -1
  for (let j = i + 1; j < to; j++) {
    const c = s[j]
    if (c === '"') return -1
    if (c === '\\') {
      if (s[j + 1] === '/') return j
      j++
    }
  }
  return -1
}
