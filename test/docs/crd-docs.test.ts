import { describe, it } from 'vitest'
import { docExamples, runDocExample } from './doc-examples.js'

// docs/crd.md promises these values (in its `assert` calls); they come from the apiserver's behaviour
// (messages of apiextensions-apiserver validation, kubectl's Invalid text), not from kelp's output.

describe('docs/crd.md examples', () => {
  for (const ex of docExamples('docs/crd.md')) {
    it(`${ex.title} (line ${ex.line})`, async () => {
      await runDocExample('docs/crd.md', ex)
    })
  }
})
