import { type Static, Type } from 'typebox'

/**
 * Shapes the studio (packages/studio) reads from the organization routes that exist for it:
 * the credential form of each datasource type, and the tables a datasource's introspection
 * found. The server validates and documents its answers with these schemas.
 */

/** How a credential field is entered. */
export const CredentialFieldKindSchema = Type.Union([
  Type.Literal('text'),
  Type.Literal('longText'),
  Type.Literal('integer'),
  Type.Literal('boolean'),
  Type.Literal('choice'),
])

/** One field of a type's credentials, in the order the form shows them. */
export const CredentialFieldSchema = Type.Object({
  name: Type.String({ description: 'The key under `credentials`' }),
  label: Type.String(),
  description: Type.String(),
  kind: CredentialFieldKindSchema,
  required: Type.Boolean(),
  secret: Type.Boolean({ description: 'Never answered back; the form leaves it empty and keeps the saved value' }),
  options: Type.Optional(Type.Array(Type.String(), { description: 'The values of a `choice`' })),
  minimum: Type.Optional(Type.Number()),
  maximum: Type.Optional(Type.Number()),
  default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
})

export const DatasourceTypeInfoSchema = Type.Object({
  datasourceType: Type.String(),
  title: Type.String({ description: 'The type in words, e.g. PostgreSQL credentials' }),
  supported: Type.Boolean({ description: 'false: the credentials validate, but this server cannot connect to it' }),
  fullJoin: Type.Boolean({ description: 'The engine has FULL JOIN: a datamart relationship of this type may use it' }),
  fields: Type.Array(CredentialFieldSchema),
})

export const DatasourceTypesResponseSchema = Type.Object({ data: Type.Array(DatasourceTypeInfoSchema) })

export const IntrospectedColumnSchema = Type.Object({
  name: Type.String(),
  dataType: Type.String({ description: 'string, number, integer, boolean, date, datetime, json or unknown' }),
  nativeType: Type.Optional(Type.String()),
})

export const IntrospectedTableSchema = Type.Object({
  schema: Type.String(),
  name: Type.String(),
  columns: Type.Array(IntrospectedColumnSchema),
})

export const DatasourceTablesResponseSchema = Type.Object({
  data: Type.Object({
    name: Type.String(),
    datasourceType: Type.String(),
    tables: Type.Array(IntrospectedTableSchema),
    updatedAt: Type.String(),
  }),
  error: Type.Null(),
})

export const DatasourceSettingsResponseSchema = Type.Object({
  data: Type.Object({
    name: Type.String(),
    datasourceType: Type.String(),
    credentials: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The stored credentials without any secret field',
    }),
    storedSecrets: Type.Array(Type.String(), {
      description: 'The secret fields that hold a stored value (names only): an update that omits one keeps it',
    }),
    tenancySettings: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    updatedAt: Type.String(),
  }),
  error: Type.Null(),
})

export const AdminAccountStatusSchema = Type.Object({
  data: Type.Object({ created: Type.Boolean({ description: 'An admin account exists: sign in; false: create it' }) }),
})

export type CredentialField = Static<typeof CredentialFieldSchema>
export type DatasourceTypeInfo = Static<typeof DatasourceTypeInfoSchema>
export type IntrospectedTable = Static<typeof IntrospectedTableSchema>
export type DatasourceSettings = Static<typeof DatasourceSettingsResponseSchema>['data']
export type DatasourceTables = Static<typeof DatasourceTablesResponseSchema>['data']
