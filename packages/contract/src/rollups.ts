import { type Static, type TLiteral, type TUnion, Type } from 'typebox'

/**
 * Rollups of a dashboard document (docs/rollups.md): pre-aggregated tables built from the
 * warehouse with a GROUP BY, kept as Parquet files. Either a list of definitions or "auto"
 * (one rollup per table and time column, derived from the dashboard's structured metrics).
 */

const closed = { additionalProperties: false } as const
const literals = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v)) as unknown as { -readonly [K in keyof T]: TLiteral<T[K]> }) as TUnion<{
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
