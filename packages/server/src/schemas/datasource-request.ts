import { ruleDocs } from '../connectors/credentials/rules.js'
import { credentialSchema } from '../connectors/credentials/schemas.js'
import { DATASOURCE_TYPES, type DatasourceType } from '../connectors/types.js'
import { TABLE_TENANCY_FIELDS, TenancySettingsSchema } from '../query/tenancy/settings.js'

/**
 * The datasource create and update bodies as `/openapi.json` shows them: one variant per
 * `datasourceType` (`datasourceType: const`), each with the credentials schema of its type, so
 * a generated client gets typed credentials per type. The route itself validates a lenient body
 * and the service checks the credentials of the type (connectors/credentials/validate.ts), which
 * words the errors (`credentials.port must be an integer between 1 and 65535`) and reads a
 * `null` field as absent; the schemas shown here come from the same TypeBox schemas.
 */

type Json = Record<string, unknown>

/** `credentialSchema('postgres').title` 'PostgreSQL credentials' → `PostgreSQLCredentials`. */
const componentName = (type: DatasourceType): string =>
  String((credentialSchema(type) as { title?: unknown }).title ?? type)
    .replace(/(^|\s)(\S)/g, (_match: string, _space: string, c: string) => c.toUpperCase())
    .replace(/\W/g, '')

/**
 * A field as documented: `label` is its `title`; a secret is `writeOnly` (never answered), a
 * password format; a secret kept on update is said in the operation's description, not here.
 */
function documentedField(field: Json): Json {
  const { label, secret, addition: _ours, endpoint: _endpoint, ...rest } = field
  return {
    ...rest,
    ...(typeof label === 'string' ? { title: label } : {}),
    ...(secret === true ? { writeOnly: true, format: 'password' } : {}),
  }
}

function documentedObject(schema: object, extra: Json): Json {
  const json = JSON.parse(JSON.stringify(schema)) as Json & { properties: Record<string, Json> }
  const properties = Object.fromEntries(Object.entries(json.properties).map(([k, v]) => [k, documentedField(v)]))
  return { ...json, properties, ...extra }
}

/** `PostgreSQLCredentials` …: one named schema per type. */
const credentialComponents: Json[] = DATASOURCE_TYPES.map((type) => {
  const rules = ruleDocs(type)
  return documentedObject(credentialSchema(type), {
    $id: componentName(type),
    description: [
      `The credentials of a \`${type}\` datasource. Unknown fields are refused; a field set to null counts as absent.`,
      ...rules,
    ].join(' '),
  })
})

const tenancy = documentedObject(TenancySettingsSchema, {}) as Json & { properties: Record<string, Json> }
const { tenancyLevel: _level, ...tableFields } = tenancy.properties

/** Create: TABLE tenancy needs every table field; DATABASE needs none (they may stay, unused). */
const TenancySettings: Json = {
  $id: 'TenancySettings',
  title: 'Tenancy settings',
  description:
    'How the datasource isolates its clients: rows filtered by a client column of one table (TABLE), or one database per client (DATABASE).',
  oneOf: [
    {
      type: 'object',
      title: 'TABLE tenancy',
      required: ['tenancyLevel', ...TABLE_TENANCY_FIELDS],
      properties: { tenancyLevel: { const: 'TABLE' }, ...tableFields },
      additionalProperties: false,
    },
    {
      type: 'object',
      title: 'DATABASE tenancy',
      required: ['tenancyLevel'],
      properties: { tenancyLevel: { const: 'DATABASE' }, ...tableFields },
      additionalProperties: false,
    },
  ],
}

/** Update: merged into the stored settings, field by field; null removes a field. */
const TenancySettingsUpdate: Json = {
  $id: 'TenancySettingsUpdate',
  type: 'object',
  title: 'Tenancy settings (update)',
  description:
    'Merged into the stored settings: a given field replaces the stored one, a null field removes it. The merged settings must be complete (TABLE needs every table field). Omitted: the stored settings stay.',
  properties: {
    tenancyLevel: tenancy.properties.tenancyLevel,
    ...Object.fromEntries(
      Object.entries(tableFields).map(([name, field]) => [name, { anyOf: [field, { type: 'null' }] }]),
    ),
  },
  additionalProperties: false,
}

/** The named schemas the datasource bodies reference (app.ts adds them to the document). */
export const DATASOURCE_COMPONENTS: readonly Json[] = [...credentialComponents, TenancySettings, TenancySettingsUpdate]

const variants = (tenancySettings: string) =>
  DATASOURCE_TYPES.map((type) => ({
    type: 'object',
    title: `${type} datasource`,
    required: ['datasourceType', 'credentials'],
    properties: {
      datasourceType: { const: type },
      credentials: { $ref: componentName(type) },
      tenancySettings: { $ref: tenancySettings },
    },
    additionalProperties: false,
  }))

const postgres = {
  name: 'warehouse',
  host: 'db.internal',
  port: 5432,
  username: 'strata_reader',
  password: 'reader-password',
  database: 'analytics',
  schema: 'public',
  sslMode: true,
}

export const DATASOURCE_CREATE_EXAMPLES = [
  {
    datasourceType: 'postgres',
    credentials: postgres,
    tenancySettings: {
      tenancyLevel: 'TABLE',
      clientColumnType: 'STRING',
      schemaName: 'public',
      tableName: 'customers',
      tableClientNameColumn: 'tenant',
      tablePrimaryKeyColumn: 'id',
    },
  },
  { datasourceType: 'csv', credentials: { name: 'files', path: 'files', delimiter: ',' } },
] as const

export const DATASOURCE_UPDATE_EXAMPLES = [
  {
    datasourceType: 'postgres',
    credentials: { ...postgres, host: 'db-replica.internal' },
    tenancySettings: { tableName: 'accounts' },
  },
] as const

/** `POST /api/v2/datasource` as documented. */
export const DatasourceCreateRequest: Json = {
  description: 'A datasource: its type, the credentials of that type (with its name) and, optionally, its tenancy.',
  oneOf: variants('TenancySettings'),
  'x-examples': {
    postgres: {
      summary: 'PostgreSQL, rows of each client in a table (TABLE tenancy)',
      value: DATASOURCE_CREATE_EXAMPLES[0],
    },
    csv: { summary: 'CSV files uploaded under FILES_ROOT/files', value: DATASOURCE_CREATE_EXAMPLES[1] },
  },
}

/** `PUT /api/v2/datasource` as documented: the complete credentials of the same type; tenancy merges. */
export const DatasourceUpdateRequest: Json = {
  description:
    'The complete credentials of the same type (`credentials.name` selects the datasource), and optionally tenancy settings to merge.',
  oneOf: variants('TenancySettingsUpdate'),
  examples: DATASOURCE_UPDATE_EXAMPLES,
}
