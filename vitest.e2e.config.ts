import { defineConfig } from 'vitest/config'

// npm run test:e2e: the suites against a real etcd + kube-apiserver (test/e2e/harness.ts), apart from npm test.
// One cluster for the run (globalSetup); files run one at a time (they share the cluster and 2 cores).
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    // tmp-setup first: its directory outlives the cluster (teardowns run in reverse order)
    globalSetup: ['test/tmp-setup.ts', 'test/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // the JSON report gives .ci/run its closing 'N passed, N failed' line
    reporters: ['default', ['json', { outputFile: '.cache/e2e/results.json' }]],
  },
})
