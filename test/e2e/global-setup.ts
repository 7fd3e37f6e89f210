// vitest globalSetup of the e2e project: one etcd + kube-apiserver for the whole run (each test takes its own
// namespace), provided to the test files as 'kelpCluster'; stopped by PID at the end, also after failures.
import type { TestProject } from 'vitest/node'
import { Cluster, type ClusterInfo } from './harness.js'

declare module 'vitest' {
  export interface ProvidedContext {
    kelpCluster: ClusterInfo
  }
}

export default async function setup(project: TestProject) {
  const t0 = Date.now()
  const cluster = await Cluster.start({ log: (l) => console.log(`[e2e] ${l}`) })
  console.log(`[e2e] cluster up in ${((Date.now() - t0) / 1000).toFixed(1)} s; KUBECONFIG=${cluster.kubeconfig}`)
  project.provide('kelpCluster', cluster.info())
  const stop = async () => {
    await cluster.stop()
    console.log(`[e2e] stopped kube-apiserver ${cluster.pids.apiserver} and etcd ${cluster.pids.etcd}`)
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      void stop().then(() => process.exit(130))
    })
  return stop
}
