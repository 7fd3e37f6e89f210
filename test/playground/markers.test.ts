import { describe, expect, it } from 'vitest'
import { parseManifests } from '../../src/manifest/parse.js'
import { evaluatePlayground, examples } from '../../src/playground/evaluate/index.js'
import { celOffset, PaneText } from '../../src/playground/evaluate/markers.js'
import { scalarAt } from '../../src/playground/evaluate/scalar-map.js'

// Markers at their place in a pane. A CEL error's `<input>:L:C` is a line and a column counted in code points
// (cel-go common/source.go; runes), inside the expression as YAML builds its value (YAML 1.1: plain scalars and
// quoted ones fold line breaks into spaces, `\` escapes in double quotes, `''` in single quotes, `|` keeps lines,
// `>` folds them); the pane counts columns in UTF-16 units, 1-based. The expected places are found in the texts.

/** The 1-based line and column of the `n`th (0-based) occurrence of `needle` in `text`, plus `plus` units. */
function at(text: string, needle: string, plus = 0, n = 0): { line: number; column: number } {
  let i = -1
  for (let k = 0; k <= n; k++) i = text.indexOf(needle, i + 1)
  if (i < 0) throw new Error(`${needle} not in text`)
  const before = text.slice(0, i + plus)
  const line = before.split('\n').length
  return { line, column: before.length - before.lastIndexOf('\n') }
}

describe('scalarAt: a value and where each of its characters is', () => {
  const cases: [string, string, string][] = [
    ['plain', 'expression: object.spec.replicas > 1  # a comment\n', 'object.spec.replicas > 1'],
    ['plain over lines', 'expression: object.a &&\n  object.b\nnext: 1\n', 'object.a && object.b'],
    ['double-quoted', 'expression: "a \\"b\\" \\u00e9 \\\\ c"\n', 'a "b" é \\ c'],
    ['double-quoted over lines', 'expression: "a &&\n   b \\\n   c"\n', 'a && b c'],
    ['single-quoted', "expression: 'it''s ok'\n", "it's ok"],
    ['literal block', 'expression: |\n  a &&\n    b\n\n  c\nnext: 1\n', 'a &&\n  b\n\nc\n'],
    ['literal block, strip', 'expression: |-\n  a\n  b\n\n', 'a\nb'],
    ['literal block, keep', 'expression: |+\n  a\n\n', 'a\n\n'],
    ['literal block, indentation indicator', 'expression: |2\n    a\n  b\n', '  a\nb\n'],
    ['folded block', 'expression: >-\n  a &&\n  b\n\n  c\n', 'a && b\nc'],
    ['folded block, more indented', 'expression: >\n  a\n    b\n  c\n', 'a\n  b\nc\n'],
    ['a JSON key', '{"expression": "x.y"}', 'x.y'],
    ['a list item', '- expression: a.b\n  message: m\n', 'a.b'],
    ['a flow mapping', '- {expression: a && b, message: m}\n', 'a && b'],
    ['a flow mapping over lines', '- {expression: a &&\n    b}\n', 'a && b'],
  ]
  for (const [name, text, value] of cases)
    it(name, () => {
      const key = text.indexOf(text.startsWith('{') ? '"expression"' : 'expression')
      const m = scalarAt(text, key)
      expect(m?.value).toBe(value)
      // each character comes from a place that holds it (a folded break from a line break or space)
      m?.offsets.forEach((o, i) => {
        const c = m.value[i] as string
        const src = text[o] as string
        if (c === ' ' && src !== ' ') expect(src).toBe('\n')
        else if (c === '\n') expect(['\n', ' ']).toContain(src)
        else if (text[o - 1] !== '\\' && src !== '\\' && src !== "'") expect(src).toBe(c)
      })
    })

  it('the character the error names, in each form', () => {
    const text = 'a: |\n  x &&\n    y.z\n'
    const m = scalarAt(text, 0)!
    // <input>:2:4 is the '.' of `y.z` on the expression's second line ('  y.z': column 4)
    expect(m.offsets[celOffset(m.value, 2, 4)!]).toBe(text.indexOf('.z'))
  })
})

describe('celOffset: cel-go positions (1-based, columns in code points) in UTF-16 text', () => {
  it('counts a character outside the BMP as one column', () => {
    const e = "'😀' == object.foo"
    expect(celOffset(e, 1, 14)).toBe(e.indexOf('.foo'))
    expect(celOffset(e, 1, 1)).toBe(0)
    expect(celOffset('a\nbc', 2, 2)).toBe(3)
    // just past the end: where a syntax error at the end of the input points
    expect(celOffset('ab', 1, 3)).toBe(2)
    expect(celOffset('ab', 3, 1)).toBeUndefined()
  })
})

