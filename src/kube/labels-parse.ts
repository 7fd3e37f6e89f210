import { LabelSelectorError, newRequirement, newSelector, Operator, type Requirement, type Selector } from './labels.js'

// A label selector written as text (`app=web,tier in (front,back),!legacy`), as `kubectl -l` takes it:
// apimachinery pkg/labels/selector.go Parse (its Lexer and Parser), each requirement made by NewRequirement (so
// keys and values are validated as there). Used by the exceptions of .kelp.yaml (src/check/exceptions.ts); beside labels.ts as every face may need it.

/** selector.go's special symbols: what ends an identifier. */
const SPECIAL = /[\s!=,()<>]/

type Token = { kind: 'id' | 'op' | ',' | '(' | ')'; text: string }

function lex(s: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < s.length) {
    const c = s[i]!
    if (/\s/.test(c)) i++
    else if (c === ',' || c === '(' || c === ')') {
      out.push({ kind: c, text: c })
      i++
    } else if (c === '!' || c === '=' || c === '<' || c === '>') {
      const two = s.slice(i, i + 2)
      const op = two === '==' || two === '!=' ? two : c
      out.push({ kind: 'op', text: op })
      i += op.length
    } else {
      let j = i
      while (j < s.length && !SPECIAL.test(s[j]!)) j++
      out.push({ kind: 'id', text: s.slice(i, j) })
      i = j
    }
  }
  return out
}

/** labels.Parse: the selector a text describes; throws LabelSelectorError when it does not parse or validate. */
export function parseSelector(text: string): Selector {
  const tokens = lex(text)
  const reqs: Requirement[] = []
  let i = 0
  const fail = (what: string): never => {
    throw new LabelSelectorError(`unable to parse requirement: ${what}`)
  }
  const peek = () => tokens[i]
  while (i < tokens.length) {
    let t = tokens[i++]!
    if (t.kind === 'op' && t.text === '!') {
      const key = tokens[i++]
      if (key?.kind !== 'id') fail(`found '${key?.text ?? ''}', expected: identifier after '!'`)
      reqs.push(newRequirement(key!.text, Operator.DoesNotExist, []))
    } else if (t.kind === 'id') {
      const key = t.text
      const next = peek()
      if (next === undefined || next.kind === ',') reqs.push(newRequirement(key, Operator.Exists, []))
      else if (next.kind === 'op' || (next.kind === 'id' && (next.text === 'in' || next.text === 'notin'))) {
        i++
        const op =
          next.text === 'in'
            ? Operator.In
            : next.text === 'notin'
              ? Operator.NotIn
              : next.text === '='
                ? Operator.Equals
                : next.text === '=='
                  ? Operator.DoubleEquals
                  : next.text === '!='
                    ? Operator.NotEquals
                    : next.text === '>'
                      ? Operator.GreaterThan
                      : next.text === '<'
                        ? Operator.LessThan
                        : fail(`found '${next.text}', expected: in, notin, =, ==, !=, gt, lt`)
        if (op === Operator.In || op === Operator.NotIn) {
          if (tokens[i++]?.kind !== '(') fail(`found '${tokens[i - 1]?.text ?? ''}', expected: '('`)
          // values separated by commas; an empty place (`()`, `(a,)`, `(a,,b)`) is the empty string, as selector.go
          // parseValues reads it
          const values: string[] = []
          let last: 'start' | 'value' | 'comma' = 'start'
          for (;;) {
            t = tokens[i++] ?? fail("found '', expected: ')'")
            if (t.kind === ')') {
              if (last !== 'value') values.push('')
              break
            }
            if (t.kind === ',') {
              if (last !== 'value') values.push('')
              last = 'comma'
            } else if (t.kind === 'id' && last !== 'value') {
              values.push(t.text)
              last = 'value'
            } else fail(`found '${t.text}', expected: ',' or ')'`)
          }
          reqs.push(newRequirement(key, op, values))
        } else {
          // `key=` is the empty value
          const v = peek()
          if (v?.kind === 'id') i++
          reqs.push(newRequirement(key, op, [v?.kind === 'id' ? v.text : '']))
        }
      } else fail(`found '${next.text}', expected: ',' or operator`)
    } else fail(`found '${t.text}', expected: !, identifier, or 'end of string'`)
    const sep = peek()
    if (sep !== undefined) {
      if (sep.kind !== ',') fail(`found '${sep.text}', expected: ',' or 'end of string'`)
      i++
      if (i >= tokens.length) fail("found '', expected: identifier after ','")
    }
  }
  return newSelector().add(...reqs)
}
