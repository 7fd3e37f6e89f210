import { isatty } from 'node:tty'
import { setFlagsFromString } from 'node:v8'
import { type Command, Option } from 'commander'
import { checkParallel, type PackMode } from '../check/index.js'
import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { escapeControls } from '../report/common.js'
import { format, formatPieces, type OutputFormat } from '../report/index.js'
import { formatTestRunsJUnit } from '../report/junit.js'
import { exitCode, type FailOn } from '../report/model.js'
import { formatPolicyReport } from '../report/policy-report.js'
import { collect, type Io, kubeVersionOf, UsageError } from '../report/usage.js'
import { formatStoredYAML } from '../report/yaml.js'
import { podSecurityFromAdmissionConfigFile } from './admission-config.js'
import { PACK_MODES as CONFIG_PACK_MODES, configFor, FAIL_ON, FORMATS } from './config.js'
import { userInfoOf } from './impersonate.js'
import { findSuites, runSuite } from './policy-test.js'

// `kelp check` and `kelp test`: argument handling only; the work is in src/check/ and policy-test.ts.
// (`kelp serve` is the webhook's command, src/webhook/command.ts.)

const PACK_MODES: PackMode[] = [...CONFIG_PACK_MODES]

/**
 * A large input's objects are read, admitted and dropped one by one: ~15 MiB stay live, and V8 lets its heap
 * grow to several times that before a full collection. That slack was the peak RSS of 1,000,000 ConfigMaps
 * (2.3× the 72 MiB file; 1.8× with this, at the same CPU: docs/benchmarks.md). Set for the process, which the
 * CLI owns; V8 reads the flag at each collection.
 */
function collectSooner(): void {
  setFlagsFromString('--heap-growing-percent=25')
}

/** --kube-version, or the configuration's `kubeVersion` (its mistake named by the file). */
function kubeVersionFrom(version: string, file: string | undefined): ReturnType<typeof kubeVersionOf> {
  try {
    return kubeVersionOf(version)
  } catch (e) {
    if (file === undefined || !(e instanceof UsageError)) throw e
    throw new UsageError(`${file}: kubeVersion: ${e.message.replace(/^--kube-version: /, '')}`)
  }
}

/** Today for exceptions' expiry, YYYY-MM-DD: KELP_TODAY, for tests only (a fixed clock), else the UTC date. */
function today(): string | undefined {
  const t = process.env.KELP_TODAY ?? ''
  return /^\d{4}-\d{2}-\d{2}$/.test(t) ? t : undefined
}

/**
 * A progress line on stderr, only on a terminal and only once a run has taken more than a second
 * (stdout stays clean for the report).
 */
function progressOnTty(): { update: (done: number, total: number | undefined) => void; done: () => void } {
  const start = Date.now()
  let shown = false
  if (process.stderr.isTTY !== true) return { update: () => {}, done: () => {} }
  return {
    update: (done, total) => {
      if (Date.now() - start < 1000) return
      shown = true
      // an input read in one pass (src/check/one-pass.ts): its total is not known until the end
      process.stderr.write(`\rkelp: ${done}${total === undefined ? '' : `/${total}`} objects checked`)
    },
    done: () => {
      if (shown) process.stderr.write('\r\x1b[K')
    },
  }
}

