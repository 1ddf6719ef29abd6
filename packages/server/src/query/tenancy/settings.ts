/**
 * tenancySettings (docs/datasources.md#tenancysettings-1): how a datasource isolates its clients. TABLE tenancy
 * filters rows by a client column of one table; DATABASE tenancy gives each client its own
 * database. The schema feeds validation and docs; `TenancySettings` is the validated shape.
 */
import Type, { type Static } from 'typebox'
import { choice } from '../../connectors/credentials/fields.js'

const identifier = (label: string, description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 255, label, description }))

const whenTable = 'Required when tenancyLevel is TABLE.'

export const TenancySettingsSchema = Type.Object(
  {
    tenancyLevel: choice(['TABLE', 'DATABASE'], 'Tenancy level', 'Row filter on a table, or one database per client.'),
    clientColumnType: Type.Optional(
      choice(['NUMBER', 'STRING'], 'Client column type', `Type of the client column. ${whenTable}`),
    ),
    schemaName: identifier('Schema name', `Schema of the tenancy table. ${whenTable}`),
    tableName: identifier('Table name', `The tenancy table. ${whenTable}`),
    tableClientNameColumn: identifier('Client name column', `Column holding the client id. ${whenTable}`),
    tablePrimaryKeyColumn: identifier('Primary key column', `Primary key of the tenancy table. ${whenTable}`),
  },
  { additionalProperties: false, title: 'Tenancy settings' },
)

type Structural = Static<typeof TenancySettingsSchema>

/** The fields TABLE tenancy requires, in the order their absence is reported. */
export const TABLE_TENANCY_FIELDS = [
  'clientColumnType',
  'schemaName',
  'tableName',
  'tableClientNameColumn',
  'tablePrimaryKeyColumn',
] as const

export type TableTenancySettings = Readonly<
  Omit<Structural, 'tenancyLevel' | (typeof TABLE_TENANCY_FIELDS)[number]> & {
    tenancyLevel: 'TABLE'
  } & Required<Pick<Structural, (typeof TABLE_TENANCY_FIELDS)[number]>>
>

/** DATABASE tenancy: the table fields may be present (kept across level changes), and are unused. */
export type DatabaseTenancySettings = Readonly<Omit<Structural, 'tenancyLevel'> & { tenancyLevel: 'DATABASE' }>

export type TenancySettings = TableTenancySettings | DatabaseTenancySettings
