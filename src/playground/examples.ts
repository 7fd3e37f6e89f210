import type { PlaygroundState } from './evaluate/types.js'
import { SOURCES } from './examples.generated.js'

// The playground's starting points: the bundled pack (policies/) and the docs' examples (examples/, docs/crd.md),
// whose texts scripts/generate-playground-examples.js copies into examples.generated.ts; the objects that no
// file holds (a Deployment without resource limits or labels, the Widgets) and the type error's policy are here.
// test/playground/examples.test.ts holds each one's answer as kube-apiserver 1.37 gave it.

const USER = { username: 'kelp', groups: ['system:authenticated'] }

const state = (
  material: string,
  object: string,
  more: Partial<Pick<PlaygroundState, 'oldObject' | 'operation'>> = {},
): PlaygroundState => ({
  v: 1,
  release: '1.37',
  material,
  object,
  oldObject: more.oldObject ?? '',
  operation: more.operation ?? 'CREATE',
  user: { username: USER.username, groups: [...USER.groups] },
})

/** A Deployment with a pinned image but no resources and no app.kubernetes.io/name label. */
const API_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
        - name: api
          image: registry.example.com/api:2.1.0
`

const widget = (image: string) => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  namespace: shop
spec:
  replicas: 1
  maxReplicas: 3
  image: ${image}
`

const TYPE_ERROR_POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-replicas
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: [deployments]
  validations:
    # a typo: Deployment's spec has no field "replica" (type checking warns; the request meets the error)
    - expression: object.spec.replica <= 5
      message: at most 5 replicas
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-replicas
spec:
  policyName: max-replicas
  validationActions: [Deny]
`

export const examples: ReadonlyArray<{ name: string; state: PlaygroundState }> = [
  {
    name: 'Deny: an image tagged latest (the bundled best practices)',
    state: state(SOURCES['policies/best-practices.yaml'], SOURCES['examples/debug-pod.yaml']),
  },
  {
    name: 'Warn: no resource requests or limits (the bundled best practices)',
    state: state(SOURCES['policies/best-practices.yaml'], API_DEPLOYMENT),
  },
  {
    name: 'Mutation: a default label (MutatingAdmissionPolicy)',
    state: state(SOURCES['policies/mutating/default-labels.yaml'], API_DEPLOYMENT),
  },
  {
    name: 'CRD transition rule: an immutable field (oldSelf)',
    state: state(SOURCES['docs/crd.md#widget'], widget('nginx:2'), {
      oldObject: widget('nginx:1'),
      operation: 'UPDATE',
    }),
  },
  {
    name: 'Type error: a field the kind does not have',
    state: state(TYPE_ERROR_POLICY, API_DEPLOYMENT),
  },
  {
    name: 'Allowed: a Deployment that follows the bundled best practices',
    state: state(SOURCES['policies/best-practices.yaml'], SOURCES['examples/web.yaml']),
  },
]
