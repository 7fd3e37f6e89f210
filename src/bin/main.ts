#!/usr/bin/env node
import { main } from './program.js'

// The kelp command as an ES module (node dist/bin/main.js); the package's bin is dist/cli/kelp.cjs
// (src/cli/kelp.cts), which runs the bundle of program.ts with V8's code cache.
process.exitCode = await main(process.argv.slice(2))
