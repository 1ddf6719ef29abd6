/**
 * A small pool of Snowflake sessions (one snowflake-sdk Connection each) for one database: at
 * most `max` open, idle ones closed after IDLE_TIMEOUT_MS, a session that saw a cancel, a
 * failure or a cut-off never reused. Each session remembers the session parameters it was
 * given (time zone, statement timeout), so they are set again only when they change.
 */
import type { Connection } from 'snowflake-sdk'
import { connectionError } from '../errors.js'
import { DESTROY_GRACE_MS, IDLE_TIMEOUT_MS } from '../shared/execution.js'

export interface Session {
  readonly connection: Connection
  /** TIMEZONE set on the session (undefined: the account/user default). */
  timezone: string | undefined
  /** STATEMENT_TIMEOUT_IN_SECONDS set on the session. */
  timeoutSeconds: number | undefined
}

interface Idle {
  readonly session: Session
  readonly timer: ReturnType<typeof setTimeout>
}

export class SessionPool {
  readonly #open = new Set<Session>()
  readonly #idle: Idle[] = []
  readonly #waiting: (() => void)[] = []
  #closed = false

  constructor(
    private readonly max: number,
    private readonly create: () => Promise<Session>,
  ) {}

  async acquire(): Promise<Session> {
    for (;;) {
      if (this.#closed) throw connectionError('the connector is closed')
      const idle = this.#idle.pop()
      if (idle !== undefined) {
        clearTimeout(idle.timer)
        return idle.session
      }
      if (this.#open.size + this.#pending < this.max) {
        this.#pending++
        try {
          const session = await this.create()
          this.#open.add(session)
          if (this.#closed) {
            this.#destroy(session)
            throw connectionError('the connector is closed')
          }
          return session
        } finally {
          this.#pending--
          this.#wake()
        }
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve))
    }
  }

  #pending = 0

  release(session: Session, reusable: boolean): void {
    if (!reusable || this.#closed) this.#destroy(session)
    else {
      const timer = setTimeout(() => {
        const at = this.#idle.findIndex((i) => i.session === session)
        if (at >= 0) this.#idle.splice(at, 1)
        this.#destroy(session)
      }, IDLE_TIMEOUT_MS)
      timer.unref?.()
      this.#idle.push({ session, timer })
    }
    this.#wake()
  }

  /** Sessions open on the server (idle or in use). */
  get size(): number {
    return this.#open.size
  }

  async close(): Promise<void> {
    this.#closed = true
    for (const idle of this.#idle.splice(0)) clearTimeout(idle.timer)
    const all = [...this.#open]
    await Promise.all(all.map((s) => this.#destroy(s)))
    for (const wake of this.#waiting.splice(0)) wake()
  }

  /** Ends the session on the server (POST /session?delete=true); failures are ignored. */
  #destroy(session: Session): Promise<void> {
    if (!this.#open.delete(session)) return Promise.resolve()
    return new Promise<void>((resolve) => {
      // A server that no longer answers must not hold close() up.
      const timer = setTimeout(resolve, DESTROY_GRACE_MS)
      const done = () => {
        clearTimeout(timer)
        resolve()
      }
      try {
        session.connection.destroy(done)
      } catch {
        done()
      }
    })
  }

  #wake(): void {
    this.#waiting.shift()?.()
  }
}
