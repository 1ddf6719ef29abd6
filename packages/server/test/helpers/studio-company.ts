import { expect } from 'vitest'
import { salesRelationships, salesTables } from './analytics.js'
import type { PgWarehouse } from './warehouse.js'

export const STUDIO_ADMIN = {
  firstName: 'Alice',
  companyName: 'Acme',
  email: 'alice@example.com',
  password: 'Str0ng!Pass',
}

/** A response body as `fetch` parses it (untyped, as the tests read it). */
type Json = Awaited<ReturnType<Response['json']>>
/** An API call with the admin's token: its status and body. */
export type AdminCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: Json }>
/** An API call with the admin's token that must answer 200: its body. */
export type AdminApi = (method: string, path: string, body?: unknown) => Promise<Json>

/**
 * What the studio's browser tests start from on a fresh server (set up through the API, not the
 * screens the walkthrough covers): the admin account, the warehouse's PostgreSQL datasource
 * `warehouse`, the datamart `sales` (orders and customers with their tenant column, customers
 * 1:n orders) and the workspace `main`. The admin's access token and two ways to call with it.
 */
export async function studioCompany(url: string, wh: PgWarehouse) {
  const created = await fetch(`${url}/api/v2/admin-account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(STUDIO_ADMIN),
  })
  const admin = (await created.json()).data.accessToken as string
  const call: AdminCall = async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    return { status: res.status, json: await res.json() }
  }
  const api: AdminApi = async (method, path, body) => {
    const res = await call(method, path, body)
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.json)}`).toBe(200)
    return res.json
  }
  await api('POST', '/api/v2/datasource', {
    datasourceType: 'postgres',
    credentials: { name: 'warehouse', ...wh.credentials },
  })
  await api('POST', '/api/v2/data-app/datamarts', {
    name: 'sales',
    datasourceName: 'warehouse',
    tableList: salesTables(wh.schema),
    relationships: salesRelationships(wh.schema),
  })
  await api('POST', '/api/v2/workspace', { name: 'main', connectionType: 'DATAMART', datamartName: 'sales' })
  return { admin, call, api }
}