export function addCheckCommand(program: Command, io: Io, setCode: (c: number) => void): void {
  program
    .command('check')
    .description(
      'check manifests offline as kube-apiserver would admit them: ValidatingAdmissionPolicies, CRD schemas ' +
        'and rules, API versions of the target release (exit 0 clean, 1 findings at or above --fail-on, 2 input errors)',
    )
    .argument(
      '[paths...]',
      "files, directories (recursive: .yaml .yml .json), or - for stdin (default: the configuration's paths, else -)",
    )
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
      'OpenAPI v3 documents (kubectl get --raw /openapi/v3/apis/apps/v1) to type check policies against (repeatable; ' +
        'optional: the built-in kinds of 1.30-1.37 ship with kelp; a document given wins for its group-version)',
      collect,
      [],
    )
    .option('-n, --namespace <namespace>', 'namespace of namespaced objects that have none', 'default')
    .option(
      '--as <user>',
      'the user the requests are sent as (kubectl --as; default kelp, in system:authenticated): what policies read ' +
        'of request.userInfo and a CertificateSigningRequest stores',
    )
    .option('--as-group <group>', 'a group of the --as user (kubectl --as-group; repeatable)', collect, [])
    .option(
      '--admission-control-config-file <file>',
      "kube-apiserver's admission configuration (an AdmissionConfiguration): its PodSecurity configuration sets the " +
        'default policy of namespaces without pod-security labels and the exemptions',
    )
    .option('--as-uid <uid>', 'the uid of the --as user (kubectl --as-uid)')
    .option(
      '--as-user-extra <key=value>',
      'an extra value of the --as user (kubectl --as-user-extra; repeatable)',
      collect,
      [],
    )
    .option(
      '-o, --output <format>',
      `output format: ${FORMATS.join(', ')} (yaml: the objects as the cluster would store them on stdout, the text report on stderr; policyreport: wgpolicyk8s.io/v1alpha2 PolicyReports, one per namespace, and a ClusterPolicyReport)`,
      'text',
    )
    .option('--allow-empty', 'inputs that hold no Kubernetes object are not an error (pre-commit hooks)')
    .option('--fail-on <level>', `exit 1 on findings at or above: ${FAIL_ON.join(', ')}`, 'deny')
    .option('--no-color', 'no colours in text output')
    .option('-j, --jobs <n>', 'threads to admit objects on (default: by the cores and the input size)')
    .addOption(
      new Option(
        '--pack <mode>',
        'the bundled policy pack: auto (applied unless the inputs or --policies hold admission policies), ' +
          'add (applied beside them), off (never applied; replace is another name for it); the report says when it is not applied',
      )
        .choices(PACK_MODES)
        .default('auto'),
    )
    .option(
      '--config <file>',
      'the configuration file (default: .kelp.yaml or .kelp.yml in the working directory or above, up to the git root)',
    )
    .option('--no-config', 'read no configuration file')
    .option('--show-exceptions', 'list the findings exceptions apply to (the configuration, kelp.dev/exceptions)')
    .action(
      async (
        given: string[],
        opts: {
          policies: string[]
          old: string[]
          base?: string
          kubeVersion: string
          namespace: string
          as?: string
          asGroup: string[]
          asUid?: string
          asUserExtra: string[]
          admissionControlConfigFile?: string
          openapi: string[]
          output: string
          failOn: string
          color: boolean
          jobs?: string
          pack: PackMode
          allowEmpty?: boolean
          config?: string | boolean
          showExceptions?: boolean
        },
        command: Command,
      ) => {
        // the configuration file's settings, where the command line gives none (config.ts)
        const config = configFor(opts.config)
        const fromLine = (key: string) => command.getOptionValueSource(key) === 'cli'
        if (config !== undefined) {
          if (config.kubeVersion !== undefined && !fromLine('kubeVersion')) opts.kubeVersion = config.kubeVersion
          if (config.policies !== undefined && opts.policies.length === 0) opts.policies = [...config.policies]
          if (config.pack !== undefined && !fromLine('pack')) opts.pack = config.pack
          if (config.output !== undefined && !fromLine('output')) opts.output = config.output
          if (config.failOn !== undefined && !fromLine('failOn')) opts.failOn = config.failOn
        }
        const paths = given.length > 0 ? given : config?.paths !== undefined ? [...config.paths] : ['-']
        if (!(FORMATS as readonly string[]).includes(opts.output))
          throw new UsageError(`--output: one of ${FORMATS.join(', ')}`)
        if (!(FAIL_ON as readonly string[]).includes(opts.failOn))
          throw new UsageError(`--fail-on: one of ${FAIL_ON.join(', ')}`)
        if (opts.base !== undefined && opts.old.length > 0) throw new UsageError('--old and --base are exclusive')
        // nothing given and nothing piped: say so instead of waiting on the terminal
        // (isatty, not process.stdin.isTTY: creating process.stdin makes a pipe's fd 0 non-blocking, stdin-fd.ts)
        if (paths.length === 1 && paths[0] === '-' && isatty(0)) {
          throw new UsageError('no input: give files or directories, or pipe manifests to `kelp check -`')
        }
        const user = userInfoOf(opts)
        const podSecurity =
          opts.admissionControlConfigFile !== undefined
            ? podSecurityFromAdmissionConfigFile(opts.admissionControlConfigFile)
            : undefined
        const { target, env } = kubeVersionFrom(opts.kubeVersion, fromLine('kubeVersion') ? undefined : config?.file)
        const jobs = opts.jobs === undefined ? undefined : Number(opts.jobs)
        if (jobs !== undefined && !(Number.isInteger(jobs) && jobs > 0))
          throw new UsageError('--jobs: a positive integer')
        const progress = progressOnTty()
        const report = await checkParallel(
          {
            paths,
            policies: opts.policies,
            old: opts.old,
            ...(opts.base !== undefined ? { base: opts.base } : {}),
            kubeVersion: env,
            target,
            namespace: opts.namespace,
            ...(user !== undefined ? { user } : {}),
            ...(podSecurity !== undefined ? { podSecurity } : {}),
            ...(opts.allowEmpty === true ? { allowEmpty: true } : {}),
            ...(opts.openapi.length > 0 ? { openapi: opts.openapi } : {}),
            pack: opts.pack,
            onLargeInput: collectSooner,
            // always given: the objects' kelp.dev/exceptions annotation applies with or without a file
            exceptions: {
              list: config?.exceptions ?? [],
              base: config?.dir ?? process.cwd(),
              ...(today() !== undefined ? { today: today() } : {}),
            },
          },
          jobs,
          progress.update,
          // the formats that list every object keep every result; the others only those with findings
          opts.output === 'yaml'
            ? 'stored'
            : opts.output === 'json' || opts.output === 'junit' || opts.output === 'policyreport'
              ? 'all'
              : 'findings',
        )
        progress.done()
        const failOn = opts.failOn as FailOn
        const showExceptions = opts.showExceptions === true
        if (opts.output === 'yaml') {
          // stdout stays a manifest stream (for kubectl apply -f -); what kubectl would print goes to stderr
          const stored = formatStoredYAML(report)
          if (stored !== '') io.out(stored)
          io.err(format(report, 'text', { color: false, failOn, showExceptions }).replace(/\n$/, ''))
        } else if (opts.output === 'policyreport') {
          io.out(formatPolicyReport(report))
        } else {
          outPieces(
            io.out,
            formatPieces(report, opts.output as OutputFormat, {
              color: opts.color !== false && io.color === true,
              failOn,
              showExceptions,
            }),
          )
        }
        setCode(exitCode(report, failOn))
      },
    )
}

