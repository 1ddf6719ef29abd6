import { operations, SERVICE_TOKEN } from '../../schemas/openapi.js'

const tablesUnknown =
  'Also when a table or column of tableList or relationships is not in the datasource, a table is listed twice, or a custom column has no sql.'
const listing =
  'The datamarts of the organization with their tenancy and datasource; with details expanded, their tables, columns and relationships too. Pages of 10 when paginating.'

const createErrors = [
  [400, 'DATASOURCE_NAME_ERROR', 'datasourceName names no datasource of the organization.'],
  [400, 'INVALID_REQUEST_BODY', `${tablesUnknown} Also when a datamart of that name exists.`],
] as const

/** Datamarts (the semantic model over a datasource); service token. Legacy paths included. */
export const docs = operations('datamarts', {
  createDatamart: {
    summary: 'Create a datamart over a datasource',
    description:
      'A datamart is the model a workspace queries: the tables of one datasource (with labels, hidden and custom columns, a client column per table) and the relationships that join them. Every table and column is checked against the cached schema of the datasource. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: createErrors,
    returns: 'The id of the new datamart.',
  },
  createDatamartLegacy: {
    summary: 'Create a datamart over a datasource (legacy path)',
    description:
      'The older path of `POST /api/v2/data-app/datamarts`: the same body (in our names or the hosted service’s) and answer. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: createErrors,
    returns: 'The id of the new datamart.',
    deprecated: true,
  },
  updateDatamart: {
    summary: 'Replace the tables and relationships of a datamart',
    description:
      'Replaces the table configuration of the datamart `datamartName` as a whole (checked as on create). Cached results that used it are dropped on every instance. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [[400, 'INVALID_REQUEST_BODY', `${tablesUnknown} Also when no datamart has that name.`]],
    returns: 'The id of the datamart.',
  },
  deleteDatamart: {
    summary: 'Delete a datamart no workspace uses',
    description: 'Deletes the datamart; refused while a workspace uses it. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [[400, 'INVALID_REQUEST_BODY', 'Also when no datamart has that name, or a workspace uses it.']],
    returns: 'The id of the deleted datamart.',
  },
  deleteDatamartLegacy: {
    summary: 'Delete a datamart (legacy, typed body)',
    description:
      'The legacy form of `DELETE /api/v2/data-app/datamart`, with `datamartName` in a JSON body. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [[400, 'INVALID_REQUEST_BODY', 'Also when no datamart has that name, or a workspace uses it.']],
    returns: 'The id of the deleted datamart.',
    deprecated: true,
  },
  listDatamarts: {
    summary: 'List datamarts',
    description: `${listing} \`expandDetails\` omitted expands; when given, only the string \`true\` does. Takes the service token.`,
    auth: SERVICE_TOKEN,
  },
  listDatamartsLegacy: {
    summary: 'List datamarts (legacy, typed body)',
    description: `${listing} The legacy form of \`GET /api/v2/data-app/datamarts\`, with a JSON body of typed booleans and numbers; \`expandDetails\` omitted expands. Takes the service token.`,
    auth: SERVICE_TOKEN,
    deprecated: true,
  },
})
