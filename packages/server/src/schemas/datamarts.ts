import { type TSchema, Type } from '@fastify/type-provider-typebox'
import { ColumnFormatSchema } from '@strata/contract/document'
import { BooleanString, PageNumberString } from './common.js'

const Name = Type.String({ minLength: 1, maxLength: 200 })
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])

export const Cardinality = Type.Union([
  Type.Literal('ManyToMany'),
  Type.Literal('ManyToOne'),
  Type.Literal('OneToMany'),
  Type.Literal('OneToOne'),
])
export const JoinType = Type.Union([
  Type.Literal('INNER JOIN'),
  Type.Literal('LEFT JOIN'),
  Type.Literal('RIGHT JOIN'),
  Type.Literal('FULL JOIN'),
])
export const SortDirection = Type.Union([Type.Literal('ASC'), Type.Literal('DESC')])

/**
 * Request fields accept our names and the hosted service's (docs/api.md#datamarts): `name` or
 * `columnName`, `isTimezoneConversion` or `isApplyTimezone`, and so on. Both spellings of one
 * field with different values is a 400 naming both (services/datamarts/datamart-input.ts).
 */
const either = (ours: string, theirs: string) => `Required as \`${ours}\` or \`${theirs}\` (the same field).`

export const DatamartColumnInput = Type.Object(
  {
    name: Type.Optional(Name),
    columnName: Type.Optional(Name),
    datatype: Type.Optional(
      Type.String({ maxLength: 200, description: 'Accepted and ignored: the type is read from the database' }),
    ),
    alias: Type.Optional(Type.String({ maxLength: 200 })),
    label: Type.Optional(Type.String({ maxLength: 200 })),
    isHide: Type.Optional(Type.Boolean()),
    format: Type.Optional({
      ...ColumnFormatSchema,
      description:
        "How the column's values read on cards, tables and axes (number, currency, percent, id, text); inferred from its name and type when absent (docs/dashboard-document.md#column-formats)",
    }),
    isCustomColumn: Type.Optional(Type.Boolean()),
    sql: Type.Optional(Type.String({ maxLength: 10_000 })),
    isTimezoneConversion: Type.Optional(Type.Boolean()),
    isApplyTimezone: Type.Optional(Type.Boolean()),
    defaultSort: Type.Optional(Nullable(SortDirection)),
  },
  { additionalProperties: false, description: either('name', 'columnName') },
)

export const DatamartTableInput = Type.Object(
  {
    schemaName: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          "The table's schema. Required where the datasource's tables have one; empty or omitted for datasources whose tables have none (an Elasticsearch or OpenSearch index).",
      }),
    ),
    name: Type.Optional(Name),
    tableName: Type.Optional(Name),
    label: Type.Optional(Type.String({ maxLength: 200 })),
    clientColumn: Type.Optional(Nullable(Name)),
    isHide: Type.Optional(Type.Boolean()),
    columns: Type.Optional(Type.Array(DatamartColumnInput, { maxItems: 2000 })),
    datamartTableColumns: Type.Optional(Type.Array(DatamartColumnInput, { maxItems: 2000 })),
  },
  { additionalProperties: false, description: either('name', 'tableName') },
)

export const RelationshipInput = Type.Object(
  {
    parentTable: Type.Optional(Name),
    parentTableName: Type.Optional(Name),
    parentColumn: Type.Optional(Name),
    parentColumnName: Type.Optional(Name),
    childTable: Type.Optional(Name),
    childTableName: Type.Optional(Name),
    childColumn: Type.Optional(Name),
    childColumnName: Type.Optional(Name),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    relationshipName: Type.Optional(Type.String({ maxLength: 200 })),
    cardinality: Type.Optional(Nullable(Cardinality)),
    joinType: Type.Optional(Nullable(JoinType)),
    join: Type.Optional(Nullable(JoinType)),
  },
  {
    additionalProperties: false,
    description:
      'Tables and columns required, each under either name: parentTable or parentTableName, parentColumn or parentColumnName, childTable or childTableName, childColumn or childColumnName; name or relationshipName; joinType or join.',
  },
)

const TenancySettingsInput = Type.Object({}, { additionalProperties: true, description: 'as on the datasource' })

