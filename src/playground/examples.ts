import type { PlaygroundState } from './evaluate/types.js'

// Starting points for the playground (a first one; those from policies/ and examples/ follow).

const state = (material: string, object: string): PlaygroundState => ({
  v: 1,
  release: '1.37',
  material,
  object,
  oldObject: '',
  operation: 'CREATE',
  user: { username: 'kelp', groups: ['system:authenticated'] },
})

export const examples: ReadonlyArray<{ name: string; state: PlaygroundState }> = [
  {
    name: 'Deny: replicas at most 5',
    state: state(
      `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-replicas
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
    message: "replicas must be at most 5"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-replicas
spec:
  policyName: max-replicas
  validationActions: [Deny]
`,
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 10
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
`,
    ),
  },
]
