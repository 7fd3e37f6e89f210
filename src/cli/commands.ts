import { readFileSync, statSync } from 'node:fs'
import { type Command, Option } from 'commander'
import { checkParallel, type PackMode } from '../check/index.js'
import { parseKubeVersion } from '../engine/api-versions.js'
import { DEFAULT_KUBE_VERSION, type KubeVersion, SUPPORTED_VERSIONS } from '../kube/environment.js'
import { readError } from '../manifest/paths.js'
import { escapeControls } from '../report/common.js'
import { format, type OutputFormat } from '../report/index.js'
import { formatTestRunsJUnit } from '../report/junit.js'
import { exitCode, type FailOn } from '../report/model.js'
import { formatStoredYAML } from '../report/yaml.js'
import { createLogger, LOG_LEVELS, type LogLevel } from '../webhook/log.js'
import type { WebhookServer } from '../webhook/server.js'
import { findSuites, runSuite } from './policy-test.js'
import { type Io, UsageError } from './usage.js'

// `kelp check`, `kelp test` and `kelp serve`: argument handling only; the work is in check.ts /
// policy-test.ts / webhook/server.ts.

const collect = (value: string, previous: string[]): string[] => [...previous, value]
const FORMATS = ['text', 'json', 'junit', 'sarif', 'github', 'yaml'] as const
const FAIL_ON = ['deny', 'warn', 'audit', 'none'] as const
const PACK_MODES: PackMode[] = ['auto', 'add', 'replace', 'off']

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

/**
 * A progress line on stderr, only on a terminal and only once a run has taken more than a second
 * (stdout stays clean for the report).
 */
function progressOnTty(): { update: (done: number, total: number) => void; done: () => void } {
  const start = Date.now()
  let shown = false
  if (process.stderr.isTTY !== true) return { update: () => {}, done: () => {} }
  return {
    update: (done, total) => {
      if (Date.now() - start < 1000) return
      shown = true
      process.stderr.write(`\rkelp: ${done}/${total} objects checked`)
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
      'OpenAPI v3 documents (kubectl get --raw /openapi/v3/apis/apps/v1) to type check policies against (repeatable; ' +
        'optional: the built-in kinds of 1.30-1.37 ship with kelp; a document given wins for its group-version)',
      collect,
      [],
    )
    .option('-n, --namespace <namespace>', 'namespace of namespaced objects that have none', 'default')
    .option(
      '-o, --output <format>',
      `output format: ${FORMATS.join(', ')} (yaml: the objects as the cluster would store them on stdout, the text report on stderr)`,
      'text',
    )
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
    .action(
      async (
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
          jobs?: string
          pack: PackMode
        },
      ) => {
        if (!(FORMATS as readonly string[]).includes(opts.output))
          throw new UsageError(`--output: one of ${FORMATS.join(', ')}`)
        if (!(FAIL_ON as readonly string[]).includes(opts.failOn))
          throw new UsageError(`--fail-on: one of ${FAIL_ON.join(', ')}`)
        if (opts.base !== undefined && opts.old.length > 0) throw new UsageError('--old and --base are exclusive')
        // nothing given and nothing piped: say so instead of waiting on the terminal
        if (paths.length === 1 && paths[0] === '-' && process.stdin.isTTY === true) {
          throw new UsageError('no input: give files or directories, or pipe manifests to `kelp check -`')
        }
        const { target, env } = kubeVersionOf(opts.kubeVersion)
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
            ...(opts.openapi.length > 0 ? { openapi: opts.openapi } : {}),
            pack: opts.pack,
          },
          jobs,
          progress.update,
          // the formats that list every object keep every result; the others only those with findings
          opts.output === 'yaml' ? 'stored' : opts.output === 'json' || opts.output === 'junit' ? 'all' : 'findings',
        )
        progress.done()
        const failOn = opts.failOn as FailOn
        if (opts.output === 'yaml') {
          // stdout stays a manifest stream (for kubectl apply -f -); what kubectl would print goes to stderr
          const stored = formatStoredYAML(report)
          if (stored !== '') io.out(stored)
          io.err(format(report, 'text', { color: false, failOn }).replace(/\n$/, ''))
        } else {
          io.out(
            format(report, opts.output as OutputFormat, {
              color: opts.color !== false && io.color === true,
              failOn,
            }).replace(/\n$/, ''),
          )
        }
        setCode(exitCode(report, failOn))
      },
    )
}

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

/** For tests and embedding: observe the started server; keep the process' signal handlers out. */
export interface ServeHooks {
  readonly onStarted?: (server: WebhookServer) => void
  /** Exit code of a server that could not start or has stopped (default: sets process.exitCode). */
  readonly onExit?: (code: number) => void
  /** Install SIGTERM / SIGINT (graceful shutdown), SIGHUP (reload) and uncaught-error logging (default true). */
  readonly processHandlers?: boolean
}

