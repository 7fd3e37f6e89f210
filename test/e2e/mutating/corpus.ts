// The MutatingAdmissionPolicy differential corpus (mutating.e2e.test.ts): policies, bindings, params and CRDs
// installed once into the real apiserver, and the objects dry-run against them. Every policy is confined to
// its group's objects by an objectSelector (label mapdiff=<group>), so the groups do not see each other and
// one install serves them all. Within a group the mutations commute where the order the apiserver runs the
// policies in could matter (its informer's listing, not name order; docs/mutating.md).
//
// A case is one object written once: CREATE (a dry run), or UPDATE (its `base` created for real first, then
// the object dry-run as an update of it). Nothing here is an expected value: the apiserver answers.

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { ROOT } from '../harness.js'

export type Obj = Record<string, any>

export const NS = 'mapdiff'

export interface MapCase {
  /** <group>/<n> */
  id: string
  group: string
  note: string
  object: Obj
  operation: 'CREATE' | 'UPDATE'
  /** UPDATE: the object created (for real) before the dry-run update */
  base?: Obj
}

export interface MapCorpus {
  /** CRDs, then params (ConfigMaps), then policies and bindings */
  crds: Obj[]
  params: Obj[]
  policies: Obj[]
  cases: MapCase[]
}

// --- material builders ---------------------------------------------------------------------------------

const ac = (expression: string): Obj => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } })
const jp = (expression: string): Obj => ({ patchType: 'JSONPatch', jsonPatch: { expression } })

interface PolicyOptions {
  operations?: string[]
  reinvocationPolicy?: 'Never' | 'IfNeeded'
  failurePolicy?: 'Fail' | 'Ignore'
  paramKind?: Obj
  variables?: Obj[]
  matchConditions?: Obj[]
  /** the binding's paramRef */
  paramRef?: Obj
  /** the binding's matchResources */
  bindingMatch?: Obj
  resources?: Obj[]
}

function policyPair(group: string, name: string, mutations: Obj[], o: PolicyOptions = {}): Obj[] {
  const full = `mapdiff-${group}-${name}`
  const rules = o.resources ?? [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }]
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: full },
      spec: {
        matchConstraints: {
          resourceRules: rules.map((r) => ({ operations: o.operations ?? ['CREATE'], ...r })),
          objectSelector: { matchLabels: { mapdiff: group } },
        },
        reinvocationPolicy: o.reinvocationPolicy ?? 'Never',
        ...(o.failurePolicy ? { failurePolicy: o.failurePolicy } : {}),
        ...(o.paramKind ? { paramKind: o.paramKind } : {}),
        ...(o.variables ? { variables: o.variables } : {}),
        ...(o.matchConditions ? { matchConditions: o.matchConditions } : {}),
        mutations,
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicyBinding',
      metadata: { name: full },
      spec: {
        policyName: full,
        ...(o.paramRef ? { paramRef: o.paramRef } : {}),
        ...(o.bindingMatch ? { matchResources: o.bindingMatch } : {}),
      },
    },
  ]
}

// --- object builders -----------------------------------------------------------------------------------

type Meta = { labels?: Record<string, string>; annotations?: Record<string, string>; generateName?: string }

function meta(group: string, name: string, m: Meta = {}): Obj {
  // names are unique across groups (one namespace holds every case, and the UPDATE cases' objects exist)
  return {
    ...(m.generateName ? { generateName: m.generateName } : { name: `${group}-${name}` }),
    namespace: NS,
    labels: { mapdiff: group, ...(m.labels ?? {}) },
    ...(m.annotations ? { annotations: m.annotations } : {}),
  }
}

const podSpec = (containers: Obj[] = [{ name: 'app', image: 'nginx:1.27' }], extra: Obj = {}): Obj => ({
  containers,
  ...extra,
})
const template = (spec: Obj, labels: Record<string, string> = { app: 'web' }): Obj => ({ metadata: { labels }, spec })

const K = {
  configMap: (g: string, n: string, m: Meta = {}, data?: Record<string, string>): Obj => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(g, n, m),
    ...(data ? { data } : {}),
  }),
  secret: (g: string, n: string, m: Meta = {}): Obj => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(g, n, m),
    stringData: { k: 'v' },
  }),
  serviceAccount: (g: string, n: string, m: Meta = {}): Obj => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: meta(g, n, m),
  }),
  deployment: (g: string, n: string, m: Meta = {}, spec: Obj = {}, pod: Obj = podSpec()): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(g, n, m),
    spec: { selector: { matchLabels: { app: 'web' } }, template: template(pod), ...spec },
  }),
  statefulSet: (g: string, n: string, m: Meta = {}, spec: Obj = {}, pod: Obj = podSpec()): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: meta(g, n, m),
    spec: { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: template(pod), ...spec },
  }),
  daemonSet: (g: string, n: string, m: Meta = {}, pod: Obj = podSpec()): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: meta(g, n, m),
    spec: { selector: { matchLabels: { app: 'web' } }, template: template(pod) },
  }),
  cronJob: (g: string, n: string, m: Meta = {}, pod: Obj = podSpec(undefined, { restartPolicy: 'Never' })): Obj => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: meta(g, n, m),
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: pod } } } },
  }),
  role: (g: string, n: string, m: Meta = {}): Obj => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: meta(g, n, m),
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
  }),
  pdb: (g: string, n: string, m: Meta = {}): Obj => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: meta(g, n, m),
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
  }),
  networkPolicy: (g: string, n: string, m: Meta = {}): Obj => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta(g, n, m),
    spec: { podSelector: { matchLabels: { app: 'web' } } },
  }),
  ingress: (g: string, n: string, m: Meta = {}): Obj => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(g, n, m),
    spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
  }),
  hpa: (g: string, n: string, m: Meta = {}): Obj => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta(g, n, m),
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
  }),
  widget: (g: string, n: string, m: Meta = {}, spec: Obj = {}): Obj => ({
    apiVersion: 'mapdiff.example.com/v1',
    kind: 'Widget',
    metadata: meta(g, n, m),
    spec,
  }),
  gizmo: (g: string, n: string, m: Meta = {}, spec: Obj = {}): Obj => ({
    apiVersion: 'mapdiff.example.com/v1',
    kind: 'Gizmo',
    metadata: meta(g, n, m),
    spec,
  }),
}

// --- CRDs ----------------------------------------------------------------------------------------------

const crds: Obj[] = [
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.mapdiff.example.com' },
    spec: {
      group: 'mapdiff.example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    replicas: { type: 'integer', minimum: 0, default: 1 },
                    mode: { type: 'string', enum: ['a', 'b'] },
                    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                    items: { type: 'array', items: { type: 'string' } },
                    ports: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: { name: { type: 'string' }, port: { type: 'integer' } },
                      },
                    },
                    config: {
                      type: 'object',
                      'x-kubernetes-map-type': 'atomic',
                      properties: { a: { type: 'string' }, b: { type: 'string' } },
                    },
                    extra: { type: 'object', additionalProperties: { type: 'string' } },
                    mm: {
                      type: 'object',
                      additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
                    },
                    ml: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
                    lm: { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } } },
                    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    nested: {
                      type: 'object',
                      properties: {
                        inner: { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.mapdiff.example.com' },
    spec: {
      group: 'mapdiff.example.com',
      scope: 'Namespaced',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  },
]

/** An object of these entries, each an own data property: a literal's `__proto__:` would set the prototype. */
const entries = (e: readonly (readonly [string, unknown])[]): Obj => Object.fromEntries(e)

/** The keys named like Object.prototype members (every one a valid ConfigMap data key). */
const PROTO_DATA = entries([
  ['__proto__', 'p'],
  ['constructor', 'c'],
  ['toString', 't'],
  ['valueOf', 'v'],
  ['hasOwnProperty', 'h'],
  ['isPrototypeOf', 'i'],
  ['__defineGetter__', 'g'],
  ['plain', 'x'],
])
/** Label and annotation keys must be qualified names: only the members that start with a letter. */
const PROTO_LABELS = entries([
  ['constructor', 'toString'],
  ['valueOf', 'x'],
  ['hasOwnProperty', 'constructor'],
])
const PROTO_ANNOTATIONS = entries([
  ['toString', '__proto__'],
  ['isPrototypeOf', 'constructor'],
  ['hasOwnProperty', 'y'],
])

crds.push({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'protos.mapdiff.example.com' },
  spec: {
    group: 'mapdiff.example.com',
    scope: 'Namespaced',
    names: { plural: 'protos', singular: 'proto', kind: 'Proto', listKind: 'ProtoList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: entries([
                  ['__proto__', { type: 'string', default: 'from-default' }],
                  ['constructor', { type: 'string' }],
                  ['toString', { type: 'integer' }],
                  ['extra', { type: 'object', additionalProperties: { type: 'string' } }],
                ]),
              },
            },
          },
        },
      },
    ],
  },
})

