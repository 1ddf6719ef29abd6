import type { ExpressionBuilder, Kysely, Selectable, Updateable } from 'kysely'
import type { Database } from './schema.js'

/**
 * The tables whose rows are worked on once across every instance on one metadata store (email
 * reports sent, rollups built), each with the columns that name a row and the one that says when
 * it is next due. Each also holds the row's lease: `leased_by` (an instance id) until `lease_until`.
 */
const LEASED = {
  email_reports: { key: ['report_id'], due: 'next_run_at' },
  rollups: { key: ['dashboard_row_id', 'name'], due: 'next_refresh_at' },
} as const

export type LeasedTable = keyof typeof LEASED
type Row<T extends LeasedTable> = Selectable<Database[T]>
/** A row as `due` lists it: its key and its due time. */
export type DueRow<T extends LeasedTable> = Pick<
  Row<T>,
  Extract<(typeof LEASED)[T]['key'][number] | (typeof LEASED)[T]['due'], keyof Row<T>>
>

/**
 * The statements below are the same on every leased table, with its own names: Kysely checks them
 * against this view of one, where every column is a text, a number or null. `Leases` alone takes
 * the view, and gives its callers the table's own row types.
 */
type Cell = string | number | null
type LeaseView = Record<LeasedTable, Record<string, Cell>>

export interface LeaseOptions<T extends LeasedTable> {
  /** The instance that takes the leases (its PollLoop's instanceId). */
  readonly holder: string
  /** How long a lease lasts once taken; a holder that dies leaves it to expire. */
  readonly ms: number
  /** Rows with these values are never due (an email report stopped for good). */
  readonly never?: Readonly<Partial<Row<T>>>
}

/**
 * One instance's leases on one table. `due` lists the rows due whose lease is free (none, or
 * expired); `take` takes one's lease with a conditional UPDATE that matches only while the row is
 * still due at the time `due` read and its lease is free, so of the instances racing for a row
 * exactly one gets it, and the others' UPDATE matches nothing. The holder drops the lease when
 * it records its outcome (`released`), on the row it still holds (`leased_by`).
 */
export class Leases<T extends LeasedTable> {
  private readonly db: Kysely<LeaseView>
  private readonly table: LeasedTable

  constructor(
    db: Kysely<Database>,
    table: T,
    private readonly options: LeaseOptions<T>,
  ) {
    this.db = db as unknown as Kysely<LeaseView>
    this.table = table
  }

  /** Up to `limit` rows due at `now` whose lease is free, the earliest due first. */
  async due(now: Date, limit: number): Promise<DueRow<T>[]> {
    const at = now.toISOString()
    const { key, due } = LEASED[this.table]
    const rows = await this.db
      .selectFrom(this.table)
      .select([...key, due])
      .where(due, '<=', at)
      .where((eb) => eb.and(this.open(eb, at)))
      .orderBy(due)
      .limit(limit)
      .execute()
    return rows as unknown as DueRow<T>[]
  }

  /**
   * Takes `row`'s lease for the due time `due` listed (setting `also` with it, in the same
   * UPDATE): the row as taken, or undefined when another instance took it or it is due no longer.
   */
  async take(row: DueRow<T>, now: Date, also: Updateable<Database[T]> = {}): Promise<Row<T> | undefined> {
    const { key, due } = LEASED[this.table]
    const cells = row as unknown as Readonly<Record<string, Cell>>
    // the row, and its due time as listed: a row since built, sent or refreshed is due no longer
    const listed = Object.fromEntries([...key, due].map((column) => [column, cells[column] ?? null]))
    const taken = await this.db
      .updateTable(this.table)
      .set({
        ...(also as Record<string, Cell>),
        leased_by: this.options.holder,
        lease_until: new Date(now.getTime() + this.options.ms).toISOString(),
      })
      .where((eb) => eb.and(listed))
      .where((eb) => eb.and(this.open(eb, now.toISOString())))
      .returningAll()
      .executeTakeFirst()
    return taken as unknown as Row<T> | undefined
  }

  /** Not excluded by `never`, and no lease or an expired one at `at`. */
  private open(eb: ExpressionBuilder<LeaseView, LeasedTable>, at: string) {
    const never = Object.entries(this.options.never ?? {}) as [string, Cell][]
    return [
      ...never.map(([column, value]) => eb(column, '!=', value)),
      eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]),
    ]
  }
}

/** The columns that drop a lease, set with the holder's outcome. */
export const released = { leased_by: null, lease_until: null } as const
