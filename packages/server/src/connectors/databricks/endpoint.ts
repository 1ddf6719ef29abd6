/**
 * Where a databricks datasource's statements go: the workspace URL from `serverHostname`
 * (a host name, `host:port`, or an http(s):// URL — the endpoint override of docs/datasources.md#fields-that-need-a-word) and
 * the SQL warehouse ID from `httpPath` (`/sql/1.0/warehouses/<id>`, or the older
 * `/sql/1.0/endpoints/<id>` of the same warehouses). Pure, so every form is unit-tested.
 */

export interface Endpoint {
  /** `https://host[:port]` (or http:// when the override says so), no trailing slash. */
  readonly baseUrl: string
  readonly warehouseId: string
}

/** The endpoint, or why these credentials cannot be served (a connection error at connect). */
export type EndpointResult = { readonly endpoint: Endpoint } | { readonly problem: string }

const WAREHOUSE_PATH = /^\/?sql\/1\.0\/(?:warehouses|endpoints)\/([A-Za-z0-9]+)\/?$/
const CLUSTER_PATH = /^\/?sql\/protocolv1\//

export function parseEndpoint(serverHostname: string, httpPath: string): EndpointResult {
  const base = baseUrl(serverHostname.trim())
  if (base === undefined) {
    return { problem: 'serverHostname must be a host name, host:port, or an http:// or https:// URL' }
  }
  const path = httpPath.trim()
  if (CLUSTER_PATH.test(path)) {
    return {
      problem:
        'httpPath names an all-purpose cluster (/sql/protocolv1/…); the SQL Statement Execution API this connector uses serves SQL warehouses only: use the HTTP path of a SQL warehouse (/sql/1.0/warehouses/<id>)',
    }
  }
  const m = WAREHOUSE_PATH.exec(path)
  if (!m?.[1]) return { problem: 'httpPath must be the HTTP path of a SQL warehouse: /sql/1.0/warehouses/<id>' }
  return { endpoint: { baseUrl: base, warehouseId: m[1] } }
}

function baseUrl(text: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  // Credentials, a path, a query or a fragment have no place in a workspace address.
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    return undefined
  }
  if (url.hostname === '') return undefined
  return `${url.protocol}//${url.host}`
}
