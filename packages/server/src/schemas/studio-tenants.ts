import { type Static, Type } from '@fastify/type-provider-typebox'

/** The tenants the studio's preview offers: one workspace's, searched, a page of 100. */
export const TenantsQuery = Type.Object(
  {
    workspaceName: Type.String({ minLength: 1, maxLength: 500 }),
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Case-insensitive contains; `%` and `_` match themselves',
      }),
    ),
    cursor: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,4}$', description: 'The `nextCursor` of the previous page' }),
    ),
  },
  { additionalProperties: false },
)
export type TenantsRequest = Static<typeof TenantsQuery>

export const TenantsResponse = Type.Object({
  data: Type.Object({
    source: Type.Union([Type.Literal('column'), Type.Literal('database'), Type.Literal('none')], {
      description:
        'column: the distinct values of the tenant column; database: the datasource’s databases (DATABASE tenancy); none: the workspace has no tenancy (type any clientId)',
    }),
    column: Type.Union([Type.String(), Type.Null()], {
      description: 'schema.table.column read, when source is column',
    }),
    values: Type.Array(Type.String(), { description: 'Ascending, at most 100' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page' }),
  }),
})
