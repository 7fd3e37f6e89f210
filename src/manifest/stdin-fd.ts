import { read } from 'node:fs'

// Standard input's bytes for `kelp check -`, read from fd 0 into one buffer read into again. process.stdin gives a
// pipe's bytes as a new buffer per read (64 KiB, outside V8's heap): those of a large input are dead once written
// to the temporary file (stdin.ts) but kept until a collection, and V8 waits for tens of MiB of them before one
// (docs/benchmarks.md). A pipe nobody made non-blocking is read as it is: a read waits in libuv's pool for bytes to
// come. Where fd 0 cannot be read so (non-blocking, EAGAIN: process.stdin exists, Node made it so; not open; a
// directory), the rest is process.stdin's, which reads or refuses each of these as kelp always did.

function readInto(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, buffer.length, null, (error, n) => (error ? reject(error) : resolve(n)))
  })
}

/**
 * fd 0's bytes to their end, each chunk a view of the same buffer: valid until the next is asked for (readStdin's
 * `reusedChunks`). The chunks of process.stdin, when it takes over, are its own.
 */
export async function* stdinChunks(fd = 0, size = 1 << 16): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafeSlow(size)
  for (;;) {
    let n: number
    try {
      n = await readInto(fd, buffer)
    } catch {
      yield* process.stdin as AsyncIterable<Buffer>
      return
    }
    if (n === 0) return
    yield buffer.subarray(0, n)
  }
}
