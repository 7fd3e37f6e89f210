import { decodeStruct, inKubectlOrder } from '../builtin/decode.js'
import { kindStruct } from '../builtin/gotypes.js'
import type { BuiltinResult } from '../builtin/index.js'
import { goQuote } from '../cel/ext/quote.js'
import { validatePathSegment } from '../kube/validation/objectmeta.js'
import { isObject, type JSONObject } from '../kube/values/json.js'

// What kubectl itself refuses or rewrites before the apiserver answers, measured against kubectl 1.37.2
// (its client-side validation of apiVersion and kind is the manifest reader's: src/manifest/load.ts; the
// size limits of what `kubectl apply` sends: apply-sizes.ts).

/** kubectl apply with no object (kubectl/pkg/cmd/apply apply.go: `error: no objects passed to apply`). */
export const NO_OBJECTS_PASSED = 'no objects passed to apply'

/**
 * kubectl apply's refusal of an object with metadata.generateName and no name, before it sends it
 * (kubectl/pkg/cmd/apply apply.go applyOneObject): `error: from <generateName>: cannot use generate name with apply`.
 */
export const generateNameRefusal = (generateName: string): string =>
  `from ${generateName}: cannot use generate name with apply`

/**
 * What kubectl refuses before it sends anything (undefined: nothing), in its words: a built-in object whose
 * metadata does not decode (cli-runtime resource/mapper.go infoForData: `unable to decode "<file>": json: cannot
 * unmarshal …` or `parsing time …`, the same error the apiserver's decoding gives), and a name that is not a path
 * segment (client-go rest/request.go `invalid resource name "a/b": [may not contain '/']`, the GET kubectl apply
 * starts with), or no name at all (`resource name may not be empty`). `metadataDecoded`: the engine decoded the
 * object's metadata cleanly (metadataDecoded), so kubectl's probe of it needs no decoding again.
 */
export function kubectlRefusal(o: JSONObject, file: string, metadataDecoded: boolean): string | undefined {
  const undecoded = metadataDecoded ? undefined : kubectlDecodeRefusal(o, file)
  if (undecoded !== undefined) return undecoded
  const meta = isObject(o.metadata) ? o.metadata : {}
  // no name: the GET kubectl apply starts with has no path (client-go rest/request.go); a generateName is
  // checked as kubectl create sends it (check/notes.ts)
  if ((meta.name === undefined || meta.name === null || meta.name === '') && !meta.generateName)
    return 'resource name may not be empty'
  if (typeof meta.name === 'string' && meta.name !== '') {
    const msgs = validatePathSegment(meta.name, false)
    if (msgs.length > 0) return `invalid resource name ${goQuote(meta.name)}: [${msgs.join(' ')}]`
  }
  return undefined
}

/**
 * kubectl's refusal of an object whose metadata does not decode (undefined: it decodes). kubectl decodes each
 * document before it maps its kind to a resource (cli-runtime resource/mapper.go infoForData), so this error comes
 * before `no matches for kind` too, for an apiVersion the cluster does not serve.
 */
export function kubectlDecodeRefusal(o: JSONObject, file: string): string | undefined {
  if (o.metadata === undefined) return undefined
  // kubectl decodes every object's metadata into an ObjectMeta, whatever its kind: a ConfigMap's decoder stands
  // for it (the error names the struct ObjectMeta and the path from metadata)
  const probe = decodeStruct(kindStruct('v1', 'ConfigMap')!, { metadata: o.metadata }, false)
  // a field's type error, or a time that does not parse (metav1.Time's UnmarshalJSON: creationTimestamp,
  // deletionTimestamp, managedFields' times)
  const error = probe.error
  if (
    error !== undefined &&
    (error.includes('Go struct field ObjectMeta.metadata') || error.startsWith('parsing time '))
  )
    return `unable to decode ${goQuote(file === '-' ? 'STDIN' : file)}: ${error}`
  return undefined
}

/**
 * Whether a built-in's decoding met no error and no unknown field: its metadata then decoded into ObjectMeta
 * as kubectl's probe would (the same struct; a field the target release lacks would be an unknown field).
 */
export const metadataDecoded = (b: BuiltinResult | undefined): boolean =>
  b !== undefined && b.object !== undefined && b.decodeError === undefined && b.warnings.length === 0

const STRICT =
  /^(.* cannot be handled as a \S+: strict decoding error: )((?:unknown field "(?:[^"\\]|\\.)*"(?:, |$))+)$/

/**
 * A strict decoding error's unknown fields in the order the apiserver meets them in the body kubectl sends
 * (kubectl writes the object's keys sorted); undefined when the message names fewer than two.
 */
export function unknownFieldsInKubectlOrder(message: string): string | undefined {
  // what every message STRICT matches holds: one test instead of the pattern on every finding of every object
  if (!message.includes(': strict decoding error: unknown field "')) return undefined
  const m = STRICT.exec(message)
  if (m === null) return undefined
  const fields = [...m[2]!.matchAll(/unknown field "((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]!)
  if (fields.length < 2) return undefined
  return `${m[1]}${inKubectlOrder(fields)
    .map((x) => `unknown field "${x}"`)
    .join(', ')}`
}
