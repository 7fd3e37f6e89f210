import type { Command } from 'commander'
import { parseKubeVersion } from '../engine/api-versions.js'
import { DEFAULT_KUBE_VERSION, type KubeVersion, SUPPORTED_VERSIONS } from '../kube/environment.js'
import { format, type OutputFormat } from '../report/index.js'
import { exitCode, type FailOn } from '../report/model.js'
import { check } from './check.js'
import { findSuites, runSuite, type SuiteRun } from './policy-test.js'
import { type Io, UsageError } from './usage.js'

// `kelp check` and `kelp test`: argument handling only; the work is in check.ts / policy-test.ts.

const collect = (value: string, previous: string[]): string[] => [...previous, value]
const FORMATS = ['text', 'json', 'junit', 'sarif', 'github'] as const
const FAIL_ON = ['deny', 'warn', 'audit', 'none'] as const

/**
 * --kube-version: any release the API-version table knows; CEL evaluates in the nearest environment
 * kelp has (the supported versions' environments differ only in functions added or removed).
 */
function kubeVersionOf(input: string): { target: string; env: KubeVersion } {
  let v = input
  const parsed = parseKubeVersion(v)
  if (!parsed.ok) throw new UsageError(`--kube-version: ${parsed.error}`)
  v = parsed.target
  const minor = (x: string) => Number(x.split('.')[1])
  const envs = SUPPORTED_VERSIONS as readonly KubeVersion[]
  const env =
    envs.find((e) => e === v) ?? (minor(v) < minor(envs[0] as string) ? envs[0] : envs.at(-1)) ?? DEFAULT_KUBE_VERSION
  return { target: v, env }
}

export function addCheckCommand(program: Command, io: Io, setCode: (c: number) => void): void {
  program
    .command('check')
    .description(
      'check manifests offline as kube-apiserver would admit them: ValidatingAdmissionPolicies, CRD schemas ' +
        'and rules, API versions of the target release (exit 0 clean, 1 findings at or above --fail-on, 2 input errors)',
    )
    .argument('[paths...]', 'files, directories (recursive: .yaml .yml .json), or - for stdin', ['-'])
    .option(
      '-p, --policies <path>',
      'policy material: VAPs, bindings, params, CRDs, Namespaces (repeatable)',
      collect,
      [],
    )
    .option(
      '--old <path>',
      'the previous revision (files or directories): objects found in it are UPDATEs (repeatable)',
      collect,
      [],
    )
    .option('--base <rev>', 'the previous revision as a git revision (each input file read at <rev>)')
    .option('--kube-version <version>', 'the target Kubernetes release', DEFAULT_KUBE_VERSION)
    .option(
      '--openapi <path>',
      'OpenAPI v3 documents of built-in kinds (kubectl get --raw /openapi/v3/apis/apps/v1) to type check policies (repeatable)',
      collect,
      [],
    )
    .option('-n, --namespace <namespace>', 'namespace of namespaced objects that have none', 'default')
    .option('-o, --output <format>', `output format: ${FORMATS.join(', ')}`, 'text')
    .option('--fail-on <level>', `exit 1 on findings at or above: ${FAIL_ON.join(', ')}`, 'deny')
    .option('--no-color', 'no colours in text output')
    .action(
      (
        paths: string[],
        opts: {
          policies: string[]
          old: string[]
          base?: string
          kubeVersion: string
          namespace: string
          openapi: string[]
          output: string
          failOn: string
          color: boolean
        },
      ) => {
        if (!(FORMATS as readonly string[]).includes(opts.output))
          throw new UsageError(`--output: one of ${FORMATS.join(', ')}`)
        if (!(FAIL_ON as readonly string[]).includes(opts.failOn))
          throw new UsageError(`--fail-on: one of ${FAIL_ON.join(', ')}`)
        if (opts.base !== undefined && opts.old.length > 0) throw new UsageError('--old and --base are exclusive')
        const { target, env } = kubeVersionOf(opts.kubeVersion)
        const report = check({
          paths,
          policies: opts.policies,
          old: opts.old,
          ...(opts.base !== undefined ? { base: opts.base } : {}),
          kubeVersion: env,
          target,
          namespace: opts.namespace,
          ...(opts.openapi.length > 0 ? { openapi: opts.openapi } : {}),
        })
        const failOn = opts.failOn as FailOn
        io.out(
          format(report, opts.output as OutputFormat, {
            color: opts.color !== false && io.color === true,
            failOn,
          }).replace(/\n$/, ''),
        )
        setCode(exitCode(report, failOn))
      },
    )
}

function junit(runs: readonly SuiteRun[]): string {
  const esc = (s: string) =>
    s.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
    )
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="kelp test">']
  for (const run of runs) {
    const failures = run.results.filter((r) => !r.passed).length
    const time = (run.results.reduce((t, r) => t + r.durationMs, 0) / 1000).toFixed(3)
    lines.push(
      `  <testsuite name="${esc(run.name)}" file="${esc(run.file)}" tests="${run.results.length}" failures="${failures}" errors="${run.error ? 1 : 0}" time="${time}">`,
    )
    if (run.error) lines.push(`    <error message="${esc(run.error)}"/>`)
    for (const r of run.results) {
      const open = `    <testcase classname="${esc(run.name)}" name="${esc(r.name)}" time="${(r.durationMs / 1000).toFixed(3)}"`
      if (r.passed) lines.push(`${open}/>`)
      else lines.push(`${open}>`, `      <failure message="${esc(r.failure ?? '')}"/>`, '    </testcase>')
    }
    lines.push('  </testsuite>')
  }
  lines.push('</testsuites>')
  return lines.join('\n')
}

export function addTestCommand(program: Command, io: Io, setCode: (c: number) => void): void {
  program
    .command('test')
    .description(
      'run policy test suites (docs/policy-tests.md); exit 1 when an expectation fails, 2 when a suite cannot run',
    )
    .argument('[paths...]', 'suite files, or directories searched for *.kelp-test.yaml', ['.'])
    .option('--kube-version <version>', 'the Kubernetes release to behave as', DEFAULT_KUBE_VERSION)
    .option('-o, --output <format>', 'text or junit', 'text')
    .action((paths: string[], opts: { kubeVersion: string; output: string }) => {
      if (opts.output !== 'text' && opts.output !== 'junit') throw new UsageError('--output: text or junit')
      const { env } = kubeVersionOf(opts.kubeVersion)
      const suites = findSuites(paths)
      if (suites.length === 0) throw new UsageError(`no test suites (*.kelp-test.yaml) in ${paths.join(', ')}`)
      const runs = suites.map((s) => runSuite(s, env))
      const failed = runs.flatMap((r) => r.results).filter((r) => !r.passed).length
      const errors = runs.filter((r) => r.error !== undefined).length
      const total = runs.reduce((n, r) => n + r.results.length, 0)
      if (opts.output === 'junit') io.out(junit(runs))
      else {
        for (const run of runs) {
          if (run.error) io.out(`ERROR ${run.file}: ${run.error}`)
          for (const r of run.results)
            io.out(`${r.passed ? 'PASS' : 'FAIL'} ${run.name} › ${r.name}${r.failure ? `: ${r.failure}` : ''}`)
        }
        io.out(
          `${total} tests in ${runs.length} suites: ${total - failed} passed, ${failed} failed${errors ? `, ${errors} suites could not run` : ''}`,
        )
      }
      setCode(errors > 0 ? 2 : failed > 0 ? 1 : 0)
    })
}
