import { parentPort } from 'node:worker_threads'
import type { PolicySet } from '../engine/policy-set.js'
import type { DeepReply, DeepRequest } from './deep.js'
import { createAdmissionHandler, errorResponse, type HandlerResponse } from './handler.js'
import { buildServingSets } from './reload.js'

// The deep lane's thread (deep.ts): started with a large stack, it builds the serving sets from the
// policy files the main thread serves (the same texts and options, so the same sets) and answers the
// reviews it is sent, their bodies serialised here.

let fingerprint: string | undefined
let sets: Promise<{ set: PolicySet; mutating: PolicySet } | { errors: string[] }> | undefined
let validating: PolicySet | undefined
let mutating: PolicySet | undefined
const handler = createAdmissionHandler(() => validating)
const mutateHandler = createAdmissionHandler(() => mutating, { mode: 'mutate' })

const port = parentPort
if (port === null) throw new Error('deep-worker.js runs as a worker thread of kelp serve')

// one review at a time, in the order sent: a set is (re)built before the review that needs it
let queue = Promise.resolve()
port.on('message', (m: DeepRequest) => {
  queue = queue.then(() => answer(m))
})

async function answer(m: DeepRequest): Promise<void> {
  let r: HandlerResponse
  try {
    if (m.files !== undefined) {
      fingerprint = m.fingerprint
      sets = buildServingSets(m.files.read, m.files.options).then((l) => (l.ok ? l : { errors: l.errors }))
    }
    const loaded =
      sets !== undefined && fingerprint === m.fingerprint
        ? await sets
        : { errors: [`the policy files ${m.fingerprint} were not sent to this thread`] }
    if ('errors' in loaded) r = errorResponse(500, `policy set not loaded: ${loaded.errors.join('; ')}`)
    else {
      validating = loaded.set
      mutating = loaded.mutating
      r = (m.mutate ? mutateHandler : handler).handle(m.body)
    }
  } catch (e) {
    r = errorResponse(500, `internal error evaluating the request: ${(e as Error).message}`)
  }
  let body: string
  try {
    body = JSON.stringify(r.body)
  } catch (e) {
    r = errorResponse(500, `internal error writing the answer: ${(e as Error).message}`)
    body = JSON.stringify(r.body)
  }
  const reply: DeepReply = { id: m.id, status: r.status, headers: r.headers ?? {}, body }
  port?.postMessage(reply)
}
