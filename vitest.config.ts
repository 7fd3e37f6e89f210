import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // the e2e suites need a real kube-apiserver: npm run test:e2e (vitest.e2e.config.ts)
    exclude: [...configDefaults.exclude, 'test/e2e/**'],
    testTimeout: 60_000,
    setupFiles: ['test/fast-check-setup.ts'],
    // each run writes its scratch files below a directory of its own, removed at the end
    globalSetup: ['test/tmp-setup.ts'],
    reporters: ['default'],
  },
})
