/**
 * Group commit: callers hand in rows and are answered only once the batch holding their row
 * has committed. While one batch commits, the next one fills, so throughput is bounded by
 * rows per fsync rather than fsyncs per second, and a write answered 200 is durable.
 */
export class GroupCommit<T> {
  private pending: { row: T; resolve: () => void; reject: (err: unknown) => void }[] = []
  private flushing = false

  constructor(
    private readonly commit: (rows: readonly T[]) => Promise<void>,
    private readonly maxBatch = 500,
  ) {}

  add(row: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject })
      if (!this.flushing) void this.flush()
    })
  }

  private async flush(): Promise<void> {
    this.flushing = true
    // Let the requests that arrive in this turn of the event loop join the batch.
    await new Promise((resolve) => setImmediate(resolve))
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatch)
      try {
        await this.commit(batch.map((b) => b.row))
        for (const b of batch) b.resolve()
      } catch (err) {
        for (const b of batch) b.reject(err)
      }
    }
    this.flushing = false
  }
}
