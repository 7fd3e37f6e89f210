import { describe, expect, it } from 'vitest'
import { decodeStream } from '../../src/kube/yaml/decode.js'

// What go-yaml v2's scanner refuses and js-yaml reads (gopkg.in/yaml.v2 scannerc.go, as
// go.yaml.in/yaml/v2 v2.4.4 that Kubernetes 1.37 builds with; each case also found by test/e2e/yaml
// against kubectl's reading): yaml_parser_scan_anchor takes [0-9A-Za-z_-] and then needs a blank or
// one of `?:,]}%@` + "`"; yaml_parser_scan_flow_scalar knows no `\/` escape (YAML 1.2 added it);
// yaml_parser_scan_plain_scalar ends a plain scalar of a flow collection at `?`.
const read = (text: string) => [...decodeStream(text)][0]

describe('go-yaml v2 refusals js-yaml does not make', () => {
  it.each([
    ['apiVersion: &apps/v1\nkind: Deployment\n', 'did not find expected alphabetic or numeric character', 1],
    ['a: 1\nb: &x.y 2\n', 'did not find expected alphabetic or numeric character', 2],
    ['a: "p\\/q"\n', 'found unknown escape character', 1],
    ['a:\n  - x\n  - "p\\/q"\n', 'found unknown escape character', 3],
    ['args: [--url=http://x?y=1]\n', "did not find expected ',' or ']'", 1],
    ['a: 1\nb: {c: d?e}\n', "did not find expected ',' or '}'", 2],
    ['a: [x, {b: [c, d?]}]\n', "did not find expected ',' or ']'", 1],
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
    // `?` in block scalars and in quoted flow scalars is content
    ['a: http://x?y=1\nb: ["http://x?y=1", \'?\']\n', { a: 'http://x?y=1', b: ['http://x?y=1', '?'] }],
  ])('%j is read', (text, value) => {
    const d = read(text)
    expect(d?.error).toBeUndefined()
    expect(d?.value).toEqual(value)
  })
})
