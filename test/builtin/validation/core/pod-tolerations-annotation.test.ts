import { describe, expect, it } from 'vitest'
import '../../../../src/builtin/validation/core/pod.js'
import '../../../../src/builtin/validation/apps/validation.js'
import { type O, texts } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation.go ValidateTolerationsInPodAnnotations (called by
// ValidatePodSpecificAnnotations for a Pod and every pod template): the annotation read by
// pkg/apis/core/helper GetTolerationsFromPodAnnotations (encoding/json into []core.Toleration), then
// ValidateTolerations. validation_test.go has no table for it: every text here is a kube-apiserver v1.37.2's
// answer (`kubectl apply --dry-run=server`) to the same object.

const A = 'scheduler.alpha.kubernetes.io/tolerations'
const pod = (value: string): O => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', annotations: { [A]: value } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})
const refused = (msg: string) => [`metadata.annotations: Invalid value: "${A}": ${msg}`]

describe('the tolerations annotation', () => {
  it('JSON syntax errors, as encoding/json words them', () => {
    expect(texts(pod('notjson'))).toEqual(refused("invalid character 'o' in literal null (expecting 'u')"))
    expect(texts(pod('[] x'))).toEqual(refused("invalid character 'x' after top-level value"))
  })
  it("nesting past encoding/json's 10,000 levels is its syntax error (and no stack overflow)", () => {
    expect(texts(pod(`${'['.repeat(10001)}${']'.repeat(10001)}`))).toEqual(
      refused("invalid character '[' exceeded max depth"),
    )
    expect(texts(pod(`${'{"a":'.repeat(10001)}1${'}'.repeat(10001)}`))).toEqual(
      refused("invalid character '{' exceeded max depth"),
    )
    expect(texts(pod(`${'['.repeat(10000)}${']'.repeat(10000)}`))).toEqual(
      refused('json: cannot unmarshal array into Go value of type core.Toleration'),
    )
    // 200,000 bytes of brackets: the annotations' size is refused too, then the depth
    expect(texts(pod(`${'['.repeat(100000)}${']'.repeat(100000)}`)).at(-1)).toBe(
      refused("invalid character '[' exceeded max depth")[0],
    )
  })
  it('type errors: the first one', () => {
    expect(texts(pod('{}'))).toEqual(refused('json: cannot unmarshal object into Go value of type []core.Toleration'))
    expect(texts(pod('"x"'))).toEqual(refused('json: cannot unmarshal string into Go value of type []core.Toleration'))
    expect(texts(pod('["x", 1]'))).toEqual(
      refused('json: cannot unmarshal string into Go value of type core.Toleration'),
    )
    expect(texts(pod('[{"key": 1, "operator": "Exists"}]'))).toEqual(
      refused('json: cannot unmarshal number into Go struct field Toleration.Key of type string'),
    )
    expect(texts(pod('[{"key": 1, "value": true}]'))).toEqual(
      refused('json: cannot unmarshal number into Go struct field Toleration.Key of type string'),
    )
    expect(texts(pod('[{"key": "a", "operator": "Exists", "tolerationSeconds": "10"}]'))).toEqual(
      refused('json: cannot unmarshal string into Go struct field Toleration.TolerationSeconds of type int64'),
    )
    expect(texts(pod('[{"key": "a", "operator": "Exists", "tolerationSeconds": 1.5}]'))).toEqual(
      refused('json: cannot unmarshal number 1.5 into Go struct field Toleration.TolerationSeconds of type int64'),
    )
  })
  it('null, an empty list, a valid toleration; a null element is a zero Toleration', () => {
    for (const v of ['null', '[]', '[{"key": "a", "operator": "Equal", "value": "b"}]'])
      expect(texts(pod(v)), v).toEqual([])
    expect(texts(pod('[null]'))).toEqual([
      `metadata.annotations.${A}[0].operator: Invalid value: "": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
    ])
    expect(texts(pod('[{"key": "a", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 10}]'))).toEqual(
      [
        `metadata.annotations.${A}[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
      ],
    )
  })
  it('the tolerations validated at the annotation, keys matched case-insensitively', () => {
    expect(texts(pod('[{"key": "a", "operator": "Foo", "effect": "Bar"}]'))).toEqual([
      `metadata.annotations.${A}[0].operator: Unsupported value: "Foo": supported values: "Equal", "Exists"`,
      `metadata.annotations.${A}[0].effect: Unsupported value: "Bar": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
    ])
    expect(texts(pod('[{"KEY": "a b", "Operator": "Exists", "VALUE": "x"}]'))).toEqual([
      `metadata.annotations.${A}[0].key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `metadata.annotations.${A}[0].operator: Invalid value: "x": value must be empty when \`operator\` is 'Exists'`,
    ])
  })
  it("a pod template's", () => {
    const d: O = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'default' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: {
          metadata: { labels: { a: 'b' }, annotations: { [A]: '[{"operator": "Equal"}]' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    }
    expect(texts(d)).toEqual([
      `spec.template.annotations.${A}[0].operator: Invalid value: "Equal": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
    ])
  })
})