// --- the corpus ----------------------------------------------------------------------------------------

export function buildMapCorpus(): MapCorpus {
  const policies: Obj[] = []
  const params: Obj[] = []
  const cases: MapCase[] = []
  const counters = new Map<string, number>()
  const add = (group: string, note: string, object: Obj, base?: Obj) => {
    const n = (counters.get(group) ?? 0) + 1
    counters.set(group, n)
    cases.push({
      id: `${group}/${n}`,
      group,
      note,
      object,
      operation: base ? 'UPDATE' : 'CREATE',
      ...(base ? { base } : {}),
    })
  }
  const P = (group: string, name: string, mutations: Obj[], o: PolicyOptions = {}) =>
    policies.push(...policyPair(group, name, mutations, o))

  // ApplyConfiguration: labels merged into every kind
  {
    const g = 'ac-labels'
    P(g, 'p', [ac('Object{metadata: Object.metadata{labels: {"team": "blue", "env": "prod"}}}')])
    add(g, 'ConfigMap without other labels', K.configMap(g, 'cm1'))
    add(g, 'ConfigMap with a label of the same key', K.configMap(g, 'cm2', { labels: { team: 'red' } }))
    add(
      g,
      'ConfigMap with other labels and annotations',
      K.configMap(g, 'cm3', { labels: { x: 'y' }, annotations: { a: 'b' } }),
    )
    add(g, 'Secret', K.secret(g, 's1'))
    add(g, 'ServiceAccount', K.serviceAccount(g, 'sa1'))
    add(g, 'Deployment', K.deployment(g, 'd1'))
    add(g, 'StatefulSet', K.statefulSet(g, 'st1'))
    add(g, 'DaemonSet', K.daemonSet(g, 'ds1'))
    add(g, 'CronJob', K.cronJob(g, 'cj1'))
    add(g, 'Role', K.role(g, 'r1'))
    add(g, 'PodDisruptionBudget', K.pdb(g, 'pdb1'))
    add(g, 'NetworkPolicy', K.networkPolicy(g, 'np1'))
    add(g, 'Ingress', K.ingress(g, 'ing1'))
    add(g, 'HorizontalPodAutoscaler', K.hpa(g, 'hpa1'))
    add(g, 'Widget (structural CRD)', K.widget(g, 'w1'))
    add(g, 'Gizmo (preserve-unknown-fields CRD)', K.gizmo(g, 'gz1', {}, { anything: { goes: 1 } }))
    add(g, 'generateName ConfigMap', K.configMap(g, 'unused', { generateName: 'gen-' }))
  }

  // ApplyConfiguration: annotations computed from the object and the request
  {
    const g = 'ac-computed'
    P(g, 'p', [
      ac(`Object{metadata: Object.metadata{annotations: {
        "name-length": string(size(object.metadata.name)),
        "kind": object.kind,
        "operation": request.operation,
        "namespace": request.namespace,
        "label-count": string(size(object.metadata.labels))
      }}}`),
    ])
    add(g, 'ConfigMap', K.configMap(g, 'a'))
    add(g, 'ConfigMap, longer name, more labels', K.configMap(g, 'a-much-longer-name', { labels: { p: 'q', r: 's' } }))
    add(g, 'Deployment', K.deployment(g, 'dep'))
    add(g, 'Widget', K.widget(g, 'wid'))
    add(g, 'with existing annotations', K.configMap(g, 'ann', { annotations: { kind: 'old', keep: 'me' } }))
  }

  // ApplyConfiguration: replicas (scalar replaced; defaulting of what is left)
  {
    const g = 'ac-replicas'
    P(g, 'p', [
      ac(
        'Object{spec: Object.spec{replicas: has(object.spec.replicas) && object.spec.replicas > 5 ? 5 : (has(object.spec.replicas) ? object.spec.replicas : 2)}}',
      ),
    ])
    add(g, 'Deployment replicas unset (defaulted to 1 before admission)', K.deployment(g, 'd1'))
    add(g, 'Deployment replicas 9', K.deployment(g, 'd2', {}, { replicas: 9 }))
    add(g, 'Deployment replicas 0', K.deployment(g, 'd3', {}, { replicas: 0 }))
    add(g, 'StatefulSet replicas 7', K.statefulSet(g, 's1', {}, { replicas: 7 }))
    add(g, 'Widget replicas 8 (CRD)', K.widget(g, 'w1', {}, { replicas: 8 }))
    add(g, 'Widget replicas unset (CRD default after admission)', K.widget(g, 'w2'))
  }

  // ApplyConfiguration: containers (a list map keyed by name)
  {
    const g = 'ac-containers'
    P(g, 'p', [
      ac(`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
        containers: [Object.spec.template.spec.containers{name: "app", imagePullPolicy: "Always",
          env: [Object.spec.template.spec.containers.env{name: "INJECTED", value: "1"}]}]}}}}`),
    ])
    add(g, 'one container app', K.deployment(g, 'd1'))
    add(
      g,
      'app and a sidecar',
      K.deployment(
        g,
        'd2',
        {},
        {},
        podSpec([
          { name: 'side', image: 'busybox:1' },
          { name: 'app', image: 'nginx:1' },
        ]),
      ),
    )
    add(
      g,
      'app with env (merged by name)',
      K.deployment(
        g,
        'd3',
        {},
        {},
        podSpec([
          {
            name: 'app',
            image: 'nginx:1',
            env: [
              { name: 'A', value: 'a' },
              { name: 'INJECTED', value: '0' },
            ],
          },
        ]),
      ),
    )
    add(
      g,
      'no container named app: a new one without image (invalid)',
      K.deployment(g, 'd4', {}, {}, podSpec([{ name: 'web', image: 'nginx:1' }])),
    )
    add(g, 'StatefulSet', K.statefulSet(g, 's1'))
    add(
      g,
      'DaemonSet with imagePullPolicy set',
      K.daemonSet(g, 'ds1', {}, podSpec([{ name: 'app', image: 'nginx:1', imagePullPolicy: 'Never' }])),
    )
  }

  // ApplyConfiguration: a default securityContext for every container (map over the object's containers)
  {
    const g = 'ac-securitycontext'
    P(
      g,
      'p',
      [
        ac(`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
        securityContext: Object.spec.template.spec.securityContext{runAsNonRoot: true,
          seccompProfile: Object.spec.template.spec.securityContext.seccompProfile{type: "RuntimeDefault"}},
        containers: object.spec.template.spec.containers.map(c, Object.spec.template.spec.containers{
          name: c.name,
          securityContext: Object.spec.template.spec.containers.securityContext{allowPrivilegeEscalation: false}})}}}}`),
      ],
      {
        resources: [
          { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'statefulsets', 'daemonsets'] },
        ],
      },
    )
    P(
      g,
      'caps',
      [
        ac(`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
        containers: object.spec.template.spec.containers.map(c, Object.spec.template.spec.containers{name: c.name,
          securityContext: Object.spec.template.spec.containers.securityContext{
            capabilities: Object.spec.template.spec.containers.securityContext.capabilities{drop: ["ALL"]}}})}}}}`),
      ],
      { resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['daemonsets'] }] },
    )
    add(g, 'Deployment, one container', K.deployment(g, 'd1'))
    add(
      g,
      'Deployment, two containers',
      K.deployment(
        g,
        'd2',
        {},
        {},
        podSpec([
          { name: 'a', image: 'x:1' },
          { name: 'b', image: 'y:1' },
        ]),
      ),
    )
    add(
      g,
      'Deployment with its own securityContext (runAsUser kept)',
      K.deployment(
        g,
        'd3',
        {},
        {},
        podSpec([{ name: 'a', image: 'x:1', securityContext: { runAsUser: 1000, privileged: false } }], {
          securityContext: { runAsUser: 10 },
        }),
      ),
    )
    add(
      g,
      'existing capabilities kept',
      K.deployment(
        g,
        'd4',
        {},
        {},
        podSpec([
          { name: 'a', image: 'x:1', securityContext: { capabilities: { drop: ['NET_RAW'], add: ['CHOWN'] } } },
        ]),
      ),
    )
    add(g, 'StatefulSet', K.statefulSet(g, 's1'))
    add(g, 'DaemonSet: capabilities.drop (a list without list type: atomic)', K.daemonSet(g, 'ds1'))
    add(g, 'ConfigMap not matched by the rules', K.configMap(g, 'cm'))
  }

  // ApplyConfiguration: atomic structs and lists are refused; undeclared fields
  {
    const g = 'ac-atomic'
    P(g, 'selector', [ac('Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"l": "v"}}}}')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
    })
    P(g, 'undeclared', [ac('Object{spec: Object.spec{nope: 1}}')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['statefulsets'] }],
    })
    P(g, 'widget-config', [ac('Object{spec: Object.spec{config: Object.spec.config{a: "x"}}}')], {
      resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
    })
    P(g, 'cm-spec', [ac('Object{spec: Object.spec{x: 1}}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })
    P(
      g,
      'tolerations',
      [
        ac(`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
        tolerations: [Object.spec.template.spec.tolerations{key: "k", operator: "Exists"}]}}}}`),
      ],
      { resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['daemonsets'] }] },
    )
    add(g, 'Deployment: spec.selector is atomic', K.deployment(g, 'd1'))
    add(g, 'StatefulSet: spec.nope undeclared', K.statefulSet(g, 's1'))
    add(g, 'Widget: spec.config is an atomic map', K.widget(g, 'w1', {}, { config: { a: 'old', b: 'kept?' } }))
    add(g, 'ConfigMap: no spec in the schema', K.configMap(g, 'cm1'))
    add(g, 'DaemonSet: tolerations', K.daemonSet(g, 'ds1'))
    add(
      g,
      'DaemonSet with tolerations',
      K.daemonSet(g, 'ds2', {}, podSpec(undefined, { tolerations: [{ key: 'other', operator: 'Exists' }] })),
    )
  }

  // ApplyConfiguration on the structural CRD: list types, granular maps, nested structs
  {
    const g = 'ac-widget'
    P(g, 'p', [
      ac(`Object{spec: Object.spec{
        tags: ["added"],
        ports: [Object.spec.ports{name: "http", port: 8080}],
        extra: {"added": "yes"},
        nested: Object.spec.nested{inner: Object.spec.nested.inner{x: "X"}}}}`),
    ])
    add(g, 'empty spec', K.widget(g, 'w1'))
    add(g, 'tags set: union keeps order', K.widget(g, 'w2', {}, { tags: ['b', 'a'] }))
    add(g, 'tags set already has the value', K.widget(g, 'w3', {}, { tags: ['added', 'z'] }))
    add(
      g,
      'ports map list: merged by name',
      K.widget(
        g,
        'w4',
        {},
        {
          ports: [
            { name: 'https', port: 443 },
            { name: 'http', port: 80 },
          ],
        },
      ),
    )
    add(g, 'extra granular map merged', K.widget(g, 'w5', {}, { extra: { a: '1' } }))
    add(g, 'nested inner struct merged', K.widget(g, 'w6', {}, { nested: { inner: { y: 'Y', x: 'old' } } }))
    add(g, 'with items (untouched atomic list)', K.widget(g, 'w7', {}, { items: ['i1'], mode: 'a' }))
  }
  {
    const g = 'ac-widget-items'
    P(g, 'p', [ac('Object{spec: Object.spec{items: ["x"]}}')])
    add(g, 'items is an atomic list (no list type)', K.widget(g, 'w1', {}, { items: ['a'] }))
    add(g, 'items unset', K.widget(g, 'w2'))
  }

  // maps and lists built inside built maps and lists (ObjectVal.ConvertToNative converts one level)
  {
    const g = 'ac-nested'
    const W = [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['widgets'] }]
    const pol = (name: string, expr: string, extra: PolicyOptions = {}) =>
      P(g, name, [ac(expr)], {
        ...extra,
        matchConditions: [{ name: 'case', expression: `object.metadata.labels["case"] == "${name}"` }],
        resources: W,
      })
    pol('mm', 'Object{spec: Object.spec{mm: {"a": {"b": "c"}}}}')
    pol('ml', 'Object{spec: Object.spec{ml: {"a": ["x", "y"]}}}')
    pol('lm', 'Object{spec: Object.spec{lm: [{"a": "b"}]}}')
    pol('free-map', 'Object{spec: Object.spec{free: {"a": {"b": {"c": "d"}}, "n": {"z": 1}}}}')
    pol('free-list', 'Object{spec: Object.spec{free: {"a": [["x"]]}}}')
    pol('from-data', 'Object{spec: Object.spec{mm: {"copy": object.metadata.labels}, free: {"old": object.spec.free}}}')
    pol('from-variable', 'Object{spec: Object.spec{mm: {"v": variables.inner}}}', {
      variables: [{ name: 'inner', expression: '{"k": "v"}' }],
    })
    pol(
      'flat',
      'Object{spec: Object.spec{mm: object.spec.mm, ml: {"a": object.spec.tags}, free: {"s": "t", "list": object.spec.tags}}}',
    )
    const w = (name: string, spec: Obj = {}) => K.widget(g, name, { labels: { case: name } }, spec)
    add(g, 'a map literal inside a map literal, typed map of maps', w('mm'))
    add(g, 'a list literal inside a map literal', w('ml'))
    add(g, 'a map literal inside a list literal', w('lm'))
    add(g, 'nested map literals in a preserve-unknown-fields field', w('free-map'))
    add(g, 'a list in a list in a map literal (deduced)', w('free-list'))
    add(g, 'maps of the request inside a map literal', w('from-data', { free: { x: { y: 'z' } } }))
    add(g, 'a variable holding a map literal', w('from-variable'))
    add(g, 'the request data one level down', w('flat', { mm: { a: { b: 'c' } }, tags: ['t1', 't2'] }))
  }

  // ApplyConfiguration on the preserve-unknown-fields CRD (deduced types)
  {
    const g = 'ac-gizmo'
    P(g, 'p', [ac('Object{spec: Object.spec{added: {"deep": {"z": 3}}, list: [9], scalar: "s"}}')])
    add(g, 'empty spec', K.gizmo(g, 'g1'))
    add(g, 'nested maps merged key by key', K.gizmo(g, 'g2', {}, { added: { deep: { y: 2 }, other: true } }))
    add(g, 'lists replaced', K.gizmo(g, 'g3', {}, { list: [1, 2, 3] }))
    add(g, 'scalar replaced by a map? no: map over scalar', K.gizmo(g, 'g4', {}, { added: 'was a string', scalar: 5 }))
  }

  // ApplyConfiguration: ConfigMap data, optional fields
  {
    const g = 'ac-data'
    P(
      g,
      'p',
      [
        ac(`Object{data: {"injected": "v", "from-name": object.metadata.name},
        metadata: Object.metadata{?annotations: has(object.metadata.annotations) ? optional.of({"seen": "true"}) : optional.none()}}`),
      ],
      { resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
    )
    add(g, 'no data, no annotations', K.configMap(g, 'c1'))
    add(g, 'data merged', K.configMap(g, 'c2', {}, { a: '1', injected: 'old' }))
    add(g, 'annotations present: optional set', K.configMap(g, 'c3', { annotations: { x: 'y' } }))
  }

  // ApplyConfiguration: values of the wrong type
  {
    const g = 'ac-types'
    P(g, 'int-for-string', [ac('Object{metadata: Object.metadata{labels: {"n": 1}}}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })
    P(g, 'string-for-int', [ac('Object{spec: Object.spec{replicas: "three"}}')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
    })
    P(g, 'widget-enum', [ac('Object{spec: Object.spec{mode: "c"}}')], {
      resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
    })
    P(g, 'widget-min', [ac('Object{spec: Object.spec{replicas: -3}}')], {
      resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['gizmos'] }],
    })
    P(
      g,
      'quantity-int',
      [
        ac(`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
        containers: object.spec.template.spec.containers.map(c, Object.spec.template.spec.containers{name: c.name,
          resources: Object.spec.template.spec.containers.resources{limits: {"cpu": 1, "memory": "64Mi"}}})}}}}`),
      ],
      { resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['daemonsets'] }] },
    )
    P(g, 'bool-for-string', [ac('Object{metadata: Object.metadata{annotations: {"b": true}}}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
    })
    P(g, 'string-for-bool', [ac('Object{automountServiceAccountToken: "yes"}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
    })
    add(g, 'a Quantity given as an int', K.daemonSet(g, 'ds1'))
    add(g, 'an annotation of type bool', K.secret(g, 's1'))
    add(g, 'a bool given as a string', K.serviceAccount(g, 'sa1'))
    add(g, 'a label of type int', K.configMap(g, 'c1'))
    add(g, 'replicas a string', K.deployment(g, 'd1'))
    add(g, 'Widget mode outside the enum (CRD validation after admission)', K.widget(g, 'w1'))
    add(g, 'Gizmo replicas -3 (untyped: kept)', K.gizmo(g, 'g1'))
  }

  // JSONPatch: add a label (the labels map present or not)
  {
    const g = 'jp-label'
    P(g, 'p', [jp('[JSONPatch{op: "add", path: "/metadata/labels/patched", value: "yes"}]')])
    add(g, 'ConfigMap (labels present: the selector label)', K.configMap(g, 'c1'))
    add(g, 'Deployment', K.deployment(g, 'd1'))
    add(g, 'Secret', K.secret(g, 's1'))
    add(g, 'Widget', K.widget(g, 'w1'))
    add(g, 'Gizmo', K.gizmo(g, 'g1'))
    add(g, 'existing value replaced', K.configMap(g, 'c2', { labels: { patched: 'no' } }))
  }
  {
    const g = 'jp-annotations'
    P(g, 'p', [jp('[JSONPatch{op: "add", path: "/metadata/annotations/patched", value: "yes"}]')], {
      failurePolicy: 'Fail',
    })
    add(g, 'no annotations: the parent is missing (error)', K.configMap(g, 'c1'))
    add(g, 'with annotations', K.configMap(g, 'c2', { annotations: { a: 'b' } }))
    add(g, 'Deployment without annotations (error)', K.deployment(g, 'd1'))
  }
  {
    const g = 'jp-annotations-ignore'
    P(g, 'p', [jp('[JSONPatch{op: "add", path: "/metadata/annotations/patched", value: "yes"}]')], {
      failurePolicy: 'Ignore',
    })
    add(g, 'no annotations: error ignored', K.configMap(g, 'c1'))
    add(g, 'with annotations', K.configMap(g, 'c2', { annotations: { a: 'b' } }))
  }
  {
    const g = 'jp-escape'
    P(g, 'p', [
      jp(`[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("app.kubernetes.io/managed-by"), value: "kelp"},
           JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("a~b"), value: "tilde"}]`),
    ])
    add(g, 'ConfigMap', K.configMap(g, 'c1'))
    add(g, 'Deployment', K.deployment(g, 'd1'))
    add(g, 'already managed', K.configMap(g, 'c2', { labels: { 'app.kubernetes.io/managed-by': 'helm' } }))
  }
  {
    const g = 'jp-test'
    P(
      g,
      'p',
      [
        jp(
          '[JSONPatch{op: "test", path: "/spec/replicas", value: 1}, JSONPatch{op: "replace", path: "/spec/replicas", value: 2}]',
        ),
      ],
      { resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'statefulsets'] }] },
    )
    add(g, 'replicas 1: test passes', K.deployment(g, 'd1', {}, { replicas: 1 }))
    add(g, 'replicas unset (defaulted 1): test passes', K.deployment(g, 'd2'))
    add(g, 'replicas 3: test fails', K.deployment(g, 'd3', {}, { replicas: 3 }))
    add(g, 'StatefulSet replicas 4', K.statefulSet(g, 's1', {}, { replicas: 4 }))
  }
  {
    const g = 'jp-remove'
    P(g, 'p', [jp('[JSONPatch{op: "remove", path: "/metadata/annotations/drop-me"}]')])
    add(g, 'annotation present', K.configMap(g, 'c1', { annotations: { 'drop-me': 'x', keep: 'y' } }))
    add(g, 'annotation absent (error)', K.configMap(g, 'c2', { annotations: { keep: 'y' } }))
    add(g, 'no annotations (error)', K.configMap(g, 'c3'))
  }
  {
    const g = 'jp-remove-defaulted'
    P(
      g,
      'p',
      [
        jp(
          '[JSONPatch{op: "remove", path: "/spec/replicas"}, JSONPatch{op: "remove", path: "/spec/revisionHistoryLimit"}]',
        ),
      ],
      {
        resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'statefulsets'] }],
      },
    )
    add(
      g,
      'Deployment: removed fields defaulted again',
      K.deployment(g, 'd1', {}, { replicas: 4, revisionHistoryLimit: 3 }),
    )
    add(g, 'StatefulSet', K.statefulSet(g, 's1', {}, { replicas: 4 }))
  }
  {
    const g = 'jp-containers'
    P(
      g,
      'sidecar',
      [
        jp(`[JSONPatch{op: "add", path: "/spec/template/spec/containers/-",
        value: Object.spec.template.spec.containers{name: "sidecar", image: "busybox:1.36", args: ["sleep", "3600"]}}]`),
      ],
      { resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] },
    )
    P(
      g,
      'image',
      [
        jp(
          '[JSONPatch{op: "replace", path: "/spec/template/spec/containers/0/image", value: "registry.example/mirror/" + object.spec.template.spec.containers[0].image}]',
        ),
      ],
      {
        resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['statefulsets'] }],
      },
    )
    P(
      g,
      'noimage',
      [jp('[JSONPatch{op: "add", path: "/spec/template/spec/containers/-", value: {"name": "broken"}}]')],
      {
        resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['daemonsets'] }],
      },
    )
    add(g, 'Deployment gets a sidecar', K.deployment(g, 'd1'))
    add(
      g,
      'Deployment with two containers gets a sidecar',
      K.deployment(
        g,
        'd2',
        {},
        {},
        podSpec([
          { name: 'a', image: 'a:1' },
          { name: 'b', image: 'b:1' },
        ]),
      ),
    )
    add(
      g,
      'Deployment already with a sidecar: duplicate name (invalid)',
      K.deployment(g, 'd3', {}, {}, podSpec([{ name: 'sidecar', image: 'a:1' }])),
    )
    add(g, 'StatefulSet image rewritten', K.statefulSet(g, 's1'))
    add(g, 'DaemonSet: a container without image (invalid)', K.daemonSet(g, 'ds1'))
  }
  {
    const g = 'jp-copy-move'
    P(
      g,
      'p',
      [
        jp(`[JSONPatch{op: "copy", from: "/metadata/labels/source", path: "/metadata/labels/copied"},
           JSONPatch{op: "move", from: "/metadata/labels/moveme", path: "/metadata/labels/moved"}]`),
      ],
      { failurePolicy: 'Fail' },
    )
    add(g, 'both present', K.configMap(g, 'c1', { labels: { source: 's', moveme: 'm' } }))
    add(g, 'source missing (error)', K.configMap(g, 'c2', { labels: { moveme: 'm' } }))
    add(g, 'moveme missing (error)', K.configMap(g, 'c3', { labels: { source: 's' } }))
    add(g, 'Widget', K.widget(g, 'w1', { labels: { source: 's', moveme: 'm' } }))
  }
  {
    const g = 'jp-types'
    P(g, 'replicas-string', [jp('[JSONPatch{op: "replace", path: "/spec/replicas", value: "three"}]')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
    })
    P(g, 'unknown-field', [jp('[JSONPatch{op: "add", path: "/spec/unknownField", value: 1}]')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['statefulsets'] }],
    })
    P(g, 'widget-unknown', [jp('[JSONPatch{op: "add", path: "/spec/unknownField", value: 1}]')], {
      resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
    })
    P(g, 'widget-negative', [jp('[JSONPatch{op: "replace", path: "/spec/replicas", value: -1}]')], {
      resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['gizmos'] }],
    })
    add(g, 'Deployment replicas "three" (decoding error)', K.deployment(g, 'd1', {}, { replicas: 2 }))
    add(g, 'StatefulSet unknown field (strict decoding)', K.statefulSet(g, 's1'))
    add(g, 'Widget unknown field (pruned?)', K.widget(g, 'w1'))
    add(g, 'Gizmo replicas -1 (untyped)', K.gizmo(g, 'g1', {}, { replicas: 1 }))
  }
  {
    const g = 'jp-paths'
    P(g, 'p', [jp('[JSONPatch{op: "replace", path: "/spec/nope/x", value: 1}]')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
    })
    P(g, 'dash', [jp('[JSONPatch{op: "replace", path: "/spec/template/spec/containers/-", value: {"name": "x"}}]')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['statefulsets'] }],
    })
    P(
      g,
      'index',
      [jp('[JSONPatch{op: "add", path: "/spec/template/spec/containers/5", value: {"name": "x", "image": "x"}}]')],
      {
        resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['daemonsets'] }],
      },
    )
    P(g, 'root', [jp('[JSONPatch{op: "add", path: "/data", value: {"all": "new"}}]')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })
    add(g, 'replace under a missing parent', K.deployment(g, 'd1'))
    add(g, 'replace at -', K.statefulSet(g, 's1'))
    add(g, 'add past the end of the list', K.daemonSet(g, 'ds1'))
    add(g, 'add /data over existing data (replaced)', K.configMap(g, 'c1', {}, { old: 'gone' }))
    add(g, 'add /data without data', K.configMap(g, 'c2'))
  }
  {
    const g = 'jp-empty'
    P(g, 'p', [
      jp(
        'object.metadata.name.startsWith("skip") ? [] : [JSONPatch{op: "add", path: "/metadata/labels/seen", value: "1"}]',
      ),
    ])
    add(g, 'empty patch list', K.configMap(g, 'skip-me'))
    add(g, 'one op', K.configMap(g, 'take-me'))
  }

  // material only: an empty list literal is list(dyn), refused when the policy is created
  P('material-only', 'empty-list', [jp('[]')])

  // runtime errors under failurePolicy
  {
    const g = 'fail-runtime'
    P(g, 'fail', [ac('Object{metadata: Object.metadata{labels: {"v": object.metadata.annotations["missing"]}}}')], {
      failurePolicy: 'Fail',
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })
    P(g, 'ignore', [ac('Object{metadata: Object.metadata{labels: {"v": object.metadata.annotations["missing"]}}}')], {
      failurePolicy: 'Ignore',
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
    })
    P(
      g,
      'div',
      [jp('[JSONPatch{op: "add", path: "/metadata/labels/x", value: string(1 / (size(object.metadata.labels) - 1))}]')],
      {
        failurePolicy: 'Fail',
        resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
      },
    )
    add(g, 'ConfigMap without annotations: no such key (Fail)', K.configMap(g, 'c1'))
    add(g, 'ConfigMap with the annotation', K.configMap(g, 'c2', { annotations: { missing: 'found' } }))
    add(g, 'ConfigMap with other annotations (Fail)', K.configMap(g, 'c3', { annotations: { other: 'x' } }))
    add(g, 'Secret: no such key ignored', K.secret(g, 's1'))
    add(g, 'ServiceAccount: division by zero', K.serviceAccount(g, 'sa1'))
    add(g, 'ServiceAccount with two labels', K.serviceAccount(g, 'sa2', { labels: { a: 'b' } }))
  }

  // match conditions and selectors
  {
    const g = 'match'
    P(g, 'prod', [ac('Object{metadata: Object.metadata{labels: {"tier": "prod-tier"}}}')], {
      matchConditions: [{ name: 'prod', expression: 'object.metadata.?labels["env"] == optional.of("prod")' }],
    })
    P(g, 'named', [ac('Object{metadata: Object.metadata{annotations: {"named": "true"}}}')], {
      matchConditions: [
        { name: 'prefix', expression: 'object.metadata.name.startsWith("n-")' },
        { name: 'not-kind', expression: 'object.kind != "Secret"' },
      ],
    })
    P(g, 'binding-selector', [ac('Object{metadata: Object.metadata{annotations: {"picked": "true"}}}')], {
      bindingMatch: { objectSelector: { matchExpressions: [{ key: 'pick', operator: 'In', values: ['yes'] }] } },
    })
    P(g, 'ns-selector', [ac('Object{metadata: Object.metadata{annotations: {"ns": "selected"}}}')], {
      bindingMatch: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': NS } } },
    })
    P(g, 'other-ns', [ac('Object{metadata: Object.metadata{annotations: {"other-ns": "selected"}}}')], {
      bindingMatch: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'elsewhere' } } },
    })
    add(g, 'env prod', K.configMap(g, 'c1', { labels: { env: 'prod' } }))
    add(g, 'env dev', K.configMap(g, 'c2', { labels: { env: 'dev' } }))
    add(g, 'n- prefix', K.configMap(g, 'n-c3'))
    add(g, 'n- prefix Secret', K.secret(g, 'n-s1'))
    add(g, 'pick=yes', K.configMap(g, 'c4', { labels: { pick: 'yes' } }))
    add(g, 'pick=no', K.configMap(g, 'c5', { labels: { pick: 'no' } }))
    add(g, 'all of them', K.configMap(g, 'n-c6', { labels: { pick: 'yes', env: 'prod' } }))
    add(g, 'Deployment n- prefix', K.deployment(g, 'n-d1', { labels: { env: 'prod' } }))
  }

  // operations: an UPDATE-only policy, oldObject
  {
    const g = 'update'
    P(
      g,
      'p',
      [
        ac(`Object{metadata: Object.metadata{annotations: {
        "previous-replicas": string(oldObject.spec.replicas),
        "changed": string(oldObject.spec.replicas != object.spec.replicas)}}}`),
      ],
      { operations: ['UPDATE'], resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] },
    )
    P(
      g,
      'cm',
      [
        jp(`oldObject.data == object.data ? [] : [JSONPatch{op: "add", path: "/data/revision",
        value: string(int(oldObject.data.?revision.orValue("0")) + 1)}]`),
      ],
      { operations: ['UPDATE'], resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
    )
    P(g, 'create-only', [ac('Object{metadata: Object.metadata{labels: {"created": "by-policy"}}}')], {
      operations: ['CREATE'],
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
    })
    P(
      g,
      'widget',
      [
        ac(`Object{metadata: Object.metadata{annotations: {"was": string(oldObject.spec.replicas)}},
        spec: Object.spec{tags: ["updated"]}}`),
      ],
      {
        operations: ['UPDATE'],
        resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
      },
    )
    P(g, 'gizmo', [jp('[JSONPatch{op: "add", path: "/spec/previous", value: oldObject.spec}]')], {
      operations: ['UPDATE'],
      resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['gizmos'] }],
    })
    add(
      g,
      'Widget update: oldObject read, a set list merged',
      K.widget(g, 'w1', {}, { replicas: 4, tags: ['a'] }),
      K.widget(g, 'w1', {}, { replicas: 2 }),
    )
    add(g, 'Widget update, replicas defaulted in both', K.widget(g, 'w2', {}, { tags: ['updated'] }), K.widget(g, 'w2'))
    add(
      g,
      'Gizmo update: the old spec copied in',
      K.gizmo(g, 'g1', {}, { v: 2 }),
      K.gizmo(g, 'g1', {}, { v: 1, deep: { x: [1] } }),
    )
    const d = (n: string, replicas: number) => K.deployment(g, n, {}, { replicas })
    add(g, 'Deployment scaled 1 -> 3', d('d1', 3), d('d1', 1))
    add(
      g,
      'Deployment unchanged replicas, label added',
      { ...d('d2', 2), metadata: { ...d('d2', 2).metadata, labels: { mapdiff: g, x: 'y' } } },
      d('d2', 2),
    )
    add(g, 'ConfigMap data changed', K.configMap(g, 'c1', {}, { a: '2' }), K.configMap(g, 'c1', {}, { a: '1' }))
    add(
      g,
      'ConfigMap data changed again',
      K.configMap(g, 'c2', {}, { a: '3', revision: '4' }),
      K.configMap(g, 'c2', {}, { a: '2', revision: '4' }),
    )
    add(
      g,
      'ConfigMap data unchanged',
      K.configMap(g, 'c3', { labels: { touched: 'yes' } }, { a: '1' }),
      K.configMap(g, 'c3', {}, { a: '1' }),
    )
    add(
      g,
      'Secret update: CREATE-only policy does not run',
      K.secret(g, 's1', { labels: { u: '1' } }),
      K.secret(g, 's1'),
    )
    add(g, 'Secret create: the CREATE-only policy runs', K.secret(g, 's2'))
  }

  // params
  {
    const g = 'params'
    const pcm = (name: string, data: Record<string, string>, labels: Record<string, string> = {}) =>
      params.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, labels }, data })
    pcm('mapdiff-param-team', { team: 'platform', cost: 'cc-1' })
    pcm('mapdiff-param-a', { 'from-a': '1' }, { 'mapdiff-param': 'multi' })
    pcm('mapdiff-param-b', { 'from-b': '2' }, { 'mapdiff-param': 'multi' })
    P(
      g,
      'by-name',
      [ac('Object{metadata: Object.metadata{labels: {"team": params.data.team, "cost-center": params.data.cost}}}')],
      {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        paramRef: { name: 'mapdiff-param-team', namespace: NS, parameterNotFoundAction: 'Deny' },
        resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      },
    )
    P(g, 'by-selector', [ac('Object{metadata: Object.metadata{annotations: params.data}}')], {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      paramRef: { selector: { matchLabels: { 'mapdiff-param': 'multi' } }, parameterNotFoundAction: 'Allow' },
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
    })
    P(g, 'missing-deny', [ac('Object{metadata: Object.metadata{labels: {"x": "y"}}}')], {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      paramRef: { name: 'mapdiff-param-absent', namespace: NS, parameterNotFoundAction: 'Deny' },
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
    })
    P(g, 'missing-allow', [ac('Object{metadata: Object.metadata{labels: {"x": "y"}}}')], {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      paramRef: { name: 'mapdiff-param-absent', namespace: NS, parameterNotFoundAction: 'Allow' },
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
    })
    P(g, 'request-namespace', [ac('Object{metadata: Object.metadata{annotations: {"team": params.data.team}}}')], {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      paramRef: { name: 'mapdiff-param-team', parameterNotFoundAction: 'Deny' },
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['statefulsets'] }],
    })
    add(g, 'ConfigMap: param by name', K.configMap(g, 'c1'))
    add(g, 'ConfigMap with team label: overwritten', K.configMap(g, 'c2', { labels: { team: 'app' } }))
    add(g, 'Deployment: two params by selector', K.deployment(g, 'd1'))
    add(g, 'Secret: param missing, Deny', K.secret(g, 's1'))
    add(g, 'ServiceAccount: param missing, Allow', K.serviceAccount(g, 'sa1'))
    add(g, 'StatefulSet: param in the request namespace', K.statefulSet(g, 'st1'))
  }

  // variables
  {
    const g = 'variables'
    P(
      g,
      'p',
      [
        ac(
          'Object{metadata: Object.metadata{labels: {"image-count": string(variables.count), "first": variables.first}}}',
        ),
        jp('[JSONPatch{op: "add", path: "/metadata/annotations", value: {"images": variables.images.join(",")}}]'),
      ],
      {
        variables: [
          { name: 'images', expression: 'object.spec.template.spec.containers.map(c, c.image)' },
          { name: 'count', expression: 'size(variables.images)' },
          { name: 'first', expression: 'variables.images[0].split(":")[0].replace("/", ".")' },
        ],
        resources: [
          { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'statefulsets', 'daemonsets'] },
        ],
      },
    )
    add(g, 'one image', K.deployment(g, 'd1'))
    add(
      g,
      'two images',
      K.deployment(
        g,
        'd2',
        {},
        {},
        podSpec([
          { name: 'a', image: 'ghcr.io/x:1' },
          { name: 'b', image: 'y:2' },
        ]),
      ),
    )
    add(g, 'StatefulSet with annotations (replaced by the add)', K.statefulSet(g, 's1', { annotations: { old: 'x' } }))
    add(g, 'DaemonSet', K.daemonSet(g, 'ds1'))
  }

  // reinvocation
  {
    const g = 'reinvoke'
    const inc = (n: string, rp: 'Never' | 'IfNeeded') =>
      P(
        g,
        n,
        [
          ac(`Object{metadata: Object.metadata{annotations: {
          ?"count": optional.of(string(int(object.metadata.?annotations["count"].orValue("0")) + 1)),
          "${n}-applied": "true"}}}`),
        ],
        { reinvocationPolicy: rp, resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
      )
    inc('one', 'IfNeeded')
    inc('two', 'IfNeeded')
    inc('three', 'Never')
    // a policy whose output another changes: IfNeeded sees the label the other adds
    P(
      g,
      'reads-label',
      [
        ac(
          'Object{metadata: Object.metadata{annotations: {"saw": object.metadata.?labels["added"].orValue("nothing")}}}',
        ),
      ],
      { reinvocationPolicy: 'IfNeeded', resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }] },
    )
    P(g, 'adds-label', [ac('Object{metadata: Object.metadata{labels: {"added": "yes"}}}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
    })
    add(g, 'counter from 0', K.configMap(g, 'c1', { annotations: { count: '0' } }))
    add(g, 'counter from 10', K.configMap(g, 'c2', { annotations: { count: '10' } }))
    add(g, 'no counter', K.configMap(g, 'c3'))
    add(g, 'IfNeeded sees a later label', K.secret(g, 's1'))
    add(g, 'label already there', K.secret(g, 's2', { labels: { added: 'before' } }))
  }

  // reinvocation when the policy itself made the only change, and when a later policy changes nothing
  {
    const g = 'reinvoke-self'
    const count = (n: string, rp: 'Never' | 'IfNeeded', kind: string) =>
      P(
        g,
        n,
        [
          ac(`Object{metadata: Object.metadata{annotations: {
          ?"count": optional.of(string(int(object.metadata.?annotations["count"].orValue("0")) + 1))}}}`),
        ],
        { reinvocationPolicy: rp, resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: [kind] }] },
      )
    count('alone', 'IfNeeded', 'configmaps')
    count('with-noop', 'IfNeeded', 'secrets')
    P(g, 'noop', [ac('Object{metadata: Object.metadata{labels: {"mapdiff": "reinvoke-self"}}}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
    })
    count('never', 'Never', 'serviceaccounts')
    add(g, 'an IfNeeded policy alone, changing the object', K.configMap(g, 'c1'))
    add(g, 'an IfNeeded policy and a policy that changes nothing', K.secret(g, 's1'))
    add(g, 'a Never policy alone', K.serviceAccount(g, 'sa1'))
  }

  // several mutations in one policy, and mixed patch types
  {
    const g = 'multi'
    P(g, 'p', [
      ac('Object{metadata: Object.metadata{labels: {"step": "1"}}}'),
      jp('[JSONPatch{op: "replace", path: "/metadata/labels/step", value: object.metadata.labels.step + "2"}]'),
      ac('Object{metadata: Object.metadata{labels: {"step": object.metadata.labels.step + "3"}}}'),
    ])
    add(g, 'ConfigMap', K.configMap(g, 'c1'))
    add(g, 'Deployment', K.deployment(g, 'd1'))
    add(g, 'Widget', K.widget(g, 'w1'))
    add(g, 'Gizmo', K.gizmo(g, 'g1'))
  }
  {
    const g = 'multi-fail'
    P(
      g,
      'p',
      [
        ac('Object{metadata: Object.metadata{labels: {"first": "ok"}}}'),
        jp('[JSONPatch{op: "remove", path: "/metadata/labels/absent"}]'),
      ],
      { failurePolicy: 'Fail' },
    )
    add(g, 'the second mutation fails: request denied', K.configMap(g, 'c1'))
    add(g, 'the label is there', K.configMap(g, 'c2', { labels: { absent: 'present' } }))
  }

  // validating admission after the mutating policies
  {
    const g = 'with-vap'
    P(
      g,
      'p',
      [ac('Object{metadata: Object.metadata{labels: {"owner": object.metadata.?annotations["owner"].orValue("")}}}')],
      {
        resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      },
    )
    policies.push(
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'mapdiff-with-vap-owner' },
        spec: {
          matchConstraints: {
            resourceRules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
            ],
            objectSelector: { matchLabels: { mapdiff: g } },
          },
          validations: [{ expression: 'object.metadata.labels.owner != ""', message: 'an owner is required' }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'mapdiff-with-vap-owner' },
        spec: { policyName: 'mapdiff-with-vap-owner', validationActions: ['Deny'] },
      },
    )
    add(g, 'owner annotation: label set, admitted', K.configMap(g, 'c1', { annotations: { owner: 'me' } }))
    add(g, 'no owner: label empty, denied by the VAP', K.configMap(g, 'c2'))
    add(
      g,
      'owner label given but no annotation: overwritten, denied',
      K.configMap(g, 'c3', { labels: { owner: 'given' } }),
    )
  }

  // native validation of the mutated object
  {
    const g = 'native'
    P(g, 'negative', [jp('[JSONPatch{op: "replace", path: "/spec/replicas", value: -1}]')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
    })
    P(g, 'repair', [ac('Object{spec: Object.spec{replicas: 1}}')], {
      resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['statefulsets'] }],
    })
    P(g, 'badlabel', [ac('Object{metadata: Object.metadata{labels: {"bad label!": "x"}}}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })
    P(
      g,
      'image',
      [
        ac(`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
      containers: object.spec.template.spec.containers.map(c, Object.spec.template.spec.containers{name: c.name, image: "nginx:1.27"})}}}}`),
      ],
      {
        resources: [{ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['daemonsets'] }],
      },
    )
    add(g, 'replicas made -1: 422', K.deployment(g, 'd1'))
    add(g, 'replicas -1 repaired by the policy', K.statefulSet(g, 's1', {}, { replicas: -1 }))
    add(g, 'invalid label key added: 422', K.configMap(g, 'c1'))
    add(g, 'missing image filled in by the policy', K.daemonSet(g, 'ds1', {}, podSpec([{ name: 'app' }])))
  }

  // kinds of several API groups with a JSONPatch of their own fields
  {
    const g = 'kinds'
    P(g, 'pdb', [jp('[JSONPatch{op: "replace", path: "/spec/minAvailable", value: 2}]')], {
      resources: [{ apiGroups: ['policy'], apiVersions: ['v1'], resources: ['poddisruptionbudgets'] }],
    })
    P(g, 'np', [ac('Object{spec: Object.spec{policyTypes: ["Ingress", "Egress"]}}')], {
      resources: [{ apiGroups: ['networking.k8s.io'], apiVersions: ['v1'], resources: ['networkpolicies'] }],
    })
    P(g, 'hpa', [ac('Object{spec: Object.spec{minReplicas: 2}}')], {
      resources: [{ apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] }],
    })
    P(g, 'cj', [ac('Object{spec: Object.spec{suspend: true, concurrencyPolicy: "Forbid"}}')], {
      resources: [{ apiGroups: ['batch'], apiVersions: ['v1'], resources: ['cronjobs'] }],
    })
    P(
      g,
      'role',
      [
        jp(
          '[JSONPatch{op: "add", path: "/rules/-", value: {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["list"]}}]',
        ),
      ],
      {
        resources: [{ apiGroups: ['rbac.authorization.k8s.io'], apiVersions: ['v1'], resources: ['roles'] }],
      },
    )
    P(g, 'ing', [ac('Object{spec: Object.spec{ingressClassName: "nginx"}}')], {
      resources: [{ apiGroups: ['networking.k8s.io'], apiVersions: ['v1'], resources: ['ingresses'] }],
    })
    P(g, 'sa', [ac('Object{automountServiceAccountToken: false}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts'] }],
    })
    P(g, 'secret', [ac('Object{type: "kelp.dev/custom"}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
    })
    add(g, 'PodDisruptionBudget minAvailable', K.pdb(g, 'pdb1'))
    add(g, 'NetworkPolicy policyTypes (atomic list?)', K.networkPolicy(g, 'np1'))
    add(g, 'HorizontalPodAutoscaler minReplicas', K.hpa(g, 'hpa1'))
    add(g, 'CronJob suspend', K.cronJob(g, 'cj1'))
    add(g, 'Role: a rule appended', K.role(g, 'r1'))
    add(g, 'Ingress class', K.ingress(g, 'ing1'))
    add(g, 'ServiceAccount automount', K.serviceAccount(g, 'sa1'))
    add(g, 'Secret type', K.secret(g, 's1'))
  }

  // a breadth sweep: each kind x each of four mutations (labels AC, annotations JP, data/spec AC, a no-op)
  {
    const kinds: [string, (g: string, n: string) => Obj][] = [
      ['cm', (g, n) => K.configMap(g, n, { annotations: { a: '1' } })],
      ['secret', (g, n) => K.secret(g, n, { annotations: { a: '1' } })],
      ['sa', (g, n) => K.serviceAccount(g, n, { annotations: { a: '1' } })],
      ['deploy', (g, n) => K.deployment(g, n, { annotations: { a: '1' } })],
      ['sts', (g, n) => K.statefulSet(g, n, { annotations: { a: '1' } })],
      ['ds', (g, n) => K.daemonSet(g, n, { annotations: { a: '1' } })],
      ['cj', (g, n) => K.cronJob(g, n, { annotations: { a: '1' } })],
      ['role', (g, n) => K.role(g, n, { annotations: { a: '1' } })],
      ['pdb', (g, n) => K.pdb(g, n, { annotations: { a: '1' } })],
      ['np', (g, n) => K.networkPolicy(g, n, { annotations: { a: '1' } })],
      ['ing', (g, n) => K.ingress(g, n, { annotations: { a: '1' } })],
      ['hpa', (g, n) => K.hpa(g, n, { annotations: { a: '1' } })],
      ['widget', (g, n) => K.widget(g, n, { annotations: { a: '1' } }, { replicas: 2 })],
      ['gizmo', (g, n) => K.gizmo(g, n, { annotations: { a: '1' } }, { any: 'thing' })],
    ]
    const sweeps: [string, Obj[]][] = [
      ['sweep-ac', [ac('Object{metadata: Object.metadata{labels: {"swept": "ac"}, annotations: {"b": "2"}}}')]],
      ['sweep-jp', [jp('[JSONPatch{op: "replace", path: "/metadata/annotations", value: {"only": object.kind}}]')]],
      [
        'sweep-both',
        [
          jp('[JSONPatch{op: "add", path: "/metadata/labels/first", value: "jp"}]'),
          ac('Object{metadata: Object.metadata{labels: {"second": object.metadata.labels.first + "-ac"}}}'),
        ],
      ],
      [
        'sweep-noop',
        [ac('Object{}'), jp('object.metadata.name == "" ? [JSONPatch{op: "add", path: "/x", value: 1}] : []')],
      ],
    ]
    for (const [g, mutations] of sweeps) {
      P(g, 'p', mutations)
      for (const [k, make] of kinds) add(g, k, make(g, `${k}-1`))
    }
  }

  // Keys named like Object.prototype members (`__proto__`, `constructor`, `toString`, …): data like any
  // other key to the apiserver, stored as given; a policy that adds one key leaves the others
  {
    const g = 'proto-ac'
    const configMaps = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }]
    P(g, 'p', [ac('Object{data: {"added": "1"}}')], { resources: configMaps })
    add(
      g,
      'ConfigMap: data, labels and annotations named like Object.prototype members',
      K.configMap(g, 'cm1', { labels: PROTO_LABELS, annotations: PROTO_ANNOTATIONS }, PROTO_DATA),
    )
    add(g, 'ConfigMap: data key __proto__ only', K.configMap(g, 'cm2', {}, entries([['__proto__', 'only']])))
    add(g, 'ConfigMap: no data', K.configMap(g, 'cm3', { labels: PROTO_LABELS }))
    // `__proto__` is not a qualified name: the label is refused (Invalid), not lost
    add(
      g,
      'ConfigMap: label key __proto__',
      K.configMap(g, 'cm4', { labels: entries([['__proto__', 'x']]) }, PROTO_DATA),
    )
  }
  {
    const g = 'proto-label'
    P(g, 'p', [ac('Object{metadata: Object.metadata{labels: {"team": "blue"}}}')])
    add(g, 'ConfigMap: a label added, __proto__ data kept', K.configMap(g, 'cm1', { labels: PROTO_LABELS }, PROTO_DATA))
    add(g, 'Secret: stringData named like Object.prototype members', {
      ...K.secret(g, 's1', { annotations: PROTO_ANNOTATIONS }),
      stringData: PROTO_DATA,
    })
    add(
      g,
      'Widget: free-form maps',
      K.widget(g, 'w1', {}, { extra: PROTO_DATA, free: entries([['constructor', PROTO_DATA]]) }),
    )
    add(
      g,
      'Gizmo: preserved unknown fields',
      K.gizmo(
        g,
        'gz1',
        {},
        entries([
          ['__proto__', PROTO_DATA],
          ['toString', [PROTO_DATA]],
        ]),
      ),
    )
    add(g, 'Proto: properties named like Object.prototype members', {
      apiVersion: 'mapdiff.example.com/v1',
      kind: 'Proto',
      metadata: meta(g, 'p1'),
      spec: entries([
        ['__proto__', 'given'],
        ['constructor', 'c'],
        ['toString', 3],
        ['extra', PROTO_DATA],
      ]),
    })
    add(g, 'Proto: the __proto__ property defaulted', {
      apiVersion: 'mapdiff.example.com/v1',
      kind: 'Proto',
      metadata: meta(g, 'p2'),
      spec: entries([['constructor', 'c']]),
    })
  }
  {
    const g = 'proto-jp'
    const configMaps = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }]
    P(g, 'data', [jp('[JSONPatch{op: "add", path: "/data/added", value: "1"}]')], { resources: configMaps })
    P(
      g,
      'copy',
      [jp('[JSONPatch{op: "add", path: "/metadata/annotations/copied", value: object.data["__proto__"]}]')],
      {
        resources: configMaps,
      },
    )
    add(
      g,
      'ConfigMap: data, labels and annotations named like Object.prototype members',
      K.configMap(g, 'cm1', { labels: PROTO_LABELS, annotations: PROTO_ANNOTATIONS }, PROTO_DATA),
    )
  }
  {
    // a policy naming a field like an Object.prototype member: not declared in the ConfigMap schema
    const g = 'proto-fields'
    P(g, 'p', [ac('Object{metadata: Object.metadata{constructor: "x"}}')], {
      resources: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })
    add(g, 'ConfigMap: Object.metadata{constructor: …}', K.configMap(g, 'cm1', {}, PROTO_DATA))
  }

  // Integers past 2^53: cel-go's JSON conversion writes a JSONPatch value's int64 as a decimal string
  // (an Object…{} value's fields as float64); the ApplyConfiguration patch keeps the int64 exact
  {
    const g = 'int64-jp'
    P(g, 'p', [
      jp(`[
        JSONPatch{op: "add", path: "/metadata/annotations/big", value: 9007199254740993},
        JSONPatch{op: "add", path: "/metadata/annotations/negative", value: -9007199254740995},
        JSONPatch{op: "add", path: "/metadata/annotations/unsigned", value: 18446744073709551615u}
      ]`),
    ])
    add(g, 'ConfigMap: annotations', K.configMap(g, 'cm1', { annotations: { keep: 'me' } }))
    add(g, 'Widget: annotations', K.widget(g, 'w1', { annotations: { keep: 'me' } }))
  }
  {
    // the decimal string in an integer field: refused by the CRD's validation
    const g = 'int64-jp-widget'
    P(g, 'p', [jp('[JSONPatch{op: "add", path: "/spec/replicas", value: 9007199254740993}]')])
    add(g, 'Widget: spec.replicas', K.widget(g, 'w1', {}, { replicas: 2 }))
  }
  {
    const g = 'int64-jp-gizmo'
    P(g, 'p', [
      jp(`[
        JSONPatch{op: "add", path: "/spec/list", value: [9007199254740993, 1]},
        JSONPatch{op: "add", path: "/spec/map", value: {"big": 9007199254740993}},
        JSONPatch{op: "add", path: "/spec/object", value: Object.spec.object{big: 9007199254740993}}
      ]`),
    ])
    add(g, 'Gizmo', K.gizmo(g, 'gz1', {}, { keep: 9007199254740995n }))
  }
  {
    const g = 'int64-ac'
    P(
      g,
      'p',
      [ac('Object{spec: Object.spec{replicas: 9007199254740993, big: 9007199254740993, list: [9007199254740993]}}')],
      {
        resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['gizmos'] }],
      },
    )
    P(g, 'w', [ac('Object{spec: Object.spec{replicas: object.spec.replicas + 2}}')], {
      resources: [{ apiGroups: ['mapdiff.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
    })
    add(g, 'Gizmo', K.gizmo(g, 'gz1', {}, { keep: -9007199254740995n }))
    add(g, 'Widget: replicas 9007199254740991 + 2', K.widget(g, 'w1', {}, { replicas: 9007199254740991 }))
  }

  // the bundled mutating examples (policies/mutating/), their bindings confined to this group's objects,
  // and the objects of their kelp test suites
  {
    const g = 'examples'
    const dir = join(ROOT, 'policies/mutating')
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
      for (const d of parseAllDocuments(readFileSync(join(dir, f), 'utf8'))) {
        const o = d.toJS() as Obj
        if (o.kind === 'MutatingAdmissionPolicyBinding')
          o.spec.matchResources = { ...o.spec.matchResources, objectSelector: { matchLabels: { mapdiff: g } } }
        policies.push(o)
      }
    }
    const suites = join(dir, 'tests')
    for (const f of readdirSync(suites).filter((f) => f.endsWith('.kelp-test.yaml'))) {
      const suite = parseAllDocuments(readFileSync(join(suites, f), 'utf8'))[0]?.toJS() as Obj
      for (const t of suite.tests as Obj[]) {
        const o = structuredClone(t.object) as Obj
        if (RESOURCE_KINDS.has(`${o.apiVersion}/${o.kind}`) === false) continue
        const m = o.metadata
        const name =
          m.name === undefined
            ? undefined
            : `${g}-${String(counters.get(g) ?? 0)}-${m.name}`.slice(0, 63).replace(/-+$/, '')
        o.metadata = { ...m, ...(name ? { name } : {}), namespace: NS, labels: { ...(m.labels ?? {}), mapdiff: g } }
        add(g, `${f}: ${t.name}`, o)
      }
    }
  }

  return { crds, params, policies, cases }
}

/** The kinds the e2e test can write (its resource table); the suites' Pods are left out (see the test). */
const RESOURCE_KINDS = new Set([
  'v1/ConfigMap',
  'v1/Secret',
  'v1/ServiceAccount',
  'apps/v1/Deployment',
  'apps/v1/StatefulSet',
  'apps/v1/DaemonSet',
  'batch/v1/CronJob',
])
