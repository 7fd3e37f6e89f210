// kelp: Kubernetes CEL, compiled and run as kube-apiserver does.
export * from './cel/index.js'