/** Two tables of the example warehouse, joined; a client column, a label, a hidden and a custom column. */
const exampleTables = {
  tableList: [
    {
      schemaName: 'public',
      name: 'orders',
      label: 'Orders',
      clientColumn: 'tenant',
      columns: [
        { name: 'amount', label: 'Amount', defaultSort: 'DESC' },
        { name: 'internal_note', isHide: true },
        { name: 'amount_eur', isCustomColumn: true, sql: 'amount * 0.92', label: 'Amount (EUR)' },
      ],
    },
    { schemaName: 'public', name: 'customers', label: 'Customers', clientColumn: 'tenant' },
  ],
  relationships: [
    {
      parentTable: 'public.customers',
      parentColumn: 'id',
      childTable: 'public.orders',
      childColumn: 'customer_id',
      name: 'customer orders',
      cardinality: 'OneToMany',
      joinType: 'LEFT JOIN',
    },
  ],
}

export const CreateDatamartBody = Type.Object(
  {
    name: Name,
    datasourceName: Name,
    tableList: Type.Array(DatamartTableInput, { minItems: 1, maxItems: 1000 }),
    relationships: Type.Optional(Type.Array(RelationshipInput, { maxItems: 1000 })),
    tenancySettings: Type.Optional(TenancySettingsInput),
  },
  { additionalProperties: false, examples: [{ name: 'sales', datasourceName: 'warehouse', ...exampleTables }] },
)

export const UpdateDatamartBody = Type.Object(
  {
    datamartName: Name,
    tableList: Type.Array(DatamartTableInput, { minItems: 1, maxItems: 1000 }),
    relationships: Type.Optional(Type.Array(RelationshipInput, { maxItems: 1000 })),
    tenancySettings: Type.Optional(TenancySettingsInput),
  },
  { additionalProperties: false, examples: [{ datamartName: 'sales', ...exampleTables }] },
)

export const DatamartIdResponse = Type.Object({ id: Type.String(), error: Type.Null() })

export const DeleteDatamartQuery = Type.Object({ datamartName: Name }, { additionalProperties: false })
export const DeleteDatamartBody = Type.Object(
  { datamartName: Name },
  { additionalProperties: false, examples: [{ datamartName: 'sales' }] },
)

export const DatamartListQuery = Type.Object(
  {
    isPagination: Type.Optional(BooleanString),
    pageNumber: Type.Optional(PageNumberString),
    expandDetails: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: false },
)

export const DatamartListBody = Type.Object(
  {
    isPagination: Type.Optional(Type.Boolean()),
    pageNumber: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    expandDetails: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, examples: [{ isPagination: true, pageNumber: 1, expandDetails: false }] },
)

const DatamartColumn = Type.Object({
  columnName: Type.String(),
  datatype: Type.String({
    description:
      "The column's data type as read from the database: string, number, integer, boolean, date, datetime, json or unknown",
  }),
  alias: Type.String(),
  label: Type.String(),
  isHide: Type.Boolean(),
  format: Type.Optional(ColumnFormatSchema),
  isCustomColumn: Type.Boolean(),
  sql: Type.String(),
  isApplyTimezone: Type.Boolean(),
  defaultSort: Nullable(SortDirection),
})

export const DatamartTable = Type.Object({
  schemaName: Type.String({ description: "The table's schema; empty for a table that has none (an index)" }),
  tableName: Type.String(),
  label: Type.String(),
  clientColumn: Nullable(Type.String()),
  isHide: Type.Boolean(),
  datamartTableColumns: Type.Array(DatamartColumn),
})

export const DatamartRelationship = Type.Object({
  parentTableName: Type.String({ description: 'schema.table, or table where it has no schema' }),
  parentColumnName: Type.String(),
  childTableName: Type.String({ description: 'schema.table, or table where it has no schema' }),
  childColumnName: Type.String(),
  relationshipName: Type.String(),
  cardinality: Nullable(Cardinality),
  join: Nullable(JoinType),
})

export const DatamartItem = Type.Object({
  name: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  datamartOrganization: Type.Object({
    tenancyLevel: Nullable(
      Type.Union([Type.Literal('TABLE'), Type.Literal('DATABASE'), Type.Literal('MULTI_DATABASE')]),
    ),
    schemaName: Nullable(Type.String()),
    tableName: Nullable(Type.String()),
    clientColumnType: Nullable(Type.String()),
    primaryDatabaseName: Nullable(Type.String()),
    tableClientNameColumn: Nullable(Type.String()),
    tablePrimaryKeyColumn: Nullable(Type.String()),
  }),
  companyIntegration: Type.Object({ name: Type.String(), datasourceType: Type.String() }),
  datamartTables: Type.Optional(Type.Array(DatamartTable)),
  datamartRelationships: Type.Optional(Type.Array(DatamartRelationship)),
})

export const DatamartList = Type.Object({ data: Type.Array(DatamartItem), error: Type.Null() })
