/** Rate-limit buckets kept at most; idle (full) ones go first, then the least recently used. */
const MAX_BUCKETS = 10_000;

/** A token bucket per client (capacity = the per-minute rate, refilled continuously). */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxBuckets = MAX_BUCKETS,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** Takes a token; returns 0 when one was available, else the milliseconds until one is. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    // Re-inserted on every use: the Map's order is then least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxBuckets) this.evict(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.perMs);
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.perMinute) this.buckets.delete(key);
    }
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxBuckets) break;
      this.buckets.delete(key);
    }
  }
}
