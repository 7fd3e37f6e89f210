import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'

// A run of fewer than GENERATE_FROM_OBJECTS objects admits them with CEL on closures (src/check/admit.ts,
// program.ts withoutGeneratedCode): generating each program's JavaScript costs more than it saves there. The
// count is the first pass's (`total`) or the objects held; a stream of unknown length admits its first
// GENERATE_FROM_OBJECTS objects on closures.

vi.mock('../../src/cel/program.js', async (importOriginal) =>
  (await import('../fixtures/tiering-spy.js')).countingTiering(importOriginal),
)
const { tiering: runs } = await import('../fixtures/tiering-spy.js')

const { admitAll, GENERATE_FROM_OBJECTS } = await import('../../src/check/admit.js')
const { check } = await import('../../src/check/run.js')
const { PolicySet } = await import('../../src/engine/policy-set.js')

const set = PolicySet.build([])
const admit = (objects: Iterable<never>, total?: number) => {
  runs.without = 0
  admitAll(set, objects, new Map(), '1.37', 'default', undefined, 'all', total)
  return runs.without
}

function* stream(): Generator<never> {}
function* configMaps(n: number) {
  for (let i = 0; i < n; i++)
    yield {
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } },
      source: { file: 'cms.yaml', line: 1 + 4 * i, column: 1 },
    }
}

describe('kelp check keeps CEL on closures below GENERATE_FROM_OBJECTS objects', () => {
  it('by the first pass count when given', () => {
    expect(admit([], GENERATE_FROM_OBJECTS - 1)).toBe(1)
    expect(admit([], GENERATE_FROM_OBJECTS)).toBe(0)
  })

  it('by the objects held, else by the objects admitted so far (a stream of unknown length: one-pass.ts)', () => {
    expect(admit([])).toBe(1)
    expect(admit(stream())).toBe(0)
    expect(admit(stream(), 3)).toBe(1)
    // unknown length: each of the first GENERATE_FROM_OBJECTS objects on closures, the rest generating
    expect(admit(configMaps(3) as Iterable<never>)).toBe(3)
    expect(admit(configMaps(GENERATE_FROM_OBJECTS + 2) as Iterable<never>)).toBe(GENERATE_FROM_OBJECTS)
  })

  it('a check of a few manifests runs on closures', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kelp-tiering-')), 'cm.yaml')
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n')
    runs.without = 0
    const report = check({ paths: [file], kubeVersion: '1.37' })
    expect(runs.without).toBe(1)
    expect(report.summary).toMatchObject({ objects: 1 })
  })
})
