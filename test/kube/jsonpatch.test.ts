import { describe, expect, it } from 'vitest'
import { compile } from '../../src/cel/index.js'
import { kubeEnv } from '../../src/kube/environment.js'
import { escapeKey, jsonPatchLibrary } from '../../src/kube/library/jsonpatch.js'

// apiserver pkg/cel/library/jsonpatch.go: jsonpatch.escapeKey, Go strings.NewReplacer("/", "~1", "~", "~0").

describe('apiserver pkg/cel/library/jsonpatch.go jsonpatch.escapeKey', () => {
  const env = kubeEnv().extend({ libraries: [jsonPatchLibrary] })
  it('the documented example', () => {
    expect(compile(`"/metadata/labels/" + jsonpatch.escapeKey('k8s.io/my~label')`, { env }).evaluate()).toBe(
      '/metadata/labels/k8s.io~1my~0label',
    )
  })
  it('each byte is replaced once, left to right (no re-escaping of the inserted `~`)', () => {
    expect(escapeKey('~1/~0')).toBe('~01~1~00')
    expect(escapeKey('plain')).toBe('plain')
    expect(escapeKey('')).toBe('')
  })
})
