// The GitHub Action's step (action.yml): kelp check run once (-o json, the built CLI as a user runs it), then, from
// its report, the annotations (kelp's -o github: workflow commands on stdout), the SARIF file when asked, the step's
// outputs ($GITHUB_OUTPUT) and a Markdown job summary ($GITHUB_STEP_SUMMARY); the exit code is kelp's.
import { spawnSync } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const { format } = await import(join(root, 'dist/report/index.js'))
const { configFor } = await import(join(root, 'dist/cli/config.js'))

const env = (k) => (process.env[k] ?? '').trim()
const words = (k) => env(k).split(/\s+/).filter(Boolean)

// the repository's .kelp.yaml (docs/integrations/config.md) is kelp check's: found from the workspace, its settings
// apply where an input is empty; without paths in the input or the file, the whole workspace is checked
let configPaths = false
try {
  configPaths = configFor(undefined)?.paths !== undefined
} catch {
  // a configuration kelp check refuses: it says why (exit 2) when it reads it below
}
const paths = words('KELP_PATHS')
const args = ['check', ...(paths.length > 0 || configPaths ? paths : ['.']), '-o', 'json']
if (env('KELP_FAIL_ON') !== '') args.push('--fail-on', env('KELP_FAIL_ON'))
if (env('KELP_PACK') !== '') args.push('--pack', env('KELP_PACK'))
for (const p of words('KELP_POLICIES')) args.push('-p', p)
if (env('KELP_KUBE_VERSION') !== '') args.push('--kube-version', env('KELP_KUBE_VERSION'))
const base = env('KELP_BASE')
if (base !== '') {
  // the base revision must be in the checkout: fetch it when a shallow checkout lacks it
  const has = (rev) => spawnSync('git', ['cat-file', '-e', `${rev}^{commit}`], { stdio: 'ignore' }).status === 0
  if (!has(base)) spawnSync('git', ['fetch', '--no-tags', '--depth=1', 'origin', base], { stdio: 'ignore' })
  if (has(base)) args.push('--base', base)
  else
    console.log(
      `::warning title=kelp::the base revision ${base} is not in the checkout (fetch-depth: 0): every object is checked as a create`,
    )
}

const run = spawnSync(process.execPath, [join(root, 'dist/cli/kelp.cjs'), ...args], {
  encoding: 'utf8',
  maxBuffer: 1 << 30,
})
if (run.stderr) process.stderr.write(run.stderr)
if (run.status === 2 && run.stdout.trim() === '') {
  console.log(
    `::error title=kelp::${run.stderr.trim().replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}`,
  )
  process.exit(2)
}
const report = JSON.parse(run.stdout)
const workspace = env('GITHUB_WORKSPACE') || process.cwd()
console.log(format(report, 'github', { root: workspace }))
if (env('KELP_SARIF_FILE') !== '')
  writeFileSync(env('KELP_SARIF_FILE'), `${format(report, 'sarif', { root: workspace })}\n`)

const s = report.summary
if (env('GITHUB_OUTPUT') !== '')
  appendFileSync(
    env('GITHUB_OUTPUT'),
    `objects=${s.objects}\ndenied=${s.denied}\nwarned=${s.warned}\naudited=${s.audited}\nerrors=${s.errors}\nexcepted=${s.excepted ?? 0}\n`,
  )
if (env('GITHUB_STEP_SUMMARY') !== '') appendFileSync(env('GITHUB_STEP_SUMMARY'), summary(report))
// kelp's own exit code: its --fail-on is the input's, else the configuration's
process.exit(run.status ?? 2)

/** The job summary: the counts, then the objects the cluster would refuse or warn about. */
function summary(r) {
  const cell = (t) => String(t).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
  const lines = [
    `### kelp check (Kubernetes ${r.kubeVersion})`,
    '',
    '| objects | denied | warned | audited | errors | excepted |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${r.summary.objects} | ${r.summary.denied} | ${r.summary.warned} | ${r.summary.audited} | ${r.summary.errors} | ${r.summary.excepted ?? 0} |`,
    '',
  ]
  const worth = r.objects.filter((o) => o.outcome === 'denied' || o.outcome === 'warned')
  if (worth.length > 0) {
    lines.push('| object | file | outcome | first finding |', '|---|---|---|---|')
    for (const o of worth.slice(0, 100)) {
      const f = o.findings.find((x) => x.level === 'deny') ?? o.findings[0]
      const where = `${o.source.file}${o.source.line !== undefined ? `:${o.source.line}` : ''}`
      lines.push(
        `| ${cell(`${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`)} | ${cell(where)} | ${o.outcome} | ${cell(f?.message ?? '')} |`,
      )
    }
    if (worth.length > 100) lines.push('', `… and ${worth.length - 100} more (the annotations list them all)`)
    lines.push('')
  }
  return `${lines.join('\n')}\n`
}
