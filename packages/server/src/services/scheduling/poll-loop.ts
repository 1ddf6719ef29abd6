import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'

export type PollLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>

/**
 * The polling half of a scheduler that does its work once across instances (email reports,
 * rollups): a timer that looks every `pollMs`, one pass at a time per instance, a failed pass
 * logged and never thrown, and a stop that waits for the pass in flight (graceful shutdown).
 * Subclasses write `tick`, the pass itself, with its lease in the metadata store.
 */
export abstract class PollLoop {
  readonly instanceId = randomUUID()
  protected log: PollLog | undefined
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  protected stopped = false
  /** A wake() came while a pass ran: one more pass as soon as it ends. */
  private again = false

  constructor(
    private readonly pollMs: number,
    /** What a failed pass's log line names ("email reports"). */
    private readonly label: string,
    private readonly describe: (err: unknown) => string,
  ) {}

  /** One pass at `now`: what it did or tried (ids or names). */
  abstract tick(now?: Date): Promise<string[]>

  start(log: PollLog): void {
    if (this.timer || this.stopped) return
    this.log = log
    this.timer = setInterval(() => this.poll(), this.pollMs)
    this.timer.unref()
  }

  /** Stops polling and waits for the pass in flight (graceful shutdown). */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    await this.running
  }

  /** Looks now: a pass already running is left to finish. */
  poll(): void {
    if (this.running || this.stopped) return
    this.running = this.tick()
      .then(
        () => undefined,
        (err: unknown) => this.log?.error({ err: this.describe(err) }, `${this.label}: scheduler pass failed`),
      )
      .finally(() => {
        this.running = undefined
        if (this.again) {
          this.again = false
          this.poll()
        }
      })
  }

  /**
   * Looks now, or as soon as the pass in flight ends (which may have read what is due before the
   * caller's change): a user's "refresh now" starts without waiting for the next poll.
   */
  wake(): void {
    if (this.stopped) return
    if (this.running) this.again = true
    else this.poll()
  }
}