describe('markers of the material', () => {
  const material = (expressions: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: p
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [deployments]
  validations:
${expressions}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: p
spec:
  policyName: p
  validationActions: [Deny]
`
  const state = examples.find((e) => e.name.startsWith('Type error'))!.state

  it("a compile error at its character (kube-apiserver 1.37.2's: <input>:1:23, after the '>')", async () => {
    // kubectl apply of this policy: `spec.validations[0].expression: Invalid value: "object.spec.replicas >":
    // compilation failed: ERROR: <input>:1:23: Syntax error: mismatched input '<EOF>' expecting …`
    const text = material('    - expression: object.spec.replicas >\n')
    const r = await evaluatePlayground({ ...state, material: text })
    // the binding's warning (it binds a policy the apiserver refuses) is at the binding
    expect(r.markers.map((m) => m.severity)).toEqual(['error', 'warning'])
    expect(r.markers[1]).toMatchObject({ line: at(text, '---').line + 1, column: 1 })
    expect(r.markers[0]).toMatchObject({
      pane: 'material',
      severity: 'error',
      ...at(text, 'object.spec.replicas >', 22),
    })
    expect(r.markers[0]?.message).toContain("ERROR: <input>:1:23: Syntax error: mismatched input '<EOF>'")
  })

  it('type checking warnings at their character, in a plain, a quoted, a literal and a folded expression', async () => {
    const text = material(`    - expression: object.spec.replicass > 1
    - expression: "object.metadata.name.startsWith('x') && object.spec.pausedd"
    - expression: |
        object.spec.replicas > 1 &&
          object.spec.template.spec.foo == 'x'
    - expression: >-
        object.spec.minReadySeconds > 0 ||
        object.spec.revisionHistoryLimitt > 2
`)
    const r = await evaluatePlayground({ ...state, material: text })
    // cel-go reports an undefined field at the '.' that selects it (parser.go VisitSelect)
    expect(r.markers.map((m) => ({ line: m.line, column: m.column }))).toEqual([
      at(text, '.replicass'),
      at(text, '.pausedd'),
      at(text, '.foo'),
      at(text, '.revisionHistoryLimitt'),
    ])
    expect(r.markers.every((m) => m.severity === 'warning' && m.pane === 'material')).toBe(true)
  })

  it("a CRD's rule errors at their character (kube-apiserver 1.37.2's, on spec.validation…: the first version's schema)", async () => {
    // kubectl apply of this CRD: `* spec.validation.openAPIV3Schema.properties[spec].properties[image]
    // .x-kubernetes-validations[0].rule: … ERROR: <input>:1:19: Syntax error: mismatched input '<EOF>' …` and
    // `* spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: … ERROR: <input>:1:22:
    // undefined field 'maxReplicass'`
    const crd = examples.find((e) => e.name.startsWith('CRD'))!.state
    const text = crd.material
      .replace('rule: self == oldSelf,', 'rule: self == oldSelf &&,')
      .replace('rule: self.replicas <= self.maxReplicas\n', 'rule: self.replicas <= self.maxReplicass\n')
    const r = await evaluatePlayground({ ...crd, material: text })
    expect(r.markers.map((m) => ({ line: m.line, column: m.column, severity: m.severity }))).toEqual([
      // in a flow mapping: just past `&&`, where the input ends
      { ...at(text, 'self == oldSelf &&', 18), severity: 'error' },
      { ...at(text, '.maxReplicass'), severity: 'error' },
    ])
  })

  it('a YAML error at the line kubectl names (kubectl 1.37.2: `yaml: line 6: mapping values are not allowed`)', async () => {
    const r = await evaluatePlayground({
      ...state,
      object: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b: c\n',
    })
    expect(r.markers.filter((m) => m.pane === 'object')).toMatchObject([{ pane: 'object', line: 6, severity: 'error' }])
    expect(r.allowed).toBe(false)
    expect(r.kubectl).toHaveLength(1)
    const eof = await evaluatePlayground({
      ...state,
      object: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: "unterminated\n  b: c\n',
    })
    // kubectl: `yaml: line 8: found unexpected end of stream`
    expect(eof.markers.filter((m) => m.pane === 'object')).toMatchObject([
      { pane: 'object', line: 8, severity: 'error' },
    ])
  })

  it('a field-less problem at its object, a marker without a field at its document', () => {
    const text = 'a: 1\n---\nb: |\n  x\n'
    const pane = new PaneText('material', text)
    const o = parseManifests('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n', 'm').objects[0]!
    expect(pane.markers({ ...o, source: { file: 'm', line: 3, column: 1 } }, undefined, 'error', 'm')).toEqual([
      { pane: 'material', line: 3, column: 1, severity: 'error', message: 'm' },
    ])
  })
})
