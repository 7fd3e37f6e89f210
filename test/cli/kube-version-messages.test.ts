import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// `kelp check --kube-version` prints a custom resource's errors as that release's apiserver words
// them (the built CLI, dist/). apiextensions-apiserver validation.go up to release-1.34 passes the
// schema type as a failed rule's bad value (release-1.32 validation_test.go: `root.foo: Invalid
// value: "string": gotta be baz`); kubernetes#132798 / #133832 (first in 1.35) pass the value.

const cli = join(dirname(fileURLToPath(import.meta.url)), '../../dist/cli/kelp.cjs')
const dir = mkdtempSync(join(tmpdir(), 'kelp-kube-version-'))
writeFileSync(
  join(dir, 'widgets.yaml'),
  `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size:
                  type: string
                  x-kubernetes-validations:
                    - { rule: self != "huge", message: must not be huge }
`,
)
writeFileSync(
  join(dir, 'widget.yaml'),
  'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w, namespace: prod }\nspec: { size: huge }\n',
)

function check(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'check', ...args, '-p', 'widgets.yaml', 'widget.yaml'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, out: r.stdout }
}

describe('kelp check --kube-version: the messages of the target release', () => {
  it('1.32 prints the schema type as the bad value', () => {
    const r = check('--kube-version', '1.32')
    expect(r.code).toBe(1)
    expect(r.out).toContain('The Widget "w" is invalid: spec.size: Invalid value: "string": must not be huge\n')
  })
  it('1.37 (and the default) print the value', () => {
    for (const r of [check('--kube-version', '1.37'), check()]) {
      expect(r.code).toBe(1)
      expect(r.out).toContain('The Widget "w" is invalid: spec.size: Invalid value: "huge": must not be huge\n')
    }
  })
})
