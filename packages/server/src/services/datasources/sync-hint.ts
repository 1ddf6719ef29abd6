/**
 * Where a name a request uses is looked up in the cached schema: what that copy is and how to
 * refresh it. The id is the datasource's, never anything secret.
 */
export function syncHint(datasource: { readonly id: string; readonly name: string }, what = 'table or column'): string {
  const body = JSON.stringify({ input: { datasourceId: datasource.id } })
  return (
    `Names are checked against Strata's cached copy of the schema of datasource ${datasource.name}, ` +
    `read when it was created or last synced: if the ${what} was added to the warehouse since, ` +
    `refresh the copy with POST /api/v2/datasource/sync and the body ${body}, then retry`
  )
}
