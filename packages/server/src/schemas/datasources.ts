import { Type } from '@fastify/type-provider-typebox'
import { BooleanString, PageNumberString } from './common.js'

const TenancySettings = Type.Object(
  {
    tenancyLevel: Type.Union([Type.Literal('TABLE'), Type.Literal('DATABASE')]),
    clientColumnType: Type.Optional(Type.Union([Type.Literal('NUMBER'), Type.Literal('STRING')])),
    schemaName: Type.Optional(Type.String()),
    tableName: Type.Optional(Type.String()),
    tableClientNameColumn: Type.Optional(Type.String()),
    tablePrimaryKeyColumn: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
)

/**
 * Create and update answer the datasource without any credential field; its name also at the
 * top level, where the hosted service's examples read it.
 */
export const DatasourceResponse = Type.Object({
  name: Type.String({ description: 'The datasource name (as `data.name`)' }),
  data: Type.Object({
    id: Type.String({ description: 'use as datasourceId for sync' }),
    name: Type.String(),
    datasourceType: Type.String(),
    tenancySettings: Type.Union([TenancySettings, Type.Null()]),
    tables: Type.Integer({ description: 'tables found by introspection' }),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    warnings: Type.Optional(
      Type.Immutable(
        Type.Array(Type.String(), {
          description:
            'Present when the datasource was saved but introspection found no table (the reason and what to do)',
        }),
      ),
    ),
  }),
  error: Type.Null(),
})
export const DeleteDatasourceQuery = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)
export const DeletedResponse = Type.Object({ id: Type.String(), error: Type.Null() })

export const SyncBody = Type.Object(
  {
    input: Type.Object(
      { datasourceId: Type.String({ minLength: 1, maxLength: 200, description: 'The id from create, or the name' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, examples: [{ input: { datasourceId: 'warehouse' } }] },
)
export const MessageResponse = Type.Object({ data: Type.Object({ message: Type.String() }) })

export const ListQuery = Type.Object(
  { isPagination: Type.Optional(BooleanString), pageNumber: Type.Optional(PageNumberString) },
  { additionalProperties: false },
)

export const DatasourceList = Type.Object({
  data: Type.Array(Type.Object({ name: Type.String(), datasourceType: Type.String(), createdAt: Type.String() })),
})

export const FileParams = Type.Object(
  {
    datasourceName: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'The folder under FILES_ROOT (usually the datasource name): letters, digits, _ - . (not first)',
    }),
    fileName: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'Letters, digits, _ - . (not first); ends in .csv, .parquet or .json',
    }),
  },
  { additionalProperties: false },
)

/** The raw file: any Content-Type, never parsed. */
export const FileBody = Type.Unknown({
  description: 'The file itself, as the raw body (up to FILE_UPLOAD_LIMIT)',
  examples: ['country,amount,ordered_at\nDE,120.50,2026-01-15\nFR,80.00,2026-01-16\n'],
})

export const StoredFileResponse = Type.Object({
  data: Type.Object({
    path: Type.String({ description: 'Relative to FILES_ROOT: use it (or its folder) as a csv datasource path' }),
    size: Type.Integer({ description: 'bytes stored' }),
  }),
  error: Type.Null(),
})

export const TablesQuery = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, description: 'The datasource name' }) },
  { additionalProperties: false },
)
