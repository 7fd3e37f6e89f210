// What an e2e test file uses: the run's cluster (from globalSetup), a namespace per test, and the servers' log
// tails printed when a test fails.
import { afterEach, beforeEach, inject } from 'vitest'
import { Cluster } from './harness.js'

export function useCluster(): Cluster {
  const cluster = Cluster.attach(inject('kelpCluster'))
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') {
      cluster.keep()
      console.error(`[e2e] ${ctx.task.name} failed; the servers' logs:\n${cluster.logTails()}`)
    }
  })
  return cluster
}

/** A fresh namespace for each test of the file: ns.name inside a test. */
export function useNamespace(cluster: Cluster, prefix = 'e2e', labels: Record<string, string> = {}): { name: string } {
  const ns = { name: '' }
  beforeEach(async () => {
    ns.name = await cluster.namespace(prefix, labels)
  })
  return ns
}
