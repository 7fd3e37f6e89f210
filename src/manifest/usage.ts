/**
 * A mistake in what the user named (`--base` outside a git work tree, an unknown revision): the CLI reports it
 * as `kelp: <message>` with exit code 2 (src/cli/usage.ts re-exports it); the library throws it.
 */
export class UsageError extends Error {}