/**
 * Writes a report given in pieces as `out(text.replace(/\n$/, ''))` would write the whole, in writes of about
 * 64 KiB cut at line breaks (`out` ends each with one): the text is never one string.
 */
export function outPieces(out: (line: string) => void, pieces: Iterable<string>): void {
  let buf = ''
  for (const piece of pieces) {
    buf += piece
    if (buf.length < OUT_BATCH) continue
    // the last line break but the text's last character so far (whose newline the end may strip)
    const cut = buf.lastIndexOf('\n', buf.length - 2)
    if (cut < 0) continue
    out(buf.slice(0, cut))
    buf = buf.slice(cut + 1)
  }
  out(buf.replace(/\n$/, ''))
}

const OUT_BATCH = 1 << 16

export function addTestCommand(program: Command, io: Io, setCode: (c: number) => void): void {
  program
    .command('test')
    .description(
      'run policy test suites (docs/policy-tests.md); exit 1 when an expectation fails, 2 when a suite cannot run',
    )
    .argument('[paths...]', 'suite files, or directories searched for *.kelp-test.yaml (not in node_modules)', ['.'])
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
      if (opts.output === 'junit') io.out(formatTestRunsJUnit(runs))
      else {
        // names and texts from the suites (test names, denial messages) with their control characters visible
        for (const run of runs) {
          if (run.error) io.out(escapeControls(`ERROR ${run.file}: ${run.error}`))
          for (const r of run.results)
            io.out(
              escapeControls(
                `${r.passed ? 'PASS' : 'FAIL'} ${run.name} › ${r.name}${r.failure ? `: ${r.failure}` : ''}`,
              ),
            )
        }
        io.out(
          `${total} tests in ${runs.length} suites: ${total - failed} passed, ${failed} failed${errors ? `, ${errors} suites could not run` : ''}`,
        )
      }
      setCode(errors > 0 ? 2 : failed > 0 ? 1 : 0)
    })
}
