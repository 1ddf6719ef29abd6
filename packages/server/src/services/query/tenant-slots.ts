import { queryTimeout } from '../../connectors/errors.js'

interface Gate {
  active: number
  readonly waiting: (() => void)[]
}

/**
 * At most `perTenant` warehouse queries in flight per tenant (per datasource and clientId), so
 * that one tenant's slow queries can hold only part of a datasource's pool and other tenants
 * keep being served. A query waits for a slot in arrival order; the wait counts against its
 * timeout (a query that gets no slot in time answers QUERY_TIMEOUT without running). Idle
 * tenants hold no state.
 */
export class TenantSlots {
  private readonly gates = new Map<string, Gate>()

  constructor(private readonly perTenant: number) {}

  /**
   * Runs `work` within a slot. `work` gets the milliseconds left of `timeoutMs`: all of it when a
   * slot was free at once (the usual case, and a stable value, which connectors that keep
   * session settings per connection rely on), else what the wait left.
   */
  async run<T>(tenant: string, timeoutMs: number, work: (remainingMs: number) => Promise<T>): Promise<T> {
    const started = performance.now()
    const waited = this.acquire(tenant, timeoutMs)
    if (waited) await waited
    try {
      return await work(waited ? Math.max(1, Math.round(timeoutMs - (performance.now() - started))) : timeoutMs)
    } finally {
      this.release(tenant)
    }
  }

  /** Queries of `tenant` running now (for tests and metrics). */
  active(tenant: string): number {
    return this.gates.get(tenant)?.active ?? 0
  }

  /** Takes a slot at once (undefined) or a promise of one. */
  private acquire(tenant: string, timeoutMs: number): Promise<void> | undefined {
    let gate = this.gates.get(tenant)
    if (!gate) {
      gate = { active: 0, waiting: [] }
      this.gates.set(tenant, gate)
    }
    if (gate.active < this.perTenant) {
      gate.active++
      return undefined
    }
    const queue = gate.waiting
    return new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(admit), 1)
        reject(queryTimeout(timeoutMs))
      }, timeoutMs)
      queue.push(admit)
    })
  }

  private release(tenant: string): void {
    const gate = this.gates.get(tenant)
    if (!gate) return
    const next = gate.waiting.shift()
    if (next) {
      next() // the slot passes straight to the next query
      return
    }
    gate.active--
    if (gate.active === 0) this.gates.delete(tenant)
  }
}
