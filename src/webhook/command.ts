import { readFileSync, statSync } from 'node:fs'
import type { Command } from 'commander'
import { DEFAULT_KUBE_VERSION } from '../kube/environment.js'
import { readError } from '../manifest/paths.js'
import { createLogger, LOG_LEVELS, type LogLevel } from '../report/log.js'
import { collect, type Io, kubeVersionOf, UsageError } from '../report/usage.js'
import type { WebhookServer } from './server.js'

// `kelp serve`: its arguments, the server started from them (server.ts, loaded on use), and the process'
// signals. The webhook face's command line, as controller-runtime's manager is started from a main's
// flags; src/bin/program.ts adds it to the kelp command beside the CLI's commands.

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
        import('./server.js')
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
