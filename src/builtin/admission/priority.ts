import { isObject, type JSONObject } from '../../kube/values/json.js'

// The Priority admission plugin (kubernetes plugin/pkg/admission/priority/admission.go admitPod), on by
// default: a Pod's priorityClassName resolved to its PriorityClass's value and preemptionPolicy, written into
// spec.priority and spec.preemptionPolicy (a Pod giving a different one is refused). The two system classes
// exist in every cluster (pkg/apis/scheduling/types.go SystemPriorityClasses, created by the apiserver);
// other classes come from the inputs. Without a name, the global default class of the inputs (the lowest
// value among several) or priority 0 with PreemptLowerPriority (DefaultPriorityWhenNoDefaultClassExists).

/** pkg/apis/scheduling SystemPriorityClasses: name → value (preemptionPolicy PreemptLowerPriority, defaulted). */
export const SYSTEM_PRIORITY_CLASSES: ReadonlyMap<string, number> = new Map([
  ['system-node-critical', 2000001000],
  ['system-cluster-critical', 2000000000],
])

const PreemptLowerPriority = 'PreemptLowerPriority'

interface Established {
  readonly name: string
  readonly value: number
  readonly preemptionPolicy: string | undefined
}

/**
 * Admit on a Pod CREATE, in place: undefined when done; `{ error }` the plugin's Forbidden text; `{ unknown }`
 * the class is neither a system one nor among the given classes, and no classes were given (nothing set).
 */
export function admitPriority(
  pod: JSONObject,
  classes: ReadonlyMap<string, JSONObject> | undefined,
): { readonly error: string } | { readonly unknown: string } | undefined {
  if (!isObject(pod.spec)) return undefined
  const spec = pod.spec
  const name = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : ''
  let pc: Established
  if (name === '') pc = defaultPriority(classes)
  else {
    const found = resolvePriorityClass(name, classes)
    if (found === undefined)
      return classes === undefined ? { unknown: name } : { error: `no PriorityClass with name ${name} was found` }
    pc = found
  }
  spec.priorityClassName = pc.name
  if (typeof spec.priority === 'number' && spec.priority !== pc.value)
    return {
      error: `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${pc.value} from the given PriorityClass name`,
    }
  spec.priority = pc.value
  if (pc.preemptionPolicy !== undefined) {
    if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== pc.preemptionPolicy)
      return {
        error: `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${pc.preemptionPolicy} from the given PriorityClass name`,
      }
    spec.preemptionPolicy = pc.preemptionPolicy
  }
  if (spec.priorityClassName === '') delete spec.priorityClassName
  return undefined
}

/** On a Pod UPDATE: a priority or preemptionPolicy left out keeps the old Pod's. */
export function admitPriorityUpdate(pod: JSONObject, old: JSONObject | undefined): void {
  if (!isObject(pod.spec) || old === undefined || !isObject(old.spec)) return
  if (pod.spec.priority === undefined && old.spec.priority !== undefined) pod.spec.priority = old.spec.priority
  if (pod.spec.preemptionPolicy === undefined && old.spec.preemptionPolicy !== undefined)
    pod.spec.preemptionPolicy = old.spec.preemptionPolicy
}

const established = (pc: JSONObject, name: string): Established => ({
  name,
  value: typeof pc.value === 'number' ? pc.value : 0,
  preemptionPolicy: typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : undefined,
})

/** resolvePriorityClass: the given class, else a system one (the apiserver creates them at start). */
function resolvePriorityClass(name: string, classes: ReadonlyMap<string, JSONObject> | undefined) {
  const given = classes?.get(name)
  if (given !== undefined) return established(given, name)
  const system = SYSTEM_PRIORITY_CLASSES.get(name)
  return system === undefined ? undefined : { name, value: system, preemptionPolicy: PreemptLowerPriority }
}

/** getDefaultPriority: the globalDefault class of the lowest value, else 0 and PreemptLowerPriority. */
function defaultPriority(classes: ReadonlyMap<string, JSONObject> | undefined): Established {
  let best: [string, JSONObject] | undefined
  for (const [name, pc] of classes ?? [])
    if (pc.globalDefault === true && (best === undefined || (best[1].value as number) > (pc.value as number)))
      best = [name, pc]
  return best !== undefined
    ? established(best[1], best[0])
    : { name: '', value: 0, preemptionPolicy: PreemptLowerPriority }
}
