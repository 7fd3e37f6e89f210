import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/program.js'

// A lexer error's text is the input as it is, tabs, newlines and returns included: Go's ANTLR runtime
// (antlr4-go v4.13.0 / v4.13.1, lexer.go BaseLexer.notifyListeners: "token recognition error at: '" +
// text + "'") does not escape them as Java's Lexer.getErrorDisplay does. Expected: the CEL
// differential's oracle (test/e2e/cel/oracle: cel-go v0.29.2's parser).

const cases: readonly (readonly [string, string])[] = [
  [
    "'tab\tnew\nline'.charAt(0)",
    "ERROR: <input>:1:1: Syntax error: token recognition error at: ''tab\tnew\n'\n | 'tab new\n | ^\nERROR: <input>:2:5: Syntax error: token recognition error at: ''.charAt(0)'\n | line'.charAt(0)\n | ....^",
  ],
  ["'a\rb", "ERROR: <input>:1:1: Syntax error: token recognition error at: ''a\r'\n | 'a\rb\n | ^"],
  [
    "1 + 'x\ty",
    "ERROR: <input>:1:5: Syntax error: token recognition error at: ''x\ty'\n | 1 + 'x y\n | ....^\nERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 + 'x y\n | ........^",
  ],
]

describe('token recognition errors show the text unescaped (antlr4-go)', () => {
  for (const [expr, want] of cases)
    it(JSON.stringify(expr), () => {
      expect(() => compile(expr)).toThrow(want)
      try {
        compile(expr)
      } catch (e) {
        expect((e as Error).message).toBe(want)
      }
    })
})
