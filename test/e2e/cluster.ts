// npm run cluster: etcd + kube-apiserver for a person to experiment with (the e2e harness's pair).
// Prints the kubeconfig path and the binaries' directory; Ctrl-C (SIGINT) or SIGTERM stops both.
import { Cluster, KUBE_VERSION } from './harness.js'

const cluster = await Cluster.start({ log: (l) => console.log(`[cluster] ${l}`) })
console.log(`
Kubernetes ${KUBE_VERSION}: kube-apiserver ${cluster.server} (pid ${cluster.pids.apiserver}), etcd (pid ${cluster.pids.etcd})
  export KUBECONFIG=${cluster.kubeconfig}
  export PATH=${cluster.binDir}:$PATH
  kubectl get ns
logs: ${cluster.apiserverLog}, ${cluster.etcdLog}
(no controller-manager or scheduler runs: writes are admitted and stored, nothing reconciles them)
Ctrl-C stops both.`)
let stopping = false
const stop = async (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`\n[cluster] ${signal}: stopping kube-apiserver ${cluster.pids.apiserver} and etcd ${cluster.pids.etcd}`)
  await cluster.stop()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
setInterval(() => {}, 1 << 30)
