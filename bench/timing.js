// One whole process timed as a user's shell would see it, shared by bench/cli.js and bench/cold.js: wall time,
// CPU time (user + system, the process and its threads; what a busy shared machine disturbs least) and peak RSS,
// from GNU time's `-f '%M %U %S'`.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

export const GNU_TIME = '/usr/bin/time'

/**
 * Runs `cmd args` (stdout discarded, stderr kept for GNU time's line) and returns { ms, cpu, rss (MiB), status,
 * stderr }. Without GNU time: wall time only, cpu and rss NaN.
 */
export function timed(cmd, args, options = {}) {
  const spawn = { cwd: options.cwd, env: options.env, encoding: 'utf8', maxBuffer: 1 << 30, stdio: 'pipe' }
  const start = process.hrtime.bigint()
  if (!existsSync(GNU_TIME)) {
    const r = spawnSync(cmd, args, spawn)
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    return { ms, cpu: Number.NaN, rss: Number.NaN, status: r.status, stderr: r.stderr ?? '', stdout: r.stdout }
  }
  const r = spawnSync(GNU_TIME, ['-f', '%M %U %S', cmd, ...args], spawn)
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.error) throw r.error
  const lines = (r.stderr ?? '').trimEnd().split('\n')
  const [kb, user, sys] = (lines.at(-1) ?? '').split(' ').map(Number)
  return {
    ms,
    cpu: ((user ?? 0) + (sys ?? 0)) * 1000,
    rss: (kb ?? 0) / 1024,
    status: r.status,
    stderr: lines.slice(0, -1).join('\n'),
    stdout: r.stdout,
  }
}

/** The median (the upper one of an even count). */
export const median = (xs) => {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : s[Math.floor(s.length / 2)]
}
