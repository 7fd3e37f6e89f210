import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import { type Io, UsageError } from '../report/usage.js'
import type { PlaygroundServer } from './serve.js'

// `kelp playground`: the page built into dist/playground/ served on the loopback interface (serve.ts, loaded
// on use). The playground face's command line; src/bin/program.ts adds it beside the other faces' commands.

/** dist/playground/: beside dist/cli/ (the bundled command, whose import.meta.url is dist/cli/kelp-main.cjs)
 * and the folder of dist/playground/command.js itself. */
const defaultRoot = () => resolve(dirname(fileURLToPath(import.meta.url)), '../playground')

export interface PlaygroundHooks {
  readonly onStarted?: (server: PlaygroundServer) => void
  /** Install SIGTERM / SIGINT handlers that close the server (default true). */
  readonly processHandlers?: boolean
}

export function addPlaygroundCommand(program: Command, io: Io, hooks: PlaygroundHooks = {}): void {
  program
    .command('playground')
    .description(
      'serve the kelp playground (dist/playground/: policies, objects and their answers in the browser; ' +
        'nothing leaves the page) as static files over HTTP',
    )
    .option('--port <port>', 'the port (0: any free port)', '8080')
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .option('--root <dir>', 'serve another build of the page (default: the one beside this kelp)')
    .action(async (opts: { port: string; host: string; root?: string }) => {
      if (!/^\d+$/.test(opts.port) || Number(opts.port) > 65535)
        throw new UsageError(`--port: not a port number: ${opts.port}`)
      const root = opts.root ?? defaultRoot()
      if (!existsSync(join(root, 'index.html')))
        throw new UsageError(`the playground is not built: no index.html in ${root} (npm run build builds it)`)
      const { startPlaygroundServer } = await import('./serve.js')
      let server: PlaygroundServer
      try {
        server = await startPlaygroundServer({ root, host: opts.host, port: Number(opts.port) })
      } catch (e) {
        throw new UsageError(`cannot listen on ${opts.host}:${opts.port}: ${(e as Error).message}`)
      }
      io.out(`kelp playground: ${server.url}`)
      if (opts.host !== '127.0.0.1' && opts.host !== 'localhost' && opts.host !== '::1')
        io.err(`kelp playground: listening on ${opts.host}: anyone who reaches it can load the page`)
      if (hooks.processHandlers !== false) {
        const stop = () => void server.close()
        process.once('SIGTERM', stop)
        process.once('SIGINT', stop)
        server.server.once('close', () => {
          process.off('SIGTERM', stop)
          process.off('SIGINT', stop)
        })
      }
      hooks.onStarted?.(server)
    })
}
