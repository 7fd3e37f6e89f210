// client-go's default client-side rate limiter (util/flowcontrol NewTokenBucketRateLimiter): `qps` tokens a
// second, at most `burst` saved; a request waits for a token.

export class TokenBucket {
  private tokens: number
  private last = Date.now()

  constructor(
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = burst
  }

  /** Resolves when a token is taken (at once while the burst lasts). */
  async take(): Promise<void> {
    for (;;) {
      const now = Date.now()
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps)
      this.last = now
      if (this.tokens >= 1) {
        this.tokens -= 1
        return
      }
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - this.tokens) / this.qps) * 1000)))
    }
  }
}
