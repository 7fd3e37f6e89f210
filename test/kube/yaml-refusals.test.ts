import { describe, expect, it } from 'vitest'
import { decodeStream } from '../../src/kube/yaml/decode.js'

// What go-yaml v2's scanner refuses and js-yaml reads (gopkg.in/yaml.v2 scannerc.go, as
// go.yaml.in/yaml/v2 v2.4.4 that Kubernetes 1.37 builds with; each case also found by test/e2e/yaml
// against kubectl's reading): yaml_parser_scan_anchor takes [0-9A-Za-z_-] and then needs a blank or
// one of `?:,]}%@` + "`"; yaml_parser_scan_flow_scalar knows no `\/` escape (YAML 1.2 added it);
// yaml_parser_scan_plain_scalar ends a plain scalar of a flow collection at `?`; in flow context a `:`
// is a value indicator (yaml_parser_fetch_next_token); yaml_parser_scan_to_next_token skips a tab in
// block context only where no simple key may start; quoted scalars fold without their lines' trailing
// blanks (yaml_parser_scan_flow_scalar); in flow context `?` is the key indicator wherever a token starts. The
// values below are what kubectl's reading gave (.cache/e2e/kubectl-yaml, test/e2e/yaml's oracle).
const read = (text: string) => [...decodeStream(text)][0]

