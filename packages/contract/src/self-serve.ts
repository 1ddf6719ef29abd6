import { type Static, Type } from 'typebox'
import { LayoutItemSchema } from './document.js'

/**
 * The layout and views routes of the self-serve runtime API (DESIGN.md §2.8). The grid rules
 * that a schema cannot say (x + w ≤ 12, each metric once, only metrics the token sees) are
 * the server's to check (services/self-serve/layout-grid.ts).
 */
const closed = { additionalProperties: false } as const

export const GridItem = Type.Object(
  {
    metricId: Type.String({ minLength: 1, maxLength: 200 }),
    x: Type.Integer({ minimum: 0, maximum: 11, description: 'Column, 0–11' }),
    y: Type.Integer({ minimum: 0, maximum: 100_000, description: 'Row' }),
    w: Type.Integer({ minimum: 1, maximum: 12, description: 'Columns wide; x + w ≤ 12' }),
    h: Type.Integer({ minimum: 1, maximum: 40, description: 'Rows high' }),
  },
  closed,
)

/** At most 500 items, each metric at most once. */
export const GridLayout = Type.Array(GridItem, { maxItems: 500 })

export const PutLayoutBody = Type.Object(
  { layout: GridLayout },
  {
    ...closed,
    examples: [
      {
        layout: [
          { metricId: 'revenue_by_country', x: 0, y: 0, w: 8, h: 5 },
          { metricId: 'revenue', x: 8, y: 0, w: 4, h: 5 },
        ],
      },
    ],
  },
)

/** What PUT and DELETE /layout answer: the layout the load now returns (with appended metrics). */
export const LayoutResponse = Type.Object({
  data: Type.Object({ layout: Type.Immutable(Type.Array(LayoutItemSchema)) }),
  error: Type.Null(),
})

/**
 * A view's filter values: dashboard filter name or label → value, in the spec's end-user forms
 * (the `{ sql, columnName }` form is for secret-key holders only).
 */
export const ViewFilterValue = Type.Union([
  Type.Boolean(),
  Type.Number(),
  Type.String({ maxLength: 1_000 }),
  Type.Array(Type.Union([Type.String({ maxLength: 1_000 }), Type.Number(), Type.Boolean()]), { maxItems: 1_000 }),
  Type.Object(
    {
      startDate: Type.Optional(Type.String({ maxLength: 64 })),
      endDate: Type.Optional(Type.String({ maxLength: 64 })),
    },
    closed,
  ),
  Type.Object({ min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) }, closed),
])

export const ViewFilters = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), ViewFilterValue, {
  maxProperties: 100,
  description: 'Dashboard filter name (or label) → value, as a runtime query’s dashboardFilter',
})

export const ViewName = Type.String({ minLength: 1, maxLength: 100 })

export const CreateViewBody = Type.Object(
  { name: ViewName, filters: ViewFilters, layout: Type.Optional(GridLayout) },
  {
    ...closed,
    examples: [
      {
        name: 'Germany, last quarter',
        filters: { country: ['DE'], period: 'Last quarter' },
        layout: [{ metricId: 'revenue_by_country', x: 0, y: 0, w: 12, h: 6 }],
      },
    ],
  },
)
export type CreateViewInput = Static<typeof CreateViewBody>

export const RuntimeView = Type.Object({
  viewId: Type.String(),
  name: Type.String(),
  filters: Type.Record(Type.String(), Type.Unknown()),
  layout: Type.Optional(Type.Immutable(Type.Array(LayoutItemSchema))),
})
/** A saved view as the browser gets it. */
export type RuntimeView = Static<typeof RuntimeView>

export const ViewsResponse = Type.Object({ data: Type.Immutable(Type.Array(RuntimeView)) })
export const CreatedViewResponse = Type.Object({ data: Type.Object({ viewId: Type.String(), name: Type.String() }) })
export const DeletedViewResponse = Type.Object({ data: Type.Object({ viewId: Type.String() }), error: Type.Null() })
