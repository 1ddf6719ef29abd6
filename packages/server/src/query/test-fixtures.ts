import type { ColumnInfo, DataType, TableInfo } from '../connectors/types.js'
import type { CompileContext } from './compile.js'
import type { Metric } from './document-schema.js'
import { buildModel, type DatamartModel, type SemanticModel } from './model.js'

/** Shared by the query tests: a small sales schema (orders → customers → countries). */
const c = (name: string, dataType: DataType, nativeType = dataType as string): ColumnInfo => ({
  name,
  dataType,
  nativeType,
  nullable: true,
})

export const TABLES: TableInfo[] = [
  {
    schema: 'public',
    name: 'orders',
    columns: [
      c('id', 'integer'),
      c('client_id', 'string'),
      c('customer_id', 'integer'),
      c('amount', 'number'),
      c('status', 'string'),
      c('paid', 'boolean'),
      c('created_at', 'datetime', 'timestamp without time zone'),
      c('ordered_on', 'date'),
    ],
  },
  {
    schema: 'public',
    name: 'customers',
    columns: [c('id', 'integer'), c('client_id', 'string'), c('name', 'string'), c('country_code', 'string')],
  },
  { schema: 'public', name: 'countries', columns: [c('code', 'string'), c('name', 'string'), c('region', 'string')] },
  { schema: 'public', name: 'tenants', columns: [c('id', 'integer'), c('name', 'string')] },
  { schema: 'public', name: 'audit', columns: [c('id', 'integer'), c('what', 'string')] },
  { schema: 'archive', name: 'audit', columns: [c('id', 'integer')] },
]

export const DATAMART: DatamartModel = {
  tableList: [
    {
      schemaName: 'public',
      name: 'orders',
      clientColumn: 'client_id',
      columns: [
        { name: 'amount_with_tax', isCustomColumn: true, sql: 'amount * 1.2', dataType: 'number' },
        { name: 'created_at', isTimezoneConversion: true },
        { name: 'status', alias: 'state' },
      ],
    },
    { schemaName: 'public', name: 'customers', clientColumn: 'client_id' },
    { schemaName: 'public', name: 'countries' },
    { schemaName: 'public', name: 'tenants' },
    { schemaName: 'public', name: 'audit' },
  ],
  relationships: [
    { parentTable: 'public.customers', parentColumn: 'id', childTable: 'public.orders', childColumn: 'customer_id' },
    {
      parentTable: 'countries',
      parentColumn: 'code',
      childTable: 'customers',
      childColumn: 'country_code',
      joinType: 'INNER JOIN',
    },
  ],
}

export const model = (): SemanticModel => buildModel(TABLES, DATAMART)
/** The same schema without a datamart (no client columns, no relationships, no conversion). */
export const bareModel = (): SemanticModel => buildModel(TABLES)

export const NOW = new Date('2024-03-15T10:30:00Z')

export const ctx = (over: Partial<CompileContext> = {}): CompileContext => ({
  tenancy: { kind: 'none' },
  rls: {},
  filters: [],
  timezone: 'UTC',
  now: NOW,
  ...over,
})

export const metric = (query: Metric['query'], over: Partial<Metric> = {}): Metric => ({
  metricId: 'm1',
  name: 'M1',
  chart: { type: 'table' },
  ...(query ? { query } : {}),
  ...over,
})
