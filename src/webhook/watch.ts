import { createHash } from 'node:crypto'
import { type FSWatcher, statSync, watch } from 'node:fs'
import { dirname } from 'node:path'
import type { Logger } from '../report/log.js'
import type { ReloadTarget } from './metrics.js'

// Watching what `kelp serve` reloads: the policy paths and the certificate files, each through its
// directory (so that the atomic `..data` symlink swaps of ConfigMap / Secret volumes are seen); changes
// are debounced, and a target is watched again after each reload (a replaced directory needs a new
// watch) and, when a watch cannot be set, every 2 s. As controller-runtime's pkg/certwatcher
// (certwatcher.go: Watch, handleEvent, ReadCertificate on a change), for the policies too.

/** What a reload did: loaded, nothing changed (same fingerprint), or failed (the last good one serves). */
export interface ReloadResult {
  readonly target: ReloadTarget
  readonly outcome: 'loaded' | 'unchanged' | 'failed'
  readonly errors?: readonly string[]
}

/** A fingerprint of what was read (each part length-prefixed): a reload of the same bytes is `unchanged`. */
export const fingerprintOf = (parts: readonly (string | Buffer)[]): string => {
  const h = createHash('sha256')
  for (const p of parts) {
    h.update(String(Buffer.byteLength(p)))
    h.update(':')
    h.update(p)
  }
  return h.digest('hex')
}

export interface WatcherOptions {
  readonly log: Logger
  /** Quiet period before a reload after the last change. */
  readonly debounceMs: number
  /** The files and directories of each target. */
  readonly paths: (target: ReloadTarget) => readonly string[]
  /** Each target's reload (a promise's failure is logged as a throw is). */
  readonly reload: Readonly<Record<ReloadTarget, () => unknown>>
}

export interface Watcher {
  /** Watches a target (again). */
  arm(target: ReloadTarget): void
  /** Stops watching; no reload starts after it. */
  close(): void
}

export function createWatcher(options: WatcherOptions): Watcher {
  const { log, debounceMs } = options
  let closed = false
  const timers = new Map<ReloadTarget, NodeJS.Timeout>()
  const watchers = new Map<ReloadTarget, FSWatcher[]>()
  const rearmTimers = new Map<ReloadTarget, NodeJS.Timeout>()
  const schedule = (target: ReloadTarget) => {
    if (closed) return
    const t = timers.get(target)
    if (t !== undefined) clearTimeout(t)
    timers.set(
      target,
      setTimeout(() => {
        timers.delete(target)
        if (closed) return
        const fail = (e: unknown) => log.error('reload failed', { target, error: e })
        try {
          const r = options.reload[target]()
          if (r instanceof Promise) r.catch(fail)
        } catch (e) {
          fail(e)
        }
        arm(target) // a replaced directory needs a new watch
      }, debounceMs),
    )
  }
  const watchTargets = (target: ReloadTarget): { path: string; recursive: boolean }[] => {
    const out = new Map<string, boolean>()
    for (const p of options.paths(target)) {
      let dir = false
      try {
        dir = statSync(p).isDirectory()
      } catch {
        // missing: watch its directory, so that its creation is seen
      }
      if (dir) out.set(p, true)
      else if (!out.has(dirname(p))) out.set(dirname(p), false)
    }
    return [...out].map(([path, recursive]) => ({ path, recursive }))
  }
  const disarm = (target: ReloadTarget) => {
    for (const w of watchers.get(target) ?? []) w.close()
    watchers.delete(target)
    const r = rearmTimers.get(target)
    if (r !== undefined) clearTimeout(r)
    rearmTimers.delete(target)
  }
  const arm = (target: ReloadTarget) => {
    if (closed) return
    disarm(target)
    const list: FSWatcher[] = []
    let failed = false
    for (const { path, recursive } of watchTargets(target)) {
      try {
        const w = watch(path, { recursive, persistent: false }, () => schedule(target))
        w.on('error', (e) => {
          log.warn('watch failed; watching again', { target, path, error: (e as Error).message })
          schedule(target)
        })
        list.push(w)
      } catch (e) {
        failed = true
        log.warn('cannot watch', { target, path, error: (e as Error).message })
      }
    }
    watchers.set(target, list)
    if (failed) {
      const t = setTimeout(() => arm(target), 2000)
      t.unref()
      rearmTimers.set(target, t)
    }
  }
  return {
    arm,
    close() {
      closed = true
      for (const t of ['policies', 'certificate'] as const) disarm(t)
      for (const t of timers.values()) clearTimeout(t)
      timers.clear()
    },
  }
}