export function addServeCommand(program: Command, io: Io, hooks: ServeHooks = {}): void {
  program
    .command('serve')
    .description(
      'serve the policies as admission webhooks over HTTPS: POST /validate and /mutate (AdmissionReview v1), ' +
        'GET /healthz, /readyz, /metrics; policy paths and certificate files are watched and reloaded',
    )
    .option(
      '-p, --policies <path>',
      'policy material: VAPs, bindings, params, CRDs, Namespaces; files or directories (repeatable, required)',
      collect,
      [],
    )
    .option('--tls-cert <file>', 'the serving certificate (PEM, with its chain)')
    .option('--tls-key <file>', 'the private key of the certificate (PEM)')
    .option('--port <port>', 'the HTTPS port', '8443')
    .option('--address <address>', 'the address to listen on (default: every interface)')
    .option('--kube-version <version>', 'the Kubernetes release to behave as', DEFAULT_KUBE_VERSION)
    .option('--log-level <level>', `log level: ${LOG_LEVELS.join(', ')}`, 'info')
    .option('--client-ca <file>', 'require client certificates signed by this CA (PEM): mTLS on the HTTPS port')
    .option('--metrics-port <port>', 'also serve GET /metrics, /healthz, /readyz over plain HTTP on this port')
    .option('--metrics-address <address>', 'the address of the metrics port (default: as --address)')
    .option(
      '--max-connections <n>',
      'connections at once; at the cap a new one closes the longest-idle kept-alive one, else it is closed at accept',
      '1024',
    )
    .option('--shutdown-delay <seconds>', 'on SIGTERM: seconds answering as usual while not ready', '5')
    .action(
      (opts: {
        policies: string[]
        tlsCert?: string
        tlsKey?: string
        port: string
        address?: string
        kubeVersion: string
        logLevel: string
        clientCa?: string
        metricsPort?: string
        metricsAddress?: string
        maxConnections: string
        shutdownDelay: string
      }) => {
        if (opts.policies.length === 0) throw new UsageError('--policies is required (files or directories)')
        for (const p of opts.policies) {
          if (p === '-') throw new UsageError('--policies: stdin (-) cannot be served: name files or directories')
          try {
            statSync(p)
          } catch (e) {
            throw new UsageError(`--policies: ${readError(p, e)}`)
          }
        }
        for (const [flag, file] of [
          ['--tls-cert', opts.tlsCert],
          ['--tls-key', opts.tlsKey],
          ...(opts.clientCa !== undefined ? [['--client-ca', opts.clientCa] as const] : []),
        ] as const) {
          if (file === undefined) throw new UsageError(`${flag} is required`)
          try {
            readFileSync(file)
          } catch (e) {
            throw new UsageError(`${flag}: ${readError(file, e)}`)
          }
        }
        const portOf = (flag: string, v: string) => {
          if (!/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`${flag}: not a port number: ${v}`)
          return Number(v)
        }
        const port = portOf('--port', opts.port)
        const metricsPort = opts.metricsPort === undefined ? undefined : portOf('--metrics-port', opts.metricsPort)
        if (!/^[1-9]\d*$/.test(opts.maxConnections))
          throw new UsageError(`--max-connections: not a positive number: ${opts.maxConnections}`)
        if (!/^\d+(\.\d+)?$/.test(opts.shutdownDelay))
          throw new UsageError(`--shutdown-delay: not a number of seconds: ${opts.shutdownDelay}`)
        if (!(LOG_LEVELS as readonly string[]).includes(opts.logLevel))
          throw new UsageError(`--log-level: one of ${LOG_LEVELS.join(', ')}`)
        const { env } = kubeVersionOf(opts.kubeVersion)
        const log = createLogger({ level: opts.logLevel as LogLevel, write: io.err })
        const onExit =
          hooks.onExit ??
          ((c: number) => {
            process.exitCode = c
          })
        // loaded on use: the other commands do not pay for the server and prom-client
        import('../webhook/server.js')
          .then(({ startWebhookServer }) =>
            startWebhookServer({
              policies: opts.policies,
              tlsCert: opts.tlsCert as string,
              tlsKey: opts.tlsKey as string,
              port,
              ...(opts.address !== undefined ? { address: opts.address } : {}),
              ...(opts.clientCa !== undefined ? { clientCA: opts.clientCa } : {}),
              ...(metricsPort !== undefined ? { metricsPort } : {}),
              ...(opts.metricsAddress !== undefined ? { metricsAddress: opts.metricsAddress } : {}),
              maxConnections: Number(opts.maxConnections),
              shutdownDelayMs: Number(opts.shutdownDelay) * 1000,
              policySetOptions: { version: env },
              logger: log,
            }),
          )
          .then(
            (server) => {
              if (hooks.processHandlers !== false) installProcessHandlers(server, log)
              server.closed.then(() => onExit(0))
              hooks.onStarted?.(server)
            },
            (e: unknown) => {
              log.error('cannot start the server', { error: (e as Error).message })
              onExit(1)
            },
          )
      },
    )
}

function installProcessHandlers(server: WebhookServer, log: ReturnType<typeof createLogger>): void {
  const stop = (signal: NodeJS.Signals) => {
    log.info('signal received', { signal })
    void server.close()
  }
  const hup = () => {
    log.info('signal received: reloading', { signal: 'SIGHUP' })
    server.reloadPolicies(true)
    server.reloadCertificate(true)
  }
  // nothing crashes the process: an error escaping a callback is logged and the server keeps serving
  const uncaught = (e: unknown) => log.error('uncaught error', { error: e })
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  process.on('SIGHUP', hup)
  process.on('uncaughtException', uncaught)
  process.on('unhandledRejection', uncaught)
  server.closed.then(() => {
    process.off('SIGTERM', stop)
    process.off('SIGINT', stop)
    process.off('SIGHUP', hup)
    process.off('uncaughtException', uncaught)
    process.off('unhandledRejection', uncaught)
  })
}
