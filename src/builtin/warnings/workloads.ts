import { FieldPath } from '../../kube/field.js'
import { isDNS1123Label } from '../../kube/validation/names.js'
import { deepEqual, type JSONObject } from '../../kube/values/json.js'
import { annotationsOf, nameOf, num, obj, objs, str } from './common.js'
import { getWarningsForPod, getWarningsForPodTemplate } from './pod.js'
import { getWarningsForPersistentVolumeClaimSpec } from './storage.js'

// The pod-bearing kinds' WarningsOnCreate / WarningsOnUpdate (k8s.io/kubernetes v1.37.2
// pkg/registry/{core/pod,core/podtemplate,core/replicationcontroller,apps/*,batch/*}/strategy.go,
// pkg/api/job/warnings.go). On update a template is warned about only when the write changes the
// generation, which PrepareForUpdate increments when the spec changed (a Deployment: or its
// annotations; a PodTemplate: its template; a DaemonSet's WarningsOnUpdate compares templateGeneration,
// which changes with the template). A Pod warns on create only.

const TEMPLATE = FieldPath.of('spec', 'template')

/** The name warning of kinds whose name becomes pod names or hostnames (`%v` of the messages: `[a b]`). */
function nameWarning(o: JSONObject, what: string): string[] {
  const msgs = isDNS1123Label(nameOf(o))
  return msgs.length === 0
    ? []
    : [
        `metadata.name: this is used in ${what}, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`,
      ]
}
const POD_NAMES = 'Pod names and hostnames'

const spec = (o: JSONObject | undefined): JSONObject => obj(o?.spec) ?? {}
const specChanged = (o: JSONObject, old: JSONObject): boolean => !deepEqual(spec(o), spec(old))

const COMPLETIONS_SOFT_LIMIT = 100_000
const PARALLELISM_SOFT_LIMIT = 10_000

/** WarningsForJobSpec: a large Indexed job, then its pod template. */
function warningsForJobSpec(p: FieldPath, jobSpec: JSONObject, minor: number): string[] {
  const warnings: string[] = []
  if (jobSpec.completionMode === 'Indexed') {
    const completions = num(jobSpec.completions) ?? 0
    const parallelism = num(jobSpec.parallelism) ?? 0
    if (completions > COMPLETIONS_SOFT_LIMIT && parallelism > PARALLELISM_SOFT_LIMIT)
      warnings.push(
        `${p}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`,
      )
  }
  warnings.push(...getWarningsForPodTemplate(p.child('template'), jobSpec.template, minor))
  return warnings
}

const NEGATIVE_HISTORY =
  'spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended'

/** A kind's WarningsOnCreate and WarningsOnUpdate. */
export interface KindWarnings {
  readonly onCreate: (o: JSONObject, minor: number) => string[]
  readonly onUpdate: (o: JSONObject, old: JSONObject, minor: number) => string[]
}

export const pod: KindWarnings = {
  onCreate: (o, minor) => [...nameWarning(o, "the Pod's hostname"), ...getWarningsForPod(o, minor)],
  // skipped on update: humans rarely write pods, and the evaluation would cost on a frequent path
  onUpdate: () => [],
}

export const podTemplate: KindWarnings = {
  onCreate: (o, minor) => getWarningsForPodTemplate(FieldPath.of('template'), o.template, minor),
  onUpdate: (o, old, minor) =>
    deepEqual(o.template ?? {}, old.template ?? {})
      ? []
      : getWarningsForPodTemplate(FieldPath.of('template'), o.template, minor),
}

export const replicationController: KindWarnings = {
  onCreate: (o, minor) => [
    ...nameWarning(o, POD_NAMES),
    ...getWarningsForPodTemplate(TEMPLATE, spec(o).template, minor),
  ],
  // Go passes the old template as the one to warn about (rcStrategy.WarningsOnUpdate)
  onUpdate: (o, old, minor) =>
    specChanged(o, old) ? getWarningsForPodTemplate(TEMPLATE, spec(old).template, minor) : [],
}

