/**
 * A table as the server names it: `schema.table`, or the bare name of a table without a schema
 * (an Elasticsearch or OpenSearch index), as datamart relationships and metric `from` read it.
 */
export const tableKey = (schema: string, name: string): string => (schema === '' ? name : `${schema}.${name}`)
