/**
 * The messages one side of the engine process's channel sends in one turn of the event loop,
 * sent together as one message (an array) when the turn's I/O callbacks are done (setImmediate):
 * the nine metric queries of a dashboard, whose requests all reach the engine in the same turn,
 * cross as one write and wake the other side once, instead of nine times. Nothing waits for a
 * timer: a message goes out in the turn it was posted.
 */

/** Sends a batch; `done` gets the channel's error, if any (child_process `send`'s callback). */
export type SendBatch<T> = (batch: T[], done: (err: Error | null) => void) => void

interface Posted<T> {
  readonly message: T
  /** It could not be sent: the channel's error, or `thrown` by the send itself (a value structured clone cannot carry). */
  readonly failed: (err: Error, thrown: boolean) => void
}

export class Outbox<T> {
  #posted: Posted<T>[] = []
  #scheduled = false
  /** Batches sent so far (what a test or a measurement counts). */
  sent = 0

  constructor(private readonly send: SendBatch<T>) {}

  /** Queues `message` for the end of this turn; `failed` is called if it cannot be sent. */
  post(message: T, failed: (err: Error, thrown: boolean) => void): void {
    this.#posted.push({ message, failed })
    if (!this.#scheduled) {
      this.#scheduled = true
      setImmediate(() => this.flush())
    }
  }

  /** Sends what is queued now, as one message. */
  flush(): void {
    this.#scheduled = false
    const posted = this.#posted
    if (posted.length === 0) return
    this.#posted = []
    if (this.#sendAll(posted)) return
    // the batch could not be serialised: each alone, so that only the one that cannot fails
    for (const one of posted) this.#sendAll([one])
  }

  /** Sends `posted` as one message; false when it threw (nothing was sent). */
  #sendAll(posted: readonly Posted<T>[]): boolean {
    try {
      this.send(
        posted.map((p) => p.message),
        (err) => {
          if (err) for (const p of posted) p.failed(err, false)
        },
      )
      this.sent++
      return true
    } catch (err) {
      if (posted.length === 1) posted[0]?.failed(err instanceof Error ? err : new Error(String(err)), true)
      return false
    }
  }
}