/** Deployment and ReplicaSet: the name, then the template. */
function namedTemplate(generationBumped: (o: JSONObject, old: JSONObject) => boolean): KindWarnings {
  return {
    onCreate: (o, minor) => [
      ...nameWarning(o, POD_NAMES),
      ...getWarningsForPodTemplate(TEMPLATE, spec(o).template, minor),
    ],
    onUpdate: (o, old, minor) =>
      generationBumped(o, old) ? getWarningsForPodTemplate(TEMPLATE, spec(o).template, minor) : [],
  }
}

export const deployment = namedTemplate(
  (o, old) => specChanged(o, old) || !deepEqual(annotationsOf(o) ?? {}, annotationsOf(old) ?? {}),
)
export const replicaSet = namedTemplate(specChanged)

export const daemonSet: KindWarnings = {
  onCreate: (o, minor) => getWarningsForPodTemplate(TEMPLATE, spec(o).template, minor),
  onUpdate: (o, old, minor) =>
    deepEqual(spec(o).template ?? {}, spec(old).template ?? {})
      ? []
      : getWarningsForPodTemplate(TEMPLATE, spec(o).template, minor),
}

export const statefulSet: KindWarnings = {
  onCreate: (o, minor) => {
    const warnings = getWarningsForPodTemplate(TEMPLATE, spec(o).template, minor)
    warnings.push(
      ...objs(spec(o).volumeClaimTemplates).flatMap((pvc, i) =>
        getWarningsForPersistentVolumeClaimSpec(FieldPath.of('spec', 'volumeClaimTemplates').index(i), spec(pvc)),
      ),
    )
    const limit = num(spec(o).revisionHistoryLimit)
    // (from 1.33)
    if (minor >= 33 && limit !== undefined && limit < 0) warnings.push(NEGATIVE_HISTORY)
    return warnings
  },
  onUpdate: (o, old, minor) => {
    const warnings = specChanged(o, old) ? getWarningsForPodTemplate(TEMPLATE, spec(o).template, minor) : []
    // Go's path here: `.Spec` after the index
    warnings.push(
      ...objs(spec(o).volumeClaimTemplates).flatMap((pvc, i) =>
        getWarningsForPersistentVolumeClaimSpec(
          FieldPath.of('spec', 'volumeClaimTemplates').index(i).child('Spec'),
          spec(pvc),
        ),
      ),
    )
    const limit = num(spec(o).revisionHistoryLimit)
    if (minor >= 33 && limit !== undefined && limit < 0) warnings.push(NEGATIVE_HISTORY)
    return warnings
  },
}

export const job: KindWarnings = {
  onCreate: (o, minor) => [...nameWarning(o, POD_NAMES), ...warningsForJobSpec(FieldPath.of('spec'), spec(o), minor)],
  onUpdate: (o, old, minor) => (specChanged(o, old) ? warningsForJobSpec(FieldPath.of('spec'), spec(o), minor) : []),
}

const JOB_TEMPLATE = FieldPath.of('spec', 'jobTemplate', 'spec')
const jobTemplateSpec = (o: JSONObject): JSONObject => spec(obj(spec(o).jobTemplate))

export const cronJob: KindWarnings = {
  onCreate: (o, minor) => [
    ...nameWarning(o, POD_NAMES),
    ...warningsForJobSpec(JOB_TEMPLATE, jobTemplateSpec(o), minor),
  ],
  onUpdate: (o, old, minor) => {
    const warnings = specChanged(o, old) ? warningsForJobSpec(JOB_TEMPLATE, jobTemplateSpec(o), minor) : []
    // Go's path: spec.spec.schedule
    if (str(spec(o).schedule).includes('TZ'))
      warnings.push(
        'cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
      )
    return warnings
  },
}
