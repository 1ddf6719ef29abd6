import { type Static, type TLiteral, type TUnion, Type } from 'typebox'

/**
 * Rollups of a dashboard document (docs/rollups.md): pre-aggregated tables built from the
 * warehouse with a GROUP BY, kept as Parquet files. Either a list of definitions or "auto"
 * (one rollup per table and time column, derived from the dashboard's structured metrics).
 */

const closed = { additionalProperties: false } as const
const literals = <const T extends readonly string[]>(values: T, options?: { readonly description: string }) =>
  Type.Union(
    values.map((v) => Type.Literal(v)) as unknown as { -readonly [K in keyof T]: TLiteral<T[K]> },
    options,
  ) as TUnion<{
    -readonly [K in keyof T]: TLiteral<T[K]>
  }>

/**
 * What a rollup measure may be. `count-distinct` (also spelt `count_distinct`) is accepted by the
 * schema so that validation can say why it is refused: distinct counts do not re-aggregate.
 */
export const ROLLUP_AGGREGATES = ['sum', 'count', 'min', 'max', 'avg', 'count-distinct', 'count_distinct'] as const
export const ROLLUP_GRAINS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const
/** `30m`, `1h`, `12 hours`, `7 days`, `2w`: a number and a unit (minutes, hours, days, weeks). */
export const DURATION_PATTERN = '^[1-9][0-9]{0,5} ?(m|min|mins|minute|minutes|h|hour|hours|d|day|days|w|week|weeks)$'

export type RollupAggregate = (typeof ROLLUP_AGGREGATES)[number]
export type RollupGrain = (typeof ROLLUP_GRAINS)[number]

const Duration = Type.String({ pattern: DURATION_PATTERN, maxLength: 20 })

export const RollupMeasureSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
    aggregate: literals(ROLLUP_AGGREGATES),
    /** Required except for count (rows). */
    column: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  closed,
)

export const RollupSchema = Type.Object(
  {
    /** Unique in the dashboard; also the name of its folder of files. */
    name: Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9_][A-Za-z0-9_-]*$' }),
    /** `schema.table`, or `table` when unambiguous. */
    from: Type.String({ minLength: 1, maxLength: 512 }),
    time: Type.Optional(
      Type.Object({ column: Type.String({ minLength: 1, maxLength: 256 }), grain: literals(ROLLUP_GRAINS) }, closed),
    ),
    /** Columns of `from`, or of a joined table as `table.column` (`schema.table.column`). */
    dimensions: Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 64, uniqueItems: true }),
    measures: Type.Array(RollupMeasureSchema, { minItems: 1, maxItems: 64 }),
    refresh: Type.Optional(
      Type.Object(
        {
          every: Duration,
          /** Rebuild only the time partitions this far back; older ones are kept. Needs `time`. */
          incremental: Type.Optional(Duration),
        },
        closed,
      ),
    ),
  },
  closed,
)

export const RollupsSchema = Type.Union([
  Type.Literal('auto'),
  Type.Array(RollupSchema, { maxItems: 50, description: 'Rollup definitions, or "auto"' }),
])

export type RollupMeasure = Static<typeof RollupMeasureSchema>
export type Rollup = Static<typeof RollupSchema>
export type Rollups = Static<typeof RollupsSchema>

/** The states a rollup is in: see `RollupStatusSchema`. */
export const ROLLUP_STATES = ['building', 'ready', 'failed', 'stale'] as const
export type RollupStateName = (typeof ROLLUP_STATES)[number]

/**
 * One rollup's state as the rollup routes answer it (docs/rollups.md#observing): the server
 * validates and documents its answers with this schema, the studio reads it.
 */
export const RollupStatusSchema = Type.Object({
  workspaceName: Type.String(),
  /** The external dashboard id */
  dashboardId: Type.String(),
  name: Type.String(),
  state: literals(ROLLUP_STATES, {
    description:
      'building: a build runs; ready: the files match the definition (under DATABASE tenancy, lastError may name tenant databases the last build could not refresh); failed: the last build failed (lastError says why); stale: never built, or the definition changed since',
  }),
  rows: Type.Integer({ description: 'Rows in the files' }),
  bytes: Type.Integer({ description: 'Bytes of the files' }),
  partitions: Type.Integer({ description: 'Files (time partitions, per tenant database with DATABASE tenancy)' }),
  lastRefreshAt: Type.Union([Type.String(), Type.Null()], { description: 'When the last build ended (ISO)' }),
  nextRefreshAt: Type.Union([Type.String(), Type.Null()], {
    description: 'When the next build is due (ISO); null: not scheduled until the definition changes',
  }),
  lagSeconds: Type.Union([Type.Integer(), Type.Null()], {
    description: 'How old the data in the files is: seconds since the last successful build started',
  }),
  lastError: Type.Union([Type.String(), Type.Null()], {
    description:
      'Why the last build failed; on a ready rollup under DATABASE tenancy, the tenant databases the last build could not refresh (how many, the first names, the first errors); null after a build that refreshed every part',
  }),
})

export type RollupStatus = Static<typeof RollupStatusSchema>
