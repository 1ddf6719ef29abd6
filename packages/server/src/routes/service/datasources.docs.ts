import { operations, SERVICE_TOKEN } from '../../schemas/openapi.js'

const credentialsInvalid =
  'Also when the credentials do not fit datasourceType (the message names the field, e.g. `credentials.port must be an integer between 1 and 65535`), or the TABLE tenancy table or its columns do not exist.'

/** Datasources and the files of csv datasources; service token. */
export const docs = operations('datasources', {
  createDatasource: {
    summary: 'Create a datasource: check the credentials, connect, cache the schema',
    description:
      'Validates the credentials of `datasourceType` (one schema per type: unknown fields refused, no coercion), tests the connection, introspects the tables and saves the datasource with its credentials encrypted. Nothing is saved when a step fails. When the introspection finds no table the datasource is saved and the answer carries `data.warnings`. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'INVALID_REQUEST_BODY', `${credentialsInvalid} Also when a datasource of that name exists.`],
      [400, 'DATASOURCE_CONNECTION_ERROR'],
      [400, 'DATASOURCE_NOT_SUPPORTED'],
      [400, 'QUERY_ERROR', 'The introspection of the tables failed.'],
    ],
    returns:
      'The datasource, without any credential field; `id` is what sync takes. Its name also at the top level (`name`).',
  },
  updateDatasource: {
    summary: 'Replace the credentials of a datasource; tenancy settings merge',
    description:
      '`credentials.name` selects the datasource and `datasourceType` must be its type; the credentials are replaced as a whole, checked, tested and the schema introspected again, as on create. A secret field left out keeps its stored value (`null` removes it), as long as no host, URL or port field changed: then every stored secret must be sent again. `tenancySettings` merge into the stored ones (null removes a field). Cached results of the datasource are dropped on every instance. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [
      [
        400,
        'INVALID_REQUEST_BODY',
        `${credentialsInvalid} Also when no datasource has that name, datasourceType differs from its type, or a secret is left out while a host, URL or port field changed.`,
      ],
      [400, 'DATASOURCE_CONNECTION_ERROR'],
      [400, 'DATASOURCE_NOT_SUPPORTED'],
      [400, 'QUERY_ERROR', 'The introspection of the tables failed.'],
    ],
    returns: 'The datasource, without any credential field; its name also at the top level (`name`).',
  },
  syncDatasource: {
    summary: 'Refresh the cached schema of a datasource',
    description:
      'Introspects the tables again (`input.datasourceId`: the `id` from create, or the name) and bumps the schema version, which drops the cached results that depended on the old one. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'DATASOURCE_ID_ERROR'],
      [400, 'DATASOURCE_CONNECTION_ERROR'],
      [400, 'QUERY_ERROR', 'The introspection of the tables failed.'],
    ],
  },
  listDatasources: {
    summary: 'List datasources',
    description:
      'The datasources of the organization (name, type, creation time), never their credentials; pages of 10 with `isPagination=true`. Takes the service token.',
    auth: SERVICE_TOKEN,
  },
  listDatasourceTypes: {
    summary: 'The credential form of every datasource type',
    description:
      'For each `datasourceType`: its fields in order, each with its label, description, kind (text, longText, integer, boolean, choice), whether it is required and whether it is secret (never answered back). Read from the schemas that validate the credentials; the studio draws its datasource form from it. `supported: false`: the credentials validate but this server cannot connect to the type. Takes the service token.',
    auth: SERVICE_TOKEN,
  },
  listDatasourceTables: {
    summary: 'The tables and columns of a datasource',
    description:
      "The schema the last introspection (create, update or sync) found: every table with its columns, their data type and the engine's own type name. No credential field. Sync first to see tables created since. Takes the service token.",
    auth: SERVICE_TOKEN,
    errors: [[400, 'INVALID_DATASOURCE_NAME', 'No datasource has that name.']],
  },
  datasourceSettings: {
    summary: 'The stored credentials of a datasource, without its secrets',
    description:
      'What an edit form starts from: the stored credential fields except the secret ones, the names of the secret fields that hold a value (never their values), and the tenancy settings. An update that leaves a secret field out keeps it. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [[400, 'INVALID_DATASOURCE_NAME', 'No datasource has that name.']],
  },
  deleteDatasource: {
    summary: 'Delete a datasource no datamart or workspace uses',
    description:
      'Deletes the datasource and closes its connection pool on every instance; files uploaded under its name stay in FILES_ROOT. Refused, naming them, while a datamart or a DATASOURCE workspace uses it. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'INVALID_DATASOURCE_NAME', 'No datasource has that name.'],
      [400, 'INVALID_REQUEST_BODY', 'Also while a datamart or a DATASOURCE workspace uses the datasource.'],
    ],
    returns: 'The id of the deleted datasource.',
  },
  uploadDatasourceFile: {
    summary: 'Store a file (.csv, .parquet, .json) for csv datasources',
    description:
      'Stores the raw body, whatever its Content-Type, as `FILES_ROOT/<datasourceName>/<fileName>`, replacing a file of that name once the upload is complete (a refused or cut-off upload leaves nothing). Use the answered `path`, or its folder, as the `path` of a `csv` datasource. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [
      [
        400,
        'INVALID_REQUEST_BODY',
        'Also when a name breaks the rule (1-128 letters, digits, `_ - .`, not first; the file name ends in .csv, .parquet or .json) or the body is empty; and when the file breaks the file limits (size, line length, JSON nested deeper than 64 levels: docs/datasources.md), naming it.',
      ],
      [413, 'PAYLOAD_TOO_LARGE', 'The file is larger than FILE_UPLOAD_LIMIT (100 MiB by default).'],
    ],
    returns: 'Where the file is, relative to FILES_ROOT, and its size.',
  },
})
