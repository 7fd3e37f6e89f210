import { describe, it } from 'vitest'
import { docExamples, runDocExample } from './doc-examples.js'

// docs/library.md promises these values (in its `assert` calls): the apiserver's texts (validating
// dispatcher.go, admission.NewForbidden), not kelp's output.

describe('docs/library.md examples', () => {
  for (const ex of docExamples('docs/library.md')) {
    it(`${ex.title} (line ${ex.line})`, async () => {
      await runDocExample('docs/library.md', ex)
    })
  }
})
