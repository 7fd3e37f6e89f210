// vitest globalSetup: the run's own temporary directory, removed when the run ends. Suites create their
// scratch directories with mkdtempSync(os.tmpdir()) and many do not remove them (a CLI test's repository, a
// 145 MB large input): left in /tmp, a developer's runs piled up gigabytes. os.tmpdir() reads TMPDIR, set
// here before the workers start, so they and the processes they spawn with this environment write below
// the run's directory.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'kelp-test-run-'))
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
