// The bench material shared by bench/admit.js and bench/webhook.js: 20 ValidatingAdmissionPolicies with
// one Deny binding each, all matching apps/v1 deployments (the common checks of a policy pack), the
// Namespace they run in, Deployments that pass all 20, and the AdmissionReview kube-apiserver sends.

const validations = [
  'object.spec.replicas <= 50',
  "object.metadata.name.matches('^[a-z0-9-]+$')",
  "has(object.metadata.labels) && 'app' in object.metadata.labels",
  'object.spec.template.spec.containers.all(c, has(c.resources) && has(c.resources.limits))',
  "object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest'))",
  'object.spec.template.spec.containers.all(c, c.image.contains(":"))',
  '!has(object.spec.template.spec.hostNetwork) || !object.spec.template.spec.hostNetwork',
  '!has(object.spec.template.spec.hostPID) || !object.spec.template.spec.hostPID',
  'object.spec.template.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || !c.securityContext.privileged)',
  'object.spec.template.spec.containers.size() <= 10',
  'object.spec.selector.matchLabels.all(k, k in object.spec.template.metadata.labels)',
  "request.operation in ['CREATE', 'UPDATE']",
  'object.spec.template.spec.containers.all(c, !has(c.ports) || c.ports.all(p, p.containerPort > 0 && p.containerPort < 65536))',
  "object.metadata.namespace != 'kube-system'",
  '!has(object.spec.template.spec.volumes) || object.spec.template.spec.volumes.all(v, !has(v.hostPath))',
  'object.spec.template.spec.containers.map(c, c.name).size() == object.spec.template.spec.containers.size()',
  "quantity(object.spec.template.spec.containers[0].resources.limits.memory).compareTo(quantity('4Gi')) <= 0",
  "!has(object.spec.strategy) || object.spec.strategy.type in ['RollingUpdate', 'Recreate']",
  'object.spec.template.spec.containers.exists(c, c.name == object.metadata.labels.app)',
  "variables.team != ''",
]
/** The policies, bindings and the Namespace `shop`. */
export function policyMaterial() {
  const objects = []
  validations.forEach((expression, i) => {
    objects.push({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: `policy-${i}` },
      spec: {
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] },
          ],
        },
        ...(expression.includes('variables')
          ? {
              variables: [
                {
                  name: 'team',
                  expression:
                    "has(object.metadata.labels) && 'team' in object.metadata.labels ? object.metadata.labels.team : ''",
                },
              ],
            }
          : {}),
        validations: [{ expression, message: `rule ${i}` }],
      },
    })
    objects.push({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: `binding-${i}` },
      spec: {
        policyName: `policy-${i}`,
        validationActions: ['Deny'],
        matchResources: {
          namespaceSelector: {
            matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
          },
        },
      },
    })
  })
  objects.push({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shop', labels: { 'kubernetes.io/metadata.name': 'shop', env: 'prod' } },
  })
  return objects
}

/** A Deployment (CREATE) that passes all 20; `i` varies its name, image tag and replicas. */
export const deployment = (i) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: `web-${i}`, namespace: 'shop', labels: { app: 'web', team: 'shop' } },
  spec: {
    replicas: 3 + (i % 4),
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate' },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: `registry.example.com/web:1.${i}`,
            ports: [{ containerPort: 8080 }],
            resources: { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } },
          },
          {
            name: 'sidecar',
            image: 'registry.example.com/proxy:2.1',
            resources: { limits: { cpu: '100m', memory: '64Mi' } },
          },
        ],
      },
    },
  },
})

/** The AdmissionReview kube-apiserver sends for a CREATE of `object`, a Deployment. */
export function admissionReview(object) {
  const kind = { group: 'apps', version: 'v1', kind: 'Deployment' }
  const resource = { group: 'apps', version: 'v1', resource: 'deployments' }
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
      kind,
      resource,
      requestKind: kind,
      requestResource: resource,
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      operation: 'CREATE',
      userInfo: { username: 'system:serviceaccount:shop:deployer', uid: 'u-1', groups: ['system:authenticated'] },
      object,
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    },
  }
}

/** A mutation of a MutatingAdmissionPolicy: an ApplyConfiguration or a JSONPatch expression. */
export const applyConfiguration = (expression) => ({
  patchType: 'ApplyConfiguration',
  applyConfiguration: { expression },
})
export const jsonPatch = (expression) => ({ patchType: 'JSONPatch', jsonPatch: { expression } })

/** One MutatingAdmissionPolicy per mutation (Deployments, CREATE and UPDATE) with its binding, named `<prefix>-<i>`. */
export function mutatingMaterial(mutations, prefix) {
  return mutations.flatMap((m, i) => [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: `${prefix}-${i}` },
      spec: {
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] },
          ],
        },
        reinvocationPolicy: 'Never',
        failurePolicy: 'Fail',
        mutations: [m],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicyBinding',
      metadata: { name: `${prefix}-${i}` },
      spec: { policyName: `${prefix}-${i}` },
    },
  ])
}