describe('go-yaml v2 readings js-yaml does not make (refusals, folding)', () => {
  it.each([
    ['apiVersion: &apps/v1\nkind: Deployment\n', 'did not find expected alphabetic or numeric character', 1],
    ['a: 1\nb: &x.y 2\n', 'did not find expected alphabetic or numeric character', 2],
    ['a: "p\\/q"\n', 'found unknown escape character', 1],
    ['a:\n  - x\n  - "p\\/q"\n', 'found unknown escape character', 3],
    // escapes both refuse, in go-yaml's words; a code escape of a surrogate or past U+10FFFF, which js-yaml reads
    ['a: "x\n  \\q"\n', 'found unknown escape character', 2],
    ['a: 1\nb: "\\xZZ"\n', 'did not find expected hexdecimal number', 2],
    ['a: 1\nb: "\\uD800"\n', 'found invalid Unicode character escape code', 2],
    ['a: "\\U00110000"\n', 'found invalid Unicode character escape code', 1],
    ['a: "\\U0010FFFF\\uDFFF"\n', 'found invalid Unicode character escape code', 1],
    // a quoted scalar over lines closed mid-line with more after it: go-yaml's parser refuses what follows (kubectl:
    // `yaml: line 2: …`, its 0-based line of the token); js-yaml read it as the next key (goyaml/ runs on every text
    // js-yaml reads)
    ["m:\n  message: 'a''s b\n  message: 'a''s b\n", 'did not find expected key', 3],
    ['args: [--url=http://x?y=1]\n', "did not find expected ',' or ']'", 1],
    ['a: 1\nb: {c: d?e}\n', "did not find expected ',' or '}'", 2],
    ['a: [x, {b: [c, d?]}]\n', "did not find expected ',' or ']'", 1],
    ['a: [:x]\n', 'did not find expected node content', 1],
    ['a: {b: :c}\n', 'did not find expected node content', 1],
    // `?` opening a value's plain scalar in a flow collection: a key indicator to go-yaml
    ['a: {name: ?x}\n', 'did not find expected node content', 1],
    ['a: [b: ?x]\n', 'did not find expected node content', 1],
    ['a: 1\nb: {c: d,\n  e:\n    ?f}\n', 'did not find expected node content', 4],
    // a tab where go-yaml's block context allows a simple key: indentation (comment and blank lines
    // too) and after an entry's `-`
    ['a:\n  -\tb\n', 'found character that cannot start any token', 2],
    ['a:\n\t# c\n', 'found character that cannot start any token', 2],
    ['\t\na: 1\n', 'found character that cannot start any token', 1],
    // after a plain scalar its scanner meets the tab first, in other words; js-yaml's own error there loses
    ['a: b\n\t# c\n', 'found a tab character that violates indentation', 2],
    ['- x\n\t- y\n', 'found a tab character that violates indentation', 2],
    ['a: "b"\n\tc: d\n', 'found character that cannot start any token', 2],
    ['m:\n  a: b\n  \t# c\n', 'found a tab character that violates indentation', 3],
    // go-yaml breaks lines at CR LF, LF and a CR alone (IS_BREAK), and counts its lines so (kubectl: lines 2, 2, 2, 3;
    // a GKE sample written with CR LF, one of its CRs left alone by an edit, found it)
    ['a:\r\t\nb: 1\n', 'found character that cannot start any token', 2],
    ['a: b\r\t# c\n', 'found a tab character that violates indentation', 2],
    ['a:\r\n\t# c\r\n', 'found character that cannot start any token', 2],
    ['a: 1\rb:\r  -\tc\r', 'found character that cannot start any token', 3],
    // a `#` inside a key is no comment: the key's column still bounds the tab (kubectl: line 5)
    [
      'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  nam#e: shippingservice\n \t',
      'found a tab character that violates indentation',
      5,
    ],
    // an anchor running into a key's `:`: go-yaml's anchor ends there and its key is null, which the conversion to
    // JSON refuses (sigs.k8s.io/yaml convertToJSONableObject), printing the value with %+#v
    [
      'metadata: {&name: policy1-binding}\n',
      'unsupported map key of type: %!s(<nil>), key: <nil>, value: "policy1-binding"',
      1,
    ],
    [
      'state:\n  &running:\n    t: 2018-12-02T09:24:49Z\n',
      'unsupported map key of type: %!s(<nil>), key: <nil>, value: map[interface {}]interface {}{"t":"2018-12-02T09:24:49Z"}',
      2,
    ],
    ['a: {&a: 1.5}\n', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: 1.5', 1],
    ['a: {&a: [1, b]}\n', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: []interface {}{1, "b"}', 1],
    [
      'a: [&a: {c: {d: e}, b: 2}]\n',
      'unsupported map key of type: %!s(<nil>), key: <nil>, value: map[interface {}]interface {}{"b":2, "c":map[interface {}]interface {}{"d":"e"}}',
      1,
    ],
    ['s:\n  &r: yes\n', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: true', 2],
    ['a: {&a: }\n', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: <nil>', 1],
    [
      '&a:\n  b: 1\nc: 2\n',
      'unsupported map key of type: %!s(<nil>), key: <nil>, value: map[interface {}]interface {}{"b":1}',
      1,
    ],
    // a tag running into a character outside a URI's: yaml_parser_scan_tag wants a blank or a line break after it
    ['!###\na: 1\n', 'did not find expected whitespace or line break', 1],
    ['a: !x#y 1\n', 'did not find expected whitespace or line break', 1],
    ['a: [sh, -c, !"echo ok"]\n', 'did not find expected whitespace or line break', 1],
    // a flow collection as an implicit key: go-yaml's decode refuses it (js-yaml read the key `a`, `a,b`)
    ['[a]: b\n', 'invalid map key: []interface {}{"a"}', 1],
    ['x:\n  [a, b]: c\n', 'invalid map key: []interface {}{"a", "b"}', 2],
    // a collection as an explicit key: go-yaml's decode refuses it (decode.go mapping: invalid map key)
    [
      'spec:\n  containers:\n  - name: nginx\n    ports:\n?    - containerPort: 80\n',
      'invalid map key: []interface {}{map[interface {}]interface {}{"containerPort":80}}',
      5,
    ],
  ])('%j: %s', (text, message, line) => {
    const d = read(text)
    expect(d?.error?.message).toBe(message)
    expect(d?.error?.line).toBe(line)
  })

  it.each([
    ['a: &x-1_Y 1\nb: *x-1_Y\n', { a: 1, b: 1 }],
    // an escaped backslash before `/`, and `\/` outside double quotes, are not the escape
    ['a: "p\\\\/q"\n', { a: 'p\\/q' }],
    ["a: 'p\\/q'\nb: p\\/q\n", { a: 'p\\/q', b: 'p\\/q' }],
    ['a: &x [1]\nb: *x\n', { a: [1], b: [1] }],
    // a `:` inside flow scalars and pairs, and opening a block scalar, is not the value indicator
    ['a: [b: c, d:e]\nf: {g: h}\ni: :j\n', { a: [{ b: 'c' }, 'd:e'], f: { g: 'h' }, i: ':j' }],
    // a tab right of a plain scalar's block column + 1 is separation to go-yaml
    ['m:\n  name x\n \t# c\nd: 1\n', { m: 'name x', d: 1 }],
    ['m:\n  a: b\n   \t# c\n', { m: { a: 'b' } }],
    // tabs go-yaml takes: after a key's `:`, before a comment, inside scalars and block scalars
    ['a:\tb\nc: d\t# e\nf: g\th\ni: |\n  x\n  \ty\n', { a: 'b', c: 'd', f: 'g\th', i: 'x\n\ty\n' }],
    // a multi-line quoted scalar folds without the spaces that end its lines (an escaped one stays)
    ['a: "x \n  y"\nb: \'x \n  y\'\nc: "x\\ \n  y"\nd: "x  \n\n  y"\n', { a: 'x y', b: 'x y', c: 'x  y', d: 'x\ny' }],
    // `?` opening a scalar where a flow key may start: go-yaml's key indicator in any flow context
    // (yaml_parser_fetch_next_token), the key without it; `[?x]` a single-pair mapping
    ['a: {?ip: 127.0.0.1}\n', { a: { ip: '127.0.0.1' } }],
    ['a: {b: 1, ?x: y}\n', { a: { b: 1, x: true } }],
    ['a: {?2 name: x}\n', { a: { '2 name': 'x' } }],
    ['a: {?x}\n', { a: { x: null } }],
    ['a: {?"x": y}\n', { a: { x: true } }],
    ['a: {?1: y}\n', { a: { '1': true } }],
    ['a: [?x]\n', { a: [{ x: null }] }],
    ['a: [?x: y]\n', { a: [{ x: true }] }],
    ['a: [a, ?b]\n', { a: ['a', { b: null }] }],
    // with multi-line quoted scalars folded, before and after the keys
    ['a: {?k: "x \n  y"}\n', { a: { k: 'x y' } }],
    ['b: "x \n  y"\na: {?k: v, ?l: "p \n  q"}\n', { b: 'x y', a: { k: 'v', l: 'p q' } }],
    // tags go-yaml takes (handles, verbatim, escapes) and `!` inside scalars (CEL), which is no tag
    [
      'a: !foo 1\nb: !!str 2\nc: !<tag:yaml.org,2002:str> 3\nd: !%41 4\ne: "!has(x)"\nf: a && !has(y)\n',
      { a: '1', b: '2', c: '3', d: '4', e: '!has(x)', f: 'a && !has(y)' },
    ],
    // an anchor running into `:` and more, in block context: go-yaml's anchor `system`, then the plain scalar
    ['na-me: &system:aggregated-metrics-reader\nb: &a?x\n', { 'na-me': ':aggregated-metrics-reader', b: '?x' }],
    // a `!` in a comment before a node is no tag (kubectl: {a: b})
    ['a:\n  # see !"x"\n  b\nc: # !{y}\n  d\n', { a: 'b', c: 'd' }],
    // `]: ` inside a quoted scalar is no key, nor a managedFields key ending in `}`
    [
      'a: "[x]: y"\nb: [1]\nf:\n  k:{"name":"x"}:\n    .: {}\n',
      { a: '[x]: y', b: [1], f: { 'k:{"name":"x"}': { '.': {} } } },
    ],
    // go-yaml's escape `\'` in a double-quoted scalar is `'` (Kubernetes' documentation,
    // pods/inject/envars-file-container.yaml, writes it); elsewhere, and after an escaped backslash, it is text
    ['a: "it\\\'s"\n', { a: "it's" }],
    ["a: {b: \"it\\'s\", c: 'x\\'}\n", { a: { b: "it's", c: 'x\\' } }],
    ['a: it\\\'s\nb: "x\\\\\'y"\n', { a: "it\\'s", b: "x\\'y" }],
    [
      "a: \"x\\'y\" # c \\' \nb: 'p\\' \nc: \"\\'\\'\" \nd: |\n  x \\' y\n",
      { a: "x'y", b: 'p\\', c: "''", d: "x \\' y\n" },
    ],
    ['- "a\\\'b\n  c\\\'d"\n- e\n', ["a'b c'd", 'e']],
    ['a: "\\ud7ff\\U0010FFFF"\n', { a: '\ud7ff\u{10ffff}' }],
    ["a: {'k\\':v, \"p\\'\": q}\n", { a: { 'k\\': 'v', "p'": 'q' } }],
    // a `?` line inside a double-quoted scalar less indented than its parent: go-yaml folds it into the scalar; the
    // position-keeping parser (collection-keys.ts) errs on the indentation first and its key is no go-yaml key
    [
      'x:\n      command:\n        - "a;\n   ?   b"\n      resources:\n        l: 1\n',
      { x: { command: ['a; ?   b'], resources: { l: 1 } } },
    ],
    // content after the document's root that starts no document: yaml.Unmarshal reads the first document and stops,
    // and kubectl sends that (goyaml/ says where it ends)
    [' apiVersion: v1\nkind: Service\n', { apiVersion: 'v1' }],
    ['  a: 1\n  b: 2\nc: 3\n', { a: 1, b: 2 }],
    ['[1, 2]\nfoo\n', [1, 2]],
    // the non-specific tag `!` on an empty node: "" to go-yaml, as key and value
    ['# c\n!\n', ''],
    ['a: !\nb: {x: 1,\n! }\nc: [!!str , ! ]\n', { a: '', b: { x: 1, '': null }, c: ['', ''] }],
    // quoted over lines: the first guess (the line's quotes) is wrong, the readings mend it
    ['- "x\n  \\\',0"\n- "x\n  \\\',1"\n', ["x ',0", "x ',1"]],
    // `?` in block scalars and in quoted flow scalars is content
    ['a: http://x?y=1\nb: ["http://x?y=1", \'?\']\n', { a: 'http://x?y=1', b: ['http://x?y=1', '?'] }],
  ])('%j is read', (text, value) => {
    const d = read(text)
    expect(d?.error).toBeUndefined()
    expect(d?.value).toEqual(value)
  })

  // go-yaml registers an anchor where its node starts (parser.go anchor()), js-yaml again where the node ends: a name
  // anchored again inside its own node refers, after it, to the inner node (the values kubectl's reading gave,
  // test/e2e/yaml "reads block documents with anchors and aliases as kubectl does")
  it.each([
    ['a: &x\n  b: &x\n    c: 1\n  d: *x\ne: *x\n', { a: { b: { c: 1 }, d: { c: 1 } }, e: { c: 1 } }],
    ['a: &x 1\nb: &x\n  c: 2\nd: *x\n', { a: 1, b: { c: 2 }, d: { c: 2 } }],
    ['a: &x [1, &x [2]]\nb: *x\n', { a: [1, [2]], b: [2] }],
    [
      'kind: A\nmetadata: &m\n metadata: &m\n  name: web\nz: *m\n',
      { kind: 'A', metadata: { metadata: { name: 'web' } }, z: { name: 'web' } },
    ],
  ])('an alias of a name anchored again inside its node is the inner node: %j', (text, value) => {
    expect(read(text)?.value).toEqual(value)
  })

  // each `\'` of a scalar quoted over lines before `,` is a wrong first guess, mended by one more reading each: past
  // 32 readings kelp refuses the document, saying why, rather than read on (kubectl reads it: ["x ',0", …])
  it("refuses, saying why, a text whose `\\'` need more than 32 readings", () => {
    const text = `${Array.from({ length: 40 }, (_, i) => `- "x\n  \\',${i}"`).join('\n')}\n`
    expect(read(text)?.error?.message).toMatch(/^kelp: could not tell in 32 readings which \\' are escapes/)
  })

  it("stays near linear on hostile texts with `\\'` in every kind of scalar", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      i % 3 === 0 ? `- 'a${i}\\'` : i % 3 === 1 ? `- "b\\'${i}"` : `- c\\'${i} "\\' # \\'`,
    )
    const t0 = performance.now()
    const d = read(`${lines.join('\n')}\n`)
    expect(performance.now() - t0).toBeLessThan(5_000)
    expect((d?.value as string[] | undefined)?.slice(0, 3)).toEqual(['a0\\', "b'1", "c\\'2 \"\\'"])
  })

  it('stays linear on hostile texts (many spans, tabs, trailing blanks)', () => {
    const text = `${Array.from({ length: 30_000 }, (_, i) => `- "x\t${i} \n  y" # c`).join('\n')}\n`
    const t0 = performance.now()
    const d = read(text)
    expect(performance.now() - t0).toBeLessThan(5_000)
    expect(d?.error).toBeUndefined()
    expect((d?.value as string[] | undefined)?.[1]).toBe('x\t1 y')
  })
})
